import { notInForce } from './editions';
import type { Db } from '../store/db';
import { GridError } from '../common/errors';
import { queryTokens } from '../text/segment';
import { getRegulation, getToc } from './store';
import type { RegulationInfo, TocEntry } from './types';
import { normalizeTableId, type MergedCell } from './tables';
import { normLawTitle } from './article-ref';
import { findFigure } from './figures';
import { chineseOrdinal, findReferences, normalizeNoteLabel, type FoundReference } from './refs';

/**
 * Reads of the structure stored at import (reg_tables, reg_table_rows, reg_notes, reg_refs): tables,
 * notes, reference resolution, chapter structure. Every answer names the regulation, page(s) and the
 * table / article id so agents can cite it.
 */

export interface TableSummary {
  table_id: string;
  title: string;
  page_start: number;
  page_end: number;
  row_count: number;
  columns: string[];
  section_path: string;
  /** the header as printed, one entry per header line (a spanning cell's text at its first column) */
  header_rows: string[][];
  /** body cells spanning several rows / columns (row: index among the table's rows) */
  merged_cells: MergedCell[];
  /** ruled: cells from ruling lines; aligned: columns from text alignment; markup: Markdown / DOCX structure */
  layout: 'ruled' | 'aligned' | 'markup';
}

interface TableRow {
  id: number;
  table_id: string;
  title: string;
  columns: string;
  page_start: number;
  page_end: number;
  row_count: number;
  section_path: string;
  layout?: string;
}

function tableLayout(r: TableRow): Pick<TableSummary, 'header_rows' | 'merged_cells' | 'layout'> {
  const columns = JSON.parse(r.columns) as string[];
  // tables stored before layouts were kept: one header line, no merged cells known
  const l = JSON.parse(r.layout || '{}') as Partial<TableSummary>;
  return { header_rows: l.header_rows ?? [columns], merged_cells: l.merged_cells ?? [], layout: l.layout ?? 'aligned' };
}

const summary = (r: TableRow): TableSummary => ({
  table_id: r.table_id,
  title: r.title,
  page_start: r.page_start,
  page_end: r.page_end,
  row_count: r.row_count,
  columns: JSON.parse(r.columns) as string[],
  section_path: r.section_path,
  ...tableLayout(r),
});

export function listTables(db: Db, regId: string): TableSummary[] {
  getRegulation(db, regId);
  return (db.prepare('SELECT * FROM reg_tables WHERE reg_id = ? ORDER BY ord').all(regId) as TableRow[]).map(summary);
}

/** "表 a.1" / "A.1" / "表6－2" / "T1" -> the stored row (ids compare without caring about . vs -). */
function findTableRow(db: Db, regId: string, tableId: string): TableRow | undefined {
  const rows = db.prepare('SELECT * FROM reg_tables WHERE reg_id = ? ORDER BY ord').all(regId) as TableRow[];
  const want = tableId.trim();
  const exact = rows.find((r) => r.table_id === want);
  if (exact) return exact;
  const loose = (s: string) => s.replace(/[.\-]/g, '.').toUpperCase();
  const norm = loose(/^T\d+$/i.test(want) ? want.toUpperCase() : normalizeTableId(want));
  const found = rows.find((r) => loose(r.table_id) === norm);
  if (found || /^T\d+$/i.test(want)) return found;
  // a scanned regulation whose caption and citations OCR read without the separator ("表41" for 表4-1): the one
  // table whose number has the same digits
  const bare = (s: string) => s.replace(/[.\-]/g, '').toUpperCase();
  const same = rows.filter((r) => bare(r.table_id) === bare(norm));
  if (same.length !== 1 || !db.prepare('SELECT 1 FROM reg_ocr_lines WHERE reg_id = ? LIMIT 1').get(regId)) return undefined;
  return same[0];
}

export interface NoteOut {
  label: string;
  text: string;
  page_num: number;
  target_type: string;
  target: string;
  section_path: string;
}

export interface TableOut extends TableSummary {
  reg_id: string;
  regulation: string;
  rows: { cells: string[]; page_num: number }[];
  notes: NoteOut[];
}

