import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import { toString } from 'mdast-util-to-string';

/**
 * Tables as structure: a table has an id when the document numbers it (表A.1, 表6-2, 附表3), a title,
 * one header row, and rows that each remember the page they sit on. A table printed over several pages
 * ("表A.1 …（续）", 续表, a repeated header, or no header at all on the next page) is one table.
 * PDF tables are found from pdf.js text positions (columns by x-alignment), Markdown/DOCX tables by
 * the GFM table grammar.
 */

export interface ParsedTableRow {
  cells: string[];
  page_num: number;
}

export interface ParsedTable {
  table_id: string;
  title: string;
  columns: string[];
  rows: ParsedTableRow[];
  page_start: number;
  page_end: number;
  section_path: string;
}

/** "表A.1 安全自动装置台账（续）", "续表 6-2", "附表3 …" -> id, title, continuation flag. */
export const CAPTION_RE =
  /^(?:\*\*)?\s*(续表|附表|表)\s*((?:[A-Za-z]\s*[.．\-－—–]?\s*)?[0-9０-９]+(?:\s*[.．\-－—–]\s*[0-9０-９]+){0,3})?\s*([^|]{0,60}?)\s*(?:\*\*)?$/;
const CONTINUED_RE = /[（(]\s*续\s*表?\s*[)）]\s*$|^续表/;

export interface Caption {
  id: string | null;
  title: string;
  continued: boolean;
}

/** Normalises a printed table number: "A . 1" -> "A.1", "6－2" -> "6-2", full-width digits -> ASCII. */
export function normalizeTableNumber(num: string): string {
  return num
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/\s+/g, '')
    .replace(/．/g, '.')
    .replace(/[－—–]/g, '-')
    .toUpperCase();
}

