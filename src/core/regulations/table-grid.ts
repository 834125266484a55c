import type { Ruling } from './table-rulings';
import { composeHeaderNames, findTableSegments, joinFragments, labelCell, parseCaption, UNIT_CELL_RE, type Fragment, type PositionedLine, type TableSegment } from './tables';

/**
 * Ruled tables: rulings (from the PDF's drawing operators, or found in a scanned page's image) -> cell
 * grids -> table regions. Row and column borders are the distinct y / x positions of the rulings that
 * meet each other; a border missing between two grid positions merges them (a station spanning its
 * bays, a group header over sub-columns). Text goes to the cell under its middle, so centred and
 * wrapped cells read whole. The header is the top rows: row 0 of labels, plus the rows a header cell
 * reaches down into, the sub-columns under a group cell, and a row of units. Pages without rulings, and
 * tables without them, keep the column alignment of tables.ts.
 */

export interface GridCell {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
}

export interface CellGrid {
  /** column borders, left to right */
  xs: number[];
  /** row borders, top to bottom (PDF y grows upwards: descending) */
  ys: number[];
  cells: GridCell[];
  /** index into `cells` of the cell covering each grid position */
  owner: number[][];
  /**
   * a three-line table (三线表: horizontal rules only): its rules top to bottom, full width or short (a
   * group header's underline); rows and columns come from the text inside (`threeLineGrids`)
   */
  rules?: H[];
  /** built from a three-line frame and the text inside it */
  threeLine?: boolean;
}

/** Rulings closer than this (points) are one line; ends this close meet. */
const SNAP = 2;
const MEET = 3;
/** Horizontal rules reaching this far (points) past the outermost vertical: the table is open at that side. */
const OPEN_SIDE = 8;

export interface H {
  y: number;
  x0: number;
  x1: number;
}
interface V {
  x: number;
  y0: number;
  y1: number;
}

/** Collinear pieces (each cell stroking its own rectangle) joined into one line. */
function joinCollinear<T>(items: T[], key: (t: T) => number, lo: (t: T) => number, hi: (t: T) => number, make: (k: number, a: number, b: number) => T): T[] {
  const sorted = [...items].sort((a, b) => key(a) - key(b) || lo(a) - lo(b));
  const groups: T[][] = [];
  for (const it of sorted) {
    const g = groups[groups.length - 1];
    if (g && Math.abs(key(it) - key(g[0])) <= SNAP) g.push(it);
    else groups.push([it]);
  }
  const out: T[] = [];
  for (const g of groups) {
    const k = g.reduce((s, t) => s + key(t), 0) / g.length;
    const spans = g.map((t) => [lo(t), hi(t)] as [number, number]).sort((a, b) => a[0] - b[0]);
    let [a, b] = spans[0];
    for (const [c, d] of spans.slice(1)) {
      if (c <= b + SNAP) b = Math.max(b, d);
      else {
        out.push(make(k, a, b));
        [a, b] = [c, d];
      }
    }
    out.push(make(k, a, b));
  }
  return out;
}

/** Values within `tol` of each other -> their mean, sorted ascending. */
function clusterValues(values: number[], tol: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of sorted) {
    const g = out[out.length - 1];
    if (g && v - g[g.length - 1] <= tol) g.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((s, v) => s + v, 0) / g.length);
}

/** Share of [a, b] covered by the spans. */
function covered(spans: [number, number][], a: number, b: number): number {
  if (b <= a) return 0;
  const parts = spans.map(([c, d]) => [Math.max(a, c), Math.min(b, d)] as [number, number]).filter(([c, d]) => d > c).sort((p, q) => p[0] - q[0]);
  let sum = 0;
  let end = a;
  for (const [c, d] of parts) {
    if (d <= end) continue;
    sum += d - Math.max(c, end);
    end = d;
  }
  return sum / (b - a);
}

