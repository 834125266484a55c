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
  /** the box cut back to its cell (`clipAtRulings`): where its marks' ink is looked at */
  cell?: TextBox;
}

export function cellBoxes(boxes: TextBox[], rulings: ImageRuling[], img: GreyImage): CellBox[] {
  const cut = boxes.flatMap((b) => splitAtRulings(b, rulings));
  const textH = medianHeight(cut);
  const band = textH ? tableBand(rulings, textH) : null;
  const inTable = (b: TextBox) => !!band && (b.y0 + b.y1) / 2 > band.y0 && (b.y0 + b.y1) / 2 < band.y1;
  // the recogniser reads the detector's box (its margin is what it was trained on); marks are judged on the
  // part of it inside its cell
  const out: CellBox[] = cut.map((b) => {
    const cell = clipAtRulings(b, rulings);
    if (textH && b.x1 - b.x0 <= textH * MARK_WIDTH && isDashBar(img, cell, textH)) return { ...b, bar: true };
    const grown = inTable(b) ? growToInk(img, b, rulings, cut, textH) : b;
    return cell === b ? grown : { ...grown, cell: { ...cell, x0: grown.x0, x1: grown.x1 } };
  });
  if (!textH) return out;
  // marks outside every text box, the grown ones included (a stroke a box took back is no stray dash). A box
  // under half a text line high (no line of text: the detector boxing a speck or the edge of a faint dash
  // beside the dash itself) does not hide one; a bar found over such a box replaces it (one mark, read once)
  const small = (b: CellBox) => !b.bar && b.x1 - b.x0 <= textH * MARK_WIDTH && b.y1 - b.y0 < textH / 2;
  const bars = strayBars(img, out.filter((b) => !small(b)), rulings, textH);
  const overlaps = (a: TextBox, b: TextBox) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
  const replaced = new Set<CellBox>();
  for (const bar of bars) for (const b of out) if (small(b) && overlaps(bar, b)) replaced.add(b);
  return [...out.filter((b) => !replaced.has(b)), ...bars];
}

/** The band between the page's highest and lowest long horizontal rulings (its tables' rows), or null. */
function tableBand(rulings: ImageRuling[], textH: number): { y0: number; y1: number } | null {
  const long = rulings.filter((r) => r.y0 === r.y1 && r.x1 - r.x0 >= textH * 8);
  if (long.length < 2) return null;
  return { y0: Math.min(...long.map((r) => r.y0)), y1: Math.max(...long.map((r) => r.y0)) };
}

/**
 * A box whose side cuts through a stroke is grown to take the rest of that glyph: the detector scores a thin
 * stroke low and may start the box past it (明体's faint "一" of "一号主变", read "号主变"). From a side that
 * cuts a stroke (ink on both sides of it in one row; faint ink counts, in the middle three fifths of the box's
 * height), the box goes on while ink follows
 * with gaps of at most a sixth of the text height (the space between two glyphs of a word; cells stand a
 * character or more apart), never across a vertical ruling or into another box, and at most 1.5 text heights.
 * A box whose sides stand in white paper, the usual case, is left as it is.
 */
export function growToInk(img: GreyImage, b: TextBox, rulings: ImageRuling[], boxes: TextBox[], textH: number): TextBox {
  const h = b.y1 - b.y0;
  const yA = Math.max(0, Math.floor(b.y0 + h * 0.2));
  const yB = Math.min(img.height, Math.ceil(b.y1 - h * 0.2));
  const inkCol = (x: number) => {
    if (x < 0 || x >= img.width) return false;
    for (let y = yA; y < yB; y++) if (img.data[y * img.width + x] < FAINT_INK) return true;
    return false;
  };
  const walls = rulings.filter((r) => r.x0 === r.x1 && r.y0 < b.y1 && r.y1 > b.y0).map((r) => r.x0);
  const others = boxes.filter((o) => o !== b && o.y0 < b.y1 - h * 0.3 && o.y1 > b.y0 + h * 0.3);
  const stop = (x: number) => walls.some((w) => Math.abs(w - x) <= 3) || others.some((o) => x >= o.x0 && x <= o.x1);
  const gap = Math.max(2, Math.round(textH / 6));
  const reach = textH * 1.5;
  const follow = (from: number, step: -1 | 1): number => {
    if (from + step < 0 || from + step >= img.width) return from;
    let edge = from;
    // a stroke cut by the side: ink on both sides of it in one row (a glyph merely ending there is not cut)
    let cutStroke = false;
    for (let y = yA; y < yB && !cutStroke; y++) cutStroke = img.data[y * img.width + from] < FAINT_INK && img.data[y * img.width + from + step] < FAINT_INK;
    if (!cutStroke || stop(from + step)) return from;
    let blank = 0;
    for (let x = from + step; Math.abs(x - from) <= reach && x >= 0 && x < img.width && !stop(x); x += step) {
      if (inkCol(x)) {
        blank = 0;
        edge = x;
      } else if (++blank > gap) break;
    }
    return edge;
  };
  const x0 = Math.floor(b.x0);
  const x1 = Math.ceil(b.x1) - 1;
  const left = follow(x0, -1);
  const right = follow(x1, 1);
  if (left === x0 && right === x1) return b;
  return { ...b, x0: Math.min(b.x0, left - 2), x1: Math.max(b.x1, right + 3) };
}