export function getTable(db: Db, regId: string, tableId: string): TableOut {
  const reg = getRegulation(db, regId);
  const row = findTableRow(db, regId, tableId);
  if (!row) {
    const ids = listTables(db, regId).map((t) => t.table_id);
    throw new GridError(
      'NOT_FOUND',
      `「${reg.title}」中没有表格「${tableId}」${ids.length ? `（已识别的表格：${ids.slice(0, 12).join('、')}${ids.length > 12 ? ' 等' : ''}）` : '（未识别到表格）'}`,
    );
  }
  const rows = (db.prepare('SELECT page_num, cells FROM reg_table_rows WHERE table_pk = ? ORDER BY row_idx').all(row.id) as { page_num: number; cells: string }[]).map(
    (r) => ({ cells: JSON.parse(r.cells) as string[], page_num: r.page_num }),
  );
  const notes = db
    .prepare("SELECT label, text, page_num, target_type, target, section_path FROM reg_notes WHERE reg_id = ? AND target_type = 'table' AND target = ? ORDER BY ord")
    .all(regId, row.table_id) as NoteOut[];
  return { reg_id: regId, regulation: reg.title, ...summary(row), rows, notes };
}

/** Tables whose title, header or cells hold the query words; the best matching rows come along. */
export function searchTables(
  db: Db,
  query: string,
  regIds: string[] | null,
  limit = 10,
): { reg_id: string; regulation: string; table: TableSummary; score: number; rows: { cells: string[]; page_num: number }[] }[] {
  const tokens = [...new Set(queryTokens(query).map((t) => t.toLowerCase()))].filter((t) => t.length > 0);
  if (!tokens.length) throw new GridError('INVALID_INPUT', 'query: 检索词不能为空');
  const tables = (
    regIds
      ? db.prepare(`SELECT t.*, t.reg_id AS reg, r.title AS regulation FROM reg_tables t JOIN regulations r ON r.reg_id = t.reg_id WHERE t.reg_id IN (${regIds.map(() => '?').join(',')}) ORDER BY t.reg_id, t.ord`).all(...regIds)
      : db.prepare('SELECT t.*, t.reg_id AS reg, r.title AS regulation FROM reg_tables t JOIN regulations r ON r.reg_id = t.reg_id ORDER BY t.reg_id, t.ord').all()
  ) as (TableRow & { reg: string; regulation: string })[];
  const rowStmt = db.prepare('SELECT page_num, cells FROM reg_table_rows WHERE table_pk = ? ORDER BY row_idx');
  const out = [];
  for (const t of tables) {
    const head = `${t.table_id} ${t.title}`.toLowerCase();
    const cols = JSON.parse(t.columns).join(' ').toLowerCase();
    const rows = (rowStmt.all(t.id) as { page_num: number; cells: string }[]).map((r) => ({ cells: JSON.parse(r.cells) as string[], page_num: r.page_num }));
    const covered = new Set<string>();
    let score = 0;
    for (const tok of tokens) {
      if (head.includes(tok)) {
        score += 3;
        covered.add(tok);
      } else if (cols.includes(tok)) {
        score += 2;
        covered.add(tok);
      }
    }
    const scored = rows
      .map((r) => {
        const text = r.cells.join(' ').toLowerCase();
        const hit = tokens.filter((tok) => text.includes(tok));
        return { r, hit };
      })
      .filter((x) => x.hit.length > 0);
    const rowTokens = new Set(scored.flatMap((x) => x.hit));
    for (const tok of rowTokens) if (!covered.has(tok)) {
      score += 1;
      covered.add(tok);
    }
    if (!score) continue;
    // coverage of the query matters more than how many rows repeat a word
    score = score * (covered.size / tokens.length);
    const best = scored.sort((a, b) => b.hit.length - a.hit.length).slice(0, 5).map((x) => x.r);
    out.push({ reg_id: t.reg, regulation: t.regulation, table: summary(t), score: Math.round(score * 1000) / 1000, rows: best });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, limit);
}

/**
 * Notes by label in any written form (注1 = 注一 = 注①, 方案A = 方案甲; 注 = every 注…), optionally only those
 * of one table or article; with `page_hint` the nearest to that page come first.
 */
