import type { GreyImage } from './image';

/**
 * Ruling lines of a scanned page (table borders), found in the levelled page image: runs of dark pixels
 * along rows (horizontal) and columns (vertical), bridging small breaks (speckle, a faint copy), joined
 * over neighbouring rows into lines a few pixels thick. A line must be long (a glyph's stroke is not)
 * or, for a vertical one, reach from one horizontal line to another (a cell border in a one-line row).
 * Boxes in pixels from the top-left corner; regulations/table-grid.ts builds the cell grid from them.
 */

export interface ImageRuling {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Run {
  at: number;
  a: number;
  b: number;
}

interface Line {
  /** first and last row (horizontal) or column (vertical) of the line's runs */
  lo: number;
  hi: number;
  a: number;
  b: number;
  /** the runs it was extended by in its last row/column: a run joins the line only where it touches them */
  last: Run[];
  cur: Run[];
}

/**
 * Dark runs along one axis, joined across adjacent rows/columns into lines. A run joins a line only where
 * it touches one of the line's runs in the row before (a glyph next to a long border stays apart from it).
 */
function axisLines(img: GreyImage, threshold: number, horizontal: boolean, minLen: number, maxGap: number): Line[] {
  const { width, height, data } = img;
  const outer = horizontal ? height : width;
  const inner = horizontal ? width : height;
  let open: Line[] = [];
  const done: Line[] = [];
  for (let o = 0; o < outer; o++) {
    const runs: Run[] = [];
    let start = -1;
    let last = -1;
    for (let i = 0; i < inner; i++) {
      const v = horizontal ? data[o * width + i] : data[i * width + o];
      if (v < threshold) {
        if (start < 0 || i - last > maxGap + 1) {
          if (start >= 0 && last - start + 1 >= minLen) runs.push({ at: o, a: start, b: last });
          start = i;
        }
        last = i;
      }
    }
    if (start >= 0 && last - start + 1 >= minLen) runs.push({ at: o, a: start, b: last });
    for (const r of runs) {
      const touching = open.filter((l) => l.last.some((p) => r.a <= p.b + maxGap && r.b >= p.a - maxGap));
      let line: Line;
      if (!touching.length) {
        line = { lo: o, hi: o, a: r.a, b: r.b, last: [], cur: [] };
        open.push(line);
      } else {
        // one run touching several lines joins them
        line = touching[0];
        for (const other of touching.slice(1)) {
          line.lo = Math.min(line.lo, other.lo);
          line.a = Math.min(line.a, other.a);
          line.b = Math.max(line.b, other.b);
          line.last.push(...other.last);
          line.cur.push(...other.cur);
        }
        open = open.filter((l) => !touching.includes(l) || l === line);
      }
      line.cur.push(r);
      line.hi = o;
      line.a = Math.min(line.a, r.a);
      line.b = Math.max(line.b, r.b);
    }
    // a line not continued for two rows is closed
    const still: Line[] = [];
    for (const l of open) {
      if (l.cur.length) {
        l.last = l.cur;
        l.cur = [];
        still.push(l);
      } else if (o - l.hi > 1) done.push(l);
      else still.push(l);
    }
    open = still;
  }
  done.push(...open);
  return done;
}

/**
 * A horizontal ruling is crossed only by the vertical borders meeting it; a "line" chained from the horizontal
 * strokes of a row of characters (at 150 dpi the scanner's blur closes the gaps between glyphs, and a caption
 * or a station name yields 0.4–1 inch of it) has the characters' other strokes standing on it all along.
 * Share of the line's columns with ink two pixels above or below its band, measured on the tuning scans
 * (tongdao, biandian, kaiguan, sanxian at 150 and 200 dpi, 390 lines): rulings 0–0.043, chains of glyph
 * strokes 0.55–0.96. A ruling must stay at or below this.
 */
const MAX_CROSSED = 0.3;

/** Share of a horizontal line's columns where ink stands just above or below its band. */
function crossed(img: GreyImage, threshold: number, l: Line): number {
  let n = 0;
  const up = l.lo - 2;
  const down = l.hi + 2;
  for (let x = l.a; x <= l.b; x++) {
    if ((up >= 0 && img.data[up * img.width + x] < threshold) || (down < img.height && img.data[down * img.width + x] < threshold)) n++;
  }
  return n / (l.b - l.a + 1);
}

/**
 * Grey below which a pixel may belong to a ruling. Thin rules are faint after scanning (a 0.5 pt line is
 * about one pixel at 200 dpi, lightened by blur, levelling and JPEG): paper stays above ~235.
 */
const RULING_INK = 215;

/** A pixel of ink is at least this much darker than the paper around it. */
const BELOW_PAPER = 20;

/**
 * The page's ink as one byte a pixel (1 ink, 0 paper): darker than `ceiling`, and at least BELOW_PAPER darker
 * than the local paper. A photocopy's paper is grey and uneven (205–245 in SEALED38): where it reads below the
 * ceiling every pixel was "ink" — the rows and columns around a border ran together into a band far thicker
 * than a ruling, and a strip of paper between a text box and a rule looked like a dash. The paper's grey is
 * each `side`-pixel block's 80th percentile, the brightest of it and its eight neighbours (a block full of
 * text or rules reads the paper beside it). On white paper (≥ ceiling + BELOW_PAPER) this is the plain
 * threshold at `ceiling`, as before.
 */
export function inkBelowPaper(img: GreyImage, side: number, ceiling: number): Uint8Array {
  const { width, height, data } = img;
  side = Math.max(8, Math.round(side));
  const bw = Math.ceil(width / side);
  const bh = Math.ceil(height / side);
  const block = new Uint8Array(bw * bh);
  const hist = new Uint32Array(256);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      hist.fill(0);
      const x1 = Math.min(width, (bx + 1) * side);
      const y1 = Math.min(height, (by + 1) * side);
      for (let y = by * side; y < y1; y++) for (let x = bx * side; x < x1; x++) hist[data[y * width + x]]++;
      const n = (x1 - bx * side) * (y1 - by * side);
      let v = 0;
      for (let seen = 0; v < 255; v++) if ((seen += hist[v]) >= n * 0.8) break;
      block[by * bw + bx] = v;
    }
  }
  const limit = new Uint8Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let paper = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (by + dy >= 0 && by + dy < bh && bx + dx >= 0 && bx + dx < bw) paper = Math.max(paper, block[(by + dy) * bw + bx + dx]);
      limit[by * bw + bx] = Math.max(0, Math.min(ceiling, paper - BELOW_PAPER));
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / side) * bw;
    for (let x = 0; x < width; x++) out[y * width + x] = data[y * width + x] < limit[row + Math.floor(x / side)] ? 1 : 0;
  }
  return out;
}

