/**
 * A first start, as a new user gets it: the shell on an empty data dir (it seeds the demo library
 * itself, no template copy), Chromium at 1024×700. No console error on any screen (CSP included),
 * no outer scrollbar on the reader, and the device preview shows the value and the condition typed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startShell, stopShell } from './shell';
import { screenshot } from './helpers';

const test = base.extend<{ freshUrl: string }>({
  freshUrl: async ({}, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-fresh-'));
    const { url, child } = await startShell(dataDir);
    try {
      await use(url);
    } finally {
      await stopShell(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
});

test.use({ viewport: { width: 1024, height: 700 } });

async function outerScroll(page: Page): Promise<{ h: number; w: number }> {
  return page.evaluate<{ h: number; w: number }>(
    '({ h: document.documentElement.scrollHeight - document.documentElement.clientHeight, w: document.documentElement.scrollWidth - document.documentElement.clientWidth })',
  );
}

test('fresh data dir at 1024×700: every screen loads without a console error; reader fits; preview shows value and condition', async ({ page, freshUrl }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(`${freshUrl}#/library`);
  const table = page.getByRole('table', { name: '规程列表' });
  await expect(table).toBeVisible();
  const first = table.getByRole('button', { name: /^阅读 / }).first();
  await first.click();
  await expect(page.getByRole('toolbar', { name: '阅读工具栏' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await outerScroll(page), 'reader: the page itself must not scroll').toEqual({ h: 0, w: 0 });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('textbox', { name: '页码' })).not.toHaveValue('1');
  expect(await outerScroll(page)).toEqual({ h: 0, w: 0 });
  await screenshot(page, 'fresh-reader-1024x700');

  await page.goto(`${freshUrl}#/search`);
  await page.getByRole('searchbox', { name: '搜索规程' }).fill('母线失压');
  await expect(page.getByRole('region', { name: '检索结果' })).toBeVisible();

  await page.goto(`${freshUrl}#/devices`);
  const input = page.getByRole('textbox', { name: '指令' });
  for (const [say, shows] of [
    ['把客厅空调调到26度', /26/],
    ['温度高于28度就打开卧室空调', /温度高于28度/],
  ] as const) {
    await input.fill(say);
    await input.press('Enter');
    await expect(page.getByRole('group', { name: `「${say}」的检索结果` }).getByLabel('命令解读')).toContainText(shows);
  }
  await screenshot(page, 'fresh-devices-1024x700');

  for (const screen of ['collections', 'import', 'settings']) {
    await page.goto(`${freshUrl}#/${screen}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await outerScroll(page), `${screen}: the page itself must not scroll`).toEqual({ h: 0, w: 0 });
  }
  expect(errors).toEqual([]);
});
