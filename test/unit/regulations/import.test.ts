import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { slugFromFileName, validateRegId } from '../../../src/core/regulations/slug';
import type { ProgressEvent } from '../../../src/core/common/operation';
import { tempContext, tempDir } from '../../helpers';
import { lawMarkdown, writeFile } from './fixtures';

type Ctx = ReturnType<typeof tempContext>;
let ctx: Ctx;
let dir: string;
beforeEach(() => {
  ctx = tempContext();
  dir = tempDir('gridcode-regs-');
});
afterEach(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const count = (table: string, regId: string) =>
  (ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE reg_id = ?`).get(regId) as { n: number }).n;
const articles = (regId: string) =>
  (ctx.db.prepare("SELECT COUNT(*) AS n FROM reg_units WHERE reg_id = ? AND kind = 'article'").get(regId) as { n: number }).n;

describe('import Markdown / TXT', () => {
  it('imports a statute, lists it, reads its TOC and pages, reports progress', async () => {
    const file = writeFile(dir, '电力法.md', lawMarkdown('中华人民共和国电力法', 4, 10));
    const events: ProgressEvent[] = [];
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file] }, { progress: (e) => events.push(e) });
    expect(res).toMatchObject({ reg_id: 'dianlifa', status: 'imported', title: '中华人民共和国电力法' });
    expect(events.at(-1)).toMatchObject({ done: res.total_pages, total: res.total_pages });

    const list = await invokeOperation(ctx, 'regulations.list', {});
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ reg_id: 'dianlifa', source_file: '电力法.md', total_pages: res.total_pages, keywords: [], description: null, scope: null });
    // 40 articles + the adoption note paragraph
    expect(list[0].unit_count).toBe(41);
    expect(articles('dianlifa')).toBe(40);

    const toc = await invokeOperation(ctx, 'regulations.toc', { reg_id: 'dianlifa' });
    expect(toc.toc.map((t) => t.title)).toEqual(['第一章 第1部分', '第二章 第2部分', '第三章 第3部分', '第四章 第4部分']);

    const read = await invokeOperation(ctx, 'regulations.read', { reg_id: 'dianlifa', start: 1, end: res.total_pages! });
    expect(read.pages.map((p) => p.page_num)).toEqual(Array.from({ length: res.total_pages! }, (_, i) => i + 1));
    expect(read.pages.map((p) => p.text).join('\n')).toContain('第四十条');
  });

  it('rejects reads past the end and over-long ranges with clear errors', async () => {
    const file = writeFile(dir, 'a.md', lawMarkdown('甲规定', 2, 3));
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    const { total_pages } = await invokeOperation(ctx, 'regulations.get', { reg_id: 'a' });
    await expect(invokeOperation(ctx, 'regulations.read', { reg_id: 'a', start: total_pages + 1 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining(`共 ${total_pages} 页`),
    });
    await expect(invokeOperation(ctx, 'regulations.read', { reg_id: 'a', start: 1, end: 25 })).rejects.toMatchObject({ message: expect.stringContaining('最多读取 20 页') });
    await expect(invokeOperation(ctx, 'regulations.read', { reg_id: 'nope', start: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('is idempotent: unchanged file is a no-op, a changed file replaces atomically and keeps metadata', async () => {
    const file = writeFile(dir, 'rule.md', lawMarkdown('乙规定', 2, 5));
    const [first] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    const indexedAt = (await invokeOperation(ctx, 'regulations.get', { reg_id: first.reg_id! })).indexed_at;
    await invokeOperation(ctx, 'regulations.update_info', { reg_id: 'rule', keywords: ['调度'], description: '手工简介' });

    const [again] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(again.status).toBe('unchanged');
    expect((await invokeOperation(ctx, 'regulations.get', { reg_id: 'rule' })).indexed_at).toBe(indexedAt);

    fs.writeFileSync(file, lawMarkdown('乙规定', 3, 5, '修订'));
    const [changed] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(changed).toMatchObject({ reg_id: 'rule', status: 'replaced' });
    const info = await invokeOperation(ctx, 'regulations.get', { reg_id: 'rule' });
    expect(articles('rule')).toBe(15);
    expect(info.keywords).toEqual(['调度']);
    expect(info.description).toBe('手工简介');
    const units = ctx.db.prepare('SELECT text FROM reg_units WHERE reg_id = ?').all('rule') as { text: string }[];
    expect(units.every((u) => !u.text.startsWith('第') || u.text.includes('修订'))).toBe(true);
    expect(count('reg_toc', 'rule')).toBe(3);
  });

  it('imports folders recursively, disambiguates same-slug names, and continues past bad files', async () => {
    writeFile(dir, 'a/电力法.md', lawMarkdown('电力法甲', 1, 3));
    writeFile(dir, 'b/电力法.md', lawMarkdown('电力法乙', 1, 3));
    writeFile(dir, 'b/c/调度规程.txt', '调度规程\n第一章 总则\n第一条 为了规范调度，制定本规程。');
    writeFile(dir, 'b/坏文件.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe, 0x00, 0x01]));
    writeFile(dir, 'b/忽略.png', Buffer.from([1, 2, 3]));
    const results = await invokeOperation(ctx, 'regulations.import', { paths: [dir] });
    expect(results).toHaveLength(4);
    const ok = results.filter((r) => r.status === 'imported').map((r) => r.reg_id).sort();
    expect(ok).toHaveLength(3);
    expect(ok).toContain('dianlifa');
    expect(ok).toContain('diaoduguicheng');
    expect(ok.find((id) => id!.startsWith('dianlifa-'))).toMatch(/^dianlifa-[0-9a-f]{6}$/);
    const bad = results.find((r) => r.status === 'failed')!;
    expect(bad.error).toContain('坏文件.md');
    expect(bad.error).toMatch(/二进制/);
    // re-importing the folder maps each file to the same id again
    const again = await invokeOperation(ctx, 'regulations.import', { paths: [dir] });
    expect(again.filter((r) => r.status === 'unchanged').map((r) => r.reg_id).sort()).toEqual(ok);
    // the disambiguated file keeps its id even after the plain id is freed
    const alt = ok.find((id) => id!.startsWith('dianlifa-'))!;
    const altFile = results.find((r) => r.reg_id === alt)!.file;
    await invokeOperation(ctx, 'regulations.delete', { reg_id: 'dianlifa' });
    fs.appendFileSync(altFile, '\n第九十九条 新增条文。\n');
    const [changed] = await invokeOperation(ctx, 'regulations.import', { paths: [altFile] });
    expect(changed).toMatchObject({ reg_id: alt, status: 'replaced' });
  });

  it('rejects empty, binary-garbage, too-large and unsupported files and stores nothing', async () => {
    const empty = writeFile(dir, 'empty.txt', '');
    const blank = writeFile(dir, 'blank.md', '---\ntitle: x\n---\n\n   \n');
    const garbage = writeFile(dir, 'garbage.md', Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256)));
    // binary without NUL bytes (fails both UTF-8 and GB18030)
    const noNul = writeFile(dir, 'nonul.md', Buffer.from(Array.from({ length: 4000 }, (_, i) => 1 + ((i * 2654435761) >>> 7) % 255)));
    const big = writeFile(dir, 'big.md', lawMarkdown('大文件', 20, 20));
    const odd = writeFile(dir, 'x.xls', 'a,b');
    const emptyDir = path.join(dir, 'nothing-here');
    fs.mkdirSync(emptyDir);
    ctx.config.import.maxFileBytes = 10_000;
    const results = await invokeOperation(ctx, 'regulations.import', { paths: [empty, blank, garbage, noNul, big, odd, emptyDir, path.join(dir, 'missing.md')] });
    expect(results.map((r) => r.status)).toEqual(Array(8).fill('failed'));
    expect(results.find((r) => r.file === emptyDir)!.error).toContain('没有可导入的文件');
    expect(results.find((r) => r.file.endsWith('missing.md'))!.error).toContain('不存在');
    const byFile = Object.fromEntries(results.map((r) => [path.basename(r.file), r]));
    expect(byFile['empty.txt'].error).toContain('为空');
    expect(byFile['blank.md'].error).toContain('没有可导入的正文');
    expect(byFile['garbage.md'].error).toMatch(/garbage\.md.*(二进制|乱码|不是有效的文本)/);
    expect(byFile['nonul.md'].error).toMatch(/nonul\.md.*(二进制|乱码|不是有效的文本)/);
    expect(byFile['big.md']).toMatchObject({ error_code: 'TOO_LARGE', error: expect.stringContaining('过大') });
    expect(byFile['x.xls']).toMatchObject({ error_code: 'UNSUPPORTED_FORMAT' });
    expect((ctx.db.prepare('SELECT COUNT(*) AS n FROM regulations').get() as { n: number }).n).toBe(0);
    expect((ctx.db.prepare('SELECT COUNT(*) AS n FROM reg_pages').get() as { n: number }).n).toBe(0);
  });

  it('decodes GBK text files', async () => {
    const text = '配电规程\n第一章 总则\n第一条 为了规范配电运行，制定本规程。';
    // GB18030 bytes for the text (Node has no GBK encoder: build them from a decoder table lookup)
    const table = new Map<string, number[]>();
    const dec = new TextDecoder('gb18030');
    for (let hi = 0x81; hi <= 0xfe; hi++) for (let lo = 0x40; lo <= 0xfe; lo++) if (lo !== 0x7f) table.set(dec.decode(Uint8Array.of(hi, lo)), [hi, lo]);
    const bytes: number[] = [];
    for (const ch of text) bytes.push(...(ch.charCodeAt(0) < 128 ? [ch.charCodeAt(0)] : table.get(ch)!));
    const file = writeFile(dir, 'gbk.txt', Buffer.from(bytes));
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(res).toMatchObject({ status: 'imported', title: '配电规程' });
  });

  it('validates reg ids and honours --id', async () => {
    for (const bad of ['../x', 'a/b', 'A B', '', 'x'.repeat(65), '中文', '-lead']) expect(() => validateRegId(bad)).toThrow();
    expect(validateRegId('angui_2024')).toBe('angui_2024');
    expect(slugFromFileName('/x/电力法.md')).toBe('dianlifa');
    expect(slugFromFileName('Grid Code v2.PDF')).toBe('grid-code-v2');
    expect(slugFromFileName('广东省大气污染防治条例(2022-11-30).md')).toBe('guangdongshengdaqiwuranfangzhitiaoli-2022-11-30');
    expect(slugFromFileName('中'.repeat(80) + '.md').length).toBeLessThanOrEqual(64);

    const file = writeFile(dir, 'a.md', lawMarkdown('丙规定', 1, 2));
    await expect(invokeOperation(ctx, 'regulations.import', { paths: [file], id: '../evil' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file], id: 'bing_2024' });
    expect(res.reg_id).toBe('bing_2024');
    const two = writeFile(dir, 'b.md', lawMarkdown('丁规定', 1, 2));
    await expect(invokeOperation(ctx, 'regulations.import', { paths: [file, two], id: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('单个文件') });
  });

  it('cancelling a folder import stops between files and keeps the finished ones whole', async () => {
    for (let i = 0; i < 6; i++) writeFile(dir, `c${i}.md`, lawMarkdown(`取消测试${i}`, 2, 3));
    const abort = new AbortController();
    const run = invokeOperation(ctx, 'regulations.import', { paths: [dir] }, {
      signal: abort.signal,
      progress: (e) => {
        if (e.total === 6 && e.done >= 2) abort.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    const regs = (ctx.db.prepare('SELECT reg_id FROM regulations ORDER BY reg_id').all() as { reg_id: string }[]).map((r) => r.reg_id);
    expect(regs).toEqual(['c0', 'c1']);
    for (const id of regs) expect(articles(id)).toBe(6);
  });

  it('delete removes pages, TOC and units; a second delete is NOT_FOUND', async () => {
    const file = writeFile(dir, 'del.md', lawMarkdown('删除测试', 2, 3));
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(articles('del')).toBe(6);
    await invokeOperation(ctx, 'regulations.delete', { reg_id: 'del' });
    for (const t of ['regulations', 'reg_pages', 'reg_toc', 'reg_units']) expect(count(t, 'del')).toBe(0);
    await expect(invokeOperation(ctx, 'regulations.delete', { reg_id: 'del' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
