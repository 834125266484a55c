import { expect, test } from './shell';
import { FIXTURE_TITLE, ensureFixtureRegulation, expectPage, invoke, openScreen, pageBox, screenshot } from './helpers';

test('reader: open from the library, flip with the keyboard, jump by TOC, remember the page', async ({ page, request }) => {
  await ensureFixtureRegulation(request);
  await page.goto('/');
  await openScreen(page, '规程库');
  await page.getByRole('button', { name: `阅读 ${FIXTURE_TITLE}` }).click();

  await expectPage(page, 1);
  await expect(page.getByRole('region', { name: '第 1 页' })).toContainText('第一条');
  const toc = page.getByRole('tree', { name: '目录' });
  await expect(toc.getByRole('treeitem', { selected: true })).toHaveAccessibleName(/第.章/);

  await page.keyboard.press('ArrowRight');
  await expectPage(page, 2);
  await page.keyboard.press('PageDown');
  await expectPage(page, 3);
  await expect(page.getByRole('region', { name: '第 3 页' })).toContainText('附则');
  await page.keyboard.press('PageUp');
  await expectPage(page, 2);
  await page.keyboard.press('ArrowLeft');
  await expectPage(page, 1);

  // TOC click jumps; the selected TOC entry follows the page
  await toc.getByRole('button', { name: /第五章 附则/ }).click();
  await expectPage(page, 3);
  await expect(toc.getByRole('treeitem', { selected: true })).toHaveAttribute('data-title', '第五章 附则');
  await toc.getByRole('button', { name: /第三章 母线失压处理/ }).click();
  const chapter3 = await pageBox(page).inputValue();
  await expect(page.getByRole('region', { name: `第 ${chapter3} 页` })).toContainText('母线失压');

  // page box and buttons
  await pageBox(page).fill('3');
  await pageBox(page).press('Enter');
  await expectPage(page, 3);
  await page.getByRole('button', { name: '上一页' }).click();
  await expectPage(page, 2);
  await page.getByRole('button', { name: '放大' }).click();
  await expect(page.getByLabel('缩放比例')).toHaveText('110%');
  await screenshot(page, 'reader');

  // last position is remembered per regulation
  await openScreen(page, '规程库');
  await page.getByRole('button', { name: `阅读 ${FIXTURE_TITLE}` }).click();
  await expectPage(page, 2);
  await page.getByRole('button', { name: '缩小' }).click();

  // "search this regulation" opens the search scoped to it
  await page.getByRole('button', { name: '搜索本规程' }).click();
  await expect(page.getByRole('radio', { name: '指定' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('group', { name: '选择规程' }).getByRole('checkbox', { name: FIXTURE_TITLE })).toBeChecked();
  await page.getByRole('searchbox', { name: '搜索规程' }).fill('接地线');
  await expect(page.getByRole('region', { name: '检索结果' }).getByRole('region')).toHaveCount(1);
  await expect(page.getByRole('region', { name: '检索结果' }).getByRole('region', { name: FIXTURE_TITLE })).toBeVisible();
});

test('reader: a PDF regulation shows the original page (canvas + text layer) and a text view', async ({ page, request }) => {
  await invoke(request, 'regulations.demo_load', {});
  const regs = await invoke<{ reg_id: string; format: string; title: string; total_pages: number }[]>(request, 'regulations.list', {});
  const pdf = regs.find((r) => r.format === 'pdf');
  test.skip(!pdf, 'no PDF regulation in the demo library');
  await page.goto(`/#/reader/${encodeURIComponent(pdf!.reg_id)}?page=2&hl=${encodeURIComponent('装置')}`);
  const views = page.getByRole('radiogroup', { name: '页面视图' });
  await expect(views.getByRole('radio', { name: '原版' })).toHaveAttribute('aria-checked', 'true');
  const sheet = page.getByRole('region', { name: '第 2 页' });
  await expect(sheet).toHaveAttribute('data-view', 'original');
  await expect(sheet.getByRole('img', { name: '第 2 页原版图像' })).toBeVisible();
  // selectable text layer over the picture, with the search term marked
  await expect(sheet.locator('.textLayer span').first()).toBeAttached();
  await expect(sheet.locator('.textLayer mark.hit')).toHaveText('装置');
  await screenshot(page, 'reader-pdf');

  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('region', { name: '第 3 页' }).getByRole('img', { name: '第 3 页原版图像' })).toBeVisible();
  await views.getByRole('radio', { name: '文本' }).click();
  await expect(page.getByRole('region', { name: '第 3 页' })).toHaveAttribute('data-view', 'text');
  await expect(page.getByRole('region', { name: '第 3 页' }).locator('p').first()).toBeVisible();
  await views.getByRole('radio', { name: '原版' }).click();
});

test('reader: page box refuses -3 and 999 with a reason; Space flips; TOC by keyboard; TOC and sidebar collapse and are remembered', async ({ page, request }) => {
  const regId = await ensureFixtureRegulation(request);
  await page.goto(`/#/reader/${encodeURIComponent(regId)}?page=2`);
  await expectPage(page, 2);

  for (const [typed, why] of [
    ['-3', '页码从 1 开始'],
    ['999', '共 3 页，没有第 999 页'],
    ['abc', '页码只能是数字'],
  ] as const) {
    await pageBox(page).fill(typed);
    await pageBox(page).press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: why })).toBeVisible();
    await expect(pageBox(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('region', { name: '第 2 页' })).toBeVisible();
  }
  await pageBox(page).fill('1');
  await pageBox(page).press('Enter');
  await expectPage(page, 1);
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Space / Shift+Space flip (focus on the page, not on a control)
  await page.getByRole('region', { name: '第 1 页' }).click();
  await page.keyboard.press('Space');
  await expectPage(page, 2);
  await page.keyboard.press('Shift+Space');
  await expectPage(page, 1);

  // TOC by keyboard: the current section is the tab stop; ↓ moves, Enter jumps there
  const toc = page.getByRole('tree', { name: '目录' });
  await toc.getByRole('treeitem', { selected: true }).focus();
  const items = toc.getByRole('treeitem');
  const last = await items.count();
  await page.keyboard.press('End');
  await expect(items.nth(last - 1)).toBeFocused();
  const lastName = (await items.nth(last - 1).getAttribute('data-title')) ?? '';
  await page.keyboard.press('Enter');
  await expect(toc.getByRole('treeitem', { selected: true })).toHaveAttribute('data-title', lastName);

  // collapse the TOC and the sidebar; both stay collapsed after a reload
  await page.getByRole('button', { name: '收起目录' }).click();
  await expect(page.getByRole('tree', { name: '目录' })).toHaveCount(0);
  await page.getByRole('button', { name: '收起侧栏' }).click();
  await page.reload();
  await expect(page.getByRole('tree', { name: '目录' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '展开侧栏' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '规程库' })).toBeVisible();
  await screenshot(page, 'reader-collapsed');
  await page.getByRole('button', { name: '目录' }).click();
  await expect(page.getByRole('tree', { name: '目录' })).toBeVisible();
});

