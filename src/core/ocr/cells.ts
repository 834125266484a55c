import type { TextBox } from './detect';
import type { GreyImage } from './image';
import type { RecognizedLine } from './recognize';
import type { ImageRuling } from './rulings';

/**
 * Text boxes made fit for table cells, on the levelled page (the frame rulings are found in). Two things the
 * detector does that a table cannot use:
 *  - one box over two cells: at low resolution the detector's grown text regions of neighbouring cells touch
 *    and become one box, read as one string. A vertical ruling crossing a box is a cell border, so the box is
 *    cut there before recognition: each part is read alone.
 *  - a lone "—" (a table's "not applicable"): without characters beside it the recogniser reads the bar as
 *    "-", "1", "|", "!", "=" or nothing (its box is often only a few pixels high). A short box whose ink is
 *    one horizontal bar is the dash, read from its shape (`readCellBox`).
 */
export interface CellBox extends TextBox {
  /** the box holds one horizontal bar as long as a dash: its text is "—" whatever the recogniser reads */
  bar?: true;
}

export function cellBoxes(boxes: TextBox[], rulings: ImageRuling[], img: GreyImage): CellBox[] {
  const cut = boxes.flatMap((b) => splitAtRulings(b, rulings));
  const hs = cut.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  const textH = hs[Math.floor(hs.length / 2)] ?? 0;
  const out: CellBox[] = cut.map((b) => (textH && b.x1 - b.x0 <= textH * MARK_WIDTH && isDashBar(img, b, textH) ? { ...b, bar: true } : b));
  return textH ? [...out, ...strayBars(img, cut, rulings, textH)] : out;
}

/**
 * Dashes the detector gave no box at all (a lone thin bar scores low as text): inside the band of the page's
 * long horizontal rulings (a table), ink outside every text box and off the rulings whose connected piece is
 * a bar — as long as a dash (DASH_LENGTH) up to two of them, an eighth of the text height thick at most.
 */
export function strayBars(img: GreyImage, boxes: TextBox[], rulings: ImageRuling[], textH: number): CellBox[] {
  const long = rulings.filter((r) => r.y0 === r.y1 && r.x1 - r.x0 >= textH * 8);
  if (long.length < 2) return [];
  const x0 = Math.max(0, Math.floor(Math.min(...long.map((r) => r.x0))));
  const x1 = Math.min(img.width, Math.ceil(Math.max(...long.map((r) => r.x1))));
  const y0 = Math.max(0, Math.floor(Math.min(...long.map((r) => r.y0))));
  const y1 = Math.min(img.height, Math.ceil(Math.max(...long.map((r) => r.y0))));
  const w = x1 - x0;
  const h = y1 - y0;
  if (w <= 0 || h <= 0) return [];
  // 1 = ink that may be a stray mark; text boxes (grown by 2 px) and the rulings (±3 px) are cleared
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (img.data[(y + y0) * img.width + x + x0] < INK) mask[y * w + x] = 1;
  const clear = (a: number, b: number, c: number, d: number) => {
    for (let y = Math.max(0, Math.floor(b - y0)); y < Math.min(h, Math.ceil(d - y0)); y++) mask.fill(0, y * w + Math.max(0, Math.floor(a - x0)), y * w + Math.max(0, Math.min(w, Math.ceil(c - x0))));
  };
  for (const b of boxes) clear(b.x0 - 2, b.y0 - 2, b.x1 + 2, b.y1 + 2);
  for (const r of rulings) clear(r.x0 - 3, r.y0 - 3, r.x1 + 4, r.y1 + 4);
  const out: CellBox[] = [];
  const stack: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 1) continue;
    let bx0 = w;
    let by0 = h;
    let bx1 = 0;
    let by1 = 0;
    let n = 0;
    mask[i] = 2;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      n++;
      bx0 = Math.min(bx0, x);
      bx1 = Math.max(bx1, x);
      by0 = Math.min(by0, y);
      by1 = Math.max(by1, y);
      for (const q of [p - 1, p + 1, p - w, p + w]) {
        if (q < 0 || q >= mask.length || mask[q] !== 1 || Math.abs((q % w) - x) > 1) continue;
        mask[q] = 2;
        stack.push(q);
      }
    }
    const len = bx1 - bx0 + 1;
    const thick = by1 - by0 + 1;
    if (len >= textH * DASH_LENGTH && len <= textH * 1.5 && thick <= Math.max(2, textH / 8) && n >= len * 0.8) {
      const cy = y0 + (by0 + by1) / 2;
      out.push({ x0: x0 + bx0 - textH / 4, x1: x0 + bx1 + 1 + textH / 4, y0: cy - textH / 2, y1: cy + textH / 2, score: 1, bar: true });
    }
  }
  return out;
}

