import { findValue, parseNumber } from './values';
import type { ValueAttribute } from './types';
import { KIND_VOCAB } from './vocab';
import { CLIMATE, LIGHTS, MEDIA, NUMBERS, QUESTIONS, SETTINGS } from './data';
import { A } from './actions';

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


/** Words that name the setting, in the order they are tried. */
export const ATTRIBUTE_WORDS = SETTINGS.tables.attribute_words as [RegExp, ValueAttribute][];

/** Which setting a relative or extreme word is about, when no attribute word is said. */
function attributeOfWord(word: string): ValueAttribute | null {
  return (SETTINGS.tables.word_attribute.find(([re]) => re.test(word))?.[1] as ValueAttribute | undefined) ?? null;
}

// 太亮了 / 好吵 / 有点冷 / 热死了: a complaint about the current setting (any degree adverb) asks for the opposite change
export const COMPLAINT_LEAD = SETTINGS.re.complaint_lead;
// (太大声 / 太小声: the loudness, not a bare 太大)
const REL_UP = SETTINGS.re.relative_up;
const REL_DOWN = SETTINGS.re.relative_down;
const EXTREME = SETTINGS.re.extreme;
// 制热26度: an air conditioner's mode said bare right before its temperature
const MODE = CLIMATE.re.mode;
/** 高档 / 低风 / 中速 / 自动风: a fan level said as a word (调低风速 is a step, not 低风). */
const FAN_LEVEL = CLIMATE.re.fan_level;
/** 暖光 / 冷白光 / 自然光: a white tone, i.e. a colour temperature said as a word. */
// 暖白 / 冷白 are white tones too, with or without 光/色
const TONE = LIGHTS.re.tone;
// 紫罗兰色 / 天蓝色: a colour word's own suffix before 色; 换个红的 / 来点蓝的: after a change verb 的 says it too
const COLOUR = LIGHTS.re.colour;

// 切换到HDMI1 / 信号源换成机顶盒 / 切到投屏: a TV's input; HDMI/AV ports need no verb, other sources need one
const SOURCE = MEDIA.re.source;

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
    const attr = SETTINGS.re.extreme_brightness.test(word) ? 'brightness' : SETTINGS.re.extreme_temperature.test(word) ? 'temperature' : SETTINGS.re.extreme_volume.test(word) ? 'volume' : SETTINGS.re.extreme_fan_next.test(next) ? 'fanSpeed' : SETTINGS.re.extreme_volume_next.test(next) ? 'volume' : null;
    return { ...at(m), v: SETTINGS.re.extreme_full.test(word) ? '最大' : word, attribute: attr, kind: 'extreme', unit: null };
  }
  const up = s.match(REL_UP);
  const down = s.match(REL_DOWN);
  const rel = up && down ? (up.index! <= down.index! ? up : down) : (up ?? down);
  if (rel) {
    // 调高到60% / 调暗到20%: the word says the direction, the number after 到 is the target
    const target = s.slice(rel.index! + rel[0].length).match(SETTINGS.re.target_lead) ? findValue(s.slice(rel.index! + rel[0].length)) : null;
    if (target) {
      const base = rel.index! + rel[0].length;
      const attr = target.unit === '℃' ? 'temperature' : attributeOfWord(rel[0]);
      return { start: rel.index!, end: base + target.end, v: target.v, attribute: attr, kind: 'absolute', unit: target.unit };
    }
    const sign = rel === up ? '+' : '-';
    // an amount right after the word: 调高两度, 音量加10, 降低五
    const after = s.slice(rel.index! + rel[0].length);
    // (降低百分之十: 百分之 says the unit, and its 百 is not a number)
    const amount = after.match(SETTINGS.re.amount);
    const n = amount ? parseNumber(amount[2]) : null;
    const unit = amount?.[1] ? '%' : amount?.[3] ? (NUMBERS.re.degree_unit.test(amount[3]) ? '℃' : /%|％/.test(amount[3]) ? '%' : amount[3]) : null;
    const end = rel.index! + rel[0].length + (amount && n !== null ? amount[0].length : 0);
    // 一点 is a size, not an amount
    const v = n !== null && !SETTINGS.re.a_little.test(after) ? `${sign}${n}${unit ?? ''}` : sign;
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
  // (kinds.json main_setting: 客厅灯 30 is a brightness; a percentage says nothing about an air conditioner's setting)
  if (!category || (unit === '%' && KIND_VOCAB.no_percent.includes(category))) return null;
  return KIND_VOCAB.main_setting[category] ?? null;
}

/** Attribute -> the canonical action that sets it. */
export const SET_ACTION: Record<ValueAttribute, string> = {
  brightness: A.set_brightness,
  temperature: A.set_temperature,
  volume: A.set_volume,
  position: A.set_position,
  fanSpeed: A.set_fan_speed,
  humidity: A.set_humidity,
  colorTemp: A.set_color_temp,
  color: A.set_color,
  mode: A.set_mode,
  channel: A.adjust,
  source: A.set_source,
  content: A.play,
  generic: A.adjust,
};

/** Verbs that only say "set it" (the value says what): removed so they never become a name. */
export const SET_VERBS = SETTINGS.re.set_verbs;

/** A state question: 空调开着吗, 门锁了吗, 客厅温度多少, 洗衣机洗完了没有. */
/** An inventory question: how many devices, which ones (not their state). */
export const INVENTORY = QUESTIONS.re.inventory;

export function isQuestion(s: string): boolean {
  if (QUESTIONS.re.either_state.test(s)) return true;
  // 主卧是不是很热 / 客厅冷吗: asks the temperature (湿度 the same with 潮/干)
  if (QUESTIONS.re.feels.test(s)) return true;
  // 厨房音箱在播什么 / 放的是什么歌: what is playing
  if (QUESTIONS.re.playing_what.test(s)) return true;
  // 客厅亮不亮 / 吵不吵 / 光照强吗: how bright, loud, strong it is
  if (QUESTIONS.re.how_strong.test(s)) return true;
  if (QUESTIONS.re.how_much.test(s)) return true;
  // 阳台有几个灯 / 书房有哪些设备 / 列出客厅的设备: how many there are, which there are
  if (INVENTORY.test(s)) return true;
  // 阳台灯是不是开着 / 窗帘是否关好: a yes-no question without 吗
  if (QUESTIONS.re.whether.test(s) && QUESTIONS.re.state_words.test(s)) return true;
  // 有哪些灯开着 / 哪个窗户没关 / 有几盏灯亮着: which ones are in a state
  if (QUESTIONS.re.which.test(s) && QUESTIONS.re.state_words_which.test(s)) return true;
  // 后门有没有锁 / 窗帘关没关 / 灯开没开: whether it is in that state
  if (QUESTIONS.re.whether_done.test(s)) return true;
  // 边啲灯开咗 reads 哪些灯打开: a plural "which" with a state verb asks, it does not command
  // (几个 alone is "a few" in a command: 开几个灯)
  if (QUESTIONS.re.which_plural.test(s) && QUESTIONS.re.power_verbs.test(s)) return true;
  // 扫地机在扫地吗 / 洗衣机在工作吗: "is it doing X"
  if (QUESTIONS.re.doing_end.test(s) && QUESTIONS.re.doing.test(s)) return true;
  // 锁咗未 (Cantonese 未 = yet?) reads as 锁了未
  // (窗帘拉上了吗: a cover's own verbs too)
  return QUESTIONS.re.question_end.test(s) && QUESTIONS.re.state_verbs.test(s);
}

/** Words of a state question that are not verbs or names. */
export const QUESTION_WORDS = QUESTIONS.re.question_words;
