import { medianHeight } from './cells';
import type { TextBox } from './detect';
import type { GreyImage } from './image';
import type { ImageRuling } from './rulings';

/**
 * Columns of three-line tables (三线表: long rules above and below the header and under the body, no
 * verticals) on a scanned page, before recognition. At 150 dpi the detector's grown text regions of two
 * cells a word space apart touch and become one box ("±15±0.44" read as one string), and a three-line table
 * has no vertical ruling to cut it at (`splitAtRulings`). Its columns show in the print instead: between the
 * stacked rules, pixel columns no body row prints in. A box whose print stops on both sides of such a gap
 * is cut there, and each part is read alone.
 */

/** Grey below this is print (the photocopy's darkest paper is about 205). */
const PRINT = 160;
/** Rows of text between two rules at least: a table's body (a header band holds one to three). */
const MIN_ROWS = 3;
/**
 * Narrowest column gap, in text heights (a detector box is about 1.45 print sizes high): half a print size.
 * A word space inside a cell is about a third of one, the space between two Han characters a tenth.
 */
const MIN_GAP = 0.35;

/** Boxes cut at the column gaps of the page's three-line frames; other boxes as they are. */
export function cutAtFrameColumns(boxes: TextBox[], rulings: ImageRuling[], img: GreyImage): TextBox[] {
  const textH = medianHeight(boxes);
  if (!textH || !boxes.length) return boxes;
  const cuts = frameGaps(boxes, rulings, img, textH);
  if (!cuts.length) return boxes;
  return boxes.flatMap((b) => cutBox(b, cuts, img, textH));
}

interface Gap {
  /** blank pixel columns, x0 inclusive, x1 exclusive */
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Print in pixel column x of a box, in the middle three fifths of its height (a rule at its edge left out). */
function printedAt(img: GreyImage, b: TextBox, x: number): boolean {
  const h = b.y1 - b.y0;
  const y0 = Math.max(0, Math.floor(b.y0 + h / 5));
  const y1 = Math.min(img.height, Math.ceil(b.y1 - h / 5));
  if (x < 0 || x >= img.width) return false;
  for (let y = y0; y < y1; y++) if (img.data[y * img.width + x] < PRINT) return true;
  return false;
}

/**
 * Column gaps of the bodies of the page's three-line frames: three or more long horizontal rulings of one
 * width stacked, no vertical ruling inside; between two of them at least MIN_ROWS rows of text boxes; pixel
 * columns at most one row in ten prints in (a long cell running into its neighbour's empty space), over at
 * least MIN_GAP text heights, between the first and the last printed column.
 */
export function frameGaps(boxes: TextBox[], rulings: ImageRuling[], img: GreyImage, textH: number): Gap[] {
  const long = rulings.filter((r) => r.y0 === r.y1 && r.x1 - r.x0 >= textH * 8).sort((a, b) => a.y0 - b.y0);
  const verticals = rulings.filter((r) => r.x0 === r.x1);
  const used = new Set<ImageRuling>();
  const gaps: Gap[] = [];
  for (const top of long) {
    if (used.has(top)) continue;
    const tol = textH / 2 + (top.x1 - top.x0) * 0.02;
    const stack = long.filter((h) => !used.has(h) && Math.abs(h.x0 - top.x0) <= tol && Math.abs(h.x1 - top.x1) <= tol);
    if (stack.length < 3) continue;
    stack.forEach((h) => used.add(h));
    const x0 = Math.round(Math.min(...stack.map((h) => h.x0)));
    const x1 = Math.round(Math.max(...stack.map((h) => h.x1)));
    const yTop = stack[0].y0;
    const yBottom = stack[stack.length - 1].y0;
    // a ruled table (verticals between its rules) is cut by its own borders; one vertical is a copier's streak
    const borders = verticals.filter((v) => v.x0 > x0 + textH && v.x0 < x1 - textH && Math.min(v.y1, yBottom) - Math.max(v.y0, yTop) > (yBottom - yTop) / 2);
    if (borders.length >= 2) continue;
    for (let k = 0; k + 1 < stack.length; k++) {
      const ya = stack[k].y0;
      const yb = stack[k + 1].y0;
      const inside = boxes.filter((b) => (b.y0 + b.y1) / 2 > ya && (b.y0 + b.y1) / 2 < yb && (b.x0 + b.x1) / 2 > x0 && (b.x0 + b.x1) / 2 < x1);
      const rows = textRows(inside);
      if (rows.length < MIN_ROWS) continue;
      const n = x1 - x0;
      const cover = new Int32Array(n);
      for (const row of rows) {
        const hit = new Uint8Array(n);
        for (const b of row) for (let x = Math.max(x0, Math.floor(b.x0)); x < Math.min(x1, Math.ceil(b.x1)); x++) if (!hit[x - x0] && printedAt(img, b, x)) hit[x - x0] = 1;
        for (let i = 0; i < n; i++) cover[i] += hit[i];
      }
      const allowed = Math.floor(rows.length * 0.1);
      let first = 0;
      while (first < n && cover[first] <= allowed) first++;
      let last = n - 1;
      while (last >= 0 && cover[last] <= allowed) last--;
      let start = -1;
      for (let i = first; i <= last + 1; i++) {
        const open = i <= last && cover[i] <= allowed;
        if (open && start < 0) start = i;
        if (!open && start >= 0) {
          if (i - start >= textH * MIN_GAP) gaps.push({ x0: x0 + start, x1: x0 + i, y0: ya, y1: yb });
          start = -1;
        }
      }
    }
  }
  return gaps;
}

/** Boxes whose vertical middles overlap are one row. */
function textRows(boxes: TextBox[]): TextBox[][] {
  const rows: TextBox[][] = [];
  for (const b of [...boxes].sort((p, q) => p.y0 + p.y1 - (q.y0 + q.y1))) {
    const mid = (b.y0 + b.y1) / 2;
    const row = rows.at(-1);
    if (row && row.some((r) => mid > r.y0 && mid < r.y1)) row.push(b);
    else rows.push([b]);
  }
  return rows;
}

/**
 * A box cut at each gap it spans whose pixel columns it prints none of, with print on both sides: the left part
 * ends, the right part starts, a third of a text height into the gap (the detector's own margin) or at its
 * middle when the gap is narrower.
 */
function cutBox(b: TextBox, gaps: Gap[], img: GreyImage, textH: number): TextBox[] {
  const mid = (b.y0 + b.y1) / 2;
  const here = gaps.filter((g) => mid > g.y0 && mid < g.y1 && g.x0 > b.x0 && g.x1 < b.x1).sort((p, q) => p.x0 - q.x0);
  if (!here.length) return [b];
  const out: TextBox[] = [];
  let from = b.x0;
  const pad = textH / 3;
  for (const g of here) {
    let blank = true;
    for (let x = g.x0; x < g.x1 && blank; x++) if (printedAt(img, b, x)) blank = false;
    if (!blank || !hasPrint(img, b, from, g.x0) || !hasPrint(img, b, g.x1, b.x1)) continue;
    const m = (g.x0 + g.x1) / 2;
    out.push({ ...b, x0: from, x1: Math.min(m, g.x0 + pad) });
    from = Math.max(m, g.x1 - pad);
  }
  if (!out.length) return [b];
  out.push({ ...b, x0: from, x1: b.x1 });
  return out;
}

function hasPrint(img: GreyImage, b: TextBox, from: number, to: number): boolean {
  for (let x = Math.floor(from); x < Math.ceil(to); x++) if (printedAt(img, b, x)) return true;
  return false;
}
