import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile } from '../../../src/core/devices/home';
import { retrieve } from '../../../src/core/devices/retrieve';
import { emptyState, type Home } from '../../../src/core/devices/types';

// The issue-26 families (eval batch 6), checked on other wordings than the eval's, over the eval's
// own home (colour and plain lights, players with and without track skipping, one humidifier,
// 主卧/次卧/儿童房 each with an air conditioner, a 睡眠模式 scene beside devices with a sleep mode).
const fixtures = path.resolve(__dirname, '../../../eval/fixtures');
const family = loadHomeFile(path.join(fixtures, 'devices-batch6/family.json')).home;
const duplex = loadHomeFile(path.join(fixtures, 'devices-wild/duplex.json')).home;

async function run(text: string, home: Home = family) {
  return retrieve(text, home, emptyState());
}
const ids = (rs: Awaited<ReturnType<typeof run>>) => [...new Set(rs.flatMap((r) => r.selected.map((s) => s.id)))].sort();

describe('capability-true selection', () => {
  it('a colour goes only to the colour lights of the room, not to a light that only dims', async () => {
    expect(ids(await run('客厅灯调成橙色'))).toEqual(['lr.strip']);
  });
  it('a room-and-kind name whose device cannot do the setting is read as the room and the kind', async () => {
    expect(ids(await run('阳台灯换成红色'))).toEqual(['bc.ambient']);
  });
  it('track skipping goes only to a player with that command (the TV in the same room has none)', async () => {
    const rs = await run('客厅换一首歌');
    expect(ids(rs)).toEqual(['lr.sonos']);
    expect(rs[0].command.a).toBe('下一首');
  });
  it('a humidity goes only to the humidifier', async () => {
    expect(ids(await run('湿度调成百分之五十五'))).toEqual(['lr.humidifier']);
  });
});

describe("a device's own mode wins over a scene of the same name when the device is named", () => {
  it('by its kind', async () => {
    const rs = await run('净化器调到睡眠模式');
    expect(ids(rs)).toEqual(['lr.purifier']);
    expect(rs[0].command.a).toBe('设置模式');
    expect(rs[0].ir.value?.text).toContain('睡眠');
  });
  it('by its name, with a verb that would run a scene', async () => {
    const rs = await run('儿童房空调进入睡眠模式');
    expect(ids(rs)).toEqual(['kr.ac']);
    expect(rs[0].command.a).toBe('设置模式');
  });
  it('the scene alone is still the scene', async () => {
    expect(ids(await run('开启睡眠模式'))).toEqual(['scene.sleep']);
  });
});

describe('a plain kind over several similar rooms asks which', () => {
  it('卧室 with air conditioners in 主卧 and 次卧 asks in plain words, with options from both rooms', async () => {
    const [r] = await run('卧室空调调到25度');
    expect(r.selected).toEqual([]);
    expect(r.clarification?.question).toBe('您要调哪个房间的空调？');
    expect(new Set(r.clarification!.options.map((o) => o.room))).toEqual(new Set(['主卧', '次卧']));
  });
  it('所有卧室 means every room people sleep in, the children’s room too', async () => {
    expect(ids(await run('关掉所有卧室的空调'))).toEqual(['kr.ac', 'mb.ac', 'sb.ac']);
  });
  it('a kind only one of those rooms has is acted on', async () => {
    expect(ids(await run('卧室窗帘打开'))).toEqual(['mb.curtain']);
  });
  it('卧室 where only 主卧 is a 卧室 by name (儿童房 beside it) still acts on 主卧', async () => {
    expect(ids(await run('卧室空调开一下', duplex))).toEqual(['climate.master']);
  });
});

describe('counting and listing questions', () => {
  it('how many of a kind in a room lists them', async () => {
    const rs = await run('阳台一共有几盏灯');
    expect(rs[0].command.a).toBe('查询');
    expect(ids(rs)).toEqual(['bc.ambient', 'bc.light', 'bc.wall']);
  });
  it('what a room holds lists its devices', async () => {
    expect(ids(await run('厨房都有啥'))).toEqual(['kt.hood', 'kt.light']);
  });
});

describe('English and wake words', () => {
  it('percent and a trailing off', async () => {
    const rs = await run('书房台灯brightness调到40 percent');
    expect(ids(rs)).toEqual(['st.lamp']);
    expect(rs[0].ir.value?.number).toBe(40);
    expect((await run('餐厅light off'))[0].command.a).toBe('关闭');
  });
  it('next track on a named player', async () => {
    const rs = await run('next track on the Sonos');
    expect(ids(rs)).toEqual(['lr.sonos']);
    expect(rs[0].command.a).toBe('下一首');
  });
  it('an assistant name is not a device', async () => {
    expect(ids(await run('小度小度，关掉客厅吸顶灯'))).toEqual(['lr.ceiling']);
  });
});
