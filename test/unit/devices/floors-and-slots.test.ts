import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
import { floorLevel, indexHome } from '../../../src/core/devices/index';
import { parseRules, commandToIR } from '../../../src/core/devices/parser';
import { retrieve } from '../../../src/core/devices/retrieve';
import { injectStage } from '../../../src/core/devices/stages/inject';
import { valueSlot } from '../../../src/core/devices/grammar';
import { canonical } from '../../../src/core/devices/canonical';
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

describe('verb families, locks, scenes by event, trailing targets, queries', () => {
  it('断开 / 断电 switch off and 通电 switches on (断开 is not 开)', () => {
    expect(parseRules('断开书房插座', duplex)[0].a).toBe('关闭');
    expect(parseRules('书房插座断电', duplex)[0].a).toBe('关闭');
    expect(parseRules('给书房的插座通电', duplex)[0].a).toBe('打开');
  });

  it('a lock named …锁 carries the first half of 锁上 / 锁了', async () => {
    expect(parseRules('把入户门锁上', flat)[0]).toMatchObject({ a: '锁上', n: '入户门锁' });
    expect(parseRules('入户門鎖咗未呀', flat)[0]).toMatchObject({ a: '查询', n: '入户门锁' });
    expect(parseRules('把后门锁了', duplex)[0].a).toBe('锁上');
  });

  it('锁门 with nothing named locks every lock; 开锁 with nothing named still asks', async () => {
    expect(await ids('锁门')).toEqual(['lock.back', 'lock.front']);
    const [open] = await retrieve('开锁', duplex, emptyState());
    expect(open.selected).toEqual([]);
    expect(open.clarification?.options.length).toBe(2);
  });

  it('a scene said by its event (我回家了 / 我要睡觉了 / 我出门了), once', async () => {
    expect(await ids('我回家了')).toEqual(['scene.home']);
    expect(await ids('我要睡觉了', flat)).toEqual(['scene.sleep']);
    expect(parseRules('我出门了，开启离家模式', flat).map((c) => [c.a, c.n])).toEqual([['执行', '离家模式']]);
    // a device named in the clause wins over the event word
    expect(parseRules('睡觉了，关掉主卧灯', duplex).some((c) => c.a === '关闭' && c.n === '主卧灯')).toBe(true);
  });

  it('a trailing clause that only says where narrows the command before it (关灯，客厅的)', async () => {
    expect(await ids('关灯，客厅的')).toEqual(['light.living_ceiling', 'light.living_floor']);
    expect(await ids('开风扇，主卧的')).toEqual(['fan.master']);
    expect(await ids('上一首歌，厨房的音箱')).toEqual(['media_player.kitchen_speaker']);
    // a different kind in the trailing clause is a second target, not a narrowing
    expect(parseRules('关掉卧室的灯，客厅的空调', duplex)).toHaveLength(2);
  });

  it('activities name their appliance and start it (给花园浇水, 电饭煲开始煮饭)', () => {
    expect(parseRules('给花园浇水', duplex)[0]).toMatchObject({ a: '打开', s: '花园', t: 'valve' });
    const [c] = parseRules('电饭煲开始煮饭', duplex);
    expect(c).toMatchObject({ a: '打开', n: null, t: 'cooker' });
  });

  it('a climate entity named 地暖 is a heater: 暖气 finds it, 空调 does not', async () => {
    expect(duplex.devices.find((d) => d.id === 'climate.floor_heating')?.category).toBe('heater');
    expect(await ids('开暖气')).toEqual(['climate.floor_heating']);
    expect(await ids('一楼空调关掉')).toEqual(['climate.living']);
  });

  it('state questions: 在干嘛, 係咪, 有没有门没锁', async () => {
    expect(parseRules('扫地机器人在干嘛', duplex)[0]).toMatchObject({ a: '查询', n: '扫地机器人' });
    expect(await ids('客廳啲燈係咪開咗')).toEqual(['light.living_ceiling', 'light.living_floor']);
    expect(await ids('有没有门没锁')).toEqual(['lock.back', 'lock.front']);
  });
});

