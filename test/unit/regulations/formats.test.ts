import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';
import { makeDocx, makePdf, type PdfSection } from './fixtures';

type Ctx = ReturnType<typeof tempContext>;
let ctx: Ctx;
let dir: string;
beforeAll(() => {
  ctx = tempContext();
  dir = tempDir('gridcode-formats-');
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SECTIONS: PdfSection[] = [
  {
    heading: '第一章 总则',
    lines: [
      '第一条 为了加强安全自动装置调度运行管理，保障电网安全稳定运行，根据有关规定，制定本规定。本条文字较长，用于验证换行后的中文行在导入时直接拼接而不插入空格，保证检索时词语完整。',
      '第二条 本规定适用于直调安控装置的调度运行管理。',
    ],
  },
  { heading: '第二章 压板管理', lines: ['第十条之一 压板投退应当按照值班调度员的调度指令执行。', '第十一条 出口压板退出前应当核对装置状态。'] },
  { heading: '第三章 故障处理', lines: ['第一百零二条 母线失压时，运行值班人员应当立即报告值班调度员。'] },
];

const unitsOf = (regId: string) =>
  ctx.db.prepare('SELECT page_num, kind, label, section_path, text FROM reg_units WHERE reg_id = ? ORDER BY ord').all(regId) as {
    page_num: number;
    kind: string;
    label: string | null;
    section_path: string;
    text: string;
  }[];

describe('PDF import', () => {
  it('uses the PDF outline as TOC with page numbers and keeps one page per physical page', async () => {
    const file = await makePdf(path.join(dir, 'with-outline.pdf'), { sections: SECTIONS, outline: true, title: '安控规定' });
    const events: { done: number; total: number }[] = [];
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file] }, { progress: (e) => events.push(e) });
    expect(res).toMatchObject({ status: 'imported', reg_id: 'with-outline', title: '安控规定', total_pages: 3 });
    expect(events.map((e) => `${e.done}/${e.total}`)).toEqual(['1/3', '2/3', '3/3']);
    const toc = await invokeOperation(ctx, 'regulations.toc', { reg_id: 'with-outline' });
    expect(toc.toc.map((t) => [t.title, t.page_num])).toEqual([
      ['第一章 总则', 1],
      ['第二章 压板管理', 2],
      ['第三章 故障处理', 3],
    ]);
    const units = unitsOf('with-outline');
    expect(units.map((u) => u.label)).toEqual(['第一条', '第二条', '第十条之一', '第十一条', '第一百零二条']);
    expect(units.find((u) => u.label === '第一百零二条')).toMatchObject({ page_num: 3, section_path: '第三章 故障处理 > 第一百零二条' });
    // the wrapped long article comes back as one line with no spaces between CJK characters
    const first = units[0].text;
    expect(first).toContain('换行后的中文行在导入时直接拼接而不插入空格');
    expect(first.replace(/^第一条 /, '')).not.toMatch(/[\u4e00-\u9fff] [\u4e00-\u9fff]/);
    const read = await invokeOperation(ctx, 'regulations.read', { reg_id: 'with-outline', start: 2, end: 3 });
    expect(read.pages[0].text).toContain('第十条之一');
    expect(read.pages[1].text).toContain('母线失压');
  });

  it('detects the TOC from headings when the PDF has no outline', async () => {
    const file = await makePdf(path.join(dir, 'no-outline.pdf'), { sections: SECTIONS, outline: false });
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    const toc = await invokeOperation(ctx, 'regulations.toc', { reg_id: 'no-outline' });
    expect(toc.toc.map((t) => [t.title, t.page_num])).toEqual([
      ['第一章 总则', 1],
      ['第二章 压板管理', 2],
      ['第三章 故障处理', 3],
    ]);
  });

  it('rejects encrypted, corrupt, empty and image-only PDFs with the file name and reason, storing nothing', async () => {
    const encrypted = await makePdf(path.join(dir, 'encrypted.pdf'), { sections: SECTIONS, userPassword: 'secret' });
    const empty = await makePdf(path.join(dir, 'empty.pdf'), {});
    const image = await makePdf(path.join(dir, 'scan.pdf'), { image: true });
    const good = fs.readFileSync(path.join(dir, 'with-outline.pdf'));
    const corrupt = path.join(dir, 'corrupt.pdf');
    fs.writeFileSync(corrupt, good.subarray(0, 300));
    const notPdf = path.join(dir, 'notpdf.pdf');
    fs.writeFileSync(notPdf, 'this is not a pdf at all');
    const before = (ctx.db.prepare('SELECT COUNT(*) AS n FROM regulations').get() as { n: number }).n;
    const results = await invokeOperation(ctx, 'regulations.import', { paths: [encrypted, empty, image, corrupt, notPdf] });
    expect(results.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    const [enc, emp, img, cor, np] = results;
    expect(enc.error).toMatch(/encrypted\.pdf.*加密/);
    expect(emp.error).toMatch(/empty\.pdf.*没有任何文字/);
    expect(img.error).toMatch(/scan\.pdf.*图片/);
    expect(cor.error).toMatch(/corrupt\.pdf.*(损坏|无效|无法解析)/);
    expect(np.error).toMatch(/notpdf\.pdf.*(损坏|不是有效的 PDF)/);
    expect((ctx.db.prepare('SELECT COUNT(*) AS n FROM regulations').get() as { n: number }).n).toBe(before);
  });
});