export function lookupNotes(db: Db, regId: string, opts: { label?: string; table_id?: string; article?: string; page_hint?: number }): NoteOut[] {
  getRegulation(db, regId);
  let notes = db.prepare('SELECT label, text, page_num, target_type, target, section_path FROM reg_notes WHERE reg_id = ? ORDER BY ord').all(regId) as NoteOut[];
  if (opts.label) {
    const label = normalizeNoteLabel(opts.label);
    notes = notes.filter((n) => n.label === label || (label === '注' && n.label.startsWith('注')));
  }
  if (opts.table_id) {
    const t = findTableRow(db, regId, opts.table_id);
    notes = notes.filter((n) => n.target_type === 'table' && n.target === (t?.table_id ?? opts.table_id));
  }
  if (opts.article) {
    const m = /第\s*([零〇一二两三四五六七八九十百千\d]+)\s*条/.exec(opts.article);
    const art = m ? `第${chineseOrdinal(m[1])}条` : opts.article.trim();
    notes = notes.filter((n) => n.target === art);
  }
  const hint = opts.page_hint;
  if (hint !== undefined) notes = notes.map((n, i) => ({ n, i })).sort((a, b) => Math.abs(a.n.page_num - hint) - Math.abs(b.n.page_num - hint) || a.i - b.i).map((x) => x.n);
  return notes;
}

// ---------------------------------------------------------------- references

export interface Resolution {
  resolved: boolean;
  reference_type: string;
  target: string | null;
  page_num: number | null;
  preview: string | null;
  /** the regulation the target lives in (another one for 《…》 references) */
  reg_id: string | null;
  regulation: string | null;
  reference_text: string | null;
  page_end?: number;
  table_id?: string;
  figure_id?: string;
  message?: string;
}

const preview = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 160);

/** Chapter-like headings compare with numerals normalised: 第6章 = 第六章. */
function headingKey(title: string): string {
  return title
    .replace(/\s+/g, '')
    .replace(/^第([零〇一二两三四五六七八九十百千\d０-９]+)(编|分编|章|节)/, (_m, n: string, k: string) => `第${chineseOrdinal(n)}${k}`)
    .replace(/^附\s*录/, '附录');
}

function findRegulationByTitle(db: Db, name: string): { reg_id: string; title: string } | null {
  const all = db.prepare('SELECT reg_id, title FROM regulations').all() as { reg_id: string; title: string }[];
  const core = (s: string) => s.replace(/[《》\s]/g, '').replace(/[（(](演示|试行|\d{4}[^)）]*)[)）]/g, '');
  const want = core(name);
  return (
    all.find((r) => core(r.title) === want) ??
    all.find((r) => core(r.title).includes(want) || (want.length >= 4 && want.includes(core(r.title)))) ??
    null
  );
}

/**
 * The library regulation that IS the document titled `title` (same title once 《》, spaces, a
 * (试行)/(year) suffix and 中华人民共和国 are ignored; never a longer title such as …实施细则) and
 * the page of its article `label`. Collections use it so a cited article opens in the reader.
 */
export function locateArticleByTitle(db: Db, title: string, label: string): { reg_id: string; title: string; page_num: number } | null {
  // the article-reference title form, plus a (演示)/(试行)/(year …) edition note
  const core = (s: string) => normLawTitle(s.replace(/[（(](演示|试行|\d{4}[^)）]*)[)）]/g, ''));
  const want = core(title);
  if (!want) return null;
  const all = db.prepare('SELECT reg_id, title FROM regulations').all() as { reg_id: string; title: string }[];
  // several editions of the title: the one in force (a citation never opens a superseded edition)
  const old = notInForce(db);
  const matches = all.filter((r) => core(r.title) === want);
  const reg = matches.find((r) => !old.has(r.reg_id)) ?? matches[0];
  if (!reg) return null;
  const u = db.prepare('SELECT page_num FROM reg_units WHERE reg_id = ? AND label = ? ORDER BY ord LIMIT 1').get(reg.reg_id, label) as { page_num: number } | undefined;
  if (u) return { reg_id: reg.reg_id, title: reg.title, page_num: u.page_num };
  // the section is a heading, not an article: its TOC entry
  const t = db.prepare('SELECT page_num FROM reg_toc WHERE reg_id = ? AND title = ? ORDER BY ord LIMIT 1').get(reg.reg_id, label) as { page_num: number } | undefined;
  return { reg_id: reg.reg_id, title: reg.title, page_num: t?.page_num ?? 1 };
}

