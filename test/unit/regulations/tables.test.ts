import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { parseFlowText } from '../../../src/core/regulations/structure';
import { findReferences } from '../../../src/core/regulations/refs';
import { parseCaption } from '../../../src/core/regulations/tables';
import { tempContext, tempDir } from '../../helpers';
import { FEEDERS, TRANSFORMERS, makeDocx, makeTablePdf } from './fixtures';

type Ctx = ReturnType<typeof tempContext>;
let ctx: Ctx;
let dir: string;
beforeAll(() => {
  ctx = tempContext();
  dir = tempDir('gridcode-tables-');
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('PDF tables (generated, borderless, cross-page)', () => {
  let regId: string;
  beforeAll(async () => {
    const file = path.join(dir, '负载管理办法.pdf');
    await makeTablePdf(file);
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file], id: 'fuzai' });
    expect(res.status).toBe('imported');
    regId = res.reg_id!;
  }, 60_000);

  it('lists both tables once with their page spans', async () => {
    const out = await invokeOperation(ctx, 'regulations.tables', { reg_id: regId });
    expect(out.tables.map((t) => t.table_id)).toEqual(['表3-1', '表3-2']);
    const [t1, t2] = out.tables;
    expect(t1).toMatchObject({ title: '主变压器负载限额', row_count: 70, columns: ['序号', '设备名称', '额定容量(MVA)', '负载率上限'] });
    expect(t1.page_end).toBeGreaterThan(t1.page_start);
    expect(t2).toMatchObject({ title: '馈线电流限额', row_count: 50, columns: ['馈线', '电压等级', '限额(A)'] });
    expect(t2.page_end).toBeGreaterThan(t2.page_start);
  });

  it('merges a table with repeated caption and header into one, header once, rows with their pages', async () => {
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: regId, table_id: '表 3－1' });
    expect(t.rows.map((r) => r.cells)).toEqual(TRANSFORMERS);
    expect(t.rows.some((r) => r.cells[0] === '序号')).toBe(false);
    const pages = [...new Set(t.rows.map((r) => r.page_num))];
    expect(pages.length).toBeGreaterThan(1);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
    expect(t.notes.map((n) => n.label)).toEqual(['注1', '注2']);
    expect(t.notes[0].text).toContain('90%');
  });

  it('merges a continuation that has neither caption nor header', async () => {
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: regId, table_id: '表3-2' });
    expect(t.rows.map((r) => r.cells)).toEqual(FEEDERS);
    expect(new Set(t.rows.map((r) => r.page_num)).size).toBeGreaterThan(1);
  });

  it('resolves references to tables, articles, chapters, appendices and notes', async () => {
    const r = (reference: string) => invokeOperation(ctx, 'regulations.resolve', { reg_id: regId, reference });
    const table = await invokeOperation(ctx, 'regulations.tables', { reg_id: regId });
    expect(await r('见表3-1')).toMatchObject({ resolved: true, reference_type: 'table', target: '表3-1', page_num: table.tables[0].page_start });
    expect(await r('按本办法第五条执行')).toMatchObject({ resolved: true, reference_type: 'article', target: '第五条', page_num: 1 });
    expect(await r('详见第二章')).toMatchObject({ resolved: true, reference_type: 'chapter', target: '第二章 限额管理', page_num: 1 });
    const app = await r('见附录A');
    expect(app).toMatchObject({ resolved: true, reference_type: 'appendix' });
    const pages = (await invokeOperation(ctx, 'regulations.get', { reg_id: regId })).total_pages;
    expect(app.page_num).toBe(pages);
    expect(await r('注1')).toMatchObject({ resolved: false, reference_type: 'unknown' });
    expect(await r('见注1')).toMatchObject({ resolved: true, reference_type: 'note', table_id: '表3-1' });
    expect(await r('见第九十九条')).toMatchObject({ resolved: false, reference_type: 'article' });
    // typed with spaces, and a container named right before what it holds: the narrower target wins
    expect(await r('按本办法第 5 条执行')).toMatchObject({ resolved: true, reference_type: 'article', target: '第五条' });
    expect(await r('详见第 2 章')).toMatchObject({ resolved: true, reference_type: 'chapter', page_num: 1 });
    const inAppendix = await r('按附录 A 中的表 3-2 执行');
    expect(inAppendix).toMatchObject({ resolved: true, reference_type: 'table', target: '表3-2', page_num: table.tables[1].page_start });
    expect(inAppendix.others.map((o) => o.target)).toEqual(['附录A']);
    expect(await r('附录A，另见表3-2')).toMatchObject({ reference_type: 'appendix' });
    const notes = await invokeOperation(ctx, 'regulations.notes', { reg_id: regId, note: '注 2' });
    expect(notes.notes).toHaveLength(1);
    expect(notes.notes[0]).toMatchObject({ target_type: 'table', target: '表3-1' });
  });

  it('page_structure gives the reader one page: the rows printed there, continuation flags, resolved references', async () => {
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: regId, table_id: '表3-1' });
    const second = t.rows.find((r) => r.page_num > t.page_start)!.page_num;
    const page = await invokeOperation(ctx, 'regulations.page_structure', { reg_id: regId, page: second });
    const onPage = page.tables.find((x) => x.table_id === '表3-1')!;
    expect(onPage).toMatchObject({ continued: true, columns: t.columns });
    expect(onPage.rows).toEqual(t.rows.filter((r) => r.page_num === second));
    const first = await invokeOperation(ctx, 'regulations.page_structure', { reg_id: regId, page: 1 });
    expect(first.references.filter((r) => r.reference_type === 'table').map((r) => [r.reference_text, r.resolved, r.page_num])).toEqual([
      ['表3-1', true, t.page_start],
      ['表3-2', true, (await invokeOperation(ctx, 'regulations.table', { reg_id: regId, table_id: '表3-2' })).page_start],
    ]);
  });

  it('search_tables finds the table and the matching row', async () => {
    const out = await invokeOperation(ctx, 'regulations.search_tables', { query: '西山变电站 主变 负载率上限', reg_id: regId });
    expect(out.results[0].table.table_id).toBe('表3-1');
    expect(out.results[0].rows[0].cells[1]).toContain('西山变电站');
  });
});

