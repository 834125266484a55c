import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { canonical } from '../../../src/core/devices/canonical';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
import { retrieve } from '../../../src/core/devices/retrieve';
import { emptyState } from '../../../src/core/devices/types';

// A home written by hand or generated from another system: English names, no command lists.
const { home, warnings } = normalizeHome({
  name: 'plain',
  rooms: ['客厅', '卧室', '厨房'],
  devices: [
    { id: 'light.living_room', name: 'Living Room Light', room: '客厅', type: 'light' },
    { id: 'light.kitchen', name: 'Kitchen Light', room: '厨房', type: 'light' },
    { id: 'climate.bedroom', name: 'Bedroom AC', room: '卧室', type: 'climate' },
    { id: 'media_player.tv', name: 'Living Room TV', room: '客厅', type: 'media_player' },
    { id: 'lock.front', name: 'Front Door', room: '客厅', type: 'lock' },
  ],
});
const ids = async (text: string) => [...new Set((await retrieve(text, home, emptyState())).flatMap((r) => r.selected.map((s) => s.id)))].sort();

describe('a home without command lists', () => {
  it('gives each device its kind’s usual commands and says so', () => {
    expect(warnings.join('')).toMatch(/5 个设备没有列出可用命令/);
    const light = home.devices.find((d) => d.id === 'light.kitchen')!;
    expect(light.commands.map((c) => c.description)).toEqual(expect.arrayContaining(['打开设备', '关闭设备', '调亮度']));
    const ac = home.devices.find((d) => d.id === 'climate.bedroom')!;
    expect(ac.commands.map((c) => c.description)).toContain('调温度');
  });

  it('answers Chinese commands against English names', async () => {
    expect(await ids('关掉厨房的灯')).toEqual(['light.kitchen']);
    expect(await ids('把卧室空调调到26度')).toEqual(['climate.bedroom']);
    expect(await ids('客厅灯调到50%')).toEqual(['light.living_room']);
    expect(await ids('关掉所有的灯')).toEqual(['light.kitchen', 'light.living_room']);
    expect(await ids('把客厅电视音量调小一点')).toEqual(['media_player.tv']);
  });
});

describe('English mixed into a Chinese command', () => {
  it('reads rooms and on/off verbs', async () => {
    expect(canonical('把living room的灯打开')).toContain('客厅');
    expect(canonical('turn off the kitchen light')).toMatch(/关闭\s*厨房\s*灯/);
    expect(await ids('turn off the kitchen light')).toEqual(['light.kitchen']);
    expect(await ids('turn off all lights')).toEqual(['light.kitchen', 'light.living_room']);
    expect(await ids('Bedroom AC调到26度')).toEqual(['climate.bedroom']);
  });
});

describe('a number said right after what it is for, with no verb', () => {
  const demoFile = path.resolve(__dirname, '../../../resources/homes/demo-home.json');
  const demo = loadHomeFile(demoFile).home;
  const first = async (text: string) => (await retrieve(text, demo, emptyState()))[0];

  it('sets that kind’s main setting (空调26, 客厅灯 30, 卧室空调二十六)', async () => {
    expect((await first('卧室空调二十六')).ir.value).toMatchObject({ number: 26, attribute: 'temperature' });
    expect((await first('客厅灯 30')).command.a).toBe('调亮度');
    const both = await first('客厅空调 制冷 24');
    expect(both.ir.values?.map((v) => v.attribute)).toEqual(['temperature', 'mode']);
    expect(both.selected.map((s) => s.name)).toEqual(['客厅空调']);
  });

  it('a verb keeps its meaning and a name keeps its digits (打开筒灯1)', async () => {
    const r = await first('打开筒灯1');
    expect(r.command.a).toBe('打开');
    expect(r.ir.value).toBeNull();
  });
});

describe('a clock time is when, not what', () => {
  const demo = loadHomeFile(path.resolve(__dirname, '../../../resources/homes/demo-home.json')).home;
  const first = async (text: string) => (await retrieve(text, demo, emptyState()))[0];

  it('明天早上七点 / 晚上十点半 / 每天7:30 become a schedule on the command and the injected YAML', async () => {
    const r = await first('明天早上七点打开卧室窗帘');
    expect(r.command.a).toBe('打开');
    expect(r.ir.schedule).toMatchObject({ day: 1, time: '07:00' });
    expect(r.selected.length).toBeGreaterThan(0);
    expect((await first('晚上十点半关掉客厅灯')).ir.schedule).toMatchObject({ day: null, time: '22:30' });
    expect((await first('每天7:30打开卧室灯')).ir.schedule).toMatchObject({ time: '07:30', repeat: 'daily' });
    const { timingLabel } = await import('../../../src/core/devices/labels');
    expect(timingLabel(r.ir)).toBe('定时 明天 07:00 执行');
  });

  it('a number that is a setting is not a time (把客厅灯调到三点 has no schedule)', async () => {
    expect((await first('把客厅灯调到三点')).ir.schedule).toBeUndefined();
    expect((await first('十分钟后关掉客厅灯')).ir.schedule).toBeUndefined();
  });

  it('questions about a day stay questions, an alarm at a time is a note (明天天气怎么样, 明天几号, 明天早上七点的闹钟)', async () => {
    expect((await first('明天天气怎么样')).ir.intent).toBe('weather');
    expect((await first('明天是星期几')).ir.intent).toBe('date');
    expect((await first('明天早上七点的闹钟')).ir.intent).toBe('list');
  });

  it('a day without a time is still later (明天关灯), and 等到十点再… reads the time only', async () => {
    const { timingLabel } = await import('../../../src/core/devices/labels');
    const tomorrow = await first('明天把客厅灯关了');
    expect(tomorrow.ir.schedule).toMatchObject({ day: 1, time: null });
    expect(timingLabel(tomorrow.ir)).toBe('定时 明天 执行');
    const ten = await first('等到十点再关客厅灯');
    expect(ten.ir.schedule).toMatchObject({ time: '10:00' });
    expect(ten.ir.name_hint).toBeNull();
  });
});

describe('a TV’s input source', () => {
  it('切换到HDMI1 / 信号源换成机顶盒 switch the source of a player that can (usual commands include it)', async () => {
    const [r] = await retrieve('把客厅电视切换到HDMI1', home, emptyState());
    expect(r.command.a).toBe('切换信号源');
    expect(r.ir.value).toMatchObject({ text: 'HDMI1', attribute: 'source' });
    expect(r.selected.map((s) => s.id)).toEqual(['media_player.tv']);
    expect((await retrieve('电视信号源换成机顶盒', home, emptyState()))[0].ir.value?.text).toBe('机顶盒');
  });

  it('a source word without a switch verb is not a source (打开电脑)', async () => {
    const [r] = await retrieve('打开电脑', home, emptyState());
    expect(r.command.a).toBe('打开');
  });
});
