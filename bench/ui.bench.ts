/**
 * UI timings of the browser shell in Chromium (playwright-core, Debian chromium):
 * - first meaningful paint: navigation start -> library table painted (target <= 1500 ms)
 * - page flip: ArrowRight -> next text page painted in the reader (target <= 100 ms)
 * - search: last keystroke (input event) -> results for that query painted (target <= 150 ms, includes the debounce)
 * Builds the renderer into a temp dir and starts its own shell on a free port with a temp data dir.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startWebServer } from '../src/web/server';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot } from '../src/core/common/paths';

const FMP_TARGET = 1500;
const FLIP_TARGET = 100;
const SEARCH_TARGET = 150;

function stats(xs: number[]): { p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
  return { p50: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

function report(name: string, xs: number[], target: number): void {
  const { p50, p95, max } = stats(xs);
  const ratio = p50 / target;
  console.log(
    `${name.padEnd(34)} n=${String(xs.length).padStart(3)}  p50=${p50.toFixed(1).padStart(7)} ms  p95=${p95.toFixed(1).padStart(7)} ms  max=${max.toFixed(1).padStart(7)} ms  target<=${target} ms  ratio=${ratio.toFixed(2)} ${ratio <= 1 ? 'OK' : 'SLOW'}`,
  );
}

/**
 * Browser-side helpers, injected as source text: the bench is type-checked for Node (no DOM
 * types) and run by tsx, whose helper names must not leak into page functions.
 * __gcPainted(sel): performance.now() at the animation frame after the one that painted `sel`
 * (double rAF: the first frame's paint has happened by then), a conservative paint time.
 */
const PAGE_HELPERS = `
window.__gcPainted = (sel) => new Promise((resolve) => {
  const done = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
  if (document.querySelector(sel)) return done();
  const mo = new MutationObserver(() => {
    if (document.querySelector(sel)) { mo.disconnect(); done(); }
  });
  mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
});
window.__gcArmInput = () => {
  window.__input = 0;
  document.getElementById('search-query').addEventListener('input', () => { window.__input = performance.now(); }, { once: true, capture: true });
};
`;

function paintedAt(page: Page, selector: string): Promise<number> {
  return page.evaluate<number>(`window.__gcPainted(${JSON.stringify(selector)})`);
}

function now(page: Page): Promise<number> {
  return page.evaluate<number>('performance.now()');
}

export default async function uiBench(): Promise<void> {
  const root = projectRoot();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-uibench-'));
  const staticDir = path.join(work, 'web');
  const t0 = performance.now();
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.web.config.ts', '--outDir', staticDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  console.log(`renderer build: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const server = await startWebServer({ port: 0, dataDir: path.join(work, 'data'), staticDir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    // the demo library (seeded at start when the shell does so; loaded explicitly otherwise) + the e2e fixture
    let regs = await invokeOperation(server.ctx, 'regulations.list', {});
    if (regs.length === 0) await invokeOperation(server.ctx, 'regulations.demo_load', {});
    const fixture = path.join(root, 'test/e2e/fixtures/变电站倒闸操作规程.md');
    if (fs.existsSync(fixture)) await invokeOperation(server.ctx, 'regulations.import', { paths: [fixture] });
    regs = await invokeOperation(server.ctx, 'regulations.list', {});
    if (regs.length === 0) throw new Error('no regulations to measure against');
    // text pages are what the flip target is about (PDF pages are drawn by pdf.js, reported separately)
    const textRegs = regs.filter((r) => r.format !== 'pdf');
    const longest = [...(textRegs.length ? textRegs : regs)].sort((a, b) => b.total_pages - a.total_pages)[0];
    console.log(`library: ${regs.length} regulations (${regs.map((r) => `${r.reg_id} ${r.total_pages}p`).join(', ')})`);

    // 1) first meaningful paint: fresh context each time (no HTTP cache, no warm JS)
    const fmp: number[] = [];
    const fcp: number[] = [];
    for (let i = 0; i < 7; i++) {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'zh-CN' });
      await ctx.addInitScript({ content: PAGE_HELPERS });
      const page = await ctx.newPage();
      await page.goto(`${server.url}#/library`, { waitUntil: 'commit' });
      const painted = await paintedAt(page, 'table[aria-label="规程列表"] tbody tr');
      const paint = await page.evaluate<number>("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN");
      if (i > 0) {
        // the first run also warms the server (first SQLite reads); report steady state
        fmp.push(painted);
        if (Number.isFinite(paint)) fcp.push(paint);
      }
      await ctx.close();
    }

    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'zh-CN' });
    await ctx.addInitScript({ content: PAGE_HELPERS });
    const page = await ctx.newPage();

    // 2) page flips in the reader over the longest regulation
    await page.goto(`${server.url}#/reader/${encodeURIComponent(longest.reg_id)}?page=1`);
    await page.waitForSelector('article[data-page="1"] .blk, article[data-page="1"] p');
    const flips: number[] = [];
    const pages = Math.min(longest.total_pages - 1, 30);
    for (let i = 0; i < pages; i++) {
      const next = i + 2;
      const start = await now(page);
      const done = paintedAt(page, `article[data-page="${next}"] .blk, article[data-page="${next}"] p`);
      await page.keyboard.press('ArrowRight');
      const end = await done;
      // `start` is taken just before the key is sent: includes input dispatch, as a user would feel it
      flips.push(end - start);
      // let the neighbour prefetch land like a reader pausing on a page would
      await page.waitForTimeout(60);
    }

    // 3) search: keystroke -> painted results
    await page.goto(`${server.url}#/search`);
    await page.getByRole('radio', { name: '全部' }).click();
    const box = page.getByRole('searchbox', { name: '搜索规程' });
    const queries = ['母线失压', '安控装置', '倒闸操作', '稳定限额', '压板投退', '故障处理', '接地线', '低频减载', '断路器', '调度指令'];
    const typed: number[] = [];
    const entered: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (const q of queries) {
        await box.fill(q.slice(0, -1));
        await page.waitForTimeout(150);
        await page.evaluate('window.__gcArmInput()');
        const done = paintedAt(page, `[aria-label="检索结果"][data-query="${q}"][aria-busy="false"], .state-empty`);
        await page.keyboard.insertText(q.slice(-1));
        const end = await done;
        const start = await page.evaluate<number>('window.__input');
        if (round > 0) typed.push(end - start);
        // Enter on a new query: Enter cancels the pending debounce, so this is engine + render only
        const other = `${q}的规定`;
        const startEnter = await now(page);
        const doneEnter = paintedAt(page, `[aria-label="检索结果"][data-query="${other}"][aria-busy="false"], .state-empty`);
        await box.fill(other);
        await box.press('Enter');
        const endEnter = await Promise.race([doneEnter, new Promise<number>((r) => setTimeout(() => r(NaN), 5000))]);
        if (round > 0 && Number.isFinite(endEnter)) entered.push(endEnter - startEnter);
      }
    }

    console.log('');
    report('first meaningful paint (library)', fmp, FMP_TARGET);
    if (fcp.length) report('first contentful paint', fcp, FMP_TARGET);
    report(`page flip (${longest.reg_id})`, flips, FLIP_TARGET);
    report('search keystroke -> results', typed, SEARCH_TARGET);
    if (entered.length) report('search Enter -> results', entered, SEARCH_TARGET);
    await ctx.close();
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