function resolveIn(db: Db, regId: string, ref: FoundReference): Omit<Resolution, 'reference_text'> {
  const reg = getRegulation(db, regId);
  const base = { reference_type: ref.type, target: ref.target, reg_id: regId, regulation: reg.title };
  const miss = (message: string): Omit<Resolution, 'reference_text'> => ({ resolved: false, page_num: null, preview: null, ...base, message });
  switch (ref.type) {
    case 'article':
    case 'clause': {
      const u = db.prepare('SELECT page_num, text FROM reg_units WHERE reg_id = ? AND label = ? ORDER BY ord LIMIT 1').get(regId, ref.target) as
        | { page_num: number; text: string }
        | undefined;
      return u ? { resolved: true, page_num: u.page_num, preview: preview(u.text), ...base } : miss(`「${reg.title}」中没有${ref.target}`);
    }
    case 'chapter':
    case 'section':
    case 'part':
    case 'appendix': {
      const key = headingKey(ref.target);
      const toc = getToc(db, regId);
      const hit = toc.find((t) => {
        const k = headingKey(t.title);
        return k === key || (k.startsWith(key) && !/^[A-Za-z0-9一二三四五六七八九十]/.test(k.slice(key.length)));
      });
      if (hit) {
        const next = toc.find((t) => toc.indexOf(t) > toc.indexOf(hit) && t.level <= hit.level);
        const first = db
          .prepare('SELECT text FROM reg_units WHERE reg_id = ? AND page_num >= ? AND section_path LIKE ? ORDER BY ord LIMIT 1')
          .get(regId, hit.page_num, `%${hit.title}%`) as { text: string } | undefined;
        return {
          resolved: true,
          page_num: hit.page_num,
          page_end: next ? Math.max(hit.page_num, next.page_num) : reg.total_pages,
          preview: preview(`${hit.title}${first ? `\n${first.text}` : ''}`),
          ...base,
          target: hit.title,
        };
      }
      // no TOC entry: the first unit filed under that heading
      const u = db
        .prepare('SELECT page_num, section_path, text FROM reg_units WHERE reg_id = ? AND section_path LIKE ? ORDER BY ord LIMIT 1')
        .get(regId, `%${ref.target}%`) as { page_num: number; section_path: string; text: string } | undefined;
      return u ? { resolved: true, page_num: u.page_num, preview: preview(u.text), ...base } : miss(`「${reg.title}」中没有${ref.target}`);
    }
    case 'table': {
      const t = findTableRow(db, regId, ref.target);
      if (!t) return miss(`「${reg.title}」中没有${ref.target}`);
      const cols = JSON.parse(t.columns) as string[];
      return {
        resolved: true,
        page_num: t.page_start,
        page_end: t.page_end,
        table_id: t.table_id,
        preview: preview(`${t.table_id} ${t.title}（${cols.join('、')}；共 ${t.row_count} 行）`),
        ...base,
        target: t.table_id,
      };
    }
    case 'figure': {
      const f = findFigure(db, regId, ref.target);
      if (!f) return miss(`「${reg.title}」中没有${ref.target}`);
      return {
        resolved: true,
        page_num: f.page_num,
        figure_id: f.figure_id,
        preview: preview(`${f.figure_id} ${f.caption}`.trim()),
        ...base,
        target: f.figure_id,
      };
    }
    case 'note': {
      const n = lookupNotes(db, regId, { label: ref.target })[0];
      return n
        ? { resolved: true, page_num: n.page_num, preview: preview(n.text), ...base, ...(n.target_type === 'table' ? { table_id: n.target } : {}) }
        : miss(`「${reg.title}」中没有${ref.target}`);
    }
    case 'regulation':
    default:
      return miss('无法解析的引用');
  }
}

const CONTAINER_TYPES = new Set(['part', 'chapter', 'section', 'appendix']);
// not 'section': 第二节 is numbered per chapter, so it alone would land in the wrong chapter
const NARROWER_TYPES = new Set(['article', 'clause', 'table', 'figure', 'note']);

/**
 * Resolves the first reference in `text` ("见附录D", "按本规程第三十二条执行", "详见第六章", "见表6-2",
 * "注1", "《电网调度管理条例》第十条") within regulation `regId` (or the regulation it names).
 */
export function resolveReference(db: Db, regId: string, text: string): Resolution & { others: FoundReference[] } {
  const reg = getRegulation(db, regId);
  const refs = findReferences(text.trim());
  if (!refs.length) {
    return { resolved: false, reference_type: 'unknown', target: null, page_num: null, preview: null, reg_id: regId, regulation: reg.title, reference_text: null, message: `「${text}」中没有可识别的引用（条、章、节、附录、表、注或《规程名》）`, others: [] };
  }
  // "《X》第十条": one reference to an article of X; "本规程/本规定" keeps the current regulation.
  // A container named right before something inside it ("附录 C 表 C.2", "第六章第二十条", "附录B中的表B.3")
  // means the narrower target; the container stays in `others`.
  let at = 0;
  while (
    at + 1 < refs.length &&
    CONTAINER_TYPES.has(refs[at].type) &&
    NARROWER_TYPES.has(refs[at + 1].type) &&
    !refs[at].regulation &&
    /^[\s的中之内]{0,3}$/.test(text.trim().slice(refs[at].index + refs[at].text.length, refs[at + 1].index))
  )
    at++;
  return { ...resolveFound(db, regId, refs[at]), others: refs.filter((_, i) => i !== at) };
}

