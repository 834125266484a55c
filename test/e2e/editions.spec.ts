import { expect, test } from './shell';
import { invoke, screenshot, shellToken } from './helpers';
import { generateEditions } from '../fixtures/edition-pair';

/**
 * Editions (issue 25) in the browser shell at 1024×700: two editions of one regulation imported
 * through the bridge become one regulation with 现行 / 旧版; the reader says which edition it shows
 * and, for a clicked article, opens it in the other edition; the compare screen filters by kind,
 * jumps between changes, shows word-level marks side by side or inline, and an article's history.
 */

const g = generateEditions(40, 11);

async function importText(request: import('@playwright/test').APIRequestContext, name: string, text: string) {
  const token = await shellToken(request);
  const up = await request.post(`/api/upload?name=${encodeURIComponent(name)}`, {
    data: Buffer.from(text, 'utf8'),
    headers: { 'X-GridCode-Token': token, 'Content-Type': 'application/octet-stream' },
  });
  const { path } = (await up.json()) as { path: string };
  const [r] = await invoke<{ reg_id: string; status: string; edition?: { edition_of: string | null; in_force: boolean } }[]>(request, 'regulations.import', { paths: [path] });
  return r;
}

test('editions: reader strip, article in the other edition, compare view with filters, jumps, word marks and history', async ({ page, request }) => {
  const older = await importText(request, '调度规程(2019-03-01).md', g.oldText);
  const newer = await importText(request, '调度规程(2024-07-01).md', g.newText);
  expect(newer.edition).toMatchObject({ edition_of: older.reg_id, in_force: true });
  type Diff = { summary: Record<string, number>; pairs: { change: string; old: { article: string } | null; new: { article: string } | null }[] };
  const diff = await invoke<Diff>(request, 'editions.diff', { old_reg_id: older.reg_id, new_reg_id: newer.reg_id });

  // the old edition says it is old, links to the current one
  await page.goto(`/#/reader/${older.reg_id}?page=1`);
  const strip = page.getByRole('region', { name: '版本' });
  await expect(strip).toContainText('旧版');
  await expect(strip).toContainText('2019-03-01 施行');
  await expect(strip.getByRole('button', { name: /查看现行版/ })).toBeVisible();

  // an article on the first page: click its label, see it in the new edition, open it there
  const firstPage = page.getByRole('region', { name: '第 1 页' });
  const label = firstPage.locator('.label-article').nth(2);
  const oldLabel = (await label.textContent())!.trim();
  const pair = diff.pairs.find((p) => p.old?.article === oldLabel)!;
  await label.click();
  const group = strip.getByRole('group', { name: `${oldLabel}的其他版本` });
  if (pair.new) {
    const toNew = group.getByRole('button', { name: new RegExp(`查看新版.*${pair.new.article}`) });
    await expect(toNew).toBeVisible();
    await screenshot(page, 'editions-reader-old');
    await toNew.click();
    await expect(page).toHaveURL(new RegExp(`#/reader/${newer.reg_id}`));
    await expect(page.getByRole('region', { name: '版本' })).toContainText('现行');
    await page.goto(`/#/reader/${older.reg_id}?page=1`);
  } else {
    await expect(group).toContainText('新版已删除此条');
  }

  // compare screen from the strip
  await strip.getByRole('button', { name: '对比版本' }).click();
  await expect(page).toHaveURL(new RegExp(`#/compare/${older.reg_id}/${newer.reg_id}`));
  const list = page.getByRole('list', { name: '逐条变化' });
  const kinds = page.getByRole('group', { name: '按变化筛选' });
  await expect(kinds.getByRole('button', { name: `修改 ${diff.summary.modified}` })).toHaveAttribute('aria-pressed', 'true');
  const changed = diff.summary.modified + diff.summary.added + diff.summary.deleted + diff.summary.moved;
  await expect(list.getByRole('listitem')).toHaveCount(changed);
  // word-level marks side by side
  await expect(list.locator('.cmp-pair[data-change="modified"] ins.w-ins').first()).toBeVisible();
  await screenshot(page, 'editions-compare-side');

  // filter: only deleted + added
  await kinds.getByRole('button', { name: `修改 ${diff.summary.modified}` }).click();
  await kinds.getByRole('button', { name: `移动 ${diff.summary.moved}` }).click();
  await expect(list.getByRole('listitem')).toHaveCount(diff.summary.added + diff.summary.deleted);
  await kinds.getByRole('button', { name: `修改 ${diff.summary.modified}` }).click();

  // jump between changes
  await page.getByRole('button', { name: /下一处变化/ }).click();
  await expect(list.locator('.cmp-pair.current')).toHaveCount(1);
  const first = await list.locator('.cmp-pair.current').getAttribute('data-pair');
  await page.getByRole('button', { name: /下一处变化/ }).click();
  await expect(list.locator('.cmp-pair.current')).not.toHaveAttribute('data-pair', first!);
  await expect(list.locator('.cmp-pair.current')).toBeInViewport();

  // inline view keeps the marks in one text
  await page.getByRole('radiogroup', { name: '对比方式' }).getByRole('radio', { name: '合并' }).click();
  const inline = list.locator('.cmp-pair[data-change="modified"] .cmp-inline').first();
  await expect(inline.locator('del.w-del, ins.w-ins').first()).toBeVisible();
  await screenshot(page, 'editions-compare-inline');

  // an article's change history
  const modCard = list.locator('.cmp-pair[data-change="modified"]').first();
  await modCard.getByRole('button', { name: '修改历史' }).click();
  const history = page.getByRole('dialog', { name: /修改历史/ });
  await expect(history).toContainText('2019-03-01');
  await expect(history).toContainText('2024-07-01');
  await expect(history).toContainText('修改');
  await screenshot(page, 'editions-history');

  // the library marks the old edition
  await page.goto('/#/library');
  const row = page.getByRole('row').filter({ hasText: older.reg_id });
  await expect(row.locator('.pill', { hasText: '旧版' })).toBeVisible();
});
