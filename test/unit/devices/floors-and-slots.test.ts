import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
import { floorLevel, indexHome } from '../../../src/core/devices/index';
import { parseRules, commandToIR } from '../../../src/core/devices/parser';
import { retrieve } from '../../../src/core/devices/retrieve';
import { injectStage } from '../../../src/core/devices/stages/inject';
import { valueSlot } from '../../../src/core/devices/grammar';
import { emptyState, type Home } from '../../../src/core/devices/types';

// A two-floor HA-style home of our own (eval/fixtures/devices-wild/duplex.json): names carry the room,
// floors list their rooms.
const duplex = loadHomeFile(path.resolve(__dirname, '../../../eval/fixtures/devices-wild/duplex.json')).home;
const flat = loadHomeFile(path.resolve(__dirname, '../../../eval/fixtures/devices/apartment.json')).home;

const ids = async (text: string, home: Home = duplex) =>
  [...new Set((await retrieve(text, home, emptyState())).flatMap((r) => r.selected.map((s) => s.id)))].sort();
const lightsOn = (floor: string) =>
  duplex.devices.filter((d) => d.category === 'light' && duplex.floors!.find((f) => f.name === floor)!.rooms.includes(d.room!)).map((d) => d.id).sort();

describe('floors', () => {
  it('reads a floor level from its name', () => {
    expect([floorLevel('二楼'), floorLevel('3F'), floorLevel('首层'), floorLevel('负一楼'), floorLevel('地下室'), floorLevel('客厅')]).toEqual([2, 3, 1, -1, -1, null]);
  });

  it('indexes the ways a floor is said (二楼 / 2楼 / 二层 / 楼上)', () => {
    const index = indexHome(duplex);
    for (const w of ['二楼', '2楼', '二层', '楼上']) expect(index.floorRooms.get(w)).toContain('主卧');
    expect(index.floorRooms.get('楼下')).toContain('客厅');
    expect(index.floorRooms.get('楼下')).not.toContain('主卧');
  });

  it.each([
    ['关掉一楼所有的灯', '一楼'],
    ['打开二楼的灯', '二楼'],
    ['把楼上的灯都关了', '二楼'],
    ['楼下的灯全部打开', '一楼'],
    ['閂晒樓上啲燈', '二楼'],
  ])('%s acts on every light of %s', async (say, floor) => {
    expect(await ids(say)).toEqual(lightsOn(floor));
  });

  it('a floor scopes other kinds too, and exceptions by floor', async () => {
    expect(await ids('关闭二楼的窗帘')).toEqual(['cover.master_blinds', 'cover.office_shade']);
    const all = duplex.devices.filter((d) => d.category === 'light').map((d) => d.id);
    expect(await ids('关掉除了二楼以外所有的灯')).toEqual(all.filter((id) => !lightsOn('二楼').includes(id)).sort());
  });

  it('a home without floors keeps 楼上 as an unknown room word (no floor rooms)', () => {
    expect(indexHome(flat).floorRooms.size).toBe(0);
  });

  it('imports floors from a Home Assistant floor registry', () => {
    const { home } = normalizeHome({
      floor_registry: { data: { floors: [{ floor_id: 'f1', name: '一楼', level: 1 }, { floor_id: 'f2', name: '二楼', level: 2 }] } },
      area_registry: { data: { areas: [{ area_id: 'living', name: '客厅', floor_id: 'f1' }, { area_id: 'bed', name: '卧室', floor_id: 'f2' }] } },
      entity_registry: { data: { entities: [{ entity_id: 'light.a', name: '客厅灯', area_id: 'living' }, { entity_id: 'light.b', name: '卧室灯', area_id: 'bed' }, { entity_id: 'valve.water', name: '总水阀', area_id: 'living' }] } },
    });
    expect(home.floors).toEqual([
      { name: '一楼', level: 1, rooms: ['客厅'] },
      { name: '二楼', level: 2, rooms: ['卧室'] },
    ]);
    expect(home.devices.find((d) => d.id === 'valve.water')?.category).toBe('valve');
  });
});

describe('several settings in one clause', () => {
  it('keeps the mode beside the temperature (the number leads)', () => {
    const [c] = parseRules('把客厅空调调到制热26度', duplex);
    expect(c.a).toBe('调温度');
    expect(c.v).toBe('26℃');
    expect(c.w).toEqual([{ a: '设置模式', v: '制热' }]);
    const ir = commandToIR(c);
    expect(ir.value?.number).toBe(26);
    expect(ir.values?.map((v) => [v.attribute, v.number ?? v.text])).toEqual([
      ['temperature', 26],
      ['mode', '制热'],
    ]);
  });

  it.each([
    ['主卧空调开制冷24度', 24, '制冷'],
    ['主卧空调除湿模式26度', 26, '除湿'],
    ['客厅吊灯调成暖光亮度50%', 50, '暖光'],
  ])('%s -> %s and %s', async (say, n, word) => {
    const [r] = await retrieve(say, duplex, emptyState());
    expect(r.ir.value?.number).toBe(n);
    expect(r.ir.values?.map((v) => v.text)).toContain(word);
    expect(r.selected).toHaveLength(1);
  });

  it('one setting stays one value (no values list)', () => {
    const ir = commandToIR(parseRules('把客厅空调调到26度', duplex)[0]);
    expect(ir.value?.number).toBe(26);
    expect(ir.values).toBeUndefined();
  });

  it('the YAML header names every value', async () => {
    const results = await retrieve('把客厅空调调到制热26度', duplex, emptyState());
    expect(injectStage(duplex, results)).toMatch(/数值 26℃，制热/);
  });
});

describe('value words', () => {
  it('降低百分之十 is a 10% step down (百 is not a number there)', () => {
    const v = valueSlot('亮度降低百分之十');
    expect(v?.v).toBe('-10%');
  });

  it('暖白 is a white tone (colour temperature), 暖黄色 a colour', () => {
    expect(valueSlot('调成暖白')?.attribute).toBe('colorTemp');
    expect(valueSlot('变成暖黄色')?.attribute).toBe('color');
  });
});
