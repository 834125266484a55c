import { defineConfig } from '@playwright/test';

/**
 * E2E against the browser shell in Debian Chromium (no Playwright browser download).
 * No shared webServer: each test starts its own shell on a fresh data dir (test/e2e/shell.ts);
 * global-setup.ts builds the renderer and seeds the demo-library template once.
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    locale: 'zh-CN',
    // the laptop size people use; ui.spec.ts also checks 1600×1000
    viewport: { width: 1024, height: 700 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
