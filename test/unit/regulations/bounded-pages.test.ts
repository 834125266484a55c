import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import type { ApiOutput } from '../../../src/core/api/table';
import { wrapText } from '../../../src/core/text/wrap';
import { tempContext, tempDir } from '../../helpers';

/** Sentences of varied length, so breaks have to be searched for, not found at fixed offsets. */
function prose(chars: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const s = `第${i}句规定变电站值班人员应当${'认真巡视设备'.repeat(1 + (i % 7))}并记录${i % 3 ? '，发现异常及时报告' : ''}。`;
    parts.push(s);
    n += s.length;
  }
  return parts.join('');
}

describe('wrapText', () => {
  it('cuts at sentence ends, keeps every character, never exceeds the limit', () => {
    const text = prose(20_000);
    const pieces = wrapText(text, 1800);
    expect(pieces.join('')).toBe(text);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(1800);
    expect(pieces.slice(0, -1).every((p) => p.endsWith('。'))).toBe(true);
    expect(Math.min(...pieces.slice(0, -1).map((p) => p.length))).toBeGreaterThanOrEqual(900);
  });

  it('falls back to clause marks, then to a hard cut that keeps surrogate pairs whole', () => {
    const clauses = '设备巡视，'.repeat(1000);
    expect(wrapText(clauses, 1000).slice(0, -1).every((p) => p.endsWith('，'))).toBe(true);
    const astral = '𠀀'.repeat(3000); // one character, two UTF-16 units
    const pieces = wrapText(astral, 1001);
    expect(pieces.join('')).toBe(astral);
    expect(pieces.every((p) => !/[\ud800-\udbff]$/.test(p))).toBe(true);
  });
});

describe('bounded pages', () => {
  let ctx: ReturnType<typeof tempContext>;
  let dir: string;
  beforeEach(() => {
    ctx = tempContext();
    dir = tempDir('gridcode-bounded-');
  });
  afterEach(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const pageLengths = (regId: string) =>
    (ctx.db.prepare('SELECT length(text) AS n FROM reg_pages WHERE reg_id = ? ORDER BY page_num').all(regId) as { n: number }[]).map((r) => r.n);

  it('a single-line TXT becomes many bounded pages that together hold every character', async () => {
    const marker = '蓄电池组每年应进行一次核对性放电试验。';
    const text = prose(300_000) + marker + prose(100_000);
    const file = path.join(dir, 'one-line.txt');
    fs.writeFileSync(file, text);
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(res.status).toBe('imported');
    const lengths = pageLengths('one-line');
    expect(lengths.length).toBeGreaterThan(100);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(ctx.config.import.maxPageChars);
    const all = (ctx.db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? ORDER BY page_num').all('one-line') as { text: string }[]).map((r) => r.text).join('');
    expect(all.replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    // still searchable deep inside the line
    const hit = await invokeOperation(ctx, 'search.smart_search', { query: '蓄电池核对性放电', reg_id: 'one-line', mode: 'lexical' });
    const page = hit.results[0]?.page_num ?? 0;
    expect(page).toBeGreaterThan(lengths.length / 2);
    const read = await invokeOperation(ctx, 'regulations.read', { reg_id: 'one-line', start: page });
    expect(read.pages[0].text.replace(/\s/g, '')).toContain('核对性放电');
  });

  it('an article longer than the page ceiling runs on over pages; shorter articles stay whole', async () => {
    const long = prose(30_000).replace(/。/g, '。\n');
    const md = `# 长条规程\n\n第一条 ${long}\n\n第二条 本规程自发布之日起施行。\n`;
    const file = path.join(dir, 'long-article.md');
    fs.writeFileSync(file, md);
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    const lengths = pageLengths('long-article');
    expect(lengths.length).toBeGreaterThan(10);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(ctx.config.import.maxPageChars);
    const units = ctx.db.prepare("SELECT label, page_num FROM reg_units WHERE reg_id = ? AND kind = 'article' ORDER BY page_num").all('long-article') as { label: string; page_num: number }[];
    expect(units.map((u) => u.label)).toEqual(['第一条', '第二条']);
    expect(units[0].page_num).toBe(1);
    const read = await invokeOperation(ctx, 'regulations.read', { reg_id: 'long-article', start: 1 });
    expect(read.pages[0].text).toContain('第一条');
  });

  it('reads are cut to the character budget and the continuation covers the range exactly once', async () => {
    const file = path.join(dir, 'budget.txt');
    fs.writeFileSync(file, prose(60_000));
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    ctx.config.reader.maxResponseChars = 5000;
    const whole = (ctx.db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? AND page_num <= 20 ORDER BY page_num').all('budget') as { text: string }[]).map((r) => r.text);
    let input: { reg_id: string; start: number; end: number; offset?: number } | null = { reg_id: 'budget', start: 1, end: 20 };
    const got: string[] = [];
    let calls = 0;
    while (input) {
      const out: ApiOutput<'regulations.read'> = await invokeOperation(ctx, 'regulations.read', input);
      const chars = out.pages.reduce((n, p) => n + p.text.length, 0);
      expect(chars).toBeLessThanOrEqual(5000);
      expect(out.truncated).toBe(out.next !== null);
      got.push(...out.pages.map((p) => p.text));
      input = out.next;
      calls++;
    }
    expect(calls).toBeGreaterThan(5);
    expect(got.join('')).toBe(whole.join(''));
  });

  it('a page stored before pages were bounded is read in slices with offsets', async () => {
    const file = path.join(dir, 'legacy.txt');
    fs.writeFileSync(file, prose(3000));
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    const giant = prose(250_000);
    ctx.db.prepare('UPDATE reg_pages SET text = ? WHERE reg_id = ? AND page_num = 1').run(giant, 'legacy');
    const first = await invokeOperation(ctx, 'regulations.read', { reg_id: 'legacy', start: 1 });
    expect(first.truncated).toBe(true);
    expect(first.pages[0]).toMatchObject({ page_num: 1, offset: 0, total_chars: giant.length });
    expect(first.pages[0].text.length).toBe(ctx.config.reader.maxResponseChars);
    expect(first.next).toEqual({ reg_id: 'legacy', start: 1, end: 1, offset: ctx.config.reader.maxResponseChars });
    let text = first.pages[0].text;
    let next = first.next;
    while (next) {
      const out = await invokeOperation(ctx, 'regulations.read', next);
      text += out.pages[0].text;
      next = out.next;
    }
    expect(text).toBe(giant);
    await expect(invokeOperation(ctx, 'regulations.read', { reg_id: 'legacy', start: 1, offset: giant.length })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('search results cut oversized table cells, keep the snippet short', async () => {
    const huge = '蓄电池组运行维护要求'.repeat(800);
    const md = `# 台账\n\n## 附录A 设备台账\n\n表A.1 设备台账\n\n| 设备 | 说明 |\n| --- | --- |\n| 直流屏 | ${huge} |\n| 站用变 | 定期巡视 |\n`;
    const file = path.join(dir, 'wide-table.md');
    fs.writeFileSync(file, md);
    await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    const out = await invokeOperation(ctx, 'search.smart_search', { query: '直流屏 蓄电池组运行维护', reg_id: 'wide-table', mode: 'lexical' });
    const hit = out.results.find((r) => r.table?.row);
    expect(hit).toBeDefined();
    expect(hit!.table!.row!.cells.join('')).toContain('直流屏');
    for (const c of hit!.table!.row!.cells) expect(c.length).toBeLessThanOrEqual(200);
    expect(hit!.snippet.length).toBeLessThanOrEqual(400);
    expect(JSON.stringify(out).length).toBeLessThan(huge.length);
  });
});