/**
 * A box reaching over a row border is cut back to its cell: the detector grows a text region by about half the
 * print size on each side, and at 150 dpi a one-line cell's box takes in the ruling under (or over) it, which
 * then outweighs a faint mark's ink. Only a ruling across the box's middle column, in its top or bottom 30 %
 * (a line through the middle of a box is no border of its cell).
 */
export function clipAtRulings(b: TextBox, rulings: ImageRuling[]): TextBox {
  const h = b.y1 - b.y0;
  const cx = (b.x0 + b.x1) / 2;
  let { y0, y1 } = b;
  for (const r of rulings) {
    if (r.y0 !== r.y1 || r.x0 > cx || r.x1 < cx) continue;
    if (r.y0 > b.y0 && r.y0 < b.y0 + h * 0.3) y0 = Math.max(y0, r.y0 + 3);
    if (r.y0 < b.y1 && r.y0 > b.y1 - h * 0.3) y1 = Math.min(y1, r.y0 - 3);
  }
  return y0 === b.y0 && y1 === b.y1 ? b : { ...b, y0, y1 };
}

/** The page's median text box height (0 without boxes): the scale the mark tests measure in. */
export function medianHeight(boxes: TextBox[]): number {
  const hs = boxes.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  return hs[Math.floor(hs.length / 2)] ?? 0;
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
  // 1 = ink that may be a stray mark (faint ink too: a thin 楷体/明体 dash is a one-pixel stroke, grey after the
  // scanner's blur); text boxes (grown by 2 px) and the rulings (±3 px) are cleared
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (img.data[(y + y0) * img.width + x + x0] < FAINT_INK) mask[y * w + x] = 1;
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
    // the piece's shape at the faint threshold first (cheap), then the bar test on its own ink (isDashBar)
    const piece = { x0: x0 + bx0, x1: x0 + bx1 + 1, y0: y0 + by0, y1: y0 + by1 + 1, score: 1 };
    if (len >= textH * DASH_LENGTH && len <= textH * 1.5 && thick <= Math.max(3, textH / 6) && n >= len * 0.8 && isDashBar(img, piece, textH)) {
      const cy = y0 + (by0 + by1) / 2;
      out.push({ x0: x0 + bx0 - textH / 4, x1: x0 + bx1 + 1 + textH / 4, y0: cy - textH / 2, y1: cy + textH / 2, score: 1, bar: true });
    }
  }
  return out;
}

/** The recogniser's reading of a box, or the dash for a bar box (confidence: the bar's share of the ink). */
export function readCellBox(b: CellBox, r: RecognizedLine, img?: GreyImage, textH = 0): RecognizedLine {
  if (b.bar) return { text: '—', confidence: 1, charConfidence: [1] };
  if (img && textH && /^[<>＜＞]/.test(r.text) && underlined(img, b.cell ?? b, textH)) return { ...r, text: (/^[<＜]/.test(r.text) ? '≤' : '≥') + r.text.slice(1) };
  return r;
}

/**
 * The box's first glyph stands on a bar: "≤"/"≥" whose underline the recogniser lost ("<6" for "≤6"). In 楷体
 * and 明体 the underline is a one-pixel stroke, grey after the scanner's blur, and the model reads the chevron
 * alone. The first glyph is the first run of ink columns (a gap stands between it and the digit); its lowest
 * ink rows (two pixels, one at 150 dpi's scale of the print) cover at least 60 % of its width for a bar under
 * the chevron, where "<" ends in the point of its lower arm (about a quarter of its width).
 */