test('reader: a PDF fits the pane width by default and the whole page on request', async ({ page, request }) => {
  const regs = await invoke<{ reg_id: string; format: string }[]>(request, 'regulations.list', {});
  const pdf = regs.find((r) => r.format === 'pdf');
  test.skip(!pdf, 'no PDF regulation in the demo library');
  await page.goto(`/#/reader/${encodeURIComponent(pdf!.reg_id)}?page=2`);
  const img = page.getByRole('img', { name: '第 2 页原版图像' });
  await expect(img).toBeVisible();
  const sizes = page.getByRole('radiogroup', { name: '页面大小' });
  await expect(sizes.getByRole('radio', { name: '适合宽度' })).toHaveAttribute('aria-checked', 'true');
  const view = page.locator('.reader-view');
  const fits = async () => {
    const [box, pane] = await Promise.all([img.boundingBox(), view.boundingBox()]);
    return { box: box!, pane: pane! };
  };
  await expect.poll(async () => {
    const { box, pane } = await fits();
    return box.x >= pane.x && box.x + box.width <= pane.x + pane.width;
  }).toBe(true);
  await sizes.getByRole('radio', { name: '整页' }).click();
  await expect.poll(async () => {
    const { box, pane } = await fits();
    return box.height <= pane.height && box.y >= pane.y - 1;
  }).toBe(true);
  await screenshot(page, 'reader-pdf-fit-page');
});
