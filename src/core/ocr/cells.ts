import type { TextBox } from './detect';
import type { GreyImage } from './image';
import type { RecognizedLine } from './recognize';
import { inkBelowPaper, type ImageRuling } from './rulings';

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
  /** a mark found in a table cell the detector gave no box (`inkCells`): kept only when read surely */
  ink?: true;
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
    return inTable(b) ? growToInk(img, b, rulings, cut, textH) : b;
  });
  if (!textH) return out;
  // marks outside every text box, the grown ones included (a stroke a box took back is no stray dash). A box
  // under half a text line high (no line of text: the detector boxing a speck or the edge of a faint dash
  // beside the dash itself) does not hide one; a bar found over such a box replaces it (one mark, read once)
  const small = (b: CellBox) => !b.bar && b.x1 - b.x0 <= textH * MARK_WIDTH && b.y1 - b.y0 < textH / 2;
  // the page's ink against its paper, measured once for both searches below (each clears its own boxes in a copy)
  const pageInk = inkBelowPaper(img, textH, FAINT_INK);
  const bars = strayBars(img, out.filter((b) => !small(b)), rulings, textH, pageInk);
  const overlaps = (a: TextBox, b: TextBox) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
  const replaced = new Set<CellBox>();
  for (const bar of bars) for (const b of out) if (small(b) && overlaps(bar, b)) replaced.add(b);
  const kept = [...out.filter((b) => !replaced.has(b)), ...bars];
  return [...kept, ...inkCells(img, kept, rulings, textH, pageInk)];
}

/**
 * Marks in table cells the detector gave no box: a lone "0", "1", "-" or "Ⅱ" scores low as text on its own
 * (nothing beside it), so its cell came back empty. Ink outside every box and off the rulings, inside the band
 * of the page's long horizontal rulings (a ruled or three-line table), is gathered into marks (pieces at most
 * a quarter of the text height apart, no vertical ruling between them; specks under a third of the text height
 * in pixels left out); a mark of a character's size, alone in its cell (no text box has its middle there, or,
 * without vertical rulings, none on its row within a text height), becomes a box for the recogniser, the
 * mark's ink padded as the detector pads a line. Its reading is kept only when every character passes the
 * pipeline's low-confidence bound (`INK_CELL_CONFIDENCE`): a smudge reads unsure.
 */
export function inkCells(img: GreyImage, boxes: TextBox[], rulings: ImageRuling[], textH: number, pageInk?: Uint8Array): CellBox[] {
  const band = longBand(rulings, textH);
  const inBand = (x: number, y: number) => !!band && x >= band.x0 && x <= band.x1 && y >= band.y0 && y <= band.y1;
  if (img.width <= 0 || img.height <= 0) return [];
  const mask = looseInk(img, boxes, rulings, textH, pageInk);
  const minArea = Math.max(4, Math.round(textH * SPECK_AREA));
  type Piece = { x0: number; y0: number; x1: number; y1: number; dark: number };
  // a piece longer than a text line is a stretch of ruling the finder left (or a streak), no mark
  const pieces: Piece[] = inkPieces(img, mask, true).filter((p) => p.n >= minArea && p.x1 - p.x0 <= textH * 1.5 && p.y1 - p.y0 <= textH * 1.5);
  const verticals = rulings.filter((r) => r.x0 === r.x1);
  const wallBetween = (a: number, b: number, y0: number, y1: number) => verticals.some((r) => r.x0 > a && r.x0 < b && r.y0 < y1 && r.y1 > y0);
  // pieces gathered into marks: near each other, on one line, no cell border between
  const near = textH / 4;
  const marks: Piece[] = [];
  for (const p of pieces.sort((a, b) => a.x0 - b.x0)) {
    const m = marks.find(
      (o) => p.x0 - o.x1 <= near && o.x0 - p.x1 <= near && p.y0 - o.y1 <= near && o.y0 - p.y1 <= near && !wallBetween(Math.min(o.x1, p.x1), Math.max(o.x0, p.x0), Math.min(o.y0, p.y0), Math.max(o.y1, p.y1)),
    );
    if (!m) marks.push({ ...p });
    else Object.assign(m, { x0: Math.min(m.x0, p.x0), x1: Math.max(m.x1, p.x1), y0: Math.min(m.y0, p.y0), y1: Math.max(m.y1, p.y1), dark: Math.min(m.dark, p.dark) });
  }
  const out: CellBox[] = [];
  for (const m of marks) {
    const mw = m.x1 - m.x0;
    const mh = m.y1 - m.y0;
    // a character's size (a digit or a hyphen at least; a dash is `strayBars`' part), dark as print somewhere
    if (m.dark >= INK || mw > textH * 2.5 || mh > textH * 1.3 || Math.max(mw, mh) < textH * 0.3) continue;
    const cx = (m.x0 + m.x1) / 2;
    const cy = (m.y0 + m.y1) / 2;
    // in a ruled or three-line table, or on a row of an unruled one under (or over) a column's text
    if (!inBand(cx, cy) && !(onTableRow(boxes, m.x0, m.x1, cy, textH) && inColumn(boxes, m, textH))) continue;
    // its cell: the nearest rulings around it
    const left = Math.max(-Infinity, ...verticals.filter((r) => r.x0 <= m.x0 && r.y0 <= cy && r.y1 >= cy).map((r) => r.x0));
    const right = Math.min(Infinity, ...verticals.filter((r) => r.x0 >= m.x1 && r.y0 <= cy && r.y1 >= cy).map((r) => r.x0));
    const horiz = rulings.filter((r) => r.y0 === r.y1 && r.x0 <= cx && r.x1 >= cx);
    const top = Math.max(-Infinity, ...horiz.filter((r) => r.y0 <= m.y0).map((r) => r.y0));
    const bottom = Math.min(Infinity, ...horiz.filter((r) => r.y0 >= m.y1).map((r) => r.y0));
    const ruled = Number.isFinite(left) && Number.isFinite(right);
    const occupied = boxes.some((b) => {
      const bx = (b.x0 + b.x1) / 2;
      const by = (b.y0 + b.y1) / 2;
      if (by <= top || by >= bottom) return false;
      return ruled ? bx > left && bx < right : Math.abs(by - cy) <= textH && b.x0 < m.x1 + textH && b.x1 > m.x0 - textH;
    });
    if (occupied) continue;
    const pad = textH / 4;
    out.push({
      x0: Math.max(m.x0 - pad, left + 2),
      x1: Math.min(m.x1 + pad, right - 2),
      y0: Math.max(Math.min(m.y0 - pad / 2, cy - textH / 2), top + 2),
      y1: Math.min(Math.max(m.y1 + pad / 2, cy + textH / 2), bottom - 2),
      score: 1,
      ink: true,
    });
  }
  return out;
}

