import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
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

const mihome = loadHomeFile(path.join(fixtures, 'devices-real/mihome.json')).home;
const intent = (rs: Awaited<ReturnType<typeof run>>) => rs[0].ir.intent ?? null;

describe('what is not a device command', () => {
  it('greetings, thanks and questions to the assistant said alone are chat', async () => {
    for (const u of ['你好', '谢谢你', '晚上好', '你叫什么名字']) expect(intent(await run(u, mihome))).toBe('chat');
    // a greeting before a command is only a greeting
    expect(ids(await run('你好，把阳台灯关掉', mihome))).toEqual(['bc.light']);
  });
  it('Cantonese days, rain and never-mind', async () => {
    expect(intent(await run('今日會唔會落雨', mihome))).toBe('weather');
    expect(intent(await run('唔使喇', mihome))).toBe('nevermind');
  });
  it('a clock time said with a command is not taken for a device name', async () => {
    const [r] = await run('明天早上七点打开窗帘', mihome);
    expect(r.command.n).toBeNull();
    expect(r.clarification?.question).not.toMatch(/点/);
    expect(ids(await run('晚上十点关掉儿童房空调', mihome))).toEqual(['kid.ac']);
  });
});

describe('more spoken forms', () => {
  it('Cantonese 同 joins two targets', async () => {
    expect(ids(await run('開埋廚房燈同油煙機', mihome))).toEqual(['kt.hood', 'kt.light']);
  });
  it('有没有锁 / X没X / 是开的 ask, not command', async () => {
    expect(actions(await run('前门有没有锁'))).toEqual(['查询']);
    expect(actions(await run('书房卷帘关没关'))).toEqual(['查询']);
    expect(actions(await run('一楼有几盏灯是开的'))).toEqual(['查询']);
  });
  it('a vacuum called back goes to its dock', async () => {
    expect(actions(await run('把扫地机器人召回'))).toEqual(['回充']);
  });
  it('a bare mode word after the device sets the mode', async () => {
    const [r] = await run('米家智能浴霸S1换气', mihome);
    expect(r.command.a).toBe('设置模式');
    expect(r.ir.value?.text).toBe('换气');
  });
});

describe('counting, scenes, extremes and scope of questions', () => {
  it('几扇 / 几把 count a set in a state (a question, not 打开)', async () => {
    const rs = await run('有几扇窗帘是开着的');
    expect(actions(rs)).toEqual(['查询']);
    expect(ids(rs)).toEqual(['cover.living_curtain', 'cover.master_blinds', 'cover.office_shade']);
  });
  it('a suction level is not a light level', async () => {
    expect(ids(await run('把客厅亮度调高一点'))).toEqual(['light.living_ceiling', 'light.living_floor']);
  });
  it('a reading asked of a room with no sensor asks instead of answering from elsewhere', async () => {
    const [r] = await run('儿童房现在几度');
    expect(r.selected).toEqual([]);
    expect(r.clarification?.options.length).toBeGreaterThan(0);
  });
  it('全 before a verb means all of them', async () => {
    const rs = await run('把窗帘全拉上');
    expect(ids(rs)).toEqual(['cover.living_curtain', 'cover.master_blinds', 'cover.office_shade']);
  });
  it('a scene said with 场景 after its own word', async () => {
    expect(ids(await run('启动晚安场景', villa))).toEqual(['s-night']);
  });
  it('the warmest white is the lowest Kelvin, the coldest the highest', async () => {
    expect((await run('书房灯色温调到最暖'))[0].ir.value).toMatchObject({ extreme: 'min', number: 2000 });
    expect((await run('书房灯色温调到最冷'))[0].ir.value).toMatchObject({ extreme: 'max', number: 6500 });
  });
});

