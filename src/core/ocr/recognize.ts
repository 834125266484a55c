import { crop, resize, type GreyImage } from './image';
import type { TextBox } from './detect';
import type { OcrModels } from './models';

export interface RecognizedLine {
  text: string;
  /** mean probability of the characters read (0..1) */
  confidence: number;
  /** per character probability, same order as text's code points */
  charConfidence: number[];
  /**
   * where each character was read, as a share of the line image's width (the middle of its CTC step; the
   * step is 8 input pixels, a third of a Han character): lets a character be looked at in the image
   */
  charX?: number[];
  /**
   * the recogniser's runners-up (fused model only): each CTC step's `k` most probable classes and their
   * probabilities, best first, and the step each character was read at — for re-reading under a constraint
   * (reread.ts). Stays in the ONNX thread.
   */
  top?: TopClasses;
}

/** Per CTC step, the k most probable classes (class 0 the blank, class i dictionary[i - 1]), best first. */
export interface TopClasses {
  k: number;
  steps: number;
  classes: Int32Array;
  probs: Float32Array;
  /** the step each character of the text was read at */
  charStep: number[];
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
    // the fused model (resources/ocr) gives each step's best class and its probability; the package's gives the whole table
    const best = out.best_class;
    if (best) {
      const steps = best.dims[1];
      const classes = best.data as BigInt64Array;
      const probs = out.best_prob.data as Float32Array;
      const top = out.top_class;
      batch.forEach((idx, k) => {
        const line = ctcDecodeBest(classes, probs, k * steps, steps, models.dictionary);
        if (top) line.top = topOf(top.data as BigInt64Array, out.top_prob.data as Float32Array, k, steps, top.dims[2], line.charX!);
        results[idx] = placed(line, width / steps / inputs[idx].width);
      });
      return;
    }
    const t = out[recognition.outputNames[0]];
    const [, steps, classes] = t.dims as number[];
    const probs = t.data as Float32Array;
    batch.forEach((idx, k) => {
      results[idx] = placed(ctcDecode(probs, k * steps * classes, steps, classes, models.dictionary), width / steps / inputs[idx].width);
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

/** One batch entry's top-k table out of the model's outputs. */
function topOf(classes: BigInt64Array, probs: Float32Array, entry: number, steps: number, k: number, charStep: number[]): TopClasses {
  const from = entry * steps * k;
  const c = new Int32Array(steps * k);
  for (let i = 0; i < c.length; i++) c[i] = Number(classes[from + i]);
  return { k, steps, classes: c, probs: probs.slice(from, from + steps * k), charStep: [...charStep] };
}

/** Character steps (`charX` as decoded: step numbers) -> shares of the line's width (`perStep`: one step's share). */
function placed(line: RecognizedLine, perStep: number): RecognizedLine {
  return line.charX ? { ...line, charX: line.charX.map((s) => (s + 0.5) * perStep) } : line;
}

/** Greedy CTC over the whole probability table: best class per step (the first of equals), then `collapse`. */
export function ctcDecode(probs: Float32Array, offset: number, steps: number, classes: number, dictionary: string[]): RecognizedLine {
  const best = new Int32Array(steps);
  const bestP = new Float32Array(steps);
  for (let s = 0; s < steps; s++) {
    const base = offset + s * classes;
    let b = 0;
    let p = probs[base];
    for (let c = 1; c < classes; c++) {
      if (probs[base + c] > p) {
        p = probs[base + c];
        b = c;
      }
    }
    best[s] = b;
    bestP[s] = p;
  }
  return collapse((s) => best[s], (s) => bestP[s], steps, dictionary);
}

/** Greedy CTC from each step's best class and probability (the fused model's outputs). */
export function ctcDecodeBest(classes: BigInt64Array, probs: Float32Array, offset: number, steps: number, dictionary: string[]): RecognizedLine {
  return collapse((s) => Number(classes[offset + s]), (s) => probs[offset + s], steps, dictionary);
}

/** Repeats collapsed, blanks (class 0) dropped; class i is dictionary[i - 1]. */
function collapse(classAt: (s: number) => number, probAt: (s: number) => number, steps: number, dictionary: string[]): RecognizedLine {
  let text = '';
  const conf: number[] = [];
  const at: number[] = [];
  let prev = -1;
  for (let s = 0; s < steps; s++) {
    const best = classAt(s);
    if (best !== 0 && best !== prev) {
      text += dictionary[best - 1] ?? '';
      conf.push(probAt(s));
      at.push(s);
    }
    prev = best;
  }
  const confidence = conf.length ? conf.reduce((a, b) => a + b, 0) / conf.length : 0;
  return { text, confidence, charConfidence: conf, charX: at };
}
