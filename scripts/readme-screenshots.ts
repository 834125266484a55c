/**
 * The README's screenshots (docs/screenshot-*.png), taken the way a new user sees the app: the browser
 * shell on a fresh data dir (it seeds the demo library itself), Debian Chromium at 1280×800.
 *
 *   npx tsx scripts/readme-screenshots.ts
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ROOT } from '../test/e2e/paths';
import { startShell, stopShell } from '../test/e2e/shell';

execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-shots-'));
const { url, child } = await startShell(dataDir);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const shot = (name: string) => page.screenshot({ path: path.join(ROOT, 'docs', `screenshot-${name}.png`) });

  await page.goto(`${url}#/search`);
  await page.getByRole('searchbox', { name: '搜索规程' }).fill('设备不停电时的安全距离');
  await page.getByRole('searchbox', { name: '搜索规程' }).press('Enter');
  await page.getByRole('region', { name: '检索结果' }).locator('.hit-card').first().waitFor();
  await page.waitForLoadState('networkidle');
  await shot('search');

  await page.locator('.hit-card').first().click();
  await page.getByRole('toolbar', { name: '阅读工具栏' }).waitFor();
  await page.locator('table').first().waitFor();
  await page.waitForLoadState('networkidle');
  await shot('reader');
  console.log('wrote docs/screenshot-search.png and docs/screenshot-reader.png');
} finally {
  await browser.close();
  await stopShell(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