/** Rulings -> cell grids: groups of horizontal and vertical rulings that meet, with at least 2 rows and 2 columns. */
export function buildGrids(rulings: Ruling[]): CellGrid[] {
  const hs = joinCollinear<H>(
    rulings.filter((r) => Math.abs(r.y1 - r.y0) < 0.5 && r.x1 - r.x0 > SNAP).map((r) => ({ y: r.y0, x0: r.x0, x1: r.x1 })),
    (h) => h.y,
    (h) => h.x0,
    (h) => h.x1,
    (y, x0, x1) => ({ y, x0, x1 }),
  );
  const vs = joinCollinear<V>(
    rulings.filter((r) => Math.abs(r.x1 - r.x0) < 0.5 && r.y1 - r.y0 > SNAP).map((r) => ({ x: r.x0, y0: r.y0, y1: r.y1 })),
    (v) => v.x,
    (v) => v.y0,
    (v) => v.y1,
    (x, y0, y1) => ({ x, y0, y1 }),
  );
  // connected groups: a vertical meets a horizontal where it crosses or touches it
  const parent = [...hs, ...vs].map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  hs.forEach((h, i) =>
    vs.forEach((v, j) => {
      if (v.x >= h.x0 - MEET && v.x <= h.x1 + MEET && h.y >= v.y0 - MEET && h.y <= v.y1 + MEET) parent[find(i)] = find(hs.length + j);
    }),
  );
  const groups = new Map<number, { h: H[]; v: V[] }>();
  hs.forEach((h, i) => {
    const g = groups.get(find(i)) ?? { h: [], v: [] };
    g.h.push(h);
    groups.set(find(i), g);
  });
  vs.forEach((v, j) => {
    const g = groups.get(find(hs.length + j)) ?? { h: [], v: [] };
    g.v.push(v);
    groups.set(find(hs.length + j), g);
  });
  const grids: CellGrid[] = [];
  // horizontals of no grid: those no vertical meets, and those of a group whose verticals make no grid (a
  // photocopy's streak or a fold crossing a three-line table's bottom rule) — the rules of three-line tables
  const loose = [...groups.values()].filter((g) => !g.v.length).flatMap((g) => g.h);
  for (const { h, v } of groups.values()) {
    if (!v.length) continue;
    const before = grids.length;
    buildGrid(h, v, grids);
    if (grids.length === before) loose.push(...h);
  }
  grids.push(...ruleFrames(loose));
  return grids.sort((a, b) => b.ys[0] - a.ys[0]);
}

/** A column narrower than this (points) holds no text: one digit and a cell's padding are wider. */
const NARROW_COLUMN = 6;

/** One connected group of horizontals and verticals -> its cell grid, pushed onto `grids` (none: a page frame, a box, too few lines). */
function buildGrid(h: H[], v: V[], grids: CellGrid[]): void {
  const ys = clusterValues(h.map((x) => x.y), SNAP).reverse();
  // tables open at the sides (no outer verticals) end where their horizontal rules end
  const vx = v.map((x) => x.x);
  const left = Math.min(...h.map((x) => x.x0));
  const right = Math.max(...h.map((x) => x.x1));
  const xs = clusterValues([...vx, ...(left < Math.min(...vx) - OPEN_SIDE ? [left] : []), ...(right > Math.max(...vx) + OPEN_SIDE ? [right] : [])], SNAP);
  const hSpans = (y: number) => h.filter((s) => Math.abs(s.y - y) <= SNAP).map((s) => [s.x0, s.x1] as [number, number]);
  const vSpans = (x: number) => v.filter((s) => Math.abs(s.x - x) <= SNAP).map((s) => [s.y0, s.y1] as [number, number]);
  // two column borders closer than NARROW_COLUMN hold no text between them (a copier's streak beside a border):
  // the one whose verticals cover less of the table's height goes
  for (let i = 0; i + 1 < xs.length; ) {
    if (xs[i + 1] - xs[i] >= NARROW_COLUMN) i++;
    else xs.splice(covered(vSpans(xs[i]), ys[ys.length - 1], ys[0]) >= covered(vSpans(xs[i + 1]), ys[ys.length - 1], ys[0]) ? i + 1 : i, 1);
  }
  if (ys.length < 3 || xs.length < 3 || v.length < 1) return;
  const nr = ys.length - 1;
  const nc = xs.length - 1;
  // the grid positions a missing border joins
  const joins: [number, number, number, number][] = [];
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      if (c + 1 < nc && covered(vSpans(xs[c + 1]), ys[r + 1], ys[r]) < 0.5) joins.push([r, c, r, c + 1]);
      if (r + 1 < nr && covered(hSpans(ys[r + 1]), xs[c], xs[c + 1]) < 0.5) joins.push([r, c, r + 1, c]);
    }
  }
  const { cells, owner } = gridCells(nr, nc, joins);
  // a page frame or a single box around text is no table
  if (cells.length < 4) return;
  grids.push({ xs, ys, cells, owner });
}

