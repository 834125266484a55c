import { expect, test } from './shell';
import { openScreen, screenshot } from './helpers';

test('settings: LLM toggle and thresholds persist; invalid values are refused naming the field in Chinese', async ({ page }) => {
  await page.goto('/');
  await openScreen(page, '设置');
  await expect(page.getByRole('region', { name: '在线大模型（DashScope）' }).getByLabel('密钥状态')).toHaveText('未配置');
  const models = page.getByRole('region', { name: '嵌入模型' }).getByRole('table', { name: '模型列表' });
  await expect(models).toBeVisible();
  // a new user's first look: the model in use is named in words; a model not installed is neither 默认/推荐 nor an error
  const inUse = models.getByRole('row').filter({ hasText: '使用中' });
  await expect(inUse).toHaveCount(1);
  await expect(inUse).toContainText('GridCode 自训练中文检索模型');
  const missing = models.getByRole('row').filter({ hasText: '未安装' });
  for (const row of await missing.all()) {
    await expect(row.locator('.pill').filter({ hasText: /默认|推荐/ })).toHaveCount(0);
    await expect(row.locator('.job-error')).toHaveCount(0);
  }
  await expect(page.getByRole('region', { name: '嵌入模型' })).not.toContainText('npm run');

  // this shell has no key: turning the LLM on says what is missing
  const toggle = page.getByRole('switch', { name: '使用大模型解析设备指令' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(page.getByRole('alert').filter({ hasText: '还没有配置 DashScope 密钥' })).toContainText('DASHSCOPE_API_KEY');
  await page.reload();
  await expect(page.getByRole('switch', { name: '使用大模型解析设备指令' })).toBeChecked();
  await page.getByRole('switch', { name: '使用大模型解析设备指令' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '还没有配置 DashScope 密钥' })).toHaveCount(0);

  const tmin = page.getByRole('spinbutton', { name: '最低综合分' });
  await tmin.fill('1.5');
  await page.getByRole('button', { name: '保存阈值' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '未保存' })).toContainText('「最低综合分」不能大于 1');
  await expect(tmin).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'settings-field-error');
  await tmin.fill('0.35');
  await page.getByRole('button', { name: '保存阈值' }).click();
  await expect(page.getByRole('status').filter({ hasText: '检索阈值已保存' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('spinbutton', { name: '最低综合分' })).toHaveValue('0.35');
  await screenshot(page, 'settings-config');
});

test('settings: the space the library takes, per table, from the real database', async ({ page }) => {
  await page.goto('/');
  await openScreen(page, '设置');
  const storage = page.getByRole('region', { name: '占用空间' });
  await expect(storage.getByTestId('data-dir-size')).toHaveText(/^\d+(\.\d)? (MB|KB)$/);
  // the demo library's text and its search entries are there, with their Chinese names
  await expect(storage.getByRole('row').filter({ hasText: '规程条文' })).toContainText('reg_units');
  await expect(storage.getByRole('row').filter({ hasText: '检索索引文件' })).toBeVisible();
});
