import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
import { canonical } from '../../../src/core/devices/canonical';
import { isQuestion } from '../../../src/core/devices/grammar';
import { parseRules } from '../../../src/core/devices/parser';
import { retrieve } from '../../../src/core/devices/retrieve';
import { emptyState, type Home } from '../../../src/core/devices/types';

// Mechanisms found by the round-5 probe (eval/fixtures/devices-wild/duplex.probe-cases.txt):
// Cantonese 住 as the durative 着, X不X and cover-verb state questions, 开 … 锁 as unlocking,
// roll-up garage doors and sprinklers by their everyday words. Real jieba, real homes.
const fixtures = path.resolve(__dirname, '../../../eval/fixtures');
const duplex = loadHomeFile(path.join(fixtures, 'devices-wild/duplex.json')).home;
const mihome = loadHomeFile(path.join(fixtures, 'devices-real/mihome.json')).home;

async function run(text: string, home: Home = duplex) {
  return retrieve(text, home, emptyState());
}
const ids = (rs: Awaited<ReturnType<typeof run>>) => [...new Set(rs.flatMap((r) => r.selected.map((s) => s.id)))].sort();
const actions = (rs: Awaited<ReturnType<typeof run>>) => rs.map((r) => r.command.a);

describe('Cantonese 住 after a state verb is 着', () => {
  it('reads 开住 / 闩住 as a state, not a command', () => {
    expect(canonical('書房燈開住')).toContain('开着');
    expect(canonical('後門閂住')).toContain('关着');
    expect(isQuestion(canonical('主人房燈係咪開住'))).toBe(true);
    expect(isQuestion(canonical('客廳風扇閂住未'))).toBe(true);
  });

  it('有冇…開住 asks about every light, 係咪開住 about one', async () => {
    const any = await run('二樓有冇燈開住');
    expect(actions(any)).toContain('查询');
    expect(ids(any)).toEqual(['light.bathroom', 'light.kids', 'light.master', 'light.master_bedside', 'light.office']);
    const one = await run('餐廳燈係咪開住呀');
    expect(actions(one)).toContain('查询');
    expect(ids(one)).toEqual(['light.dining']);
  });

  it('a plain command keeps its verb (住 only follows a state verb)', async () => {
    expect(actions(await run('開餐廳燈'))).toEqual(['打开']);
  });
});

describe('state questions without 吗 verbs of switches', () => {
  it('X不X of a reading (高不高 / 低不低) asks it', async () => {
    const rs = await run('主卧湿度低不低');
    expect(actions(rs)).toContain('查询');
    expect(ids(rs)).toEqual(['sensor.master_climate']);
  });

  it('a cover asked with its own verb (拉上了吗 / 拉开了没 / 降下来没有) is a question', async () => {
    const rs = await run('书房卷帘拉开了没');
    expect(actions(rs)).toContain('查询');
    expect(ids(rs)).toEqual(['cover.office_shade']);
    expect(actions(await run('把书房卷帘拉开'))).toEqual(['打开']);
    // 降下 / 升起 verbs of a blind asked about the same way
    const lowered = await run('主卧百叶窗降下来没有');
    expect(actions(lowered)).toContain('查询');
    expect(ids(lowered)).toEqual(['cover.master_blinds']);
    expect(actions(await run('主卧百叶窗降下来'))).toEqual(['降下']);
  });
});

describe('开 before a lock name opens the lock', () => {
  it('打开/开一下 … 锁 unlocks, 锁 alone still locks', async () => {
    for (const text of ['打开后门锁', '开一下后门的锁']) {
      const rs = await run(text);
      expect(actions(rs), text).toEqual(['解锁']);
      expect(ids(rs)).toEqual(['lock.back']);
    }
    expect(actions(await run('锁后门'))).toEqual(['锁上']);
    expect(actions(await run('后门锁了没'))).toEqual(['查询']);
  });
});

describe('everyday words of a garage door and a sprinkler', () => {
  it('卷帘门 / 鐵捲門 is the garage door, not the 卷帘 blind inside the word', async () => {
    expect(ids(await run('关上卷帘门'))).toEqual(['cover.garage_door']);
    expect(ids(await run('車庫鐵捲門關起來'))).toEqual(['cover.garage_door']);
    // the blind is still the blind
    expect(ids(await run('书房卷帘打开'))).toEqual(['cover.office_shade']);
  });

  it('a device named 车库卷帘门 is a garage door', async () => {
    const { home } = normalizeHome({
      name: 't',
      rooms: ['车库', '书房'],
      devices: [
        { id: 'g', name: '车库卷帘门', room: '车库', type: 'cover', commands: [{ id: 'open_cover', description: 'Open' }, { id: 'close_cover', description: 'Close' }] },
        { id: 'b', name: '书房卷帘', room: '书房', type: 'cover', commands: [{ id: 'open_cover', description: 'Open' }, { id: 'close_cover', description: 'Close' }] },
      ],
    });
    // 门 said plainly is a door kind and 窗帘 a blind: each finds only its own device
    expect(ids(await run('把门关上', home))).toEqual(['g']);
    expect(ids(await run('把所有窗帘关上', home))).toEqual(['b']);
  });

  it('洒水 / 灑水 names the valve that waters', async () => {
    const rs = await run('花园洒水打开');
    expect(ids(rs)).toEqual(['valve.garden']);
    expect(actions(rs)).toEqual(['打开']);
  });

  it('a kind the home has none of still asks with real options', async () => {
    const rs = await run('把卷帘门关上', mihome);
    expect(ids(rs)).toEqual([]);
    expect(rs[0].clarification!.options.length).toBeGreaterThan(0);
  });
});