/**
 * The tight box of a lone mark's ink inside a short detector box (specks and the row borders it reaches over
 * left out), padded as `inkCells` pads a mark, or null without ink: the detector's box of a lone "1" is wide
 * and tall around it, and the recogniser reads the mark unsure there (0.47 on the tuning scan `zhongduan`)
 * but sure on its ink alone.
 */
export function inkBox(img: GreyImage, b: TextBox, rulings: ImageRuling[], textH: number): TextBox | null {
  const c = clipAtRulings(b, rulings);
  const x0 = Math.max(0, Math.floor(c.x0));
  const y0 = Math.max(0, Math.floor(c.y0));
  const x1 = Math.min(img.width, Math.ceil(c.x1));
  const y1 = Math.min(img.height, Math.ceil(c.y1));
  if (x1 - x0 < 2 || y1 - y0 < 2) return null;
  const { mask } = markInk(img, x0, y0, x1, y1, textH);
  const w = x1 - x0;
  let mx0 = w;
  let my0 = y1 - y0;
  let mx1 = -1;
  let my1 = -1;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const x = i % w;
    const y = (i - x) / w;
    mx0 = Math.min(mx0, x);
    mx1 = Math.max(mx1, x + 1);
    my0 = Math.min(my0, y);
    my1 = Math.max(my1, y + 1);
  }
  if (mx1 < 0) return null;
  const pad = textH / 4;
  const cy = y0 + (my0 + my1) / 2;
  return { ...b, x0: x0 + mx0 - pad, x1: x0 + mx1 + pad, y0: Math.min(y0 + my0 - pad / 2, cy - textH / 2), y1: Math.max(y0 + my1 + pad / 2, cy + textH / 2) };
}

/** Text boxes on other rows overlap the mark's span: it stands in a column of an unruled table. */
function inColumn(boxes: TextBox[], m: { x0: number; x1: number; y0: number; y1: number }, textH: number): boolean {
  return boxes.some((b) => b.x0 < m.x1 && b.x1 > m.x0 && (b.y1 < m.y0 - textH / 4 || b.y0 > m.y1 + textH / 4) && b.y1 - b.y0 < textH * 1.5);
}

/** The pipeline's low-confidence bound (the default `ocr.lowConfidence`): a mark from `inkCells` read less sure than this in any character is no text. */
export const INK_CELL_CONFIDENCE = 0.49;

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
 * Dashes the detector gave no box at all (a lone thin bar scores low as text): ink outside every text box and
 * off the rulings whose connected piece is a bar — as long as a dash (DASH_LENGTH) up to two of them, an
 * eighth of the text height thick at most — inside the band of the page's long horizontal rulings (a ruled or
 * three-line table), or elsewhere on a row of an unruled table (`onTableRow`).
 */