/** One reference already read from text (or stored at import) resolved within `regId` or the regulation it names. */
function resolveFound(db: Db, regId: string, ref: FoundReference): Resolution {
  if (ref.regulation) {
    const other = findRegulationByTitle(db, ref.regulation);
    if (!other) {
      return { resolved: false, reference_type: ref.type === 'regulation' ? 'regulation' : ref.type, target: ref.target, page_num: null, preview: null, reg_id: null, regulation: ref.regulation, reference_text: ref.text, message: `规程库中没有《${ref.regulation}》` };
    }
    if (ref.type === 'regulation') {
      const first = db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? ORDER BY page_num LIMIT 1').get(other.reg_id) as { text: string } | undefined;
      return { resolved: true, reference_type: 'regulation', target: other.title, page_num: 1, preview: preview(first?.text ?? other.title), reg_id: other.reg_id, regulation: other.title, reference_text: ref.text };
    }
    return { ...resolveIn(db, other.reg_id, ref), reference_text: ref.text };
  }
  return { ...resolveIn(db, regId, ref), reference_text: ref.text };
}

/** References written in a regulation (optionally on some pages), each resolved: the reader turns them into links. */
export function pageReferences(db: Db, regId: string, from: number, to: number): (Resolution & { source_page: number; source: string })[] {
  const rows = db.prepare('SELECT page_num, source, text, ref_type, target, regulation FROM reg_refs WHERE reg_id = ? AND page_num BETWEEN ? AND ? ORDER BY ord').all(regId, from, to) as {
    page_num: number;
    source: string;
    text: string;
    ref_type: FoundReference['type'];
    target: string;
    regulation: string | null;
  }[];
  // the stored reading is used as is: "注1" alone only reads as a note after 见/按 (the words around it are not stored)
  return rows.map((r) => ({
    ...resolveFound(db, regId, { text: r.text, type: r.ref_type, target: r.target, regulation: r.regulation, index: 0 }),
    source_page: r.page_num,
    source: r.source,
  }));
}

// ---------------------------------------------------------------- chapters

export interface ChapterNode {
  id: number;
  level: number;
  title: string;
  parent_id: number | null;
  page_start: number;
  page_end: number;
  article_count: number;
  table_ids: string[];
  first_article: string | null;
  last_article: string | null;
}

/** Things filed under a section path and a page (units, tables). */
interface Filed {
  section_path: string;
  page_num: number;
}

const PATH_SEP = ' > ';

/**
 * Which items lie in each TOC entry, in one pass over the items (it was a scan of every item per
 * entry, and of every item again per miss: 3,000 headings took 469 s). An item lies in an entry when
 * its section path starts with the entry's heading chain (exact and hierarchical: two 「一般规定」
 * sections under different chapters stay apart); else when one of its path segments names the entry
 * (an outline title that is not the detected heading, e.g. 「总则」 for 「第一章 总则」); else by page range.
 */
function chapterMembers<T extends Filed>(toc: TocEntry[], items: T[], pageEnd: (i: number) => number): number[][] {
  const byPrefix = new Map<string, number[]>();
  const bySegment = new Map<string, number[]>();
  const byPage = new Map<number, number[]>();
  items.forEach((it, i) => {
    const segments = it.section_path ? it.section_path.split(PATH_SEP) : [];
    let prefix = '';
    for (const seg of segments) {
      prefix = prefix ? prefix + PATH_SEP + seg : seg;
      const list = byPrefix.get(prefix);
      if (list) list.push(i);
      else byPrefix.set(prefix, [i]);
      const bySeg = bySegment.get(seg);
      if (bySeg?.at(-1) !== i) {
        if (bySeg) bySeg.push(i);
        else bySegment.set(seg, [i]);
      }
    }
    const onPage = byPage.get(it.page_num);
    if (onPage) onPage.push(i);
    else byPage.set(it.page_num, [i]);
  });
  const segments = [...bySegment.keys()];
  const chain = new Map<number, string>();
  const pages = [...byPage.keys()].sort((a, b) => a - b);
  return toc.map((t, i) => {
    const key = (t.parent_id !== null && chain.has(t.parent_id) ? chain.get(t.parent_id)! + PATH_SEP : '') + t.title;
    chain.set(t.id, key);
    const exact = byPrefix.get(key);
    if (exact) return exact;
    const named = bySegment.get(t.title) ? [t.title] : segments.filter((seg) => seg.includes(t.title));
    if (named.length === 1) return bySegment.get(named[0])!;
    if (named.length > 1) return [...new Set(named.flatMap((seg) => bySegment.get(seg)!))].sort((a, b) => a - b);
    const end = pageEnd(i);
    return pages.filter((p) => p >= t.page_num && p <= end).flatMap((p) => byPage.get(p)!).sort((a, b) => a - b);
  });
}

