import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import { toString } from 'mdast-util-to-string';
import { UNIT_MATCHERS } from './units';

/**
 * Tables as structure: a table has an id when the document numbers it (表A.1, 表6-2, 附表3), a title,
 * one header row, and rows that each remember the page they sit on. A table printed over several pages
 * ("表A.1 …（续）", 续表, a repeated header, or no header at all on the next page) is one table.
 * PDF tables are found from pdf.js text positions (columns by x-alignment), Markdown/DOCX tables by
 * the GFM table grammar.
 */

/** A line of a document on its way to blocks; table lines are marked with their table and row. */
export interface Line {
  text: string;
  page?: number;
  /** this line is part of table `index`: a body row (row >= 0), its header (-1), or a delimiter/caption (-2) */
  table?: { index: number; row: number };
}

/** What block building needs to know about the tables the lines belong to. */
export interface TableInfo {
  table_id: string;
  title: string;
  columns: string[];
  rows: string[][];
  /** Markdown source lines (header + delimiter) repeated when a long table is cut into several blocks */
  headerRaw?: string[];
  /** the header as printed, one line per header row (a spanning cell's text at its first column) */
  headerRows?: string[][];
  /** merged body cells (row index among `rows`) */
  mergedCells?: MergedCell[];
  /** read from ruling lines (a cell grid) */
  ruled?: boolean;
  /** a three-line table: rules above and below the header and at the end, columns from the text */
  threeLine?: boolean;
}

/** A body cell spanning several rows and/or columns; its text fills every row it covers. */
export interface MergedCell {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
}

/** Unique table ids: numbered tables keep their printed id, unnumbered ones get T1, T2 …; a repeated id gets (2). */
export function assignTableIds(captions: ({ id: string | null } | null)[]): string[] {
  const used = new Map<string, number>();
  let unnumbered = 0;
  return captions.map((c) => {
    const base = c?.id ?? `T${++unnumbered}`;
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}(${n})`;
  });
}

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
  /** the printed header lines (one when the header is one line) */
  header_rows?: string[][];
  merged_cells?: MergedCell[];
  /** 'ruled': cells from ruling lines; 'aligned': columns from text alignment; 'markup': Markdown/DOCX structure */
  layout?: 'ruled' | 'aligned' | 'markup';
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
  // a scanner's speck before the caption is read as a mark ("·表4-1 …"): one leading mark before 表 is not text
  const text = line.replace(/^#{1,6}\s+/, '').replace(/\*\*/g, '').trim().replace(/^[·.・•'‘’`,，、]\s*(?=(?:续|附)?表)/, '');
  if (!text || text.length > 70) return null;
  // the last part of a scanned table number read as a letter: "续表7-I" is 续表7-1 (I, l, | for 1; O for 0)
  const m = CAPTION_RE.exec(text.replace(/^((?:续表|附表|表)\s*[0-9０-９]+\s*[.．\-－—–]\s*)([Il|丨]|O)(?![A-Za-z0-9０-９])/, (_, head: string, c: string) => head + (c === 'O' ? '0' : '1')));
  if (!m) return null;
  const [, word, num, rest] = m;
  if (!num && word !== '续表') return null;
  // a sentence that merely starts with 表 ("表中数值……。") is not a caption; "续表6-3 …" never starts one (a
  // scanned caption may end in a speck read as "，")
  if ((word !== '续表' && /[。；;，,]$/.test(rest)) || /^[中内示明列]/.test(rest)) return null;
  const continued = word === '续表' || CONTINUED_RE.test(text);
  // "表1：设备清单" / "表1、设备清单": the separator is not part of the title; "（续）" / "（续表）" mark a continuation
  const title = rest
    .replace(/^[：:、.．]\s*/, '')
    .replace(/[，,。.]$/, '')
    .replace(/[（(]\s*续\s*表?\s*[)）]\s*$/, '')
    .trim();
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

// a repeated header read by OCR may show the gap of "泄漏电流 mA" as a middle dot
const norm = (s: string) => s.replace(/[\s·•・]+/g, '').toLowerCase();
export const sameRow = (a: string[], b: string[]) => a.length === b.length && a.every((c, i) => norm(c) === norm(b[i]));