export function underlined(img: GreyImage, b: TextBox, textH: number): boolean {
  const x0 = Math.max(0, Math.floor(b.x0));
  const x1 = Math.min(img.width, Math.ceil(b.x1));
  const y0 = Math.max(0, Math.floor(b.y0));
  const y1 = Math.min(img.height, Math.ceil(b.y1));
  if (x1 - x0 < 4 || y1 - y0 < 4) return false;
  // the glyphs' ink, the scanner's specks left out (a speck before the sign would be taken for the first glyph)
  const { mask } = markInk(img, x0, y0, x1, y1, textH);
  const dark = (x: number, y: number) => mask[(y - y0) * (x1 - x0) + x - x0] === 1;
  const colInk = (x: number) => {
    for (let y = y0; y < y1; y++) if (dark(x, y)) return true;
    return false;
  };
  let a = x0;
  while (a < x1 && !colInk(a)) a++;
  let c = a;
  while (c < x1 && colInk(c)) c++;
  const width = c - a;
  // a glyph narrower than a fifth of the line height is no chevron (a speck, a stroke)
  if (width < textH / 5) return false;
  let bottom = y1 - 1;
  const rowInk = (y: number) => {
    let n = 0;
    for (let x = a; x < c; x++) if (dark(x, y)) n++;
    return n;
  };
  while (bottom > y0 && !rowInk(bottom)) bottom--;
  const span = (y: number) => {
    let lo = -1;
    let hi = -1;
    for (let x = a; x < c; x++)
      if (dark(x, y)) {
        if (lo < 0) lo = x;
        hi = x;
      }
    return lo < 0 ? 0 : hi - lo + 1;
  };
  if (Math.max(span(bottom), span(bottom - 1)) >= width * 0.6) return true;
  // 楷体 draws the bar slanted under the lower arm (⩾): no flat bottom row, but the lower half of the glyph
  // carries the arm and the bar, the upper half one arm
  let top = y0;
  while (top < bottom && !rowInk(top)) top++;
  const mid = (top + bottom) / 2;
  let upper = 0;
  let lower = 0;
  for (let y = top; y <= bottom; y++) {
    const n = rowInk(y);
    if (y < mid) upper += n;
    else if (y > mid) lower += n;
  }
  return lower >= upper * LOWER_HEAVY;
}

/**
 * Lower half's ink over the upper half's for a slanted-bar sign. A plain "<"/">" is symmetric (1.0); the 楷体
 * "⩽"/"⩾" of the tuning scans measured 1.74–2.34 at 200 dpi and 1.1–3.0 at 150 dpi: 1.4 keeps a plain sign
 * well clear and takes most of the 150 dpi ones. Never checked on a scan with plain "<" (none in the set).
 */
const LOWER_HEAVY = 1.4;

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
 * A mark whose darkest pixel is lighter than INK is a thin stroke the scanner's blur greyed (楷体 and 明体 print
 * their dash one pixel thick at 200 dpi: darkest 175–190 after a light blur and JPEG, measured on the tuning
 * scans): its ink is what is darker than halfway from its darkest pixel to the paper, never lighter than this
 * (paper, speckle softened by JPEG and the halo of the rulings stay above ~225; rulings are found at 215 too).
 */
const FAINT_INK = 215;

/**
 * Specks are pieces of ink smaller than this share of the text height, in pixels: a speck of the
 * scanner (one dark pixel, its JPEG halo) covers 1–9 pixels at the faint threshold, a dash 50–70 (150–200 dpi,
 * measured on the tuning scans), a third of a text height is 10–15 pixels.
 */
const SPECK_AREA = 1 / 3;

/**
 * The mark's ink in a box, specks left out: pieces of ink (8-connected, faint ink counts) smaller than a third
 * of the text height in pixels are the scanner's specks; the mark's darkness is that of the `least`-th darkest
 * pixel of the rest, and its ink the pixels darker than halfway from that to the paper (never lighter than
 * FAINT_INK, never darker than INK). At 150 dpi a 楷体 dash is
 * grey (190–220) among specks darker than it, which set the threshold when they were counted.
 */
