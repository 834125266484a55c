import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 5418);

/** E2E against the browser shell in Debian Chromium (no Playwright browser download). */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    locale: 'zh-CN',
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    // fresh data dir per run; the shell seeds the demo library on first start
    command: `rm -rf .cache/e2e-data && npx vite build --config vite.web.config.ts --logLevel warn && npx tsx src/web/server.ts --port ${PORT} --data-dir .cache/e2e-data`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
  },
});