/** Two cells alike but for one character read otherwise ("不平衡度" / "不平街度": OCR substitutes, it seldom adds or drops in a label). */
const nearCell = (a: string, b: string) => {
  const x = [...norm(a)];
  const y = [...norm(b)];
  return x.length === y.length && x.filter((ch, i) => ch !== y[i]).length <= (x.length >= 2 ? 1 : 0);
};

/**
 * A header line printed again on a continuation page and read by OCR: the same cells, at least two filled, at
 * least half of them read exactly, the others but for one character. Header labels are words and units while
 * body rows hold values, so a body row does not pass for one.
 */
export function repeatedHeaderLine(row: string[], header: string[]): boolean {
  if (row.length !== header.length || !row.every((c, i) => nearCell(c, header[i]))) return false;
  const filled = row.filter((c) => norm(c));
  return filled.length >= 2 && row.filter((c, i) => norm(c) && norm(c) === norm(header[i])).length * 2 >= filled.length;
}

const NUMERIC_RE = /^[-+±]?[\d.,，%‰～~\-–—/:：]+[a-zA-Z%]*$/;

/** The first row is a header when every cell holds a short label and none is a number. */
export function looksLikeHeader(row: string[]): boolean {
  return row.length >= 2 && row.every((c) => c.trim() && c.length <= 24 && !NUMERIC_RE.test(c.trim()));
}

/** "额定电压 kV·110" -> "110kV": a number under a group label that names its unit, as people write it. */
const UNIT_TAIL_RE = UNIT_MATCHERS.tail;
function columnAlias(name: string): string | null {
  const parts = name.split('·');
  const num = parts[parts.length - 1].trim();
  const unit = parts.length > 1 ? UNIT_TAIL_RE.exec(parts[parts.length - 2]) : null;
  return unit && /^\d+(\.\d+)?$/.test(num) ? `${num}${unit[1]}` : null;
}

/**
 * Renders a table (or a slice of its rows) as plain text for search units: caption, header, rows. A
 * column named by a number under a unit-bearing group ("额定电压 kV·110") also reads as "110kV", the
 * way questions name it.
 */
export function tableUnitText(t: Pick<ParsedTable, 'table_id' | 'title' | 'columns'>, rows: string[][]): string {
  const pipe = (cells: string[]) => `| ${cells.join(' | ')} |`;
  // unnumbered, untitled tables (T1 …) have no caption worth indexing
  const caption = /^T\d+/.test(t.table_id) && !t.title ? [] : [`${t.table_id} ${t.title}`.trim()];
  const header = t.columns.map((c) => {
    const alias = columnAlias(c);
    return alias ? `${c}（${alias}）` : c;
  });
  return [...caption, pipe(header), ...rows.map(pipe)].join('\n');
}

// ---------------------------------------------------------------- PDF: columns by x-alignment

export interface Fragment {
  str: string;
  x: number;
  right: number;
  h: number;
  /** baseline (PDF y grows upwards); tells a raised footnote marker from text on the line */
  y?: number;
  /** OCR: where the print starts and ends (the detector's box is padded about a third of its height each side) */
  ink?: [number, number];
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
  /** body rows when `header` is set; otherwise every row (the first may be a one-line header) */
  rows: string[][];
  /**
   * A header printed over several lines (a group cell over sub-columns, cells spanning both lines,
   * a unit row): one composed name per column ("额定电压 kV·10") and the printed lines.
   */
  header?: { names: string[]; lines: string[][] };
  /** read from ruling lines (a cell grid), not from column alignment */
  ruled?: boolean;
  /** a three-line table (rules above and below the header and at the end only): cells from the text's columns */
  threeLine?: boolean;
  /** merged body cells (row among `rows`): a cell spanning several grid rows or columns */
  spans?: MergedCell[];
  /** read from a scanned page (OCR): a blank cell may be a lone "—" the recogniser did not read */
  scanned?: boolean;
}

/** Cells of a line split at wide gaps (at least ~0.8 em): how many cell-like groups it has. */
export function cellGroups(line: PositionedLine): number {
  let groups = 0;
  let prevEnd = -Infinity;
  for (const f of line.frags) {
    if (!f.str.trim()) continue;
    const size = f.h || line.size || 10;
    if (f.x - prevEnd > size * 0.8) groups++;
    prevEnd = Math.max(prevEnd, f.right);
  }
  return groups;
}

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
const SUPERSCRIPT: Record<string, string> = Object.fromEntries(
  [...'0123456789abcdefghijklmnoprstuvwxyz+-()'].map((c, i) => [c, [...'⁰¹²³⁴⁵⁶⁷⁸⁹ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁺⁻⁽⁾'][i]]),
);

