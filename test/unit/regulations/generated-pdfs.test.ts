import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { sharedDir } from '../../../src/core/common/paths';
import { createAppContext, type AppContext } from '../../../src/core/context';
import { runCliJson, tempDir } from '../../helpers';
import { ACTION_ROWS, DEVICE_ROWS, GRID_TABLES, LIMIT_ROWS, SETTINGS_ROWS, STRAP_ROWS, deviceLedgerHtml, makeGridTablePdf } from './table-pdfs';

/**
 * The issue-18 contracts, through the real CLI, on PDFs made by two different producers (pdfkit ruled
 * cells; Chromium printing HTML) with cross-page tables in every continuation style, and on power statutes
 * from ../shared imported as users import them.
 */
const CHROMIUM = '/usr/bin/chromium';

let data: string;
let docs: string;
/** The contract path (one process per call); most checks then read the same data dir in-process (`op`). */
const cli = <T = any>(...args: string[]) => runCliJson<T>([...args, '--data-dir', data]);
let ctx: AppContext | null = null;
const op = ((name: string, input: unknown) => invokeOperation((ctx ??= createAppContext({ dataDir: data })), name as never, input as never)) as (name: string, input: unknown) => Promise<any>;
const table = (reg_id: string, table_id: string): Promise<TableOut> => op('regulations.table', { reg_id, table_id });
const resolve = (reg_id: string, reference: string) => op('regulations.resolve', { reg_id, reference });

beforeAll(async () => {
  data = tempDir('gridcode-genpdf-data-');
  docs = tempDir('gridcode-genpdf-docs-');
  await makeGridTablePdf(path.join(docs, 'grid.pdf'));
  const files = [path.join(docs, 'grid.pdf')];
  if (fs.existsSync(CHROMIUM)) {
    const { chromium } = await import('playwright');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.setContent(deviceLedgerHtml());
      fs.writeFileSync(path.join(docs, 'ledger.pdf'), await page.pdf({ format: 'A4', margin: { top: '20mm', bottom: '20mm', left: '18mm', right: '18mm' } }));
      files.push(path.join(docs, 'ledger.pdf'));
    } finally {
      await browser.close();
    }
  }
  const imported = await cli<{ status: string }[]>('import', ...files);
  expect(imported.map((r) => r.status)).toEqual(files.map(() => 'imported'));
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  for (const d of [data, docs]) fs.rmSync(d, { recursive: true, force: true });
});

type TableOut = { table_id: string; title: string; columns: string[]; rows: { cells: string[]; page_num: number }[]; notes: { label: string; text: string }[]; page_start: number; page_end: number };

describe('pdfkit ruled tables: every continuation style', () => {
  it('`tables` lists each table once with its page span, row count and header', async () => {
    const out = await cli<{ tables: { table_id: string; title: string; page_start: number; page_end: number; row_count: number; columns: string[] }[] }>('tables', 'grid');
    expect(out.tables.map((t) => `${t.table_id} ${t.title}`)).toEqual(GRID_TABLES.map((t) => t.caption));
    out.tables.forEach((t, i) => {
      expect(Object.keys(t)).toEqual(expect.arrayContaining(['table_id', 'title', 'page_start', 'page_end', 'row_count', 'columns']));
      expect(t.columns).toEqual(GRID_TABLES[i].headers);
      expect(t.row_count).toBe(GRID_TABLES[i].rows.length);
      expect(t.page_end, t.table_id).toBeGreaterThan(t.page_start);
    });
  });

  const ROWS: Record<string, string[][]> = { '表A.2': SETTINGS_ROWS, '表3-1': STRAP_ROWS, '表3-2': LIMIT_ROWS, '表3-3': ACTION_ROWS };
  it.each([
    ['表A.2', '"（续）" caption + repeated header'],
    ['表3-1', '"续表3-1" + repeated header'],
    ['表3-2', '"（续）" caption, no header'],
    ['表3-3', 'neither caption nor header'],
  ])('`table %s` comes back whole, header once, rows with their pages (%s)', async (id) => {
    const rows = ROWS[id];
    // the contract through the CLI once, the rest in-process on the same data dir
    const t = id === '表A.2' ? await cli<TableOut>('table', 'grid', id) : await table('grid', id);
    expect(Object.keys(t)).toEqual(expect.arrayContaining(['table_id', 'title', 'columns', 'rows', 'notes']));
    expect(t.table_id).toBe(id);
    expect(t.rows.map((r) => r.cells)).toEqual(rows);
    expect(t.rows.filter((r) => r.cells.join() === t.columns.join())).toEqual([]);
    const pages = t.rows.map((r) => r.page_num);
    expect(new Set(pages).size).toBeGreaterThan(1);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
    expect(pages[0]).toBe(t.page_start);
    expect(pages.at(-1)).toBe(t.page_end);
  });

  it('notes under a table (注1/注2, 注) are its notes', async () => {
    const a2 = await table('grid', 'A.2');
    expect(a2.notes.map((n) => n.label)).toEqual(['注1', '注2']);
    expect(a2.notes[1].text).toContain('02 区');
    expect((await table('grid', '表3-3')).notes.map((n) => n.label)).toEqual(['注']);
    expect((await table('grid', '表3-1')).notes).toEqual([]);
  });

  it('`resolve` finds tables, articles, chapters, appendices and notes on their pages', async () => {
    const tables = (await cli<{ tables: { table_id: string; page_start: number }[] }>('tables', 'grid')).tables;
    const page = (id: string) => tables.find((t) => t.table_id === id)!.page_start;
    const r = (text: string) => resolve('grid', text);
    const viaCli = await cli('resolve', 'grid', '按表A.2核对定值');
    expect(Object.keys(viaCli)).toEqual(expect.arrayContaining(['resolved', 'reference_type', 'target', 'page_num', 'preview']));
    expect(viaCli).toMatchObject({ resolved: true, reference_type: 'table', target: '表A.2', page_num: page('表A.2') });
    expect(await r('见续表3-1')).toMatchObject({ resolved: true, reference_type: 'table', target: '表3-1', page_num: page('表3-1') });
    expect(await r('按本细则第五条执行')).toMatchObject({ resolved: true, reference_type: 'article', target: '第五条', page_num: 1 });
    expect((await r('按本细则第五条执行')).preview).toContain('立即汇报调度');
    expect(await r('详见第二章')).toMatchObject({ resolved: true, reference_type: 'chapter', page_num: 1 });
    const appendix = await r('统计方法见附录B');
    expect(appendix).toMatchObject({ resolved: true, reference_type: 'appendix' });
    expect(appendix.page_num).toBeGreaterThan(page('表3-3'));
    expect(appendix.preview).toContain('正确动作率');
    const note = await r('定值区切换见注2');
    expect(note).toMatchObject({ resolved: true, reference_type: 'note', page_num: a2PageOfNotes(tables) });
    expect(await r('见表9-9')).toMatchObject({ resolved: false, reference_type: 'table', page_num: null });
  });
});

