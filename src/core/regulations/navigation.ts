import type { Db } from '../store/db';
import { GridError } from '../common/errors';
import { getRegulation, getToc } from './store';
import { blockTypeOf, findChapter, type NoteOut } from './blocks';
import type { TocTreeNode } from './types';

/**
 * Finding one's way in a regulation the way an agent reads it (RegReader's get_toc tree,
 * get_page_chapter_info, get_block_with_context): the TOC as a tree cut at a depth with one
 * section opened, the chapters a page belongs to, and a unit with its neighbours.
 */

type TocNode = TocTreeNode;

interface Span {
  id: number;
  title: string;
  level: number;
  parent_id: number | null;
  page_start: number;
  page_end: number;
}

/** Every TOC entry with the pages it covers (until the next entry of the same or a higher level). */
function tocSpans(db: Db, regId: string): Span[] {
  const total = getRegulation(db, regId).total_pages;
  const toc = getToc(db, regId);
  return toc.map((t, i) => {
    const next = toc.slice(i + 1).find((n) => n.level <= t.level);
    return { id: t.id, title: t.title, level: t.level, parent_id: t.parent_id, page_start: t.page_num, page_end: next ? Math.max(t.page_num, next.page_num) : total };
  });
}

/**
 * The TOC as a tree. Nodes deeper than `maxDepth` are cut (their count stays in hidden_children),
 * except along `expandSection` ("第六章", "附录C", a title or a TOC id): that branch opens fully.
 */
export function tocTree(db: Db, regId: string, maxDepth: number, expandSection?: string | null): { nodes: TocNode[]; expanded: string | null } {
  const spans = tocSpans(db, regId);
  let open: Set<number> = new Set();
  let expanded: string | null = null;
  if (expandSection?.trim()) {
    const want = /^\d+$/.test(expandSection.trim()) ? Number(expandSection.trim()) : expandSection;
    const hit = findChapter(db, regId, want);
    expanded = hit.title;
    // the branch below the section, and its ancestors so it can be reached
    const below = new Set([hit.id]);
    for (const s of spans) if (s.parent_id !== null && below.has(s.parent_id)) below.add(s.id);
    open = below;
    for (let p = spans.find((s) => s.id === hit.id)?.parent_id ?? null; p !== null; p = spans.find((s) => s.id === p)?.parent_id ?? null) open.add(p);
  }
  const childrenOf = new Map<number | null, Span[]>();
  for (const s of spans) {
    const parent = s.parent_id !== null && spans.some((x) => x.id === s.parent_id) ? s.parent_id : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), s]);
  }
  const build = (s: Span, depth: number): TocNode => {
    const kids = childrenOf.get(s.id) ?? [];
    const show = depth < maxDepth || open.has(s.id);
    return {
      id: s.id,
      title: s.title,
      level: s.level,
      page_start: s.page_start,
      page_end: s.page_end,
      hidden_children: show ? 0 : kids.length,
      children: show ? kids.map((k) => build(k, depth + 1)) : [],
    };
  };
  return { nodes: (childrenOf.get(null) ?? []).map((s) => build(s, 1)), expanded };
}

export interface ActiveChapter {
  id: number;
  title: string;
  level: number;
  page_start: number;
  page_end: number;
  /** the heading is printed on this page (otherwise the chapter continues from an earlier page) */
  starts_here: boolean;
}

/** The chapters a page lies in: those continued from earlier pages and those whose heading is on it. */
export function pageChapterInfo(db: Db, regId: string, page: number): { reg_id: string; page_num: number; total_pages: number; active_chapters: ActiveChapter[]; new_chapters: string[]; continued_chapters: string[] } {
  const reg = getRegulation(db, regId);
  if (page > reg.total_pages) throw new GridError('NOT_FOUND', `第 ${page} 页不存在：「${reg.title}」共 ${reg.total_pages} 页`);
  const active = tocSpans(db, regId)
    .filter((s) => s.page_start <= page && s.page_end >= page)
    .map((s) => ({ id: s.id, title: s.title, level: s.level, page_start: s.page_start, page_end: s.page_end, starts_here: s.page_start === page }));
  return {
    reg_id: regId,
    page_num: page,
    total_pages: reg.total_pages,
    active_chapters: active,
    new_chapters: active.filter((a) => a.starts_here).map((a) => a.title),
    continued_chapters: active.filter((a) => !a.starts_here).map((a) => a.title),
  };
}

export interface BlockOut {
  block_id: string;
  block_type: ReturnType<typeof blockTypeOf>;
  label: string | null;
  page_num: number;
  section_path: string;
  text: string;
}

interface UnitRow {
  id: number;
  ord: number;
  kind: string;
  label: string | null;
  page_num: number;
  section_path: string;
  text: string;
}

const toBlock = (u: UnitRow): BlockOut => ({ block_id: String(u.id), block_type: blockTypeOf(u.kind), label: u.label, page_num: u.page_num, section_path: u.section_path, text: u.text });

/** A unit by its id (smart_search's unit_id, given as number or string). */
export function findBlock(db: Db, regId: string, blockId: string | number): UnitRow {
  const reg = getRegulation(db, regId);
  const id = Number(String(blockId).trim().replace(/^(block_|unit_)/i, ''));
  const row = Number.isInteger(id) ? (db.prepare('SELECT id, ord, kind, label, page_num, section_path, text FROM reg_units WHERE reg_id = ? AND id = ?').get(regId, id) as UnitRow | undefined) : undefined;
  if (!row) throw new GridError('NOT_FOUND', `「${reg.title}」中没有内容块「${blockId}」（block_id 取自 smart_search 结果的 unit_id）`);
  return row;
}

/** One unit with `contextBlocks` units before and after it, the notes on its page and its chapters. */
export function blockWithContext(
  db: Db,
  regId: string,
  blockId: string | number,
  contextBlocks: number,
): { reg_id: string; regulation: string; page_num: number; target_block: BlockOut; before_blocks: BlockOut[]; after_blocks: BlockOut[]; page_annotations: NoteOut[]; active_chapters: ActiveChapter[]; source: string } {
  const unit = findBlock(db, regId, blockId);
  const reg = getRegulation(db, regId);
  const near = db.prepare('SELECT id, ord, kind, label, page_num, section_path, text FROM reg_units WHERE reg_id = ? AND ord BETWEEN ? AND ? ORDER BY ord').all(regId, unit.ord - contextBlocks, unit.ord + contextBlocks) as UnitRow[];
  const notes = db
    .prepare('SELECT label, text, page_num, target_type, target, section_path FROM reg_notes WHERE reg_id = ? AND page_num = ? ORDER BY ord')
    .all(regId, unit.page_num) as NoteOut[];
  return {
    reg_id: regId,
    regulation: reg.title,
    page_num: unit.page_num,
    target_block: toBlock(unit),
    before_blocks: near.filter((u) => u.ord < unit.ord).map(toBlock),
    after_blocks: near.filter((u) => u.ord > unit.ord).map(toBlock),
    page_annotations: notes,
    active_chapters: pageChapterInfo(db, regId, unit.page_num).active_chapters,
    source: `${reg.title} 第 ${unit.page_num} 页${unit.label ? ` ${unit.label}` : ''}`,
  };
}