describe('Cantonese function words, exceptions without 以外, a sensor named in a setting', () => {
  it.each([
    ['邊啲燈開咗', '哪些灯打开'],
    ['有冇燈開咗', '有没有灯打开'],
    ['客廳吊燈較光啲', '客厅吊灯调亮一点'],
    ['喺廚房度播歌', '在厨房播放音乐'],
    ['幫我開客廳盞燈', '帮我开客厅的灯'],
    ['將主人房冷氣設定做二十四度', '把主卧空调设置为二十四度'],
  ])('%s -> %s', (from, to) => expect(canonical(from)).toBe(to));

  it('a classifier after a number or 几 stays (几盏灯 is a count)', () => {
    expect(canonical('家里有几盏灯开着')).toBe('家里有几盏灯开着');
    expect(canonical('打开两盏灯')).toBe('打开两盏灯');
  });

  it('邊啲燈開咗 asks about every light; 較光啲 brightens', async () => {
    const [q] = await retrieve('邊啲燈開咗', duplex, emptyState());
    expect(q.command.a).toBe('查询');
    expect(q.selected.length).toBe(duplex.devices.filter((d) => d.category === 'light').length);
    expect((await retrieve('客廳吊燈較光啲', duplex, emptyState()))[0].command.a).toBe('调亮度');
  });

  it('an exception without 以外 ends where the command resumes (其他 / 都)', async () => {
    expect(await ids('主卧的灯除了床头灯都关了')).toEqual(['light.master']);
    expect(await ids('除了书房其他空调都打开', flat)).toEqual(['climate.living', 'climate.master', 'climate.second']);
    const lights = duplex.devices.filter((d) => d.category === 'light').map((d) => d.id);
    expect(await ids('关掉所有灯但是保留花园灯')).toEqual(lights.filter((id) => id !== 'light.garden').sort());
  });

  it('a sensor named with a value to set gives its room: 把客厅温度设为25度 sets the room climate', async () => {
    const [r] = await retrieve('把客厅温度设为25度', duplex, emptyState());
    expect(r.selected.map((s) => s.id)).toEqual(['climate.living']);
    expect(r.ir.value?.number).toBe(25);
    // asked, the same name is the sensor
    expect(await ids('客厅温度多少')).toEqual(['sensor.living_temperature']);
  });
});

describe('state words, vacuum and media verbs, what to play', () => {
  it('开着还是关着 / 的状态 are questions', () => {
    expect(parseRules('客厅吊灯是开着还是关着', duplex)[0]).toMatchObject({ a: '查询', n: '客厅吊灯' });
    expect(parseRules('车库门的状态', duplex)[0]).toMatchObject({ a: '查询', n: '车库门' });
  });

  it('吸尘 starts the vacuum; 回到基座 / 叉电 send it to its dock; 转台 changes the channel', () => {
    expect(parseRules('开始吸尘', duplex)[0].a).toBe('开始清扫');
    expect(parseRules('让扫地机器人回到基座', duplex)[0].a).toBe('回充');
    expect(parseRules('掃地機返去叉電', duplex)[0].a).toBe('回充');
    expect(parseRules('電視轉台', duplex)[0].a).toBe('下一首');
  });

  it('摄氏22度 is 22℃; an AC mode word with nothing named is about the air conditioner', async () => {
    const [r] = await retrieve('主臥溫度設為攝氏22度', duplex, emptyState());
    expect([r.selected.map((s) => s.id), r.ir.value?.number]).toEqual([['climate.master'], 22]);
    expect(await ids('打開主臥的除濕模式')).toEqual(['climate.master']);
  });

  it('what to play is the value (播放内容), not a player name; said with no player it asks which', async () => {
    const [c] = parseRules('在厨房音箱播放周杰伦', duplex);
    expect(c).toMatchObject({ a: '播放', v: '周杰伦' });
    const [r] = await retrieve('播放周杰伦的歌', duplex, emptyState());
    expect(r.ir.value).toMatchObject({ attribute: 'content' });
    expect(r.selected).toEqual([]);
    expect(r.clarification?.options.length).toBe(3);
    expect(r.meta.value_check).toBeUndefined();
  });
});