export function parseCaption(line: string): Caption | null {
  const text = line.replace(/^#{1,6}\s+/, '').replace(/\*\*/g, '').trim();
  if (!text || text.length > 70) return null;
  const m = CAPTION_RE.exec(text);
  if (!m) return null;
  const [, word, num, rest] = m;
  if (!num && word !== '续表') return null;
  // a sentence that merely starts with 表 ("表中数值……。") is not a caption
  if (/[。；;，,]$/.test(rest) || /^[中内示明列]/.test(rest)) return null;
  const continued = word === '续表' || CONTINUED_RE.test(text);
  // "表1：设备清单" / "表1、设备清单": the separator is not part of the title; "（续）" / "（续表）" mark a continuation
  const title = rest.replace(/^[：:、.．]\s*/, '').replace(/[（(]\s*续\s*表?\s*[)）]\s*$/, '').trim();
  const id = num ? `${word === '附表' ? '附表' : '表'}${normalizeTableNumber(num)}` : null;
  return { id, title, continued };
}

/** Normalises a table id the user typed ("表 A.1", "a.1", "表6－2") to the stored form. */
export function normalizeTableId(input: string): string {
  const t = input.trim().replace(/^《|》$/g, '');
  const m = /^(附表|续表|表)?\s*(.+)$/.exec(t)!;
  const word = m[1] === '附表' ? '附表' : '表';
  return `${word}${normalizeTableNumber(m[2])}`;
}

const norm = (s: string) => s.replace(/\s+/g, '').toLowerCase();
export const sameRow = (a: string[], b: string[]) => a.length === b.length && a.every((c, i) => norm(c) === norm(b[i]));

const NUMERIC_RE = /^[-+±]?[\d.,，%‰～~\-–—/:：]+[a-zA-Z%]*$/;

/** The first row is a header when every cell holds a short label and none is a number. */
export function looksLikeHeader(row: string[]): boolean {
  return row.length >= 2 && row.every((c) => c.trim() && c.length <= 24 && !NUMERIC_RE.test(c.trim()));
}

/** Renders a table (or a slice of its rows) as plain text for search units: caption, header, rows. */
export function tableUnitText(t: Pick<ParsedTable, 'table_id' | 'title' | 'columns'>, rows: string[][]): string {
  const pipe = (cells: string[]) => `| ${cells.join(' | ')} |`;
  // unnumbered, untitled tables (T1 …) have no caption worth indexing
  const caption = /^T\d+/.test(t.table_id) && !t.title ? [] : [`${t.table_id} ${t.title}`.trim()];
  return [...caption, pipe(t.columns), ...rows.map(pipe)].join('\n');
}

// ---------------------------------------------------------------- PDF: columns by x-alignment

export interface Fragment {
  str: string;
  x: number;
  right: number;
  h: number;
}

export interface PositionedLine {
  text: string;
  y: number;
  size: number;
  frags: Fragment[];
}

export interface TableSegment {
  /** index of the first and last line of the region on the page */
  from: number;
  to: number;
  /** column x-intervals, left to right */
  columns: [number, number][];
  rows: string[][];
}

/** Cells of a line split at wide gaps (at least ~0.8 em): how many cell-like groups it has. */
function cellGroups(line: PositionedLine): number {
  let groups = 0;
  let prevEnd = -Infinity;
  for (const f of line.frags) {
    const size = f.h || line.size || 10;
    if (f.x - prevEnd > size * 0.8) groups++;
    prevEnd = Math.max(prevEnd, f.right);
  }
  return groups;
}

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
function joinFragments(frags: Fragment[]): string {
  let out = '';
  let prevEnd = -Infinity;
  for (const f of frags) {
    const s = f.str.trim();
    if (!s) continue;
    if (out && (f.x - prevEnd > (f.h || 10) * 0.2) && !(CJK.test(out.slice(-1)) && CJK.test(s[0]))) out += ' ';
    out += s;
    prevEnd = f.right;
  }
  return out;
}

/** Column intervals from the x-projection of every fragment in the region (gaps of >= minGap split columns). */
function projectColumns(lines: PositionedLine[], minGap: number): [number, number][] {
  const spans = lines
    .flatMap((l) => l.frags)
    .filter((f) => f.str.trim())
    .map((f) => [f.x, f.right] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const cols: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = cols[cols.length - 1];
    if (last && a < last[1] + minGap) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  return cols;
}

/**
 * Mixed alignment inside one column (a left-aligned header over right-aligned numbers) projects as two
 * columns that are never filled in the same row: adjacent candidates that (almost) never co-occur are one column.
 */
function mergeExclusiveColumns(lines: PositionedLine[], columns: [number, number][]): [number, number][] {
  const cols = columns.map((c) => [...c] as [number, number]);
  for (;;) {
    if (cols.length <= 2) return cols;
    const filled = lines.map((l) => assignCells(l, cols).map((c) => c !== ''));
    let best = -1;
    let bestBoth = Infinity;
    for (let k = 0; k + 1 < cols.length; k++) {
      const both = filled.filter((f) => f[k] && f[k + 1]).length;
      if (both < bestBoth) {
        bestBoth = both;
        best = k;
      }
    }
    if (best < 0 || bestBoth > Math.floor(lines.length * 0.1)) return cols;
    cols.splice(best, 2, [cols[best][0], cols[best + 1][1]]);
  }
}

function assignCells(line: PositionedLine, columns: [number, number][]): string[] {
  const buckets: Fragment[][] = columns.map(() => []);
  for (const f of line.frags) {
    if (!f.str.trim()) continue;
    const mid = (f.x + f.right) / 2;
    let best = 0;
    let bestDist = Infinity;
    columns.forEach(([a, b], i) => {
      const d = mid < a ? a - mid : mid > b ? mid - b : 0;
      if (d < bestDist) {
        bestDist = d;
        best = i;
      }
    });
    buckets[best].push(f);
  }
  return buckets.map(joinFragments);
}

/** Notes (注 / 注1 / 说明) open with their label; refs.ts reads the label, table detection only needs to see one. */
export const NOTE_RE = /^(注|说明|备注)\s*([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3})?\s*[:：．.、]\s*\S/;

/**
 * Wrapped cell text sits closer to its row than rows sit to each other: rows are printed at >= ~1.5 line
 * heights (line gap plus cell padding; 1.6 in pdfkit tables, 2.1 in Chromium's), the lines of one wrapped
 * cell at ~1.1-1.3. Lines closer than this many font sizes belong to one row.
 */
const WRAP_GAP = 1.4;

/** A one-group line that may be a piece of a wrapped cell (never a caption or a note). */
const wrapCandidate = (line: PositionedLine) => cellGroups(line) === 1 && !parseCaption(line.text) && !NOTE_RE.test(line.text.trim());
const tight = (a: PositionedLine, b: PositionedLine) => Math.abs(a.y - b.y) < (Math.min(a.size || 10, b.size || 10) || 10) * WRAP_GAP;

/**
 * The last line of the region that starts at multi-cell line `i`: further multi-cell lines, and short runs
 * of one-group lines (pieces of wrapped cells, above their row when cells are vertically centred, below it
 * when top-aligned) that sit tight against a neighbour and lead back into the table.
 */
function regionEnd(lines: PositionedLine[], i: number): number {
  let j = i;
  for (;;) {
    if (j + 1 < lines.length && cellGroups(lines[j + 1]) >= 2) {
      j++;
      continue;
    }
    let k = j + 1;
    while (k < lines.length && k - j <= 3 && wrapCandidate(lines[k])) k++;
    const run = lines.slice(j + 1, k);
    const prev = (m: number) => (m === 0 ? lines[j] : run[m - 1]);
    const next = (m: number) => (m === run.length - 1 ? lines[k] : run[m + 1]);
    if (run.length && k < lines.length && cellGroups(lines[k]) >= 2 && run.every((l, m) => tight(l, prev(m)) || tight(l, next(m)))) {
      j = k;
      continue;
    }
    // wrapped text of the last row: tight under it, chained
    let t = j;
    while (t + 1 < lines.length && t - j < 2 && wrapCandidate(lines[t + 1]) && tight(lines[t], lines[t + 1])) t++;
    return t;
  }
}

/**
 * Rows of a region: lines that fill most columns are rows; a line that fills only a piece (one cell, or a
 * few with the first empty) is wrapped text of the nearest row in y, reached through tight lines only —
 * above it (cells vertically centred) or below it (top-aligned). A piece that reaches no row stays a row.
 */
function regionRows(region: PositionedLine[], columns: [number, number][]): string[][] {
  const cells = region.map((line) => assignCells(line, columns));
  const piece = cells.map((c) => {
    const filled = c.filter(Boolean).length;
    return (filled === 1 && columns.length >= 3) || (!c[0] && filled <= Math.max(1, Math.floor(columns.length / 2)));
  });
  // the row each piece belongs to: walk through tight pieces to the first non-piece line, nearer side wins
  const owner = region.map((_, k) => k);
  for (let k = 0; k < region.length; k++) {
    if (!piece[k]) continue;
    const walk = (step: number): { row: number; dist: number } | null => {
      let m = k;
      while (m + step >= 0 && m + step < region.length && tight(region[m], region[m + step])) {
        m += step;
        if (!piece[m]) return { row: m, dist: Math.abs(region[m].y - region[k].y) };
      }
      return null;
    };
    const up = walk(-1);
    const down = walk(1);
    const best = up && down ? (down.dist < up.dist ? down : up) : (up ?? down);
    if (best) owner[k] = best.row;
  }
  const rows: string[][] = [];
  const rowOf = new Map<number, string[]>();
  for (let k = 0; k < region.length; k++) {
    if (owner[k] !== k) continue;
    const row = [...cells[k]];
    rowOf.set(k, row);
    rows.push(row);
  }
  // pieces join their row's cells in reading order (pieces above come before the row's own text)
  const glue = (a: string, b: string) => (!a ? b : !b ? a : CJK.test(a.slice(-1)) || CJK.test(b[0]) ? a + b : `${a} ${b}`);
  const above = new Map<number, number[]>();
  for (let k = 0; k < region.length; k++) if (owner[k] !== k && k < owner[k]) above.set(owner[k], [...(above.get(owner[k]) ?? []), k]);
  for (const [row, ks] of above) {
    const target = rowOf.get(row)!;
    const prefix = ks.reduce<string[]>((acc, k) => acc.map((c, i) => glue(c, cells[k][i])), columns.map(() => ''));
    target.forEach((c, i) => (target[i] = glue(prefix[i], c)));
  }
  for (let k = 0; k < region.length; k++) {
    if (owner[k] === k || k < owner[k]) continue;
    const target = rowOf.get(owner[k])!;
    cells[k].forEach((c, i) => (target[i] = glue(target[i], c)));
  }
  return rows;
}

/**
 * Table regions on one page: runs of >= 2 lines that each have >= 2 widely separated cell groups (plus
 * the wrapped pieces between them) and whose fragments project onto a common set of >= 2 columns.
 */
export function findTableSegments(lines: PositionedLine[]): TableSegment[] {
  const out: TableSegment[] = [];
  let i = 0;
  while (i < lines.length) {
    if (cellGroups(lines[i]) < 2) {
      i++;
      continue;
    }
    const j = regionEnd(lines, i);
    const region = lines.slice(i, j + 1);
    if (region.filter((l) => cellGroups(l) >= 2).length >= 2) {
      const sizes = region.map((l) => l.size || 10).sort((a, b) => a - b);
      const columns = mergeExclusiveColumns(region, projectColumns(region, sizes[Math.floor(sizes.length / 2)] * 0.5));
      if (columns.length >= 2) {
        const rows = regionRows(region, columns);
        const multi = rows.filter((r) => r.filter(Boolean).length >= 2).length;
        if (multi >= Math.max(2, rows.length * 0.6)) {
          out.push({ from: i, to: j, columns, rows });
          i = j + 1;
          continue;
        }
      }
    }
    i = j + 1;
  }
  return out;
}

/** Maps cells laid out in `from` columns onto `to` columns by x-overlap (a page may lose an empty column). */
export function remapCells(cells: string[], from: [number, number][], to: [number, number][]): string[] {
  if (from.length === to.length) return cells;
  const out = to.map(() => '');
  cells.forEach((c, i) => {
    if (!c) return;
    const mid = (from[i][0] + from[i][1]) / 2;
    let best = 0;
    let bestDist = Infinity;
    to.forEach(([a, b], k) => {
      const d = mid < a ? a - mid : mid > b ? mid - b : 0;
      if (d < bestDist) {
        bestDist = d;
        best = k;
      }
    });
    out[best] = out[best] ? `${out[best]} ${c}` : c;
  });
  return out;
}

// ---------------------------------------------------------------- Markdown / DOCX: GFM tables

export interface MarkdownTable {
  /** 0-based source line of the header row, the delimiter row, and each body row */
  headerLine: number;
  endLine: number;
  rowLines: number[];
  header: string[];
  rows: string[][];
  caption: Caption | null;
  /** 0-based line of the caption, -1 when there is none */
  captionLine: number;
}

type MdNode = { type: string; children?: MdNode[]; position?: { start: { line: number }; end: { line: number } } };

/** GFM tables of a Markdown text with their source lines and the caption line just above (if any). */
export function markdownTables(text: string): MarkdownTable[] {
  if (!text.includes('|')) return [];
  const tree = fromMarkdown(text, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] }) as MdNode;
  const lines = text.split('\n');
  const found: MarkdownTable[] = [];
  const walk = (node: MdNode) => {
    if (node.type === 'table' && node.position && node.children?.length) {
      const [head, ...body] = node.children;
      let k = node.position.start.line - 2;
      while (k >= 0 && !lines[k].trim()) k--;
      const caption = k >= 0 ? parseCaption(lines[k].trim()) : null;
      found.push({
        headerLine: node.position.start.line - 1,
        endLine: node.position.end.line - 1,
        rowLines: body.map((r) => (r.position ? r.position.start.line - 1 : -1)),
        header: (head.children ?? []).map((c) => toString(c as never).trim()),
        rows: body.map((r) => (r.children ?? []).map((c) => toString(c as never).trim())),
        caption,
        captionLine: caption ? k : -1,
      });
      return;
    }
    for (const c of node.children ?? []) walk(c);
  };
  walk(tree);
  return found;
}