function markInk(img: GreyImage, x0: number, y0: number, x1: number, y1: number, textH: number): { mask: Uint8Array; ink: number } {
  const w = x1 - x0;
  const h = y1 - y0;
  const mask = new Uint8Array(Math.max(0, w * h));
  const label = new Int32Array(mask.length).fill(-1);
  const keep: boolean[] = [];
  const minArea = Math.max(4, Math.round(textH * SPECK_AREA));
  const stack: number[] = [];
  const faint = (p: number) => img.data[(y0 + Math.floor(p / w)) * img.width + x0 + (p % w)] < FAINT_INK;
  for (let i = 0; i < mask.length; i++) {
    if (label[i] >= 0 || !faint(i)) continue;
    const id = keep.length;
    const members: number[] = [];
    label[i] = id;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      members.push(p);
      const px = p % w;
      const py = (p - px) / w;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const qx = px + dx;
          const qy = py + dy;
          if (qx < 0 || qy < 0 || qx >= w || qy >= h) continue;
          const q = qy * w + qx;
          if (label[q] < 0 && faint(q)) {
            label[q] = id;
            stack.push(q);
          }
        }
    }
    keep.push(members.length >= minArea);
  }
  const hist = new Uint32Array(256);
  for (let i = 0; i < mask.length; i++) if (label[i] >= 0 && keep[label[i]]) hist[img.data[(y0 + Math.floor(i / w)) * img.width + x0 + (i % w)]]++;
  let dark = 0;
  const least = Math.max(3, Math.round(textH * DASH_LENGTH));
  for (let seen = 0; dark < 255; dark++) if ((seen += hist[dark]) >= least) break;
  const ink = Math.max(INK, Math.min(FAINT_INK, (dark + 255) / 2));
  for (let i = 0; i < mask.length; i++) if (label[i] >= 0 && keep[label[i]] && img.data[(y0 + Math.floor(i / w)) * img.width + x0 + (i % w)] < ink) mask[i] = 1;
  return { mask, ink };
}

/**
 * A dash is at least this long, as a share of the page's median box height (the detector's box is about 1.75
 * times the print size: an em dash measures 0.45–0.55 of it, a hyphen about 0.2, a speck less).
 */
const DASH_LENGTH = 0.3;

/**
 * The box's ink is one horizontal bar: the rows from the first to the last holding at least half of the
 * darkest row's pixels are at most an eighth of the median box height thick and hold 80 % of the ink, and the
 * bar is as long as a dash. The detector's box of a lone dash is often short and may cut off an end of the
 * bar, so the bar is followed past the box's sides: ending within 1.5 median box heights it is the mark (an
 * em dash is ≈ 0.5), going on it is a piece of a longer line (a ruling), not a mark. A lone "一" in a cell is
 * such a bar too and reads "—": in a table cell the dash ("not applicable") is by far the likelier.
 */
export function isDashBar(img: GreyImage, b: TextBox, textH: number): boolean {
  const x0 = Math.max(0, Math.floor(b.x0));
  const x1 = Math.min(img.width, Math.ceil(b.x1));
  const y0 = Math.max(0, Math.floor(b.y0));
  const y1 = Math.min(img.height, Math.ceil(b.y1));
  const { mask, ink } = markInk(img, x0, y0, x1, y1, textH);
  const w = x1 - x0;
  const rows: number[] = [];
  let total = 0;
  let longest = 0;
  let longestY = y0;
  let longestEnd = x0;
  for (let y = y0; y < y1; y++) {
    let n = 0;
    let run = 0;
    for (let x = x0; x < x1; x++) {
      if (mask[(y - y0) * w + x - x0]) {
        n++;
        run++;
        if (run > longest) {
          longest = run;
          longestY = y;
          longestEnd = x;
        }
      } else run = 0;
    }
    rows.push(n);
    total += n;
  }
  if (!total) return false;
  // the longest run followed past the box's sides (no further than a long dash could reach)
  const reach = Math.ceil(textH * 1.5);
  const dark = (xx: number) => xx >= 0 && xx < img.width && img.data[longestY * img.width + xx] < ink;
  let from = longestEnd - longest + 1;
  let to = longestEnd;
  while (from > x0 - reach && dark(from - 1)) from--;
  while (to < x1 + reach && dark(to + 1)) to++;
  const full = to - from + 1;
  if (full > textH * 1.5) return false;
  if (!total) return false;
  const peak = Math.max(...rows);
  // the bar: the rows next to the fullest one holding a quarter of its ink or more (a faint bar's edge rows
  // and a speck stuck to it are part of it); one stroke, so "二", "=" and "十" leave ink outside it
  let first = rows.indexOf(peak);
  let last = first;
  while (first > 0 && rows[first - 1] >= peak / 4) first--;
  while (last + 1 < rows.length && rows[last + 1] >= peak / 4) last++;
  const inBar = rows.slice(first, last + 1).reduce((a, n) => a + n, 0);
  return last - first + 1 <= Math.max(2, textH / 8) && inBar >= total * 0.8 && full >= textH * DASH_LENGTH;
}
