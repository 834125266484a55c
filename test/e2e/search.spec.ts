import AxeBuilder from '@axe-core/playwright';
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

test('search: typing searches without Enter; nonsense is told nothing relevant was found', async ({ page, request }) => {
  await ensureFixtureRegulation(request);
  await page.goto('/#/search');
  const box = page.getByRole('searchbox', { name: '搜索规程' });
  await box.pressSequentially('倒闸操作');
  await expect(page.getByRole('region', { name: '检索结果' })).toContainText('倒闸');
  await box.fill('zzqqxx');
  // with the shipped model search is hybrid: nearest vectors still come back, so the engine says low evidence
  await expect(page.getByText('没有找到足够相关的条文')).toBeVisible();
  await expect(page.getByRole('button', { name: /换个说法/ })).toBeVisible();
});

test('search: results stay grouped by regulation; 更多来自本规程 and 加载更多 add hits without repeats', async ({ page, request }) => {
  await ensureFixtureRegulation(request);
  await page.goto('/#/search');
  await page.getByRole('radiogroup', { name: '检索范围' }).getByRole('radio', { name: '全部' }).click();
  await page.getByRole('searchbox', { name: '搜索规程' }).fill('母线');
  const results = page.getByRole('region', { name: '检索结果' });
  await expect(results).toHaveAttribute('aria-busy', 'false');
  const cards = results.locator('.hit-card');
  const units = async () => Promise.all((await cards.all()).map((c) => c.getAttribute('data-unit')));
  const before = await units();
  expect(before.length).toBeGreaterThan(0);
  // no scores on the card itself: they live in each hit's "为什么" drawer
  await expect(cards.first()).not.toContainText('得分');
  const why = results.locator('.hit-why').first();
  await why.locator('summary').first().click();
  await expect(why.locator('.why-words')).toContainText('出现在');
  // the numbers wait under 详细
  await why.locator('.why-detail summary').click();
  await expect(why.locator('.why-detail')).toContainText('得分');

  // a regulation with more hits than shown offers them, in place
  const more = results.getByRole('button', { name: /^更多来自本规程（还有 \d+ 条）：.+/ }).first();
  await expect(more).toBeVisible();
  const groupName = (await more.locator('xpath=ancestor::section[1]').getAttribute('aria-label')) ?? '';
  const group = results.getByRole('region', { name: groupName, exact: true });
  const inGroup = await group.locator('.hit-card').count();
  await more.click();
  await expect.poll(() => group.locator('.hit-card').count()).toBeGreaterThan(inGroup);
  await expect(page.locator('.hit-card:focus')).toHaveCount(1);

  // the next page of the whole answer
  const loadMore = results.getByRole('button', { name: /^加载更多/ });
  if (await loadMore.count()) {
    const n = await cards.count();
    await loadMore.click();
    await expect.poll(() => cards.count()).toBeGreaterThan(n);
  }
  const after = await units();
  expect(new Set(after).size, 'no hit twice').toBe(after.length);
  for (const u of before) expect(after).toContain(u);
  await screenshot(page, 'search-more');

  // the longer list survives a trip to the reader and back
  await cards.first().click();
  await expect(page.getByRole('toolbar', { name: '阅读工具栏' })).toBeVisible();
  await page.goBack();
  await expect.poll(() => units()).toEqual(after);
});

test('library: generated keywords are marked apart from curated ones after 重新生成元数据', async ({ page }) => {
  await page.goto('/#/library');
  const table = page.getByRole('table', { name: '规程列表' });
  const row = table.getByRole('row').filter({ hasText: '安全自动装置调度运行管理规定' });
  await expect(row.locator('.tag').first()).toBeVisible();
  const curated = await row.locator('.tag:not(.gen)').allInnerTexts();
  expect(curated.length).toBeGreaterThan(0);
  await row.getByRole('button', { name: /^重新生成元数据/ }).click();
  await expect(page.getByRole('status').filter({ hasText: '已更新' })).toBeVisible();
  await expect(row.locator('.tag.gen').first()).toBeVisible();
  await expect(row.locator('.tag.gen').first()).toContainText('自动');
  // curated words stay, unmarked
  for (const k of curated) await expect(row.locator('.tag:not(.gen)').filter({ hasText: k })).toHaveCount(1);
  await expect(page.locator('.keyword-legend')).toContainText('人工');
  await screenshot(page, 'library-keywords');
});

test.describe('split view at 1600×1000', () => {
  test.use({ viewport: { width: 1600, height: 1000 } });

  test('search: the results stay beside the reader; another hit opens in place; Back returns to the full list', async ({ page, request }) => {
    await ensureFixtureRegulation(request);
    await page.goto('/#/search');
    await page.getByRole('radiogroup', { name: '检索范围' }).getByRole('radio', { name: '全部' }).click();
    await page.getByRole('searchbox', { name: '搜索规程' }).fill('母线失压');
    const results = page.getByRole('region', { name: '检索结果' });
    await expect(results).toHaveAttribute('aria-busy', 'false');
    const cards = results.locator('.hit-card');
    const listed = await cards.count();
    expect(listed).toBeGreaterThan(1);
    await cards.first().click();

    const pane = page.getByRole('complementary', { name: '检索结果（并排）' });
    await expect(pane).toBeVisible();
    const hits = pane.getByRole('button').filter({ has: page.locator('.label') });
    await expect(hits).toHaveCount(listed);
    await expect(pane.locator('[aria-current="true"]')).toHaveCount(1);
    const second = hits.nth(1);
    const secondUnit = await second.getAttribute('data-unit');
    await second.click();
    await expect(pane.locator('[aria-current="true"]')).toHaveAttribute('data-unit', secondUnit ?? '');
    await expect(page.getByRole('status').filter({ hasText: '已定位到搜索命中' })).toBeVisible();
    expect(
      await page.evaluate<number>('document.documentElement.scrollHeight - document.documentElement.clientHeight'),
      'no outer scrollbar in split view',
    ).toBe(0);
    await screenshot(page, 'reader-split-1600x1000');
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    // collapsing is remembered as a choice and offers the way back
    await pane.getByRole('button', { name: '收起检索结果栏' }).click();
    await expect(pane).toHaveCount(0);
    await page.getByRole('button', { name: '并排显示检索结果' }).click();
    await expect(page.getByRole('complementary', { name: '检索结果（并排）' })).toBeVisible();

    // hits opened in place replaced the reader's history entry: one Back is the full list
    await page.goBack();
    await expect(page.getByRole('region', { name: '检索结果' })).toBeVisible();
  });
});

test('search: below 1280 wide the reader has no side results, and 返回搜索结果 restores the list', async ({ page, request }) => {
  await ensureFixtureRegulation(request);
  await page.goto('/#/search');
  await page.getByRole('searchbox', { name: '搜索规程' }).fill('母线失压');
  const results = page.getByRole('region', { name: '检索结果' });
  await expect(results).toHaveAttribute('aria-busy', 'false');
  const units = await Promise.all((await results.locator('.hit-card').all()).map((c) => c.getAttribute('data-unit')));
  await results.locator('.hit-card').first().click();
  await expect(page.getByRole('toolbar', { name: '阅读工具栏' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: '检索结果（并排）' })).toHaveCount(0);
  await page.getByRole('button', { name: '返回搜索结果' }).click();
  await expect(page.getByRole('region', { name: '检索结果' })).toBeVisible();
  expect(await Promise.all((await page.locator('.hit-card').all()).map((c) => c.getAttribute('data-unit')))).toEqual(units);
});
