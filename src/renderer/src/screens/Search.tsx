import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client';
import { isCancelled } from '../api/errors';
import { useAppInfo } from '../app-info';
import { EmptyState, ErrorBox, ScreenHeader, Spinner } from '../components/common';
import { Snippet } from '../components/Markdown';
import { navigate } from '../router';
import { listRegulations, type RegulationInfo } from '../data/regulations';
import {
  groupHits,
  hitTerms,
  mergeHits,
  openHit,
  hitPage,
  hitPages,
  resultCount,
  scopeKey,
  searchSession,
  type Hit,
  type Scope,
  type SearchOutput,
} from '../data/search-session';

/** Short enough to feel instant, long enough to skip most intermediate keystrokes. */
const DEBOUNCE_MS = 50;
/** Hits a regulation's "更多来自本规程" adds per click. */
const MORE_PER_CLICK = 10;
/** The largest page the API serves (smart_search top_k). */
const MAX_TOP_K = 200;

// kept across visits (and shown beside the reader): see data/search-session.ts
const memory = searchSession;

const SCOPES: { id: Scope; label: string; hint: string }[] = [
  { id: 'auto', label: '智能', hint: '根据问题自动选择相关规程' },
  { id: 'pick', label: '指定', hint: '只在选中的规程中检索' },
  { id: 'all', label: '全部', hint: '检索全部已导入规程' },
];

export { hitTerms, openHit };


/** The banner's "为什么" in words; the thresholds stay under 详细. */
function decisionWhy(state: string, result: SearchOutput): string {
  const regs = [...new Set(result.results.slice(0, 5).map((h) => h.title))];
  if (state === 'low_evidence') return '最接近的条文与问题只有少量共同的词，也不够相近，可能没有直接回答这个问题的条文。';
  if (state === 'ambiguous') return `排在最前的几条分别来自${regs.map((t) => `「${t}」`).join('、')}，得分接近，无法判断您问的是哪一部。`;
  return '最相关的条文明显领先。';
}