describe('Cantonese as people type it', () => {
  it('焗 / 闷热 are a complaint of heat, 有啲暗 of darkness', async () => {
    const [hot] = await run('主人房好焗', apartment);
    expect(ids([hot])).toEqual(['climate.master']);
    expect(hot.ir.value).toMatchObject({ attribute: 'temperature', relative: 'down' });
    const [dark] = await run('客廳有啲暗', apartment);
    expect(dark.ir.value).toMatchObject({ attribute: 'brightness', relative: 'up' });
  });
  it('返 (again) and 去 (to) around a setting', async () => {
    const [r] = await run('幫我較返主人房個冷氣去廿五度', apartment);
    expect(ids([r])).toEqual(['climate.master']);
    expect(r.ir.value?.number).toBe(25);
  });
  it('返嚟喇 / 出去喇 run the home and away scenes', async () => {
    expect(ids(await run('我哋返嚟喇', apartment))).toEqual(['scene.home']);
    expect(ids(await run('出去喇', apartment))).toEqual(['scene.away']);
  });
  it('最光 is the brightest; 瞓觉 after a command is why, not what', async () => {
    expect((await run('書房枱燈較到最光', apartment))[0].ir.value).toMatchObject({ extreme: 'max', number: 100 });
    const [r] = await run('熄咗主人房啲燈瞓覺', apartment);
    expect(r.command.n).toBeNull();
    expect(ids([r])).toEqual(['light.bedside', 'light.master_ceiling']);
  });
});

describe('groups, white tones, polite requests and complaints about the air', () => {
  it('a group named whose shared commands cannot dim stands for its dimmable members', async () => {
    const rs = await run('客厅灯光调暗一点', villa);
    expect(ids(rs)).toEqual(['v-lr-crystal', 'v-lr-strip']);
    // what the group itself can do still selects the group
    expect(ids(await run('关掉客厅灯光', villa))).toEqual(['g-lr-lights']);
  });
  it('暖色 / 冷色 are white tones', () => {
    expect(valueSlot('调成冷色')).toMatchObject({ v: '冷色', attribute: 'colorTemp' });
  });
  it('可以帮我开吗 asks for it to be switched on', async () => {
    expect(actions(await run('书房冷气可以帮我开吗', villa))).toEqual(['打开']);
  });
  it('a complaint about the air goes to what heats or cools, never to a water heater', async () => {
    const [r] = await run('卫生间有点冷', apartment);
    expect(r.command.t).toBe('climate');
    expect(ids([r])).not.toContain('water_heater.bath');
    expect(r.clarification?.options.map((o) => o.id)).not.toContain('water_heater.bath');
    expect(ids(await run('客厅冷死了', villa))).toEqual(['v-floorheat', 'v-lr-ac']);
  });
});

describe('除 of an appliance, 声音 of a player, 目标 of a setting', () => {
  const mi = loadHomeFile(path.join(fixtures, 'devices-real/mihome.json')).home;
  it('除湿机 in a list is a dehumidifier, not an exception', async () => {
    const rs = await run('关掉书房的除湿机和台灯', mi);
    expect(ids(rs)).toEqual(['st.dehum', 'st.lamp']);
    expect(rs.every((r) => r.command.q !== 'except')).toBe(true);
  });
  it('关闭X声音 mutes X; 打开X的声音 unmutes it', async () => {
    expect(actions(await run('关闭客厅电视的声音'))).toEqual(['静音']);
    expect(actions(await run('打开主卧音箱声音'))).toEqual(['取消静音']);
  });
  it('目标湿度 is the setting, not a name', async () => {
    const [r] = await run('主卧加湿器目标湿度调到45%');
    expect(r.command.n).toBe('主卧加湿器');
    expect(r.ir.value?.number).toBe(45);
  });
});

