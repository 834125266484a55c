import { estimateSkew } from './deskew';
import { cellBoxes, INK_CELL_CONFIDENCE, inkBox, medianHeight, readCellBox, readDigitDashes, readRomanBars, readSign, type CellBox } from './cells';
import { DEFAULT_DETECT, detectPrepared, detectionInput, type DetectionInput, type TextBox } from './detect';
import { resize, rotate, type GreyImage } from './image';
import type { OcrModels } from './models';
import { recognizeBoxes, type RecognizedLine } from './recognize';
import { rereadLines, romanOne } from './reread';
import { detectRulings, type ImageRuling } from './rulings';
import type { OcrPageLine } from './types';

/** One recognised line; here the box is in the page image's pixels as scanned (before levelling). */
export type OcrLine = OcrPageLine;

export interface OcrImageResult {
  lines: OcrLine[];
  /** degrees the page was levelled by */
  skew: number;
  /** table ruling lines on the levelled page (pixels from its top-left corner) */
  rulings: ImageRuling[];
  ms: { deskew: number; detect: number; recognize: number };
}

/** Lines whose characters average below this are noise (speckle, rules, stamps), not text. */
const MIN_LINE_CONFIDENCE = 0.5;

/**
 * A page image levelled and ready for the models: everything before detection, plain JS (it runs in the
 * page-preparation thread while ONNX Runtime reads the previous page). Crosses threads as plain data.
 */
export interface LevelledPage {
  /** the page levelled by `skew` degrees */
  level: GreyImage;
  /** size of the page image as scanned (line boxes are mapped back onto it) */
  width: number;
  height: number;
  skew: number;
  rulings: ImageRuling[];
  /** the detector's input for `level` */
  detection: DetectionInput;
  ms: number;
}

/** Skew estimate, levelling, table rulings and the detector's input: no model needed. */
export function levelPage(page: GreyImage, dpi = 200): LevelledPage {
  const t = performance.now();
  const probeScale = Math.min(1, 1000 / Math.max(page.width, page.height));
  const skew = estimateSkew(resize(page, page.width * probeScale, page.height * probeScale));
  // below a tenth of a degree levelling changes nothing a line box would notice
  const level = Math.abs(skew) >= 0.1 ? rotate(page, skew) : page;
  const rulings = detectRulings(level, dpi);
  const detection = detectionInput(level, DEFAULT_DETECT);
  return { level, width: page.width, height: page.height, skew, rulings, detection, ms: performance.now() - t };
}

/** Page image -> text lines in reading order: level, detect, recognise. */
export async function readImage(models: OcrModels, page: GreyImage, dpi = 200): Promise<OcrImageResult> {
  return readLevelled(models, levelPage(page, dpi));
}

/** Detection and recognition on a levelled page (the ONNX thread's part). */
export async function readLevelled(models: OcrModels, page: LevelledPage): Promise<OcrImageResult> {
  const { level, skew } = page;
  let t = performance.now();
  const boxes = readingOrder(cellBoxes(await detectPrepared(models, level, page.detection, DEFAULT_DETECT), page.rulings, level));
  const detectMs = performance.now() - t;
  t = performance.now();
  const raw = await rereadLoneMarks(models, level, boxes, page.rulings, await recognizeBoxes(models, level, boxes));
  const read = romanOne(rereadLines(raw.map((r, i) => readRomanBars(level, boxes[i], r)), models.dictionary));
  const recognizeMs = performance.now() - t;
  const lines: OcrLine[] = [];
  boxes.forEach((b, i) => {
    const r = dropTrailingSpeck(readDigitDashes(level, b, readSign(level, b, readCellBox(b, read[i]))));
    const text = fixLookalikes(fixUnits(r.text.trim()));
    if (!text || r.confidence < MIN_LINE_CONFIDENCE) return;
    if (b.ink && Math.min(...r.charConfidence) < INK_CELL_CONFIDENCE) return;
    const ink = inkShare(level, b);
    lines.push({ text, confidence: r.confidence, min_confidence: Math.min(...r.charConfidence), ...unrotateBox(b, skew, page.width, page.height), ...(ink ? { ink } : {}) });
  });
  return { lines, skew, rulings: page.rulings, ms: { deskew: page.ms, detect: detectMs, recognize: recognizeMs } };
}

