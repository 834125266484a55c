import type { ParsedDocument, ParsedNote, ParsedReference, ParsedToc, ParsedUnit, RegulationFormat } from './types';
import { assignTableIds, markdownTables, parseCaption, sameRow, tableUnitText, type Line, type ParsedTable, type TableInfo } from './tables';
import { whitespaceTables } from './table-layout';
import { findReferences, footnoteLabel, noteLabel } from './refs';
import { wrapLongLines } from '../text/wrap';

/**
 * Structure of regulation text: headings (markdown `#`, 第X编/章/节, 一、, 1.1), articles (第X条,
 * 第十条之一), numbered clauses (5.3.2 ...) and plain paragraphs. Shared by every format: Markdown/TXT/DOCX
 * are cut into virtual pages here; PDF lines arrive with their physical page numbers.
 */

const CN_NUM = '零〇一二两三四五六七八九十百千万\\d０-９';
export const ARTICLE_RE = new RegExp(`^第([${CN_NUM}]+)条(之[${CN_NUM}]+)?(?=$|[\\s\\u3000:：.．、]|[^的规和及与或至、，,中所之第])`);
const CHAPTER_RE = new RegExp(`^第([${CN_NUM}]+)(编|分编|章|节)(?:$|[\\s\\u3000:：.．、]+(.*)$|([^\\s的规和及与或至、，,中所之].*)$)`);
const CN_LIST_RE = /^([一二三四五六七八九十]{1,3})[、．.]\s*(\S.*)$/;
const NUMBERED_RE = /^(\d{1,2}(?:[.．]\d{1,3}){0,4})[\s\u3000]+(\S.*)$/;
const APPENDIX_RE = /^(附录|附件|附表)\s*([A-Z0-9一二三四五六七八九十]*)(?:$|[\s\u3000:：.．、]+(.*)$)/;
const MD_HEADING_RE = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
/** Lines of a printed table of contents: "第一章 总则 ........ 3" */
const TOC_LEADER_RE = /(\.{3,}|…{2,}|·{3,}|．{3,}|-{4,})\s*\d+\s*$/;
const SENTENCE_END_RE = /[。；;，,：:！？!?]$/;

const HEADING_MAX = 40;
/** Hard ceiling of a virtual page in target pages, when the caller gives none (config import.maxPageChars). */
const MAX_PAGE_FACTOR = 4;


export type { Line, TableInfo } from './tables';
export { assignTableIds } from './tables';

export type Block =
  | { type: 'heading'; rank: number; level: number; title: string; raw: string[]; page: number; isDocTitle?: boolean }
  | {
      type: 'unit';
      kind: ParsedUnit['kind'];
      label: string | null;
      text: string[];
      raw: string[];
      page: number;
      sectionPath: string;
      /** table blocks: which table and which of its body rows they hold */
      tableIndex?: number;
      rows?: number[];
      /** table blocks: characters counted against maxParagraphChars (as for a paragraph of these lines) */
      chars?: number;
    };

/** Strips markdown emphasis / list markers that sit in front of labels (**第一条** …). */
function plain(line: string): string {
  return line
    .replace(/^>\s*/, '')
    .replace(/\*\*|__/g, '')
    .replace(/!\[[^\]]*]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)]\([^)]*\)/g, '$1')
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim();
}

/** "总 则" -> "总则": statutes space out two-character titles for print layout. */
function tidyTitle(title: string): string {
  const t = title.replace(/[\s\u3000]+/g, ' ').trim();
  if (/^([\u4e00-\u9fff] )+[\u4e00-\u9fff]$/.test(t)) return t.replace(/ /g, '');
  return t;
}

const CHAPTER_RANK: Record<string, number> = { 编: 2.2, 分编: 2.4, 章: 2.6, 节: 2.8 };

