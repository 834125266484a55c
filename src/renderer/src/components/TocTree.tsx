/**
 * Collapsible TOC that follows the reader: the current section is selected and revealed.
 * Keyboard as in a file tree: ↑/↓ move, → opens or enters, ← closes or goes up, Home/End,
 * Enter/Space jump to the section. One item is in the tab order (roving tabindex).
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TocEntry } from '../data/regulations';
import { activeEntry } from './reader-logic';

export { activeEntry };

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

export function TocTree({
  toc,
  active,
  onJump,
}: {
  toc: TocEntry[];
  active: TocEntry | undefined;
  onJump: (entry: TocEntry) => void;
}) {
  const { roots, byId } = useMemo(() => buildTree(toc), [toc]);
  const [collapsed, setCollapsed] = useState<Set<number>>(() => new Set());
  const [focusId, setFocusId] = useState<number | null>(null);
  const itemRefs = useRef(new Map<number, HTMLLIElement>());

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

  const isOpen = (n: Node) => n.children.length > 0 && (!collapsed.has(n.entry.id) || forcedOpen.has(n.entry.id));

  // visible items in reading order: what ↑/↓ walk through
  const visible = useMemo(() => {
    const out: Node[] = [];
    const walk = (nodes: Node[]) => {
      for (const n of nodes) {
        out.push(n);
        if (n.children.length && (!collapsed.has(n.entry.id) || forcedOpen.has(n.entry.id))) walk(n.children);
      }
    };
    walk(roots);
    return out;
  }, [roots, collapsed, forcedOpen]);

  useEffect(() => {
    if (active) itemRefs.current.get(active.id)?.querySelector('.toc-row')?.scrollIntoView({ block: 'nearest' });
  }, [active?.id]);

  const setOpen = (id: number, open: boolean) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (open) next.delete(id);
      else next.add(id);
      return next;
    });

  const tabStop = focusId != null && visible.some((n) => n.entry.id === focusId) ? focusId : (active?.id ?? visible[0]?.entry.id);

  const moveFocus = (id: number | undefined) => {
    if (id == null) return;
    setFocusId(id);
    itemRefs.current.get(id)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const current = focusId ?? tabStop;
    const i = visible.findIndex((n) => n.entry.id === current);
    if (i < 0) return;
    const node = visible[i];
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        moveFocus(visible[Math.min(visible.length - 1, i + 1)]?.entry.id);
        break;
      case 'ArrowUp':
        moveFocus(visible[Math.max(0, i - 1)]?.entry.id);
        break;
      case 'Home':
        moveFocus(visible[0]?.entry.id);
        break;
      case 'End':
        moveFocus(visible[visible.length - 1]?.entry.id);
        break;
      case 'ArrowRight':
        if (node.children.length && !isOpen(node)) setOpen(node.entry.id, true);
        else if (node.children.length) moveFocus(node.children[0].entry.id);
        break;
      case 'ArrowLeft':
        if (isOpen(node) && !forcedOpen.has(node.entry.id)) setOpen(node.entry.id, false);
        else if (node.entry.parent_id != null) moveFocus(node.entry.parent_id);
        break;
      case 'Enter':
      case ' ':
        onJump(node.entry);
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  const render = (n: Node, depth: number) => {
    const open = isOpen(n);
    const isActive = active?.id === n.entry.id;
    return (
      <li
        key={n.entry.id}
        role="treeitem"
        aria-selected={isActive}
        aria-current={isActive ? 'location' : undefined}
        aria-expanded={n.children.length ? open : undefined}
        data-title={n.entry.title}
        tabIndex={tabStop === n.entry.id ? 0 : -1}
        ref={(el) => {
          if (el) itemRefs.current.set(n.entry.id, el);
          else itemRefs.current.delete(n.entry.id);
        }}
        onFocus={(e) => {
          if (e.target === e.currentTarget) setFocusId(n.entry.id);
        }}
      >
        <div className={`toc-row${isActive ? ' active' : ''}`} style={{ paddingLeft: 6 + depth * 14 }}>
          {n.children.length ? (
            <span
              className="toc-twisty"
              aria-hidden="true"
              onClick={() => setOpen(n.entry.id, !open)}
            >
              {open ? '▾' : '▸'}
            </span>
          ) : (
            <span className="toc-twisty" aria-hidden="true" />
          )}
          <button
            type="button"
            className="toc-title"
            tabIndex={-1}
            onClick={() => {
              setFocusId(n.entry.id);
              onJump(n.entry);
            }}
            title={`${n.entry.title}（第 ${n.entry.page_num} 页）`}
          >
            <span className="toc-text">{n.entry.title}</span>
            <span className="toc-page">
              <span className="sr-only">第</span>
              {n.entry.page_num}
              <span className="sr-only">页</span>
            </span>
          </button>
        </div>
        {open ? <ul role="group">{n.children.map((c) => render(c, depth + 1))}</ul> : null}
      </li>
    );
  };

  if (toc.length === 0) return <div className="muted small toc-empty">此规程没有识别出目录</div>;
  return (
    <ul className="toc" role="tree" aria-label="目录" onKeyDown={onKeyDown}>
      {roots.map((r) => render(r, 0))}
    </ul>
  );
}
