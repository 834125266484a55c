import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonical } from '../../../src/core/devices/canonical';
import { capabilityScore } from '../../../src/core/devices/capability';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
import { injectStage } from '../../../src/core/devices/stages/inject';
import { parseRules } from '../../../src/core/devices/parser';
import { retrieve } from '../../../src/core/devices/retrieve';
import { emptyState, type Home } from '../../../src/core/devices/types';

// Real homes of our own (eval fixtures): a flat with English HA-style types and descriptions,
// a villa with Chinese types, groups and scenes.
const fixtures = path.resolve(__dirname, '../../../eval/fixtures/devices');
const flat = loadHomeFile(path.join(fixtures, 'apartment.json')).home;
const villa = loadHomeFile(path.join(fixtures, 'villa.json')).home;
const demo = loadHomeFile(path.resolve(__dirname, '../../../resources/homes/demo-home.json')).home;

async function run(text: string, home: Home) {
  return retrieve(text, home, emptyState());
}
const ids = (rs: Awaited<ReturnType<typeof run>>) => [...new Set(rs.flatMap((r) => r.selected.map((s) => s.id)))].sort();

describe('canonical form (traditional, Cantonese, Taiwan, English)', () => {
  it.each([
    ['閂咗客廳冷氣', '关掉客厅空调'],
    ['熄晒啲燈', '关掉所有的灯'],
    ['將主臥冷氣較到24度', '把主卧空调调到24度'],
    ['開主人房冷氣', '开主卧空调'],
    ['把電視聲音轉小一點', '把电视声音调小一点'],
    ['TV音量调到30', '电视音量调到30'],
    ['让Roomba回去充电', '让扫地机回去充电'],
  ])('%s -> %s', (from, to) => expect(canonical(from)).toBe(to));

  it('keeps room words that contain 厅', () => {
    expect(canonical('打开餐厅吊灯')).toBe('打开餐厅吊灯');
    expect(canonical('開廳燈')).toBe('开客厅灯');
  });
});

