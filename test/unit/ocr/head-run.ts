// Child process for recognizer-head.test.ts (onnxruntime-node may be used by one thread per process only):
// prints a ruled table of the given cells with pdfkit in a test font (AR PL UKai / UMing, Liberation Serif for the
// cells of Latin characters), scans it at 150 dpi (skew, speckle, blur, JPEG 70, test/fixtures/scans.ts), finds the
// cells with the app's detector and cell boxes, and reads every box with the package's recogniser and with the
// fused one of resources/ocr (or of the directory given third). Prints both readings per box as JSON.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import * as ort from 'onnxruntime-node';
import { cellBoxes } from '../../../src/core/ocr/cells';
import { detectPrepared, DEFAULT_DETECT } from '../../../src/core/ocr/detect';
import { greyFromRgba } from '../../../src/core/ocr/image';
import { fusedOcrModelFiles, packagedOcrModelFiles, readOcrDictionary, type OcrModels } from '../../../src/core/ocr/models';
import { levelPage } from '../../../src/core/ocr/read-image';
import { recognizeBoxes } from '../../../src/core/ocr/recognize';
import { CJK_FONTS, FONT_FAMILY } from '../../fixtures/fonts';
import { degrade, encodeJpeg, rasterize } from '../../fixtures/scans';

const [font, cellsJson, fusedDir] = process.argv.slice(2);
const cells = JSON.parse(cellsJson) as string[];
const DPI = 150;

const doc = new PDFDocument({ size: 'A4', margin: 0 });
const chunks: Buffer[] = [];
doc.on('data', (c: Buffer) => chunks.push(c));
const ended = new Promise((resolve) => doc.on('end', resolve));
doc.registerFont('han', CJK_FONTS[font], FONT_FAMILY[font]);
doc.registerFont('latin', '/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf');
const cols = 3;
const w = 150;
const h = 20;
cells.forEach((text, i) => {
  const x = 70 + (i % cols) * w;
  const y = 80 + Math.floor(i / cols) * h;
  doc.lineWidth(0.6).rect(x, y, w, h).stroke();
  doc.font(/^[\x20-\x7e]+$/.test(text) ? 'latin' : 'han').fontSize(9).text(text, x + 5, y + (h - 9) / 2 - 1, { lineBreak: false });
});
doc.end();
await ended;
const [raster] = await rasterize(Buffer.concat(chunks), DPI);
const scanned = degrade(raster, { skew: 0.5, speckle: 0.002, blur: 1, seed: 3 });
const image = await loadImage(encodeJpeg(scanned, 70));
const canvas = createCanvas(image.width, image.height);
const ctx = canvas.getContext('2d');
ctx.drawImage(image, 0, 0);
const page = levelPage(greyFromRgba(ctx.getImageData(0, 0, image.width, image.height).data, image.width, image.height), DPI);

const packaged = packagedOcrModelFiles();
const fused = fusedOcrModelFiles(fusedDir);
if (!fused) throw new Error('resources/ocr does not match its manifest');
const dictionary = readOcrDictionary(packaged.dictionary);
const options = { graphOptimizationLevel: 'all' as const, intraOpNumThreads: 1 };
const detection = await ort.InferenceSession.create(fused.detection, options);
const session = (file: string) => ort.InferenceSession.create(file, options);
const models = (recognition: Awaited<ReturnType<typeof session>>): OcrModels => ({ ort: ort as unknown as OcrModels['ort'], detection, recognition, dictionary });
const boxes = cellBoxes(await detectPrepared(models(await session(fused.recognition)), page.level, page.detection, DEFAULT_DETECT), page.rulings, page.level).filter((b) => !b.bar);
const old = await recognizeBoxes(models(await session(packaged.recognition)), page.level, boxes);
const now = await recognizeBoxes(models(await session(fused.recognition)), page.level, boxes);
process.stdout.write(JSON.stringify({ files: fused, boxes: boxes.length, old: old.map((r) => r.text.trim()), now: now.map((r) => r.text.trim()) }));
