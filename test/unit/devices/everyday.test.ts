import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile } from '../../../src/core/devices/home';
import { indexHome, nameAliases } from '../../../src/core/devices/index';
import { parseRules } from '../../../src/core/devices/parser';
import { retrieve } from '../../../src/core/devices/retrieve';
import { canonical } from '../../../src/core/devices/canonical';
import { normalizeHome } from '../../../src/core/devices/home';
import { emptyState, type Home } from '../../../src/core/devices/types';

// Everyday phrasing (round 3) on real homes: a home named the way the 米家 app names devices,
// and the HA-style flat of the round-2 eval.
const mihome = loadHomeFile(path.resolve(__dirname, '../../../eval/fixtures/devices-real/mihome.json')).home;
const flat = loadHomeFile(path.resolve(__dirname, '../../../eval/fixtures/devices/apartment.json')).home;

async function run(text: string, home: Home = mihome) {
  return retrieve(text, home, emptyState());
}
const ids = (rs: Awaited<ReturnType<typeof run>>) => [...new Set(rs.flatMap((r) => r.selected.map((s) => s.id)))].sort();

describe('product-name aliases', () => {
  it('derives the short forms people say from a product name, not from room + kind alone', () => {
    const kinds = ['吸顶灯', '台灯', '吊灯', '灯', '电视'];
    const rooms = ['客厅', '书房'];
    expect(nameAliases('yeelight皓石吸顶灯pro', kinds, rooms).sort()).toEqual(
      ['yeelight吸顶灯', 'yeelight吸顶灯pro', 'yeelight皓石吸顶灯', '吸顶灯pro', '皓石吸顶灯', '皓石吸顶灯pro'].sort(),
    );
    expect(nameAliases('客厅水晶吊灯', kinds, rooms)).toEqual(['水晶吊灯']);
    expect(nameAliases('书房台灯', kinds, rooms)).toEqual([]);
    expect(nameAliases('老伙计', kinds, rooms)).toEqual([]);
  });

  it('an alias selects its device; an alias two products share asks between them', async () => {
    expect(ids(await run('关掉皓石吸顶灯'))).toEqual(['yeelight.ceiling']);
    expect((await run('打开Yeelight吸顶灯'))[0].selected[0].reasons).toContain('name_alias');
    const shared = await run('打开米家台灯');
    expect(shared[0].selected).toEqual([]);
    expect(shared[0].clarification!.options.map((o) => o.id).sort()).toEqual(['kid.lamp', 'st.lamp']);
  });

  it('a real name beats an alias that spells it', () => {
    const index = indexHome(mihome);
    expect(index.byName.get('主卧吸顶灯')!.map((e) => e.id)).toEqual(['mb.ceiling']);
  });
});

describe('timers and delays', () => {
  it('N分钟后 … keeps the delay on the command and in the IR', async () => {
    const [r] = await run('半小时后关闭电视');
    expect(r.selected.map((s) => s.id)).toEqual(['mitv']);
    expect(r.command.d).toBe(1800);
    expect(r.ir.delay_seconds).toBe(1800);
    expect((await run('一个半小时以后把主卧空调关了'))[0].ir.delay_seconds).toBe(5400);
  });

  it('a bare timer selects no device and asks nothing', async () => {
    const [r] = await run('设一个十分钟的定时器');
    expect(r.selected).toEqual([]);
    expect(r.clarification).toBeNull();
    expect(r.ir.timer).toEqual({ op: 'start', seconds: 600, text: '十分钟' });
    expect(r.ir.delay_seconds).toBeUndefined();
    expect((await run('取消计时器'))[0].ir.timer).toMatchObject({ op: 'cancel', seconds: null });
    expect((await run('计时器还剩多久'))[0].ir.timer?.op).toBe('status');
  });

  it('what is not a device command selects nothing and asks nothing, and says what it is', async () => {
    for (const [u, intent] of [['现在几点', 'time'], ['今天星期几', 'date'], ['天气怎么样', 'weather'], ['算了', 'nevermind'], ['把牛奶加到购物清单', 'list']] as const) {
      const [r] = await run(u);
      expect(r.selected, u).toEqual([]);
      expect(r.clarification, u).toBeNull();
      expect(r.ir.intent, u).toBe(intent);
    }
    // a remark about the weather is not a weather question; a condition on it is a device command
    expect(parseRules('今天天气不错', mihome)[0].a).toBe('UNKNOWN');
  });
});