export function strayBars(img: GreyImage, boxes: TextBox[], rulings: ImageRuling[], textH: number, pageInk?: Uint8Array): CellBox[] {
  const band = longBand(rulings, textH);
  const inBand = (x: number, y: number) => !!band && x >= band.x0 && x <= band.x1 && y >= band.y0 && y <= band.y1;
  if (img.width <= 0 || img.height <= 0) return [];
  const out: CellBox[] = [];
  for (const p of inkPieces(img, looseInk(img, boxes, rulings, textH, pageInk), false)) {
    const [bx0, by0, bx1, by1, n] = [p.x0, p.y0, p.x1 - 1, p.y1 - 1, p.n];
    const len = bx1 - bx0 + 1;
    const thick = by1 - by0 + 1;
    // the piece's shape at the faint threshold first (cheap), then the bar test on its own ink (isDashBar)
    const piece = { x0: bx0, x1: bx1 + 1, y0: by0, y1: by1 + 1, score: 1 };
    if (len >= textH * LONE_DASH_LENGTH && len <= textH * 1.5 && thick <= Math.max(3, textH / 6) && n >= len * 0.8 && isDashBar(img, piece, textH, LONE_DASH_LENGTH)) {
      const cy = (by0 + by1) / 2;
      if (!inBand((bx0 + bx1) / 2, cy) && !onTableRow(boxes, bx0, bx1, cy, textH)) continue;
      out.push({ x0: bx0 - textH / 4, x1: bx1 + 1 + textH / 4, y0: cy - textH / 2, y1: cy + textH / 2, score: 1, bar: true });
    }
  }
  return out;
}

/**
 * Outside a ruled table a bar is a cell's dash only on a table row: two text boxes or more with their middles
 * within a third of the text height of the bar's, none nearer to it than half the text height (a column gap;
 * a dash inside a line of text, "— 3 —" around a page number, stands closer to its words).
 */
function onTableRow(boxes: TextBox[], bx0: number, bx1: number, cy: number, textH: number): boolean {
  const row = boxes.filter((b) => Math.abs((b.y0 + b.y1) / 2 - cy) <= textH / 3);
  if (row.length < 2) return false;
  return row.every((b) => (b.x0 > bx1 ? b.x0 - bx1 : bx0 > b.x1 ? bx0 - b.x1 : 0) >= textH / 2);
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

/** The rectangle of the page's long horizontal rulings (a ruled or three-line table's rows), or null. */
function longBand(rulings: ImageRuling[], textH: number): { x0: number; x1: number; y0: number; y1: number } | null {
  const long = rulings.filter((r) => r.y0 === r.y1 && r.x1 - r.x0 >= textH * 8);
  if (long.length < 2) return null;
  return { x0: Math.min(...long.map((r) => r.x0)), x1: Math.max(...long.map((r) => r.x1)), y0: Math.min(...long.map((r) => r.y0)), y1: Math.max(...long.map((r) => r.y0)) };
}

/**
 * The page's ink outside every text box (grown by 2 px) and off the rulings (±3 px), one byte a pixel (1 = ink):
 * faint ink too, a thin 楷体/明体 dash is a one-pixel stroke, grey after the scanner's blur.
 */
function looseInk(img: GreyImage, boxes: TextBox[], rulings: ImageRuling[], textH: number, pageInk?: Uint8Array): Uint8Array {
  const w = img.width;
  const h = img.height;
  // ink is darker than the paper around it too: a photocopy's grey paper reads below FAINT_INK (`pageInk`: that
  // mask measured once for the page; copied, as the boxes are cleared and the pieces marked in it)
  const mask = pageInk ? pageInk.slice() : inkBelowPaper(img, textH, FAINT_INK);
  const clear = (a: number, b: number, c: number, d: number) => {
    for (let y = Math.max(0, Math.floor(b)); y < Math.min(h, Math.ceil(d)); y++) mask.fill(0, y * w + Math.max(0, Math.floor(a)), y * w + Math.max(0, Math.min(w, Math.ceil(c))));
  };
  for (const b of boxes) clear(b.x0 - 2, b.y0 - 2, b.x1 + 2, b.y1 + 2);
  for (const r of rulings) clear(r.x0 - 3, r.y0 - 3, r.x1 + 4, r.y1 + 4);
  return mask;
}

/**
 * The connected pieces of a `looseInk` mask (4- or 8-connected): box (x1, y1 exclusive), pixel count and darkest
 * grey. `strayBars` looks for dash bars among them, `inkCells` for marks.
 */
function inkPieces(img: GreyImage, mask: Uint8Array, eight: boolean): { x0: number; y0: number; x1: number; y1: number; n: number; dark: number }[] {
  const w = img.width;
  const h = img.height;
  const out: { x0: number; y0: number; x1: number; y1: number; n: number; dark: number }[] = [];
  const stack: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 1) continue;
    const p = { x0: w, y0: h, x1: 0, y1: 0, n: 0, dark: 255 };
    mask[i] = 2;
    stack.push(i);
    while (stack.length) {
      const q = stack.pop()!;
      const x = q % w;
      const y = (q - x) / w;
      p.n++;
      p.x0 = Math.min(p.x0, x);
      p.x1 = Math.max(p.x1, x + 1);
      p.y0 = Math.min(p.y0, y);
      p.y1 = Math.max(p.y1, y + 1);
      p.dark = Math.min(p.dark, img.data[q]);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          if ((!eight && dx !== 0 && dy !== 0) || (dx === 0 && dy === 0)) continue;
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h || mask[ny * w + nx] !== 1) continue;
          mask[ny * w + nx] = 2;
          stack.push(ny * w + nx);
        }
    }
    out.push(p);
  }
  return out;
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
 * A bar standing alone in a table cell (no box, nothing beside it: `strayBars`) is the cell's dash from this
 * length on: a monospaced face prints "—" one cell wide (Zen Hei Mono: 0.27 of the median box height on the
 * tuning scan `fengsu`), and a lone hyphen in a cell means "not applicable" just the same; a speck is shorter.
 */
