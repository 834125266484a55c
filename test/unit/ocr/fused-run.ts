// Child process for fused-models.test.ts (onnxruntime-node may be used by one thread per process only):
// reads a real scanned page with the package's PP-OCRv4 files and with the fused copies in resources/ocr (or the
// directory given after the image),
// through the app's own detection and recognition stages, and prints both results as JSON.
import fs from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import * as ort from 'onnxruntime-node';
import { detectText } from '../../../src/core/ocr/detect';
import { greyFromRgba } from '../../../src/core/ocr/image';
import { fusedOcrModelFiles, packagedOcrModelFiles, readOcrDictionary, type OcrModels } from '../../../src/core/ocr/models';
import { recognizeBoxes } from '../../../src/core/ocr/recognize';

const [imageFile, fusedDir] = process.argv.slice(2);
const img = await loadImage(fs.readFileSync(imageFile));
const canvas = createCanvas(img.width, img.height);
const ctx = canvas.getContext('2d');
ctx.drawImage(img, 0, 0);
const page = greyFromRgba(ctx.getImageData(0, 0, img.width, img.height).data, img.width, img.height);

const packaged = packagedOcrModelFiles();
const fused = fusedOcrModelFiles(fusedDir);
if (!fused) throw new Error('resources/ocr does not match its manifest');
const dictionary = readOcrDictionary(packaged.dictionary);

async function read(files: { detection: string; recognition: string }) {
  const options = { graphOptimizationLevel: 'all' as const, intraOpNumThreads: 1 };
  const models: OcrModels = {
    ort: ort as unknown as OcrModels['ort'],
    detection: await ort.InferenceSession.create(files.detection, options),
    recognition: await ort.InferenceSession.create(files.recognition, options),
    dictionary,
  };
  const boxes = await detectText(models, page);
  const read = await recognizeBoxes(models, page, boxes);
  return { boxes, lines: read.map((r) => ({ text: r.text, charConfidence: r.charConfidence })) };
}

process.stdout.write(JSON.stringify({ packaged: await read(packaged), fused: await read(fused), files: fused }));
