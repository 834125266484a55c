import { expect, test } from './shell';
import { expectPage, invoke, screenshot, shellToken } from './helpers';
import { STRUCTURE_DOCS, docTxt } from '../fixtures/regulation-tables';

/**
 * The reader on the demo library (each test has its own shell and data dir, 1024×700): tables render as
 * tables with their header on every page and copy whole as TSV / Markdown; references are links that
 * jump and come back; a note reference opens the note in place.
 */

type PageStructure = {
  tables: { table_id: string; title: string; columns: string[]; rows: { cells: string[] }[]; page_start: number; page_end: number; row_count: number }[];
};

test('reader: a cross-page table shows its header on every page and copies whole as TSV and Markdown', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const s8 = await invoke<PageStructure>(request, 'regulations.page_structure', { reg_id: 'angui_2024', page: 8 });
  const a1 = s8.tables.find((t) => t.table_id === '表A.1')!;
  expect(a1.page_start).toBeLessThan(8);

  await page.goto('/#/reader/angui_2024?page=8');
  await expectPage(page, 8);
  // the PDF opens on the original page; the banner offers the table view
  const banner = page.getByRole('status').filter({ hasText: '本页有表格' });
  await expect(banner).toContainText('表A.1（续）');
  await banner.getByRole('button', { name: '以表格查看（可复制）' }).click();

  const sheet = page.getByRole('region', { name: '第 8 页' });
  const table = sheet.getByRole('table');
  await expect(table).toHaveCount(1);
  // a continuation page: caption says （续）, the header row is there although the page prints none
  await expect(sheet.locator('figcaption')).toContainText('表A.1 安全自动装置台账（续）');
  await expect(table.getByRole('columnheader')).toHaveText(a1.columns);
  await expect(table.locator('tbody tr')).toHaveCount(a1.rows.length);
  await expect(table.locator('tbody tr').first().getByRole('cell').first()).toHaveText(a1.rows[0].cells[0]);
  await screenshot(page, 'reader-table');

  // copy: the whole table (every page), header once
  await sheet.getByRole('button', { name: '复制到表格软件' }).click();
  await expect(sheet.getByRole('status')).toContainText(`已复制 表A.1（${a1.row_count} 行`);
  const tsv = (await page.evaluate('navigator.clipboard.readText()')) as string;
  const lines = tsv.trimEnd().split('\n');
  expect(lines).toHaveLength(a1.row_count + 1);
  expect(lines[0]).toBe(a1.columns.join('\t'));
  expect(lines.filter((l) => l === lines[0])).toHaveLength(1);
  await sheet.getByRole('button', { name: '复制为 Markdown' }).click();
  await expect(sheet.getByRole('status')).toContainText('Markdown');
  const md = (await page.evaluate('navigator.clipboard.readText()')) as string;
  expect(md.split('\n').slice(0, 4)).toEqual(['**表A.1 安全自动装置台账**', '', `| ${a1.columns.join(' | ')} |`, `| ${a1.columns.map(() => '---').join(' | ')} |`]);

  // the first page of the table: no （续）; the last page shows the table's note under it
  await page.getByRole('textbox', { name: '页码' }).fill(String(a1.page_start));
  await page.getByRole('textbox', { name: '页码' }).press('Enter');
  await expectPage(page, a1.page_start);
  const first = page.getByRole('region', { name: `第 ${a1.page_start} 页` });
  await expect(first.locator('figure[data-table-id="表A.1"] figcaption')).not.toContainText('（续）');
  await expect(first.locator('figure[data-table-id="表A.1"]').getByRole('columnheader')).toHaveText(a1.columns);
  await page.getByRole('textbox', { name: '页码' }).fill(String(a1.page_end));
  await page.getByRole('textbox', { name: '页码' }).press('Enter');
  await expect(page.getByRole('region', { name: `第 ${a1.page_end} 页` }).locator('figure[data-table-id="表A.1"] .reg-table-note')).toContainText('调度管辖');
});