/** Heading rank (smaller = higher) when the line is a heading, else null. */
export function headingRank(line: string, markdown: boolean, insideArticle: boolean): { rank: number; title: string } | null {
  if (markdown) {
    const m = MD_HEADING_RE.exec(line);
    if (m) {
      const title = tidyTitle(plain(m[2]));
      return title ? { rank: m[1].length, title } : null;
    }
  }
  const p = plain(line);
  if (!p || p.length > HEADING_MAX + 12 || TOC_LEADER_RE.test(p)) return null;
  const ch = CHAPTER_RE.exec(p);
  if (ch) {
    const rest = (ch[3] ?? ch[4] ?? '').trim();
    if (rest.length > HEADING_MAX || SENTENCE_END_RE.test(rest)) return null;
    const label = `第${ch[1]}${ch[2]}`;
    return { rank: CHAPTER_RANK[ch[2]], title: rest ? `${label} ${tidyTitle(rest)}` : label };
  }
  if (ARTICLE_RE.test(p)) return null;
  const ap = APPENDIX_RE.exec(p);
  if (ap && p.length <= HEADING_MAX && !SENTENCE_END_RE.test(p)) return { rank: 2.6, title: tidyTitle(p) };
  if (insideArticle) return null;
  const cn = CN_LIST_RE.exec(p);
  if (cn && p.length <= 30 && !SENTENCE_END_RE.test(p) && !/[。；]/.test(cn[2])) return { rank: 3.5, title: tidyTitle(p) };
  const num = NUMBERED_RE.exec(p);
  if (num && num[2].length <= HEADING_MAX - 8 && !SENTENCE_END_RE.test(p) && !/[。；]/.test(num[2])) {
    const depth = num[1].split(/[.．]/).length;
    // a bare "12 总则" only counts when the words are Chinese (not "12 kV ...")
    if (depth === 1 && !/^[\u4e00-\u9fff]{2,16}$/.test(num[2].replace(/\s/g, ''))) return null;
    return { rank: 3 + depth * 0.3, title: tidyTitle(p) };
  }
  return null;
}

function articleLabel(p: string): string | null {
  const m = ARTICLE_RE.exec(p);
  return m ? m[0].trim() : null;
}

function clauseLabel(p: string): string | null {
  const m = /^(\d{1,2}(?:[.．]\d{1,3}){1,4})[\s\u3000]+\S/.exec(p);
  return m ? m[1].replace(/．/g, '.') : null;
}

/** Header + separator rows when `raw` is (or starts with) a Markdown pipe table. */
function tableHeader(raw: string[]): [string, string] | null {
  const [a, b] = raw.map((l) => l.trim());
  return a?.startsWith('|') && b && /^\|?\s*:?-{3,}/.test(b) ? [raw[0], raw[1]] : null;
}

export interface BlockOptions {
  markdown: boolean;
  /** Paragraph units longer than this are split at line boundaries (articles never are). */
  maxParagraphChars: number;
  /** The first `#` heading is the document title (Markdown). */
  titleFromFirstHeading: boolean;
  /** tables referenced by `Line.table` */
  tables?: TableInfo[];
}

