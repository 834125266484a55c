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

  // a dish the collection does not hold: said plainly, near dishes only as labelled alternatives, never a lock
  await q.fill('宫保虾球怎么做');
  await q.press('Enter');
  await expect(answers).toHaveCount(6);
  await expect(answers.last()).toContainText('文集中没有「宫保虾球」的菜谱。');
  await expect(answers.last()).toContainText('集合中没有');
  await expect(chat.getByLabel('锁定状态')).not.toContainText('黄焖鸡');
  const near = answers.last().getByRole('group', { name: '相近的文档（不是所问的）' });
  await expect(answers.last()).toContainText('不是「宫保虾球」');
  await near.getByRole('button', { name: /宫保鸡丁/ }).click();
  await expect(chat.getByLabel('锁定状态')).toContainText('宫保鸡丁');
  await expect(answers.last().getByRole('heading', { name: '宫保鸡丁' })).toBeVisible();
});

test('collections: upload a folder of rule books from the browser, the list switches to it, answers cite their article', async ({ page }) => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-e2e-rules-'));
  const books = path.join(dir, '安全规定');
  fs.mkdirSync(path.join(books, '子目录'), { recursive: true });
  fs.writeFileSync(
    path.join(books, '配电室安全管理规定.md'),
    '# 配电室安全管理规定\n\n## 第一章 总则\n\n第一条 为了加强配电室安全管理，制定本规定。\n\n第二条 本规定适用于所有配电室。\n\n## 第二章 运行管理\n\n第三条 进入配电室巡视应当两人进行，一人监护，一人操作。\n\n第四条 配电室禁止存放易燃物品。\n\n## 第三章 罚则\n\n第五条 违反本规定第三条单人巡视的，给予警告。\n',
  );
  fs.writeFileSync(path.join(books, '子目录', '充电桩使用办法.md'), '# 充电桩使用办法\n\n第一条 充电结束后应当在三十分钟内挪车。\n\n第二条 充电桩故障应当拨打物业电话报修。\n\n第三条 超时占用车位的，每小时收取占位费十元。\n');
  fs.writeFileSync(path.join(books, '说明.pdf'), 'not a document');
  try {
    await page.goto('/');
    await openScreen(page, '文集问答');
    const form = page.getByRole('region', { name: '导入文集' });
    await form.getByTestId('collection-folder-input').setInputFiles(books);
    const entry = page.getByRole('region', { name: '文集列表' }).getByRole('button', { name: /^安全规定/ });
    await expect(entry).toContainText('2 篇文档', { timeout: 30_000 });
    await expect(entry).toContainText('法规条款');
    await expect(entry).toHaveAttribute('aria-pressed', 'true');
    const chat = page.getByRole('region', { name: '问答' });
    const q = chat.getByRole('textbox', { name: '问题' });
    await q.fill('进入配电室巡视可以一个人去吗');
    await q.press('Enter');
    const answers = chat.getByRole('article', { name: '回答' });
    await expect(answers.last()).toContainText('第三条');
    await expect(answers.last().getByRole('group', { name: '出处' })).toContainText('《配电室安全管理规定》第三条');
    await chat.getByRole('group', { name: '继续追问' }).getByRole('button', { name: '罚则呢？' }).click();
    await expect(answers).toHaveCount(2);
    await expect(answers.last().getByRole('group', { name: '出处' })).toContainText('第五条');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('collections: a citation opens the reader at the article page (library statute) or the collection document at the section', async ({ page, request, shell }) => {
  const fs = await import('node:fs');
  const { FIXTURE_MD, ensureFixtureRegulation, invoke } = await import('./helpers');
  // the same statute is in the regulation library and in the collection; the second one only in the collection
  const regId = await ensureFixtureRegulation(request);
  // a folder typed into the browser shell must lie under its data dir (paths are confined, docs/security.md)
  const dir = fs.mkdtempSync(path.join(shell.dataDir, 'e2e-cite-'));
  fs.copyFileSync(FIXTURE_MD, path.join(dir, path.basename(FIXTURE_MD)));
  fs.writeFileSync(path.join(dir, '充电桩使用办法.md'), '# 充电桩使用办法\n\n第一条 充电结束后应当在三十分钟内挪车。\n\n第二条 充电桩故障应当拨打物业电话报修。\n\n第三条 超时占用车位的，每小时收取占位费十元。\n');
  try {
    const want = await invoke<{ resolved: boolean; page_num: number | null }>(request, 'regulations.resolve', { reg_id: regId, reference: '第五条' });
    expect(want.resolved).toBe(true);
    await page.goto('/');
    await openScreen(page, '文集问答');
    const form = page.getByRole('region', { name: '导入文集' });
    await form.getByRole('textbox', { name: '文件夹路径' }).fill(dir);
    await form.getByRole('textbox', { name: '文集名称' }).fill('站内规程');
    await form.getByRole('button', { name: '导入', exact: true }).click();
    const entry = page.getByRole('region', { name: '文集列表' }).getByRole('button', { name: /^站内规程/ });
    await expect(entry).toContainText('2 篇文档', { timeout: 30_000 });
    await entry.click();

    const chat = page.getByRole('region', { name: '问答' });
    const q = chat.getByRole('textbox', { name: '问题' });
    const answers = chat.getByRole('article', { name: '回答' });
    await q.fill('倒闸操作可以一个人执行吗');
    await q.press('Enter');
    const cite = answers.last().getByRole('group', { name: '出处' }).getByRole('button', { name: /第五条/ });
    await expect(cite).toContainText(`第 ${want.page_num} 页`);
    await cite.click();
    await expect(page).toHaveURL(new RegExp(`#/reader/${encodeURIComponent(regId)}\\?page=${want.page_num}`));
    await expect(page.getByRole('textbox', { name: '页码' })).toHaveValue(String(want.page_num));
    await expect(page.getByRole('region', { name: `第 ${want.page_num} 页` })).toContainText('倒闸操作应由两人执行');

    // back to the conversation; a statute that is not in the library opens in the document viewer
    await page.goBack();
    await expect(answers).toHaveCount(1);
    await q.fill('充电桩故障了怎么报修');
    await q.press('Enter');
    await expect(answers).toHaveCount(2);
    await answers.last().getByRole('group', { name: '出处' }).getByRole('button', { name: /充电桩使用办法》第二条/ }).click();
    const viewer = page.getByRole('article', { name: '文档内容' });
    const cited = viewer.locator('[aria-current="location"]');
    await expect(cited).toHaveAccessibleName('第二条');
    await expect(cited).toContainText('拨打物业电话报修');
    await expect(cited).toBeInViewport();
    await expect(viewer.getByRole('region', { name: '第三条' })).toBeVisible();
    await page.getByRole('button', { name: '← 返回问答' }).click();
    await expect(answers).toHaveCount(2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
