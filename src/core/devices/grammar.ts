import { findValue, parseNumber } from './values';
import type { ValueAttribute } from './types';

/**
 * Slot grammar of a command clause beyond the verb: what setting it is about (attribute),
 * the value (absolute, relative with a default step, extreme), a mode or colour word, and
 * whether it is a state question. Each slot returns the span it used so the caller can
 * remove it before reading the device name from what is left.
 */

export interface Span {
  start: number;
  end: number;
}

export interface ValueSlot extends Span {
  /** the command's v: 26℃, 50%, +, -2℃, 最亮, 红色, 制冷 */
  v: string;
  attribute: ValueAttribute | null;
  kind: 'absolute' | 'relative' | 'extreme' | 'word';
  unit: string | null;
}

const NUM = '(?:\\d+(?:\\.\\d+)?|[零一二两三四五六七八九十百]+(?:点[零一二三四五六七八九])?)';

/** Words that name the setting, in the order they are tried. */
export const ATTRIBUTE_WORDS: [RegExp, ValueAttribute][] = [
  [/色温/, 'colorTemp'],
  [/亮度|光线|灯光亮度/, 'brightness'],
  // 室温 but not the 室 of 卧室温度 / 浴室温度
  [/水温|温度|室温(?!度)/, 'temperature'],
  [/音量|声音|声量/, 'volume'],
  [/风速|风量|档位|风力|吸力|转速|速度/, 'fanSpeed'],
  [/湿度/, 'humidity'],
  // (百叶帘角度: a blind's tilt is set like its position)
  [/开合度|开合|开度|位置|角度/, 'position'],
  [/颜色|色彩|灯色/, 'color'],
  [/频道/, 'channel'],
  [/信号源|输入源|信源/, 'source'],
];

/** Which setting a relative or extreme word is about, when no attribute word is said. */
function attributeOfWord(word: string): ValueAttribute | null {
  if (/亮|暗/.test(word)) return 'brightness';
  if (/声|吵|响/.test(word)) return 'volume';
  if (/热|冷|暖|凉/.test(word)) return 'temperature';
  if (/拉开|打开|拉上|关上|开一点|关一点/.test(word)) return 'position';
  if (/湿|干|潮/.test(word)) return 'humidity';
  if (/风/.test(word)) return 'fanSpeed';
  return null;
}

// 太亮了 / 好吵 / 有点冷 / 热死了: a complaint about the current setting (any degree adverb) asks for the opposite change
export const COMPLAINT_LEAD = /^(?:太|好|很|有点|有些|挺|蛮|超|真|特别|非常|怪|[暗冷亮吵热晒潮](?:死了|得要命|得不行))/;
// (太大声 / 太小声: the loudness, not a bare 太大)
const REL_UP =
  /太(?:小(?!声)|低|弱|慢)了?|(?:太|好|很|有点儿?|有些|挺|蛮|超|真|特别|非常|怪)(?:暗|小声|冷|凉|安静|干燥|干)了?|(?:暗|冷)(?:死了|得要命|得不行)|调大声|开大声|调高|升高|提高|调大|加大|增大|(?<![打拉])开大|调亮|调强|调快|调热|调暖|再亮|再大|再高|(?:亮|大|高|热|暖|暖和|大声|强|快|响)(?:一点儿?|一些|些|点)|大声|(?:拉开|打开|开)(?:一点|一些|些)|增加|加(?=\d|[一二两三四五六七八九十])/;
const REL_DOWN =
  /太(?:大(?!声)|高|强|快)了?|(?:太|好|很|有点儿?|有些|挺|蛮|超|真|特别|非常|怪)(?:亮|刺眼|吵|响|大声|热|晒|潮湿|潮|湿)了?|(?:亮|吵|热|晒|潮)(?:死了|得要命|得不行)|调小声|开小声|调低|降低|调小|减小|关小|调暗|调弱|调慢|调冷|调凉|再暗|再小|再低|(?:暗|小|低|冷|凉|凉快|小声|弱|慢|轻)(?:一点儿?|一些|些|点)|小声|(?:拉上|关上|关)(?:一点|一些|些)|减少|减(?=\d|[一二两三四五六七八九十])/;
