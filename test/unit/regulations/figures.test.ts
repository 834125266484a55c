import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { invokeOperation } from '../../../src/core/api/invoke';
import { createAppContext, type AppContext } from '../../../src/core/context';
import { runCliJson, tempDir } from '../../helpers';
import { jpegPage, rawImagePdf } from '../../fixtures/scans';

/**
 * Figures as objects (issue 24) on a printed page whose figure is a vector drawing with short labels
 * (QF1, 母联), captioned "图3-1 …" under it and cited by two articles (test/fixtures/scans/figure-page.pdf,
 * written by scripts/make-ocr-fixtures.ts). Its metadata title is "untitled": the printed title wins.
 */
const root = path.resolve(__dirname, '../../..');
const file = path.join(root, 'test/fixtures/scans/figure-page.pdf');
let data: string;
let ctx: AppContext;
const cli = <T = any>(...args: string[]) => runCliJson<T>([...args, '--data-dir', data]);
const op = (name: string, input: unknown) => invokeOperation(ctx, name as never, input as never) as Promise<any>;

/** Pixels of a picture darker than mid grey (ink). */
function darkPixels(pic: Awaited<ReturnType<typeof loadImage>>): number {
  const c = createCanvas(pic.width, pic.height);
  c.getContext('2d').drawImage(pic, 0, 0);
  const px = c.getContext('2d').getImageData(0, 0, pic.width, pic.height).data;
  let dark = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] < 100) dark++;
  return dark;
}

beforeAll(() => {
  data = tempDir('gridcode-figures-');
  ctx = createAppContext({ dataDir: data });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(data, { recursive: true, force: true });
});

describe('figures', { timeout: 120_000 }, () => {
  it('are listed with caption, page and box, cited, searchable, resolvable, and served as a cropped PNG', async () => {
    const [res] = await cli('import', file, '--id', 'peidian');
    expect(res).toMatchObject({ status: 'imported', title: '配电室接线规定', ocr_pages: 0 });
    const { figures } = await cli('figures', 'peidian');
    expect(figures).toHaveLength(1);
    const f = figures[0];
    expect(f).toMatchObject({ figure_id: '图3-1', caption: '配电室主接线示意图', page_num: 1 });
    // the box holds the drawing (between the first article and the caption), across the text width
    const [x0, y0, x1, y1] = f.bbox as number[];
    expect(x1 - x0).toBeGreaterThan(300);
    expect(y1 - y0).toBeGreaterThan(120);
    expect(f.citing.map((c: { label: string }) => c.label)).toEqual(['第一条', '第二条']);

    const resolved = await cli('resolve', 'peidian', '倒闸前见图3-1');
    expect(resolved).toMatchObject({ resolved: true, reference_type: 'figure', figure_id: '图3-1', page_num: 1 });
    const miss = await op('regulations.resolve', { reg_id: 'peidian', reference: '见图5' });
    expect(miss.resolved).toBe(false);

    const hits = await op('search.smart_search', { query: '主接线示意图', reg_id: 'peidian', top_k: 3 });
    expect(JSON.stringify(hits.results.slice(0, 2))).toContain('图3-1');

    const page = await op('regulations.page_structure', { reg_id: 'peidian', page: 1 });
    expect(page.figures.map((x: { figure_id: string }) => x.figure_id)).toEqual(['图3-1']);

    const img = await op('regulations.figure', { reg_id: 'peidian', figure_id: '3-1' });
    expect(img).toMatchObject({ figure_id: '图3-1', caption: '配电室主接线示意图', page_num: 1 });
    const png = Buffer.from(img.image_png_base64, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const pic = await loadImage(png);
    // 150 dpi crop of the box
    expect(Math.abs(pic.width - ((x1 - x0) * 150) / 72)).toBeLessThan(4);
    const dark = darkPixels(pic);
    // the bus bar and feeders are drawn in it: ink, but mostly paper
    expect(dark).toBeGreaterThan(1000);
    expect(dark / (pic.width * pic.height)).toBeLessThan(0.2);

    await expect(op('regulations.figure', { reg_id: 'peidian', figure_id: '图9' })).rejects.toThrow(/没有图9（有：图3-1）/);
  });

  it('are found on the same page scanned (OCR lines): same figure, caption, box and citations as printed', async () => {
    // the page of the test above rasterised at 150 dpi, -0.6° skew, speckle, JPEG 70 (scripts/make-ocr-fixtures.ts)
    const scan = path.join(data, 'figure-scan.pdf');
    fs.writeFileSync(scan, rawImagePdf([jpegPage(fs.readFileSync(path.join(root, 'test/fixtures/scans/figure-page-150dpi.jpg')))]));
    // the same title as the printed copy: kept a separate regulation, not an edition of it
    const [res] = await cli('import', scan, '--id', 'peidian-scan', '--separate');
    expect(res).toMatchObject({ status: 'imported', title: '配电室接线规定', ocr_pages: 1 });
    const { figures } = await cli('figures', 'peidian-scan');
    expect(figures).toHaveLength(1);
    expect(figures[0]).toMatchObject({ figure_id: '图3-1', caption: '配电室主接线示意图', page_num: 1 });
    // the caption's number is split over two OCR lines in the first article ("见图" / "3-1。"): joined again
    expect(figures[0].citing.map((c: { label: string }) => c.label)).toEqual(['第一条', '第二条']);
    // the box is the printed copy's box (same page): overlap / union
    let printed = (await op('regulations.figures', { reg_id: 'peidian' }).catch(() => null))?.figures?.[0];
    if (!printed) {
      await op('regulations.import', { paths: [file], id: 'peidian', separate: true });
      printed = (await op('regulations.figures', { reg_id: 'peidian' })).figures[0];
    }
    const [a, b] = [figures[0].bbox as number[], printed.bbox as number[]];
    const inter = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
    const area = (r: number[]) => (r[2] - r[0]) * (r[3] - r[1]);
    expect(inter / (area(a) + area(b) - inter)).toBeGreaterThan(0.8);
    // the crop of the scanned page holds the drawing
    const img = await op('regulations.figure', { reg_id: 'peidian-scan', figure_id: '图3-1' });
    expect(darkPixels(await loadImage(Buffer.from(img.image_png_base64, 'base64')))).toBeGreaterThan(1000);
  });
});