describe('delays and lists of commands', () => {
  it('each clause keeps its own delay', async () => {
    const rs = await run('五分钟后关掉客厅电视，半小时后关掉主卧空调');
    expect(rs.map((r) => [r.selected.map((s) => s.id), r.ir.delay_seconds])).toEqual([
      [['media_player.living_tv'], 300],
      [['climate.master'], 1800],
    ]);
  });
  it('过/等 a duration without 后, a half after the unit, two units', async () => {
    expect((await run('过十分钟关掉书房灯'))[0].ir.delay_seconds).toBe(600);
    expect((await run('两分半钟后关掉书房灯'))[0].ir.delay_seconds).toBe(150);
    expect((await run('2小时15分钟后关闭地暖'))[0].ir.delay_seconds).toBe(8100);
  });
  it('、 between two commands keeps both', async () => {
    expect(ids(await run('开厨房灯、关餐厅灯'))).toEqual(['light.dining', 'light.kitchen']);
    expect(actions(await run('开厨房灯、关餐厅灯'))).toEqual(['打开', '关闭']);
  });
  it('a reminder is a note, not a device command, even with a delay', async () => {
    const [r] = await run('二十分钟后提醒我关地暖');
    expect(r.selected).toEqual([]);
    expect(r.ir.intent).toBe('list');
  });
});

describe('places said loosely', () => {
  it('整个一楼 is all of the first floor; 客厅那边 is the living room', async () => {
    const rs = await run('整个一楼的灯都关掉');
    expect(rs[0].command.n).toBeNull();
    expect(ids(rs)).toHaveLength(6);
    expect(ids(await run('客厅那边的落地灯关一下'))).toEqual(['light.living_floor']);
  });
  it('洗手间 / 厕所 find a home whose bathroom is called 浴室', async () => {
    expect(ids(await run('厕所的灯打开'))).toEqual(['light.bathroom']);
  });
  it('大门 is the entrance lock, not every lock', async () => {
    expect(ids(await run('大门锁好'))).toEqual(['lock.front']);
    expect(actions(await run('帮我开一下大门'))).toEqual(['解锁']);
  });
});

describe('appliances and their questions', () => {
  it('拖一下地 cleans; 继续 restarts what is not a player; 并 joins two steps', async () => {
    expect(actions(await run('扫地机器人拖一下地'))).toEqual(['开始清扫']);
    expect(actions(await run('扫地机器人继续打扫'))).toEqual(['开始清扫']);
    expect(actions(await run('扫地机器人停下并回充'))).toEqual(['停止', '回充']);
  });
  it('取消 stops a programme', async () => {
    const mi = loadHomeFile(path.join(fixtures, 'devices-real/mihome.json')).home;
    expect(actions(await run('电饭煲取消煮饭', mi))).toEqual(['停止']);
  });
  it('什么模式 / 几档 / 还要多久 ask, and are not names', async () => {
    const [r] = await run('主卧空调是什么模式');
    expect(r.command.a).toBe('查询');
    expect(ids([r])).toEqual(['climate.master']);
    expect((await run('客厅吊扇现在几档'))[0].command.a).toBe('查询');
  });
});

describe('implicit requests said other ways', () => {
  it('好黑 / 黑乎乎 ask for light; why (刺眼) is not a name', async () => {
    expect((await run('餐厅黑乎乎的'))[0].ir.value).toMatchObject({ attribute: 'brightness', relative: 'up' });
    const [r] = await run('儿童房太亮了晃眼');
    expect(r.command.n).toBeNull();
    expect(ids([r])).toEqual(['light.kids']);
  });
  it('太大声 is about the volume', async () => {
    const [r] = await run('主卧音乐太大声了');
    expect(ids([r])).toEqual(['media_player.master_speaker']);
    expect(r.ir.value?.attribute).toBe('volume');
  });
  it('开门 said plainly opens the entrance lock; 锁门 still locks every lock', async () => {
    const rs = await run('客人来了，开下门');
    expect(ids(rs)).toEqual(['lock.front']);
    expect(actions(rs)).toEqual(['解锁']);
    expect(ids(await run('锁门'))).toEqual(['lock.back', 'lock.front']);
  });
});

