/**
 * Everything OCR does to a page before the models see it, plain JS with no ONNX Runtime: pdf.js parses the
 * page and decodes its image, the pixels are turned grey, levelled, searched for table rulings and scaled
 * into the detector's input. It runs in its own thread (prepare-worker.ts), one page ahead of the ONNX
 * thread, so on two cores decoding the next page overlaps recognising this one.
 */
import { levelPage, type LevelledPage } from './read-image';
import { imagesIn, pdfjsAssets, renderPageGrey, scannedPageImage, type CanvasFactory, type RasterPage } from './raster';
import type { OcrLimits, OcrPageResult } from './types';

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
interface PdfDoc {
  numPages: number;
  canvasFactory: CanvasFactory;
  getPage(n: number): Promise<Parameters<typeof renderPageGrey>[0]>;
  destroy(): Promise<void>;
}

export interface PrepDoc {
  doc: PdfDoc;
  limits: OcrLimits;
}

/** A page ready for the models, or a page that has nothing to read (`done`: blank, too large, broken). */
export type PreparedPage =
  | { done: OcrPageResult }
  | { page: Omit<OcrPageResult, 'lines' | 'skew' | 'rulings' | 'dpi' | 'ms'>; levelled: LevelledPage; scale: number; ms: number };

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

export async function openPrepDoc(data: Uint8Array, limits: OcrLimits): Promise<PrepDoc> {
  const pdfjs: PdfjsModule = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = (await pdfjs.getDocument({
    data,
    ...pdfjsAssets(),
    cMapPacked: true,
    isEvalSupported: false,
    // an image above this is not decoded at all: memory stays bounded whatever the file declares
    maxImageSize: limits.maxImagePixels,
    verbosity: 1,
  }).promise) as unknown as PdfDoc;
  return { doc, limits };
}

/**
 * Decodes, levels and prepares one page. `scannerOnly` (a page read ahead, before the importer has asked
 * for it): only a scanner's page — one image filling it, nothing else, so certainly read by OCR — is
 * prepared; any other page gives null and nothing is rendered for it.
 */
export async function preparePage(d: PrepDoc, pageNum: number, scannerOnly = false): Promise<PreparedPage | null> {
  const { doc, limits } = d;
  const started = performance.now();
  const pdfjs: PdfjsModule = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const page = await doc.getPage(pageNum);
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
  const common = { page: pageNum, lines: [], skew: 0, dpi: limits.dpi, widthPt: size.width, heightPt: size.height };
  const done = (extra: Partial<OcrPageResult>): PreparedPage => ({ done: { ...common, ...extra, ms: performance.now() - started } });
  const images = imagesIn(list, ops);
  const dropped = pageWarnings.some((w) => /exceeded maximum allowed size/i.test(w));
  if (scannerOnly && (dropped || !images.length)) return null;
  if (dropped) return done({ skipped: 'too_large' });
  if (!images.length) return done({ skipped: 'blank' });
  const largest = images.reduce((a, b) => (a.width * a.height >= b.width * b.height ? a : b));
  const renderWarnings = [...pageWarnings];
  warnings = renderWarnings;
  let raster: RasterPage | null;
  try {
    // a scanner's page (one image filling it) is read from its decoded pixels; anything else is rendered
    raster = !pageWarnings.length ? scannedPageImage(page as never, list, ops, limits) : null;
    if (!raster && scannerOnly) return null;
    raster ??= await renderPageGrey(page, limits, doc.canvasFactory);
  } catch {
    return done({ skipped: 'unreadable', image: largest });
  } finally {
    warnings = null;
  }
  // a stream that does not decode renders as nothing and pdf.js only warns
  const broken = renderWarnings.some((w) => /image|jpeg|jpx|decode|stream/i.test(w)) && isBlank(raster.image.data);
  if (broken) return done({ skipped: 'unreadable', image: largest });
  const levelled = levelPage(raster.image, raster.scale * 72);
  page.cleanup();
  return { page: { page: pageNum, widthPt: size.width, heightPt: size.height, image: largest }, levelled, scale: raster.scale, ms: performance.now() - started };
}

function isBlank(data: Uint8Array): boolean {
  for (let i = 0; i < data.length; i += 97) if (data[i] < 200) return false;
  return true;
}

export async function closePrepDoc(d: PrepDoc | undefined): Promise<void> {
  await d?.doc.destroy().catch(() => {});
}

/** The buffers a prepared page can hand over to another thread without copying. */
export function transferables(p: PreparedPage | null): ArrayBuffer[] {
  if (!p || 'done' in p) return [];
  const out = new Set<ArrayBuffer>([p.levelled.level.data.buffer as ArrayBuffer, p.levelled.detection.data.buffer as ArrayBuffer]);
  return [...out];
}
