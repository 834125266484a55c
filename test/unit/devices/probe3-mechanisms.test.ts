import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile } from '../../../src/core/devices/home';
import { canonical } from '../../../src/core/devices/canonical';
import { isQuestion, valueSlot } from '../../../src/core/devices/grammar';
import { retrieve } from '../../../src/core/devices/retrieve';
import { parseNumber } from '../../../src/core/devices/values';
import { emptyState, type Home } from '../../../src/core/devices/types';

// Mechanisms found by probe batch 3 (eval/fixtures/devices-wild/*.probe3-cases.txt). Each is
// checked here on other wordings than the eval's, over the eval's real homes.
const fixtures = path.resolve(__dirname, '../../../eval/fixtures');
const duplex = loadHomeFile(path.join(fixtures, 'devices-wild/duplex.json')).home;
const villa = loadHomeFile(path.join(fixtures, 'devices/villa.json')).home;
const apartment = loadHomeFile(path.join(fixtures, 'devices/apartment.json')).home;

async function run(text: string, home: Home = duplex) {
  return retrieve(text, home, emptyState());
}
const ids = (rs: Awaited<ReturnType<typeof run>>) => [...new Set(rs.flatMap((r) => r.selected.map((s) => s.id)))].sort();
const actions = (rs: Awaited<ReturnType<typeof run>>) => rs.map((r) => r.command.a);

describe('a subtype no name carries prefers its kin, then the plain light', () => {
  it('台灯 in a bedroom with a main light and a bedside lamp is the bedside lamp', async () => {
    expect(ids(await run('关掉主卧台灯'))).toEqual(['light.master_bedside']);
  });
  it('吸顶灯 there is the main light, not the bedside lamp', async () => {
    expect(ids(await run('主卧吸顶灯调亮一点'))).toEqual(['light.master']);
  });
  it('both bedside lamps of a room stand for its 台灯, never its ceiling light', async () => {
    expect(ids(await run('打开主卧台灯', villa))).toEqual(['v-mb-left', 'v-mb-right']);
  });
});

describe('a type word shortened to its last character (总阀 for 总水阀)', () => {
  it('finds the one valve whose name holds the full word', async () => {
    const rs = await run('总阀打开');
    expect(ids(rs)).toEqual(['valve.water_main']);
    expect(rs[0].clarification).toBeNull();
  });
});

describe('a sentence broken by commas (灯，书房的，打开)', () => {
  it('the room clause narrows the kind before it, the verb clause acts on both', async () => {
    const rs = await run('窗帘，主卧的，拉上');
    expect(ids(rs)).toEqual(['cover.master_blinds']);
    expect(actions(rs)).toEqual(['关闭']);
  });
  it('a remark naming a room still sets the room of the command after it', async () => {
    expect(ids(await run('客厅有点暗，把落地灯打开'))).toEqual(['light.living_floor']);
  });
});

describe("a room said alone opens and closes a garage's own door", () => {
  it('打开车库 opens the garage door and switches the light on', async () => {
    expect(ids(await run('打开车库', villa))).toEqual(['v-gar-door', 'v-gar-light']);
  });
  it('a room closed alone still leaves its curtains', async () => {
    expect(ids(await run('关掉主卧', apartment))).not.toContain('cover.master');
  });
});

describe('numbers written the spoken way', () => {
  it('a digit after the last unit counts one place lower', () => {
    expect(parseNumber('两千七')).toBe(2700);
    expect(parseNumber('一百五')).toBe(150);
    expect(parseNumber('两千零七')).toBe(2007);
  });
  it('N度半 is half a degree more', async () => {
    const [r] = await run('客厅空调调到二十五度半');
    expect(r.ir.value?.number).toBe(25.5);
  });
  it('一刻钟 / 三刻钟 are quarters of an hour', async () => {
    expect((await run('一刻钟后关掉书房灯'))[0].ir.delay_seconds).toBe(900);
    expect((await run('来个三刻钟的倒计时'))[0].ir.timer?.seconds).toBe(2700);
    expect((await run('设个十分钟的定时'))[0].ir.timer?.seconds).toBe(600);
  });
});

describe('colours and fan levels said other ways', () => {
  it('a colour word with its own suffix, or 的 after a change verb', () => {
    expect(valueSlot('调成紫罗兰色')?.v).toBe('紫色');
    expect(valueSlot('换成绿的')?.v).toBe('绿色');
  });
  it('a fan level said bare after 风速', async () => {
    const [r] = await run('主卧空调风速调成低');
    expect(ids([r])).toEqual(['climate.master']);
    expect(r.ir.value?.attribute).toBe('fanSpeed');
    expect(r.ir.value?.text).toBe('低速');
  });
});

describe('verbs said other ways', () => {
  it('pausing what is only on or off switches it off', async () => {
    const rs = await run('主卧风扇停一下');
    expect(ids(rs)).toEqual(['fan.master']);
    expect(actions(rs)).toEqual(['关闭']);
  });
  it('a lock named …锁 and 一下 locks it', async () => {
    expect(actions(await run('把入户门锁一下', apartment))).toEqual(['锁上']);
  });
  it('a verb split by 个 and a step after 跳到', async () => {
    expect(canonical('静个音')).toBe('静音');
    const rs = await run('厨房音箱跳到下一首');
    expect(ids(rs)).toEqual(['media_player.kitchen_speaker']);
    expect(actions(rs)).toEqual(['下一首']);
  });
  it('灭了 switches off; 通电了吗 asks', async () => {
    expect(actions(await run('餐厅灯灭了吧'))).toEqual(['关闭']);
    expect(isQuestion(canonical('书房插座通电了吗'))).toBe(true);
  });
});

describe('questions and requests', () => {
  it('brightness asked of a place with no lamp named is the light sensor', async () => {
    expect(ids(await run('花园现在亮度怎么样', villa))).toEqual(['v-gd-lux']);
    expect(ids(await run('客厅灯带亮度多少', villa))).toEqual(['v-lr-strip']);
  });
  it('a polite 能…打开吗 is a request; 打开了吗 is still a question', async () => {
    expect(actions(await run('可以帮我把客厅窗帘拉开吗'))).toEqual(['打开']);
    expect(actions(await run('客厅窗帘拉开了吗'))).toEqual(['查询']);
  });
  it('why a complaint is made (看不见) is not a device name', async () => {
    const rs = await run('主卧太暗了看不见');
    expect(ids(rs).length).toBeGreaterThan(0);
    expect(ids(rs).every((id) => id.startsWith('light.'))).toBe(true);
  });
});
