import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPdfStreams } from '../../../src/core/common/pdf-guard';
import { importPaths } from '../../../src/core/regulations/importer';
import { tempContext, tempDir } from '../../helpers';
import { contentBomb, flateBomb, honestImage, hostilePdf, lyingImage, lzwEncode } from '../../fixtures/pdf-bombs';

/**
 * Issue 28: PDF streams are decoded with hard limits before pdf.js parses the file. A 1 MB PDF whose
 * page content inflates to a gigabyte fails with TOO_LARGE in Chinese and nothing is written; honest
 * files (images included) import as before.
 */

const limits = { maxStreamBytes: 64 * 1048576, maxTotalBytes: 256 * 1048576, maxImagePixels: 40_000_000 };
let ctx: ReturnType<typeof tempContext>;
let dir: string;
const run = { progress: () => {}, signal: new AbortController().signal };

beforeAll(() => {
  ctx = tempContext({ modelsDir: tempDir('gridcode-no-models-') });
  dir = tempDir('gridcode-pdf-caps-');
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

const regulationCount = () => (ctx.db.prepare('SELECT COUNT(*) AS n FROM regulations').get() as { n: number }).n;

describe('PDF stream caps', () => {
  it('a page whose content inflates to 1 GB (1 MB on disk) is refused in Chinese, nothing written', async () => {
    const bytes = hostilePdf({ pages: [contentBomb(1024 ** 3)] });
    expect(bytes.length).toBeLessThan(2 * 1048576);
    const before = regulationCount();
    const [row] = await importPaths(ctx, [write('炸弹.pdf', bytes)], {}, run);
    expect(row).toMatchObject({ status: 'failed', error_code: 'TOO_LARGE' });
    expect(row.error).toMatch(/炸弹\.pdf.*压缩数据解压后过大.*一个压缩流解压后超过 64 MB/);
    expect(regulationCount()).toBe(before);
  });

  it('streams that each pass but together exceed the total are refused; so is one over the per-stream cap', () => {
    const pages = Array.from({ length: 3 }, () => contentBomb(3 * 1048576));
    const small = { maxStreamBytes: 4 * 1048576, maxTotalBytes: 8 * 1048576, maxImagePixels: 40_000_000 };
    expect(() => checkPdfStreams(hostilePdf({ pages }), 'many.pdf', small)).toThrow(/全部压缩流解压后超过 8\.0 MB/);
    expect(() => checkPdfStreams(hostilePdf({ pages: [contentBomb(5 * 1048576)] }), 'one.pdf', small)).toThrow(/一个压缩流解压后超过 4\.0 MB/);
    const fine = checkPdfStreams(hostilePdf({ pages: pages.slice(0, 2) }), 'two.pdf', small);
    expect(fine.decodedBytes).toBeGreaterThanOrEqual(6 * 1048576);
  });

  it('an image whose stream inflates far past its declared 100×100 pixels is refused; an honest 1,000×1,000 image is not counted against the total', async () => {
    expect(() => checkPdfStreams(hostilePdf({ objects: [lyingImage(512 * 1048576)] }), 'img.pdf', limits)).toThrow(/100×100 像素的图像/);
    const honest = checkPdfStreams(hostilePdf({ objects: [honestImage(), honestImage()] }), 'ok.pdf', { ...limits, maxTotalBytes: 1048576 });
    expect(honest.decodedBytes).toBeLessThan(1048576);
    const [row] = await importPaths(ctx, [write('图像.pdf', hostilePdf({ objects: [honestImage()] }))], {}, run);
    expect(row.status).toBe('imported');
  });

  it('chained and LZW filters are decoded by the same caps (ASCII85 + Flate, LZW), and pdf.js reads the same text', async () => {
    const a85 = (data: Buffer) => {
      let out = '';
      for (let i = 0; i < data.length; i += 4) {
        const chunk = Buffer.alloc(4);
        data.copy(chunk, 0, i, Math.min(i + 4, data.length));
        let v = chunk.readUInt32BE(0);
        const n = Math.min(4, data.length - i);
        const digits: string[] = [];
        for (let k = 0; k < 5; k++) {
          digits.unshift(String.fromCharCode(33 + (v % 85)));
          v = Math.floor(v / 85);
        }
        out += digits.slice(0, n + 1).join('');
      }
      return Buffer.from(out + '~>', 'latin1');
    };
    const chained = { dict: '/Filter [/ASCII85Decode /FlateDecode]', data: a85(flateBomb(80 * 1048576)) };
    expect(() => checkPdfStreams(hostilePdf({ pages: [chained] }), 'a85.pdf', limits)).toThrow(/一个压缩流解压后超过 64 MB/);
    // LZW: a legitimate page the guard counts exactly and pdf.js draws, then a long run over the cap
    // ~25 KB of varied lines: the codes widen from 9 to 12 bits and the table is cleared, as in real files
    const lines = Array.from({ length: 200 }, (_, i) => `(Article ${i + 2}. Record breaker ${i * 7919 % 1000} position after switching operation ${i}.) '`);
    const text = `BT /F1 3 Tf 4 TL 20 830 Td ${lines.join(' ')} ET`;
    const page = { dict: '/Filter /LZWDecode', data: lzwEncode(Buffer.from(text, 'latin1')) };
    const report = checkPdfStreams(hostilePdf({ pages: [page] }), 'lzw.pdf', limits);
    const plain = checkPdfStreams(hostilePdf({ pages: [{ dict: '', data: Buffer.from(text, 'latin1') }] }), 'plain.pdf', limits);
    expect(report.decodedBytes - plain.decodedBytes).toBe(text.length);
    const [row] = await importPaths(ctx, [write('lzw.pdf', hostilePdf({ pages: [page] }))], {}, run);
    expect(row.status).toBe('imported');
    const pages = ctx.db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? ORDER BY page_num').all(row.reg_id!) as { text: string }[];
    const all = pages.map((p) => p.text).join('\n');
    expect(all).toContain('Article 2. Record breaker 0 position');
    expect(all).toContain(`Article 201. Record breaker ${(199 * 7919) % 1000} position after switching operation 199.`);
    const longRun = { dict: '/Filter /LZWDecode', data: lzwEncode(Buffer.alloc(3 * 1048576, 0x20)) };
    expect(() => checkPdfStreams(hostilePdf({ pages: [longRun] }), 'lzw-bomb.pdf', { ...limits, maxStreamBytes: 2 * 1048576 })).toThrow(/一个压缩流解压后超过 2\.0 MB/);
  });
});
