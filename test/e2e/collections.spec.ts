import { expect, test } from './shell';
import path from 'node:path';
import { openScreen, screenshot } from './helpers';

test('collections: import a folder, ask, pick a candidate, follow up, see why', async ({ page }) => {
  await page.goto('/');
  await openScreen(page, '文集问答');
  const form = page.getByRole('region', { name: '导入文集' });
  await form.getByRole('textbox', { name: '文件夹路径' }).fill(path.resolve('resources/recipes'));
  await form.getByRole('textbox', { name: '文集名称' }).fill('菜谱');
  await form.getByRole('button', { name: '导入', exact: true }).click();
  const entry = page.getByRole('region', { name: '文集列表' }).getByRole('button', { name: /^菜谱/ });
  await expect(entry).toContainText(/\d+ 篇文档/, { timeout: 30_000 });
  await expect(form.getByRole('progressbar')).toHaveCount(0);
  await entry.click();

  const chat = page.getByRole('region', { name: '问答' });
  const q = chat.getByRole('textbox', { name: '问题' });
  await q.fill('红烧肉怎么做');
  await q.press('Enter');
  const answers = chat.getByRole('article', { name: '回答' });
  await expect(answers.last().getByRole('heading', { name: '红烧肉' })).toBeVisible();
  await expect(answers.last().getByRole('listitem').first()).toBeVisible();
  await expect(chat.getByLabel('锁定状态')).toContainText('红烧肉');

  // follow-up inside the session
  await chat.getByRole('group', { name: '继续追问' }).getByRole('button', { name: '要多久？' }).click();
  await expect(answers).toHaveCount(2);
  await expect(answers.last()).toContainText('1.5 小时');
  await expect(answers.last()).toContainText('追问：时间');

  // an ambiguous question offers candidates; clicking one locks it
  await q.fill('鸡怎么做');
  await q.press('Enter');
  const chips = chat.getByRole('group', { name: '候选文档' });
  await expect(chips.getByRole('button')).not.toHaveCount(0);
  await chips.getByRole('button', { name: /黄焖鸡/ }).click();
  await expect(chat.getByLabel('锁定状态')).toContainText('黄焖鸡');
  await expect(answers.last().getByRole('heading', { name: '黄焖鸡' })).toBeVisible();

  await answers.last().getByRole('button', { name: '为什么是这个回答' }).click();
  const why = page.getByRole('dialog', { name: '回答依据' });
  await expect(why).toContainText('锁定文档');
  await expect(why).toContainText('您从上一轮的候选中选择了「黄焖鸡」');
  await expect(why.getByRole('table', { name: '候选文档得分' })).toContainText('黄焖鸡');
  await screenshot(page, 'collections');
  await why.getByRole('button', { name: '关闭' }).click();
  await expect(why).toHaveCount(0);

  // the session survives a trip to another screen: a follow-up still applies to the locked recipe
  await openScreen(page, '设置');
  await openScreen(page, '文集问答');
  await expect(chat.getByRole('article', { name: '回答' })).toHaveCount(4);
  await chat.getByRole('group', { name: '继续追问' }).getByRole('button', { name: '需要哪些原料？' }).click();
  await expect(answers).toHaveCount(5);
  await expect(answers.last()).toContainText('鸡腿');
});