test('reader: references are links that jump and come back; a note opens in place; another regulation opens with a way back', async ({ page }) => {
  await page.goto('/#/reader/angui_2024?page=4');
  await expectPage(page, 4);
  await page.getByRole('radiogroup', { name: '页面视图' }).getByRole('radio', { name: '文本' }).click();
  const sheet = page.getByRole('region', { name: '第 4 页' });

  // 见附录D -> the page where 附录D starts, then back
  await sheet.getByRole('button', { name: '附录D', exact: true }).click();
  await expectPage(page, 34);
  await expect(page.getByRole('region', { name: '第 34 页' })).toContainText('附录D');
  await page.getByRole('button', { name: '← 返回第 4 页' }).click();
  await expectPage(page, 4);
  await expect(page.getByRole('button', { name: /← 返回/ })).toHaveCount(0);

  // 见表A.2 -> the table's first page, the table brought into view
  await page.getByRole('region', { name: '第 4 页' }).getByRole('button', { name: '表A.2', exact: true }).click();
  await expectPage(page, 11);
  await expect(page.locator('figure[data-table-id="表A.2"]')).toBeInViewport();
  await page.getByRole('button', { name: '← 返回第 4 页' }).click();
  await expectPage(page, 4);

  // 见注2 opens the note where the reader is
  const noteLink = page.getByRole('region', { name: '第 4 页' }).getByRole('button', { name: '注2', exact: true });
  await expect(noteLink).toHaveAttribute('aria-expanded', 'false');
  await noteLink.click();
  await expect(noteLink).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('note')).toContainText('介于两档之间时按较高一档执行');
  await expectPage(page, 4);
  await screenshot(page, 'reader-refs');

  // a reference into another regulation opens it, with the way back
  await page.goto('/#/reader/wengui_2024?page=3');
  await expectPage(page, 3);
  const cross = page.getByRole('region', { name: '第 3 页' }).getByRole('button', { name: /《安全自动装置调度运行管理规定（演示）》第三十二条/ });
  await cross.click();
  await expect(page.getByRole('heading', { name: '安全自动装置调度运行管理规定（演示）' })).toBeVisible();
  await expectPage(page, 4);
  await page.getByRole('button', { name: /← 返回《特高压互联电网稳定及无功电压调度运行规定（演示）》第 3 页/ }).click();
  await expect(page.getByRole('heading', { name: '特高压互联电网稳定及无功电压调度运行规定（演示）' })).toBeVisible();
  await expectPage(page, 3);
});

test('reader: a header printed over two lines stacks again (group cell over its sub-columns); copy has one header row, one name per column', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // a whitespace-aligned TXT export with "环境温度 ℃" centred over 25 | 30 | 35 | 40, uploaded as users do
  const doc = STRUCTURE_DOCS.find((d) => d.name === 'peiwang')!;
  const token = await shellToken(request);
  const up = await request.post(`/api/upload?name=${encodeURIComponent('配电网运行规程.txt')}`, {
    data: Buffer.from(docTxt(doc), 'utf8'),
    headers: { 'X-GridCode-Token': token, 'Content-Type': 'application/octet-stream' },
  });
  const { path: serverPath } = (await up.json()) as { path: string };
  const [res] = await invoke<{ reg_id: string; status: string }[]>(request, 'regulations.import', { paths: [serverPath] });
  expect(res.status).toBe('imported');
  const t2 = await invoke<{ columns: string[]; page_start: number; rows: { cells: string[] }[] }>(request, 'regulations.table', { reg_id: res.reg_id, table_id: '表2' });
  expect(t2.columns).toEqual(['导线型号', '环境温度 ℃·25', '环境温度 ℃·30', '环境温度 ℃·35', '环境温度 ℃·40']);

  await page.goto(`/#/reader/${res.reg_id}?page=${t2.page_start}`);
  await expectPage(page, t2.page_start);
  const figure = page.getByRole('region', { name: `第 ${t2.page_start} 页` }).locator('figure[data-table-id="表2"]');
  const head = figure.locator('thead tr');
  await expect(head).toHaveCount(2);
  await expect(head.nth(0).getByRole('columnheader')).toHaveText(['导线型号', '环境温度 ℃']);
  await expect(head.nth(0).getByRole('columnheader', { name: '环境温度 ℃' })).toHaveAttribute('colspan', '4');
  await expect(head.nth(0).getByRole('columnheader', { name: '导线型号' })).toHaveAttribute('rowspan', '2');
  await expect(head.nth(1).getByRole('columnheader')).toHaveText(['25', '30', '35', '40']);
  await expect(figure.locator('tbody tr').first().getByRole('cell')).toHaveText(t2.rows[0].cells);
  // the printed header lines are the table's, not text left under it
  const region = page.getByRole('region', { name: `第 ${t2.page_start} 页` });
  const outside = (await region.locator('figure').allInnerTexts()).reduce((rest, fig) => rest.replace(fig, ''), await region.innerText());
  expect(outside).toContain('第一条');
  expect(outside).not.toContain('导线型号');
  await figure.scrollIntoViewIfNeeded();
  await screenshot(page, 'reader-table-two-line-header');

  await figure.getByRole('button', { name: '复制到表格软件' }).click();
  await expect(figure.getByRole('status')).toContainText('已复制 表2');
  const lines = ((await page.evaluate('navigator.clipboard.readText()')) as string).trimEnd().split('\n');
  expect(lines[0]).toBe(t2.columns.join('\t'));
  expect(lines).toHaveLength(t2.rows.length + 1);
});
