import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { navigate } from '../router';
import { ErrorBox, Spinner, useAsync } from '../components/common';
import { PageText } from '../components/PageText';
import { PdfPage } from '../components/PdfPage';
import { closePdf } from '../data/pdf';
import { toApiError } from '../api/errors';
import { TocTree, activeEntry } from '../components/TocTree';
import { PageCache, getRegulation, getToc, recallPage, rememberPage, type PageText as PageData } from '../data/regulations';

const ZOOM_KEY = 'gridcode.reader.zoom';
const VIEW_KEY = 'gridcode.reader.view';
const ZOOM_STEPS = [0.8, 0.9, 1, 1.1, 1.25, 1.4, 1.6, 1.8, 2];

function loadZoom(): number {
  const z = Number(localStorage.getItem(ZOOM_KEY));
  return ZOOM_STEPS.includes(z) ? z : 1;
}

function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}

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
        <ErrorBox title="无法打开规程" error={loaded.error} onRetry={loaded.reload} />
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
  const [page, setPage] = useState(() => clamp(requested > 0 ? requested : (recallPage(info.reg_id) ?? 1)));
  // highlight from a search hit applies to the hit page only
  const hl = useMemo(() => ({
    page: requested > 0 ? clamp(requested) : null,
    terms: (query.get('hl') ?? '').split('|').filter(Boolean),
    article: query.get('article'),
    from: query.get('q'),
  }), [query, requested, clamp]);
  const [showHl, setShowHl] = useState(hl.terms.length > 0);
  const [pageData, setPageData] = useState<PageData | undefined>(() => cache.peek(page));
  const [pageError, setPageError] = useState<unknown>(undefined);
  const [zoom, setZoom] = useState(loadZoom);
  const [tocOpen, setTocOpen] = useState(true);
  const isPdf = info.format === 'pdf';
  // PDFs open on the original page picture; the stored text view stays one click away
  const [view, setView] = useState<'original' | 'text'>(() => (localStorage.getItem(VIEW_KEY) === 'text' ? 'text' : 'original'));
  const [pdfError, setPdfError] = useState<string | null>(null);
  const showPdf = isPdf && view === 'original' && !pdfError;
  useEffect(() => () => closePdf(info.reg_id), [info.reg_id]);
  const [pageBox, setPageBox] = useState(String(page));
  const viewRef = useRef<HTMLDivElement>(null);

  // a new search hit while the reader is open
  useEffect(() => {
    if (requested > 0) setPage(clamp(requested));
    setShowHl(hl.terms.length > 0);
  }, [hl, requested, clamp]);

  useEffect(() => {
    setPageBox(String(page));
    rememberPage(info.reg_id, page);
    history.replaceState(null, '', `#/reader/${encodeURIComponent(info.reg_id)}?page=${page}${showHl && hl.terms.length ? `&hl=${encodeURIComponent(hl.terms.join('|'))}${hl.article ? `&article=${encodeURIComponent(hl.article)}` : ''}${hl.from ? `&q=${encodeURIComponent(hl.from)}` : ''}` : ''}`);
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

  const highlightHere = showHl && hl.page === page ? hl.terms : [];

  // new page: back to top, or to the hit
  useEffect(() => {
    const view = viewRef.current;
    if (!view || !pageData) return;
    const hit = view.querySelector<HTMLElement>('mark.hit') ?? view.querySelector<HTMLElement>('mark');
    if (highlightHere.length && hit) {
      hit.scrollIntoView({ block: 'center' });
      hit.closest('.blk')?.classList.add('flash');
    } else view.scrollTop = 0;
  }, [pageData, highlightHere.length]);

  const go = useCallback((n: number) => setPage(clamp(n)), [clamp]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      if (document.querySelector('[role="dialog"]')) return;
      let handled = true;
      if (e.key === 'ArrowLeft' || e.key === 'PageUp') go(page - 1);
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

  const setZoomStep = (dir: 1 | -1) => {
    setZoom((z) => {
      const i = ZOOM_STEPS.indexOf(z);
      const next = ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, Math.max(0, (i < 0 ? 2 : i) + dir))];
      localStorage.setItem(ZOOM_KEY, String(next));
      return next;
    });
  };

  const section = activeEntry(toc, page);

  return (
    <div className="reader">
      <div className="reader-bar" role="toolbar" aria-label="阅读工具栏">
        <button type="button" className="btn ghost" onClick={() => navigate('library')} aria-label="返回规程库">
          ←
        </button>
        <button type="button" className="btn ghost" aria-pressed={tocOpen} onClick={() => setTocOpen((o) => !o)} title="显示/隐藏目录">
          目录
        </button>
        <div className="reader-title" title={info.title}>
          <div className="reader-title-main">{info.title}</div>
          <div className="muted small">{section ? section.title : info.reg_id}</div>
        </div>
        <div className="row pager">
          <button type="button" className="btn" onClick={() => go(page - 1)} disabled={page <= 1} aria-label="上一页" title="上一页（← / PgUp）">
            ‹ 上一页
          </button>
          <form
            className="page-box"
            onSubmit={(e) => {
              e.preventDefault();
              const n = Number(pageBox);
              if (Number.isFinite(n) && n >= 1) go(n);
              else setPageBox(String(page));
            }}
          >
            <span>第</span>
            <input
              className="input page-input"
              aria-label="页码"
              inputMode="numeric"
              value={pageBox}
              onChange={(e) => setPageBox(e.target.value.replace(/[^\d]/g, ''))}
              onBlur={() => setPageBox(String(page))}
            />
            <span>/ {total} 页</span>
          </form>
          <button type="button" className="btn" onClick={() => go(page + 1)} disabled={page >= total} aria-label="下一页" title="下一页（→ / PgDn）">
            下一页 ›
          </button>
        </div>
        <button
          type="button"
          className="btn ghost"
          title="在本规程中搜索"
          aria-label="在本规程中搜索"
          onClick={() => navigate('search', [], { scope: 'pick', regs: info.reg_id })}
        >
          搜索本规程
        </button>
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
                  localStorage.setItem(VIEW_KEY, id);
                }}
              >
                {label}
              </button>
            ))}
          </div>
        ) : null}
        <div className="row zoom">
          <button type="button" className="btn small" onClick={() => setZoomStep(-1)} aria-label="缩小" disabled={zoom <= ZOOM_STEPS[0]}>
            A−
          </button>
          <span className="small zoom-value" aria-label="缩放比例">
            {Math.round(zoom * 100)}%
          </span>
          <button type="button" className="btn small" onClick={() => setZoomStep(1)} aria-label="放大" disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]}>
            A+
          </button>
        </div>
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
      <div className={`reader-body${tocOpen ? '' : ' no-toc'}`}>
        {tocOpen ? (
          <aside className="reader-toc" aria-label="目录面板">
            <TocTree toc={toc} page={page} onJump={go} />
          </aside>
        ) : null}
        <div className="reader-view" ref={viewRef}>
          {showHl && hl.terms.length ? (
            <div className="banner info hl-banner" role="status">
              {hl.page === page ? '已定位到搜索命中' : `搜索命中在第 ${hl.page} 页`}
              {hl.from ? `：「${hl.from}」` : ''}
              {hl.page !== page && hl.page ? (
                <button type="button" className="btn small" onClick={() => go(hl.page!)}>
                  回到命中页
                </button>
              ) : null}
              <button type="button" className="btn small ghost" onClick={() => setShowHl(false)}>
                清除高亮
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
              <PdfPage regId={info.reg_id} page={page} zoom={zoom} terms={highlightHere} onFailed={(e) => setPdfError(toApiError(e).message)} />
            ) : pageError ? (
              <ErrorBox title={`无法读取第 ${page} 页`} error={pageError} onRetry={() => setPage((p) => p)} />
            ) : pageData ? (
              <PageText text={pageData.text} terms={highlightHere} hitArticle={hl.page === page ? hl.article : null} />
            ) : (
              <Spinner label={`正在读取第 ${page} 页…`} />
            )}
            <div className="page-foot muted small">
              — {page} / {total} —
            </div>
          </article>
        </div>
      </div>
    </div>
  );
}