/**
 * A short box (a lone mark: at most two text heights wide, read as one character or none) read below
 * MIN_LINE_CONFIDENCE is read again on its
 * mark's tight ink (`inkBox`); the new reading replaces the old only when every character of it passes the
 * pipeline's low-confidence bound (INK_CELL_CONFIDENCE). A longer reading is left to the re-reading rules (a
 * sign read unsure before a digit, "$1", is the column's "±" there; read alone on its ink it lost the sign).
 */
async function rereadLoneMarks(models: OcrModels, level: GreyImage, boxes: CellBox[], rulings: ImageRuling[], read: RecognizedLine[]): Promise<RecognizedLine[]> {
  const textH = medianHeight(boxes);
  if (!textH) return read;
  const again = boxes.map((b, i) => (!b.bar && !b.ink && b.x1 - b.x0 <= textH * 2 && [...read[i].text.trim()].length <= 1 && read[i].confidence < MIN_LINE_CONFIDENCE ? inkBox(level, b, rulings, textH) : null));
  const which = again.flatMap((b, i) => (b ? [i] : []));
  if (!which.length) return read;
  const second = await recognizeBoxes(models, level, which.map((i) => again[i]!));
  const out = [...read];
  which.forEach((i, k) => {
    const r = second[k];
    if (r.text.trim() && r.confidence >= MIN_LINE_CONFIDENCE && Math.min(...r.charConfidence) >= INK_CELL_CONFIDENCE) out[i] = r;
  });
  return out;
}

/** Marks a speck beside a line's end is read as. */
const SPECK_MARKS = new Set(['°', '-', '·', "'", '`', '˙', '.', ',', '"', '“', '”', '‘', '’']);
/** Lines this short are table cells and labels; running text (about 35 characters a line) keeps its marks ("，", quotes). */
const CELL_CHARS = 16;
/**
 * The recogniser's probability below which a mark ending a line is a speck, not print: on the tuning table
 * scans specks after a cell ("11:00—12:00°", "16:00—17:00-") were read at 0.25–0.50, printed marks at 0.9 and
 * more.
 */
const SPECK_CONFIDENCE = 0.6;

/**
 * A short line's last characters dropped when they are marks read unsure after a digit or a Han character
 * ("20°." at 0.19 and 0.53: two specks). A mark is one of SPECK_MARKS, or any mark whose runner-up is no
 * character (blank).
 */
export function dropTrailingSpeck(r: RecognizedLine): RecognizedLine {
  const chars = [...r.text];
  const n = chars.length;
  if (n < 2 || n > CELL_CHARS) return r;
  const speck = (i: number) => (SPECK_MARKS.has(chars[i]) || (!/[\p{L}\p{N}]/u.test(chars[i]) && blankRunnerUp(r, i))) && r.charConfidence[i] < SPECK_CONFIDENCE;
  let keep = n;
  while (keep > 1 && speck(keep - 1)) keep--;
  if (keep === n || !/[\d\u4e00-\u9fff]/.test(chars[keep - 1])) return r;
  const charConfidence = r.charConfidence.slice(0, keep);
  return { ...r, text: chars.slice(0, keep).join(''), charConfidence, confidence: charConfidence.reduce((a, c) => a + c, 0) / charConfidence.length, ...(r.charX ? { charX: r.charX.slice(0, keep) } : {}) };
}

/**
 * The recogniser's second choice for character `i` is no character at all (the CTC blank): any mark read
 * unsure that way is as likely a speck ("Y5WZ-17/45*": "*" 0.34, blank 0.22), whatever mark it was read as.
 */
function blankRunnerUp(r: RecognizedLine, i: number): boolean {
  const t = r.top;
  if (!t || t.charStep.length !== [...r.text].length) return false;
  return t.classes[t.charStep[i] * t.k + 1] === 0;
}

/**
 * Electrical units after a number are printed kV / kA / kW / kVA; the recogniser often reads the small k as
 * a capital ("220KV"). Only right after digits, where K is never meant.
 */
export function fixUnits(text: string): string {
  return text.replace(/(\d)\s?K(V|A|W|VA|var|Wh)(?![A-Za-z])/g, '$1k$2');
}