const LONE_DASH_LENGTH = 0.2;

/**
 * The box's ink is one horizontal bar: the rows from the first to the last holding at least half of the
 * darkest row's pixels are at most an eighth of the median box height thick and hold 80 % of the ink, and the
 * bar is as long as a dash. The detector's box of a lone dash is often short and may cut off an end of the
 * bar, so the bar is followed past the box's sides: ending within 1.5 median box heights it is the mark (an
 * em dash is ≈ 0.5), going on it is a piece of a longer line (a ruling), not a mark. A lone "一" in a cell is
 * such a bar too and reads "—": in a table cell the dash ("not applicable") is by far the likelier.
 */
export function isDashBar(img: GreyImage, b: TextBox, textH: number, minLength = DASH_LENGTH): boolean {
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
  return last - first + 1 <= Math.max(2, textH / 8) && inBar >= total * 0.8 && full >= textH * minLength;
}

/**
 * What the recogniser reads for "≥"/"≤"/"±" before a number (tuning scans: "2159" for ≥159, "s3000" and "$66"
 * for ≤, "<40" for a 明体 "⩽", ">2组" for a 楷体 "≥", "+10" for ±10); it also passes over the sign and reads the
 * number alone.
 */
const SIGN_READS = new Set(['2', 's', 'S', '$', '<', '>', '＜', '＞', 'z', 'Z', '+', '＋']);
const CHEVRONS: Record<string, '≥' | '≤'> = { '<': '≤', '＜': '≤', '>': '≥', '＞': '≥' };

/**
 * A comparison sign decided from its ink, where the recogniser's reading of a line's first character is a
 * sign's lookalike or a digit (`signShape` on the line's first glyph, ink up to the first blank column). The
 * sign replaces the character read at its place, or is put before the text when the first character read lies
 * beyond the glyph (the sign passed over).
 */
export function readSign(img: GreyImage, b: TextBox, r: RecognizedLine): RecognizedLine {
  const chars = [...r.text];
  if (!chars.length || !r.charX || r.charX.length !== chars.length) return r;
  const lookalike = SIGN_READS.has(chars[0]);
  if (!(lookalike ? /^[\d.]/.test(chars[1] ?? '') : /^\d/.test(chars[0]))) return r;
  // a "2" before "0" and a digit is the number's own first digit: no number is printed "≥00…" (a serif "2",
  // whose flat base the scanner's blur parts from its arc, looks like the sign: "200" read "≥00")
  if (chars[0] === '2' && /^0\d/.test(chars.slice(1).join(''))) return r;
  // nor is a sign followed by no digit ("2." — a lone 2 and a speck — is not "≥.")
  if (lookalike && !/\d/.test(chars.slice(1).join(''))) return r;
  const [glyph, next] = leadingGlyphs(img, b);
  const sign = glyph && signShape(img, glyph, chars[0], next);
  if (!glyph || !sign) return r;
  // the character read at the sign: its step's middle inside the glyph (a step is about a sixth of the box height)
  const at = b.x0 + r.charX[0] * (b.x1 - b.x0);
  if (at <= glyph.x1 + (b.y1 - b.y0) / 6) return lookalike ? { ...r, text: sign + chars.slice(1).join('') } : r;
  return { ...r, text: sign + r.text, charConfidence: [1, ...r.charConfidence], charX: [0, ...r.charX] };
}

