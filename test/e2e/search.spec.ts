import { expect, test } from './shell';
import { FIXTURE_TITLE, ensureFixtureRegulation, expectPage, openScreen, screenshot } from './helpers';

test('search: results grouped by regulation; opening a hit shows the highlight on the right page', async ({ page, request }) => {
  await ensureFixtureRegulation(request);
  await page.goto('/');
  await openScreen(page, '跨规程搜索');
  const box = page.getByRole('searchbox', { name: '搜索规程' });
  await expect(box).toBeFocused();
  await page.getByRole('radiogroup', { name: '检索范围' }).getByRole('radio', { name: '全部' }).click();
  await box.fill('母线失压后拉开断路器');
  await box.press('Enter');

  const results = page.getByRole('region', { name: '检索结果' });
  const group = results.getByRole('region', { name: FIXTURE_TITLE });
  await expect(group).toBeVisible();
  // a clear answer in an explicitly chosen scope: no banner (banners appear only when the reader can act)
  await expect(page.getByRole('status', { name: '检索提示' })).toHaveCount(0);
  const hit = group.getByRole('button').first();
  await expect(hit.locator('mark').first()).toBeVisible();
  const hitPage = Number(await hit.getAttribute('data-page'));
  expect(hitPage).toBeGreaterThan(0);
  await screenshot(page, 'search');

  await hit.click();
  await expectPage(page, hitPage);
  const sheet = page.getByRole('region', { name: `第 ${hitPage} 页` });
  const marked = sheet.locator('mark.hit').first();
  await expect(marked).toBeVisible();
  await expect(marked).toBeInViewport();
  await expect(sheet.locator('.blk-hit')).toContainText('母线');
  await expect(page.getByRole('status').filter({ hasText: '已定位到搜索命中' })).toBeVisible();
  await screenshot(page, 'reader-hit');

  // flipping away drops the highlight; Ctrl+K returns to the search with the query kept
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('mark.hit')).toHaveCount(0);
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('searchbox', { name: '搜索规程' })).toBeFocused();
  await expect(page.getByRole('searchbox', { name: '搜索规程' })).toHaveValue('母线失压后拉开断路器');
});

test('search: typing searches without Enter; nonsense gets an empty state', async ({ page, request }) => {
  await ensureFixtureRegulation(request);
  await page.goto('/#/search');
  const box = page.getByRole('searchbox', { name: '搜索规程' });
  await box.pressSequentially('倒闸操作');
  await expect(page.getByRole('region', { name: '检索结果' })).toContainText('倒闸');
  await box.fill('zzqqxx');
  await expect(page.getByText(/没有找到与「zzqqxx」相关的内容/)).toBeVisible();
});