/** The page each TOC entry ends on: the next entry at its level or above starts the next part (one pass). */
function tocPageEnds(toc: TocEntry[], totalPages: number): number[] {
  const ends = new Array<number>(toc.length);
  const open: number[] = [];
  toc.forEach((t, i) => {
    while (open.length && toc[open[open.length - 1]].level >= t.level) {
      const j = open.pop()!;
      ends[j] = Math.max(toc[j].page_num, t.page_num);
    }
    open.push(i);
  });
  for (const j of open) ends[j] = totalPages;
  return ends;
}

type UnitRow = { kind: string; label: string | null; section_path: string; page_num: number };

function chapterNodes(db: Db, regId: string, units: UnitRow[]): { reg: RegulationInfo; chapters: ChapterNode[]; members: number[][] } {
  const reg = getRegulation(db, regId);
  const toc = getToc(db, regId);
  const ends = tocPageEnds(toc, reg.total_pages);
  const members = chapterMembers(toc, units, (i) => ends[i]);
  const tables = listTables(db, regId);
  const tableMembers = chapterMembers(
    toc,
    tables.map((tb) => ({ section_path: tb.section_path, page_num: tb.page_start })),
    (i) => ends[i],
  );
  // a table captioned in a TOC entry's own title (「表A.1 …」 listed in the outline) belongs to it too
  const captioned = (t: TocEntry, end: number): number[] =>
    tables.flatMap((tb, k) => (tb.page_start >= t.page_num && tb.page_start <= end && t.title.includes(tb.table_id) ? [k] : []));
  const chapters = toc.map((t, i) => {
    const articles = members[i].filter((k) => units[k].kind === 'article' || units[k].kind === 'clause').map((k) => units[k].label!);
    const byPath = tableMembers[i].filter((k) => tables[k].section_path.includes(t.title));
    const tableIndexes = [...new Set([...byPath, ...captioned(t, ends[i])])].sort((a, b) => a - b);
    return {
      id: t.id,
      level: t.level,
      title: t.title,
      parent_id: t.parent_id,
      page_start: t.page_num,
      page_end: ends[i],
      article_count: articles.length,
      table_ids: tableIndexes.map((k) => tables[k].table_id),
      first_article: articles[0] ?? null,
      last_article: articles.at(-1) ?? null,
    };
  });
  return { reg, chapters, members };
}

export function chapterStructure(db: Db, regId: string): { reg_id: string; title: string; total_pages: number; chapters: ChapterNode[] } {
  const units = db.prepare('SELECT kind, label, section_path, page_num FROM reg_units WHERE reg_id = ? ORDER BY ord').all(regId) as UnitRow[];
  const { reg, chapters } = chapterNodes(db, regId, units);
  return { reg_id: regId, title: reg.title, total_pages: reg.total_pages, chapters };
}

/** A chapter by TOC id, exact title, or a heading reference (第六章 / 附录D / 第二节). */
export function findChapter(db: Db, regId: string, chapter: string | number): ChapterNode {
  const { chapters, title } = chapterStructure(db, regId);
  return chapters[chapterIndex(chapters, title, chapter)];
}

function chapterIndex(chapters: ChapterNode[], title: string, chapter: string | number): number {
  const want = typeof chapter === 'number' ? null : headingKey(chapter);
  const find = (pred: (c: ChapterNode) => boolean) => chapters.findIndex(pred);
  let hit = -1;
  if (typeof chapter === 'number') hit = find((c) => c.id === chapter);
  else {
    hit = find((c) => headingKey(c.title) === want);
    if (hit < 0)
      hit = find((c) => {
        const k = headingKey(c.title);
        return k.startsWith(want!) && !/^[A-Za-z0-9一二三四五六七八九十]/.test(k.slice(want!.length));
      });
    if (hit < 0) hit = find((c) => c.title.includes(String(chapter).trim()));
  }
  if (hit < 0) throw new GridError('NOT_FOUND', `「${title}」中没有章节「${chapter}」（可用 get_chapter_structure 查看章节）`);
  return hit;
}

