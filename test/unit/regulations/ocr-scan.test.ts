import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { createAppContext, type AppContext } from '../../../src/core/context';
import { runCliJson, tempDir } from '../../helpers';
import { jpegPage, rawImagePdf } from '../../fixtures/scans';
import { charAccuracy } from '../../../eval/ocr-metrics';

/**
 * Scanned PDFs (issue 24) through the real pipeline: pdf.js renders the page in the ONNX worker, the
 * PP-OCRv4 models read it, the importer builds articles, TOC and search from the text. The page image is
 * a committed fixture (scripts/make-ocr-fixtures.ts: printed, 150 dpi, 0.8° skew, speckle, JPEG).
 */
const root = path.resolve(__dirname, '../../..');
const fixtures = path.join(root, 'test/fixtures/scans');
const pageJpeg = fs.readFileSync(path.join(fixtures, 'regulation-page-150dpi.jpg'));
const truth = fs.readFileSync(path.join(fixtures, 'regulation-page.txt'), 'utf8');

let data: string;
let docs: string;
let ctx: AppContext;
const cli = <T = any>(...args: string[]) => runCliJson<T>([...args, '--data-dir', data]);
const op = (name: string, input: unknown, r?: Parameters<typeof invokeOperation>[3]) => invokeOperation(ctx, name as never, input as never, r) as Promise<any>;

beforeAll(() => {
  data = tempDir('gridcode-ocr-data-');
  docs = tempDir('gridcode-ocr-docs-');
  fs.writeFileSync(path.join(docs, 'scan.pdf'), rawImagePdf([jpegPage(pageJpeg)]));
  ctx = createAppContext({ dataDir: data });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(data, { recursive: true, force: true });
  fs.rmSync(docs, { recursive: true, force: true });
});