/** What the recogniser reads for a printed dash between two digits at low resolution: a hyphen's shapes. */
const SHORT_DASHES = new Set(['-', '‐', '‑', '–', '－']);
/**
 * A bar this long (a share of the box height: the detector's box is about 1.75 em high) is a dash, not a hyphen:
 * an em dash measures 0.45–0.55 of the box, a hyphen about 0.2 (see DASH_LENGTH); blur may join a bar to a
 * neighbouring digit's stroke, a few pixels each side.
 */
const RANGE_DASH = 0.38;

/**
 * A dash between two digits decided from its ink, where the recogniser read a hyphen ("00:00—01:00" read
 * "00:00-01:00" in every cell of a 明体 table at 150 dpi, where no cell's reading shows the column prints long
 * dashes): the longest horizontal run of ink through the character's place, in the box's middle half, as long
 * as an em dash makes it "—"; a hyphen ("2026-04-17", "GW4-126") stays. Only cell-length lines.
 */
export function readDigitDashes(img: GreyImage, b: TextBox, r: RecognizedLine): RecognizedLine {
  const chars = [...r.text];
  if (chars.length > 16 || !r.charX || r.charX.length !== chars.length) return r;
  let out: string[] | null = null;
  chars.forEach((ch, i) => {
    if (!SHORT_DASHES.has(ch) || !/\d/.test(chars[i - 1] ?? '') || !/\d/.test(chars[i + 1] ?? '')) return;
    const h = b.y1 - b.y0;
    if (barThrough(img, b, b.x0 + r.charX![i] * (b.x1 - b.x0), h / 6) >= h * RANGE_DASH) (out ??= [...chars])[i] = '—';
  });
  return out ? { ...r, text: (out as string[]).join('') } : r;
}

/**
 * The longest bar through x: a run of ink along one row of the box's middle half passing within `near` pixels of
 * x, counted in the columns that hold no other ink above or below it (beyond a tenth of the box height from
 * its row) — blur joins a hyphen to a neighbouring "4"'s crossbar ("GW4-126"), whose columns hold the 4's
 * upright and diagonal. Ink as `markInk` finds it: the scanner's specks left out (darker than a 明体 dash at
 * 150 dpi, they would set the threshold and stand above or below the bar).
 */
function barThrough(img: GreyImage, b: TextBox, x: number, near: number): number {
  const x0 = Math.max(0, Math.floor(b.x0));
  const x1 = Math.min(img.width, Math.ceil(b.x1));
  const top = Math.max(0, Math.floor(b.y0));
  const bottom = Math.min(img.height, Math.ceil(b.y1));
  const h = b.y1 - b.y0;
  if (x1 - x0 < 2 || bottom - top < 4) return 0;
  const w = x1 - x0;
  const { mask } = markInk(img, x0, top, x1, bottom, h);
  const dark = (xx: number, y: number) => mask[(y - top) * w + xx - x0] === 1;
  const y0 = Math.max(top, Math.floor(b.y0 + h / 4));
  const y1 = Math.min(bottom, Math.ceil(b.y1 - h / 4));
  const lo = Math.max(x0, Math.floor(x - near));
  const hi = Math.min(x1 - 1, Math.ceil(x + near));
  // rows a ruling crosses (ink over most of the box) hold no glyph's ink
  const ruled = ruledRows(dark, x0, x1, top, bottom, 0.6);
  const band = Math.max(2, h / 10);
  const clean = (xx: number, y: number) => {
    for (let yy = top; yy < bottom; yy++) if (!ruled[yy - top] && Math.abs(yy - y) > band && dark(xx, yy)) return false;
    return true;
  };
  let best = 0;
  for (let y = y0; y < y1; y++) {
    let start = -1;
    for (let xx = x0; xx <= x1; xx++) {
      const d = xx < x1 && dark(xx, y);
      if (d && start < 0) start = xx;
      if (!d && start >= 0) {
        // a run reaching the character's place
        if (start <= hi && xx - 1 >= lo) {
          let n = 0;
          for (let c = start; c < xx; c++) if (clean(c, y)) n++;
          best = Math.max(best, n);
        }
        start = -1;
      }
    }
  }
  return best;
}

/** What the recogniser reads for the strokes of a printed Roman numeral Ⅰ–Ⅲ (it also reads Ⅱ as one "1"). */
const ONE_LIKE = /^[1Il|丨!ⅠⅡⅢ]$/u;
const HAN_CHAR = /^[\u3400-\u9fff]$/u;
/** A one-like run read below this (its least sure character) may be a numeral's bars (tuning: 0.45–0.54). */
const UNSURE_ONE = 0.8;

