import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { navigate } from '../router';
import { EmptyState, ErrorBox, Spinner, useAsync } from '../components/common';
import { PageText, type PageReference, type PageStructure } from '../components/PageText';
import { RegTable } from '../components/RegTable';
import { api } from '../api/client';
import { PdfPage, type PdfFit } from '../components/PdfPage';
import { closePdf } from '../data/pdf';
import { remember, useRememberedFlag } from '../data/remembered';
import { toApiError } from '../api/errors';
import { TocTree } from '../components/TocTree';
import { EditionBar } from '../components/EditionBar';
import { SearchResultsPane, searchFor } from '../components/SearchResultsPane';
import { searchSession } from '../data/search-session';
import { activeEntry, hitTargetParams, pageProblem, parseHitTarget } from '../components/reader-logic';
import { PageCache, getRegulation, getToc, recallPage, rememberPage, type PageText as PageData, type TocEntry } from '../data/regulations';

const ZOOM_KEY = 'gridcode.reader.zoom';
const FIT_KEY = 'gridcode.reader.fit';
const VIEW_KEY = 'gridcode.reader.view';
const TOC_KEY = 'gridcode.reader.toc';
const RESULTS_KEY = 'gridcode.reader.results';
/** From this width the search results sit beside the page (split view); narrower, "返回搜索结果" restores them. */
const SPLIT_MIN_WIDTH = 1280;

function useWide(min: number): boolean {
  const query = `(min-width: ${min}px)`;
  const [wide, setWide] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setWide(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return wide;
}
const ZOOM_STEPS = [0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.25, 1.4, 1.6, 1.8, 2];

function loadZoom(): number {
  const z = Number(localStorage.getItem(ZOOM_KEY));
  return ZOOM_STEPS.includes(z) ? z : 1;
}

function loadFit(): PdfFit {
  const f = localStorage.getItem(FIT_KEY);
  return f === 'page' || f === 'zoom' ? f : 'width';
}


function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}

/** Space on a focused button/link/TOC item activates it; it flips pages everywhere else. */
function isActivatable(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.closest) return false;
  return !!el.closest('button, a, summary, [role="treeitem"], [role="radio"], [role="switch"], [role="checkbox"], [role="tab"]');
}