const EXTREME = /(?:调到|开到|调成|设为|设置为|调至|开至|拉到|放到)?(最亮|最暗|最大|最小|最高|最低|最强|最弱|最冷|最热|最暖|最快|最慢|最响|最轻|全开|开到底|拉满|开满)/;
// 制热26度: an air conditioner's mode said bare right before its temperature
const MODE = new RegExp(
  `(制冷|制热|除湿|送风|自动|睡眠|节能|强力|暖风|换气|舒适|烘干|静音|手动|省电|安静)模式|(?:调成|调到|切换成|切换到|切到|换成|设为|设置为|设置成|改成|开)(制冷|制热|除湿|送风|暖风|换气|睡眠|节能|强力|舒适|省电)(?:模式)?|(制冷|制热|除湿|送风|暖风|换气)(?=[，,]?(?:温度)?(?:调到|设为|设成)?${NUM}\\s*(?:度|℃|°|$)|\\s*$)`,
);
/** 高档 / 低风 / 中速 / 自动风: a fan level said as a word (调低风速 is a step, not 低风). */
const FAN_LEVEL = /(?:调到|调成|开到|设为|设置为|设成|切到|换成|开)?(?<![调降升最太很])((?:高|中|低|自动|静音)(?:档|速|风))(?!速|量|度)|(?<=风速|风量|风力)(?:调到|调成|设为|设成|改成|切到|换成|开到|开)?(高|中|低|自动)$/;
/** 暖光 / 冷白光 / 自然光: a white tone, i.e. a colour temperature said as a word. */
// 暖白 / 冷白 are white tones too, with or without 光/色
const TONE = /(?:调成|调到|换成|变成|设为|设置为|设置成|改成|调)?(暖白光|冷白光|暖白色?|冷白色?|正白光?|中性光|暖光|冷光|自然光|日光|暖色调|冷色调|暖色|冷色)/;
// 紫罗兰色 / 天蓝色: a colour word's own suffix before 色; 换个红的 / 来点蓝的: after a change verb 的 says it too
const COLOUR = /(?:调成|调到|变成|换成|设为|设置为|设置成|改成|调)?(暖黄|粉红|天蓝|红|橙|黄|绿|青|蓝|紫|粉|白)(?:[罗兰玫瑰宝]{1,2})?(?:色|光)|(?:换个|换成|变成|调成|来点|来个|弄成)(暖黄|粉红|天蓝|红|橙|黄|绿|青|蓝|紫|粉)的/;

// 切换到HDMI1 / 信号源换成机顶盒 / 切到投屏: a TV's input; HDMI/AV ports need no verb, other sources need one
const SOURCE_WORDS = 'hdmi\\s*[1-4]?|av\\s*[1-3]?|usb|dvd|ps[345]|xbox|chromecast|airplay|机顶盒|电视盒子|盒子|无线投屏|投屏|蓝牙|光纤|游戏机|电脑|有线电视|网络电视|天线';
const SOURCE = new RegExp(
  `(?:(?:切换到|切换成|切到|换到|换成|转到|调到|改成|设为|切换)(?:信号源|输入源|信源|输入)?(?:到|为|成)?|(?:信号源|输入源|信源)(?:切换到|切到|换到|换成|调到|改成|设为|到|为|是)?)\\s*(${SOURCE_WORDS})|(?<![a-z])(hdmi\\s*[1-4]|av\\s*[1-3])(?![a-z0-9])`,
);