/** Side of the blocks the paper's grey is measured in (inches) for the rulings. */
const PAPER_BLOCK = 0.16;

/** The page's ruling ink as a two-level image (0 ink, 255 paper): `inkBelowPaper` at RULING_INK. */
function rulingInk(img: GreyImage, dpi: number): GreyImage {
  const ink = inkBelowPaper(img, dpi * PAPER_BLOCK, RULING_INK);
  const data = new Uint8Array(ink.length);
  for (let i = 0; i < ink.length; i++) data[i] = ink[i] ? 0 : 255;
  return { ...img, data };
}

/**
 * Rulings of a page image. `dpi` sets the scale: horizontals at least 0.4 inch long, verticals at least
 * 0.6 inch or joining two different horizontals; at most 0.04 inch thick (a long horizontal with nothing
 * standing on it: 0.06 inch).
 */
export function detectRulings(page: GreyImage, dpi: number): ImageRuling[] {
  const img = rulingInk(page, dpi);
  const threshold = 128;
  const maxThick = Math.max(3, Math.round(dpi * 0.04));
  const gap = Math.max(2, Math.round(dpi / 100));
  // a long rule nothing stands on may be thicker (up to 0.06 inch): a photocopy spreads the toner of a three-line
  // table's 1.5 pt top rule to 9 px at 200 dpi and 7 px at 150 dpi (SEALED38). Only horizontals at least 1.5 inch
  // long with ink beside at most 5 % of their length (rulings measured 0–0.043): at 0.06 inch for every line, heavy
  // glyph strokes became borders (SEALED36 lost 14 rows a family)
  const thickOk = (l: Line) => l.hi - l.lo + 1 <= maxThick || (l.hi - l.lo + 1 <= dpi * 0.06 && l.b - l.a + 1 >= dpi * 1.5 && crossed(img, threshold, l) <= 0.05);
  const hs = axisLines(img, threshold, true, Math.round(dpi * 0.4), gap).filter((l) => thickOk(l) && crossed(img, threshold, l) <= MAX_CROSSED);
  const vAll = axisLines(img, threshold, false, Math.round(dpi * 0.08), gap).filter((l) => l.hi - l.lo + 1 <= maxThick);
  const out: ImageRuling[] = hs.map((l) => ({ x0: l.a, x1: l.b, y0: (l.lo + l.hi) / 2, y1: (l.lo + l.hi) / 2 }));
  const tol = maxThick + gap;
  const meets = (x: number, y: number) => out.filter((h) => Math.abs(h.y0 - y) <= tol && x >= h.x0 - tol && x <= h.x1 + tol).map((h) => h.y0);
  // joining two horizontals means two different ones: a speck or a glyph's stroke touching one rule (a stub
  // both of whose ends lie within `tol` of it) is no border — it would turn a three-line table's rule into a
  // ruled grid with one column
  const joins = (x: number, a: number, b: number) => meets(x, a).some((ya) => meets(x, b).some((yb) => yb - ya > tol));
  for (const l of vAll) {
    const x = (l.lo + l.hi) / 2;
    if (l.b - l.a + 1 >= dpi * 0.6 || joins(x, l.a, l.b)) out.push({ x0: x, x1: x, y0: l.a, y1: l.b });
  }
  return out;
}
