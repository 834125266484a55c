import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './shell';
import { invoke, shellToken } from './helpers';
import { jpegPage, rawImagePdf } from '../fixtures/scans';

/**
 * A scanned regulation in the reader (issue 24): the original page is the scan, its text layer is the OCR
 * lines placed on their boxes, so a search hit is marked where it is printed.
 */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scans');

test('reader: a scanned page highlights the hit on the page image where it is printed', async ({ page, request }) => {
  test.setTimeout(240_000);
  // uploaded as a user drops it on the import screen
  const up = await request.post(`/api/upload?name=${encodeURIComponent('巡视规定扫描件.pdf')}`, {
    data: rawImagePdf([jpegPage(fs.readFileSync(path.join(fixtures, 'regulation-page-150dpi.jpg')))]),
    headers: { 'X-GridCode-Token': await shellToken(request), 'Content-Type': 'application/octet-stream' },
  });
  const { path: serverPath } = (await up.json()) as { path: string };
  const [res] = await invoke<{ reg_id: string; status: string; ocr_pages: number }[]>(request, 'regulations.import', { paths: [serverPath] });
  expect(res).toMatchObject({ status: 'imported', ocr_pages: 1 });
  const structure = await invoke<{ ocr_lines: { text: string; y0: number; y1: number }[] }>(request, 'regulations.page_structure', { reg_id: res.reg_id, page: 1 });
  const line = structure.ocr_lines.find((l) => l.text.includes('避雷器'))!;

  await page.goto(`/#/reader/${encodeURIComponent(res.reg_id)}?page=1&hl=${encodeURIComponent('避雷器')}`);
  const sheet = page.getByRole('region', { name: '第 1 页' });
  await expect(sheet.getByRole('img', { name: '第 1 页原版图像' })).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: '本页为扫描件' })).toBeVisible();
  await expect(sheet.locator('.textLayer .ocr-line')).toHaveCount(structure.ocr_lines.length);
  const mark = sheet.locator('.textLayer mark.hit');
  await expect(mark).toHaveText('避雷器');
  const img = (await sheet.getByRole('img', { name: '第 1 页原版图像' }).boundingBox())!;
  const hit = (await mark.boundingBox())!;
  const middle = (hit.y + hit.height / 2 - img.y) / img.height;
  expect(middle).toBeGreaterThan(line.y0);
  expect(middle).toBeLessThan(line.y1);

  // the text view shows the recognised text
  await page.getByRole('radiogroup', { name: '页面视图' }).getByRole('radio', { name: '文本' }).click();
  await expect(sheet).toContainText('避雷器');
});
