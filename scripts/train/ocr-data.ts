/**
 * Training data for the recogniser's fine-tuning (`npm run train:ocr`, step 1 of 3; docs/ocr.md "Fine-tuned
 * recogniser"). Pages of generated tables (ruled and unruled, bold headers, numbers in Latin faces) and of
 * statute lines are printed with pdfkit in the TRAINING faces only (PROTOCOL font split: installed system faces and,
 * since stop 40, the SEALED38/39 npm faces joined into TrueType files — never another npm face; `sealedFace` refuses
 * them), rasterised by pdf.js at 150–300 dpi, degraded like the eval's scans (skew, speckle, blur, JPEG, sometimes
 * binarised; since stop 40 also a scanner's 1-bit threshold, dithered 1-bit and faded modes) and read by the app's own detector and cell boxes
 * (levelPage, detectPrepared, cellBoxes): each box that covers exactly one printed string becomes a sample,
 * cropped and scaled exactly as recognize.ts does. The recogniser (package weights, fused, with an extra
 * output `neck_features`: scripts/fuse-ocr-models.py --features) gives the map the trained layers read and
 * its current reading.
 *
 * Writes DIR/{train,val,train2,train150,train40}.bin (float32 features, samples back to back: 60 x steps each) and DIR/{train,val,train2,train150,train40}.json
 * (per sample: offset, steps, label, the current reading, face, dpi, scan mode). `val` pages use faces training never sees
 * (AR PL SungtiL GB, LXGW WenKai Light, DejaVu Serif Condensed digits): the check of what carries to unseen faces.
 *
 * Usage: tsx scripts/train/ocr-data.ts DIR [trainPages=56] [valPages=10] [train2Pages=0] [train150Pages=0] [train40Pages=0]
 */
import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { sharedDir } from '../../src/core/common/paths';
import { cellBoxes } from '../../src/core/ocr/cells';
import { detectPrepared, DEFAULT_DETECT, type TextBox } from '../../src/core/ocr/detect';
import { crop, greyFromRgba, resize, type GreyImage } from '../../src/core/ocr/image';
import { ocrModelFiles, readOcrDictionary } from '../../src/core/ocr/models';
import { levelPage } from '../../src/core/ocr/read-image';
import { ctcDecodeBest } from '../../src/core/ocr/recognize';
import { bilevel, degrade, encodeJpeg, rasterize } from '../../test/fixtures/scans';
import { mulberry32 } from '../lib/prng';
import { HAN_TRAIN, HAN_VAL, LATIN_TRAIN, LATIN_VAL, sealedFace, tuningNpmFaces, type Face } from './ocr-faces';
import { cellText, statuteLine, statuteSentences, type Rand } from './ocr-strings';

const HEIGHT = 48;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

interface Printed {
  text: string;
  /** what the recogniser should read (printed Ⅰ is read I, ⩽ is read ≤: its dictionary has neither) */
  label: string;
  /** PDF points, top-left origin */
  x: number;
  y: number;
  w: number;
  h: number;
  face: string;
}

interface FontCheck {
  hasGlyphForCodePoint(cp: number): boolean;
}

function registerFace(doc: PDFKit.PDFDocument, f: Face): FontCheck {
  if (sealedFace(f.file, f.family)) throw new Error(`sealed face ${f.file}`);
  doc.registerFont(f.name, f.file, f.family as string);
  doc.font(f.name);
  return (doc as never as { _font: { font: FontCheck } })._font.font;
}

function covered(font: FontCheck, s: string): boolean {
  return [...s].every((c) => c === ' ' || font.hasGlyphForCodePoint(c.codePointAt(0)!));
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
}

