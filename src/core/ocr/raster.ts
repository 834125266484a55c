import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { greyFromRgba, type GreyImage } from './image';

const require = createRequire(import.meta.url);

/** pdf.js's character maps and standard fonts, from the installed package (file URLs). */
export function pdfjsAssets(): { cMapUrl: string; standardFontDataUrl: string } {
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  return {
    cMapUrl: pathToFileURL(path.join(root, 'cmaps')).href + '/',
    standardFontDataUrl: pathToFileURL(path.join(root, 'standard_fonts')).href + '/',
  };
}

export interface RasterPage {
  image: GreyImage;
  /** page size in PDF points (1/72 inch) */
  widthPt: number;
  heightPt: number;
  /** image pixels per point */
  scale: number;
}

interface RenderablePage {
  getViewport(o: { scale: number }): { width: number; height: number };
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }>;
  render(o: { canvasContext: unknown; viewport: unknown; canvas?: unknown }): { promise: Promise<void> };
  cleanup(): void;
}

export interface RasterLimits {
  /** resolution pages are read at */
  dpi: number;
  /** a rendered page never exceeds this many pixels (a poster-sized page is read at a lower dpi) */
  maxPagePixels: number;
  /** embedded images larger than this (pixels) are refused before decoding */
  maxImagePixels: number;
}

export class PageImageError extends Error {
  constructor(
    message: string,
    readonly reason: 'too_large' | 'broken',
  ) {
    super(message);
  }
}

/** The embedded images a page paints, with their pixel sizes (from the operator list). */
export async function pageImages(page: RenderablePage, ops: Record<string, number>): Promise<{ width: number; height: number }[]> {
  const list = await page.getOperatorList();
  const imageOps = new Set([ops.paintImageXObject, ops.paintInlineImageXObject, ops.paintImageMaskXObject]);
  const out: { width: number; height: number }[] = [];
  list.fnArray.forEach((fn, i) => {
    if (!imageOps.has(fn)) return;
    const args = list.argsArray[i] ?? [];
    const obj = args[0] as { width?: number; height?: number } | string | undefined;
    const width = Number(typeof obj === 'object' && obj ? obj.width : args[1]) || 0;
    const height = Number(typeof obj === 'object' && obj ? obj.height : args[2]) || 0;
    out.push({ width, height });
  });
  return out;
}

/** pdf.js's own canvas factory (its @napi-rs/canvas: Path2D objects must come from the same copy). */
export interface CanvasFactory {
  create(width: number, height: number): { canvas: unknown; context: CanvasLike };
  destroy(c: { canvas: unknown; context: CanvasLike }): void;
}
interface CanvasLike {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}

/** Renders one page to grey pixels at `limits.dpi` (lower for huge pages). */
export async function renderPageGrey(page: RenderablePage, limits: RasterLimits, canvasFactory: CanvasFactory): Promise<RasterPage> {
  const base = page.getViewport({ scale: 1 });
  let scale = limits.dpi / 72;
  const pixels = base.width * scale * base.height * scale;
  if (pixels > limits.maxPagePixels) scale *= Math.sqrt(limits.maxPagePixels / pixels);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const target = canvasFactory.create(width, height);
  try {
    const ctx = target.context;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    try {
      await page.render({ canvasContext: ctx, viewport, canvas: target.canvas }).promise;
    } catch (e) {
      throw new PageImageError((e as Error).message, 'broken');
    }
    const rgba = ctx.getImageData(0, 0, width, height).data;
    return { image: greyFromRgba(rgba, width, height), widthPt: base.width, heightPt: base.height, scale };
  } finally {
    canvasFactory.destroy(target);
  }
}