/** Reads the value slot of a clause (names already masked). */
export function valueSlot(s: string): ValueSlot | null {
  const at = (m: RegExpMatchArray) => ({ start: m.index!, end: m.index! + m[0].length });
  let m = s.match(SOURCE);
  if (m) return { ...at(m), v: (m[1] ?? m[2]).replace(/\s+/g, '').toUpperCase(), attribute: 'source', kind: 'word', unit: null };
  m = s.match(MODE);
  if (m) return { ...at(m), v: m[1] ?? m[2] ?? m[3], attribute: 'mode', kind: 'word', unit: null };
  m = s.match(TONE);
  if (m) return { ...at(m), v: m[1], attribute: 'colorTemp', kind: 'word', unit: null };
  m = s.match(COLOUR);
  if (m) return { ...at(m), v: `${m[1] ?? m[2]}色`, attribute: 'color', kind: 'word', unit: null };
  m = s.match(FAN_LEVEL);
  // (风速调到高 / 风速自动: the level said bare after the setting's name)
  if (m) return { ...at(m), v: m[1] ?? (m[2] === '自动' ? '自动风' : `${m[2]}速`), attribute: 'fanSpeed', kind: 'word', unit: null };
  m = s.match(EXTREME);
  if (m) {
    const word = m[1];
    // 开到最大风 / 最大档: the word after the extreme says the setting
    const next = s.slice(m.index! + m[0].length, m.index! + m[0].length + 2);
    const attr = /亮|暗/.test(word) ? 'brightness' : /冷|热|暖/.test(word) ? 'temperature' : /响|轻/.test(word) ? 'volume' : /^(?:风|档)/.test(next) ? 'fanSpeed' : /^(?:音量|声)/.test(next) ? 'volume' : null;
    return { ...at(m), v: /全开|开到底|拉满|开满/.test(word) ? '最大' : word, attribute: attr, kind: 'extreme', unit: null };
  }
  const up = s.match(REL_UP);
  const down = s.match(REL_DOWN);
  const rel = up && down ? (up.index! <= down.index! ? up : down) : (up ?? down);
  if (rel) {
    // 调高到60% / 调暗到20%: the word says the direction, the number after 到 is the target
    const target = s.slice(rel.index! + rel[0].length).match(/^(?:到|至)/) ? findValue(s.slice(rel.index! + rel[0].length)) : null;
    if (target) {
      const base = rel.index! + rel[0].length;
      const attr = target.unit === '℃' ? 'temperature' : attributeOfWord(rel[0]);
      return { start: rel.index!, end: base + target.end, v: target.v, attribute: attr, kind: 'absolute', unit: target.unit };
    }
    const sign = rel === up ? '+' : '-';
    // an amount right after the word: 调高两度, 音量加10, 降低五
    const after = s.slice(rel.index! + rel[0].length);
    // (降低百分之十: 百分之 says the unit, and its 百 is not a number)
    const amount = after.match(new RegExp(`^(百分之)?(${NUM})\\s*(度|℃|%|％|档|格)?`));
    const n = amount ? parseNumber(amount[2]) : null;
    const unit = amount?.[1] ? '%' : amount?.[3] ? (/度|℃/.test(amount[3]) ? '℃' : /%|％/.test(amount[3]) ? '%' : amount[3]) : null;
    const end = rel.index! + rel[0].length + (amount && n !== null ? amount[0].length : 0);
    // 一点 is a size, not an amount
    const v = n !== null && !/^一点/.test(after) ? `${sign}${n}${unit ?? ''}` : sign;
    return { start: rel.index!, end, v, attribute: unit === '℃' ? 'temperature' : attributeOfWord(rel[0]), kind: 'relative', unit };
  }
  const found = findValue(s);
  if (found) {
    const attr: ValueAttribute | null = found.unit === '℃' ? 'temperature' : found.unit === '档' ? 'fanSpeed' : found.unit === 'K' ? 'colorTemp' : null;
    return { start: found.start, end: found.end, v: found.v, attribute: attr, kind: 'absolute', unit: found.unit };
  }
  return null;
}