/** Lines -> heading and unit blocks, with section paths. */
export function buildBlocks(lines: Line[], options: BlockOptions): { blocks: Block[]; title: string | null } {
  const blocks: Block[] = [];
  let title: string | null = null;
  let current: Extract<Block, { type: 'unit' }> | null = null;
  let paragraphOpen = false;
  const stack: { rank: number; title: string }[] = [];
  const path = () => stack.map((s) => s.title).join(' > ');
  const close = () => {
    current = null;
    paragraphOpen = false;
  };
  let mdH1Count = 0;
  // `#` lines that open the document before any content: one is the title; several are a code and
  // its part ("# 中华人民共和国民法典" + "# 合同编" -> "中华人民共和国民法典 · 合同编")
  let leadingH1 = 0;
  if (options.titleFromFirstHeading && options.markdown) {
    let leading = true;
    for (const l of lines) {
      const t = l.text.trim();
      const isH1 = /^#\s+\S/.test(t);
      if (isH1) mdH1Count++;
      if (leading && isH1) leadingH1++;
      else if (leading && t) leading = false;
    }
  }
  const titleParts = leadingH1 >= 2 && leadingH1 <= 3 && leadingH1 === mdH1Count ? leadingH1 : mdH1Count === 1 ? 1 : 0;
  let titlePartsSeen = 0;
  /** the table whose notes may follow (the last block was that table or one of its notes) */
  let footnoteTable: number | null = null;

  for (const { text: rawLine, page = 1, table: tableMark } of lines) {
    const line = rawLine.replace(/\s+$/, '');
    const trimmed = line.trim();
    if (tableMark && options.tables?.[tableMark.index]) {
      const info = options.tables[tableMark.index];
      const cur = current as Extract<Block, { type: 'unit' }> | null;
      const same = cur && cur.kind === 'table' && cur.tableIndex === tableMark.index && cur.page === page;
      const p = plain(trimmed);
      if (tableMark.row < 0) {
        // header / delimiter / caption lines: page text only
        if (same) {
          cur.raw.push(line);
          cur.chars! += p.length;
        } else {
          current = { type: 'unit', kind: 'table', label: info.table_id, text: [], raw: [line], page, sectionPath: path(), tableIndex: tableMark.index, rows: [], chars: p.length };
          blocks.push(current);
        }
        continue;
      }
      if (same && cur.chars! + p.length <= options.maxParagraphChars) {
        cur.rows!.push(tableMark.row);
        cur.raw.push(line);
        cur.chars! += p.length;
      } else {
        // a long table is cut into several units; each repeats the header in its page text
        const header = info.headerRaw ?? [];
        current = {
          type: 'unit',
          kind: 'table',
          label: info.table_id,
          text: [],
          raw: [...header, line],
          page,
          sectionPath: path(),
          tableIndex: tableMark.index,
          rows: [tableMark.row],
          chars: (header[0] ? plain(header[0].trim()).length : 0) + p.length,
        };
        blocks.push(current);
      }
      paragraphOpen = false;
      continue;
    }
    if (!trimmed) {
      // a table caption waits for its table across blank lines
      const cur = current as Extract<Block, { type: 'unit' }> | null;
      if (cur && cur.kind === 'table' && !cur.rows?.length) {
        cur.raw.push('');
        continue;
      }
      // a blank line ends a plain paragraph (markdown); articles run on until the next label or heading
      paragraphOpen = false;
      if (current && current.kind !== 'article' && current.kind !== 'clause') current = null;
      if (current) current.raw.push('');
      continue;
    }
    const insideArticle = current !== null && (current as Extract<Block, { type: 'unit' }>).kind === 'article';
    const h = headingRank(trimmed, options.markdown, insideArticle);
    if (h) {
      close();
      // the top `#` of a Markdown statute is its title (or code · part), not a TOC entry
      if (options.titleFromFirstHeading && h.rank === 1 && titlePartsSeen < titleParts && !blocks.some((b) => b.type === 'heading' && !b.isDocTitle)) {
        titlePartsSeen++;
        title = title === null ? h.title : `${title} · ${h.title}`;
        blocks.push({ type: 'heading', rank: 0, level: 0, title: h.title, raw: [line], page, isDocTitle: true });
        continue;
      }
      while (stack.length && stack[stack.length - 1].rank >= h.rank) stack.pop();
      stack.push({ rank: h.rank, title: h.title });
      blocks.push({ type: 'heading', rank: h.rank, level: stack.length, title: h.title, raw: [line], page });
      continue;
    }
    const p = plain(trimmed);
    // footnotes under a table ("a …", "* …") name a marker printed in its cells
    const cur0 = current as Extract<Block, { type: 'unit' }> | null;
    if (cur0?.kind === 'table' && cur0.tableIndex !== undefined) footnoteTable = cur0.tableIndex;
    else if (cur0?.kind !== 'note') footnoteTable = null;
    const markedCells = footnoteTable !== null ? (options.tables?.[footnoteTable]?.rows.flat() ?? []) : [];
    const note = insideArticle ? null : (noteLabel(p) ?? (markedCells.length ? footnoteLabel(p, markedCells) : null));
    if (note) {
      current = { type: 'unit', kind: 'note', label: note, text: [p], raw: [line], page, sectionPath: path() };
      blocks.push(current);
      paragraphOpen = options.markdown;
      continue;
    }
    const article = articleLabel(p);
    const clause = article ? null : clauseLabel(p);
    if (article || clause) {
      const label = (article ?? clause)!;
      const sectionPath = [path(), label].filter(Boolean).join(' > ');
      current = { type: 'unit', kind: article ? 'article' : 'clause', label, text: [p], raw: [line], page, sectionPath };
      blocks.push(current);
      paragraphOpen = false;
      continue;
    }
    const cur = current as Extract<Block, { type: 'unit' }> | null;
    if (cur && cur.kind !== 'table' && (cur.kind === 'article' || cur.kind === 'clause' || paragraphOpen)) {
      const size = cur.text.reduce((n, t) => n + t.length, 0);
      if (cur.kind === 'paragraph' && size + p.length > options.maxParagraphChars) {
        // long running prose: start another paragraph unit; a split Markdown table repeats its header
        const header = tableHeader(cur.raw);
        if (header && /^\|/.test(trimmed)) {
          current = { type: 'unit', kind: 'paragraph', label: null, text: [plain(header[0]), p], raw: [...header, line], page, sectionPath: cur.sectionPath };
          blocks.push(current);
          continue;
        }
      } else {
        cur.text.push(p);
        cur.raw.push(line);
        continue;
      }
    }
    current = { type: 'unit', kind: 'paragraph', label: null, text: [p], raw: [line], page, sectionPath: path() };
    blocks.push(current);
    // Markdown paragraphs run until a blank line; in plain text every line is its own paragraph
    paragraphOpen = options.markdown;
  }
  return { blocks, title };
}

