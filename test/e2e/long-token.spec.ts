import { expect, test } from './shell';
import { invoke, openScreen, shellToken } from './helpers';

/** A 400-character unbroken token (a URL, a hash) must wrap inside the page, not widen it by 2,000 px. */
const TOKEN = 'https://grid.example.com/' + 'a1B2c3D4'.repeat(47);

test('a 400-character unbroken token wraps inside the reader page and the search results', async ({ page, request }) => {
  const token = await shellToken(request);
  const md = `# 长令牌规程\n\n## 第一章 ${TOKEN.slice(0, 120)}\n\n第一条 下载地址：${TOKEN}\n\n第二条 值班人员应当核对地址。\n`;
  const up = await request.post('/api/upload?name=long-token.md', { data: Buffer.from(md), headers: { 'X-GridCode-Token': token, 'Content-Type': 'application/octet-stream' } });
  const { path: serverPath } = (await up.json()) as { path: string };
  const [r] = await invoke<{ reg_id: string; status: string }[]>(request, 'regulations.import', { paths: [serverPath] });
  expect(r.status).toBe('imported');

  await page.goto('/');
  await openScreen(page, '规程库');
  await page.getByRole('button', { name: '阅读 长令牌规程' }).click();
  const sheet = page.getByRole('region', { name: '第 1 页' });
  await expect(sheet).toContainText('下载地址');
  // evaluated as strings: the e2e tsconfig has no DOM types
  const overflow = await page.evaluate<{ doc: number; view: number; sheet: number }>(`(() => {
    const view = document.querySelector('.reader-view');
    const sheet = document.querySelector('.page-sheet');
    return { doc: document.documentElement.scrollWidth - document.documentElement.clientWidth, view: view.scrollWidth - view.clientWidth, sheet: sheet.scrollWidth - sheet.clientWidth };
  })()`);
  expect(overflow).toEqual({ doc: 0, view: 0, sheet: 0 });

  await openScreen(page, '跨规程搜索');
  await page.getByRole('searchbox', { name: '搜索规程' }).fill('下载地址');
  const results = page.getByRole('region', { name: '检索结果' });
  await expect(results).toContainText('下载地址');
  const searchOverflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  expect(searchOverflow).toBe(0);
  // nothing sticks out of the results pane (ellipsis titles clip on purpose: their overflow is hidden)
  const sticking = await page.evaluate<string[]>(`(() => {
    const el = document.querySelector('[aria-label="检索结果"]');
    const right = el.getBoundingClientRect().right;
    return [...el.querySelectorAll('*')]
      .filter((n) => n.getBoundingClientRect().right > right + 1)
      .filter((n) => {
        for (let a = n.parentElement; a && a !== el; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return false;
        return true;
      })
      .map((n) => n.tagName + '.' + n.className);
  })()`);
  expect(sticking).toEqual([]);
  expect(await page.evaluate<number>(`(() => { const el = document.querySelector('[aria-label="检索结果"]'); return el.scrollWidth - el.clientWidth; })()`)).toBeLessThanOrEqual(1);
});