/** A three-line table's rules are at least this long (points): a signature line or an underlined word is not one. */
const MIN_RULE_FRAME = 120;

/**
 * Horizontal rules without verticals -> three-line table frames: three or more rules of one width (ends
 * within MEET + 2 % of the width) stacked on the page, with the shorter rules between the first two (group
 * header underlines). Which of them really bound a table (text between, columns) is decided with the page's
 * lines in `threeLineGrid`.
 */
function ruleFrames(hs: H[]): CellGrid[] {
  const long = hs.filter((h) => h.x1 - h.x0 >= MIN_RULE_FRAME).sort((a, b) => b.y - a.y);
  const used = new Set<H>();
  const out: CellGrid[] = [];
  for (const top of long) {
    if (used.has(top)) continue;
    const tol = MEET + (top.x1 - top.x0) * 0.02;
    const stack = long.filter((h) => !used.has(h) && Math.abs(h.x0 - top.x0) <= tol && Math.abs(h.x1 - top.x1) <= tol);
    if (stack.length < 3) continue;
    stack.forEach((h) => used.add(h));
    const short = hs.filter((h) => !stack.includes(h) && h.y < top.y && h.y > stack[stack.length - 1].y && h.x0 >= top.x0 - tol && h.x1 <= top.x1 + tol);
    out.push({ xs: [top.x0, top.x1], ys: stack.map((h) => h.y), cells: [], owner: [], rules: [...stack, ...short].sort((a, b) => b.y - a.y) });
  }
  return out;
}

/** Where a fragment sits: its middle (x, y), in the grid's frame. */
export type FragmentCentre = (f: Fragment) => [number, number];

/** A text fragment's middle in a PDF text layer: y is the baseline, the glyphs' middle about 0.3 em above. */
export const textCentre: FragmentCentre = (f) => [(f.x + f.right) / 2, (f.y ?? 0) + (f.h || 10) * 0.3];

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
const glue = (a: string, b: string) => (!a ? b : !b ? a : CJK.test(a.slice(-1)) || CJK.test(b[0]) ? a + b : `${a} ${b}`);

function locate(values: number[], v: number, descending: boolean): number {
  for (let i = 0; i + 1 < values.length; i++) {
    const [a, b] = descending ? [values[i + 1], values[i]] : [values[i], values[i + 1]];
    if (v >= a && v < b) return i;
  }
  return -1;
}

/** A cell's fragments -> its text: lines top to bottom, each left to right (raised footnote markers kept). */
function cellText(frags: { f: Fragment; cy: number }[]): string {
  const sorted = [...frags].sort((a, b) => b.cy - a.cy);
  const lines: { f: Fragment; cy: number }[][] = [];
  for (const it of sorted) {
    const line = lines[lines.length - 1];
    // a raised footnote marker (one or two small characters) stands up to 3/4 of the text's size above it
    const small = (a: Fragment, b: Fragment) => a.str.trim().length <= 2 && (a.h || 10) <= (b.h || 10) * 0.85;
    const marker = !!line && (small(it.f, line[0].f) || small(line[0].f, it.f));
    if (line && Math.abs(line[0].cy - it.cy) < Math.max(line[0].f.h || 10, it.f.h || 10) * (marker ? 0.75 : 0.5)) line.push(it);
    else lines.push([it]);
  }
  return lines.map((l) => joinFragments(l.map((x) => x.f).sort((a, b) => a.x - b.x))).reduce(glue, '');
}

/** A unit, or a short unit with one character before or after it (a scanner's speck read "%6", "·kV"): the unit. */
function unitWithSpeck(t: string): string | null {
  if (UNIT_CELL_RE.test(t)) return t;
  if (t.length < 2 || t.length > 5) return null;
  if (UNIT_CELL_RE.test(t.slice(0, -1))) return t.slice(0, -1);
  if (UNIT_CELL_RE.test(t.slice(1))) return t.slice(1);
  return null;
}

/** Most header lines a ruled table stacks (group, sub-group, name, unit). */
const MAX_HEADER_ROWS = 4;