describe('exhaust fans and wanting to watch', () => {
  const bath = normalizeHome({
    devices: [
      { id: 'x', name: '卫生间排气扇', room: '卫生间', commands: [{ id: 'on', description: '打开' }, { id: 'off', description: '关闭' }] },
      { id: 'l', name: '卫生间灯', room: '卫生间', commands: [{ id: 'on', description: '打开' }, { id: 'off', description: '关闭' }] },
    ],
  }).home;
  it('换气扇 / 抽风机 find an exhaust fan named 排气扇', async () => {
    const home = bath;
    expect(ids(await run('关掉卫生间的换气扇', home))).toEqual(['x']);
    expect(ids(await run('抽風機開一下', home))).toEqual(['x']);
  });
  it('我要看电视 switches it on', async () => {
    const rs = await run('我要看電視了', apartment);
    expect(ids(rs)).toEqual(['media_player.tv']);
    expect(actions(rs)).toEqual(['打开']);
  });
});

describe('what to play and the water', () => {
  it('放点 / 来几首: the size word is not part of what to play', async () => {
    expect((await run('主卧音箱放点轻音乐'))[0].ir.value?.text).toBe('轻音乐');
    const [r] = await run('厨房音箱来几首老歌');
    expect(r.command.a).toBe('播放');
    expect(r.ir.value?.text).toBe('老歌');
  });
  it('关水 / 把水关了 is about a valve', async () => {
    expect(ids(await run('把水关了', villa))).toEqual(['v-sprinkler']);
    expect((await run('关水'))[0].clarification?.options.map((o) => o.id).sort()).toEqual(['valve.garden', 'valve.water_main']);
  });
});

describe('how bright or strong, asked', () => {
  it('亮不亮 of a place with a light sensor reads it; elsewhere the lights there answer', async () => {
    expect(ids(await run('花园亮不亮', villa))).toEqual(['v-gd-lux']);
    const [r] = await run('客厅亮不亮', villa);
    expect(r.command.a).toBe('查询');
    expect(ids([r]).every((id) => id.startsWith('v-lr-'))).toBe(true);
  });
  it('光照强吗 is a question about the light sensor', async () => {
    const [r] = await run('花园光照强不强', villa);
    expect(r.command.a).toBe('查询');
    expect(ids([r])).toEqual(['v-gd-lux']);
  });
});

describe('questions about devices or the world that order nothing', () => {
  it('price, repair, how-to, sums, calls and weather select nothing and ask nothing', async () => {
    for (const u of ['空调多少钱', '灯泡坏了怎么修', '怎么设置空调的定时', '三加五等于几', '帮我打个电话给妈妈', '上海明天天气']) {
      const [r] = await run(u, apartment);
      expect(r.selected, u).toEqual([]);
      expect(r.clarification, u).toBeNull();
      expect(r.command.a, u).toBe('非设备指令');
    }
  });
  it('a remark beside a command leaves the command', async () => {
    const rs = await run('空调坏了，打开餐厅吊扇', apartment);
    expect(ids(rs)).toContain('fan.dining_fan');
  });
});

describe('a kind, then its verb, then where', () => {
  it('窗帘再拉开一些，主卧的 is one command on the bedroom blinds', async () => {
    const rs = await run('窗帘再拉开一些，主卧的');
    expect(rs).toHaveLength(1);
    expect(ids(rs)).toEqual(['cover.master_blinds']);
    expect(rs[0].ir.value).toMatchObject({ attribute: 'position', relative: 'up' });
  });
  it("a blind's angle is set like its position, not as a temperature", async () => {
    const [r] = await run('书房卷帘角度调到三十度');
    expect(ids([r])).toEqual(['cover.office_shade']);
    expect(r.command.a).toBe('调位置');
  });
});

describe('more Cantonese as typed', () => {
  it('先 at the end, 有冇闩, 落 / 拉起 a curtain, 出门口', async () => {
    expect(actions(await run('停咗首歌先'))).toEqual(['停止']);
    expect(actions(await run('車房門有冇閂'))).toEqual(['查询']);
    expect(actions(await run('主人房百葉窗落咗佢'))).toEqual(['降下']);
    expect(ids(await run('我哋出門口喇'))).toEqual(['scene.away']);
  });
  it('嗰部 after a room is the one there', async () => {
    const rs = await run('幫我校冷氣去廿四度，客廳嗰部');
    expect(ids(rs)).toEqual(['climate.living']);
    expect(rs[0].ir.value?.number).toBe(24);
  });
});
