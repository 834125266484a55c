/** Collapsible TOC that follows the current page: the entry covering it is selected and revealed. */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TocEntry } from '../data/regulations';

interface Node {
  entry: TocEntry;
  children: Node[];
}

function buildTree(toc: TocEntry[]): { roots: Node[]; byId: Map<number, Node> } {
  const byId = new Map<number, Node>();
  for (const e of toc) byId.set(e.id, { entry: e, children: [] });
  const roots: Node[] = [];
  for (const e of toc) {
    const node = byId.get(e.id)!;
    const parent = e.parent_id != null ? byId.get(e.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return { roots, byId };
}

/** The last entry (in reading order) starting on or before the page. */
export function activeEntry(toc: TocEntry[], page: number): TocEntry | undefined {
  let best: TocEntry | undefined;
  for (const e of toc) if (e.page_num <= page) best = e;
  return best;
}

export function TocTree({ toc, page, onJump }: { toc: TocEntry[]; page: number; onJump: (page: number) => void }) {
  const { roots, byId } = useMemo(() => buildTree(toc), [toc]);
  const active = activeEntry(toc, page);
  const [collapsed, setCollapsed] = useState<Set<number>>(() => new Set());
  const activeRef = useRef<HTMLDivElement | null>(null);

  // ancestors of the active entry are always open so the highlight is visible
  const forcedOpen = useMemo(() => {
    const s = new Set<number>();
    let cur = active?.parent_id != null ? byId.get(active.parent_id) : undefined;
    while (cur) {
      s.add(cur.entry.id);
      cur = cur.entry.parent_id != null ? byId.get(cur.entry.parent_id) : undefined;
    }
    return s;
  }, [active, byId]);

  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [active?.id]);

  const toggle = (id: number) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const render = (n: Node, depth: number) => {
    const open = n.children.length > 0 && (!collapsed.has(n.entry.id) || forcedOpen.has(n.entry.id));
    const isActive = active?.id === n.entry.id;
    return (
      <li
        key={n.entry.id}
        role="treeitem"
        aria-selected={isActive}
        aria-expanded={n.children.length ? open : undefined}
        aria-label={n.entry.title}
      >
        <div className={`toc-row${isActive ? ' active' : ''}`} style={{ paddingLeft: 6 + depth * 14 }} ref={isActive ? activeRef : undefined}>
          {n.children.length ? (
            <button
              type="button"
              className="toc-twisty"
              aria-label={`${open ? '折叠' : '展开'} ${n.entry.title}`}
              onClick={() => toggle(n.entry.id)}
              tabIndex={-1}
            >
              {open ? '▾' : '▸'}
            </button>
          ) : (
            <span className="toc-twisty" />
          )}
          <button type="button" className="toc-title" onClick={() => onJump(n.entry.page_num)} title={`${n.entry.title}（第 ${n.entry.page_num} 页）`}>
            <span className="toc-text">{n.entry.title}</span>
            <span className="toc-page">{n.entry.page_num}</span>
          </button>
        </div>
        {open ? (
          <ul role="group">{n.children.map((c) => render(c, depth + 1))}</ul>
        ) : null}
      </li>
    );
  };

  if (toc.length === 0) return <div className="muted small toc-empty">此规程没有识别出目录</div>;
  return (
    <ul className="toc" role="tree" aria-label="目录">
      {roots.map((r) => render(r, 0))}
    </ul>
  );
}