/** 注2 of 表A.2 sits on the table's last page. */
function a2PageOfNotes(tables: { table_id: string; page_start: number }[]): number {
  const i = tables.findIndex((t) => t.table_id === '表A.2');
  return (tables[i] as unknown as { page_end: number }).page_end;
}

describe.skipIf(!fs.existsSync(CHROMIUM))('Chromium-printed HTML table: <thead> repeated by the print engine, wrapped cells', () => {
  it('one table over two pages, wrapped (vertically centred) cells joined into their row', async () => {
    const out = await cli<{ tables: { table_id: string; page_start: number; page_end: number; row_count: number }[] }>('tables', 'ledger');
    expect(out.tables.map((t) => [t.table_id, t.page_start, t.row_count])).toEqual([['表4-1', 1, 40]]);
    expect(out.tables[0].page_end).toBeGreaterThan(1);
    const t = await table('ledger', '表4-1');
    expect(t.columns).toEqual(['序号', '厂站', '装置名称', '投运年份']);
    expect(t.rows.map((r) => r.cells)).toEqual(DEVICE_ROWS);
    expect(t.notes.map((n) => n.label)).toEqual(['注1', '注2']);
    expect(await resolve('ledger', '台账字段说明见附录C')).toMatchObject({ resolved: true, reference_type: 'appendix', page_num: 3 });
  });
});

// ---------------------------------------------------------------- power statutes from ../shared

const STATUTES = ['行政法规/电网调度管理条例(2011-01-08).md', '经济法/电力法(2018-12-29).md', '行政法规/电力供应与使用条例(2019-03-02).md', '行政法规/电力设施保护条例(2011-01-08).md'];
const shared = sharedDir();
const lawFiles = shared ? STATUTES.map((f) => path.join(shared, 'data', 'laws', f)).filter((f) => fs.existsSync(f)) : [];

describe.skipIf(lawFiles.length < STATUTES.length)('imported power statutes', () => {
  let ids: string[] = [];
  beforeAll(async () => {
    const res = await cli<{ reg_id: string; status: string }[]>('import', ...lawFiles);
    expect(res.map((r) => r.status)).toEqual(lawFiles.map(() => 'imported'));
    ids = res.map((r) => r.reg_id);
  }, 120_000);

  it('`tables` answers with the contract shape (statutes print no tables)', async () => {
    expect(await cli('tables', ids[0])).toMatchObject({ tables: [] });
    for (const id of ids) expect(await op('regulations.tables', { reg_id: id })).toMatchObject({ tables: [] });
  });

  it('every article reference written in the statutes resolves to the page that holds that article', async () => {
    let checked = 0;
    for (const id of ids) {
      const total = (await op('regulations.get', { reg_id: id })).total_pages as number;
      const pages: { page_num: number; text: string }[] = [];
      for (let p = 1; p <= total; p += 20) pages.push(...(await op('regulations.read', { reg_id: id, start: p, end: Math.min(total, p + 19) })).pages);
      // "依照本条例第十条" / "本法第二十八条": in-text references of the statute itself
      const refs = new Set(pages.flatMap((p) => [...p.text.matchAll(/本(?:条例|法|办法|规定)第([一二三四五六七八九十百零]+)条/g)].map((m) => m[0])));
      for (const ref of [...refs].slice(0, 6)) {
        const res = checked === 0 ? await cli('resolve', id, ref) : await resolve(id, ref);
        expect(res, `${id} ${ref}`).toMatchObject({ resolved: true, reference_type: 'article' });
        const label = ref.replace(/^本(?:条例|法|办法|规定)/, '');
        expect(res.target).toBe(label);
        expect(pages.find((p) => p.page_num === res.page_num)!.text).toMatch(new RegExp(`(^|\\n)\\s*${label}`));
        expect(res.preview.startsWith(label)).toBe(true);
        checked++;
      }
      // chapters by number resolve to where the chapter heading is printed
      const chap = await resolve(id, '详见第二章');
      expect(chap.resolved, id).toBe(true);
      expect(pages.find((p) => p.page_num === chap.page_num)!.text).toContain(chap.target);
    }
    expect(checked).toBeGreaterThan(5);
  });
});
