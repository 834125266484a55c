import { expect, test } from './shell';
import path from 'node:path';
import { FIXTURE_DIR, openScreen, screenshot } from './helpers';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('devices: clarification answered by clicking, then 把它关了 resolves the reference; YAML copies', async ({ page }) => {
  await page.goto('/');
  await openScreen(page, '设备上下文');
  await expect(page.getByRole('tab', { name: /设备列表/ })).toBeVisible();

  const input = page.getByRole('textbox', { name: '指令' });
  await input.fill('打开台灯');
  await input.press('Enter');
  const first = page.getByRole('group', { name: '「打开台灯」的检索结果' });
  const clarify = first.getByRole('group', { name: '澄清' });
  // the engine asks a question and offers the ambiguous devices as options (wording is the engine's)
  await expect(clarify).toContainText(/台灯.*[？?]/);
  await expect(clarify.getByRole('button', { name: /书房台灯/ })).toBeVisible();
  expect(await clarify.getByRole('button').count()).toBeGreaterThan(1);
  await clarify.getByRole('button', { name: /书房台灯/ }).click();

  const answer = page.getByRole('group', { name: '「书房台灯」的检索结果' });
  await expect(answer.getByLabel('选中的设备')).toContainText('书房台灯');
  await expect(page.getByLabel('上一轮提到的设备')).toContainText('书房台灯');

  await input.fill('把它关了');
  await input.press('Enter');
  const ref = page.getByRole('group', { name: '「把它关了」的检索结果' });
  await expect(ref).toContainText('关闭');
  await expect(ref).toContainText('指代');
  await expect(ref.getByLabel('选中的设备')).toContainText('书房台灯');
  await expect(ref.getByRole('table', { name: '候选设备' })).toContainText('书房台灯');

  const yaml = page.getByRole('region', { name: '注入的 YAML' });
  // in words first; the YAML (the home file's own keys and ids) one click away
  await expect(yaml.getByLabel('注入内容摘要')).toContainText('1 个设备');
  await expect(yaml.getByLabel('YAML 内容')).toHaveCount(0);
  await yaml.getByRole('button', { name: '显示 YAML' }).click();
  await expect(yaml.getByLabel('YAML 内容')).toContainText('st-desk-lamp');
  await yaml.getByRole('button', { name: '复制 YAML' }).click();
  await expect(page.getByRole('status').filter({ hasText: '已复制 YAML' })).toBeVisible();
  const copied = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(copied).toContain('id: st-desk-lamp');
  expect(copied).toBe(await yaml.getByLabel('YAML 内容').innerText());
  await screenshot(page, 'devices');

  // the conversation survives a trip to another screen
  await openScreen(page, '规程库');
  await openScreen(page, '设备上下文');
  await expect(page.getByRole('group', { name: '「把它关了」的检索结果' })).toBeVisible();
  await expect(page.getByLabel('上一轮提到的设备')).toContainText('书房台灯');

  // reset clears the conversation state
  await page.getByRole('region', { name: '对话状态' }).getByRole('button', { name: '重置对话' }).click();
  await expect(page.getByRole('log', { name: '对话记录' })).toContainText('输入一句话试试');
});

test('devices: table filters and the naming lint shows the demo home planted issues', async ({ page }) => {
  await page.goto('/#/devices');
  await page.getByRole('tab', { name: /设备列表/ }).click();
  const table = page.getByRole('table', { name: '设备' });
  await page.getByRole('combobox', { name: '按房间筛选' }).selectOption('书房');
  await expect(table).toContainText('书房台灯');
  await expect(table).not.toContainText('卧室台灯');
  await page.getByRole('combobox', { name: '按类型筛选' }).selectOption('light');
  await expect(table).not.toContainText('小叮当');

  await page.getByRole('tab', { name: '命名检查' }).click();
  const lint = page.getByRole('region', { name: '命名检查' });
  await expect(lint.getByRole('listitem', { name: /读音相同：.*小丁当.*小叮当|读音相同：.*小叮当.*小丁当/ })).toBeVisible();
  await expect(lint.getByRole('listitem', { name: /名称像指令/ })).toContainText('忽略之前的指令');
  await expect(lint.getByRole('listitem', { name: /同房间重名/ })).toBeVisible();
  await expect(lint.getByRole('listitem', { name: /缺少房间/ })).toBeVisible();
  await screenshot(page, 'devices-lint');
});