/** Units and TOC from blocks whose `page` is final. */
export function unitsAndToc(blocks: Block[], tables: TableInfo[] = []): { units: ParsedUnit[]; toc: ParsedToc[] } {
  const units: ParsedUnit[] = [];
  const toc: ParsedToc[] = [];
  for (const b of blocks) {
    if (b.type === 'heading') {
      if (!b.isDocTitle) toc.push({ level: b.level, title: b.title, page_num: b.page });
      continue;
    }
    if (b.kind === 'table') {
      const info = b.tableIndex !== undefined ? tables[b.tableIndex] : undefined;
      if (!info || !b.rows?.length) continue;
      // a table unit carries its caption and header, so a hit on a row is readable on its own
      units.push({ page_num: b.page, kind: 'table', label: info.table_id, section_path: b.sectionPath, text: tableUnitText(info, b.rows.map((r) => info.rows[r])) });
      continue;
    }
    const text = b.text.join('\n').trim();
    if (!text) continue;
    units.push({ page_num: b.page, kind: b.kind, label: b.label, section_path: b.sectionPath, text });
  }
  return { units, toc };
}

function blockText(b: Block, markdown: boolean): string {
  // drop trailing blank lines kept inside articles
  const raw = [...b.raw];
  while (raw.length && !raw[raw.length - 1].trim()) raw.pop();
  return markdown ? raw.join('\n') : raw.join('\n');
}

/**
 * Virtual pages of about `pageChars` characters. Headings travel with the unit after them
 * (no heading alone at the bottom of a page); an article is not split — an overlong one gets its own page —
 * unless it is longer than `maxPageChars`: then it runs on over as many pages as it needs (at line
 * boundaries; lines were wrapped before), so no page is unbounded.
 */
