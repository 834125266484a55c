import { expect, test } from '@playwright/test';
import { openScreen, screenshot } from './helpers';

test('settings: LLM toggle and thresholds persist; invalid values are refused in Chinese', async ({ page }) => {
  await page.goto('/');
  await openScreen(page, '设置');
  await expect(page.getByRole('region', { name: '在线大模型（DashScope）' }).getByLabel('密钥状态')).toHaveText(/未配置|已配置/);
  await expect(page.getByRole('region', { name: '嵌入模型' }).getByRole('table', { name: '模型列表' })).toBeVisible();

  const toggle = page.getByRole('switch', { name: '使用大模型解析设备指令' });
  const before = await toggle.isChecked();
  await toggle.click();
  await expect(page.getByRole('status').filter({ hasText: /已(开启|关闭)大模型解析/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: '使用大模型解析设备指令' })).toBeChecked({ checked: !before });

  const tmin = page.getByRole('spinbutton', { name: '最低综合分 t_min' });
  await tmin.fill('1.5');
  await page.getByRole('button', { name: '保存阈值' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '配置无效' })).toContainText('「最低综合分」不能大于 1');
  await tmin.fill('0.35');
  await page.getByRole('button', { name: '保存阈值' }).click();
  await expect(page.getByRole('status').filter({ hasText: '检索阈值已保存' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('spinbutton', { name: '最低综合分 t_min' })).toHaveValue('0.35');
  await screenshot(page, 'settings-config');

  // put things back for other specs sharing this data dir
  await page.getByRole('spinbutton', { name: '最低综合分 t_min' }).fill('0.4');
  await page.getByRole('button', { name: '保存阈值' }).click();
  await expect(page.getByRole('status').filter({ hasText: '检索阈值已保存' })).toBeVisible();
  if ((await page.getByRole('switch', { name: '使用大模型解析设备指令' }).isChecked()) !== before) {
    await page.getByRole('switch', { name: '使用大模型解析设备指令' }).click();
    await expect(page.getByRole('switch', { name: '使用大模型解析设备指令' })).toBeChecked({ checked: before });
  }
});