const norm = (s: string) => s.replace(/[\s\u3000#]+/g, '');

export function ReaderScreen({ regId, query }: { regId: string; query: URLSearchParams }) {
  const loaded = useAsync(async () => {
    const [info, toc] = await Promise.all([getRegulation(regId), getToc(regId)]);
    return { info, toc };
  }, [regId]);

  if (!regId) {
    return (
      <div className="screen">
        <ErrorBox title="未指定规程" error={new Error('请从规程库选择要阅读的规程')} />
      </div>
    );
  }
  if (loaded.error) {
    return (
      <div className="screen">
        <div className="row">
          <button type="button" className="btn" onClick={() => navigate('library')}>
            ← 返回规程库
          </button>
        </div>
        {(loaded.error as { code?: string }).code === 'NOT_FOUND' ? (
          <EmptyState title="规程库里没有这部规程" action={<button type="button" className="btn primary" onClick={() => navigate('library')}>打开规程库</button>}>
            它可能已被删除，或链接来自另一台电脑。请在规程库中选择，或在“导入”页重新导入原文件。
          </EmptyState>
        ) : (
          <ErrorBox title="无法打开规程" error={loaded.error} onRetry={loaded.reload} />
        )}
      </div>
    );
  }
  if (!loaded.data) return <Spinner label="正在打开规程…" />;
  return <Reader key={regId} info={loaded.data.info} toc={loaded.data.toc} query={query} />;
}

function Reader({
  info,
  toc,
  query,
}: {
  info: Awaited<ReturnType<typeof getRegulation>>;
  toc: Awaited<ReturnType<typeof getToc>>;
  query: URLSearchParams;
}) {
  const total = Math.max(1, info.total_pages);
  const clamp = useCallback((n: number) => Math.min(total, Math.max(1, Math.round(n))), [total]);
  const cache = useMemo(() => new PageCache(info.reg_id, total), [info.reg_id, total]);

  const requested = Number(query.get('page'));
  const [editionArticle, setEditionArticle] = useState<string | null>(() => query.get('article'));
  const [page, setPage] = useState(() => clamp(requested > 0 ? requested : (recallPage(info.reg_id) ?? 1)));
  // highlight from a search hit applies to the hit page only
  const hl = useMemo(() => {
    const target = parseHitTarget(query);
    const terms = (query.get('hl') ?? '').split('|').filter(Boolean);
    return {
      page: requested > 0 ? clamp(requested) : null,
      terms,
      target,
      // a hit found by meaning alone has no words to mark, but still a block to open
      any: terms.length > 0 || !!(target.lead || target.label || target.table),
      from: query.get('q'),
    };
  }, [query, requested, clamp]);
  const [showHl, setShowHl] = useState(hl.any);
  const [pageData, setPageData] = useState<PageData | undefined>(() => cache.peek(page));
  const [pageError, setPageError] = useState<unknown>(undefined);
  const [zoom, setZoom] = useState(loadZoom);
  const [fit, setFit] = useState<PdfFit>(loadFit);
  const [pdfScale, setPdfScale] = useState<number | null>(null);
  const [tocOpen, setTocOpen] = useRememberedFlag(TOC_KEY, 'open', 'closed', true);
  const wide = useWide(SPLIT_MIN_WIDTH);
  const [resultsOpen, showResults] = useRememberedFlag(RESULTS_KEY, 'open', 'closed', true);
  const fromSearch = searchFor(query.get('q'));
  const split = wide && resultsOpen && !!fromSearch;
  const isPdf = info.format === 'pdf';
  // PDFs open on the original page picture; the stored text view stays one click away
  const [view, setView] = useState<'original' | 'text'>(() => (localStorage.getItem(VIEW_KEY) === 'text' ? 'text' : 'original'));
  const [pdfError, setPdfError] = useState<string | null>(null);
  const showPdf = isPdf && view === 'original' && !pdfError;
  useEffect(() => () => closePdf(info.reg_id), [info.reg_id]);
  const [pageBox, setPageBox] = useState(String(page));
  const [pageMsg, setPageMsg] = useState<string | null>(null);
  // the TOC entry the reader jumped to (several sections can start on one page)
  const [picked, setPicked] = useState<{ id: number; scroll: boolean } | null>(null);
  const viewRef = useRef<HTMLDivElement>(null);
  const titleRef = useRef<HTMLDivElement>(null);
  const [titleCut, setTitleCut] = useState(false);
  const [area, setArea] = useState<{ width: number; height: number }>({ width: 800, height: 600 });

  // the page area's size drives fit-to-width / fit-to-page and the title tooltip
  useEffect(() => {
    const el = viewRef.current;
    if (!el) return;
    const measure = () => {
      setArea((a) => (a.width === el.clientWidth && a.height === el.clientHeight ? a : { width: el.clientWidth, height: el.clientHeight }));
      const t = titleRef.current;
      if (t) setTitleCut(t.scrollWidth > t.clientWidth + 1);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    if (titleRef.current) ro.observe(titleRef.current);
    return () => ro.disconnect();
  }, []);

  // a new search hit while the reader is open
  useEffect(() => {
    if (requested > 0) setPage(clamp(requested));
    setShowHl(hl.any);
  }, [hl, requested, clamp]);

  useEffect(() => {
    setPageBox(String(page));
    setPageMsg(null);
    rememberPage(info.reg_id, page);
    const kept = new URLSearchParams({ page: String(page) });
    if (showHl && hl.any) {
      if (hl.terms.length) kept.set('hl', hl.terms.join('|'));
      for (const [k, v] of Object.entries(hitTargetParams(hl.target))) if (v) kept.set(k, v);
      if (hl.from) kept.set('q', hl.from);
    }
    history.replaceState(null, '', `#/reader/${encodeURIComponent(info.reg_id)}?${kept.toString()}`);
    const cached = cache.peek(page);
    setPageError(undefined);
    if (cached) {
      setPageData(cached);
      cache.prefetch(page);
      return;
    }
    setPageData(undefined);
    let live = true;
    cache.get(page).then(
      (p) => {
        if (!live) return;
        setPageData(p);
        cache.prefetch(page);
      },
      (e: unknown) => live && setPageError(e),
    );
    return () => {
      live = false;
    };
  }, [page, cache, info.reg_id, showHl, hl]);

  // the page's tables, notes and references (tables render from it, references become links)
  const [structure, setStructure] = useState<PageStructure | null>(null);
  useEffect(() => {
    let live = true;
    setStructure(null);
    api('regulations.page_structure', { reg_id: info.reg_id, page }).then(
      (s) => live && setStructure(s),
      () => {
        /* without structure the page still reads as printed text */
      },
    );
    return () => {
      live = false;
    };
  }, [info.reg_id, page]);

  // following a reference: where to come back to (this regulation's pages, or another regulation's page)
  const [backStack, setBackStack] = useState<{ reg_id: string; page: number; title: string }[]>(() => {
    const m = /^([a-z0-9][a-z0-9_-]*):(\d+)(?::(.*))?$/.exec(query.get('back') ?? '');
    return m ? [{ reg_id: m[1], page: Number(m[2]), title: m[3] ?? '' }] : [];
  });
  const pendingFocus = useRef<PageReference | null>(null);
  const followReference = useCallback(
    (ref: PageReference) => {
      if (!ref.resolved || !ref.page_num || !ref.reg_id) return;
      if (ref.reg_id !== info.reg_id) {
        navigate('reader', [ref.reg_id], { page: ref.page_num, back: `${info.reg_id}:${page}:${info.title}` });
        return;
      }
      setBackStack((b) => [...b, { reg_id: info.reg_id, page, title: info.title }]);
      pendingFocus.current = ref;
      setPicked(null);
      setPage(clamp(ref.page_num));
    },
    [info.reg_id, info.title, page, clamp],
  );
  const goBack = () => {
    const last = backStack[backStack.length - 1];
    if (!last) return;
    setBackStack((b) => b.slice(0, -1));
    if (last.reg_id !== info.reg_id) navigate('reader', [last.reg_id], { page: last.page });
    else {
      setPicked(null);
      setPage(clamp(last.page));
    }
  };
  // after a jump, bring the target (table, article) into view once the page has painted
  useEffect(() => {
    const ref = pendingFocus.current;
    const view = viewRef.current;
    // wait for this page's text and structure (the previous page's may still be in state)
    if (!ref || !view || pageData?.page_num !== page || structure?.page_num !== page || ref.page_num !== page) return;
    const el =
      (ref.table_id ? view.querySelector<HTMLElement>(`[data-table-id="${CSS.escape(ref.table_id)}"]`) : null) ??
      (ref.target ? view.querySelector<HTMLElement>(`[data-label="${CSS.escape(ref.target)}"]`) : null);
    pendingFocus.current = null;
    // after the page's own scroll-to-top (declared below) has run
    if (el)
      requestAnimationFrame(() => {
        el.scrollIntoView({ block: 'start' });
        el.classList.add('flash');
      });
  }, [pageData, structure, page]);

  const highlightHere = showHl && hl.page === page ? hl.terms : [];
  const targetHere = showHl && hl.page === page && hl.any ? hl.target : null;
  // the pages the hit runs onto (an article continued on the next page), read to show it whole
  const [runOn, setRunOn] = useState<{ page: number; text: string }[]>([]);
  const runOnEnd = targetHere?.end && targetHere.end > page ? Math.min(total, targetHere.end) : null;
  useEffect(() => {
    setRunOn([]);
    if (!runOnEnd) return;
    let live = true;
    const wanted = Array.from({ length: runOnEnd - page }, (_, i) => page + 1 + i);
    Promise.all(wanted.map((n) => cache.get(n))).then(
      (pages) => live && setRunOn(pages.map((p) => ({ page: p.page_num, text: p.text }))),
      () => {
        /* the hit page still reads; only its continuation is missing */
      },
    );
    return () => {
      live = false;
    };
  }, [runOnEnd, page, cache]);
  const section = activeEntry(toc, page, picked?.id);

  // a TOC jump waiting for its page to paint, then scrolled to its heading
  const pendingJump = useRef<number | null>(null);
  // scrolls the reader makes itself (to a hit, a heading, the top) must not move the TOC highlight
  const quietUntil = useRef(0);
  const [jumpSeq, setJumpSeq] = useState(0);

  // new page: back to top, to the hit, or to the section picked in the TOC
  useEffect(() => {
    const view = viewRef.current;
    if (!view || !pageData) return;
    quietUntil.current = performance.now() + 400;
    // the original page scrolls to its hit itself once drawn (PdfPage)
    if (showPdf && targetHere) return;
    // the hit's block (a table's row), else the first marked term
    const block = targetHere ? (view.querySelector<HTMLElement>('tr.row-hit') ?? view.querySelector<HTMLElement>('[data-hit="true"]')) : null;
    const hit = block ?? view.querySelector<HTMLElement>('mark.hit') ?? view.querySelector<HTMLElement>('mark');
    if ((highlightHere.length || targetHere) && hit) {
      // a block taller than the view opens at its start, a short one in the middle
      hit.scrollIntoView({ block: hit.offsetHeight > view.clientHeight * 0.7 ? 'start' : 'center' });
      (hit.closest('.blk-hit-run') ?? hit.closest('.blk'))?.classList.add('flash');
      return;
    }
    const entry = pendingJump.current != null ? toc.find((e) => e.id === pendingJump.current) : undefined;
    if (entry && entry.page_num === page && !showPdf) {
      pendingJump.current = null;
      const want = norm(entry.title);
      const heading = Array.from(view.querySelectorAll<HTMLElement>('.blk-heading, .blk')).find((h) => {
        const t = norm(h.textContent ?? '');
        return t.length > 0 && (t.startsWith(want) || want.startsWith(t));
      });
      if (heading) {
        heading.scrollIntoView({ block: 'start' });
        return;
      }
    }
    view.scrollTop = 0;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageData, highlightHere.length, jumpSeq, showPdf]);

  // tables render once the page's structure is in, a continued article once its next page is read:
  // then the hit's block is where it will stay
  useEffect(() => {
    const view = viewRef.current;
    if (!view || !targetHere || showPdf || (!structure && !runOn.length)) return;
    const block = view.querySelector<HTMLElement>('tr.row-hit') ?? view.querySelector<HTMLElement>('[data-hit="true"]');
    if (!block) return;
    quietUntil.current = performance.now() + 400;
    block.scrollIntoView({ block: block.offsetHeight > view.clientHeight * 0.7 ? 'start' : 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [structure, runOn]);

  // scrolling a page that holds several sections moves the TOC highlight along (text view)
  const onViewScroll = () => {
    const view = viewRef.current;
    if (!view || showPdf || performance.now() < quietUntil.current) return;
    const onPage = toc.filter((e) => e.page_num === page);
    if (onPage.length < 2) return;
    const top = view.getBoundingClientRect().top + 48;
    let current: TocEntry | undefined;
    for (const h of Array.from(view.querySelectorAll<HTMLElement>('.blk-heading'))) {
      if (h.getBoundingClientRect().top > top) break;
      const t = norm(h.textContent ?? '');
      current = onPage.find((e) => norm(e.title) === t || t.startsWith(norm(e.title))) ?? current;
    }
    const id = current?.id ?? onPage[0].id;
    setPicked((p) => (p?.id === id ? p : { id, scroll: false }));
  };

  const go = useCallback(
    (n: number) => {
      setPicked(null);
      setPage(clamp(n));
    },
    [clamp],
  );

  const jumpTo = useCallback(
    (entry: TocEntry) => {
      setPicked({ id: entry.id, scroll: true });
      pendingJump.current = entry.id;
      setJumpSeq((n) => n + 1);
      setPage(clamp(entry.page_num));
    },
    [clamp],
  );

  const setZoomStep = (dir: 1 | -1) => {
    // from a fit mode, step from the scale the page is shown at now
    const current = showPdf && fit !== 'zoom' && pdfScale ? pdfScale : zoom;
    const next =
      dir > 0 ? (ZOOM_STEPS.find((z) => z > current + 0.001) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]) : ([...ZOOM_STEPS].reverse().find((z) => z < current - 0.001) ?? ZOOM_STEPS[0]);
    setZoom(next);
    remember(ZOOM_KEY, String(next));
    if (showPdf) {
      setFit('zoom');
      remember(FIT_KEY, 'zoom');
    }
  };

  const chooseFit = (f: PdfFit) => {
    setFit(f);
    remember(FIT_KEY, f);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      if (document.querySelector('[role="dialog"]')) return;
      let handled = true;
      if (e.key === ' ' && !isActivatable(e.target)) go(e.shiftKey ? page - 1 : page + 1);
      else if (e.key === 'ArrowLeft' || e.key === 'PageUp') go(page - 1);
      else if (e.key === 'ArrowRight' || e.key === 'PageDown') go(page + 1);
      else if (e.key === 'Home') go(1);
      else if (e.key === 'End') go(total);
      else if (e.key === '+' || e.key === '=') setZoomStep(1);
      else if (e.key === '-') setZoomStep(-1);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const submitPage = () => {
    const problem = pageProblem(pageBox, total);
    if (problem) {
      setPageMsg(problem);
      return;
    }
    setPageMsg(null);
    go(Number(pageBox));
  };

  const toggleToc = () => setTocOpen((o) => !o);

  const shownZoom = showPdf ? (fit === 'zoom' ? zoom : (pdfScale ?? zoom)) : zoom;

  return (
    <div className="reader">
      <div className="reader-bar" role="toolbar" aria-label="阅读工具栏">
        <div className="reader-row">
          <button type="button" className="btn ghost" onClick={() => navigate('library')} aria-label="返回规程库" title="返回规程库">
            <span aria-hidden="true">←</span>
          </button>
          <button
            type="button"
            className="btn ghost"
            aria-pressed={tocOpen}
            aria-controls="reader-toc"
            onClick={toggleToc}
            title={tocOpen ? '收起目录' : '展开目录'}
          >
            {tocOpen ? '收起目录' : '目录'}
          </button>
          <div className="reader-title">
            <h1 className="reader-title-main" ref={titleRef} title={titleCut ? info.title : undefined} tabIndex={titleCut ? 0 : undefined}>
              {info.title}
            </h1>
            <div className="muted small reader-section" title={section?.title}>
              {section ? section.title : `共 ${total} 页`}
            </div>
          </div>
          <button
            type="button"
            className="btn"
            title="只在这部规程中搜索"
            onClick={() => navigate('search', [], { scope: 'pick', regs: info.reg_id })}
          >
            搜索本规程
          </button>
        </div>
        <div className="reader-row">
          <div className="row pager">
            <button type="button" className="btn" onClick={() => go(page - 1)} disabled={page <= 1} title="上一页（← / PgUp / Shift+空格）">
              上一页
            </button>
            <form
              className="page-box"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                submitPage();
              }}
            >
              <span aria-hidden="true">第</span>
              <input
                className="input page-input"
                aria-label="页码"
                aria-invalid={pageMsg ? true : undefined}
                aria-describedby={pageMsg ? 'page-msg' : undefined}
                inputMode="numeric"
                value={pageBox}
                onChange={(e) => {
                  setPageBox(e.target.value);
                  setPageMsg(null);
                }}
                onBlur={() => {
                  if (!pageMsg) setPageBox(String(page));
                }}
              />
              <span aria-hidden="true">/ {total} 页</span>
            </form>
            <button type="button" className="btn" onClick={() => go(page + 1)} disabled={page >= total} title="下一页（→ / PgDn / 空格）">
              下一页
            </button>
          </div>
          <input
            className="page-slider"
            type="range"
            min={1}
            max={total}
            value={page}
            aria-label="页面滑块"
            aria-valuetext={`第 ${page} 页，共 ${total} 页`}
            onChange={(e) => go(Number(e.target.value))}
            disabled={total <= 1}
          />
          {isPdf ? (
            <div className="segmented" role="radiogroup" aria-label="页面视图">
              {(
                [
                  ['original', '原版'],
                  ['text', '文本'],
                ] as const
              ).map(([id, label]) => (
                <button
                  key={id}
                  type="button"
                  role="radio"
                  aria-checked={(id === 'original') === showPdf}
                  onClick={() => {
                    setView(id);
                    setPdfError(null);
                    remember(VIEW_KEY, id);
                  }}
                >
                  {label}
                </button>
              ))}
            </div>
          ) : null}
          {showPdf ? (
            <div className="segmented" role="radiogroup" aria-label="页面大小">
              {(
                [
                  ['width', '适合宽度'],
                  ['page', '整页'],
                ] as const
              ).map(([id, label]) => (
                <button key={id} type="button" role="radio" aria-checked={fit === id} onClick={() => chooseFit(id)} title={id === 'width' ? '页面宽度与阅读区一致' : '整页显示在阅读区内'}>
                  {label}
                </button>
              ))}
            </div>
          ) : null}
          <div className="row zoom">
            <button type="button" className="btn small" onClick={() => setZoomStep(-1)} title="缩小（-）" disabled={shownZoom <= ZOOM_STEPS[0] + 0.001}>
              缩小
            </button>
            <output className="small zoom-value" aria-label="缩放比例">
              {Math.round(shownZoom * 100)}%
            </output>
            <button type="button" className="btn small" onClick={() => setZoomStep(1)} title="放大（+）" disabled={shownZoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1] - 0.001}>
              放大
            </button>
          </div>
        </div>
        {pageMsg ? (
          <div className="page-msg" id="page-msg" role="alert">
            {pageMsg}
          </div>
        ) : null}
      </div>
      <div className={`reader-body${tocOpen ? '' : ' no-toc'}${split ? ' with-results' : ''}`}>
        {split && fromSearch ? <SearchResultsPane result={fromSearch} current={searchSession.openedUnit} onClose={() => showResults(false)} /> : null}
        {tocOpen ? (
          <aside className="reader-toc" id="reader-toc" aria-label="目录面板">
            <TocTree toc={toc} active={section} onJump={jumpTo} />
          </aside>
        ) : null}
        <div
          className="reader-view"
          ref={viewRef}
          tabIndex={0}
          role="region"
          aria-label="阅读区"
          onScroll={onViewScroll}
          onClick={(e) => {
            // an article's label picks the article for the editions strip (查看旧版/新版, history)
            const label = (e.target as HTMLElement).closest('.label-article')?.textContent?.trim();
            if (label) setEditionArticle(label);
          }}
        >
          <EditionBar regId={info.reg_id} article={editionArticle} onClearArticle={() => setEditionArticle(null)} />
          {showHl && hl.any ? (
            <div className="banner info hl-banner" role="status">
              {hl.page === page ? '已定位到搜索命中' : `搜索命中在第 ${hl.page} 页`}
              {hl.from ? `：「${hl.from}」` : ''}
              {hl.page !== page && hl.page ? (
                <button type="button" className="btn small" onClick={() => go(hl.page!)}>
                  回到命中页
                </button>
              ) : null}
              {hl.from && wide && fromSearch && !resultsOpen ? (
                <button type="button" className="btn small" onClick={() => showResults(true)}>
                  并排显示检索结果
                </button>
              ) : null}
              {hl.from ? (
                <button type="button" className="btn small" onClick={() => navigate('search', [], { q: hl.from ?? undefined })}>
                  返回搜索结果
                </button>
              ) : null}
              <button type="button" className="btn small ghost" onClick={() => setShowHl(false)}>
                清除高亮
              </button>
            </div>
          ) : null}
          {backStack.length ? (
            <div className="banner info hl-banner back-banner" role="status">
              已跳转到引用位置
              <button type="button" className="btn small" onClick={goBack}>
                ← 返回{backStack[backStack.length - 1].reg_id !== info.reg_id ? `《${backStack[backStack.length - 1].title || '上一规程'}》` : ''}第 {backStack[backStack.length - 1].page} 页
              </button>
            </div>
          ) : null}
          {showPdf && structure?.tables.length ? (
            <div className="banner info hl-banner" role="status">
              本页有表格：{structure.tables.map((t) => `${t.table_id}${t.continued ? '（续）' : ''}`).join('、')}
              <button
                type="button"
                className="btn small"
                onClick={() => {
                  setView('text');
                  remember(VIEW_KEY, 'text');
                }}
              >
                以表格查看（可复制）
              </button>
            </div>
          ) : null}
          {pdfError ? (
            <div className="banner warn hl-banner" role="status">
              无法显示原版页面：{pdfError}（已切换到文本视图）
            </div>
          ) : null}
          <article
            className={`page-sheet${showPdf ? ' pdf' : ''}`}
            role="region"
            aria-label={`第 ${page} 页`}
            data-page={page}
            data-view={showPdf ? 'original' : 'text'}
            style={showPdf ? undefined : { fontSize: `${15 * zoom}px` }}
          >
            {showPdf ? (
              <PdfPage
                regId={info.reg_id}
                page={page}
                fit={fit}
                zoom={zoom}
                area={area}
                terms={highlightHere}
                target={targetHere}
                onScale={setPdfScale}
                onFailed={(e) => setPdfError(toApiError(e).message)}
              />
            ) : pageError ? (
              <ErrorBox title={`无法读取第 ${page} 页`} error={pageError} onRetry={() => setPage((p) => p)} />
            ) : pageData ? (
              <PageText
                text={pageData.text}
                terms={highlightHere}
                target={targetHere}
                continuation={runOn}
                markdown={info.format === 'markdown'}
                structure={structure?.page_num === page ? structure : null}
                regId={info.reg_id}
                onReference={followReference}
                renderTable={(t, key, mark, h) => <RegTable key={key} regId={info.reg_id} table={t} mark={mark} hit={h.hit} hitRow={h.row} hitNote={h.note} />}
              />
            ) : (
              <Spinner label={`正在读取第 ${page} 页…`} />
            )}
            {showPdf ? null : (
              <div className="page-foot muted small">
                — {page} / {total} —
              </div>
            )}
          </article>
          {showPdf && runOnEnd
            ? Array.from({ length: runOnEnd - page }, (_, i) => page + 1 + i).map((n) => (
                <article key={n} className="page-sheet pdf run-on-sheet" role="region" aria-label={`第 ${n} 页（命中条文续）`} data-page={n} data-view="original">
                  <div className="run-on-mark muted small">— 命中条文接续到第 {n} 页 —</div>
                  <PdfPage
                    regId={info.reg_id}
                    page={n}
                    fit={fit}
                    zoom={zoom}
                    area={area}
                    terms={hl.terms}
                    target={targetHere}
                    runOn
                    onFailed={() => {
                      /* the hit page is shown; its continuation picture is a bonus */
                    }}
                  />
                </article>
              ))
            : null}
        </div>
      </div>
    </div>
  );
}
