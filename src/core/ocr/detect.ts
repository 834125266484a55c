import type { GreyImage } from './image';
import { resize } from './image';
import type { OcrModels } from './models';

/** A text box in image pixels (axis-aligned: pages are levelled before detection). */
export interface TextBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** mean text probability inside the region */
  score: number;
}

export interface DetectOptions {
  /**
   * longest side the detector sees (PaddleOCR's default 960: an A4 page at 0.41 scale, 12-point lines stay
   * 13 px high; 1280 found the same lines at twice the cost)
   */
  maxSide: number;
  /** probability above which a pixel is text */
  pixelThreshold: number;
  /** regions whose mean probability is lower are dropped */
  boxThreshold: number;
  /** DB "unclip": the shrunk text kernel grows by area * ratio / perimeter */
  unclipRatio: number;
}

export const DEFAULT_DETECT: DetectOptions = { maxSide: 960, pixelThreshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.6 };

// ImageNet normalisation the PP-OCR detector was trained with (BGR order as read by OpenCV)
const MEAN = [0.406, 0.456, 0.485];
const STD = [0.225, 0.224, 0.229];

/** The detector's input for a page: the page scaled to fit `maxSide` (multiples of 32), normalised, CHW. */
export interface DetectionInput {
  data: Float32Array;
  width: number;
  height: number;
}

export function detectionInput(img: GreyImage, opts: DetectOptions = DEFAULT_DETECT): DetectionInput {
  const scale = Math.min(1, opts.maxSide / Math.max(img.width, img.height));
  const w = Math.max(32, Math.round((img.width * scale) / 32) * 32);
  const h = Math.max(32, Math.round((img.height * scale) / 32) * 32);
  const small = resize(img, w, h);
  const plane = w * h;
  const data = new Float32Array(plane * 3);
  for (let c = 0; c < 3; c++) {
    const off = c * plane;
    const m = MEAN[c];
    const s = STD[c];
    for (let i = 0; i < plane; i++) data[off + i] = (small.data[i] / 255 - m) / s;
  }
  return { data, width: w, height: h };
}

/** DB text detection: probability map -> connected regions -> boxes in `img` pixels. */
export async function detectText(models: OcrModels, img: GreyImage, opts: DetectOptions = DEFAULT_DETECT): Promise<TextBox[]> {
  return detectPrepared(models, img, detectionInput(img, opts), opts);
}

/** Detection from an input made by `detectionInput(img)` (possibly in another thread). */
export async function detectPrepared(models: OcrModels, img: GreyImage, input: DetectionInput, opts: DetectOptions = DEFAULT_DETECT): Promise<TextBox[]> {
  const { width: w, height: h } = input;
  const { ort, detection } = models;
  const out = await detection.run({ [detection.inputNames[0]]: new ort.Tensor('float32', input.data, [1, 3, h, w]) });
  const prob = out[detection.outputNames[0]].data as Float32Array;
  const boxes = regionsToBoxes(prob, w, h, opts);
  const rx = img.width / w;
  const ry = img.height / h;
  return boxes.map((b) => ({
    x0: Math.max(0, b.x0 * rx),
    y0: Math.max(0, b.y0 * ry),
    x1: Math.min(img.width, b.x1 * rx),
    y1: Math.min(img.height, b.y1 * ry),
    score: b.score,
  }));
}

/** Connected regions (4-neighbour) of the thresholded map, scored and grown back to the full text size. */
export function regionsToBoxes(prob: Float32Array, w: number, h: number, opts: DetectOptions): TextBox[] {
  const label = new Int32Array(w * h);
  const stack: number[] = [];
  const boxes: TextBox[] = [];
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (label[start] || prob[start] <= opts.pixelThreshold) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    let sum = 0;
    let n = 0;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      sum += prob[p];
      n++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x > 0 && !label[p - 1] && prob[p - 1] > opts.pixelThreshold) (label[p - 1] = next), stack.push(p - 1);
      if (x < w - 1 && !label[p + 1] && prob[p + 1] > opts.pixelThreshold) (label[p + 1] = next), stack.push(p + 1);
      if (y > 0 && !label[p - w] && prob[p - w] > opts.pixelThreshold) (label[p - w] = next), stack.push(p - w);
      if (y < h - 1 && !label[p + w] && prob[p + w] > opts.pixelThreshold) (label[p + w] = next), stack.push(p + w);
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    if (Math.min(bw, bh) < 2 || n < 6) continue;
    const score = sum / n;
    if (score < opts.boxThreshold) continue;
    const d = (bw * bh * opts.unclipRatio) / (2 * (bw + bh));
    boxes.push({ x0: x0 - d, y0: y0 - d, x1: x1 + 1 + d, y1: y1 + 1 + d, score });
  }
  return boxes;
}