/** The number of header rows at the top of a grid whose cell texts are `text`. */
function headerRows(grid: CellGrid, text: string[]): number {
  const nr = grid.ys.length - 1;
  const anchored = (r: number) => grid.cells.map((c, i) => ({ c, i, t: text[i] })).filter(({ c }) => c.row === r);
  const first = anchored(0).filter(({ t }) => t);
  if (first.length < 2 || !first.every(({ t }) => labelCell(t) || UNIT_CELL_RE.test(t))) return 0;
  let h = 1;
  while (h < nr && h < MAX_HEADER_ROWS) {
    // a header cell reaching down into row h (序号 over both lines)
    const reaches = grid.cells.some((c) => c.row < h && c.row + c.rowspan > h);
    // a group cell ending above row h whose columns row h splits (额定电压 kV over 10 | 35 | 110)
    const splits = grid.cells.some((c, i) => c.row < h && c.row + c.rowspan === h && c.colspan > 1 && !!text[i] && new Set(grid.owner[h].slice(c.col, c.col + c.colspan)).size > 1);
    const row = anchored(h).filter(({ t }) => t);
    // a unit row; on a scan one of its cells may carry a speck read as a character ("%6")
    const strict = row.filter(({ t }) => UNIT_CELL_RE.test(t)).length;
    const loose = row.filter(({ t }) => unitWithSpeck(t) === null);
    // or one unit read as another short text ("s" read "8" at 150 dpi: |A|8| under 定值|动作时间): the row's other
    // cells units, the name column empty and at most half the columns filled, as no body row is
    const misread = loose.length === 1 && row.length >= 2 && [...loose[0].t].length <= 2 && strict === row.length - 1 && !row.some(({ c }) => c.col === 0) && row.length * 2 <= grid.xs.length - 1;
    const units = row.length > 0 && ((loose.length === 0 && strict >= Math.max(1, row.length - 1) && (strict === row.length || row.length >= 2)) || misread);
    const short = row.every(({ t }) => t.length <= 24);
    if ((reaches || splits || units) && short) {
      if (units) for (const { i, t } of row) text[i] = unitWithSpeck(t) ?? t;
      h++;
    } else break;
  }
  return h;
}

/** The grid with a column of one-row cells added at the left (border at `left`) and/or right. */
function widen(grid: CellGrid, left: number | null, right: number | null): CellGrid {
  const nr = grid.ys.length - 1;
  const shift = left === null ? 0 : 1;
  const cells = grid.cells.map((c) => ({ ...c, col: c.col + shift }));
  const owner = grid.owner.map((row) => row.map((i) => i));
  const add = (r: number, col: number) => {
    cells.push({ row: r, col, rowspan: 1, colspan: 1 });
    return cells.length - 1;
  };
  for (let r = 0; r < nr; r++) {
    if (left !== null) owner[r].unshift(add(r, 0));
    if (right !== null) owner[r].push(add(r, owner[r].length));
  }
  return { xs: [...(left === null ? [] : [left]), ...grid.xs, ...(right === null ? [] : [right])], ys: grid.ys, cells, owner };
}

