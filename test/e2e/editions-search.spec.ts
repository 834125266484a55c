import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './shell';
import { invoke, screenshot, shellToken } from './helpers';

/**
 * Editions in search and in a library that predates them (issue 25), in the browser shell at
 * 1024×700 with its own data dir: search shows only the edition in force until "包括旧版" is ticked,
 * then the old edition's hit is marked 旧版 with its date and opens the current article; two
 * editions imported before editions existed are proposed in the library and joined only when the
 * user says so.
 */

const OLD = ['# 电网调度规程', '', '2015年1月1日发布', '', '## 第一章 总则', '', '第一条 为了规范调度，制定本规程。', '', '第二条 调度值班员应当每两小时巡视一次继电保护屏。', '', '第三条 本规程自发布之日起施行。'].join('\n');
const NEW = ['# 电网调度规程', '', '2024年1月1日发布', '', '## 第一章 总则', '', '第一条 为了规范调度，制定本规程。', '', '第二条 调度值班员应当执行调度纪律。', '', '第三条 调度值班员应当每小时巡视一次继电保护屏，并做好记录。', '', '第四条 本规程自发布之日起施行。'].join('\n');

async function importText(request: import('@playwright/test').APIRequestContext, name: string, text: string) {
  const token = await shellToken(request);
  const up = await request.post(`/api/upload?name=${encodeURIComponent(name)}`, {
    data: Buffer.from(text, 'utf8'),
    headers: { 'X-GridCode-Token': token, 'Content-Type': 'application/octet-stream' },
  });
  const { path: p } = (await up.json()) as { path: string };
  const [r] = await invoke<{ reg_id: string; edition?: { edition_of: string | null } }[]>(request, 'regulations.import', { paths: [p] });
  return r;
}

test('search: "包括旧版" adds the old edition, marked 旧版 with its date and linked to the current article; library groups old imports on confirmation', async ({ page, request, shell }) => {
  const older = await importText(request, '调度规程-2015.md', OLD);
  const newer = await importText(request, '调度规程-2024.md', NEW);
  expect(newer.edition?.edition_of).toBe(older.reg_id);

  await page.goto('/#/search');
  await page.getByRole('radiogroup', { name: '检索范围' }).getByRole('radio', { name: '全部' }).click();
  await page.getByRole('searchbox', { name: '搜索规程' }).fill('巡视继电保护屏');
  const results = page.getByRole('region', { name: '检索结果' });
  const toggle = page.getByRole('checkbox', { name: '包括旧版' });
  await expect(toggle).not.toBeChecked();
  await expect(results.locator(`.hit-card[data-unit]`).first()).toBeVisible();
  // by default nothing from the superseded edition
  await expect(results.getByRole('note').filter({ hasText: '旧版' })).toHaveCount(0);
  await expect(results.getByRole('region', { name: '电网调度规程' })).toHaveCount(1);

  await toggle.check();
  await expect(page).toHaveURL(/editions=all/);
  // the old 第二条 (every two hours) became 第三条; every old hit carries its edition and date
  const oldNotes = results.getByRole('note').filter({ hasText: '旧版' });
  await expect(oldNotes.first()).toContainText('旧版（2015-01-01 施行） 现行版为 第三条');
  for (const note of await oldNotes.all()) await expect(note).toContainText('旧版（2015-01-01 施行）');
  await screenshot(page, 'editions-search-old');
  await results.getByRole('button', { name: '打开现行条文（第三条）' }).click();
  await expect(page).toHaveURL(new RegExp(`#/reader/${newer.reg_id}.*article=`));
  await expect(page.getByRole('region', { name: '版本' })).toContainText('现行');

  // the same two editions as a library that predates editions leaves them: unrelated regulations
  const db = new Database(path.join(shell.dataDir, 'gridcode.sqlite'));
  try {
    db.prepare('UPDATE reg_editions SET family = reg_id').run();
  } finally {
    db.close();
  }
  await page.goto('/#/library');
  const proposal = page.getByRole('region', { name: '待归并的版本' });
  await expect(proposal).toContainText('电网调度规程');
  await expect(proposal).toContainText('旧版（2015-01-01 施行）');
  await expect(page.getByRole('row').filter({ hasText: older.reg_id }).locator('.pill', { hasText: '旧版' })).toHaveCount(0);
  await screenshot(page, 'editions-library-ungrouped');
  await proposal.getByRole('button', { name: '归为版本' }).click();
  await expect(page.getByRole('status').filter({ hasText: '归为 2 个版本' })).toBeVisible();
  await expect(proposal).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: older.reg_id }).locator('.pill', { hasText: '旧版' })).toBeVisible();
  const v = await invoke<{ editions: { reg_id: string; in_force: boolean }[] }>(request, 'editions.versions', { reg_id: older.reg_id });
  expect(v.editions.map((e) => [e.reg_id, e.in_force])).toEqual([
    [older.reg_id, false],
    [newer.reg_id, true],
  ]);
});
