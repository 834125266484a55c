import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, type ApiOutput } from '../api/client';
import { isCancelled } from '../api/errors';
import { EmptyState, ErrorBox, ScreenHeader, Spinner } from '../components/common';
import { listRegulations, type RegulationInfo } from '../data/regulations';
import { navigate } from '../router';

type SearchOutput = ApiOutput<'search.smart_search'>;
type Hit = SearchOutput['results'][number];
type Scope = 'auto' | 'pick' | 'all';

/** Short enough to feel instant, long enough to skip most intermediate keystrokes. */
const DEBOUNCE_MS = 50;

// kept across visits so coming back from the reader shows the same search
const memory: { query: string; scope: Scope; picked: string[]; result: SearchOutput | null } = {
  query: '',
  scope: 'auto',
  picked: [],
  result: null,
};

const SCOPES: { id: Scope; label: string; hint: string }[] = [
  { id: 'auto', label: '智能', hint: '根据问题自动选择相关规程' },
  { id: 'pick', label: '指定', hint: '只在选中的规程中检索' },
  { id: 'all', label: '全部', hint: '检索全部已导入规程' },
];

function renderSnippet(snippet: string, highlights: [number, number][]): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  const sorted = [...highlights].sort((a, b) => a[0] - b[0]);
  sorted.forEach(([s, e], i) => {
    if (s < last) return;
    if (s > last) out.push(snippet.slice(last, s));
    out.push(<mark key={i}>{snippet.slice(s, e)}</mark>);
    last = e;
  });
  if (last < snippet.length) out.push(snippet.slice(last));
  return out;
}

/** Terms the reader should mark: what was highlighted in the snippet, plus matched terms. */
export function hitTerms(hit: Hit): string[] {
  const fromSnippet = hit.highlights.map(([s, e]) => hit.snippet.slice(s, e));
  return [...new Set([...fromSnippet, ...hit.reasons.matched_terms].map((t) => t.trim()).filter((t) => t.length > 0))];
}

export function openHit(hit: Hit, query: string): void {
  navigate('reader', [hit.reg_id], {
    page: hit.page_num,
    hl: hitTerms(hit).join('|'),
    article: hit.article ?? undefined,
    q: query,
  });
}

export function SearchScreen({ query: routeQuery }: { query: URLSearchParams }) {
  const [query, setQuery] = useState(() => routeQuery.get('q') ?? memory.query);
  // #/search?scope=pick&regs=a,b (e.g. "search in this regulation" from the reader) wins over memory
  const [scope, setScope] = useState<Scope>(() => {
    const sc = routeQuery.get('scope');
    return sc === 'auto' || sc === 'pick' || sc === 'all' ? (memory.scope = sc) : memory.scope;
  });
  const [picked, setPicked] = useState<string[]>(() => {
    const regs = routeQuery.get('regs');
    return regs ? (memory.picked = regs.split(',').filter(Boolean)) : memory.picked;
  });
  const [result, setResult] = useState<SearchOutput | null>(memory.result && memory.result.query === (routeQuery.get('q') ?? memory.query) ? memory.result : null);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(false);
  const [regs, setRegs] = useState<RegulationInfo[] | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const seq = useRef(0);

  useEffect(() => {
    listRegulations().then(setRegs, () => setRegs([]));
    inputRef.current?.focus();
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
      history.replaceState(null, '', text ? `#/search?q=${encodeURIComponent(text)}` : '#/search');
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
          { query: text, reg_id: sc === 'auto' ? null : sc === 'all' ? 'all' : pk },
          { signal: controller.signal },
        );
        if (my !== seq.current) return;
        setResult(out);
        memory.result = out;
        setError(undefined);
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
    memory.scope = sc;
    void run(query, sc, picked);
  };

  const togglePick = (regId: string) => {
    const next = picked.includes(regId) ? picked.filter((r) => r !== regId) : [...picked, regId];
    setPicked(next);
    memory.picked = next;
    void run(query, 'pick', next);
  };

  const groups = useMemo(() => {
    const map = new Map<string, { reg_id: string; title: string; hits: Hit[] }>();
    for (const h of result?.results ?? []) {
      let g = map.get(h.reg_id);
      if (!g) map.set(h.reg_id, (g = { reg_id: h.reg_id, title: h.title, hits: [] }));
      g.hits.push(h);
    }
    return [...map.values()];
  }, [result]);

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
      <ScreenHeader title="跨规程搜索" subtitle="关键词与语义混合检索，结果按规程分组；点击或回车在阅读器中打开" />
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
          {result?.lexical_only ? (
            <span className="pill warn" role="note" aria-label="仅关键词检索" title={result.note ?? '未安装嵌入模型，检索仅使用关键词'}>
              仅关键词检索（未启用语义模型）
            </span>
          ) : result ? (
            <span className="pill ok">混合检索（关键词 + 语义）</span>
          ) : null}
          {result ? <span className="muted small">{`${result.results.length} 条 · ${Math.round(result.elapsed_ms)} ms`}</span> : null}
        </div>
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
                    <span className="muted"> （得分 {r.score.toFixed(2)}）</span>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}

      {decision && result?.results.length ? (
        <div
          className={`banner ${decision.state === 'locked' ? 'ok' : decision.state === 'ambiguous' ? 'warn' : 'err'}`}
          role="status"
          aria-label="检索结论"
        >
          <b>{decision.state === 'locked' ? '已锁定答案' : decision.state === 'ambiguous' ? '结果有歧义' : '证据不足'}</b>
          {decision.clarify ? ` · ${decision.clarify}` : ''}
          <span className="muted small"> （{decision.reason}）</span>
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
          {groups.map((g) => (
            <section key={g.reg_id} className="result-group" aria-label={g.title}>
              <h2>
                {regTitle(g.reg_id)} <span className="muted small">{g.hits.length} 条</span>
              </h2>
              <ul>
                {g.hits.map((h) => (
                  <li key={h.unit_id}>
                    <button type="button" className="hit-card" onClick={() => openHit(h, result.query)} aria-label={`${h.title} 第 ${h.page_num} 页 ${h.article ?? h.section}`}>
                      <div className="hit-head">
                        {h.article ? <span className="label">{h.article}</span> : null}
                        <span className="hit-section">{h.section}</span>
                        <span className="hit-page">第 {h.page_num} 页</span>
                      </div>
                      <div className="hit-snippet">{renderSnippet(h.snippet, h.highlights)}</div>
                      <div className="hit-reasons small muted">
                        得分 {h.score.toFixed(3)}
                        {h.reasons.lexical_rank != null ? ` · 关键词第 ${h.reasons.lexical_rank} 名` : ''}
                        {h.reasons.vector_rank != null ? ` · 语义第 ${h.reasons.vector_rank} 名` : ''}
                        {h.reasons.expansion_rank != null ? ` · 扩展第 ${h.reasons.expansion_rank} 名` : ''}
                        {` · 覆盖 ${Math.round(h.reasons.coverage_ratio * 100)}%`}
                        {h.reasons.matched_terms.length ? ` · 命中：${h.reasons.matched_terms.join('、')}` : ''}
                      </div>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : null}
    </div>
  );
}