describe('a room said that holds nothing fitting', () => {
  it('asks before acting on a device elsewhere, and the question names the room', async () => {
    // the 米家 home has no garage door: the only door-like device is the entrance lock
    const [r] = await run('把车库门关起来', mihome);
    expect(r.selected).toEqual([]);
    expect(r.meta.scope_fallback).not.toBeNull();
    expect(r.clarification?.question).toMatch(/^车库没有找到/);
    expect(r.clarification?.options.map((o) => o.id)).toContain('door.lock');
  });

  it('still acts at once when the room holds what was asked', async () => {
    const [r] = await run('把玄关的门锁锁上', mihome);
    expect(r.selected.map((s) => s.id)).toEqual(['door.lock']);
    expect(r.clarification).toBeNull();
  });
});

describe('questions over a set, missing places, appliances that answer for themselves', () => {
  const demo = loadHomeFile(path.resolve(__dirname, '../../../resources/homes/demo-home.json')).home;
  const noFloors: Home = { ...duplex, floors: [] };

  it('哪些/几盏 questions list every member, never the group that hides their states', async () => {
    const rs = await run('家里有几盏灯开着', demo);
    expect(actions(rs)).toEqual(['查询']);
    expect(rs[0].meta.groups_collapsed).toEqual([]);
    expect(ids(rs).length).toBeGreaterThan(10);
    expect(ids(rs).every((id) => !id.startsWith('group-'))).toBe(true);
    // the command form still collapses to the group the home defines
    const off = await run('关掉家里所有的灯', demo);
    expect(off[0].meta.groups_collapsed.length).toBeGreaterThan(0);
  });

  it('a floor the home does not have asks, even under 所有 (never the whole house)', async () => {
    const rs = await run('把二楼的灯都关了', noFloors);
    expect(ids(rs)).toEqual([]);
    expect(rs[0].clarification?.question).toContain('二楼');
    // with the floor registry the same words act on that floor only
    const withFloor = await run('把二楼的灯都关了');
    expect(ids(withFloor)).toEqual(['light.bathroom', 'light.kids', 'light.master', 'light.master_bedside', 'light.office']);
  });

  it('空调现在多少度 asks the air conditioners; 客厅多少度 the room sensor', async () => {
    const ac = await run('空调现在多少度');
    expect(actions(ac)).toEqual(['查询']);
    expect(ids(ac).every((id) => id.startsWith('climate.'))).toBe(true);
    expect(ids(ac).length).toBeGreaterThan(0);
    expect(ids(await run('客厅多少度'))).toEqual(['sensor.living_temperature']);
  });
});

describe('a complaint with any degree adverb asks for the opposite change', () => {
  const demo = loadHomeFile(path.resolve(__dirname, '../../../resources/homes/demo-home.json')).home;
  const value = (rs: Awaited<ReturnType<typeof run>>) => rs[0].ir.value;

  it.each([
    ['客厅好暗', 'brightness', '+'],
    ['客厅灯有点亮', 'brightness', '-'],
    ['主卧有点热', 'temperature', '-'],
    ['主卧冷死了', 'temperature', '+'],
    ['客厅电视好吵', 'volume', '-'],
  ])('%s → %s %s', async (text, attribute, sign) => {
    const rs = await run(text);
    expect(value(rs)?.attribute).toBe(attribute);
    expect(value(rs)?.text).toBe(sign);
    expect(ids(rs).length).toBeGreaterThan(0);
  });

  it('a degree adverb before a speed word is not a complaint (我很快回来)', async () => {
    expect((await run('我很快回来'))[0].ir.value).toBeNull();
  });

  it('nothing able to do it says so instead of returning silently', async () => {
    const rs = await run('卧室好干', demo);
    expect(ids(rs)).toEqual([]);
    expect(rs[0].clarification?.question).toBe('卧室没有可以调湿度的设备。');
  });
});

describe('delays between commands, shared tails, 灭 as off', () => {
  const villa = loadHomeFile(path.resolve(__dirname, '../../../eval/fixtures/devices/villa.json')).home;

  it('玄关灯打开五分钟后关掉: now on, off after five minutes, on the same light', async () => {
    const cmds = parseRules('玄关灯打开五分钟后关掉', duplex);
    expect(cmds.map((c) => [c.a, c.d ?? null])).toEqual([
      ['打开', null],
      ['关闭', 300],
    ]);
    const rs = await run('玄关灯打开五分钟后关掉');
    expect(rs.map((r) => r.selected.map((s) => s.id))).toEqual([['light.entry'], ['light.entry']]);
    // a leading delay still delays the one command
    expect(parseRules('十分钟后关掉客厅灯', duplex).map((c) => c.d)).toEqual([600]);
  });

  it('左右床头灯 / 一二楼 name both sides', async () => {
    expect(ids(await run('关掉左右床头灯', villa))).toEqual(['v-mb-left', 'v-mb-right']);
    expect(ids(await run('关掉一二楼的灯')).length).toBe(11);
    // 26度左右 is "about", not two names
    expect(parseRules('客厅空调调到26度左右', duplex)).toHaveLength(1);
  });

  it('灭掉 switches off', async () => {
    expect(actions(await run('厨房灯灭掉'))).toEqual(['关闭']);
  });
});