// OCR is real work: a page takes seconds, minutes on a machine shared by many test runs
describe('a scanned regulation', { timeout: 300_000 }, () => {
  it('imports by OCR through the CLI contract and reads, structures and searches like a printed one', async () => {
    const [res] = await cli('import', path.join(docs, 'scan.pdf'));
    expect(res).toMatchObject({ status: 'imported', reg_id: 'scan', title: '变电站巡视管理规定', total_pages: 1, ocr_pages: 1 });
    expect(res.ocr_confidence).toBeGreaterThan(0.9);
    const read = await cli('read', 'scan', '1', '1');
    expect(charAccuracy(read.pages[0].text, truth)).toBeGreaterThanOrEqual(0.97);

    const toc = await op('regulations.toc', { reg_id: 'scan' });
    expect(toc.toc.map((t: { title: string }) => t.title.replace(/\s/g, ''))).toEqual(expect.arrayContaining(['第一章总则', '第二章巡视要求']));
    const art = await op('regulations.resolve', { reg_id: 'scan', reference: '第五条' });
    expect(JSON.stringify(art)).toContain('避雷器');
    const hits = await op('search.smart_search', { query: '恶劣天气 特殊巡视', reg_id: 'scan' });
    expect(JSON.stringify(hits.results?.[0] ?? hits)).toContain('第五条');

    // the lines keep where they are printed: the title is centred near the top, lines go down the page
    const page = await op('regulations.page_structure', { reg_id: 'scan', page: 1 });
    const lines = page.ocr_lines as { text: string; x0: number; y0: number; x1: number; y1: number; confidence: number; min_confidence: number; low_confidence: boolean }[];
    expect(lines.length).toBeGreaterThanOrEqual(9);
    const title = lines.find((l) => l.text.includes('巡视管理规定'))!;
    expect(title.y0).toBeLessThan(0.15);
    expect(Math.abs((title.x0 + title.x1) / 2 - 0.5)).toBeLessThan(0.05);
    const fifth = lines.find((l) => l.text.startsWith('第五条'))!;
    expect(fifth.y0).toBeGreaterThan(title.y1);
    // the mark is the least sure character's probability against the calibrated threshold
    expect(lines.every((l) => l.min_confidence <= l.confidence && l.low_confidence === l.min_confidence < ctx.config.ocr.lowConfidence)).toBe(true);
  });

  it('reads a mixed PDF page by page: text layer where there is one, OCR on the scanned page; a generated metadata title gives way to the printed one', async () => {
    const [res] = await cli('import', path.join(fixtures, 'mixed-text-and-scan.pdf'), '--id', 'mixed');
    expect(res).toMatchObject({ status: 'imported', reg_id: 'mixed', title: '变电站运行规程', total_pages: 2, ocr_pages: 1 });
    const read = await cli('read', 'mixed', '1', '2');
    expect(read.pages[0].text).toContain('两票三制');
    expect(read.pages[1].text).toContain('避雷器');
  });

  it('--title overrides the title found in the file', async () => {
    const md = path.join(docs, '规程.md');
    fs.writeFileSync(md, '# 变电站运行规程\n\n第一条 运行人员应当持证上岗。\n');
    const [over] = await cli('import', md, '--title', '运行规程（现场版）');
    expect(over).toMatchObject({ status: 'imported', title: '运行规程（现场版）' });
    expect((await op('regulations.get', { reg_id: over.reg_id })).title).toBe('运行规程（现场版）');
  });

  it('skips an oversized image, a corrupt image stream and an empty page with notes, and keeps the readable page', async () => {
    // 10,000 x 10,000 grey pixels, declared honestly: pdf.js must not decode it
    const huge = zlib.deflateSync(Buffer.alloc(10000 * 10000, 255), { level: 1 });
    const file = path.join(docs, 'bad-pages.pdf');
    fs.writeFileSync(
      file,
      rawImagePdf([
        { width: 10000, height: 10000, filter: 'FlateDecode', data: huge },
        { width: 1240, height: 1754, filter: 'DCTDecode', data: Buffer.concat([pageJpeg.subarray(0, 600), Buffer.alloc(4000, 0x55)]) },
        null,
        jpegPage(pageJpeg),
      ]),
    );
    const [res] = await op('regulations.import', { paths: [file] });
    expect(res).toMatchObject({ status: 'imported', total_pages: 4, ocr_pages: 1 });
    expect(res.notes.join('\n')).toMatch(/第 1 页的图片过大/);
    expect(res.notes.join('\n')).toMatch(/第 2 页的图片已损坏/);
    const read = await op('regulations.read', { reg_id: res.reg_id, start: 1, end: 4 });
    expect(read.pages[3].text).toContain('巡视');

    // nothing readable at all: a clear failure in Chinese, nothing imported
    const only = path.join(docs, 'only-bad.pdf');
    fs.writeFileSync(only, rawImagePdf([{ width: 10000, height: 10000, filter: 'FlateDecode', data: huge }, null]));
    const [failed] = await op('regulations.import', { paths: [only] });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/only-bad\.pdf.*没有识别出任何文字.*图片过大/);
    expect((await op('regulations.list', {})).map((r: { reg_id: string }) => r.reg_id)).not.toContain('only-bad');
  });

  it('cancelled during OCR leaves nothing behind', async () => {
    const file = path.join(docs, 'three.pdf');
    fs.writeFileSync(file, rawImagePdf([jpegPage(pageJpeg), jpegPage(pageJpeg), jpegPage(pageJpeg)]));
    const abort = new AbortController();
    const events: { done: number; total: number; message?: string }[] = [];
    const imported = op('regulations.import', { paths: [file] }, {
      signal: abort.signal,
      progress: (e) => {
        events.push(e);
        if (e.done === 1) abort.abort();
      },
    });
    await expect(imported).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(events[0]).toMatchObject({ done: 1, total: 3 });
    expect(events[0].message).toMatch(/文字识别（OCR）第 1 页，预计还需 \d+/);
    expect((await op('regulations.list', {})).map((r: { reg_id: string }) => r.reg_id)).not.toContain('three');
  });
});