/** The recogniser's reading of a box, or the dash for a bar box (confidence: the bar's share of the ink). */
export function readCellBox(b: CellBox, r: RecognizedLine): RecognizedLine {
  return b.bar ? { text: '—', confidence: 1, charConfidence: [1] } : r;
}

/** A ruling this far (share of the box height) inside a box's end is the box's own edge, not a border through it. */
const EDGE = 0.5;

/**
 * A box cut at the vertical rulings running through it: a cell border crosses the whole text line (the box
 * is the text grown by the detector, so its top and bottom quarters may stand beyond a short border); a
 * glyph's stroke, which the ruling finder may keep where it touches a line of text, does not.
 */
export function splitAtRulings(b: TextBox, rulings: ImageRuling[]): TextBox[] {
  const h = b.y1 - b.y0;
  const xs = rulings
    .filter((r) => r.x0 === r.x1 && r.y0 <= b.y0 + h / 4 && r.y1 >= b.y1 - h / 4 && r.x0 > b.x0 + h * EDGE && r.x0 < b.x1 - h * EDGE)
    .map((r) => r.x0)
    .sort((a, c) => a - c);
  if (!xs.length) return [b];
  const out: TextBox[] = [];
  let x0 = b.x0;
  // a part narrower than a third of the line height holds no character
  for (const x of [...xs, b.x1 + 2]) {
    const x1 = x - 2;
    if (x1 - x0 >= h / 3) out.push({ ...b, x0, x1 });
    x0 = x + 2;
  }
  return out.length ? out : [b];
}

/** A box at most this many median box heights wide may be a lone mark. */
const MARK_WIDTH = 2;
/** Ink darker than this is the mark (paper and JPEG halo are lighter). */
const INK = 150;
/**
 * A dash is at least this long, as a share of the page's median box height (the detector's box is about 1.75
 * times the print size: an em dash measures 0.45–0.55 of it, a hyphen about 0.2, a speck less).
 */
const DASH_LENGTH = 0.3;

/**
 * The box's ink is one horizontal bar: the rows from the first to the last holding at least half of the
 * darkest row's pixels are at most an eighth of the median box height thick and hold 80 % of the ink, and the
 * bar is as long as a dash and does not go on past the box's sides. A lone "一" in a cell is such a bar too and reads "—": in a table cell the dash
 * ("not applicable") is by far the likelier.
 */
export function isDashBar(img: GreyImage, b: TextBox, textH: number): boolean {
  const x0 = Math.max(0, Math.floor(b.x0));
  const x1 = Math.min(img.width, Math.ceil(b.x1));
  const y0 = Math.max(0, Math.floor(b.y0));
  const y1 = Math.min(img.height, Math.ceil(b.y1));
  const rows: number[] = [];
  let total = 0;
  let longest = 0;
  let edge = false;
  for (let y = y0; y < y1; y++) {
    let n = 0;
    let run = 0;
    for (let x = x0; x < x1; x++) {
      if (img.data[y * img.width + x] < INK) {
        n++;
        run++;
        if (run > longest) {
          longest = run;
          // the bar going on past the box's side: a piece of a longer line (a ruling), not a mark
          const dark = (xx: number) => xx >= 0 && xx < img.width && img.data[y * img.width + xx] < INK;
          edge = (x - run + 1 <= x0 + 1 && dark(x0 - 2)) || (x >= x1 - 2 && dark(x1 + 1));
        }
      } else run = 0;
    }
    rows.push(n);
    total += n;
  }
  if (edge) return false;
  if (!total) return false;
  const peak = Math.max(...rows);
  const first = rows.findIndex((n) => n >= peak / 2);
  const last = rows.length - 1 - [...rows].reverse().findIndex((n) => n >= peak / 2);
  const inBar = rows.slice(first, last + 1).reduce((a, n) => a + n, 0);
  // one stroke: the bar's rows are contiguous ("二" and "=" are two)
  return last - first + 1 <= Math.max(2, textH / 8) && inBar >= total * 0.8 && longest >= textH * DASH_LENGTH;
}
