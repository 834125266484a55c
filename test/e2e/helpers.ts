/**
 * Shared steps for the e2e specs. Data a spec needs is created through the same HTTP bridge the
 * renderer uses (token from the page), so every spec runs on its own, in any order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const FIXTURE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const FIXTURE_MD = path.join(FIXTURE_DIR, '变电站倒闸操作规程.md');
export const FIXTURE_TITLE = '变电站倒闸操作与事故处理规程（示例）';

export async function shellToken(request: APIRequestContext): Promise<string> {
  const html = await (await request.get('/')).text();
  const m = /name="gridcode-token" content="([^"]+)"/.exec(html);
  if (!m) throw new Error('token meta missing from index.html');
  return m[1];
}

/** POST /api/invoke/<op>; returns the result line's data (throws on an error line). */
export async function invoke<T = unknown>(request: APIRequestContext, op: string, input: unknown): Promise<T> {
  const token = await shellToken(request);
  const res = await request.post(`/api/invoke/${op}`, { data: input, headers: { 'X-GridCode-Token': token } });
  const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; data?: T; error?: { message: string } });
  const last = lines[lines.length - 1];
  if (last.type !== 'result') throw new Error(`${op} failed: ${last.error?.message}`);
  return last.data as T;
}

/** Imports the Markdown fixture regulation (idempotent: a re-import reports "unchanged"). */
export async function ensureFixtureRegulation(request: APIRequestContext): Promise<string> {
  const token = await shellToken(request);
  const up = await request.post(`/api/upload?name=${encodeURIComponent(path.basename(FIXTURE_MD))}`, {
    data: fs.readFileSync(FIXTURE_MD),
    headers: { 'X-GridCode-Token': token, 'Content-Type': 'application/octet-stream' },
  });
  const { path: serverPath } = (await up.json()) as { path: string };
  const results = await invoke<{ reg_id: string | null; status: string; error?: string }[]>(request, 'regulations.import', { paths: [serverPath] });
  const r = results[0];
  if (!r || r.status === 'failed' || !r.reg_id) throw new Error(`fixture import failed: ${r?.error}`);
  return r.reg_id;
}

export async function openScreen(page: Page, nav: RegExp | string): Promise<void> {
  await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: nav }).click();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: false });
}

export function pageBox(page: Page) {
  return page.getByRole('textbox', { name: '页码' });
}

export async function expectPage(page: Page, n: number): Promise<void> {
  await expect(pageBox(page)).toHaveValue(String(n));
  await expect(page.getByRole('region', { name: `第 ${n} 页` })).toBeVisible();
}