/**
 * "零序过流Ⅱ段" read "零序过流1段" (sans-serif Ⅱ at 150 dpi: two bars read as one "1", at 0.45–0.54): between two
 * Han characters, where the line reads a run of one-like characters, the ink there is counted — two or three
 * separate thin upright bars (each at least 0.4 of the line's ink height tall and at most 0.2 em wide, as wide at its top as at its
 * middle: a "1" has a flag, a Han glyph horizontal strokes) are Ⅱ or Ⅲ, which no digit is. One bar is left to
 * the page's usage (`romanOne`): "电容器1组" prints a one. Not after 第 (an ordinal counts in digits), and only
 * where the run was read unsure (below UNSURE_ONE).
 */
export function readRomanBars(img: GreyImage, b: TextBox, r: RecognizedLine): RecognizedLine {
  const chars = [...r.text];
  if (chars.length > 16 || !r.charX || r.charX.length !== chars.length) return r;
  let out: { chars: string[]; conf: number[]; x: number[] } | null = null;
  for (let i = 1; i < chars.length - 1; i++) {
    if (!ONE_LIKE.test(chars[i]) || !HAN_CHAR.test(chars[i - 1]) || chars[i - 1] === '第') continue;
    let j = i;
    while (j + 1 < chars.length && ONE_LIKE.test(chars[j + 1])) j++;
    if (!HAN_CHAR.test(chars[j + 1] ?? '')) {
      i = j;
      continue;
    }
    const at = b.x0 + ((r.charX[i] + r.charX[j]) / 2) * (b.x1 - b.x0);
    const n = uprightBars(img, b, at);
    const run = chars.slice(i, j + 1);
    // a Roman numeral read twice ("接地距离ⅡⅢ段", Ⅱ 0.49 and Ⅲ 0.80 at one 明体 Ⅲ whose serifs join its bars):
    // no two numerals stand side by side, the surer numeral read is the one
    // ("零序过流Ⅱ1段": a stroke read again as a one, 150 dpi 明体)
    const numerals = run.flatMap((c, k) => (/[ⅡⅢ]/u.test(c) ? [{ c, p: r.charConfidence[i + k] }] : []));
    const surer = run.length > 1 && numerals.length ? numerals.reduce((a, q) => (q.p > a.p ? q : a)).c : null;
    // a numeral the recogniser read as such is left to it (明体 serifs join a Ⅲ's bars: counted two)
    const read = run.some((c) => /[ⅡⅢ]/u.test(c));
    // and a run read surely is what it reads ("东郊11号" in a sans face: two flagged ones, read at 1.0)
    const unsure = Math.min(...r.charConfidence.slice(i, j + 1)) < UNSURE_ONE;
    const roman = !read && unsure && n === 2 ? 'Ⅱ' : !read && unsure && n === 3 ? 'Ⅲ' : surer;
    if (roman && chars.slice(i, j + 1).join('') !== roman) {
      const cur: { chars: string[]; conf: number[]; x: number[] } = out ?? { chars: [...chars], conf: [...r.charConfidence], x: [...r.charX] };
      // positions shift by what earlier replacements removed
      const shift = chars.length - cur.chars.length;
      cur.chars.splice(i - shift, j - i + 1, roman);
      cur.conf.splice(i - shift, j - i + 1, Math.max(...r.charConfidence.slice(i, j + 1)));
      cur.x.splice(i - shift, j - i + 1, (r.charX[i] + r.charX[j]) / 2);
      out = cur;
    }
    i = j;
  }
  if (!out) return r;
  const o = out as { chars: string[]; conf: number[]; x: number[] };
  return { ...r, text: o.chars.join(''), charConfidence: o.conf, confidence: o.conf.reduce((a, c) => a + c, 0) / o.conf.length, charX: o.x, top: undefined };
}

/**
 * Thin upright bars around x in the box: runs of ink columns (ink: darker than halfway from the box's darkest
 * pixel to paper) starting from the run nearest x and taken on while the next run is a bar too and at most
 * 0.35 em away. 0 when the run at x is no bar. The em is the box height over 1.75 (the detector's margin).
 */
