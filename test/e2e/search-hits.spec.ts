import { expect, test } from './shell';
import { expectPage, invoke, screenshot } from './helpers';

/**
 * Search hits land exactly (demo library, 1024×700, each test its own shell and data dir): a table
 * hit opens its table with the row marked (not the paragraph before it), an article printed over
 * two pages is shown whole, the original page scrolls its hit's block into view, one total per
 * result list, and "为什么" says in words what matched where (numbers only under 详细).
 */

type Hit = {
  reg_id: string;
  unit_id: number;
  kind: string;
  article: string | null;
  page_num: number;
  locate: { block: string; page_num: number; page_end: number; table_id?: string; row?: string[] };
  why: { summary: string };
};
type Out = { total: number; results: Hit[]; groups: { reg_id: string; total: number; shown: number }[] };

async function searchFor(page: import('@playwright/test').Page, q: string): Promise<void> {
  await page.goto('/#/search');
  await page.getByRole('radiogroup', { name: '检索范围' }).getByRole('radio', { name: '全部' }).click();
  await page.getByRole('searchbox', { name: '搜索规程' }).fill(q);
  await expect(page.getByRole('region', { name: '检索结果' })).toHaveAttribute('aria-busy', 'false');
}

test('search hit: a table hit opens its table with the row marked, in the text and the original view', async ({ page, request }) => {
  const q = '安全自动装置台账 厂站 天山换流站';
  const out = await invoke<Out>(request, 'search.smart_search', { query: q, reg_id: 'all' });
  // angui_2024 is the demo PDF: it has an original view
  const hit = out.results.find((h) => h.reg_id === 'angui_2024' && h.locate.block === 'table' && h.locate.row?.length);
  expect(hit, 'a table row of the PDF among the hits').toBeTruthy();
  const { table_id: tableId, row, page_num: rowPage } = hit!.locate;

  await searchFor(page, q);
  const card = page.locator(`.hit-card[data-unit="${hit!.unit_id}"]`);
  // the card names the page the row is printed on, the page it opens
  await expect(card.locator('.hit-page')).toHaveText(`第 ${rowPage} 页`);
  await card.click();
  await expectPage(page, rowPage);
  // the original page: the row's text is tinted and on screen
  const original = page.getByRole('region', { name: `第 ${rowPage} 页` });
  await expect(original.locator('.pdf-block-hit').first()).toBeInViewport();
  await screenshot(page, 'search-hit-table-original');

  await page.getByRole('radiogroup', { name: '页面视图' }).getByRole('radio', { name: '文本' }).click();
  const sheet = page.getByRole('region', { name: `第 ${rowPage} 页` });
  const table = sheet.locator(`figure[data-table-id="${tableId}"]`);
  await expect(table).toHaveClass(/blk-hit/);
  // the table, not the text before it, is the hit; its row is marked and in view
  await expect(sheet.locator('p.blk-hit')).toHaveCount(0);
  const marked = table.locator('tr.row-hit');
  await expect(marked).toHaveCount(1);
  await expect(marked.getByRole('cell').nth(1)).toHaveText(row![1]);
  await expect(marked).toBeInViewport();
  await screenshot(page, 'search-hit-table-text');
});

test('search hit: an article printed over two pages is shown whole, and the original page scrolls its block into view', async ({ page, request }) => {
  const q = '母线失压时按照下列原则处理 厂站运行值班人员';
  const out = await invoke<Out>(request, 'search.smart_search', { query: q, reg_id: 'all' });
  const hit = out.results.find((h) => h.locate.page_end > h.locate.page_num);
  expect(hit, 'an article that runs onto the next page').toBeTruthy();
  const from = hit!.locate.page_num;
  const to = hit!.locate.page_end;

  await searchFor(page, q);
  const card = page.locator(`.hit-card[data-unit="${hit!.unit_id}"]`);
  await expect(card.locator('.hit-page')).toHaveText(`第 ${from}–${to} 页`);
  await card.click();
  await expectPage(page, from);
  // original view: the article starts low on its page; its block is tinted and scrolled into view,
  // and the page it runs onto is drawn under it
  const first = page.getByRole('region', { name: `第 ${from} 页`, exact: true });
  await expect(first.locator('.pdf-block-hit').first()).toBeInViewport();
  const next = page.getByRole('region', { name: `第 ${to} 页（命中条文续）` });
  await expect(next.locator('.pdf-block-hit').first()).toBeAttached();
  await screenshot(page, 'search-hit-runon-original');

  // text view: the article and its continuation are one marked block
  await page.getByRole('radiogroup', { name: '页面视图' }).getByRole('radio', { name: '文本' }).click();
  const run = page.locator('.blk-hit-run');
  await expect(run).toHaveCount(1);
  await expect(run.locator('p.blk-hit').first()).toContainText(hit!.article!);
  await expect(run.getByRole('group', { name: `接第 ${to} 页` })).toBeVisible();
  const unit = await invoke<{ pages: { text: string }[] }>(request, 'regulations.read', { reg_id: 'angui_2024', start: to });
  // the first line printed on the next page belongs to the article and is shown under it
  const firstLine = unit.pages[0].text.split('\n').find((l) => l.trim())!.replace(/\s+/g, '');
  expect((await run.innerText()).replace(/\s+/g, '')).toContain(firstLine.slice(0, 12));
  await expect(run).toBeInViewport();
  await screenshot(page, 'search-hit-runon-text');
});