export interface ChapterBlock {
  type: 'article' | 'text' | 'table' | 'note';
  label: string | null;
  page_num: number;
  section_path: string;
  text: string;
  table?: TableSummary;
}

export const BLOCK_TYPE_OF_KIND: Record<string, ChapterBlock['type']> = { article: 'article', clause: 'article', section: 'article', paragraph: 'text', table: 'table', note: 'note' };

/** The blocks of one chapter in order; a table appears once (summary), its rows via get_table_by_id. */
export function readChapter(db: Db, regId: string, chapter: string | number, maxChars: number): { reg_id: string; chapter: ChapterNode; blocks: ChapterBlock[]; truncated: boolean } {
  const units = db.prepare('SELECT kind, label, section_path, page_num, text FROM reg_units WHERE reg_id = ? ORDER BY ord').all(regId) as (UnitRow & { text: string })[];
  const { reg, chapters, members } = chapterNodes(db, regId, units);
  const index = chapterIndex(chapters, reg.title, chapter);
  const node = chapters[index];
  const inside = members[index].map((k) => units[k]);
  const tables = new Map(listTables(db, regId).map((t) => [t.table_id, t]));
  const blocks: ChapterBlock[] = [];
  const seenTables = new Set<string>();
  let chars = 0;
  let truncated = false;
  for (const u of inside) {
    const type = BLOCK_TYPE_OF_KIND[u.kind] ?? 'text';
    if (type === 'table') {
      if (seenTables.has(u.label ?? '')) continue;
      seenTables.add(u.label ?? '');
      const t = tables.get(u.label ?? '');
      blocks.push({ type, label: u.label, page_num: u.page_num, section_path: u.section_path, text: t ? `${t.table_id} ${t.title}（${t.columns.join('、')}；共 ${t.row_count} 行，第 ${t.page_start}–${t.page_end} 页）` : u.text.split('\n')[0], ...(t ? { table: t } : {}) });
      continue;
    }
    if (chars + u.text.length > maxChars && blocks.length) {
      truncated = true;
      break;
    }
    chars += u.text.length;
    blocks.push({ type, label: u.label, page_num: u.page_num, section_path: u.section_path, text: u.text });
  }
  return { reg_id: regId, chapter: node, blocks, truncated };
}

/** Text of a section named by article label, chapter/appendix heading or table id. */
export function sectionText(db: Db, regId: string, section: string, options: { includeTables?: boolean } = {}): { label: string; page_num: number; text: string } {
  const ref = findReferences(section)[0];
  if (ref && (ref.type === 'article' || ref.type === 'clause')) {
    const u = db.prepare('SELECT label, page_num, text FROM reg_units WHERE reg_id = ? AND label = ? ORDER BY ord LIMIT 1').get(regId, ref.target) as
      | { label: string; page_num: number; text: string }
      | undefined;
    if (u) return u;
  }
  if (ref && ref.type === 'table') {
    const t = getTable(db, regId, ref.target);
    return { label: t.table_id, page_num: t.page_start, text: [t.title, t.columns.join(' | '), ...t.rows.map((r) => r.cells.join(' | '))].join('\n') };
  }
  const ch = readChapter(db, regId, section, 20000);
  const blocks = options.includeTables === false ? ch.blocks.filter((b) => b.type !== 'table') : ch.blocks;
  return { label: ch.chapter.title, page_num: ch.chapter.page_start, text: blocks.map((b) => b.text).join('\n') };
}

// ---------------------------------------------------------------- search hooks (block_types, chapter_scope, table rows)

export type BlockType = ChapterBlock['type'];
export const BLOCK_TYPES = ['article', 'text', 'table', 'note'] as const;

/** A search unit's block type: article (条/款/节), text (paragraph), table, note. */
export function blockTypeOf(kind: string): BlockType {
  return BLOCK_TYPE_OF_KIND[kind] ?? 'text';
}

/** Does a unit filed under `sectionPath` lie in the chapter the user named ("第六章", "第6章", "附录C", a title)? */
export function inChapterScope(sectionPath: string, scope: string): boolean {
  const want = headingKey(scope.trim());
  if (!want) return true;
  return sectionPath.split(' > ').some((part) => {
    const k = headingKey(part);
    return k === want || (k.startsWith(want) && !/^[A-Za-z0-9一二三四五六七八九十]/.test(k.slice(want.length))) || k.includes(want);
  });
}