describe('area-only, questions, negation, media without a name', () => {
  it('关掉厨房 reaches what switches off there, not a programme or a cover', async () => {
    expect(ids(await run('关掉厨房'))).toEqual(['kt.hood', 'kt.light', 'kt.plug']);
    expect(ids(await run('打开阳台', flat))).toEqual(['light.balcony']);
  });

  it('a state question over several devices of the asked kind reads them all', async () => {
    const rs = await run('现在几度');
    expect(rs[0].command.a).toBe('查询');
    expect(ids(rs)).toEqual(['kid.th', 'th.living']);
    expect(ids(await run('门锁上了吗'))).toEqual(['door.lock']);
    expect((await run('扫地机器人在扫地吗'))[0].command.a).toBe('查询');
  });

  it('"stop being on" is off, and a kept device is an exception of the previous command', async () => {
    const off = await run('客厅灯别开着了');
    expect(off[0].command.a).toBe('关闭');
    const rs = await run('把儿童房的灯都关了，夜灯不用关');
    expect(ids(rs)).toEqual(['kid.lamp']);
    expect(rs).toHaveLength(1);
  });

  it('a playback step with nothing named (停止播放 / 下一首 / 继续) gives every player, or the ones the state says are playing', async () => {
    expect(ids(await run('停止播放', flat))).toEqual(['media_player.tv', 'media_player.xiaoai']);
    const players = mihome.devices.filter((d) => d.category === 'speaker' || d.category === 'tv').map((d) => d.id).sort();
    for (const say of ['下一首', '继续播放', '暂停']) {
      const [r] = await run(say);
      expect(r.clarification).toBeNull();
      expect(ids([r])).toEqual(players);
    }
    // the home's state narrows it: the playing one for 下一首, the paused one for 继续
    const withState: Home = { ...mihome, devices: mihome.devices.map((d) => (d.id === 'mb.speaker' ? { ...d, attributes: { state: 'playing' } } : d.id === 'mitv' ? { ...d, attributes: { state: 'paused' } } : d)) };
    expect(ids(await run('下一首', withState))).toEqual(['mb.speaker']);
    expect(ids(await run('继续播放', withState))).toEqual(['mitv']);
  });

  it('a room right before 温度 keeps its 室 (卧室温度是多少), and Cantonese 睡房 is the bedroom', async () => {
    expect(parseRules('卧室温度是多少', mihome)[0]).toMatchObject({ a: '查询', s: '卧室', t: 'temperatureSensor' });
    expect(parseRules('如果卧室温度高于28度就打开卧室空调', mihome)[0].cond).toMatchObject({ sensor: 'temperature', room: '卧室', value: 28 });
    expect(canonical('將睡房冷氣較到24度')).toContain('卧室');
  });

  it('leftover words of a mode or a generic 房间 are not names (空调调成制冷模式, 房间的灯打开)', () => {
    expect(parseRules('空调调成制冷模式', mihome)[0]).toMatchObject({ a: '设置模式', n: null, v: '制冷' });
    expect(parseRules('房间的灯打开', mihome)[0]).toMatchObject({ a: '打开', n: null, t: 'light' });
  });

  it('the verb 播放 beside a media step is not a device name (播放下一首, 放下一首歌)', async () => {
    for (const text of ['播放下一首', '放下一首歌', '播放上一首']) {
      expect(parseRules(text, mihome)[0]).toMatchObject({ n: null, t: 'media' });
      const [r] = await run(text);
      expect(r.selected.length).toBeGreaterThan(1);
    }
  });

  it('courtesy and wake words are not names; a device named like a wake word stays a device', async () => {
    expect(parseRules('小爱同学，打开卫生间灯好吗', mihome)[0]).toMatchObject({ a: '打开', n: '卫生间灯' });
    const [r] = await run('小爱音箱Play音量15');
    expect(r.selected.map((s) => s.id)).toEqual(['mb.speaker']);
    expect(r.ir.value?.number).toBe(15);
  });

  it('a complaint followed by what to do is only a remark about the room', () => {
    const cmds = parseRules('卧室太热了，开一下空调', flat);
    expect(cmds).toHaveLength(1);
    expect(cmds[0]).toMatchObject({ a: '打开', s: '卧室', t: 'airConditioner' });
    expect(parseRules('电视太吵了', flat)[0]).toMatchObject({ a: '调音量', v: '-' });
  });

  it('a kind said in the next clause is looked for where the previous clause acted', async () => {
    expect(ids(await run('把主卧窗帘拉上，然后关掉吸顶灯'))).toEqual(['mb.ceiling', 'mb.curtain']);
    // the previous room has no such device: the whole home answers as before
    expect(ids(await run('打开主卧窗帘，再打开油烟机'))).toEqual(['kt.hood', 'mb.curtain']);
  });

  it('bare readings and "which ones" are questions; unmute is not mute', async () => {
    expect(parseRules('客厅湿度', flat)[0]).toMatchObject({ a: '查询', t: 'humiditySensor' });
    const which = await run('有哪些灯开着');
    expect(which[0].command.a).toBe('查询');
    expect(which[0].selected.length).toBeGreaterThan(5);
    expect(parseRules('洗衣机在运行吗', flat)[0].a).toBe('查询');
    expect(parseRules('电视取消静音', flat)[0].a).toBe('取消静音');
    expect(parseRules('打开入户门', flat)[0].a).toBe('解锁');
  });

  it('门 is the home\'s lock when that is its only door; 出门 is not a door; 是不是开着 is a question', async () => {
    expect(ids(await run('开门', flat))).toEqual(['lock.front_door']);
    expect((await run('开门', flat))[0].command.a).toBe('解锁');
    expect(parseRules('我要出门了，开启离家模式', flat).map((c) => c.a)).toEqual(['执行']);
    expect(parseRules('阳台灯是不是开着', flat)[0].a).toBe('查询');
  });

  it('values: 调高到60% is a target, 和 shares the value, a later verb-only clause acts on the previous target, 暖光 is a colour temperature', async () => {
    expect((await run('把加湿器的湿度调高到60%'))[0].ir.value).toMatchObject({ number: 60 });
    const both = await run('把客厅和主卧的空调都调到25度');
    expect(both.map((r) => [r.selected.map((x) => x.id), r.ir.value?.number])).toEqual([
      [['mijia.ac'], 25],
      [['mb.ac'], 25],
    ]);
    const two = await run('客厅空调调到26度并且开到最大风');
    expect(two.map((r) => [r.command.a, r.selected.map((x) => x.id)])).toEqual([
      ['调温度', ['mijia.ac']],
      ['调风速', ['mijia.ac']],
    ]);
    expect(two[1].ir.value?.number).toBe(5);
    expect(parseRules('床头灯调成暖光', mihome)[0]).toMatchObject({ a: '调色温', v: '暖光' });
  });

  it('sound off is mute, sound on unmute; 上一个台 is a channel step, not a reference', () => {
    expect(parseRules('把小爱音箱的声音关掉', flat)[0].a).toBe('静音');
    expect(parseRules('电视打开声音', flat)[0].a).toBe('取消静音');
    expect(parseRules('把电视调成静音', flat)[0].a).toBe('静音');
    expect(parseRules('把客厅电视换到上一个台', flat)[0]).toMatchObject({ a: '上一首', ref: undefined });
    expect(parseRules('电视开始播放', flat)[0].a).toBe('播放');
  });

  it('scenes are run; covers and vacuums get their own verbs', () => {
    expect(parseRules('打开回家模式', mihome)[0].a).toBe('执行');
    expect(parseRules('启动石头扫地机', mihome)[0].a).toBe('开始清扫');
    expect(parseRules('窗帘电机停一下', mihome)[0].a).toBe('停止');
    expect(parseRules('把晾衣架降下来', mihome)[0]).toMatchObject({ a: '降下', t: 'clothesRack' });
  });
});

