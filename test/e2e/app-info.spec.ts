import { expect, test } from '@playwright/test';

test('browser shell shows app info with the model status in Chinese', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /设置/ }).click();
  const info = page.getByRole('region', { name: '应用信息' });
  await expect(info).toContainText(/版本/);
  await expect(info).toContainText(/0\.1\.0/);
  await expect(info).toContainText(/数据目录/);
  await expect(info).toContainText(/\.cache\/e2e-data/);
  await expect(info).toContainText(/未安装嵌入模型|嵌入模型已就绪/);
  await page.screenshot({ path: 'test-results/screens/settings.png', fullPage: true });
});
