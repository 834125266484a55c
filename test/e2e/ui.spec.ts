/**
 * What a person sees, on every screen at a laptop size and a desktop size: no console errors, no
 * outer scrollbar, no internal codes, no serious/critical axe violations; screenshots saved to
 * test-results/screens/ as artifacts.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './shell';
import { ensureFixtureRegulation, invoke, screenshot } from './helpers';
import { DEVICE_TYPES } from '../../src/renderer/src/i18n/messages';
import { TYPE_LABELS } from '../../src/core/devices/lexicon';

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1600, height: 1000 },
];

/** English device-type keys (light, airConditioner…): people see 灯, 空调. */
const TYPE_KEYS = [...new Set([...Object.keys(DEVICE_TYPES), ...Object.keys(TYPE_LABELS)])].filter((k) => /^[A-Za-z_]+$/.test(k));

/** Codes that belong in JSON, never on screen. */
const INTERNAL = new RegExp(
  String.raw`\bUNKNOWN\b|LOW_EVIDENCE|INVALID_INPUT|NOT_FOUND|\b\w+_hit\b|command_match|last-mentioned|Failed to fetch|\[object Object\]|undefined|NaN|\b(?:${TYPE_KEYS.join('|')})\b`,
);

async function checkScreen(page: Page, name: string, consoleErrors: string[]): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('status').filter({ hasText: /加载中|正在读取/ })).toHaveCount(0);
  const outer = await page.evaluate<{ h: number; w: number }>(
    '({ h: document.documentElement.scrollHeight - document.documentElement.clientHeight, w: document.documentElement.scrollWidth - document.documentElement.clientWidth })',
  );
  expect(outer, `${name}: the page itself must not scroll`).toEqual({ h: 0, w: 0 });
  const text = await page.locator('body').innerText();
  const code = INTERNAL.exec(text);
  expect(code ? text.slice(Math.max(0, code.index - 40), code.index + 40) : null, `${name}: internal code on screen`).toBeNull();
  const axe = await new AxeBuilder({ page }).analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`),
    `${name}: axe serious/critical`,
  ).toEqual([]);
  await screenshot(page, name);
  expect(consoleErrors, `${name}: console errors`).toEqual([]);
}

for (const size of SIZES) {
  const tag = `${size.width}x${size.height}`;
  test.describe(`at ${tag}`, () => {
    test.use({ viewport: size });

    test(`every screen reads as words for people (${tag})`, async ({ page, request }) => {
      const consoleErrors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      const regId = await ensureFixtureRegulation(request);
      const regs = await invoke<{ reg_id: string; format: string }[]>(request, 'regulations.list', {});
      const pdf = regs.find((r) => r.format === 'pdf');

      await page.goto('/#/library');
      await expect(page.getByRole('table', { name: '规程列表' })).toBeVisible();
      await checkScreen(page, `library-${tag}`, consoleErrors);

      await page.goto(`/#/reader/${encodeURIComponent(regId)}?page=1`);
      await expect(page.getByRole('region', { name: '第 1 页' })).toContainText('第一条');
      await checkScreen(page, `reader-md-${tag}`, consoleErrors);

      if (pdf) {
        await page.goto(`/#/reader/${encodeURIComponent(pdf.reg_id)}?page=2`);
        await expect(page.getByRole('img', { name: '第 2 页原版图像' })).toBeVisible();
        await expect(page.locator('.pdf-page-wrap')).toHaveAttribute('data-state', 'ready');
        await checkScreen(page, `reader-pdf-${tag}`, consoleErrors);
      }

      await page.goto('/#/search');
      await page.getByRole('searchbox', { name: '搜索规程' }).fill('母线失压');
      await expect(page.getByRole('region', { name: '检索结果' })).toBeVisible();
      await checkScreen(page, `search-${tag}`, consoleErrors);

      await page.goto('/#/devices');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await checkScreen(page, `devices-${tag}`, consoleErrors);

      await page.goto('/#/collections');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await checkScreen(page, `collections-${tag}`, consoleErrors);

      await page.goto('/#/import');
      await expect(page.getByRole('heading', { name: '导入规程' })).toBeVisible();
      await checkScreen(page, `import-${tag}`, consoleErrors);

      await page.goto('/#/settings');
      await expect(page.getByRole('table', { name: '模型列表' })).toBeVisible();
      await checkScreen(page, `settings-${tag}`, consoleErrors);
    });
  });
}

test('backend down: the screen says so in Chinese and offers a retry that works once it is back', async ({ page }) => {
  await page.goto('/#/library');
  await expect(page.getByRole('table', { name: '规程列表' })).toBeVisible();
  // the next calls fail as if the shell had stopped
  let refused = 0;
  await page.route(/\/api\/invoke\//, (route) => {
    refused++;
    return route.abort('connectionrefused');
  });
  await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '跨规程搜索' }).click();
  await expect(page.getByRole('searchbox', { name: '搜索规程' })).toBeVisible();
  await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '规程库' }).click();
  const alert = page.getByRole('alert').filter({ hasText: '无法连接到 GridCode' });
  await expect.poll(() => refused).toBeGreaterThan(0);
  await expect(alert).toBeVisible();
  await expect(page.locator('body')).not.toContainText('Failed to fetch');
  await screenshot(page, 'backend-down');
  await page.unroute(/\/api\/invoke\//);
  await alert.getByRole('button', { name: '重试' }).click();
  await expect(page.getByRole('table', { name: '规程列表' })).toBeVisible();
});