/** A grid's region on the page and its table: the lines whose text falls inside it. */
function gridSegment(found: CellGrid, lines: PositionedLine[], centre: FragmentCentre, cleanCell: (s: string) => string): TableSegment | null {
  let grid = found;
  const { xs, ys } = grid;
  const inside = ([x, y]: [number, number]) => x >= xs[0] - 1 && x <= xs[xs.length - 1] + 1 && y <= ys[0] + 1 && y >= ys[ys.length - 1] - 1;
  const members = lines.map((l, k) => (l.frags.length && l.frags.filter((f) => inside(centre(f))).length * 2 > l.frags.length ? k : -1)).filter((k) => k >= 0);
  if (!members.length) return null;
  const from = members[0];
  const to = members[members.length - 1];
  // text of the table's lines beyond a side whose border was not found: a column of its own there
  const outside = lines.slice(from, to + 1).flatMap((l) => l.frags.filter((f) => f.str.trim()).map(centre));
  const leftOut = outside.filter(([x]) => x < xs[0]).map(([x]) => x);
  const rightOut = outside.filter(([x]) => x > xs[xs.length - 1]).map(([x]) => x);
  // (a three-line table's rules run its full width: text beyond them is no column of it — a speck, a margin note)
  if (!found.threeLine && (leftOut.length || rightOut.length)) grid = widen(grid, leftOut.length ? Math.min(...leftOut) - 20 : null, rightOut.length ? Math.max(...rightOut) + 20 : null);
  const { xs: gx } = grid;
  const buckets: { f: Fragment; cy: number }[][] = grid.cells.map(() => []);
  for (const line of lines.slice(from, to + 1)) {
    for (const f of line.frags) {
      if (!f.str.trim()) continue;
      const [x, y] = centre(f);
      const r = locate(ys, y, true);
      const c = locate(gx, x, false);
      if (r >= 0 && c >= 0) buckets[grid.owner[r][c]].push({ f, cy: y });
    }
  }
  const text = buckets.map((b) => cleanCell(cellText(b)));
  const h = headerRows(grid, text);
  const nr = ys.length - 1;
  const nc = gx.length - 1;
  const columns = gx.slice(0, -1).map((x, c) => [x, gx[c + 1]] as [number, number]);
  const rows: string[][] = [];
  const spans: GridCell[] = [];
  for (let r = h > 1 ? h : 0; r < nr; r++) {
    const row = grid.owner[r].map((i, c) => (grid.cells[i].col === c ? text[i] : ''));
    if (!row.some(Boolean)) continue;
    rows.push(row);
  }
  // merged body cells, with rows counted among the rows kept
  const kept: number[] = [];
  for (let r = h > 1 ? h : 0; r < nr; r++) if (grid.owner[r].some((i, c) => grid.cells[i].col === c && text[i])) kept.push(r);
  grid.cells.forEach((c) => {
    if (c.row < (h > 1 ? h : 0) || (c.rowspan === 1 && c.colspan === 1)) return;
    const first = kept.indexOf(c.row);
    const last = kept.filter((r) => r < c.row + c.rowspan).length - 1;
    if (first >= 0) spans.push({ row: first, col: c.col, rowspan: last - first + 1, colspan: c.colspan });
  });
  if (!rows.length || nc < 2) return null;
  const seg: TableSegment = { from, to, columns, rows, ruled: true, ...(found.threeLine ? { threeLine: true } : {}), ...(spans.length ? { spans } : {}) };
  if (h > 1) {
    const grid2 = Array.from({ length: h }, (_, r) => grid.owner[r].map((i) => text[i]));
    seg.header = { names: composeHeaderNames(grid2), lines: Array.from({ length: h }, (_, r) => grid.owner[r].map((i, c) => (grid.cells[i].row === r && grid.cells[i].col === c ? text[i] : ''))) };
  }
  return seg;
}

export interface PageTableOptions {
  /** the grid's frame for a fragment (scans: levelled page); default: the text layer's */
  centre?: FragmentCentre;
  /** clean-up of a cell's text (OCR misreads a table cell makes obvious) */
  cleanCell?: (s: string) => string;
  /** clean-up of a region's body rows column by column (OCR misreads the column gives away) */
  cleanColumns?: (rows: string[][]) => string[][];
  /** the page is a scan: a blank cell may be a lone "—" the OCR did not read (TableSegment.scanned) */
  scanned?: boolean;
}

/**
 * Table regions of a page: ruled tables from the grids, and tables aligned by whitespace (tables.ts)
 * in the lines between them. Sorted by position, never overlapping.
 */
export function pageTableSegments(lines: PositionedLine[], grids: CellGrid[], options: PageTableOptions = {}): TableSegment[] {
  const centre = options.centre ?? textCentre;
  const clean = options.cleanCell ?? ((s: string) => s);
  const columns = options.cleanColumns ?? ((rows: string[][]) => rows);
  const ruled: TableSegment[] = [];
  for (const g of grids.flatMap((g) => (g.rules ? threeLineGrids(g, lines, centre) : [g]))) {
    const seg = gridSegment(g, lines, centre, clean);
    if (seg && !ruled.some((s) => seg.from <= s.to && s.from <= seg.to)) ruled.push({ ...seg, rows: columns(seg.rows), ...(options.scanned ? { scanned: true } : {}) });
  }
  ruled.sort((a, b) => a.from - b.from);
  const out: TableSegment[] = [];
  let at = 0;
  for (const seg of [...ruled, null]) {
    const end = seg ? seg.from : lines.length;
    if (end > at) {
      for (const s of findTableSegments(lines.slice(at, end))) {
        out.push({ ...s, from: s.from + at, to: s.to + at, rows: columns(s.rows.map((r) => r.map(clean))), ...(options.scanned ? { scanned: true } : {}), ...(s.header ? { header: { names: s.header.names.map(clean), lines: s.header.lines.map((l) => l.map(clean)) } } : {}) });
      }
    }
    if (!seg) break;
    out.push(seg);
    at = seg.to + 1;
  }
  return out;
}