describe('Taiwan / Hong Kong device words and units', () => {
  it.each([
    ['把客廳立燈打開', '把客厅落地灯打开'],
    ['客廳吊燈亮度調到50趴', '客厅吊灯亮度调到50%'],
    ['關掉書房的智慧插座', '关掉书房的智能插座'],
    ['將客廳吊燈光度校到七成', '把客厅吊灯亮度调到七成'],
    ['電暖器打開', '取暖器打开'],
  ])('%s -> %s', (from, to) => expect(canonical(from)).toBe(to));

  it('the words reach the right device and value', async () => {
    expect(await ids('把客廳立燈打開')).toEqual(['light.living_floor']);
    const [r] = await retrieve('將客廳吊燈光度校到七成', duplex, emptyState());
    expect([r.selected.map((s) => s.id), r.ir.value?.number, r.command.a]).toEqual([['light.living_ceiling'], 70, '调亮度']);
    expect(await ids('電暖器打開')).toEqual(['climate.floor_heating']);
    expect(await ids('把客厅的灯泡全打开')).toEqual(['light.living_ceiling', 'light.living_floor']);
  });

  it('在播什么 is a question; 开启除湿 is the air conditioner mode', async () => {
    expect((await retrieve('廚房喇叭播緊乜嘢', duplex, emptyState()))[0].command.a).toBe('查询');
    expect(await ids('開啟主臥除濕')).toEqual(['climate.master']);
  });
});

describe('what a valve waters, 停, temperature remarks as questions, 办公室', () => {
  it('浇水 / 浇花 name the valve that waters (花园浇水阀), not the main valve', async () => {
    expect(await ids('打开浇水')).toEqual(['valve.garden']);
    expect(await ids('开始浇花')).toEqual(['valve.garden']);
    expect(await ids('关闭总水阀')).toEqual(['valve.water_main']);
  });

  it('客厅窗帘停 stops the curtain', () => {
    expect(parseRules('客厅窗帘停', duplex)[0]).toMatchObject({ a: '停止', n: '客厅窗帘' });
  });

  it('主卧是不是很热 / 客厅冷吗 ask the temperature sensor; 热水器开着吗 stays about the heater', async () => {
    expect(await ids('主卧是不是很热')).toEqual(['sensor.master_climate']);
    expect(await ids('客厅冷吗')).toEqual(['sensor.living_temperature']);
    expect(await ids('热水器开着吗', flat)).toEqual(['water_heater.bath']);
  });

  it('办公室 is the study (书房) and the other way round', async () => {
    expect(await ids('关掉办公室的灯')).toEqual(['light.office']);
  });
});

describe('速度 and a playing player', () => {
  it('速度 is the fan speed, not a name', () => {
    expect(parseRules('风扇速度设为50%', duplex)[0]).toMatchObject({ a: '调风速', n: null, t: 'fan', v: '50%' });
  });

  it('a volume said to no player goes to the one that is playing, else asks', async () => {
    const [ask] = await retrieve('音量调到30', duplex, emptyState());
    expect(ask.clarification?.options.length).toBe(3);
    const playing: Home = { ...duplex, devices: duplex.devices.map((d) => (d.id === 'media_player.kitchen_speaker' ? { ...d, attributes: { state: 'playing' } } : d)) };
    const [r] = await retrieve('音量调到30', playing, emptyState());
    expect([r.selected.map((s) => s.id), r.ir.value?.number]).toEqual([['media_player.kitchen_speaker'], 30]);
  });
});

describe('lawn mowers and thermostats', () => {
  const garden = normalizeHome({
    devices: [
      { id: 'lawn_mower.m', name: '割草机', room: '花园', type: 'lawn_mower', commands: [{ id: 'start_mowing', description: 'Start mowing' }, { id: 'pause', description: 'Pause' }, { id: 'dock', description: 'Return to dock' }] },
      { id: 'climate.t', name: '客厅恒温器', room: '客厅', type: 'climate', commands: [{ id: 'set_temperature', description: 'Set target temperature', value_range: { minimum: 7, maximum: 35, unit: '°C' } }] },
      { id: 'vacuum.v', name: '扫地机器人', room: '客厅', type: 'vacuum', commands: [{ id: 'start', description: 'Start' }, { id: 'return_to_base', description: 'Return to dock' }] },
    ],
  }).home;

  it('a mower starts mowing and goes back to its dock; the vacuum is not it', async () => {
    expect(await ids('开始割草', garden)).toEqual(['lawn_mower.m']);
    expect(await ids('割草机回去充电', garden)).toEqual(['lawn_mower.m']);
    expect(await ids('开始扫地', garden)).toEqual(['vacuum.v']);
  });

  it('a thermostat (恒温器) takes a temperature', async () => {
    const [r] = await retrieve('把恒温器调到22度', garden, emptyState());
    expect([r.selected.map((s) => s.id), r.ir.value?.number]).toEqual([['climate.t'], 22]);
  });
});

