import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './shell';
import { invoke, shellToken } from './helpers';

/**
 * Figures in the reader (issue 24): a PDF whose page has a drawing captioned "图3-1 配电室主接线示意图"
 * (test/fixtures/scans/figure-page.pdf) is dropped on the import screen's upload; the reader lists the
 * page's figure with its caption and how often the text cites it, and shows the picture cut from the page.
 * Own data dir (the shell fixture).
 */
type Picture = { complete: boolean; naturalWidth: number; naturalHeight: number };
const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scans', 'figure-page.pdf');

test('reader: the page lists its figure with caption and citations and shows the cropped picture', async ({ page, request }) => {
  test.setTimeout(120_000);
  const up = await request.post(`/api/upload?name=${encodeURIComponent('配电室接线规定.pdf')}`, {
    data: fs.readFileSync(fixture),
    headers: { 'X-GridCode-Token': await shellToken(request), 'Content-Type': 'application/octet-stream' },
  });
  const { path: serverPath } = (await up.json()) as { path: string };
  const [res] = await invoke<{ reg_id: string; status: string }[]>(request, 'regulations.import', { paths: [serverPath] });
  expect(res.status).toBe('imported');

  await page.goto(`/#/reader/${encodeURIComponent(res.reg_id)}?page=1`);
  const strip = page.getByRole('region', { name: '本页的图' });
  await expect(strip).toBeVisible();
  const item = strip.locator('figure');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('图3-1');
  await expect(item).toContainText('配电室主接线示意图');
  await expect(item).toContainText('正文引用 2 处');

  const button = item.getByRole('button', { name: '查看图片' });
  await button.click();
  const picture = item.getByRole('img', { name: '图3-1 配电室主接线示意图' });
  await expect(picture).toBeVisible();
  // a real picture arrived (the crop of the drawing, wider than tall), not a broken image
  await expect.poll(() => picture.evaluate((img) => ((img as unknown as Picture).complete ? (img as unknown as Picture).naturalWidth : 0))).toBeGreaterThan(300);
  const size = await picture.evaluate((img) => ({ w: (img as unknown as Picture).naturalWidth, h: (img as unknown as Picture).naturalHeight }));
  expect(size.w).toBeGreaterThan(size.h);
  await expect(item.getByRole('button', { name: '收起图片' })).toHaveAttribute('aria-expanded', 'true');
  await item.getByRole('button', { name: '收起图片' }).click();
  await expect(picture).toHaveCount(0);
});