// ---------------------------------------------------------------- three-line tables (三线表)

/** Union-find over grid positions -> cells and their owner table (positions joined by `join`). */
function gridCells(nr: number, nc: number, joins: [number, number, number, number][]): Pick<CellGrid, 'cells' | 'owner'> {
  const id = (r: number, c: number) => r * nc + c;
  const up = Array.from({ length: nr * nc }, (_, i) => i);
  const root = (i: number): number => (up[i] === i ? i : (up[i] = root(up[i])));
  for (const [r1, c1, r2, c2] of joins) up[root(id(r2, c2))] = root(id(r1, c1));
  const cells: GridCell[] = [];
  const byRoot = new Map<number, number>();
  const owner: number[][] = Array.from({ length: nr }, () => Array(nc).fill(-1));
  for (let r = 0; r < nr; r++) {
    for (let c = 0; c < nc; c++) {
      const k = root(id(r, c));
      let idx = byRoot.get(k);
      if (idx === undefined) {
        idx = cells.length;
        byRoot.set(k, idx);
        cells.push({ row: r, col: c, rowspan: 1, colspan: 1 });
      }
      const cell = cells[idx];
      cell.rowspan = Math.max(cell.rowspan, r - cell.row + 1);
      cell.colspan = Math.max(cell.colspan, c - cell.col + 1);
      owner[r][c] = idx;
    }
  }
  return { cells, owner };
}

/**
 * Column borders of text aligned in columns: x positions (between `left` and `right`) that almost no row's
 * text covers, over a stretch at least `minGap` wide (a word space inside a cell is narrower). "Almost no":
 * one row in ten may cross a gap (a long cell running into its neighbour's empty space, two cells the OCR
 * detector read as one box). Returns the middle of each such stretch.
 */
export function alignedColumnBorders(rows: [number, number][][], left: number, right: number, minGap: number): number[] {
  const step = 0.5;
  const n = Math.max(1, Math.ceil((right - left) / step));
  const cover = new Int32Array(n);
  for (const spans of rows) {
    const hit = new Uint8Array(n);
    for (const [a, b] of spans) for (let i = Math.max(0, Math.floor((a - left) / step)); i < Math.min(n, Math.ceil((b - left) / step)); i++) hit[i] = 1;
    for (let i = 0; i < n; i++) cover[i] += hit[i];
  }
  const allowed = Math.floor(rows.length * 0.1);
  let first = 0;
  while (first < n && cover[first] <= allowed) first++;
  let last = n - 1;
  while (last >= 0 && cover[last] <= allowed) last--;
  const borders: number[] = [];
  let start = -1;
  for (let i = first; i <= last + 1; i++) {
    const open = i <= last && cover[i] <= allowed;
    if (open && start < 0) start = i;
    if (!open && start >= 0) {
      if ((i - start) * step >= minGap) borders.push(left + ((start + i) / 2) * step);
      start = -1;
    }
  }
  return borders;
}

/**
 * A three-line frame and the page's lines -> cell grids. The first two full-width rules hold the header
 * (one line per header row; a short rule under a group label joins the columns it spans; a header row with
 * no text in a column is the cell above reaching down), the body runs from the second rule to the next full
 * rule that is not followed by more rows of the same table (a caption or prose before the next rule ends it).
 * Columns are where the body's text leaves gaps (alignedColumnBorders), rows are the body's lines.
 */