export function SearchScreen({ query: routeQuery }: { query: URLSearchParams }) {
  const appInfo = useAppInfo();
  const { info } = appInfo;
  const infoRef = useRef(appInfo);
  infoRef.current = appInfo;
  const [query, setQuery] = useState(() => routeQuery.get('q') ?? memory.query);
  // #/search?scope=pick&regs=a,b ("search this regulation" in the reader) applies to this visit
  // only: it is shown as where the user came from, and the sidebar brings back their own scope
  const routeScope = routeQuery.get('scope');
  const routeRegs = (routeQuery.get('regs') ?? '').split(',').filter(Boolean);
  const [cameFrom, setCameFrom] = useState<string[] | null>(() => (routeScope === 'pick' && routeRegs.length ? routeRegs : null));
  const [scope, setScope] = useState<Scope>(() =>
    routeScope === 'auto' || routeScope === 'pick' || routeScope === 'all' ? routeScope : memory.scope,
  );
  const [picked, setPicked] = useState<string[]>(() => (routeRegs.length ? routeRegs : memory.picked));
  // "包括旧版": also search editions no longer in force (#/search?editions=all keeps it in a link)
  const [allEditions, setAllEditions] = useState(() => routeQuery.get('editions') === 'all' || memory.allEditions);
  const allEditionsRef = useRef(allEditions);
  allEditionsRef.current = allEditions;
  const [restored] = useState(() => {
    const sc = routeScope === 'auto' || routeScope === 'pick' || routeScope === 'all' ? routeScope : memory.scope;
    const pk = routeRegs.length ? routeRegs : memory.picked;
    const q = (routeQuery.get('q') ?? memory.query).trim();
    const ed = routeQuery.get('editions') === 'all' || memory.allEditions;
    return memory.result && memory.result.query === q && memory.resultKey === scopeKey(sc, pk, ed) ? memory.result : null;
  });
  const [result, setResult] = useState<SearchOutput | null>(restored);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(false);
  /** "加载更多" or a regulation id whose "更多来自本规程" is loading */
  const [moreBusy, setMoreBusy] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<unknown>(undefined);
  /** a hit added by "more": focused once it is on screen */
  const [focusUnit, setFocusUnit] = useState<number | null>(null);
  const [regs, setRegs] = useState<RegulationInfo[] | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const seq = useRef(0);
  const cameFromRef = useRef(cameFrom);
  cameFromRef.current = cameFrom;

  // back from the reader: the same list, scrolled where it was, the opened hit focused
  useLayoutEffect(() => {
    const main = document.getElementById('main');
    if (restored && main) {
      main.scrollTop = memory.scrollTop;
      const card = memory.openedUnit ? document.querySelector<HTMLElement>(`.hit-card[data-unit="${CSS.escape(memory.openedUnit)}"]`) : null;
      if (card) card.focus({ preventScroll: true });
      else inputRef.current?.focus({ preventScroll: true });
    } else inputRef.current?.focus();
    const onScroll = () => {
      if (main) memory.scrollTop = main.scrollTop;
    };
    main?.addEventListener('scroll', onScroll, { passive: true });
    return () => main?.removeEventListener('scroll', onScroll);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    listRegulations().then(setRegs, () => setRegs([]));
    const focus = () => inputRef.current?.focus();
    window.addEventListener('gridcode:focus-search', focus);
    return () => {
      window.removeEventListener('gridcode:focus-search', focus);
      abortRef.current?.abort();
      window.clearTimeout(timer.current);
    };
  }, []);

  const run = useCallback(
    async (q: string, sc: Scope, pk: string[]) => {
      window.clearTimeout(timer.current);
      abortRef.current?.abort();
      const text = q.trim();
      memory.query = q;
      const params = new URLSearchParams();
      if (text) params.set('q', text);
      if (sc === 'pick' && cameFromRef.current) {
        params.set('scope', 'pick');
        params.set('regs', pk.join(','));
      }
      if (allEditionsRef.current) params.set('editions', 'all');
      const qs = params.toString();
      history.replaceState(null, '', qs ? `#/search?${qs}` : '#/search');
      if (!text) {
        setResult(null);
        setError(undefined);
        setLoading(false);
        memory.result = null;
        return;
      }
      if (sc === 'pick' && pk.length === 0) {
        setResult(null);
        setError(undefined);
        setLoading(false);
        return;
      }
      const controller = new AbortController();
      abortRef.current = controller;
      const my = ++seq.current;
      setLoading(true);
      try {
        const out = await api(
          'search.smart_search',
          { query: text, reg_id: sc === 'auto' ? null : sc === 'all' ? 'all' : pk, ...(allEditionsRef.current ? { edition: 'all' as const } : {}) },
          { signal: controller.signal },
        );
        if (my !== seq.current) return;
        setResult(out);
        memory.result = out;
        memory.resultKey = scopeKey(sc, pk, allEditionsRef.current);
        memory.nextOffset = out.offset + out.results.length;
        memory.scrollTop = 0;
        setError(undefined);
        setMoreError(undefined);
        // the model turned out to be off (failed to load): the sidebar badge must not say hybrid
        if (out.lexical_only && infoRef.current.info?.search_mode === 'hybrid') infoRef.current.refresh();
      } catch (e) {
        if (my !== seq.current || isCancelled(e)) return;
        setError(e);
      } finally {
        if (my === seq.current) setLoading(false);
      }
    },
    [],
  );

  // first visit with ?q= (e.g. a link) searches right away
  useEffect(() => {
    if (query.trim() && !result) void run(query, scope, picked);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const schedule = (q: string, sc = scope, pk = picked) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void run(q, sc, pk), DEBOUNCE_MS);
  };

  const changeScope = (sc: Scope) => {
    setScope(sc);
    setCameFrom(null);
    cameFromRef.current = null;
    memory.scope = sc;
    void run(query, sc, picked);
  };

  const toggleEditions = (on: boolean) => {
    setAllEditions(on);
    allEditionsRef.current = on;
    memory.allEditions = on;
    void run(query, scope, picked);
  };

  const togglePick = (regId: string) => {
    const next = picked.includes(regId) ? picked.filter((r) => r !== regId) : [...picked, regId];
    setPicked(next);
    setCameFrom(null);
    cameFromRef.current = null;
    memory.scope = 'pick';
    memory.picked = next;
    void run(query, 'pick', next);
  };

  /** Leave the reader's one-regulation scope for the user's own (visibly, in the scope row). */
  const resetScope = () => {
    const sc = memory.scope === 'pick' && memory.picked.length === 0 ? 'auto' : memory.scope;
    setCameFrom(null);
    cameFromRef.current = null;
    setScope(sc);
    setPicked(memory.picked);
    void run(query, sc, memory.picked);
  };

  const groups = useMemo(() => groupHits(result?.results ?? []), [result]);
  /** results per regulation in the whole answer (offset-independent; counted like `total`), for "还有 N 条" */
  const totalOf = useMemo(() => new Map((result?.groups ?? []).map((g) => [g.reg_id, g.total])), [result]);

  /** Same search, same scope: the answer's hits from `offset` (top_k as the first page, so the order is the same). */
  const fetchPage = async (offset: number, topK?: number): Promise<SearchOutput> => {
    const text = (result?.query ?? query).trim();
    const regIdInput = scope === 'auto' ? null : scope === 'all' ? 'all' : picked;
    return api('search.smart_search', {
      query: text,
      reg_id: regIdInput,
      offset,
      ...(topK ? { top_k: topK } : {}),
      ...(allEditions ? { edition: 'all' as const } : {}),
    });
  };

  const appendHits = (more: Hit[], page?: SearchOutput) => {
    if (!result) return;
    const firstNew = more.find((h) => !result.results.some((r) => r.unit_id === h.unit_id));
    const merged: SearchOutput = {
      ...result,
      results: mergeHits(result.results, more),
      has_more: page ? page.has_more : result.has_more,
      // a later page lists every regulation's count, also of those the first page did not show
      groups: page ? [...result.groups, ...page.groups.filter((g) => !result.groups.some((x) => x.reg_id === g.reg_id))] : result.groups,
    };
    setResult(merged);
    memory.result = merged;
    if (page) memory.nextOffset = page.offset + page.results.length;
    // keyboard and screen-reader users land on what was added
    if (firstNew) setFocusUnit(firstNew.unit_id);
  };

  useEffect(() => {
    if (focusUnit === null) return;
    document.querySelector<HTMLElement>(`.hit-card[data-unit="${focusUnit}"]`)?.focus();
    setFocusUnit(null);
  }, [focusUnit, result]);

  const loadMore = async () => {
    if (!result || moreBusy) return;
    setMoreBusy('page');
    setMoreError(undefined);
    const my = seq.current;
    try {
      const page = await fetchPage(memory.nextOffset);
      if (my !== seq.current) return;
      appendHits(page.results, page);
    } catch (e) {
      if (my === seq.current && !isCancelled(e)) setMoreError(e);
    } finally {
      setMoreBusy(null);
    }
  };

  /** The next hits of one regulation, in the answer's order (one deep page, filtered). */
  const moreFrom = async (regId: string) => {
    if (!result || moreBusy) return;
    setMoreBusy(regId);
    setMoreError(undefined);
    const my = seq.current;
    try {
      const all = await fetchPage(0, Math.min(MAX_TOP_K, Math.max(result.total, 1)));
      if (my !== seq.current) return;
      const have = new Set(result.results.map((h) => h.unit_id));
      appendHits(all.results.filter((h) => h.reg_id === regId && !have.has(h.unit_id)).slice(0, MORE_PER_CLICK));
    } catch (e) {
      if (my === seq.current && !isCancelled(e)) setMoreError(e);
    } finally {
      setMoreBusy(null);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void run(query, scope, picked);
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      document.querySelector<HTMLButtonElement>('.hit-card')?.focus();
    }
  };

  const onResultsKey = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const cards = Array.from(document.querySelectorAll<HTMLButtonElement>('.hit-card'));
    const i = cards.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0) return;
    e.preventDefault();
    if (e.key === 'ArrowDown') cards[Math.min(cards.length - 1, i + 1)]?.focus();
    else if (i === 0) inputRef.current?.focus();
    else cards[i - 1]?.focus();
  };

  const decision = result?.decision;
  const regTitle = (id: string) => regs?.find((r) => r.reg_id === id)?.title ?? result?.results.find((h) => h.reg_id === id)?.title ?? id;

  return (
    <div className="screen">
      <ScreenHeader
        title="跨规程搜索"
        subtitle={`${
          // what the last answer used wins over what the app expects (a model may fail to load)
          (result ? !result.lexical_only : info?.search_mode === 'hybrid')
            ? '关键词与语义混合检索'
            : result || info
              ? '按关键词检索（未启用语义模型，可在“设置”中导入）'
              : '检索全部已导入的规程'
        }，结果按规程分组；点击或回车在阅读器中打开`}
      />
      <div className="search-box card">
        <div className="row">
          <input
            ref={inputRef}
            id="search-query"
            className="input big grow"
            type="search"
            role="searchbox"
            aria-label="搜索规程"
            placeholder="输入问题或关键词，如：母线失压如何处理（Ctrl+K）"
            value={query}
            autoComplete="off"
            onChange={(e) => {
              setQuery(e.target.value);
              schedule(e.target.value);
            }}
            onKeyDown={onKeyDown}
          />
          {loading ? <span className="spinner" aria-label="检索中" /> : null}
        </div>
        <div className="row scope-row">
          <span className="muted small">范围</span>
          <div className="segmented" role="radiogroup" aria-label="检索范围">
            {SCOPES.map((s) => (
              <button key={s.id} type="button" role="radio" aria-checked={scope === s.id} title={s.hint} onClick={() => changeScope(s.id)}>
                {s.label}
              </button>
            ))}
          </div>
          <label className={`chip small editions-toggle${allEditions ? ' on' : ''}`} title="也检索已被新版本取代的旧版；旧版结果标注“旧版”和施行日期，并可打开现行条文">
            <input type="checkbox" checked={allEditions} onChange={(e) => toggleEditions(e.target.checked)} />
            包括旧版
          </label>
          {result?.lexical_only ? (
            <span className="pill warn" role="note" aria-label="仅关键词检索" title={result.note ?? '未安装嵌入模型，检索仅使用关键词'}>
              仅关键词检索（未启用语义模型）
            </span>
          ) : result ? (
            <span className="pill ok">混合检索（关键词 + 语义）</span>
          ) : null}
          {result ? (
            <span className="muted small result-count" aria-label="结果总数">{`${resultCount(result.results.length, result.total)} · ${Math.round(result.elapsed_ms)} ms`}</span>
          ) : null}
        </div>
        {cameFrom ? (
          <div className="came-from banner info small" role="status" aria-label="当前检索范围">
            <span>
              只在{cameFrom.map((id) => `《${regTitle(id)}》`).join('、')}中检索（来自阅读器的“搜索本规程”）
            </span>
            <button type="button" className="btn small" onClick={resetScope}>
              恢复为{memory.scope === 'all' ? '全部规程' : memory.scope === 'pick' && memory.picked.length ? '之前选定的规程' : '智能选择'}
            </button>
          </div>
        ) : null}
        {scope === 'pick' ? (
          <div className="pick-list" role="group" aria-label="选择规程">
            {regs === null ? (
              <span className="muted small">正在读取规程列表…</span>
            ) : regs.length === 0 ? (
              <span className="muted small">规程库为空</span>
            ) : (
              regs.map((r) => (
                <label key={r.reg_id} className={`chip${picked.includes(r.reg_id) ? ' on' : ''}`}>
                  <input type="checkbox" checked={picked.includes(r.reg_id)} onChange={() => togglePick(r.reg_id)} />
                  {r.title}
                </label>
              ))
            )}
          </div>
        ) : null}
      </div>

      {result && scope === 'auto' && result.selection.mode === 'auto' ? (
        <div className="selection small" aria-label="智能选择的规程">
          <span className="muted">智能选择：</span>
          {result.selection.summary}
          {result.selection.reasons.length ? (
            <details>
              <summary>为什么选这些规程</summary>
              <ul>
                {result.selection.reasons.map((r) => (
                  <li key={r.reg_id} className={result.selected_regs.includes(r.reg_id) ? '' : 'muted'}>
                    {result.selected_regs.includes(r.reg_id) ? '✓ ' : '· '}
                    <b>{r.title}</b>：{r.why}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}

      {decision?.banner && result?.results.length ? (
        // only when the reader can act on it: choose a regulation, search everything, or refine
        <div className={`banner ${decision.state === 'ambiguous' ? 'warn' : 'info'}`} role="status" aria-label="检索提示">
          <span>{decision.banner.message}</span>
          {decision.banner.actions.map((a) => (
            <button
              key={`${a.kind}:${a.reg_id ?? ''}`}
              type="button"
              className="btn small"
              onClick={() => {
                if (a.kind === 'choose_reg' && a.reg_id) {
                  setPicked([a.reg_id]);
                  setScope('pick');
                  memory.scope = 'pick';
                  void run(query, 'pick', [a.reg_id]);
                } else if (a.kind === 'search_all') changeScope('all');
                else inputRef.current?.focus();
              }}
            >
              {a.label}
            </button>
          ))}
          <details className="small">
            <summary>为什么</summary>
            <span>{decisionWhy(decision.state, result)}</span>
            <details className="why-detail">
              <summary>详细</summary>
              <span className="muted">{decision.reason}</span>
            </details>
          </details>
        </div>
      ) : null}

      {error ? (
        <ErrorBox title="检索失败" error={error} onRetry={() => void run(query, scope, picked)} />
      ) : !query.trim() ? (
        <EmptyState title="输入关键词开始检索">支持中文问题、条款号（如“第十二条”）和专业术语；输入时自动检索，回车立即检索。</EmptyState>
      ) : scope === 'pick' && picked.length === 0 ? (
        <EmptyState title="请选择要检索的规程" />
      ) : !result && loading ? (
        <Spinner label="检索中…" />
      ) : result && result.results.length === 0 ? (
        <EmptyState title={`没有找到与「${result.query}」相关的内容`}>{decision?.clarify ?? '换个说法，或改用“全部”范围再试。'}</EmptyState>
      ) : result ? (
        <div className={`results${loading ? ' stale' : ''}`} onKeyDown={onResultsKey} aria-label="检索结果" role="region" aria-busy={loading} data-query={result.query}>
          {groups.map((g) => {
            // counted in results, like the list's total: the groups add up to it
            const shown = g.hits.length;
            const inReg = Math.max(shown, totalOf.get(g.reg_id) ?? shown);
            const moreRows = inReg - shown;
            return (
              <section key={g.reg_id} className="result-group" aria-label={regTitle(g.reg_id)}>
                <h2>
                  {regTitle(g.reg_id)} <span className="muted small group-count">{moreRows ? `其中 ${inReg} 条出自本规程，已显示 ${shown} 条` : `${shown} 条`}</span>
                </h2>
                <ul>
                  {g.hits.map((h) => (
                    <li key={h.unit_id}>
                      <button type="button" className="hit-card" data-unit={String(h.unit_id)} data-page={hitPage(h)} onClick={() => openHit(h, result.query)}>
                        <div className="hit-head">
                          {h.article ? <span className="label">{h.article}</span> : null}
                          <span className="hit-section">{h.section}</span>
                          <span className="hit-page">{hitPages(h)}</span>
                        </div>
                        <div className="hit-snippet">
                          <Snippet snippet={h.snippet} highlights={h.highlights} />
                        </div>
                        <div className="hit-reasons small muted">
                          {h.reasons.article_ref ? '问题点名的条文' : h.why.terms.length ? `命中：${h.why.terms.map((t) => t.term).join('、')}` : '语义相近'}
                          {h.similar.count ? ` · 另有 ${h.similar.count} 条相似行（第 ${[...new Set(h.similar.units.map((u) => u.page_num))].slice(0, 5).join('、')} 页）` : ''}
                        </div>
                        {h.edition ? (
                          <div className="small hit-edition" role="note">
                            <span className="pill warn">{h.edition.label}</span>{' '}
                            {h.edition.current.article ? `现行版为 ${h.edition.current.article}` : '现行版已删除此条'}
                          </div>
                        ) : null}
                      </button>
                      {h.edition?.current.article ? (
                        <button
                          type="button"
                          className="link-btn small"
                          onClick={() => navigate('reader', [h.edition!.current.reg_id], { page: h.edition!.current.page_num ?? 1, article: h.edition!.current.article ?? undefined })}
                        >
                          打开现行条文（{h.edition.current.article}）
                        </button>
                      ) : null}
                      <details className="hit-why small">
                        <summary aria-label={`为什么找到这一条：${h.article ?? h.section}`}>为什么</summary>
                        <div className="why-words">{h.why.summary}</div>
                        {h.shape === 'row' ? <div className="muted">这是表格或台账中的一行，排在条文之后。</div> : null}
                        {h.why.regulation ? <div className="muted why-reg">{h.why.regulation}</div> : null}
                        <details className="why-detail">
                          <summary>详细</summary>
                          <span className="muted">
                            综合得分 {h.score.toFixed(3)}
                            {h.reasons.lexical_rank != null ? ` · 关键词第 ${h.reasons.lexical_rank} 名` : ''}
                            {h.reasons.vector_rank != null ? ` · 语义第 ${h.reasons.vector_rank} 名` : ''}
                            {h.reasons.expansion_rank != null ? ` · 扩展词第 ${h.reasons.expansion_rank} 名` : ''}
                            {` · 词语证据 ${h.reasons.evidence.toFixed(2)} · 覆盖率 ${h.reasons.coverage_ratio.toFixed(2)}`}
                          </span>
                        </details>
                      </details>
                    </li>
                  ))}
                </ul>
                {moreRows > 0 ? (
                  <button
                    type="button"
                    className="btn small more-from"
                    disabled={!!moreBusy}
                    aria-label={`更多来自本规程（还有 ${moreRows} 条）：${regTitle(g.reg_id)}`}
                    onClick={() => void moreFrom(g.reg_id)}
                  >
                    {moreBusy === g.reg_id ? '正在加载…' : `更多来自本规程（还有 ${moreRows} 条）`}
                  </button>
                ) : null}
              </section>
            );
          })}
          {moreError ? <ErrorBox title="加载更多结果失败" error={moreError} onRetry={() => void loadMore()} /> : null}
          {result.has_more && result.results.length < result.total ? (
            <div className="load-more">
              <button type="button" className="btn" disabled={!!moreBusy} onClick={() => void loadMore()}>
                {moreBusy === 'page' ? '正在加载…' : `加载更多（${resultCount(result.results.length, result.total)}）`}
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