describe('HA-style entities and Cantonese words', () => {
  // scenes and scripts listed as entities (as HA exports them), an outdoor sensor
  const ha = normalizeHome({
    devices: [
      { id: 'light.living', name: '客厅灯', room: '客厅', type: 'light', commands: [{ id: 'turn_on', description: 'turn on' }, { id: 'turn_off', description: 'turn off' }] },
      { id: 'scene.movie', name: '电影之夜', room: '客厅', type: 'scene', commands: [{ id: 'turn_on', description: 'Activate' }] },
      { id: 'script.goodnight', name: '晚安', room: null, type: 'script', commands: [{ id: 'turn_on', description: 'turn on' }] },
      { id: 'sensor.outside', name: '室外温度', room: null, type: 'sensor', commands: [{ id: 'get_temperature', description: 'get temperature' }] },
    ],
  }).home;

  it('a scene or script entity is run by name, and never by a room-only command', async () => {
    const [r] = await run('激活电影之夜', ha);
    expect(r.command.a).toBe('执行');
    expect(r.selected.map((s) => s.id)).toEqual(['scene.movie']);
    expect(ids(await run('执行晚安', ha))).toEqual(['script.goodnight']);
    expect(ids(await run('打开客厅', ha))).toEqual(['light.living']);
  });

  it('外面多少度 reads an outdoor sensor when the home has one, else it is a weather question', async () => {
    expect(ids(await run('外面多少度', ha))).toEqual(['sensor.outside']);
    expect((await run('外面多少度'))[0].ir.intent).toBe('weather');
  });

  it.each([
    ['而家幾點', '现在几点'],
    ['主人房冷氣校到廿四度', '主卧空调调到二十四度'],
    ['掃地機返屋企', '扫地机回家'],
  ])('%s -> %s', (from, to) => expect(canonical(from)).toBe(to));
});
