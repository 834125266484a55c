import { otsuThreshold, type GreyImage } from './image';

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
}

/** Dark runs along one axis, joined across adjacent rows/columns into lines. */
function axisLines(img: GreyImage, threshold: number, horizontal: boolean, minLen: number, maxGap: number): Line[] {
  const { width, height, data } = img;
  const outer = horizontal ? height : width;
  const inner = horizontal ? width : height;
  const open: Line[] = [];
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
    // extend the lines of the previous row/column; close the ones no run continued
    const still: Line[] = [];
    for (const l of open) {
      const cont = runs.filter((r) => r.a <= l.b && r.b >= l.a);
      if (cont.length) {
        for (const r of cont) {
          l.a = Math.min(l.a, r.a);
          l.b = Math.max(l.b, r.b);
          (r as Run & { used?: boolean }).used = true;
        }
        l.hi = o;
        still.push(l);
      } else if (o - l.hi > 1) done.push(l);
      else still.push(l);
    }
    for (const r of runs as (Run & { used?: boolean })[]) if (!r.used) still.push({ lo: o, hi: o, a: r.a, b: r.b });
    open.length = 0;
    open.push(...still);
  }
  done.push(...open);
  return done;
}

/**
 * Rulings of a page image. `dpi` sets the scale: horizontals at least 0.4 inch long, verticals at least
 * 0.6 inch or joining two horizontals; at most 0.04 inch thick.
 */
export function detectRulings(img: GreyImage, dpi: number): ImageRuling[] {
  const threshold = Math.min(otsuThreshold(img), 160);
  const maxThick = Math.max(3, Math.round(dpi * 0.04));
  const gap = Math.max(2, Math.round(dpi / 100));
  const hs = axisLines(img, threshold, true, Math.round(dpi * 0.4), gap).filter((l) => l.hi - l.lo + 1 <= maxThick);
  const vAll = axisLines(img, threshold, false, Math.round(dpi * 0.08), gap).filter((l) => l.hi - l.lo + 1 <= maxThick);
  const out: ImageRuling[] = hs.map((l) => ({ x0: l.a, x1: l.b, y0: (l.lo + l.hi) / 2, y1: (l.lo + l.hi) / 2 }));
  const tol = maxThick + gap;
  const meets = (x: number, y: number) => out.some((h) => Math.abs(h.y0 - y) <= tol && x >= h.x0 - tol && x <= h.x1 + tol);
  for (const l of vAll) {
    const x = (l.lo + l.hi) / 2;
    if (l.b - l.a + 1 >= dpi * 0.6 || (meets(x, l.a) && meets(x, l.b))) out.push({ x0: x, x1: x, y0: l.a, y1: l.b });
  }
  return out;
}
