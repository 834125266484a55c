/**
 * OCR inside the process's one ONNX worker thread (src/core/embed/worker.ts hosts it: onnxruntime-node
 * cannot be used from two threads). The worker opens the PDF itself, so rendering (pdf.js + canvas,
 * image decoding) and recognition never run on the main thread.
 */
import { loadOcrModels } from './models';
import { imagesIn, pdfjsAssets, renderPageGrey, scannedPageImage, type CanvasFactory, type RasterPage } from './raster';
import { readImage } from './read-image';
import type { OcrLimits, OcrPageResult } from './types';

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
interface WorkerDoc {
  numPages: number;
  canvasFactory: CanvasFactory;
  getPage(n: number): Promise<Parameters<typeof renderPageGrey>[0]>;
  destroy(): Promise<void>;
}

const docs = new Map<number, { doc: WorkerDoc; limits: OcrLimits }>();

// pdf.js reports a dropped oversized image or an image that does not decode only as a console
// warning: collect them per page (this thread's console; pdf.js's warnings never reach the user)
let warnings: string[] | null = null;
const consoleWarn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  const first = String(args[0] ?? '');
  if (first.startsWith('Warning:')) {
    warnings?.push(first);
    return;
  }
  consoleWarn(...args);
};

export async function openOcrDocument(id: number, data: Uint8Array, limits: OcrLimits): Promise<number> {
  const pdfjs: PdfjsModule = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = (await pdfjs.getDocument({
    data,
    ...pdfjsAssets(),
    cMapPacked: true,
    isEvalSupported: false,
    // an image above this is not decoded at all: memory stays bounded whatever the file declares
    maxImageSize: limits.maxImagePixels,
    verbosity: 1,
  }).promise) as unknown as WorkerDoc;
  docs.set(id, { doc, limits });
  // load the models with the document so the first page's time is the page's
  await loadOcrModels(limits.threads);
  return doc.numPages;
}

export async function readOcrPage(id: number, pageNum: number): Promise<OcrPageResult> {
  const open = docs.get(id);
  if (!open) throw new Error('document not open');
  const { doc, limits } = open;
  const started = performance.now();
  const pdfjs: PdfjsModule = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const page = await doc.getPage(pageNum);
  const base = { page: pageNum, lines: [], skew: 0, dpi: limits.dpi };
  const size = (page as unknown as { getViewport(o: { scale: number }): { width: number; height: number } }).getViewport({ scale: 1 });
  const pageWarnings: string[] = [];
  warnings = pageWarnings;
  const ops = (pdfjs as unknown as { OPS: Record<string, number> }).OPS;
  let list: { fnArray: number[]; argsArray: unknown[][] };
  try {
    list = await (page as unknown as { getOperatorList(): Promise<typeof list> }).getOperatorList();
  } finally {
    warnings = null;
  }
  const images = imagesIn(list, ops);
  const dropped = pageWarnings.some((w) => /exceeded maximum allowed size/i.test(w));
  const common = { ...base, widthPt: size.width, heightPt: size.height };
  if (dropped) return { ...common, skipped: 'too_large', ms: performance.now() - started };
  if (!images.length) return { ...common, skipped: 'blank', ms: performance.now() - started };
  const largest = images.reduce((a, b) => (a.width * a.height >= b.width * b.height ? a : b));
  const renderWarnings = [...pageWarnings];
  warnings = renderWarnings;
  let raster: RasterPage;
  try {
    // a scanner's page (one image filling it) is read from its decoded pixels; anything else is rendered
    raster = (!pageWarnings.length && scannedPageImage(page as never, list, ops, limits)) || (await renderPageGrey(page, limits, doc.canvasFactory));
  } catch {
    return { ...common, skipped: 'unreadable', image: largest, ms: performance.now() - started };
  } finally {
    warnings = null;
  }
  // a stream that does not decode renders as nothing and pdf.js only warns
  const broken = renderWarnings.some((w) => /image|jpeg|jpx|decode|stream/i.test(w)) && isBlank(raster.image.data);
  if (broken) return { ...common, skipped: 'unreadable', image: largest, ms: performance.now() - started };
  const models = await loadOcrModels(limits.threads);
  const read = await readImage(models, raster.image, raster.scale * 72);
  const s = 1 / raster.scale;
  page.cleanup();
  return {
    ...common,
    image: largest,
    skew: read.skew,
    dpi: raster.scale * 72,
    lines: read.lines.map((l) => ({ text: l.text, confidence: l.confidence, min_confidence: l.min_confidence, x0: l.x0 * s, y0: l.y0 * s, x1: l.x1 * s, y1: l.y1 * s })),
    rulings: read.rulings.map((r) => ({ x0: r.x0 * s, y0: r.y0 * s, x1: r.x1 * s, y1: r.y1 * s })),
    ms: performance.now() - started,
  };
}

function isBlank(data: Uint8Array): boolean {
  for (let i = 0; i < data.length; i += 97) if (data[i] < 200) return false;
  return true;
}

export async function closeOcrDocument(id: number): Promise<void> {
  const open = docs.get(id);
  docs.delete(id);
  await open?.doc.destroy().catch(() => {});
}
