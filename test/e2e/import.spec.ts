import { expect, test } from './shell';
import path from 'node:path';
import { FIXTURE_DIR, FIXTURE_MD, FIXTURE_TITLE, openScreen, screenshot } from './helpers';

test('import: files are uploaded and parsed with progress; bad files get Chinese errors', async ({ page }) => {
  await page.goto('/');
  await openScreen(page, '导入');
  await expect(page.getByRole('heading', { name: '导入规程' })).toBeVisible();

  await page.getByLabel('选择规程文件').setInputFiles([FIXTURE_MD, path.join(FIXTURE_DIR, '损坏的规程.pdf'), path.join(FIXTURE_DIR, '说明.xyz')]);

  const progress = page.getByRole('region', { name: '导入进度' });
  await expect(progress.getByRole('heading', { name: /导入完成/ })).toBeVisible({ timeout: 30_000 });
  await expect(progress.getByRole('progressbar', { name: '总体进度' })).toHaveAttribute('aria-valuenow', '100');

  const good = progress.getByRole('listitem', { name: path.basename(FIXTURE_MD) });
  await expect(good).toContainText(/已导入|未变化/);
  await expect(good).toContainText(FIXTURE_TITLE);
  await expect(good.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

  // the server rejects the broken PDF, the renderer rejects the unknown extension: both in Chinese, naming the file
  const brokenPdf = progress.getByRole('listitem', { name: '损坏的规程.pdf' });
  await expect(brokenPdf).toContainText('失败');
  await expect(brokenPdf.getByRole('alert')).toContainText(/损坏的规程\.pdf/);
  const unknown = progress.getByRole('listitem', { name: '说明.xyz' });
  await expect(unknown.getByRole('alert')).toContainText('格式不支持');
  await expect(progress.getByRole('heading')).toContainText('成功 1 个，失败 2 个');
  await screenshot(page, 'import');

  // the imported regulation is in the library
  await progress.getByRole('button', { name: '打开规程库' }).click();
  await expect(page.getByRole('table', { name: '规程列表' })).toContainText(FIXTURE_TITLE);
  await screenshot(page, 'library');
});
