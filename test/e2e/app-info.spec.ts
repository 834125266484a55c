import { expect, test } from './shell';

test('browser shell shows app info with the model status in Chinese', async ({ page, shell }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /设置/ }).click();
  const info = page.getByRole('region', { name: '应用信息' });
  await expect(info).toContainText(/版本/);
  await expect(info).toContainText(/0\.1\.0/);
  await expect(info).toContainText(/数据目录/);
  // the data folder is where this shell keeps its data (a person may need it for backups)
  await expect(info).toContainText(shell.dataDir);
  await expect(info).toContainText(/未安装嵌入模型|嵌入模型已就绪/);
  // but no install-internal paths: the model folder is named, not where the app keeps it
  await expect(info).not.toContainText(/\/models\//);
  await page.screenshot({ path: 'test-results/screens/settings.png', fullPage: true });
});