describe('the LLM command protocol carries w', () => {
  it('a reply with w keeps every value through the IR', async () => {
    const { parseCommandArray } = await import('../../../src/core/devices/command-protocol');
    const [c] = parseCommandArray('[{"a":"调温度","s":"客厅","n":null,"t":"airConditioner","q":"one","c":null,"v":"26度","w":[{"a":"设置模式","v":"制热"}]}]');
    expect(c.w).toEqual([{ a: '设置模式', v: '制热' }]);
    expect(commandToIR(c).values?.map((v) => v.number ?? v.text)).toEqual([26, '制热']);
  });
});

describe('fractions and fan levels', () => {
  it('三分之一 / 四分之三 are positions in percent', async () => {
    const [a] = await retrieve('书房卷帘打开三分之一', duplex, emptyState());
    expect([a.command.a, a.ir.value?.number, a.ir.value?.unit]).toEqual(['调位置', 33, '%']);
    const [b] = await retrieve('客厅窗帘开到四分之三', duplex, emptyState());
    expect(b.ir.value?.number).toBe(75);
  });

  it('高档 / 低风 / 中速 / 自动风 are fan levels (words); 调低风速 stays a step', async () => {
    for (const [say, word] of [['把吊扇风速调到高档', '高档'], ['客厅空调风速调成低风', '低风'], ['吊扇调到中速', '中速']]) {
      const [r] = await retrieve(say, duplex, emptyState());
      expect([r.command.a, r.ir.value?.attribute, r.ir.value?.text]).toEqual(['调风速', 'fanSpeed', word]);
    }
    expect((await retrieve('客厅空调调低风速', duplex, emptyState()))[0].ir.value).toMatchObject({ attribute: 'fanSpeed', relative: 'down' });
  });
});

describe('a bare 锁 beside a name', () => {
  it.each([['鎖前門', 'lock.front'], ['帮我锁后门', 'lock.back'], ['把前门锁', 'lock.front']])('%s locks %s', async (say, id) => {
    const [r] = await retrieve(say, duplex, emptyState());
    expect([r.command.a, r.selected.map((s) => s.id)]).toEqual(['锁上', [id]]);
  });
});

describe('Cantonese rewrites leave Mandarin alone', () => {
  it.each(['打开部分灯光', '客厅灯调光到50%', '关掉大部分的灯', '打开那盏灯'])('%s is unchanged', (say) => expect(canonical(say)).toBe(say));
});

describe('more Cantonese: 少少, 开细, 转去, 睇下', () => {
  it.each([
    ['電視較大聲少少', 'media_player.living_tv', '调音量'],
    ['客廳個風扇開細啲', 'fan.living_ceiling', '调风速'],
    ['電視轉去下一個台', 'media_player.living_tv', '下一首'],
    ['幫我睇下前門鎖咗未', 'lock.front', '查询'],
  ])('%s -> %s %s', async (say, id, action) => {
    const [r] = await retrieve(say, duplex, emptyState());
    expect([r.selected.map((s) => s.id), r.command.a]).toEqual([[id], action]);
    // nothing of the Cantonese is left over as a name (少少, 切到)
    expect(r.command.n === null || r.command.n === '前门').toBe(true);
  });
});

describe('拉下来 / 拉起来 move a cover', () => {
  it('a garage door pulled down closes, a shade pulled up opens', () => {
    expect(parseRules('麻煩把車庫門拉下來', duplex)[0].a).toBe('降下');
    expect(parseRules('書房捲簾拉起來', duplex)[0].a).toBe('升起');
    expect(parseRules('把客厅窗帘拉上', duplex)[0].a).toBe('关闭');
  });
});

describe('valve words and which-questions', () => {
  it('总水闸 is the main valve (水闸 reads 水阀); 哪个窗帘是开着的 asks about every curtain', async () => {
    expect(await ids('把总水闸关了')).toEqual(['valve.water_main']);
    expect(await ids('哪个窗帘是开着的')).toEqual(['cover.living_curtain', 'cover.master_blinds', 'cover.office_shade']);
  });
});