/** The setting named by a word in the clause (亮度, 温度, 音量 …) and its span. */
export function attributeSlot(s: string): (Span & { attribute: ValueAttribute }) | null {
  for (const [re, attribute] of ATTRIBUTE_WORDS) {
    const m = s.match(re);
    if (m) return { start: m.index!, end: m.index! + m[0].length, attribute };
  }
  return null;
}

/** The setting a percentage or bare number means for a kind of device. */
export function attributeForCategory(category: string | null, unit: string | null): ValueAttribute | null {
  switch (category) {
    case 'light':
      return 'brightness';
    case 'curtain':
    case 'window':
    case 'garageDoor':
    case 'valve':
      return 'position';
    case 'humidifier':
    case 'dehumidifier':
      return 'humidity';
    case 'speaker':
    case 'tv':
      return 'volume';
    case 'fan':
    case 'airPurifier':
    case 'freshAir':
    case 'rangeHood':
      return unit === '%' ? 'fanSpeed' : 'fanSpeed';
    case 'airConditioner':
    case 'heater':
    case 'waterHeater':
      return unit === '%' ? null : 'temperature';
    default:
      return null;
  }
}

/** Attribute -> the canonical action that sets it. */
export const SET_ACTION: Record<ValueAttribute, string> = {
  brightness: '调亮度',
  temperature: '调温度',
  volume: '调音量',
  position: '调位置',
  fanSpeed: '调风速',
  humidity: '调湿度',
  colorTemp: '调色温',
  color: '调颜色',
  mode: '设置模式',
  channel: '调节',
  source: '切换信号源',
  content: '播放',
  generic: '调节',
};

/** Verbs that only say "set it" (the value says what): removed so they never become a name. */
export const SET_VERBS = /设置为|设置成|设置到|设定为|设为|设成|设到|设置|调整为|调整到|调整成|调节到|调节为|调节|调整|调到|调成|调至|调为|调在|改成|改为|改到|定到|定在|设在|开到|关到|拉到|放到|升到|降到|换到|转到|调/g;

/** A state question: 空调开着吗, 门锁了吗, 客厅温度多少, 洗衣机洗完了没有. */
/** An inventory question: how many devices, which ones (not their state). */
export const INVENTORY = /有(?:几|多少)|有哪些|有什么|有啥|都有些?(?:什么|啥)|列出|列一下|数一下|一共有/;

