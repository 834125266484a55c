import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { resourcesDir } from '../../../src/core/common/paths';
import { squash } from '../../../src/core/regulations/hit-explain';
import { tempContext, tempDir } from '../../helpers';

// Where a hit is printed and why it was found, on the demo library imported by the real importer.
const ready = fs.existsSync(path.join(resourcesDir(), 'regulations', 'angui_2024', 'angui_2024.pdf'));

describe.skipIf(!ready)('search hits: location and explanation', () => {
  const ctx = tempContext({ modelsDir: tempDir() });
  afterAll(() => ctx.cleanup());
  beforeAll(async () => {
    await invokeOperation(ctx, 'regulations.demo_load', {});
  }, 120_000);
  const search = (query: string, extra: Record<string, unknown> = {}) => invokeOperation(ctx, 'search.smart_search', { query, reg_id: 'all', ...extra } as never);
  const pageText = (regId: string, page: number) => (ctx.db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? AND page_num = ?').get(regId, page) as { text: string }).text;

  it('an article printed over two pages reports both pages; its first words are on the first, its last on the second', async () => {
    const out = await search('母线失压时按照下列原则处理');
    const hit = out.results.find((r) => r.article === '第三十二条' && r.reg_id === 'angui_2024')!;
    expect(hit).toBeTruthy();
    expect(hit.locate).toMatchObject({ block: 'article', label: '第三十二条', page_num: 4, page_end: 5 });
    // the reader finds the block by the lead's first characters (the whole lead may run on too)
    expect(squash(pageText('angui_2024', 4))).toContain(hit.locate.lead.slice(0, 12));
    expect(squash(pageText('angui_2024', 4))).not.toContain(hit.locate.tail);
    expect(squash(pageText('angui_2024', 5))).toContain(hit.locate.tail);
    // an article on one page ends there
    for (const r of out.results.filter((x) => x.kind === 'article' && x.unit_id !== hit.unit_id)) {
      expect(squash(pageText(r.reg_id, r.locate.page_end))).toContain(r.locate.tail);
    }
  });

  it('a table hit names its table, the matched row and the page that row is printed on', async () => {
    const out = await search('天山换流站 稳控装置 台账');
    const rows = out.results.filter((r) => r.locate.block === 'table' && r.locate.row);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const table = ctx.db.prepare('SELECT id FROM reg_tables WHERE reg_id = ? AND table_id = ?').get(r.reg_id, r.locate.table_id) as { id: number };
      const printed = ctx.db.prepare('SELECT page_num FROM reg_table_rows WHERE table_pk = ? AND cells = ?').get(table.id, JSON.stringify(r.locate.row)) as { page_num: number } | undefined;
      expect(printed?.page_num, `${r.locate.table_id} row ${r.locate.row?.[0]}`).toBe(r.locate.page_num);
      expect(r.table?.row?.cells).toEqual(r.locate.row);
    }
    const first = rows[0];
    expect(first.locate.row!.join('')).toContain('天山换流站');
    expect(first.why.terms).toEqual(expect.arrayContaining([{ term: '天山', where: 'table_row' }, { term: '换流站', where: 'table_row' }]));
    expect(first.why.summary).toMatch(/「天山」「换流站」.*出现在表格这一行中/);
  });

  it('"why" says in words which query words matched where and which are missing; totals count results alike', async () => {
    const out = await search('母线失压 拉开断路器');
    const top = out.results[0];
    expect(top.why.summary).toMatch(/「母线」|「失压」|「母线失压」/);
    expect(top.why.summary).not.toMatch(/\d\.\d{3}/);
    for (const t of top.why.terms) expect(['label', 'section', 'body', 'table_header', 'table_row', 'table_title']).toContain(t.where);
    // a word the hit lacks is named as missing, never as matched
    for (const m of top.why.missing) expect(top.why.terms.map((t) => t.term)).not.toContain(m);
    expect(out.groups.reduce((n, g) => n + g.total, 0)).toBe(out.total);
    for (const g of out.groups) {
      expect(g.more).toBe(g.total - g.shown);
      expect(g.rows).toBeGreaterThanOrEqual(g.total);
    }
  });

  it('auto selection says why a regulation was chosen, with the question words its profile holds', async () => {
    const out = await search('母线失压', { reg_id: null });
    expect(out.selection.fallback_all).toBe(false);
    const hit = out.results[0];
    expect(hit.why.regulation).toMatch(/^自动选择了本规程：标题、关键词或目录含有「/);
    const explicit = await search('母线失压', { reg_id: 'angui_2024' });
    expect(explicit.results[0].why.regulation).toBeNull();
  });
});