/** One A4 page: a table (ruled or not) or statute lines. */
async function page(r: Rand, sentences: string[], han: readonly Face[], latin: readonly Face[], inDict: (s: string) => boolean): Promise<{ pdf: Buffer; printed: Printed[] }> {
  const doc = new PDFDocument({ size: 'A4', margin: 0 });
  const done = collect(doc);
  const hf = pick(r, han.filter((f) => fs.existsSync(f.file)));
  const lf = pick(r, latin.filter((f) => fs.existsSync(f.file)));
  const hanFont = registerFace(doc, hf);
  const latinFont = registerFace(doc, lf);
  const printed: Printed[] = [];
  const size = pick(r, [8, 8.5, 9, 9.5, 10, 10.5, 11, 12]);
  const left = 50 + r() * 20;
  const width = 595 - 2 * left;
  if (r() < 0.7) {
    const ncol = 3 + Math.floor(r() * 5);
    const weights = Array.from({ length: ncol }, () => 0.6 + r());
    const sum = weights.reduce((a, b) => a + b, 0);
    const cols = weights.map((w) => (w / sum) * width);
    const rowH = size * (1.8 + r() * 0.8);
    const ruled = r() < 0.7;
    const latinDigits = r() < 0.5;
    const centred = r() < 0.5;
    doc.lineWidth(0.5 + r() * 0.5);
    let y = 60 + r() * 20;
    let row = 0;
    while (y + rowH < 800) {
      let x = left;
      const bold = row === 0 && r() < 0.5;
      for (let c = 0; c < ncol; c++) {
        if (ruled) doc.rect(x, y, cols[c], rowH).stroke();
        if (r() < 0.9) {
          for (let tries = 0; tries < 6; tries++) {
            const { text, label } = cellText(r, sentences);
            if (!inDict(label)) continue;
            // a cell with no Han character is set in the Latin face when that face has all its characters (Word's
            // Times New Roman / Arial numbers, signs and units beside the Chinese face)
            const useLatin = latinDigits && !/[\u3000-\u9fff\uff00-\uffef]/.test(text) && covered(latinFont, text);
            if (!useLatin && !covered(hanFont, text)) continue;
            doc.font(useLatin ? lf.name : hf.name).fontSize(size);
            const tw = doc.widthOfString(text);
            if (tw > cols[c] - 8) continue;
            const tx = centred ? x + (cols[c] - tw) / 2 : x + 4;
            const ty = y + (rowH - size) / 2 - 1;
            if (bold) doc.lineWidth(size / 30);
            doc.text(text, tx, ty, { lineBreak: false, ...(bold ? { fill: true, stroke: true } : {}) });
            if (bold) doc.lineWidth(0.5);
            printed.push({ text, label, x: tx, y: ty, w: tw, h: size, face: useLatin ? lf.name : hf.name });
            break;
          }
        }
        x += cols[c];
      }
      if (!ruled && row === 0) doc.moveTo(left, y + rowH + 1).lineTo(left + width, y + rowH + 1).stroke();
      y += rowH + (ruled ? 0 : 2);
      row++;
    }
  } else {
    const lineSize = Math.max(size, 10);
    doc.font(hf.name).fontSize(lineSize);
    const perLine = Math.floor(width / lineSize);
    let y = 70;
    while (y < 780) {
      for (let tries = 0; tries < 6; tries++) {
        const text = statuteLine(r, sentences, Math.max(6, perLine - Math.floor(r() * 4)));
        if (!inDict(text) || !covered(hanFont, text)) continue;
        const tw = doc.widthOfString(text);
        if (tw > width) continue;
        doc.text(text, left, y, { lineBreak: false });
        printed.push({ text, label: text, x: left, y, w: tw, h: lineSize, face: hf.name });
        break;
      }
      y += lineSize * (1.5 + r() * 0.4);
    }
  }
  doc.end();
  return { pdf: await done, printed };
}

/**
 * How a training page is scanned (stop 40: SEALED39 showed the package failing on a scanner's 1-bit and faded modes):
 * `grey` as before (skew, speckle, blur, JPEG, 15 % of them binarised); `threshold` a 1-bit scan at a random threshold
 * (stored losslessly, as a 1-bit scan is); `dither` a Floyd–Steinberg 1-bit scan of a page lightened or darkened at
 * random; `faded` a low-contrast copy on uneven paper, blurred, JPEG.
 */
export type ScanMode = 'grey' | 'threshold' | 'dither' | 'faded';
const MODES: ScanMode[] = ['threshold', 'dither', 'faded'];