/**
 * A footnote marker printed raised and smaller right after its text ("31.5ᵃ", "23¹"): at most two
 * characters, at most 0.85 of the text's size (Chromium's <sup> is 0.83), baseline lifted by >= 1/5
 * of it, no gap. It joins its
 * cell as a superscript (one cell "31.5ᵃ", not "31.5 a" nor a stray "a" row).
 */
export function footnoteMarker(prev: Fragment | null, f: Fragment): string | null {
  const s = f.str.trim();
  if (!prev || prev.y === undefined || f.y === undefined || !/^[0-9a-z*†‡]{1,2}$/i.test(s)) return null;
  const size = prev.h || 10;
  if (f.h > size * 0.85 || f.y - prev.y < size * 0.2 || f.x - prev.right > size * 0.5) return null;
  return [...s.toLowerCase()].map((c) => SUPERSCRIPT[c] ?? c).join('');
}

export function joinFragments(frags: Fragment[]): string {
  let out = '';
  let prevEnd = -Infinity;
  let prev: Fragment | null = null;
  for (const f of frags) {
    const s = f.str.trim();
    if (!s) continue;
    const marker = footnoteMarker(prev, f);
    if (marker) {
      out += marker;
      prevEnd = f.right;
      continue;
    }
    if (out && (f.x - prevEnd > (f.h || 10) * 0.2) && !(CJK.test(out.slice(-1)) && CJK.test(s[0]))) out += ' ';
    out += s;
    prevEnd = f.right;
    prev = f;
  }
  return out;
}

/**
 * Column intervals from the x-projection of every fragment in the region. A gap of >= minGap splits columns; so
 * does a narrower one that every line keeps at a cell's distance: no fragment crosses it, and on every line with
 * text on both sides the nearest texts stand >= minGap apart (at least two such lines). A wide header label ending
 * close to where the next column's most indented cell starts leaves the projection a sliver of a gap (a scan's
 * boxes are padded: "正常负荷上限" ending at 307 pt, a box of the next column starting at 313, minGap 5.6), while
 * inside every row the two columns stand far apart.
 */
