/**
 * Two editions side by side (or inline), article by article (issue 25): per-kind counts that filter,
 * a per-chapter summary, word-level highlights, jumping between changes (buttons or n / p), and for
 * every article "查看旧版 / 查看新版" in the reader and its change history over all editions.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { navigate } from '../router';
import { EmptyState, ErrorBox, ScreenHeader, Spinner, useAsync } from '../components/common';
import { CHANGE_LABEL, articleHistory, diffEditions, editionStatus, editionsOf, type ChangeKind, type DiffPair, type Edition } from '../data/editions';

const KINDS: ChangeKind[] = ['modified', 'added', 'deleted', 'moved', 'same'];
type View = 'side' | 'inline';

function Words({ pair, side }: { pair: DiffPair; side: 'old' | 'new' | 'both' }) {
  if (!pair.words) return <>{(side === 'old' ? pair.old : pair.new)?.text ?? ''}</>;
  return (
    <>
      {pair.words.map((w, k) => {
        if (w.op === '=') return <span key={k}>{w.text}</span>;
        if (w.op === '-') return side === 'new' ? null : <del key={k} className="w-del">{w.text}</del>;
        return side === 'old' ? null : <ins key={k} className="w-ins">{w.text}</ins>;
      })}
    </>
  );
}

/** One side's edition picker: the family's editions (and the compared regulation itself when it is not one of them). */
function EditionSelect({
  side,
  value,
  extra,
  editions,
  onChoose,
}: {
  side: 'old' | 'new';
  value: string;
  extra: { reg_id: string; title: string } | null;
  editions: Edition[];
  onChoose: (side: 'old' | 'new', id: string) => void;
}) {
  const name = side === 'old' ? '旧版' : '新版';
  return (
    <label className="field">
      <span>{name}</span>
      <select className="input" aria-label={name} value={value} onChange={(e) => onChoose(side, e.target.value)}>
        {extra ? <option value={extra.reg_id}>{extra.title}</option> : null}
        {editions.map((e) => (
          <option key={e.reg_id} value={e.reg_id}>
            {editionStatus(e)} · {e.effective_date ? `${e.effective_date} 施行` : '施行日期不详'}
          </option>
        ))}
      </select>
    </label>
  );
}