test('devices: importing a Home Assistant export switches the home; a broken file is refused in Chinese', async ({ page }) => {
  await page.goto('/#/devices');
  await expect(page.getByRole('tab', { name: /设备列表/ })).toBeVisible();

  await page.getByLabel('选择设备文件').setInputFiles(path.join(FIXTURE_DIR, 'broken-home.json'));
  await expect(page.getByRole('alert')).toContainText(/不是有效的 JSON/);

  await page.getByLabel('选择设备文件').setInputFiles(path.join(FIXTURE_DIR, 'ha-states.json'));
  await expect(page.getByRole('heading', { name: '设备上下文' }).locator('..')).toContainText('Home Assistant 导出 · 4 个设备');
  await page.getByRole('tab', { name: /设备列表/ }).click();
  await expect(page.getByRole('table', { name: '设备' })).toContainText('书桌台灯');

  await page.getByRole('tab', { name: '对话检索' }).click();
  const input = page.getByRole('textbox', { name: '指令' });
  await input.fill('打开厨房吸顶灯');
  await input.press('Enter');
  await expect(page.getByRole('group', { name: '「打开厨房吸顶灯」的检索结果' }).getByLabel('选中的设备')).toContainText('厨房吸顶灯');
  // each test has its own browser context: the toggle starts closed
  await page.getByRole('region', { name: '注入的 YAML' }).getByRole('button', { name: '显示 YAML' }).click();
  await expect(page.getByRole('region', { name: '注入的 YAML' }).getByLabel('YAML 内容')).toContainText('light.kitchen_ceiling');
  await screenshot(page, 'devices-imported');
});

test('devices: the preview says the command in words — value, condition, group coverage — and shows no internal codes', async ({ page }) => {
  await page.goto('/#/devices');
  const input = page.getByRole('textbox', { name: '指令' });
  const CODES = /UNKNOWN|LOW_EVIDENCE|_hit\b|command_match|last-mentioned|group_covers/;

  await input.fill('把客厅空调调到26度');
  await input.press('Enter');
  const set = page.getByRole('group', { name: '「把客厅空调调到26度」的检索结果' });
  const words = set.getByLabel('命令解读');
  await expect(words).toContainText('调温度');
  await expect(words).toContainText('26℃');
  await expect(words).toContainText('在设备允许范围内');
  await expect(set.getByLabel('选中的设备')).toContainText('客厅空调');

  await input.fill('温度高于28度就打开卧室空调');
  await input.press('Enter');
  const cond = page.getByRole('group', { name: '「温度高于28度就打开卧室空调」的检索结果' });
  await expect(cond.getByLabel('命令解读')).toContainText('温度高于28度');

  await input.fill('打开所有灯');
  await input.press('Enter');
  const all = page.getByRole('group', { name: '「打开所有灯」的检索结果' });
  await expect(all.getByLabel('选中的设备')).toContainText(/由「.+」覆盖/);
  await expect(all.getByRole('navigation', { name: '选中设备分页' })).toBeVisible();

  // the scope words follow what was selected (a group of several lights is not "一个"), a delay is not 立即执行
  await input.fill('打开客厅的灯');
  await input.press('Enter');
  const room = page.getByRole('group', { name: '「打开客厅的灯」的检索结果' });
  await expect(room.getByLabel('命令解读')).toContainText(/\d+ 个（该范围内符合的全部设备）/);
  await input.fill('十分钟后关闭书房台灯');
  await input.press('Enter');
  const later = page.getByRole('group', { name: '「十分钟后关闭书房台灯」的检索结果' });
  await expect(later.getByLabel('命令解读')).toContainText('10分钟后');
  await expect(later.getByLabel('命令解读')).not.toContainText('立即执行');

  // JSON only behind the toggle
  await expect(page.getByLabel('命令与中间表示 JSON')).toHaveCount(0);
  const log = page.getByRole('log', { name: '对话记录' });
  expect(await log.innerText()).not.toMatch(CODES);
  await all.getByRole('button', { name: '查看解析数据' }).click();
  await expect(all.getByLabel('命令与中间表示 JSON')).toContainText('"a"');
  await screenshot(page, 'devices-preview');
});

test('devices: after each command the summary stays in view at 1024×700 — the latest reply from its head, the YAML summary beside it', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto('/');
  await openScreen(page, '设备上下文');
  const input = page.getByRole('textbox', { name: '指令' });
  const yamlSummary = page.getByRole('region', { name: '注入的 YAML' }).getByLabel('注入内容摘要');
  // long replies (every light of the demo home, then every device but the bedroom's) and a short one after them
  for (const said of ['打开所有的灯', '关闭除卧室以外的所有设备', '打开书房台灯']) {
    await input.fill(said);
    await input.press('Enter');
    const reply = page.getByRole('group', { name: `「${said}」的检索结果` });
    const head = reply.locator('.result-head').first();
    await expect(head).toBeVisible();
    await expect(head).toBeInViewport();
    await expect(yamlSummary).toBeInViewport();
    // the page itself never scrolls away from the screen's top
    expect(await page.evaluate('document.scrollingElement ? document.scrollingElement.scrollTop : 0')).toBe(0);
  }
  await screenshot(page, 'devices-summary-in-view');
});
