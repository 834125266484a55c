import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { largestParagraphChars } from '../../../src/core/common/zip-guard';
import { tempContext, tempDir } from '../../helpers';
import { makeRawDocx, makeZip, variedChinese, wordParagraph } from '../../fixtures/zip';

type Ctx = ReturnType<typeof tempContext>;
type Result = { status: string; error?: string; error_code?: string; reg_id: string | null };

let ctx: Ctx;
let dir: string;
beforeAll(() => {
  ctx = tempContext();
  dir = tempDir('gridcode-caps-');
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function importBytes(name: string, bytes: Buffer): Promise<Result> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const [r] = (await invokeOperation(ctx, 'regulations.import', { paths: [file] })) as Result[];
  return r;
}

const regulationCount = () => (ctx.db.prepare('SELECT COUNT(*) AS n FROM regulations').get() as { n: number }).n;

describe('zip-based input is capped before it is inflated', () => {
  it('a legitimate small DOCX imports', async () => {
    const r = await importBytes('正常.docx', makeRawDocx(['第一章 总则', '第一条 为了保证安全，制定本规程。', '第二条 本规程适用于变电站。'].map(wordParagraph).join('')));
    expect(r.status).toBe('imported');
  });

  it('a DOCX bomb (1000:1) fails with TOO_LARGE and a Chinese reason, nothing stored', async () => {
    const before = regulationCount();
    const para = wordParagraph('第一条 运行人员应当巡视设备。'.repeat(20));
    const body = para.repeat(Math.ceil((8 * 1024 * 1024) / para.length));
    const r = await importBytes('炸弹.docx', makeRawDocx(body));
    expect(r.status).toBe('failed');
    expect(r.error_code).toBe('TOO_LARGE');
    expect(r.error).toMatch(/压缩比 \d+:1，上限 100:1/);
    expect(regulationCount()).toBe(before);
  });

  it('headers that understate the inflated size are caught while inflating (bounded output)', async () => {
    const body = wordParagraph(variedChinese(2000)).repeat(200);
    const r = await importBytes('说谎.docx', makeRawDocx(body, { declaredSize: 4096 }));
    expect(r.error_code).toBe('TOO_LARGE');
    expect(r.error).toMatch(/实际解压大小超过其声明/);
  });

  it('too many entries, too much XML in all', async () => {
    const many = makeRawDocx(wordParagraph('第一条 内容。'), {}, Array.from({ length: 5001 }, (_, i) => ({ name: `word/media/x${i}.bin`, data: 'x', store: true })));
    const r1 = await importBytes('条目.docx', many);
    expect(r1.error_code).toBe('TOO_LARGE');
    expect(r1.error).toMatch(/5004 个压缩条目，上限 5000/);
    // many parts of varied text: each under the ratio cap, together over the XML cap (set low here)
    fs.writeFileSync(path.join(ctx.dataDir, 'config.json'), JSON.stringify({ import: { maxXmlBytes: 1024 * 1024 } }));
    const { loadConfig } = await import('../../../src/core/config');
    ctx.config = loadConfig(ctx.dataDir).config;
    try {
      const parts = Array.from({ length: 4 }, (_, i) => ({ name: `word/header${i}.xml`, data: `<w:hdr>${variedChinese(120_000, i + 2)}</w:hdr>` }));
      const r2 = await importBytes('多部件.docx', makeRawDocx(wordParagraph('第一条 内容。'), {}, parts));
      expect(r2.error_code).toBe('TOO_LARGE');
      expect(r2.error).toMatch(/文档 XML 声明解压后超过 1\.0 MB/);
    } finally {
      fs.rmSync(path.join(ctx.dataDir, 'config.json'));
      ctx.config = loadConfig(ctx.dataDir).config;
    }
  });

  it('a paragraph bomb (one paragraph of 1.5 M characters of varied text, low ratio) fails clearly', async () => {
    const r = await importBytes('段落.docx', makeRawDocx(wordParagraph('第一条 ' + variedChinese(1_500_000))));
    expect(r.status).toBe('failed');
    expect(r.error_code).toBe('TOO_LARGE');
    expect(r.error).toMatch(/有一个段落过大（\d+\.\d MB，上限 1\.0 MB）/);
  });

  it('a corrupt archive is BAD_FILE without quoting its content', async () => {
    const r = await importBytes('坏.docx', Buffer.from('PK\u0003\u0004 SECRET-LINE not a zip'));
    expect(r.error_code).toBe('BAD_FILE');
    expect(r.error).not.toContain('SECRET');
    const noDoc = await importBytes('空.docx', makeZip([{ name: 'a.txt', data: 'SECRET-LINE' }]));
    expect(noDoc.status).toBe('failed');
    expect(noDoc.error).not.toContain('SECRET');
  });
});

describe('largestParagraphChars', () => {
  it('measures each paragraph, nested text-box paragraphs on their own, self-closing ones as nothing', () => {
    const small = wordParagraph('短');
    const big = wordParagraph('长'.repeat(500));
    expect(largestParagraphChars(small + big + '<w:p/>' + small)).toBe(big.length);
    const nested = `<w:p><w:r><w:txbxContent>${big}</w:txbxContent></w:r></w:p>`;
    expect(largestParagraphChars(nested)).toBe(nested.length);
    expect(largestParagraphChars('<w:pPr></w:pPr>')).toBe(0);
  });
});

describe('the page cap holds for every shape', () => {
  const big = '规'.repeat(60_000);
  const headingsOnly = Array.from({ length: 3000 }, (_, i) => `## 第${i + 1}节 标题${i}`).join('\n\n');
  it.each([
    ['headings-only Markdown (3,000 headings, was one page of 51,781 characters)', 'a.md', headingsOnly],
    ['one huge heading line', 'b.md', `# 标题\n\n## ${big}\n\n第一条 内容。`],
    ['one huge table row', 'c.md', `| 列 | 值 |\n| --- | --- |\n| ${big} | x |\n`],
    ['one huge list item', 'd.md', `- ${big}\n`],
    ['one unbroken token', 'e.txt', 'x'.repeat(100_000)],
    ['a heading run in a TXT table of contents', 'f.txt', Array.from({ length: 2000 }, (_, i) => `${Math.floor(i / 9) + 1}.${(i % 9) + 1} 标题${i}`).join('\n')],
  ])('%s', async (_what, name, text) => {
    const r = await importBytes(name, Buffer.from(text));
    expect(r.status).toBe('imported');
    const { longest, pages } = ctx.db.prepare('SELECT MAX(length(text)) AS longest, COUNT(*) AS pages FROM reg_pages WHERE reg_id = ?').get(r.reg_id) as { longest: number; pages: number };
    expect(longest).toBeLessThanOrEqual(ctx.config.import.maxPageChars);
    expect(pages).toBeGreaterThan(1);
  });
});