function projectColumns(lines: PositionedLine[], minGap: number): [number, number][] {
  const frags = lines.map((l) => l.frags.filter((f) => f.str.trim()));
  const spans = frags
    .flat()
    .map((f) => [f.x, f.right] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const cols: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = cols[cols.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  const apartInEveryLine = (left: number, right: number): boolean => {
    let both = 0;
    for (const fs of frags) {
      const l = fs.filter((f) => f.right <= left);
      const r = fs.filter((f) => f.x >= right);
      if (!l.length || !r.length) continue;
      if (Math.min(...r.map((f) => f.x)) - Math.max(...l.map((f) => f.right)) < minGap) return false;
      both++;
    }
    return both >= 2;
  };
  const out: [number, number][] = [];
  for (const c of cols) {
    const last = out[out.length - 1];
    if (last && c[0] - last[1] < minGap && !apartInEveryLine(last[1], c[0])) last[1] = Math.max(last[1], c[1]);
    else out.push([...c]);
  }
  return out;
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
  for (const f of line.frags) if (f.str.trim()) buckets[nearestColumn((f.x + f.right) / 2, columns)].push(f);
  return buckets.map(joinFragments);
}

/** The column whose x-interval is nearest to `mid` (0 inside it). */
function nearestColumn(mid: number, columns: [number, number][]): number {
  let best = 0;
  let bestDist = Infinity;
  columns.forEach(([a, b], i) => {
    const d = mid < a ? a - mid : mid > b ? mid - b : 0;
    if (d < bestDist) {
      bestDist = d;
      best = i;
    }
  });
  return best;
}

/** Notes (注 / 注1 / 说明) open with their label; refs.ts reads the label, table detection only needs to see one. */
/**
 * A note line: 注 / 注1 / 注一 / 注① / 说明 / 备注, or a variant 方案A / 方案甲 / 方案1 (a 方案 always carries its
 * label, so prose that merely starts with 方案 is no note).
 */
export const NOTE_RE = /^(注|说明|备注|方案(?=\s*[A-Za-zＡ-Ｚａ-ｚ甲乙丙丁戊己庚辛0-9０-９一二三四五六七八九十①-⑳]))\s*([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3}|[①-⑳]|[A-Za-zＡ-Ｚａ-ｚ甲乙丙丁戊己庚辛](?![A-Za-z]))?\s*[:：．.、]\s*\S/;

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

interface RegionRows {
  rows: string[][];
  /** y of each row's own line */
  rowY: number[];
  /** y of the line each cell's text came from (null: empty) */
  cellY: (number | null)[][];
}

/** Leading columns (at most the first three) that may hold merged cells: a station over its bays, a line over its protections. */
const MERGE_COLUMNS = 3;

/**
 * Columns whose empty cells are the lower parts of merged cells: a leading column (every column left of
 * it is filled in every row or is such a column too), empty in some rows that are otherwise at least half
 * filled, and filled in others.
 */
function mergedColumns(rows: string[][]): number[] {
  const out: number[] = [];
  const n = rows[0]?.length ?? 0;
  for (let c = 0; c < Math.min(MERGE_COLUMNS, n - 1); c++) {
    const empty = rows.filter((r) => !r[c]);
    const alwaysFilled = empty.length === 0;
    const merged =
      empty.length > 0 &&
      empty.length < rows.length &&
      empty.every((r) => r.filter((x, k) => k !== c && x).length >= Math.max(1, (n - 1) / 2));
    if (merged) out.push(c);
    else if (!alwaysFilled) break;
  }
  return out;
}

/**
 * Merged cells printed vertically centred (Chromium's default, Word's "centre"): the text sits at the
 * middle of the rows it covers, so the rows above it in the group are empty. A group starts after the
 * previous one and ends where the rows are symmetric around the text: (y[start] + y[end]) / 2 = y(text).
 * Only when the region's first row is empty in that column (top-aligned merges are filled down later).
 */
function fillCentredMerges(rows: string[][], rowY: number[], cellY: (number | null)[][]): void {
  for (const c of mergedColumns(rows)) {
    if (rows[0][c]) continue;
    const labels = rows.map((r, k) => (r[c] ? k : -1)).filter((k) => k >= 0);
    let start = 0;
    labels.forEach((at, n) => {
      const y = cellY[at][c] ?? rowY[at];
      const limit = n + 1 < labels.length ? labels[n + 1] - 1 : rows.length - 1;
      let end = at;
      let best = Infinity;
      for (let e = Math.max(at, start); e <= limit; e++) {
        const d = Math.abs((rowY[start] + rowY[e]) / 2 - y);
        if (d < best) {
          best = d;
          end = e;
        }
      }
      for (let k = start; k <= end; k++) if (!rows[k][c]) rows[k][c] = rows[at][c];
      start = end + 1;
    });
  }
}

/**
 * Merged cells printed at the top of the rows they cover (Word's default; TXT exports leave the rows
 * below blank), also across a page break: each empty cell of a merged leading column takes the value
 * above it. Runs on a whole stitched table.
 */
/**
 * A ruled table's merged cells (the grid knows them: a missing border) filled into every row they cover. An
 * empty cell with its own borders stays empty: it is not the cell above (a lone "—" the OCR did not read).
 */
export function fillMergedCells(rows: string[][], merged: MergedCell[]): void {
  for (const m of merged) for (let r = m.row + 1; r < Math.min(rows.length, m.row + m.rowspan); r++) if (!rows[r][m.col]) rows[r][m.col] = rows[m.row][m.col];
}

export function fillMergedDown(rows: string[][], scanned = false): void {
  for (const c of mergedColumns(rows)) {
    // the first column is the rows' key (准确级 0.1 / 0.2S over their rows): a blank there is no unread dash
    if (!rows[0][c] || (scanned && c > 0 && numberColumn(rows, c))) continue;
    for (let k = 1; k < rows.length; k++) if (!rows[k][c]) rows[k][c] = rows[k - 1][c];
  }
}

/**
 * Two thirds of the column's filled cells are numbers (a sign or a unit allowed). On a scan a blank there is a
 * lone "—" the OCR did not read, not the lower part of a merged number: every such blank on the tuning scans
 * (三线表 sanxian, fuhe: 9 blanks in number columns, none in a first column) was an unread dash; merged cells
 * there are names (a station, a line, a kind of device) — or a first column's numbers (SEALED38 huganqiwc's
 * accuracy classes 0.1, 0.2S printed once at the top of their rows).
 */
function numberColumn(rows: string[][], c: number): boolean {
  const filled = rows.map((r) => r[c]).filter(Boolean);
  return filled.length > 0 && filled.filter((x) => /^[≥≤<>±+-]?\d[\d.,]*[a-zA-Zμ%‰℃Ω/*]*$/.test(x) || x === '—').length >= filled.length * (2 / 3);
}

/**
 * A header cell that only names a unit: "kV", "MW", "(%)", "单位：A" — the units of src/core/regulations/vocab/units.json
 * (electrical, and the SI units a regulation table prints under its names: K, m/s, r/min, μL/L, kV/m, dB(A), kPa, 年 …).
 */
export const UNIT_CELL_RE = UNIT_MATCHERS.cell;
/**
 * A header cell naming a unit as a scan reads it: the unit (canonical case), or null. Letters whose capital
 * differs from the small one only in size (c o s v w x z) lose their case on a scan when they stand alone in a
 * cell — the recogniser sees the crop scaled to its height ("V" read "v" under 输入量 in Carlito at 200 dpi,
 * "kV" read "kv"): such a letter counts in either case. A speck beside it read as a point or a comma ("v." at
 * 150 dpi) goes.
 */
export function unitCell(t: string): string | null {
  if (UNIT_CELL_RE.test(t)) return t;
  const bare = t.length > 1 ? t.replace(/^[.,:;'`·、。，]|[.,:;'`·、。，]$/, '') : t;
  if (UNIT_CELL_RE.test(bare)) return bare;
  // kilo read as a capital before a unit of two letters or more (the recogniser's "KVA" under 额定容量, SEALED38
  // peibianfuzai at 200 dpi; "KA" stays no unit: K and k differ in shape, a lone K before one letter is no misread)
  if (/^K[A-Za-z]{2,}$/.test(bare) && UNIT_CELL_RE.test(`k${bare.slice(1)}`)) return `k${bare.slice(1)}`;
  const at = [...bare].map((ch, i) => (/[cosvwxz]/i.test(ch) ? i : -1)).filter((i) => i >= 0);
  if (!at.length || at.length > 4 || bare.length > 8) return null;
  for (let m = 1; m < 1 << at.length; m++) {
    const chars = [...bare];
    at.forEach((i, b) => {
      if (m & (1 << b)) chars[i] = chars[i] === chars[i].toLowerCase() ? chars[i].toUpperCase() : chars[i].toLowerCase();
    });
    const u = chars.join('');
    if (UNIT_CELL_RE.test(u)) return u;
  }
  return null;
}
export const labelCell = (c: string) => c.length <= 24 && !NUMERIC_RE.test(c) && !NOTE_RE.test(c);

interface CellSpan {
  text: string;
  /** x-range of the text */
  x0: number;
  x1: number;
}

/**
 * A header line's cells: fragments closer than a cell gap form one label (Chromium prints every glyph
 * as its own fragment), and a label goes to the column under its middle, so a group label centred over
 * two columns is not torn apart.
 */
function cellSpans(line: PositionedLine, columns: [number, number][]): (CellSpan | null)[] {
  const buckets: Fragment[][] = columns.map(() => []);
  const labels: Fragment[][] = [];
  let prevEnd = -Infinity;
  let prev: Fragment | null = null;
  const column = (f: Fragment) => nearestColumn((f.x + f.right) / 2, columns);
  for (const f of line.frags) {
    if (!f.str.trim()) continue;
    // a scan's line boxes are words or cells already (the detector's padded boxes of two labels may touch): two
    // over different columns are two labels
    const apart = !!prev && !!f.ink && !!prev.ink && column(f) !== column(prev);
    if (!labels.length || apart || f.x - prevEnd > (f.h || line.size || 10) * 0.8) labels.push([]);
    labels[labels.length - 1].push(f);
    prevEnd = Math.max(prevEnd, f.right);
    prev = f;
  }
  for (const fs of labels) buckets[nearestColumn((fs[0].x + Math.max(...fs.map((f) => f.right))) / 2, columns)].push(...fs);
  return buckets.map((fs) => {
    const text = joinFragments(fs);
    return text ? { text, x0: Math.min(...fs.map((f) => f.x)), x1: Math.max(...fs.map((f) => f.right)) } : null;
  });
}

/** How many header lines stack up at most (group, sub-group, name, unit). */
const MAX_HEADER_LINES = 4;

/**
 * A header printed over several lines, read from the top lines of a region:
 *  - the first line holds labels only (short, not numbers);
 *  - a later line fills only columns no earlier line has labelled, or columns under a group label (a
 *    label with an unlabelled empty neighbour: "额定电压 kV" centred over 10 | 35 | 110; the sub-labels may
 *    be numbers); labels that span both lines ("序号") sit on a line of their own between them or on
 *    either one;
 *  - a line of units only ("MW", "kV") is a unit row.
 * A group label covers the run of columns its sub-line fills around it (nearest label when two groups
 * share a run). Each column's name joins the labels above it: "额定电压 kV·10", "夏季高峰 MW".
 * Returns null unless at least two lines make the header.
 */
function multiLineHeader(lines: PositionedLine[], columns: [number, number][]): { names: string[]; count: number; lines: string[][] } | null {
  const n = columns.length;
  const spans: (CellSpan | null)[][] = [];
  const groupLabel: boolean[][] = [];
  const labelled = new Set<number>();
  let units = false;
  let groupsUsed = false;
  for (let k = 0; k < Math.min(lines.length - 1, MAX_HEADER_LINES); k++) {
    const row = cellSpans(lines[k], columns);
    const filled = row.map((c, i) => (c ? i : -1)).filter((i) => i >= 0);
    if (!filled.length) break;
    const texts = filled.map((i) => row[i]!.text);
    const unitRow = k > 0 && texts.every((t) => unitCell(t) !== null);
    const labels = texts.every((t) => labelCell(t) || UNIT_CELL_RE.test(t));
    const open = (i: number) => !labelled.has(i) || spans.some((r, kk) => r[i] && groupLabel[kk][i]);
    let ok: boolean;
    if (unitRow) ok = true;
    else if (k === 0) ok = labels;
    else {
      const fresh = filled.every(open) && texts.every((t) => t.length <= 24);
      // sub-labels that are numbers (10 | 35 | 110) only under a group label
      const underGroup = filled.every((i) => !labelled.has(i) || spans.some((r, kk) => r[i] && groupLabel[kk][i])) && filled.some((i) => spans.some((r, kk) => r[i] && groupLabel[kk][i]));
      ok = fresh && (labels || underGroup);
      if (ok && filled.some((i) => spans.some((r, kk) => r[i] && groupLabel[kk][i]))) groupsUsed = true;
    }
    if (!ok) break;
    if (unitRow) {
      units = true;
      for (const c of row) if (c) c.text = unitCell(c.text) ?? c.text;
    }
    // a label with an empty neighbour nobody has labelled yet may be a group over sub-columns
    groupLabel.push(row.map((c, i) => !!c && [i - 1, i + 1].some((j) => j >= 0 && j < n && !row[j] && !labelled.has(j))));
    spans.push(row);
    for (const i of filled) labelled.add(i);
  }
  if (spans.length < 2 || !(units || groupsUsed)) return null;
  // the columns each label covers
  const parts: { text: string; unit: boolean }[][] = columns.map(() => []);
  spans.forEach((row, k) => {
    const cover: number[][] = row.map((_, i) => (row[i] ? [i] : []));
    row.forEach((cell, i) => {
      if (!cell || !groupLabel[k][i]) return;
      // its sub-line: the first later line with a cell under it
      const sub = spans.slice(k + 1).find((r) => r[i]);
      if (!sub) return;
      for (const dir of [-1, 1]) {
        for (let j = i + dir; j >= 0 && j < n && sub[j] && !row[j]; j += dir) {
          // between two group labels of one line, a column belongs to the nearer one
          const colMid = (columns[j][0] + columns[j][1]) / 2;
          const dist = (c: CellSpan) => (colMid < c.x0 ? c.x0 - colMid : colMid > c.x1 ? colMid - c.x1 : 0);
          const rival = row.findIndex((c, r) => r !== i && c && groupLabel[k][r] && spans.slice(k + 1).some((s2) => s2[r]) && (dir > 0 ? r > j : r < j) && dist(c) < dist(cell));
          if (rival >= 0 && row.slice(Math.min(j, rival), Math.max(j, rival) + 1).every((c, r) => !c || Math.min(j, rival) + r === rival)) break;
          cover[i].push(j);
        }
      }
    });
    row.forEach((cell, i) => {
      if (!cell) return;
      for (const j of cover[i]) if (parts[j][parts[j].length - 1]?.text !== cell.text) parts[j].push({ text: cell.text, unit: UNIT_CELL_RE.test(cell.text) });
    });
  });
  const names = parts.map((ps) => ps.reduce((acc, p) => (!acc ? p.text : `${acc}${p.unit ? ' ' : '·'}${p.text}`), ''));
  return { names, count: spans.length, lines: spans.map((r) => r.map((c) => c?.text ?? '')) };
}

/**
 * One name per column from a header grid where a spanning cell's text sits in every position it covers
 * (DOCX / HTML tables with colspan / rowspan): the distinct texts top to bottom, joined by "·" (a unit
 * by a space): "额定电压 kV·10", "夏季高峰 MW".
 */
export function composeHeaderNames(grid: string[][]): string[] {
  const n = Math.max(0, ...grid.map((r) => r.length));
  return Array.from({ length: n }, (_, c) => {
    const parts: string[] = [];
    for (const row of grid) {
      const t = (row[c] ?? '').trim();
      if (t && parts[parts.length - 1] !== t) parts.push(t);
    }
    return parts.reduce((acc, p) => (!acc ? p : `${acc}${UNIT_CELL_RE.test(p) ? ' ' : '·'}${p}`), '');
  });
}

/**
 * Column intervals of a region. A label spanning several columns (a group header, a centred title cell)
 * bridges the gaps between them in the x-projection, so when the widest rows (most cell groups) project
 * onto more columns than all lines do, those columns are the table's.
 */
function tableColumns(region: PositionedLine[], minGap: number): [number, number][] {
  const full = mergeExclusiveColumns(region, projectColumns(region, minGap));
  const groups = region.map(cellGroups);
  const most = Math.max(...groups);
  const widest = region.filter((_, k) => groups[k] === most);
  if (widest.length < 2) return full;
  const body = mergeExclusiveColumns(widest, projectColumns(widest, minGap));
  return body.length > full.length ? body : full;
}

/** One group label alone on the line above a region ("额定电压 kV" over its sub-columns): short, inside the columns, close above. */
function groupLabelAbove(line: PositionedLine, first: PositionedLine, columns: [number, number][]): boolean {
  const size = line.size || 10;
  const text = line.text.trim();
  if (!line.frags.length || text.length > 24 || parseCaption(text) || NOTE_RE.test(text) || /^[（(]?\s*单位/.test(text)) return false;
  const x0 = Math.min(...line.frags.map((f) => f.x));
  const x1 = Math.max(...line.frags.map((f) => f.right));
  return x0 > columns[0][1] && x1 <= columns[columns.length - 1][1] + size && Math.abs(line.y - first.y) < size * 2.5;
}

/**
 * The first line of a header printed crammed above a region: up to three lines of labels inside the region's
 * columns, each closer to the line below it than 0.7 of the region's row pitch (the median distance between
 * its lines). Chromium prints a two-line header with row-spanning cells as three lines in the height of two
 * (the spanning labels centred between the group label and its sub-labels), about 0.5 row pitches apart; the
 * top one or two then hold one cell group only and open no region. Returns `i` when there is none.
 */
function crammedHeaderStart(lines: PositionedLine[], i: number, lastTo: number, region: PositionedLine[], columns: [number, number][]): number {
  const gaps = region.slice(1).map((l, k) => Math.abs(region[k].y - l.y)).sort((a, b) => a - b);
  const pitch = gaps[Math.floor(gaps.length / 2)];
  if (!pitch) return i;
  const size = region[0].size || 10;
  // (on a scan, the print: a box is padded by a third of its height)
  const inside = (l: PositionedLine) => l.frags.length > 0 && Math.min(...l.frags.map((f) => f.ink?.[0] ?? f.x)) >= columns[0][0] - size && Math.max(...l.frags.map((f) => f.ink?.[1] ?? f.right)) <= columns[columns.length - 1][1] + size;
  const labels = (l: PositionedLine) => l.frags.every((f) => !f.str.trim() || labelCell(f.str.trim()) || UNIT_CELL_RE.test(f.str.trim()));
  let from = i;
  while (from - 1 > lastTo && i - from < MAX_HEADER_LINES - 1) {
    const l = lines[from - 1];
    const text = l.text.trim();
    if (parseCaption(text) || NOTE_RE.test(text) || /^[（(]?\s*单位/.test(text) || !inside(l) || !labels(l) || Math.abs(l.y - lines[from].y) >= pitch * 0.7) break;
    from--;
  }
  return from;
}

/**
 * Rows of a region: lines that fill most columns are rows; a line that fills only a piece (one cell, or a
 * few with the first empty) is wrapped text of the nearest row in y, reached through tight lines only —
 * above it (cells vertically centred) or below it (top-aligned). A piece that reaches no row stays a row.
 */
function regionRows(region: PositionedLine[], columns: [number, number][]): RegionRows {
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
  const rowY: number[] = [];
  const cellY: (number | null)[][] = [];
  const rowOf = new Map<number, string[]>();
  const yOf = new Map<number, (number | null)[]>();
  for (let k = 0; k < region.length; k++) {
    if (owner[k] !== k) continue;
    const row = [...cells[k]];
    const ys = row.map((c) => (c ? region[k].y : null));
    rowOf.set(k, row);
    yOf.set(k, ys);
    rows.push(row);
    rowY.push(region[k].y);
    cellY.push(ys);
  }
  // where each cell's text was printed: a merged cell centred over its rows sits between them
  for (let k = 0; k < region.length; k++) {
    if (owner[k] === k) continue;
    const ys = yOf.get(owner[k])!;
    cells[k].forEach((c, i) => {
      if (c && (ys[i] === null || k < owner[k])) ys[i] = region[k].y;
    });
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
  fillCentredMerges(rows, rowY, cellY);
  return { rows, rowY, cellY };
}

/**
 * Table regions on one page: runs of >= 2 lines that each have >= 2 widely separated cell groups (plus
 * the wrapped pieces between them) and whose fragments project onto a common set of >= 2 columns.
 */
export function findTableSegments(lines: PositionedLine[]): TableSegment[] {
  const out: TableSegment[] = [];
  let i = 0;
  let lastTo = -1;
  while (i < lines.length) {
    // a caption opens no table (on a scan a speck beside it makes it look like two cells)
    if (cellGroups(lines[i]) < 2 || parseCaption(lines[i].text)) {
      i++;
      continue;
    }
    const j = regionEnd(lines, i);
    const region = lines.slice(i, j + 1);
    if (region.filter((l) => cellGroups(l) >= 2).length >= 2) {
      const sizes = region.map((l) => l.size || 10).sort((a, b) => a - b);
      const columns = tableColumns(region, sizes[Math.floor(sizes.length / 2)] * 0.5);
      if (columns.length >= 2) {
        // a group label alone on the line above belongs to a header printed over several lines
        let from = i;
        while (from - 1 > lastTo && i - from < 2 && !parseCaption(lines[from - 1].text) && groupLabelAbove(lines[from - 1], lines[from], columns)) from--;
        // ... and so do label lines crammed above the region, closer than its rows (a header over three lines
        // in the height of two: row-spanning labels centred between a group label and its sub-labels)
        const crammed = crammedHeaderStart(lines, i, lastTo, region, columns);
        if (crammed < from) from = crammed;
        let header = from < i ? multiLineHeader(lines.slice(from, j + 1), columns) : null;
        if (!header || header.count <= i - from) {
          from = i;
          header = multiLineHeader(region, columns);
        }
        const all = lines.slice(from, j + 1);
        const body = header ? all.slice(header.count) : all;
        const { rows } = regionRows(body, columns);
        const multi = rows.filter((r) => r.filter(Boolean).length >= 2).length;
        if (rows.length && multi >= Math.max(header ? 1 : 2, rows.length * 0.6)) {
          const seg: TableSegment = { from, to: j, columns, rows };
          if (header) seg.header = { names: header.names, lines: header.lines };
          out.push(seg);
          lastTo = j;
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
    const best = nearestColumn((from[i][0] + from[i][1]) / 2, to);
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