function uprightBars(img: GreyImage, b: TextBox, x: number): number {
  const x0 = Math.max(0, Math.floor(b.x0));
  const x1 = Math.min(img.width, Math.ceil(b.x1));
  const y0 = Math.max(0, Math.floor(b.y0));
  const y1 = Math.min(img.height, Math.ceil(b.y1));
  const em = (y1 - y0) / 1.75;
  if (x1 - x0 < 3 || y1 - y0 < 6) return 0;
  let darkest = 255;
  for (let y = y0; y < y1; y++) for (let xx = x0; xx < x1; xx++) darkest = Math.min(darkest, img.data[y * img.width + xx]);
  const ink = Math.min(FAINT_INK, (darkest + 255) / 2);
  const dark = (xx: number, y: number) => img.data[y * img.width + xx] < ink;
  // rows a ruling crosses (dark over most of the box) are left out
  const ruled = ruledRows(dark, x0, x1, y0, y1, 0.6);
  // the line's ink height: rows holding ink (a Han glyph's height; a Roman numeral is half of it or more)
  let inkRows = 0;
  for (let y = y0; y < y1; y++) {
    if (ruled[y - y0]) continue;
    let n = 0;
    for (let xx = x0; xx < x1 && n < 2; xx++) if (dark(xx, y)) n++;
    if (n >= 2) inkRows++;
  }
  const colInk = (xx: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) if (!ruled[y - y0] && dark(xx, y)) n++;
    return n;
  };
  // runs of columns holding two ink pixels or more
  const runs: { a: number; z: number }[] = [];
  for (let xx = x0; xx < x1; xx++) {
    if (colInk(xx) < 2) continue;
    const last = runs.at(-1);
    if (last && last.z === xx - 1) last.z = xx;
    else runs.push({ a: xx, z: xx });
  }
  const isBar = (run: { a: number; z: number }) => {
    if (run.z - run.a + 1 > em * 0.2) return false;
    const widths: number[] = [];
    for (let y = y0; y < y1; y++) {
      if (ruled[y - y0]) continue;
      let n = 0;
      for (let xx = run.a; xx <= run.z; xx++) if (dark(xx, y)) n++;
      if (n) widths.push(n);
    }
    if (widths.length < Math.max(5, inkRows * 0.4)) return false;
    const sorted = [...widths].sort((p, q) => p - q);
    const mid = sorted[Math.floor(sorted.length / 2)];
    // no row much wider than the stem (a "1"'s flag or foot, a Han glyph's strokes); serifs of a 明体 Ⅰ one row each
    return widths.filter((w) => w > mid + 1.5).length <= 2;
  };
  if (!runs.length) return 0;
  let k = 0;
  for (let i = 1; i < runs.length; i++) if (Math.abs((runs[i].a + runs[i].z) / 2 - x) < Math.abs((runs[k].a + runs[k].z) / 2 - x)) k = i;
  if (!isBar(runs[k])) return 0;
  let lo = k;
  let hi = k;
  while (lo > 0 && runs[lo].a - runs[lo - 1].z <= em * 0.35 && isBar(runs[lo - 1])) lo--;
  while (hi + 1 < runs.length && runs[hi + 1].a - runs[hi].z <= em * 0.35 && isBar(runs[hi + 1])) hi++;
  return hi - lo + 1;
}


/**
 * Rows y0..y1 of a box that a ruling crosses: ink (`dark`) over more than `share` of the columns x0..x1. Indexed
 * from y0; the readers of a box's glyphs leave these rows out.
 */
function ruledRows(dark: (x: number, y: number) => boolean, x0: number, x1: number, y0: number, y1: number, share: number): boolean[] {
  const ruled: boolean[] = [];
  for (let y = y0; y < y1; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) if (dark(x, y)) n++;
    ruled.push(n > (x1 - x0) * share);
  }
  return ruled;
}

interface Glyph {
  x0: number;
  x1: number;
  /** rows of the box (rulings inside it left out) */
  y0: number;
  y1: number;
  /**
   * the glyph's ink: a third of the way from its own darkest pixel to paper (a thin typeface's sign is grey
   * 150–200; the scanner's blur leaves grey 150–200 in the gap between a sign's chevron and its bar)
   */
  ink: number;
  /** its first and last rows holding ink */
  top: number;
  bottom: number;
}

/**
 * The box's first two glyphs: pieces of faint ink (FAINT_INK) between blank columns at least a fifth of the box
 * height wide (narrower: a speck, a ruling's halo) and at most four fifths (a sign is about half an em, the
 * box about 1.75 em high); rows and columns a ruling crosses are left out.
 */