async function scanned(r: Rand, img: GreyImage, seed: number, modeShare: number): Promise<{ img: GreyImage; skew: number; mode: ScanMode }> {
  const skew = (r() * 2 - 1) * 1;
  const mode: ScanMode = r() < modeShare ? pick(r, MODES) : 'grey';
  let out: GreyImage;
  if (mode === 'threshold' || mode === 'dither') {
    out = degrade(img, { skew, speckle: pick(r, [0, 0, 0.001, 0.002]), blur: pick(r, [0, 1]), seed });
    if (mode === 'threshold') {
      const t = 100 + r() * 90;
      return { img: { ...out, data: out.data.map((v) => (v < t ? 0 : 255)) }, skew, mode };
    }
    // a gamma in [0.6, 1.6] before the error diffusion: lighter or darker strokes, thinner or fuller dot patterns
    const g = 0.6 + r();
    return { img: bilevel({ ...out, data: out.data.map((v) => 255 * Math.pow(v / 255, g)) }, 'dither'), skew, mode };
  }
  if (mode === 'faded') out = degrade(img, { skew, fade: true, blur: pick(r, [0, 1, 1, 2]), seed });
  else {
    out = degrade(img, { skew, speckle: pick(r, [0, 0.001, 0.002, 0.003, 0.005]), blur: pick(r, [0, 1, 1, 2]), seed });
    if (r() < 0.15) {
      const t = 140 + r() * 60;
      out = { ...out, data: out.data.map((v) => (v < t ? 0 : 255)) };
    }
  }
  const jpeg = encodeJpeg(out, mode === 'faded' ? pick(r, [50, 60, 75, 85]) : pick(r, [35, 50, 60, 70, 80, 90]));
  const image = await loadImage(jpeg);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return { img: greyFromRgba(ctx.getImageData(0, 0, image.width, image.height).data, image.width, image.height), skew, mode };
}

/** The printed string a detected box covers: exactly one, and all of it. */
function match(b: TextBox, printed: Printed[], scale: number): Printed | null {
  const hits = printed.filter((p) => {
    const cx = (p.x + p.w / 2) * scale;
    const cy = (p.y + p.h / 2) * scale;
    return cx > b.x0 && cx < b.x1 && cy > b.y0 && cy < b.y1;
  });
  if (hits.length !== 1) return null;
  const p = hits[0];
  const slack = p.h * scale * 0.35;
  if (b.x0 > p.x * scale + slack || b.x1 < (p.x + p.w) * scale - slack) return null;
  // no other string's ink inside the box
  const other = printed.some((q) => q !== p && q.x * scale < b.x1 - slack && (q.x + q.w) * scale > b.x0 + slack && q.y * scale < b.y1 - slack && (q.y + q.h) * scale > b.y0 + slack);
  return other ? null : p;
}

interface Sample {
  off: number;
  steps: number;
  label: string;
  old: string;
  face: string;
  dpi: number;
  mode: ScanMode;
}