function History({ regId, article, onClose }: { regId: string; article: string; onClose: () => void }) {
  const h = useAsync(() => articleHistory(regId, article), [regId, article]);
  return (
    <div className="edition-history" role="dialog" aria-label={`${article}的修改历史`}>
      <div className="row">
        <strong className="grow">{article} · 修改历史</strong>
        <button type="button" className="btn small" onClick={onClose}>
          关闭
        </button>
      </div>
      {h.loading ? <Spinner label="正在读取历次版本…" /> : h.error ? <ErrorBox error={h.error} /> : null}
      {h.data ? (
        <ol className="history-steps">
          {h.data.history.map((s) => (
            <li key={s.reg_id}>
              <div className="row">
                <span className={`pill ${s.in_force ? 'ok' : ''}`}>{s.in_force ? '现行' : s.status === 'upcoming' ? '即将施行' : '旧版'}</span>
                <span>{s.effective_date ?? '施行日期不详'}</span>
                <strong>{s.article ?? '（本版没有此条）'}</strong>
                {s.change ? <span className={`change-tag k-${s.change}`}>{CHANGE_LABEL[s.change]}</span> : null}
                {s.article && s.page_num ? (
                  <button type="button" className="link-btn" onClick={() => navigate('reader', [s.reg_id], { page: s.page_num ?? 1 })}>
                    在阅读器中打开
                  </button>
                ) : null}
              </div>
              {s.text ? <p className="history-text">{s.text}</p> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

export function CompareScreen({ params, query }: { params: string[]; query: URLSearchParams }) {
  const [oldId, newId] = params;
  const diff = useAsync(async () => (oldId && newId ? diffEditions(oldId, newId) : null), [oldId, newId]);
  const family = useAsync(async () => (newId ? editionsOf(newId) : []), [newId]);
  const [view, setView] = useState<View>(query.get('view') === 'inline' ? 'inline' : 'side');
  const initialKinds = (query.get('kinds') ?? '').split(',').filter((k): k is ChangeKind => (KINDS as string[]).includes(k));
  const [kinds, setKinds] = useState<Set<ChangeKind>>(() => new Set(initialKinds.length ? initialKinds : ['modified', 'added', 'deleted', 'moved']));
  const [current, setCurrent] = useState(-1);
  const [history, setHistory] = useState<{ regId: string; article: string } | null>(() => {
    const a = query.get('article');
    return a && newId ? { regId: newId, article: a } : null;
  });
  const listRef = useRef<HTMLDivElement>(null);

  const shown = useMemo(() => (diff.data?.pairs ?? []).filter((p) => kinds.has(p.change)), [diff.data, kinds]);
  const changes = useMemo(() => shown.map((p, k) => ({ p, k })).filter(({ p }) => p.change !== 'same').map(({ k }) => k), [shown]);

  const jump = (dir: 1 | -1) => {
    if (!changes.length) return;
    const pos = changes.findIndex((k) => k > current);
    let next: number;
    if (dir === 1) next = pos < 0 ? changes[0] : changes[pos];
    else {
      const before = changes.filter((k) => k < current);
      next = before.length ? before[before.length - 1] : changes[changes.length - 1];
    }
    setCurrent(next);
    listRef.current?.querySelector<HTMLElement>(`[data-pair="${next}"]`)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
      if (e.key === 'n' || e.key === 'j') jump(1);
      if (e.key === 'p' || e.key === 'k') jump(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!oldId || !newId) {
    return (
      <div className="screen">
        <EmptyState title="请选择要对比的两个版本" action={<button type="button" className="btn primary" onClick={() => navigate('library')}>打开规程库</button>}>
          在阅读器中打开有多个版本的规程，点“对比版本”。
        </EmptyState>
      </div>
    );
  }
  if (diff.error) {
    return (
      <div className="screen">
        <ErrorBox title="无法对比这两个版本" error={diff.error} onRetry={diff.reload} />
      </div>
    );
  }
  if (!diff.data) return <Spinner label="正在逐条对比…" />;
  const d = diff.data;
  const editions = family.data ?? [];
  const toggle = (k: ChangeKind) =>
    setKinds((s) => {
      const n = new Set(s);
      if (n.has(k)) n.delete(k);
      else n.add(k);
      return n;
    });
  const choose = (side: 'old' | 'new', id: string) => navigate('compare', side === 'old' ? [id, newId] : [oldId, id], { view });
  const chapterChanges = d.chapters.filter((c) => c.added + c.modified + c.deleted + c.moved > 0);
  const openIn = (side: 'old' | 'new', pair: DiffPair) => {
    const s = pair[side];
    if (s) navigate('reader', [side === 'old' ? d.old.reg_id : d.new.reg_id], { page: s.page_num ?? 1 });
  };
  const sideCell = (pair: DiffPair, side: 'old' | 'new'): ReactNode =>
    pair[side] ? (
      <div className={`cmp-cell ${side}`}>
        <div className="cmp-label">
          <strong>{pair[side]!.article}</strong>
          <button type="button" className="link-btn" onClick={() => openIn(side, pair)}>
            {side === 'old' ? '查看旧版' : '查看新版'}
          </button>
        </div>
        <div className="cmp-text">
          <Words pair={pair} side={side} />
        </div>
      </div>
    ) : (
      <div className={`cmp-cell ${side} empty`}>{side === 'old' ? '（旧版无此条）' : '（新版已删除）'}</div>
    );

  return (
    <div className="screen compare">
      <ScreenHeader title="版本对比" subtitle={`${d.new.title} · 逐条对比（${d.level === 'article' ? '按条' : '按段落'}）`}>
        <div className="segmented" role="radiogroup" aria-label="对比方式">
          {(
            [
              ['side', '并排'],
              ['inline', '合并'],
            ] as const
          ).map(([id, label]) => (
            <button key={id} type="button" role="radio" aria-checked={view === id} onClick={() => setView(id)}>
              {label}
            </button>
          ))}
        </div>
      </ScreenHeader>
      <div className="cmp-editions row">
        <EditionSelect side="old" value={oldId} extra={editions.some((e) => e.reg_id === oldId) ? null : { reg_id: oldId, title: d.old.title }} editions={editions} onChoose={choose} />
        <span aria-hidden="true">→</span>
        <EditionSelect side="new" value={newId} extra={editions.some((e) => e.reg_id === newId) ? null : { reg_id: newId, title: d.new.title }} editions={editions} onChoose={choose} />
        <div className="grow" />
        <button type="button" className="btn" onClick={() => jump(-1)} disabled={!changes.length} title="快捷键 p">
          ↑ 上一处变化
        </button>
        <button type="button" className="btn" onClick={() => jump(1)} disabled={!changes.length} title="快捷键 n">
          ↓ 下一处变化
        </button>
      </div>
      <div className="cmp-kinds row" role="group" aria-label="按变化筛选">
        {KINDS.map((k) => (
          <button key={k} type="button" className={`chip k-${k}${kinds.has(k) ? ' on' : ''}`} aria-pressed={kinds.has(k)} onClick={() => toggle(k)}>
            {CHANGE_LABEL[k]} {d.summary[k]}
          </button>
        ))}
      </div>
      {chapterChanges.length ? (
        <details className="cmp-chapters">
          <summary>按章汇总（{chapterChanges.length} 章有变化）</summary>
          <ul>
            {chapterChanges.map((c) => (
              <li key={c.chapter}>{c.text}</li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className={`cmp-body${history ? ' with-history' : ''}`}>
        <div className="cmp-list" ref={listRef} role="list" aria-label="逐条变化">
          {shown.length === 0 ? <p className="muted">没有符合筛选的条文。</p> : null}
          {shown.map((p, k) => (
            <div
              key={k}
              role="listitem"
              data-pair={k}
              data-change={p.change}
              className={`cmp-pair k-${p.change}${k === current ? ' current' : ''}`}
              aria-current={k === current ? 'true' : undefined}
            >
              <div className="cmp-head row">
                <span className={`change-tag k-${p.change}`}>{CHANGE_LABEL[p.change]}</span>
                <span>
                  {p.old && p.new && p.old.article !== p.new.article ? `${p.old.article} → ${p.new.article}` : (p.new ?? p.old)!.article}
                </span>
                {p.relation ? (
                  <span className="muted small">
                    {p.relation === 'split' ? '拆分' : '合并'}
                    {p.related?.length ? `（${p.related.join('、')}）` : ''}
                  </span>
                ) : null}
                <div className="grow" />
                <button
                  type="button"
                  className="link-btn"
                  onClick={() => setHistory(p.new ? { regId: d.new.reg_id, article: p.new.article } : { regId: d.old.reg_id, article: p.old!.article })}
                >
                  修改历史
                </button>
              </div>
              {view === 'side' ? (
                <div className="cmp-row">
                  {sideCell(p, 'old')}
                  {sideCell(p, 'new')}
                </div>
              ) : (
                <div className="cmp-inline cmp-text">
                  {p.change === 'modified' ? (
                    <Words pair={p} side="both" />
                  ) : p.change === 'deleted' ? (
                    <del className="w-del">{p.old!.text}</del>
                  ) : p.change === 'added' ? (
                    <ins className="w-ins">{p.new!.text}</ins>
                  ) : (
                    p.new!.text
                  )}
                </div>
              )}
            </div>
          ))}
        </div>
        {history ? <History regId={history.regId} article={history.article} onClose={() => setHistory(null)} /> : null}
      </div>
    </div>
  );
}
