import { crop, resize, type GreyImage } from './image';
import type { TextBox } from './detect';
import type { OcrModels } from './models';

export interface RecognizedLine {
  text: string;
  /** mean probability of the characters read (0..1) */
  confidence: number;
  /** per character probability, same order as text's code points */
  charConfidence: number[];
  /** per character, the classes the model ranked next at that step (up to 3, probability > 0.001): cells.ts weighs them */
  alternatives?: { ch: string; p: number }[][];
}

const HEIGHT = 48;

export interface RecognizeOptions {
  /**
   * lines of similar width share a model run up to this many input pixels (padded to the widest). Measured
   * on 200 dpi statute pages: one line per run took 0.3 CPU s a page less than batches of 48×2400 pixels
   * (2.92 vs 3.20 s for detection + recognition) and the model's cost per input column is flat from 320 px
   * wide up, so batching saves nothing: 0, every line alone.
   */
  batchPixels: number;
  maxWidth: number;
  /**
   * horizontal scale of the line image (the model's cost grows with its width). Squeezing to 0.65 cut a
   * third of the time at the same accuracy on statute text, but half-width digits then get about two CTC
   * steps each and a repeated digit collapses ("220kV" read "20kV" in scanned tables): kept at 1.
   */
  squeeze: number;
  /** model runs in flight at once (onnxruntime-node runs a session synchronously: 1) */
  concurrency: number;
}

export const DEFAULT_RECOGNIZE: RecognizeOptions = { batchPixels: 0, maxWidth: 3200, squeeze: 1, concurrency: 1 };

/**
 * CTC recognition of text boxes, one model run per line (or lines of similar length in one padded batch
 * when `batchPixels` allows).
 */
export async function recognizeBoxes(
  models: OcrModels,
  img: GreyImage,
  boxes: TextBox[],
  options: RecognizeOptions = DEFAULT_RECOGNIZE,
): Promise<RecognizedLine[]> {
  const inputs = boxes.map((b) => {
    const line = crop(img, b.x0, b.y0, b.x1, b.y1);
    const width = Math.min(options.maxWidth, Math.max(16, Math.round((line.width * HEIGHT * options.squeeze) / line.height)));
    return resize(line, width, HEIGHT);
  });
  const order = inputs.map((_, i) => i).sort((a, b) => inputs[a].width - inputs[b].width);
  const batches: number[][] = [];
  let i = 0;
  while (i < order.length) {
    // take lines while the padded batch stays under the pixel budget
    let j = i + 1;
    while (j < order.length && inputs[order[j]].width * (j - i + 1) * HEIGHT <= options.batchPixels) j++;
    batches.push(order.slice(i, j));
    i = j;
  }
  const results: RecognizedLine[] = new Array(boxes.length);
  const runBatch = async (batch: number[]) => {
    const width = Math.ceil(inputs[batch.at(-1)!].width / 8) * 8;
    const plane = HEIGHT * width;
    const data = new Float32Array(batch.length * 3 * plane);
    batch.forEach((idx, k) => {
      const line = inputs[idx];
      for (let c = 0; c < 3; c++) {
        const off = (k * 3 + c) * plane;
        // padding stays 0 in normalised space, as PaddleOCR pads
        for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < line.width; x++) data[off + y * width + x] = line.data[y * line.width + x] / 127.5 - 1;
      }
    });
    const { ort, recognition } = models;
    const out = await recognition.run({ [recognition.inputNames[0]]: new ort.Tensor('float32', data, [batch.length, 3, HEIGHT, width]) });
    const t = out[recognition.outputNames[0]];
    const [, steps, classes] = t.dims as number[];
    const probs = t.data as Float32Array;
    batch.forEach((idx, k) => {
      results[idx] = ctcDecode(probs, k * steps * classes, steps, classes, models.dictionary);
    });
  };
  // longest first, so the last run in flight is a short one
  const queue = batches.reverse();
  const lanes = Array.from({ length: Math.max(1, options.concurrency) }, async () => {
    for (let b = queue.shift(); b; b = queue.shift()) await runBatch(b);
  });
  await Promise.all(lanes);
  return results;
}

/** Greedy CTC: best class per step, repeats collapsed, blanks (class 0) dropped. */
export function ctcDecode(probs: Float32Array, offset: number, steps: number, classes: number, dictionary: string[]): RecognizedLine {
  let text = '';
  const conf: number[] = [];
  const alternatives: { ch: string; p: number }[][] = [];
  let prev = -1;
  for (let s = 0; s < steps; s++) {
    const base = offset + s * classes;
    let best = 0;
    let bestP = probs[base];
    for (let c = 1; c < classes; c++) {
      const p = probs[base + c];
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      text += dictionary[best - 1] ?? '';
      conf.push(bestP);
      alternatives.push(runnersUp(probs, base, classes, best, dictionary));
    }
    prev = best;
  }
  const confidence = conf.length ? conf.reduce((a, b) => a + b, 0) / conf.length : 0;
  return { text, confidence, charConfidence: conf, alternatives };
}

/** The three most probable other characters (not the blank) at one CTC step, above 0.001. */
function runnersUp(probs: Float32Array, base: number, classes: number, best: number, dictionary: string[]): { ch: string; p: number }[] {
  const top: { c: number; p: number }[] = [];
  for (let c = 1; c < classes; c++) {
    const p = probs[base + c];
    if (c === best || p <= 0.001 || (top.length === 3 && p <= top[2].p)) continue;
    top.push({ c, p });
    top.sort((a, b) => b.p - a.p);
    if (top.length > 3) top.pop();
  }
  return top.map(({ c, p }) => ({ ch: dictionary[c - 1] ?? '', p }));
}
