import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { greyFromRgba, resize, type GreyImage } from './image';
import { concatTransform, type Matrix } from '../common/pdf-matrix';

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
export function imagesIn(list: { fnArray: number[]; argsArray: unknown[][] }, ops: Record<string, number>): { width: number; height: number }[] {
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


interface DecodedImage {
  width: number;
  height: number;
  /** pdf.js ImageKind: 2 = RGB, 3 = RGBA (1 = packed 1-bit grey, read through the canvas instead) */
  kind: number;
  data?: Uint8Array | Uint8ClampedArray;
}

interface ScannedPage {
  view: number[];
  rotate: number;
  objs: { get(id: string): unknown };
  commonObjs?: { get(id: string): unknown };
}

/**
 * A scanner's page: nothing painted but one upright image covering the page. Its pixels are taken as
 * pdf.js decoded them (no canvas: drawing a 4-megapixel scan through the canvas cost more CPU than
 * decoding it) and scaled to `limits.dpi` when they are finer. Any other page (text, several images,
 * rotation, a flipped or partial image) gives null and is rendered.
 */
export function scannedPageImage(page: ScannedPage, list: { fnArray: number[]; argsArray: unknown[][] }, ops: Record<string, number>, limits: RasterLimits): RasterPage | null {
  const [vx0, vy0, vx1, vy1] = page.view;
  const widthPt = vx1 - vx0;
  const heightPt = vy1 - vy0;
  if (page.rotate % 360 !== 0 || widthPt <= 0 || heightPt <= 0) return null;
  const passive = new Set([ops.dependency, ops.setGState, ops.beginMarkedContent, ops.beginMarkedContentProps, ops.endMarkedContent]);
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  let found: { id: string; m: Matrix } | null = null;
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] ?? [];
    if (fn === ops.save) stack.push(ctm);
    else if (fn === ops.restore) ctm = stack.pop() ?? ctm;
    else if (fn === ops.transform) ctm = concatTransform(ctm, args as Matrix);
    else if (fn === ops.paintImageXObject && !found && typeof args[0] === 'string') found = { id: args[0], m: ctm };
    else if (!passive.has(fn)) return null;
  }
  if (!found) return null;
  // the unit square the image fills, in page points: upright (no shear or flip) and within 1 % of the page
  const [a, b, c, d, e, f] = found.m;
  const tol = 0.01 * Math.max(widthPt, heightPt);
  if (Math.abs(b) > 1e-6 || Math.abs(c) > 1e-6 || a <= 0 || d <= 0) return null;
  if (Math.abs(e - vx0) > tol || Math.abs(f - vy0) > tol || Math.abs(a - widthPt) > tol || Math.abs(d - heightPt) > tol) return null;
  let img: DecodedImage | undefined;
  try {
    img = (found.id.startsWith('g_') ? page.commonObjs : page.objs)?.get(found.id) as DecodedImage | undefined;
  } catch {
    return null; // not decoded (yet): render instead
  }
  if (!img?.data || (img.kind !== 2 && img.kind !== 3)) return null;
  const channels = img.kind === 2 ? 3 : 4;
  if (img.data.length < img.width * img.height * channels) return null;
  const grey = new Uint8Array(img.width * img.height);
  const src = img.data;
  for (let i = 0, j = 0; j < grey.length; i += channels, j++) grey[j] = (src[i] * 77 + src[i + 1] * 150 + src[i + 2] * 29 + 128) >> 8;
  let scale = Math.min(limits.dpi / 72, Math.max(img.width / widthPt, img.height / heightPt));
  if (widthPt * scale * heightPt * scale > limits.maxPagePixels) scale *= Math.sqrt(limits.maxPagePixels / (widthPt * scale * heightPt * scale));
  const width = Math.max(1, Math.round(widthPt * scale));
  const height = Math.max(1, Math.round(heightPt * scale));
  const image = Math.abs(width - img.width) <= 1 && Math.abs(height - img.height) <= 1 ? { data: grey, width: img.width, height: img.height } : resize({ data: grey, width: img.width, height: img.height }, width, height);
  return { image, widthPt, heightPt, scale: image.width / widthPt };
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