/**
 * The recogniser's dictionary holds the radical 丶, drawn like the enumeration comma 、 and read for it in
 * about one line in ten of scanned statutes; as a character of its own it does not occur in regulation text.
 */
export function fixLookalikes(text: string): string {
  return text.replace(/丶/g, '、');
}

/** Top to bottom, boxes whose vertical middles overlap are one row, read left to right. */
function readingOrder<T extends TextBox>(boxes: T[]): T[] {
  const sorted = [...boxes].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const rows: T[][] = [];
  for (const b of sorted) {
    const mid = (b.y0 + b.y1) / 2;
    const row = rows.at(-1);
    if (row && row.some((r) => mid > r.y0 && mid < r.y1)) row.push(b);
    else rows.push([b]);
  }
  return rows.flatMap((r) => r.sort((a, b) => a.x0 - b.x0));
}

/** A box found on the levelled page -> the bounding box of its corners on the page as scanned. */
function unrotateBox(b: TextBox, degrees: number, width: number, height: number): Omit<OcrLine, 'text' | 'confidence' | 'min_confidence'> {
  if (Math.abs(degrees) < 0.1) return { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
  const t = (degrees * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const cx = width / 2;
  const cy = height / 2;
  const pts = [
    [b.x0, b.y0],
    [b.x1, b.y0],
    [b.x0, b.y1],
    [b.x1, b.y1],
  ].map(([x, y]) => [cos * (x - cx) - sin * (y - cy) + cx, sin * (x - cx) + cos * (y - cy) + cy]);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { x0: Math.max(0, Math.min(...xs)), y0: Math.max(0, Math.min(...ys)), x1: Math.min(width, Math.max(...xs)), y1: Math.min(height, Math.max(...ys)) };
}

/**
 * Where a box's print starts and ends, as shares of its width. Print is grey 30 below the box's paper (its 80th
 * percentile: a photocopy's paper is 205–245, a faint 明体 dash 150–200 on white), in the middle three fifths of
 * its height (a ruling touching the box's top or bottom edge left out). The detector pads a box by about a third
 * of its height: a run of print inside that padding, apart from the rest by a fifth of the height, is a
 * neighbouring cell's glyph the box reaches over, not the box's. Null for a box with no print.
 */
export function inkShare(img: GreyImage, b: TextBox): [number, number] | null {
  const w = b.x1 - b.x0;
  if (w <= 0) return null;
  const h = b.y1 - b.y0;
  const y0 = Math.max(0, Math.floor(b.y0 + h / 5));
  const y1 = Math.min(img.height, Math.ceil(b.y1 - h / 5));
  const x0 = Math.max(0, Math.floor(b.x0));
  const x1 = Math.min(img.width, Math.ceil(b.x1));
  if (x1 <= x0 || y1 <= y0) return null;
  const hist = new Uint32Array(256);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) hist[img.data[y * img.width + x]]++;
  let seen = 0;
  let paper = 255;
  const need = (x1 - x0) * (y1 - y0) * 0.8;
  for (let v = 0; v < 256; v++) {
    seen += hist[v];
    if (seen >= need) {
      paper = v;
      break;
    }
  }
  const print = paper - 30;
  const runs: [number, number][] = [];
  for (let x = x0; x < x1; x++) {
    let printed = false;
    for (let y = y0; y < y1 && !printed; y++) printed = img.data[y * img.width + x] < print;
    if (!printed) continue;
    const last = runs.at(-1);
    if (last && x - last[1] <= h / 8) last[1] = x + 1;
    else runs.push([x, x + 1]);
  }
  if (!runs.length) return null;
  const pad = h * 0.45;
  const apart = h / 5;
  while (runs.length > 1 && runs[0][1] <= b.x0 + pad && runs[1][0] - runs[0][1] >= apart) runs.shift();
  while (runs.length > 1 && runs[runs.length - 1][0] >= b.x1 - pad && runs[runs.length - 1][0] - runs[runs.length - 2][1] >= apart) runs.pop();
  const share = (x: number) => Math.min(1, Math.max(0, (x - b.x0) / w));
  return [share(runs[0][0]), share(runs[runs.length - 1][1])];
}