describe('slot grammar on real homes', () => {
  it('carries the value of a set command end to end (contract: ir.value.number)', async () => {
    const [r] = await run('把客厅空调调到26度', flat);
    expect(r.selected.map((s) => s.id)).toEqual(['climate.living']);
    expect(r.ir.value).toMatchObject({ number: 26, unit: '℃', attribute: 'temperature' });
    expect(r.meta.value_check?.[0]).toMatchObject({ status: 'in_range', minimum: 16, maximum: 30 });
    const out = await run('把客厅空调调到40度', flat);
    expect(out[0].meta.value_check?.[0].status).toBe('out_of_range');
  });

  it.each([
    ['客厅主灯亮度调到百分之五十', 'light.living_main', 50],
    ['把主卧窗帘开到一半', 'cover.master', 50],
    ['把客厅主灯调到最亮', 'light.living_main', 100],
    ['客厅空调温度调到最低', 'climate.living', 16],
    ['餐厅吊扇调到2档', 'fan.dining_fan', 2],
  ])('%s', async (text, id, n) => {
    const rs = await run(text, flat);
    expect(ids(rs)).toEqual([id]);
    expect(rs[0].ir.value?.number).toBe(n);
  });

  it('reads relative changes with a default step', async () => {
    const [r] = await run('客厅主灯调亮一点', flat);
    expect(r.ir.value).toMatchObject({ relative: 'up', number: 10, attribute: 'brightness' });
    const [t] = await run('主卧空调调低两度', flat);
    expect(t.ir.value).toMatchObject({ relative: 'down', number: 2, attribute: 'temperature' });
  });

  it('keeps a condition said without 如果 and does not take its number as the value', async () => {
    const [r] = await run('温度高于28度就打开卧室空调', demo);
    expect(r.ir.conditions[0]).toMatchObject({ sensor: 'temperature', op: '>', value: 28 });
    expect(r.ir.value).toBeNull();
    expect(r.selected.length).toBeGreaterThan(0);
  });

  it('excludes the device an exception names from the same command (除了 after a comma)', async () => {
    const rs = await run('关掉主卧所有的灯，除了床头灯', flat);
    expect(rs).toHaveLength(1);
    expect(ids(rs)).toEqual(['light.master_ceiling']);
    expect(rs[0].meta.excluded_ids).toContain('light.bedside');
    expect(ids(await run('除了客厅，其他房间的灯都关掉', villa))).not.toContain('v-lr-crystal');
  });

  it('关掉卧室所有的灯，除了床头灯 on the demo home: one command, bedside lamps excluded, no stray name', async () => {
    const rs = await run('关掉卧室所有的灯，除了床头灯', demo);
    expect(rs).toHaveLength(1);
    expect(rs[0].command.n).toBeNull();
    const got = ids(rs);
    expect(got).toContain('br-ceiling');
    expect(got).not.toContain('br-bedside-l');
    expect(got).not.toContain('br-bedside-r');
  });

  it('parses the name hints the issue reported as broken', () => {
    expect(parseRules('把书房温度设置为20度', demo)[0]).toMatchObject({ a: '调温度', s: '书房', n: null, v: '20℃' });
    expect(parseRules('让扫地机开始打扫', demo)[0]).toMatchObject({ a: '开始清扫', t: 'robotVacuum', n: null });
  });

  it('media, lock, vacuum and appliance verbs reach devices whose commands are in English', async () => {
    expect(ids(await run('暂停书房的speaker', flat))).toEqual(['media_player.xiaoai']);
    expect(ids(await run('小爱音箱下一首', flat))).toEqual(['media_player.xiaoai']);
    expect(ids(await run('打开门锁', flat))).toEqual(['lock.front_door']);
    expect((await run('打开门锁', flat))[0].command.a).toBe('解锁');
    expect(ids(await run('让Roomba回去充电', flat))).toEqual(['vacuum.roborock']);
    expect(ids(await run('启动洗衣机', flat))).toEqual(['switch.washer']);
  });

  it('answers state questions with read-only targets', async () => {
    const [r] = await run('客厅湿度是多少', flat);
    expect(r.command.a).toBe('查询');
    expect(r.selected.map((s) => s.id)).toEqual(['sensor.living_climate']);
    expect(ids(await run('客厅空调开着吗', flat))).toEqual(['climate.living']);
  });

  it('finds misheard names by pinyin, exact and with ASR confusions', async () => {
    const [r] = await run('打开小皇', demo);
    expect(r.selected).toHaveLength(1);
    expect(r.selected[0].reasons).toContain('pinyin_hit');
    expect(ids(await run('关掉小星心', villa))).toEqual(['v-kid-star']);
  });

  it('an unknown room falls back and the question lists real options (seed 000)', async () => {
    const [r] = await run('打开阁楼的灯', demo);
    expect(r.selected).toEqual([]);
    expect(r.clarification?.options.length).toBeGreaterThan(0);
  });

  it('Cantonese and Taiwan usage select like Mandarin', async () => {
    expect(ids(await run('閂咗客廳冷氣', demo))).toEqual(ids(await run('关闭客厅空调', demo)));
    expect(ids(await run('熄咗主臥啲燈', flat))).toEqual(['light.bedside', 'light.master_ceiling']);
    expect(ids(await run('空氣清淨機關掉', flat))).toEqual(['fan.purifier']);
  });

  it('the YAML header restates value and condition in words', async () => {
    const rs = await run('客厅温度高于27度的话把空调调到24度', flat);
    const yaml = injectStage(flat, rs);
    expect(yaml).toMatch(/# 命令 1：调温度 → 客厅空调；数值 24℃（在范围内 16–30°C）；条件 客厅温度高于27℃/);
  });
});

describe('capability with commands we cannot read', () => {
  it('neither keeps nor kills a device whose command descriptions are unknown words', () => {
    const { home } = normalizeHome({ devices: [{ id: 'x', name: '神秘盒子', room: '客厅', type: 'thing', commands: [{ id: 'a1', description: 'zorp' }] }] });
    expect(capabilityScore(home.devices[0], '打开')).toBeGreaterThanOrEqual(0.5);
    const { home: h2 } = normalizeHome({ devices: [{ id: 'y', name: '灯', room: '客厅', type: 'light', commands: [{ id: 'off', description: 'Turn off' }] }] });
    expect(capabilityScore(h2.devices[0], '打开')).toBe(0);
  });

  it('infers the type from the name when the type string is generic or missing', () => {
    const { home } = normalizeHome({
      devices: [
        { id: 'a', name: '玄关灯', room: '玄关', type: 'switch', commands: [] },
        { id: 'b', name: '书房台灯', room: '书房', commands: [] },
        { id: 'c', name: '小爱音箱', room: '书房', type: 'media_player', commands: [] },
        { id: 'd', name: '客廳冷氣', room: '客廳', type: '', commands: [] },
      ],
    });
    expect(home.devices.map((d) => d.category)).toEqual(['light', 'light', 'speaker', 'airConditioner']);
  });
});