export function isQuestion(s: string): boolean {
  if (/开着还是关着|关着还是开着|还是关着|还是开着|的状态$|^状态|状态$/.test(s)) return true;
  // 主卧是不是很热 / 客厅冷吗: asks the temperature (湿度 the same with 潮/干)
  if (/是不是(?:很|太|有点)?(?:热|冷|潮|干燥)|(?:很|太)?(?:热|冷|潮)(?:吗|么)$/.test(s)) return true;
  // 厨房音箱在播什么 / 放的是什么歌: what is playing
  if (/(?:在|正在)(?:播|放)(?:什么|啥|哪)|(?:播|放)的是(?:什么|啥|哪)|什么歌/.test(s)) return true;
  // 客厅亮不亮 / 吵不吵 / 光照强吗: how bright, loud, strong it is
  if (/(亮|暗|吵|响|强|弱|潮|干|闷)不\1|(?:光照|光线|亮度|温度|湿度|音量|风速|声音)(?:很|太)?(?:强|弱|高|低|大|小)(?:吗|么|不(?:强|弱|高|低|大|小))$/.test(s)) return true;
  if (/多少|几度|怎么样|如何|什么状态|什么模式|什么颜色|几档|多久|多长时间|状态如何|多热|多冷|热不热|冷不冷|潮不潮|干不干|高不高|低不低|在干嘛|在干什么|在做什么|在忙什么|在搞什么/.test(s)) return true;
  // 阳台有几个灯 / 书房有哪些设备 / 列出客厅的设备: how many there are, which there are
  if (INVENTORY.test(s)) return true;
  // 阳台灯是不是开着 / 窗帘是否关好: a yes-no question without 吗
  if (/是不是|是否|有没有/.test(s) && /开着|关着|亮着|锁着|锁好|关好|开好|锁上|关上|打开|开了|关了|锁了|在(?:运行|播放|工作)/.test(s)) return true;
  // 有哪些灯开着 / 哪个窗户没关 / 有几盏灯亮着: which ones are in a state
  if (/哪些|哪几|哪个|哪盏|哪台|哪扇|几个|几盏|几台|几扇|几把|几部|几只|多少(?:个|盏|台|扇|把|部|只)?|有没有/.test(s) && /开着|关着|亮着|锁着|没关|没锁|没开|开了|关了|是(?:开|关|亮)的|在(?:运行|播放|工作)/.test(s)) return true;
  // 后门有没有锁 / 窗帘关没关 / 灯开没开: whether it is in that state
  if (/有没有(?:锁|关|开|亮)(?:掉|好|上|着|了)?$|(锁|关|开|亮)没\1/.test(s)) return true;
  // 边啲灯开咗 reads 哪些灯打开: a plural "which" with a state verb asks, it does not command
  // (几个 alone is "a few" in a command: 开几个灯)
  if (/哪些|哪几/.test(s) && /打开|关掉|关闭|亮|开|关/.test(s)) return true;
  // 扫地机在扫地吗 / 洗衣机在工作吗: "is it doing X"
  if (/(?:吗|么|嘛|没有|没|呢)$/.test(s) && /(?:正|还)?在(?:扫|拖|打扫|清扫|运行|播放|放|工作|充电|洗|烘|煮|转|吹|响|亮|开)/.test(s)) return true;
  // 锁咗未 (Cantonese 未 = yet?) reads as 锁了未
  // (窗帘拉上了吗: a cover's own verbs too)
  return /(?:吗|么|嘛|没有|了没|没|呢|未)$/.test(s) && /通电|断电|灭了|熄了|开着|关着|开了|关了|锁了|锁好|锁上|锁着|洗完|好了|在运行|在播放|亮着|关好|开好|打开|关闭|开|关|锁|拉上|拉开|拉好|合上|拉下|放下|降下|升起|收起/.test(s);
}

/** Words of a state question that are not verbs or names. */
export const QUESTION_WORDS = /有多少(?:个|盏|台|只|扇|把|部|套)?|有什么|有啥|都有些?(?:什么|啥)|列出|列一下|数一下|一共有|一共|什么|([亮暗吵响强弱潮干闷])不\1|(?<=光照|光线|亮度|温度|湿度|音量|风速|声音|\s)(?:很|太)?(?:强|弱|高|低|大|小)(?:吗|么|不(?:强|弱|高|低|大|小))$|(?:是|在|开的是?)?什么模式|(?:是|开的是?)?什么颜色|几档|还要多久|还剩多久|多久|多长时间|哪一个|哪个|哪盏|哪台|哪扇|有几扇|有几把|有几部|有几只|几扇|几把|几部|几只|是不是(?:很|太|有点)?(?:热|冷|潮|干燥)|(?:很|太)(?:热|冷|潮)(?:吗|么)?|(?:正在|在)(?:播|放)(?:的是)?(?:什么|啥)(?:歌|节目)?|(?:播|放)的是(?:什么|啥)(?:歌|节目)?|开着还是关着|关着还是开着|还是关着|还是开着|在干嘛|在干什么|在做什么|在忙什么|在搞什么|现在|目前|当前|是不是|是否|有没有|有哪些|哪些|哪几个|哪几|几个|几盏|几台|多热|多冷|热不热|冷不冷|高不高|低不低|没关|没锁|没开|开着|关着|亮着|锁着|锁好|关好|开好|洗完|在运行|在播放|(?:正|还)?在(?:扫地|拖地|打扫|清扫|扫|拖|工作|充电)|怎么样|如何|什么状态|状态|是多少|多少|几度|(?:了)?(?:吗|么|嘛|没有|没|呢|未)$/g;