describe('Markdown / DOCX tables', () => {
  it('GFM tables with captions; 续表 merges; notes attach to the table or the article', () => {
    const text = [
      '# 测试规程',
      '',
      '## 第一章 总则',
      '',
      '第一条 限额见表6-2，计算方法见附录B。',
      '注：本条所称限额为稳定限额。',
      '',
      '表6-2 断面限额',
      '',
      '| 断面 | 限额(MW) |',
      '| --- | ---: |',
      '| 甲乙断面 | 1200 |',
      '| 丙丁断面 | 900 |',
      '',
      '注1：限额按季节调整。',
      '',
      '表6-2 断面限额（续）',
      '',
      '| 断面 | 限额(MW) |',
      '| --- | ---: |',
      '| 戊己断面 | 700 |',
      '',
      '## 附录B 计算方法',
      '',
      '按潮流计算。',
    ].join('\n');
    const doc = parseFlowText(text, { format: 'markdown', markdown: true, pageChars: 1800, fallbackTitle: 'x' });
    expect(doc.tables).toHaveLength(1);
    expect(doc.tables![0]).toMatchObject({ table_id: '表6-2', title: '断面限额', columns: ['断面', '限额(MW)'] });
    expect(doc.tables![0].rows.map((r) => r.cells[0])).toEqual(['甲乙断面', '丙丁断面', '戊己断面']);
    expect(doc.notes!.map((n) => [n.label, n.target_type, n.target])).toEqual([
      ['注', 'article', '第一条'],
      ['注1', 'table', '表6-2'],
    ]);
    expect(doc.refs!.map((r) => [r.ref_type, r.target])).toEqual(
      expect.arrayContaining([
        ['table', '表6-2'],
        ['appendix', '附录B'],
      ]),
    );
    const unit = doc.units.find((u) => u.kind === 'table')!;
    expect(unit.text.split('\n').slice(0, 2)).toEqual(['表6-2 断面限额', '| 断面 | 限额(MW) |']);
  });

  it('a search over note blocks finds table notes and notes written inside an article', async () => {
    const file = path.join(dir, '限额说明.md');
    fs.writeFileSync(
      file,
      ['# 限额说明', '', '## 第一章 总则', '', '第一条 断面限额按季节调整。', '', '注：本条所称限额为热稳定限额。', '', '第二条 其他事项另行规定。', '', '表1-1 断面限额', '', '| 断面 | 限额(MW) |', '| --- | ---: |', '| 甲乙断面 | 1200 |', '', '注1：检修方式下限额按八折执行。', ''].join('\n'),
    );
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file], id: 'xiane' });
    const notes = await invokeOperation(ctx, 'regulations.notes', { reg_id: res.reg_id! });
    expect(notes.notes.map((n) => [n.label, n.target])).toEqual([
      ['注', '第一条'],
      ['注1', '表1-1'],
    ]);
    const search = (query: string) => invokeOperation(ctx, 'search.smart_search', { query, reg_id: 'xiane', block_types: ['note'] });
    const inArticle = (await search('热稳定限额')).results;
    expect(inArticle[0]).toMatchObject({ article: '第一条' });
    const underTable = (await search('检修方式 八折')).results;
    expect(underTable[0]).toMatchObject({ block_type: 'note' });
    // articles without a note never come back as notes
    expect((await search('其他事项另行规定')).results.map((r) => r.article)).not.toContain('第二条');
  });

  it('DOCX tables come through their table structure', async () => {
    const file = await makeDocx(path.join(dir, '运维管理办法.docx'));
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    const out = await invokeOperation(ctx, 'regulations.table', { reg_id: res.reg_id!, table_id: 'T1' });
    expect(out.columns).toEqual(['设备', '巡视周期']);
    expect(out.rows.map((r) => r.cells)).toEqual([['主变压器', '每日']]);
  });

  it('reads captions as offices print them', () => {
    expect(parseCaption('表1：设备清单')).toEqual({ id: '表1', title: '设备清单', continued: false });
    expect(parseCaption('表 3.2-1　主变参数')).toEqual({ id: '表3.2-1', title: '主变参数', continued: false });
    expect(parseCaption('表1 设备清单（续表）')).toEqual({ id: '表1', title: '设备清单', continued: true });
    expect(parseCaption('表 B-2 压板表 (续)')).toEqual({ id: '表B-2', title: '压板表', continued: true });
    expect(parseCaption('续表 A.1')).toEqual({ id: '表A.1', title: '', continued: true });
    expect(parseCaption('表中数值为暂定值。')).toBeNull();
  });

  it('finds references of every kind in text', () => {
    const refs = findReferences('按本规程第三十二条执行，详见第六章第二节、附录 D、表A.1、表 6－2，见注1，依据《电网调度管理条例》第10条，见5.3.2条。');
    expect(refs.map((r) => [r.type, r.target, r.regulation])).toEqual([
      ['article', '第三十二条', null],
      ['chapter', '第六章', null],
      ['section', '第二节', null],
      ['appendix', '附录D', null],
      ['table', '表A.1', null],
      ['table', '表6-2', null],
      ['note', '注1', null],
      ['article', '第十条', '电网调度管理条例'],
      ['clause', '5.3.2', null],
    ]);
  });
});