export function paginate(
  blocks: Block[],
  pageChars: number,
  markdown: boolean,
  maxPageChars = Number.POSITIVE_INFINITY,
): { page_num: number; text: string }[] {
  const pages: { page_num: number; text: string }[] = [];
  let cur: Block[] = [];
  let curSize = 0;
  let pending: Block[] = [];
  const sep = markdown ? '\n\n' : '\n';
  const flush = () => {
    if (!cur.length) return;
    const page_num = pages.length + 1;
    for (const b of cur) b.page = page_num;
    pages.push({ page_num, text: cur.map((b) => blockText(b, markdown)).join(sep) });
    cur = [];
    curSize = 0;
  };
  const size = (bs: Block[]) => bs.reduce((n, b) => n + blockText(b, markdown).length + sep.length, 0);
  /** An oversized group on pages of its own: lines packed up to pageChars; each block keeps its first page. */
  const runOver = (group: Block[]) => {
    let lines: string[] = [];
    let chars = 0;
    const emit = () => {
      if (!lines.length) return;
      pages.push({ page_num: pages.length + 1, text: lines.join('\n') });
      lines = [];
      chars = 0;
    };
    for (const b of group) {
      // blocks are separated as on ordinary pages (a blank line between Markdown blocks)
      if (lines.length && markdown) lines.push('');
      const raw = blockText(b, markdown).split('\n');
      raw.forEach((line, i) => {
        if (chars > 0 && chars + line.length + 1 > pageChars) emit();
        // the block starts where its first line lands
        if (i === 0) b.page = pages.length + 1;
        lines.push(line);
        chars += line.length + 1;
      });
    }
    emit();
  };
  let pendingSize = 0;
  /** Blocks placed as they come (headings that cannot all travel with one unit): the page cap holds for every shape. */
  const place = (b: Block) => {
    const bs = size([b]);
    if (curSize > 0 && curSize + bs > pageChars) flush();
    if (bs > maxPageChars) return runOver([b]);
    cur.push(b);
    curSize += bs;
  };
  for (const b of blocks) {
    if (b.type === 'heading') {
      // a new top-level part starts on a fresh page when the current one is well filled
      if (b.level <= 1 && !b.isDocTitle && pending.length === 0 && curSize > pageChars * 0.6) flush();
      pending.push(b);
      pendingSize += size([b]);
      // a run of headings with no text between them (a headings-only Markdown, a table of contents)
      // is paged like text: only the last heading waits for the unit it belongs to
      if (pendingSize > pageChars) {
        for (const h of pending.slice(0, -1)) place(h);
        pending = [b];
        pendingSize = size([b]);
      }
      continue;
    }
    const group = [...pending, b];
    const gs = size(group);
    if (curSize > 0 && curSize + gs > pageChars) flush();
    if (gs > maxPageChars) {
      runOver(group);
      pending = [];
      pendingSize = 0;
      continue;
    }
    cur.push(...group);
    curSize += gs;
    pending = [];
    pendingSize = 0;
  }
  for (const h of pending) place(h);
  flush();
  return pages;
}