async function main(): Promise<void> {
  const [dir, trainArg, valArg, moreArg, lowArg, modesArg] = process.argv.slice(2);
  if (!dir) throw new Error('usage: tsx scripts/train/ocr-data.ts DIR [trainPages] [valPages] [train2Pages] [train150Pages] [train40Pages]');
  fs.mkdirSync(dir, { recursive: true });
  const featuresModel = path.join(dir, 'rec_features.onnx');
  if (!fs.existsSync(featuresModel)) throw new Error(`${featuresModel} missing: /usr/bin/python3 scripts/fuse-ocr-models.py --features ${featuresModel}`);
  const ort = await import('onnxruntime-node');
  const options = { graphOptimizationLevel: 'all' as const, intraOpNumThreads: 1, enableCpuMemArena: false };
  const files = ocrModelFiles();
  const models = {
    ort,
    detection: await ort.InferenceSession.create(files.detection, options),
    recognition: await ort.InferenceSession.create(featuresModel, options),
    dictionary: readOcrDictionary(files.dictionary),
  };
  const dict = new Set(models.dictionary);
  const inDict = (s: string) => [...s].every((c) => dict.has(c));
  const sentences = statuteSentences(path.join(sharedDir(), 'data', 'laws'), mulberry32(11));
  console.log(`${sentences.length} statute lines`);
  // stop 40: the SEALED38/39 npm faces are tuning (PROTOCOL font split) and train, joined into TrueType files
  const npmFaces = await tuningNpmFaces();
  console.log(`tuning npm faces: ${npmFaces.map((f) => f.name).join(' ') || 'none installed'}`);
  for (const [split, pages, han, latin, seed, modeShare, dpis] of [
    ['train', Number(trainArg ?? 56), [...HAN_TRAIN, ...npmFaces], LATIN_TRAIN, 1, 0.3, [150, 150, 200, 200, 250, 300]],
    ['val', Number(valArg ?? 10), HAN_VAL, LATIN_VAL, 2, 0.5, [150, 150, 200, 200, 250, 300]],
    // more training pages from another seed, made by a second process at the same time
    ['train2', Number(moreArg ?? 0), [...HAN_TRAIN, ...npmFaces], LATIN_TRAIN, 3, 0.3, [150, 150, 200, 200, 250, 300]],
    // stop 38: 150 dpi pages as their own slice (v3b lost rows at 150 dpi only: lone "0" read as nothing, a speck
    // read as a unit letter): a photocopy scanned at 150 dpi, every page
    ['train150', Number(lowArg ?? 0), [...HAN_TRAIN, ...npmFaces], LATIN_TRAIN, 4, 0.3, [150]],
    // stop 40: the scanner's 1-bit / dithered / faded modes at 150 and 200 dpi, in the tuning npm faces and the rest
    ['train40', Number(modesArg ?? 0), [...npmFaces, ...npmFaces, ...HAN_TRAIN], LATIN_TRAIN, 5, 0.8, [150, 200]],
  ] as const) {
    // a split asked for 0 pages is left as it is (the two splits can be made by two processes at once)
    if (!pages) continue;
    const r = mulberry32(seed * 1000 + 7);
    const bin = fs.openSync(path.join(dir, `${split}.bin`), 'w');
    const samples: Sample[] = [];
    let off = 0;
    let printedCount = 0;
    for (let n = 0; n < pages; n++) {
      const { pdf, printed } = await page(r, sentences, han, latin, inDict);
      printedCount += printed.length;
      const dpi = pick(r, dpis);
      const [raster] = await rasterize(pdf, dpi);
      const { img, mode } = await scanned(r, raster, seed * 100000 + n, modeShare);
      const lp = levelPage(img, dpi);
      const boxes = cellBoxes(await detectPrepared(models, lp.level, lp.detection, DEFAULT_DETECT), lp.rulings, lp.level);
      const scale = dpi / 72;
      for (const b of boxes) {
        if ((b as { bar?: true }).bar) continue;
        const p = match(b, printed, scale);
        if (!p) continue;
        const line = crop(lp.level, b.x0, b.y0, b.x1, b.y1);
        const w = Math.min(3200, Math.max(16, Math.round((line.width * HEIGHT) / line.height)));
        const input = resize(line, w, HEIGHT);
        const width = Math.ceil(w / 8) * 8;
        const data = new Float32Array(3 * HEIGHT * width);
        for (let c = 0; c < 3; c++) for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < w; x++) data[c * HEIGHT * width + y * width + x] = input.data[y * w + x] / 127.5 - 1;
        const out = await models.recognition.run({ [models.recognition.inputNames[0]]: new ort.Tensor('float32', data, [1, 3, HEIGHT, width]) });
        const feats = out.neck_features;
        const steps = feats.dims[3];
        const old = ctcDecodeBest(out.best_class.data as BigInt64Array, out.best_prob.data as Float32Array, 0, out.best_class.dims[1], models.dictionary).text;
        fs.writeSync(bin, Buffer.from((feats.data as Float32Array).buffer, (feats.data as Float32Array).byteOffset, steps * 60 * 4));
        samples.push({ off, steps, label: p.label, old, face: p.face, dpi, mode });
        off += steps * 60;
      }
      if ((n + 1) % 10 === 0) {
        const right = samples.filter((s) => s.old === s.label).length;
        console.log(`${split} page ${n + 1}/${pages}: ${samples.length} samples of ${printedCount} printed, package reads ${((100 * right) / samples.length).toFixed(1)} % exactly`);
      }
    }
    fs.closeSync(bin);
    fs.writeFileSync(path.join(dir, `${split}.json`), JSON.stringify(samples));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