export interface TableHit {
  table_id: string;
  title: string;
  columns: string[];
  row: { cells: string[]; page_num: number } | null;
}

/** "表C.1 稳控装置主要定值清单：厂站=天山换流站；定值项=…；定值=600" */
export function tableRowText(t: TableHit): string {
  const row = t.row?.cells ?? [];
  return `${t.table_id} ${t.title}：${t.columns.map((c, i) => `${c}=${row[i] ?? ''}`).join('；')}`;
}

/** For a hit on a table unit: the table and its row (on that page) that holds most of the matched words. */
export function tableRowHit(db: Db, regId: string, tableId: string, pageNum: number, terms: string[], chunkText?: string): TableHit | null {
  const t = db.prepare('SELECT * FROM reg_tables WHERE reg_id = ? AND table_id = ?').get(regId, tableId) as TableRow | undefined;
  if (!t) return null;
  type Row = { row_idx: number; page_num: number; cells: string };
  // the rows the hit chunk holds (a chunk of a cross-page table may go on past its first page);
  // without the chunk's text, the rows printed on its page
  const squashed = (s: string) => s.replace(/[\s\u3000|]+/g, '');
  const inChunk = chunkText ? squashed(chunkText) : null;
  const near = db.prepare('SELECT row_idx, page_num, cells FROM reg_table_rows WHERE table_pk = ? AND page_num BETWEEN ? AND ? ORDER BY row_idx').all(t.id, pageNum, inChunk ? pageNum + 2 : pageNum) as Row[];
  const held = inChunk ? near.filter((r) => inChunk.includes(squashed((JSON.parse(r.cells) as string[]).join('')))) : [];
  const rows = held.length ? held : near.filter((r) => r.page_num === pageNum);
  const words = [...new Set(terms.map((w) => w.toLowerCase()).filter(Boolean))];
  let best: (typeof rows)[number] | null = null;
  let bestScore = 0;
  for (const r of rows) {
    const text = r.cells.toLowerCase();
    const score = words.reduce((n, w) => n + (text.includes(w) ? w.length : 0), 0);
    if (score > bestScore) {
      bestScore = score;
      best = r;
    }
  }
  return {
    table_id: t.table_id,
    title: t.title,
    columns: JSON.parse(t.columns) as string[],
    row: best ? { cells: JSON.parse(best.cells) as string[], page_num: best.page_num } : null,
  };
}

// ---------------------------------------------------------------- reader: what one page holds

export interface PageTable extends TableSummary {
  /** the rows printed on this page (a continuation page repeats no header: the reader shows `columns`) */
  rows: { cells: string[]; page_num: number }[];
  /** the table started on an earlier page / goes on to a later one */
  continued: boolean;
  continues: boolean;
  /** the table's notes printed on this page */
  notes: NoteOut[];
}

/**
 * The structure of one page for the reader: its tables (rows of this page, header, continuation flags),
 * the notes printed on it and the references written on it, each resolved (links).
 */
export function pageStructure(
  db: Db,
  regId: string,
  page: number,
): { reg_id: string; page_num: number; tables: PageTable[]; notes: NoteOut[]; references: (Resolution & { source_page: number; source: string })[] } {
  getRegulation(db, regId);
  const rows = db
    .prepare('SELECT * FROM reg_tables WHERE reg_id = ? AND page_start <= ? AND page_end >= ? ORDER BY ord')
    .all(regId, page, page) as TableRow[];
  const notes = db
    .prepare('SELECT label, text, page_num, target_type, target, section_path FROM reg_notes WHERE reg_id = ? AND page_num = ? ORDER BY ord')
    .all(regId, page) as NoteOut[];
  const rowStmt = db.prepare('SELECT page_num, cells FROM reg_table_rows WHERE table_pk = ? AND page_num = ? ORDER BY row_idx');
  const tables = rows.map((t) => ({
    ...summary(t),
    rows: (rowStmt.all(t.id, page) as { page_num: number; cells: string }[]).map((r) => ({ cells: JSON.parse(r.cells) as string[], page_num: r.page_num })),
    continued: page > t.page_start,
    continues: page < t.page_end,
    notes: notes.filter((n) => n.target_type === 'table' && n.target === t.table_id),
  }));
  return { reg_id: regId, page_num: page, tables, notes, references: pageReferences(db, regId, page, page) };
}
