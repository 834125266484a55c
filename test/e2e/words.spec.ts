/**
 * The device preview says every piece of a command in words (动作 / 位置 / 设备 / 数值 / 条件 / 范围),
 * for set values, media, locks, vacuums, covers, traditional Chinese and Cantonese, and no screen of
 * the devices view shows an internal code or an English device-type key.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './shell';
import { screenshot } from './helpers';
import { DEVICE_TYPES } from '../../src/renderer/src/i18n/messages';
import { TYPE_LABELS } from '../../src/core/devices/lexicon';

/** Engine codes and the English type keys of the catalogue and the lexicon (light, airConditioner…). */
const TYPE_KEYS = [...new Set([...Object.keys(DEVICE_TYPES), ...Object.keys(TYPE_LABELS)])].filter((k) => /^[A-Za-z_]+$/.test(k));
const INTERNAL = new RegExp(
  String.raw`\bUNKNOWN\b|LOW_EVIDENCE|\w+_hit\b|command_match|group_covers|last-mentioned|exact_name|room_type_all|in_range|out_of_range|no_range|not_met|\[object Object\]|undefined|NaN|\b(?:${TYPE_KEYS.join('|')})\b`,
);

/** Utterance -> words the "命令解读" panel must show (the value and condition as typed, types in Chinese). */
const COMMANDS: { say: string; words: (string | RegExp)[] }[] = [
  { say: '把客厅空调调到26度', words: ['调温度', '客厅空调', /温度 26℃/, '在设备允许范围内'] },
  { say: '客厅音箱播放周杰伦的歌', words: ['播放', '音箱', '播放内容 周杰伦'] },
  { say: '把客厅空调调到制热26度', words: ['调温度', '客厅空调', /温度 26℃，模式 制热/] },
  { say: '温度高于28度就打开卧室空调', words: ['打开', '卧室空调', '温度高于28度', /当前未满足|当前已满足|暂无读数/] },
  { say: '湿度低于40%就打开加湿器', words: ['打开', '加湿器', '湿度低于40%'] },
  { say: '把音箱音量调到30', words: ['调音量', '音箱', '音量 30'] },
  { say: '客厅音箱下一首', words: ['下一首', '客厅', '音箱'] },
  { say: '锁上入户门', words: ['锁上', '入户'] },
  { say: '让扫地机开始打扫', words: ['开始清扫', '扫地机'] },
  { say: '扫地机回去充电', words: ['回充', '扫地机'] },
  { say: '把卧室窗帘打开一半', words: ['调位置', '卧室', '窗帘', '开合位置 一半（50%）'] },
  { say: '客厅窗帘开到百分之四十', words: ['调位置', '客厅', '窗帘', '开合位置 40%'] },
  { say: '把客廳冷氣調到二十六度', words: ['调温度', '客厅空调', '温度 26℃'] },
  { say: '閂咗客廳冷氣', words: ['关闭', '客厅空调'] },
  { say: '開晒啲燈', words: ['打开', '灯', '全部符合的设备'] },
  { say: '把客厅灯调到最亮', words: ['调亮度', '客厅', '亮度 最亮（100%）'] },
  { say: '卧室灯调暗一点', words: ['调亮度', '卧室灯', '亮度 调低'] },
  { say: '把灯光调成红色', words: ['调颜色', '颜色 红色'] },
  { say: '风扇风速调到3档', words: ['调风速', '风扇', '风速 3档'] },
  { say: '打开两个卧室的灯', words: ['打开', '卧室', '2 个'] },
  { say: '关闭除卧室以外的灯', words: ['关闭', '除「卧室」以外'] },
];

async function noCodes(page: Page, what: string): Promise<void> {
  const text = await page.locator('main').innerText();
  const m = INTERNAL.exec(text);
  expect(m?.[0] ?? null, `${what}: internal code on screen near «${m ? text.slice(Math.max(0, m.index - 40), m.index + 40) : ''}»`).toBeNull();
}

test('devices: every piece of many commands is shown in words, with no codes or English type keys', async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#/devices');
  const input = page.getByRole('textbox', { name: '指令' });
  const reset = page.getByRole('region', { name: '对话状态' }).getByRole('button', { name: '重置对话' });
  for (const { say, words } of COMMANDS) {
    // each command on its own (no reference to an earlier turn)
    if (await reset.isEnabled()) await reset.click();
    await input.fill(say);
    await input.press('Enter');
    const result = page.getByRole('group', { name: `「${say}」的检索结果` });
    const panel = result.getByLabel('命令解读').first();
    await expect(panel, say).toBeVisible();
    for (const w of words) await expect(panel, `${say} → ${String(w)}`).toContainText(w);
    // every slot has words (no empty cells)
    for (const dd of await panel.locator('dd').allInnerTexts()) expect(dd.trim(), say).not.toBe('');
    await noCodes(page, say);
  }
  await screenshot(page, 'devices-words');

  await page.getByRole('tab', { name: /设备列表/ }).click();
  await expect(page.getByRole('table', { name: '设备' })).toBeVisible();
  await noCodes(page, 'device list');
  // ids on request only
  await page.getByLabel('显示设备 ID').check();
  await expect(page.getByRole('table', { name: '设备' })).toContainText('lr-ac');

  await page.getByRole('tab', { name: '命名检查' }).click();
  await expect(page.getByRole('region', { name: '命名检查' })).toBeVisible();
  await noCodes(page, 'naming lint');
  expect(errors).toEqual([]);
});