export function threeLineGrids(frame: CellGrid, lines: PositionedLine[], centre: FragmentCentre): CellGrid[] {
  const rules = frame.rules ?? [];
  const [left, right] = frame.xs;
  const full = frame.ys;
  const out: CellGrid[] = [];
  const placed = lines
    .map((l) => {
      const cs = l.frags.filter((f) => f.str.trim()).map((f) => ({ f, c: centre(f) }));
      const ys = cs.map((x) => x.c[1]).sort((a, b) => a - b);
      return { l, cs, y: ys.length ? ys[Math.floor(ys.length / 2)] : NaN };
    })
    .filter((x) => x.cs.length && x.cs.some(({ c }) => c[0] >= left - 1 && c[0] <= right + 1));
  const between = (hi: number, lo: number) => placed.filter((p) => p.y < hi && p.y > lo).sort((a, b) => b.y - a.y);
  let k = 0;
  while (k + 2 < full.length) {
    const header = between(full[k], full[k + 1]);
    let end = k + 2;
    // the body goes on past a rule when the rows after it are more of this table (a rule before a total row)
    while (end + 1 < full.length && between(full[end], full[end + 1]).length && !between(full[end], full[end + 1]).some((p) => parseCaption(p.l.text))) end++;
    const body = between(full[k + 1], full[end]);
    const grid = header.length && body.length ? frameGrid(left, right, full[k], full[k + 1], full[end], header, body, rules) : null;
    if (grid) out.push(grid);
    k = grid ? end + 1 : k + 1;
  }
  return out;
}

/** Narrowest gap between two columns' print, in print sizes, when the gaps are measured on the print (scans). */
const INK_GAP = 0.4;

type Placed = { l: PositionedLine; cs: { f: Fragment; c: [number, number] }[]; y: number };

function frameGrid(left: number, right: number, top: number, headRule: number, bottom: number, header: Placed[], body: Placed[], rules: H[]): CellGrid | null {
  if (header.length > MAX_HEADER_ROWS) return null;
  const sizes = body.flatMap((p) => p.cs.map(({ f }) => f.h || 10)).sort((a, b) => a - b);
  const size = sizes[Math.floor(sizes.length / 2)] ?? 10;
  // a scan's line boxes are padded (about a third of their height each side): two cells a word space apart touch
  // there, their print does not — gaps are measured on the print, and a word space inside a cell (about a third
  // of the print size) stays narrower than half of it
  const ink = body.some((p) => p.cs.some(({ f }) => f.ink));
  const inner = alignedColumnBorders(
    body.map((p) => p.cs.map(({ f }) => f.ink ?? ([f.x, f.right] as [number, number]))),
    left,
    right,
    size * (ink ? INK_GAP : 0.8),
  );
  if (!inner.length) return null;
  const xs = [left, ...inner, right];
  const mid = (a: number, b: number) => (a + b) / 2;
  const nc = xs.length - 1;
  const col = (x: number) => locate(xs, x, false);
  const spanned = (s: H, share: number) => xs.slice(0, -1).map((_, c) => c).filter((c) => Math.min(xs[c + 1], s.x1) - Math.max(xs[c], s.x0) > (xs[c + 1] - xs[c]) * share);
  // header rows: split at the short rules under group labels (a label beside them is centred over all the
  // header's lines: one cell down to the header rule); without such rules, one row per header line (a unit row)
  const levels = clusterValues(rules.filter((s) => s.x1 - s.x0 < (right - left) * 0.9 && s.y < top && s.y > headRule).map((s) => s.y), SNAP).reverse();
  const headYs = levels.length ? levels : header.slice(1).map((p, i) => mid(header[i].y, p.y));
  const hr = headYs.length + 1;
  const ys = [top, ...headYs, headRule, ...body.slice(1).map((p, i) => mid(body[i].y, p.y)), bottom];
  const nr = ys.length - 1;
  const joins: [number, number, number, number][] = [];
  for (let r = 1; r < hr; r++) {
    const under = new Set<number>();
    // the group label above a short rule joins the columns the rule spans
    for (const s of rules.filter((s) => s.x1 - s.x0 < (right - left) * 0.9 && Math.abs(s.y - ys[r]) <= SNAP)) {
      const cs = spanned(s, 0.5);
      cs.forEach((c) => under.add(c));
      for (const c of cs.slice(1)) joins.push([r - 1, cs[0], r - 1, c]);
    }
    // a column no rule separates here is one cell over both rows (without rules: when this line leaves it empty)
    const filled = levels.length ? new Set<number>() : new Set(header[r].cs.map(({ c }) => col(c[0])));
    for (let c = 0; c < nc; c++) if (!under.has(c) && !filled.has(c)) joins.push([r - 1, c, r, c]);
  }
  if (nr < 2) return null;
  return { xs, ys, ...gridCells(nr, nc, joins), threeLine: true };
}