describe('original PDF bytes for the reader', () => {
  it('keeps a copy in the data dir, serves it after the user deletes the file, removes it on delete', async () => {
    const file = await makePdf(path.join(dir, 'moved-away.pdf'), { sections: SECTIONS.slice(0, 1), outline: true });
    const original = fs.readFileSync(file);
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    fs.rmSync(file);
    const src = await invokeOperation(ctx, 'regulations.source', { reg_id: 'moved-away' });
    expect(src).toMatchObject({ format: 'pdf', file_name: 'moved-away.pdf', bytes: original.length });
    expect(Buffer.from(src.data_base64, 'base64').equals(original)).toBe(true);
    const copy = path.join(ctx.dataDir, 'sources', 'moved-away.pdf');
    fs.writeFileSync(copy, Buffer.concat([original, Buffer.from('tampered')]));
    await expect(invokeOperation(ctx, 'regulations.source', { reg_id: 'moved-away' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await invokeOperation(ctx, 'regulations.delete', { reg_id: 'moved-away' });
    expect(fs.existsSync(copy)).toBe(false);
  });
});

describe('DOCX import', () => {
  it('turns Word headings into TOC entries and finds articles and tables', async () => {
    const file = await makeDocx(path.join(dir, '运维办法.docx'));
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(res).toMatchObject({ status: 'imported', reg_id: 'yunweibanfa', title: '变电站运维管理办法' });
    const toc = await invokeOperation(ctx, 'regulations.toc', { reg_id: 'yunweibanfa' });
    expect(toc.toc.map((t) => `${t.level}:${t.title}`)).toEqual(['1:第一章 总则', '1:第二章 巡视管理', '2:第一节 例行巡视']);
    const units = unitsOf('yunweibanfa');
    expect(units.filter((u) => u.kind === 'article').map((u) => u.label)).toEqual(['第一条', '第二条', '第三条', '第十条之一', '第一百零二条']);
    expect(units.find((u) => u.label === '第三条')!.section_path).toBe('第二章 巡视管理 > 第一节 例行巡视 > 第三条');
    const page = await invokeOperation(ctx, 'regulations.read', { reg_id: 'yunweibanfa', start: 1 });
    expect(page.pages[0].text).toContain('| 主变压器 | 每日 |');
  });

  it('rejects a corrupt DOCX', async () => {
    const bad = path.join(dir, 'bad.docx');
    fs.writeFileSync(bad, 'PK\u0003\u0004 not really a zip');
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [bad] });
    expect(res).toMatchObject({ status: 'failed', error: expect.stringMatching(/bad\.docx.*(DOCX|损坏)/) });
  });
});