function leadingGlyphs(img: GreyImage, b: TextBox): [Glyph | null, Glyph | null] {
  const x0 = Math.max(0, Math.floor(b.x0));
  const x1 = Math.min(img.width, Math.ceil(b.x1));
  const y0 = Math.max(0, Math.floor(b.y0));
  const y1 = Math.min(img.height, Math.ceil(b.y1));
  const h = y1 - y0;
  if (h <= 0 || x1 <= x0) return [null, null];
  const ruled = ruledRows((x, y) => img.data[y * img.width + x] < FAINT_INK, x0, x1, y0, y1, 0.8);
  const inkIn = (x: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) if (!ruled[y - y0] && img.data[y * img.width + x] < FAINT_INK) n++;
    return n > h * 0.8 ? 0 : n;
  };
  const found: Glyph[] = [];
  let end = x0;
  while (found.length < 2) {
    let start = end;
    while (start < x1 && inkIn(start) < 2) start++;
    end = start;
    while (end < x1 && inkIn(end) > 0) end++;
    if (start >= x1) break;
    if (end - start < h * 0.2) continue;
    if (end - start > h * 0.8) break;
    let darkest = 255;
    for (let y = y0; y < y1; y++) for (let x = start; x < end; x++) if (!ruled[y - y0]) darkest = Math.min(darkest, img.data[y * img.width + x]);
    const ink = darkest + (255 - darkest) / 3;
    let top = -1;
    let bottom = -1;
    for (let y = y0; y < y1; y++) {
      if (ruled[y - y0]) continue;
      let dark = false;
      for (let x = start; x < end && !dark; x++) dark = img.data[y * img.width + x] < ink;
      if (!dark) continue;
      if (top < 0) top = y;
      bottom = y;
    }
    if (top < 0) continue;
    found.push({ x0: start, x1: end - 1, y0, y1, ink, top, bottom });
  }
  return [found[0] ?? null, found[1] ?? null];
}

/**
 * "≥" or "≤" from a glyph's ink. Read as a chevron ("<", ">"): the sign when the glyph is as tall as the digit
 * after it (three quarters of its height at least) — a bare chevron stands in the middle of the line, the
 * sign's bar (flat, or slanted as in 明体 "⩽" and 楷体) reaches down to the digits' baseline. Read as anything
 * else: two pieces stacked with blank rows between them (a speck of one or two pixels aside), the lower a bar
 * (at most half as tall as the upper, across at least 0.6 of the glyph's width), the upper a chevron whose
 * rows cross one stroke each, whose top row starts at one side and whose middle row reaches the other (">"
 * left to right, "<" right to left); read "+",
 * the same two pieces with the upper's middle under its top are "±". "2", "s", "$", "+" are one piece; "=" has
 * no tall piece.
 */
function signShape(img: GreyImage, g: Glyph, read: string, next: Glyph | null): '≥' | '≤' | '±' | null {
  const chevron = CHEVRONS[read];
  if (chevron) return next && g.bottom - g.top + 1 >= (next.bottom - next.top + 1) * 0.75 ? chevron : null;
  const rows: { n: number; cx: number; x0: number; x1: number; runs: number }[] = [];
  for (let y = g.top; y <= g.bottom; y++) {
    let n = 0;
    let sx = 0;
    let lo = Infinity;
    let hi = -Infinity;
    // strokes the row crosses: runs of ink apart by two blank pixels or more
    let runs = 0;
    let last = -Infinity;
    for (let x = g.x0; x <= g.x1; x++) {
      if (img.data[y * img.width + x] >= g.ink) continue;
      if (x - last > 2) runs++;
      last = x;
      n++;
      sx += x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    rows.push({ n, cx: n ? sx / n : 0, x0: lo, x1: hi, runs });
  }
  const pieces: (typeof rows)[] = [];
  let cur: typeof rows = [];
  for (const r of rows) {
    if (r.n) cur.push(r);
    else if (cur.length) {
      pieces.push(cur);
      cur = [];
    }
  }
  if (cur.length) pieces.push(cur);
  const solid = pieces.filter((p) => p.reduce((a, r) => a + r.n, 0) > 2);
  if (solid.length !== 2) return null;
  const [upper, lower] = solid;
  const width = g.x1 - g.x0 + 1;
  // a chevron's rows each cross one arm (a "2"'s top arc is crossed twice, a plus's middle row is one bar)
  const oneArm = upper.filter((r) => r.runs >= 2).length <= 1;
  const barWidth = Math.max(...lower.map((r) => r.x1)) - Math.min(...lower.map((r) => r.x0)) + 1;
  if (lower.length * 2 > upper.length || barWidth < width * 0.6) return null;
  const top = upper[0].cx;
  const middle = upper[Math.floor(upper.length / 2)].cx;
  // read "+": a plus over a bar is "±" (its upright keeps the middle under the top)
  if (read === '+' || read === '＋') return Math.abs(middle - top) <= width / 5 ? '±' : null;
  // a chevron's arms start at one side and meet at the other: its top row in the outer 40 % of the glyph on
  // one side, its middle row in the outer 40 % on the other (a 楷体 "2", whose base stroke stands apart, has
  // its top row in the middle)
  const at = (x: number) => (x - g.x0) / Math.max(1, width - 1);
  if (oneArm && at(top) < 0.4 && at(middle) > 0.6) return '≥';
  if (oneArm && at(top) > 0.6 && at(middle) < 0.4) return '≤';
  return null;
}