/** Markdown / TXT / DOCX (as markdown) text -> pages, TOC, units. */
export function parseFlowText(
  text: string,
  options: { format: RegulationFormat; markdown: boolean; pageChars: number; maxPageChars?: number; fallbackTitle: string },
): ParsedDocument {
  let body = text.replace(/\r\n?/g, '\n');
  if (options.markdown) {
    // front matter and HTML comments (<!-- INFO END -->) are not content
    body = body.replace(/^---\n[\s\S]*?\n---\n?/, '').replace(/<!--[\s\S]*?-->/g, '');
    body = body.replace(/^```[\s\S]*?^```/gm, (m) => m.replace(/^```.*$/gm, ''));
  }
  // a line longer than the page ceiling (a whole book on one line) is wrapped at sentence ends into
  // page-sized lines first; ordinary long lines stay as they are
  const maxPageChars = Math.max(options.pageChars, options.maxPageChars ?? options.pageChars * MAX_PAGE_FACTOR);
  const rawLines = wrapLongLines(body.split('\n'), maxPageChars, options.pageChars);
  let { tables, marks } = flowTables(rawLines, body);
  let lines: Line[] = rawLines.map((t, i) => ({ text: t, table: marks.get(i) }));
  // a TXT export without pipe tables may still hold tables aligned by spaces
  const aligned = options.format === 'text' && !tables.length ? whitespaceTables(rawLines) : null;
  if (aligned) {
    ({ tables } = aligned);
    lines = aligned.lines;
    marks = new Map();
  }
  const { blocks, title } = buildBlocks(lines, {
    markdown: options.markdown,
    maxParagraphChars: Math.max(200, Math.floor(options.pageChars / 2)),
    titleFromFirstHeading: options.markdown,
    tables,
  });
  let docTitle = title;
  if (!docTitle) {
    // a TXT / DOCX statute usually opens with its title line
    const first = blocks.find((b) => b.type === 'unit' || b.type === 'heading');
    if (first && first.type === 'unit' && first.kind === 'paragraph' && first.text.length === 1 && first.text[0].length <= 60 && !SENTENCE_END_RE.test(first.text[0])) {
      docTitle = first.text[0];
      blocks.splice(blocks.indexOf(first), 1, { type: 'heading', rank: 0, level: 0, title: docTitle, raw: first.raw, page: 1, isDocTitle: true });
    }
  }
  const pages = paginate(blocks, options.pageChars, options.markdown, maxPageChars);
  const { units, toc } = unitsAndToc(blocks, tables);
  const structure = finishStructure(blocks, tables);
  return { title: docTitle || options.fallbackTitle, format: options.format, pages, toc, units, ...structure };
}


/**
 * After pagination: tables with per-row pages, notes attached to the table or article they follow,
 * and the references found in article / paragraph / note text.
 */
export function finishStructure(
  blocks: Block[],
  tables: TableInfo[],
): { tables: ParsedTable[]; notes: ParsedNote[]; refs: ParsedReference[] } {
  const rowPages = tables.map((t) => t.rows.map(() => 0));
  const tablePath = tables.map(() => '');
  for (const b of blocks) {
    if (b.type !== 'unit' || b.kind !== 'table' || b.tableIndex === undefined) continue;
    if (!tablePath[b.tableIndex]) tablePath[b.tableIndex] = b.sectionPath;
    for (const r of b.rows ?? []) rowPages[b.tableIndex][r] = b.page;
  }
  // a page that holds only the caption/header of a table still belongs to its span
  const headerPage = tables.map(() => 0);
  for (const b of blocks) if (b.type === 'unit' && b.kind === 'table' && b.tableIndex !== undefined && !headerPage[b.tableIndex]) headerPage[b.tableIndex] = b.page;
  const parsedTables: ParsedTable[] = tables.map((t, i) => {
    const pages = rowPages[i].filter((p) => p > 0);
    const rows = t.rows.map((cells, r) => ({ cells, page_num: rowPages[i][r] || headerPage[i] || 1 }));
    const start = Math.min(...(pages.length ? pages : [headerPage[i] || 1]), headerPage[i] || Infinity);
    const end = Math.max(...(pages.length ? pages : [start]));
    return {
      table_id: t.table_id,
      title: t.title,
      columns: t.columns,
      rows,
      page_start: start,
      page_end: end,
      section_path: tablePath[i],
      header_rows: t.headerRows ?? [t.columns],
      merged_cells: t.mergedCells ?? [],
      layout: t.ruled ? 'ruled' : t.headerRaw ? 'markup' : 'aligned',
    };
  });

  const notes: ParsedNote[] = [];
  const refs: ParsedReference[] = [];
  let lastArticle: Extract<Block, { type: 'unit' }> | null = null;
  let lastTable: string | null = null;
  for (const b of blocks) {
    if (b.type === 'heading') {
      lastArticle = null;
      lastTable = null;
      continue;
    }
    if (b.kind === 'table') {
      if (b.tableIndex !== undefined) lastTable = tables[b.tableIndex].table_id;
      continue;
    }
    const text = b.text.join('\n').trim();
    if (b.kind === 'note') {
      const target = lastTable
        ? { target_type: 'table' as const, target: lastTable }
        : lastArticle
          ? { target_type: 'article' as const, target: lastArticle.label ?? '' }
          : { target_type: 'section' as const, target: b.sectionPath };
      notes.push({ label: b.label ?? '注', text, page_num: b.page, section_path: b.sectionPath, ...target });
    } else {
      lastTable = null;
      if (b.kind === 'article' || b.kind === 'clause') {
        lastArticle = b;
        // notes written inside an article (a line 注：… under its text) belong to it
        b.text.slice(1).forEach((line, k, rest) => {
          const label = noteLabel(line);
          if (!label) return;
          let body = line;
          for (const next of rest.slice(k + 1)) {
            if (noteLabel(next)) break;
            body += next;
          }
          notes.push({ label, text: body, page_num: b.page, section_path: b.sectionPath, target_type: 'article', target: b.label ?? '' });
        });
      }
    }
    for (const r of findReferences(text, { skipLeadingLabel: true })) {
      refs.push({ page_num: b.page, source: b.label ?? b.sectionPath, text: r.text, ref_type: r.type, target: r.target, regulation: r.regulation });
    }
  }
  return { tables: parsedTables, notes, refs };
}

/**
 * Markdown / DOCX / TXT tables via the GFM grammar, with 续表 / "（续）" continuations merged into the
 * table they continue. Returns the merged tables and the per-line marks for buildBlocks.
 */
export function flowTables(lines: string[], source: string): { tables: TableInfo[]; marks: Map<number, { index: number; row: number }> } {
  const found = markdownTables(source);
  const marks = new Map<number, { index: number; row: number }>();
  const merged: (TableInfo & { caption: ReturnType<typeof parseCaption> })[] = [];
  for (const t of found) {
    const prev = merged[merged.length - 1];
    const continues = prev && t.caption?.continued && (!t.caption.id || t.caption.id === prev.caption?.id);
    if (continues) {
      const index = merged.length - 1;
      if (t.captionLine >= 0 && !/^\s*#/.test(lines[t.captionLine])) marks.set(t.captionLine, { index, row: -2 });
      const headerRepeated = sameRow(t.header, prev.columns);
      marks.set(t.headerLine, headerRepeated ? { index, row: -1 } : { index, row: prev.rows.length });
      if (!headerRepeated) prev.rows.push(t.header);
      marks.set(t.headerLine + 1, { index, row: -1 });
      t.rows.forEach((r, k) => {
        marks.set(t.rowLines[k], { index, row: prev.rows.length });
        prev.rows.push(r);
      });
      continue;
    }
    const index = merged.length;
    // a plain caption line (not a heading, which stays in the TOC) travels with its table
    if (t.caption && t.captionLine >= 0 && !/^\s*#/.test(lines[t.captionLine])) marks.set(t.captionLine, { index, row: -2 });
    merged.push({ table_id: '', title: t.caption?.title ?? '', columns: t.header, rows: [...t.rows], headerRaw: [lines[t.headerLine], lines[t.headerLine + 1]], caption: t.caption });
    marks.set(t.headerLine, { index, row: -1 });
    marks.set(t.headerLine + 1, { index, row: -1 });
    t.rowLines.forEach((l, k) => marks.set(l, { index, row: k }));
  }
  const ids = assignTableIds(merged.map((m) => m.caption));
  return { tables: merged.map(({ caption: _c, ...t }, i) => ({ ...t, table_id: ids[i] })), marks };
}
