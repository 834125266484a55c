import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { pdfjsAssets, renderPageGrey, scannedPageImage, type CanvasFactory } from '../../../src/core/ocr/raster';
import { jpegPage, rawImagePdf } from '../../fixtures/scans';

/**
 * A scanner's page (one image filling it) is read from pdf.js's decoded pixels instead of being drawn
 * through the canvas: the same grey image as the rendered page, at the same scale; any other page is rendered.
 */
const root = path.resolve(__dirname, '../../..');
const jpeg = fs.readFileSync(path.join(root, 'test/fixtures/scans/regulation-page-150dpi.jpg'));
const limits = { dpi: 200, maxPagePixels: 12_000_000, maxImagePixels: 40_000_000 };

async function open(pdf: Buffer) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), ...pdfjsAssets(), cMapPacked: true, isEvalSupported: false, verbosity: 0 }).promise;
  return { doc, ops: (pdfjs as unknown as { OPS: Record<string, number> }).OPS, factory: (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory };
}

function halfPageImagePdf(): Promise<Buffer> {
  const d = new PDFDocument({ size: 'A4', margin: 0 });
  const parts: Buffer[] = [];
  d.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<Buffer>((r) => d.on('end', () => r(Buffer.concat(parts))));
  d.image(jpeg, 0, 0, { width: d.page.width / 2 });
  d.end();
  return done;
}

describe('scanned page pixels', () => {
  it('equal the rendered page for an image filling the page (no upscaling past the scan)', async () => {
    const { doc, ops, factory } = await open(rawImagePdf([jpegPage(jpeg)]));
    const page = await doc.getPage(1);
    const direct = scannedPageImage(page as never, await page.getOperatorList(), ops, limits);
    expect(direct).not.toBeNull();
    // the scan is 150 dpi: read at its own resolution, not blown up to 200
    const rendered = await renderPageGrey(page as never, { ...limits, dpi: (direct!.scale * 72) }, factory);
    const [a, b] = [direct!.image, rendered.image];
    // the page's rounding may differ by a pixel
    expect(Math.abs(a.width - b.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(a.height - b.height)).toBeLessThanOrEqual(1);
    expect(Math.abs(direct!.scale * 72 - 150)).toBeLessThan(1);
    let diff = 0;
    let n = 0;
    let ink = 0;
    for (let y = 0; y < Math.min(a.height, b.height); y++)
      for (let x = 0; x < Math.min(a.width, b.width); x++) {
        diff += Math.abs(a.data[y * a.width + x] - b.data[y * b.width + x]);
        if (a.data[y * a.width + x] < 128) ink++;
        n++;
      }
    expect(diff / n).toBeLessThan(3);
    expect(ink).toBeGreaterThan(10_000);
    await doc.destroy();
  });

  it('are not taken from an image covering part of the page, nor from a page with text', async () => {
    const half = await open(await halfPageImagePdf());
    const p1 = await half.doc.getPage(1);
    expect(scannedPageImage(p1 as never, await p1.getOperatorList(), half.ops, limits)).toBeNull();
    await half.doc.destroy();
    const mixed = await open(fs.readFileSync(path.join(root, 'test/fixtures/scans/mixed-text-and-scan.pdf')));
    const text = await mixed.doc.getPage(1);
    expect(scannedPageImage(text as never, await text.getOperatorList(), mixed.ops, limits)).toBeNull();
    const scan = await mixed.doc.getPage(2);
    expect(scannedPageImage(scan as never, await scan.getOperatorList(), mixed.ops, limits)).not.toBeNull();
    await mixed.doc.destroy();
  });
});