test('search hit: a note opens marked, also when it is printed under its table', async ({ page, request }) => {
  const q = '控制量为演示数值 以调控中心下达的控制策略表为准';
  const out = await invoke<Out>(request, 'search.smart_search', { query: q, reg_id: 'angui_2024' });
  const hit = out.results.find((h) => h.locate.block === 'note');
  expect(hit, 'a note among the hits').toBeTruthy();
  await page.goto('/#/search');
  await page.getByRole('radiogroup', { name: '检索范围' }).getByRole('radio', { name: '全部' }).click();
  await page.getByRole('searchbox', { name: '搜索规程' }).fill(q);
  await page.locator(`.hit-card[data-unit="${hit!.unit_id}"]`).click();
  await expectPage(page, hit!.locate.page_num);
  await page.getByRole('radiogroup', { name: '页面视图' }).getByRole('radio', { name: '文本' }).click();
  const sheet = page.getByRole('region', { name: `第 ${hit!.locate.page_num} 页` });
  const marked = sheet.locator('[data-hit="true"]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('控制量为演示数值');
  await expect(marked).toBeInViewport();
  await screenshot(page, 'search-hit-note');
});

test('search: one total per result list, the same everywhere; 为什么 in words, numbers under 详细', async ({ page, request }) => {
  const q = '安全自动装置 母线';
  const out = await invoke<Out>(request, 'search.smart_search', { query: q, reg_id: 'all' });
  expect(out.groups.reduce((n, g) => n + g.total, 0), 'the groups add up to the total').toBe(out.total);

  await searchFor(page, q);
  const results = page.getByRole('region', { name: '检索结果' });
  const screenText = await page.locator('.screen').innerText();
  const totals = [...screenText.matchAll(/共\s*(\d+)\s*条/g)].map((m) => Number(m[1]));
  expect(totals.length).toBeGreaterThan(0);
  expect(new Set(totals), `every "共 N 条" on screen: ${totals.join(', ')}`).toEqual(new Set([out.total]));
  // per regulation: "其中 N 条出自本规程，已显示 M 条" and "还有 N−M 条" agree with the cards shown
  for (const section of await results.locator('section.result-group').all()) {
    const head = await section.locator('.group-count').innerText();
    const m = /其中 (\d+) 条出自本规程，已显示 (\d+) 条/.exec(head);
    const cards = await section.locator('.hit-card').count();
    if (!m) {
      expect(head).toBe(`${cards} 条`);
      continue;
    }
    expect(Number(m[2])).toBe(cards);
    await expect(section.getByRole('button', { name: new RegExp(`^更多来自本规程（还有 ${Number(m[1]) - cards} 条）`) })).toBeVisible();
  }
  const sum = await results.locator('.group-count').allInnerTexts();
  expect(sum.length).toBeGreaterThan(0);

  // 为什么: which words matched where, and why this regulation; scores only under 详细
  const why = results.locator('.hit-why').first();
  await why.locator('summary').first().click();
  const words = why.locator('.why-words');
  await expect(words).toBeVisible();
  await expect(words).toContainText(/「.+」出现在/);
  await expect(words).not.toContainText(/\d\.\d{2}/);
  const detail = why.locator('.why-detail');
  await expect(detail.getByText(/综合得分/)).toBeHidden();
  await detail.locator('summary').click();
  await expect(detail.getByText(/综合得分 \d/)).toBeVisible();
  await screenshot(page, 'search-why');
});
