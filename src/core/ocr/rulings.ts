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

/**
 * Rulings of a page image. `dpi` sets the scale: horizontals at least 0.4 inch long, verticals at least
 * 0.6 inch or joining two different horizontals; at most 0.04 inch thick (a long horizontal with nothing
 * standing on it: 0.06 inch).
 */
export function detectRulings(img: GreyImage, dpi: number): ImageRuling[] {
  const threshold = RULING_INK;
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
