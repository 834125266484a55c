import { parseChineseNumber } from '../text/chinese-numbers';
import { syllableKeys } from '../text/pinyin';
import { canonical } from './canonical';
import { unknownCommand } from './command-protocol';
import { INVENTORY, QUESTION_WORDS, SET_ACTION, SET_VERBS, attributeForCategory, COMPLAINT_LEAD, attributeSlot, isQuestion, valueSlot } from './grammar';
import { norm } from './home';
import { findWords, indexHome, roomMatches, type HomeIndex } from './index';
import { ACTIONS, DOOR_KINDS, MEDIA_KINDS, SUBTYPES, longestFirst } from './lexicon';
import { parseNumber, valueFromCommand } from './values';
import { commandActions } from './capability';
import { splitCondition } from './conditions';
import { DELAY, takeDelay, takeClockTime, timerCommand, OTHER_INTENTS } from './timing';
import { commandSchema, NOT_DEVICE_ACTION, TIMER_ACTION, TIMER_OPS, UNKNOWN_ACTION, type Command, type OtherIntent, type Condition, type Home, type QueryIR, type Schedule, type ValueAttribute } from './types';
import { CLIMATE, COMMON, CONDITIONS, INTENTS, LIGHTS, LOCKS, MEDIA, NUMBERS, QUESTIONS, TIME, VACUUM } from './data';
import { A } from './actions';

/**
 * Offline rule grammar: utterance -> ordered command array (seed 000 protocol {a,s,n,t,q,c,v,x}).
 * The utterance is first put in canonical form (simplified, Cantonese/Taiwan words, English
 * words; see canonical.ts). Names are masked next (longest match) so separators and room/type
 * words inside a name (卧室灯, 和风扇) never split or re-interpret it. Each clause is then read
 * as slots: condition, exception, reference, count, value, verb, attribute, rooms, type, name.
 */

const ACTION_PHRASES: [string, string][] = longestFirst(Object.values(ACTIONS).flat()).map((p) => [
  p,
  Object.entries(ACTIONS).find(([, list]) => list.includes(p))![0],
]);

const SEPARATORS = COMMON.re.separators;
// (同 is Cantonese 和: 开书房灯同风扇; names are masked before this split)
// (开客厅空调、关主卧空调: 、 lists targets, or whole commands when each has its verb)
const JOINERS = COMMON.re.joiners;
// (全 before a verb the verb slot already took: 把灯全关了)
const QUANT_ALL = COMMON.re.all;
// (除湿机 / 除草机 / 除螨仪: 除 starting an appliance's word is not "except")
const EXCEPT = COMMON.re.except;
const EXCEPT_END = COMMON.re.except_end;
// 上一个台 / 上一个频道 are media steps, not "the previous one"
const REFERENCE = COMMON.re.reference;
// 上一台 / 下一个 / 第一个 are media steps and ordinals, not counts
const COUNT = COMMON.re.count;
// (看不清 / 受不了 after a complaint say why, not what: 书房太暗了看不清)
// (明天早上七点 / 十点钟: when is not a name either; takeClockTime reads it into `at` where it leads the
// command, these catch a time said elsewhere in the clause)
const PARTICLES = COMMON.re.particles;
/** What is played, said instead of a player (暂停音乐, 下一首歌): not a device name. */
// 播放下一首: the verb 播放 left over beside a media step is not a name either
const MEDIA_WORDS = MEDIA.re.content_words;
const MEDIA_ACTIONS = new Set([A.play, A.resume, A.pause, A.stop, A.next, A.previous, A.mute, A.unmute]);
/** Playback steps that need no content: said with nothing named they address the players. */
const MEDIA_STEPS = new Set([A.resume, A.pause, A.stop, A.next, A.previous, A.mute, A.unmute]);
/** Kinds that are only on or off: pausing or stopping one switches it off. */
const POWER_ONLY = new Set(['light', 'humidifier', 'dehumidifier', 'airConditioner', 'fan', 'airPurifier', 'heater', 'freshAir', 'plug', 'switch', 'waterHeater', 'bathHeater', 'rangeHood']);
/** 能帮我把走廊灯打开吗: a request asked politely (a modal before, a command verb right before 吗), not a state question. */
const POLITE_REQUEST = COMMON.re.polite_request;

/** What an appliance does, said instead of its name: 开始洗衣服 -> the washer. */
const ACTIVITY_TYPES = INTENTS.tables.activities as [RegExp, string][];

/**
 * What people say instead of a scene's name (我要睡觉了, 我出门了): the event, and the words a
 * scene for it is named with. Used only when the clause names no device, room or type.
 */
const LIFE_EVENTS = INTENTS.tables.life_events as [RegExp, string[]][];

function lifeEventScene(text: string, index: HomeIndex): string | null {
  for (const [re, words] of LIFE_EVENTS) {
    if (!re.test(text)) continue;
    for (const w of words) {
      const scene = index.home.scenes.find((s) => norm(s.name).includes(w) || s.nicknames.some((n) => norm(n).includes(w)));
      if (scene) return scene.name;
    }
  }
  return null;
}

/** Wake words said before a command (小爱同学，…) and courtesy said after it (…好吗 / 谢谢). */
const WAKE = COMMON.re.wake;
// (运行吗 is a question about running, not 行吗)
const COURTESY_END = COMMON.re.courtesy_end;

/**
 * 别开着了 / 不要亮着了 / 不用开了: asking to stop something being on is turning it off;
 * 别让扫地机扫了 stops it. Rewritten before the grammar reads verbs.
 */
function negationToVerb(body: string): string {
  return body
    // 把声音关掉 is mute, 打开声音 unmute (the player stays on)
    .replace(MEDIA.re.mute_phrase, A.mute)
    // 关闭电视声音 / 关掉客厅电视的声音: the player named between the verb and 声音
    .replace(MEDIA.re.mute_named, '$1静音')
    .replace(MEDIA.re.unmute_named, '$1取消静音')
    .replace(MEDIA.re.unmute_phrase, A.unmute)
    .replace(COMMON.re.dont_keep_on, '关掉')
    .replace(COMMON.re.stop_doing, '停止$1');
}

const OUTDOOR = INTENTS.re.outdoor;

const REMINDER = INTENTS.re.reminder;

/** Greetings, thanks and questions to the assistant itself, said alone (早上好 / 晚安 may run a scene, so they are not here). */
const CHAT = INTENTS.re.chat;

function otherIntent(body: string, index: HomeIndex): Command | null {
  const found = OTHER_INTENTS.find(([re]) => re.test(body));
  if (!found) return null;
  // (空调坏了，打开风扇: a remark beside a command leaves the command)
  if (found[1] === 'other' && hasVerb(body.replace(/[\ue000-\ue0ff]/g, ''))) return null;
  // 如果天气热就开空调 is a device command with a condition; 客厅的温度 names no weather
  // a home with an outdoor sensor answers 外面多少度 itself
  if (found[1] === 'weather' && (CONDITIONS.re.said.test(body) || maskNames(body, index).masked.size > 0 || index.entities.some((e) => OUTDOOR.test(`${e.name} ${e.room ?? ''}`)))) return null;
  return commandSchema.parse({ a: NOT_DEVICE_ACTION, i: found[1], reason: '不是设备指令' });
}

interface Clause {
  text: string;
  masked: Map<string, string>;
  /** words excluded by 除了…(以外) said in this clause or next to it */
  except: string[] | null;
}

const PUA = 0xe000;

/** The names long enough to mask, per home index (computed once, not per utterance). */
const maskable = new WeakMap<HomeIndex, string[]>();

function maskNames(text: string, index: HomeIndex): { text: string; masked: Map<string, string> } {
  const masked = new Map<string, string>();
  let names = maskable.get(index);
  if (!names) maskable.set(index, (names = index.namesLongestFirst.filter((n) => Array.from(n).length >= 2)));
  const hits = findWords(text, names);
  if (!hits.length) return { text, masked };
  let out = '';
  let pos = 0;
  hits.forEach((h, i) => {
    const ch = String.fromCharCode(PUA + i);
    masked.set(ch, h.word);
    out += text.slice(pos, h.start) + ch;
    pos = h.start + h.word.length;
  });
  return { text: out + text.slice(pos), masked };
}

/**
 * Spoken homophones of a known name (大柏 for 大白, 小兴兴 for 小星星): the longest window whose
 * reading equals a name's, exactly first, then with common ASR confusions (zh/z, n/l, in/ing …).
 */
function findHomophone(text: string, index: HomeIndex): string | null {
  const chars = Array.from(text);
  if (chars.length < 2 || index.byPinyin.size === 0) return null;
  for (const fuzzy of [false, true]) {
    const keys = syllableKeys(text, { fuzzy });
    if (keys.length !== chars.length) return null;
    const map = fuzzy ? index.byFuzzy : index.byPinyin;
    for (let len = Math.min(10, chars.length); len >= 2; len--) {
      for (let i = 0; i + len <= chars.length; i++) {
        const window = chars.slice(i, i + len);
        if (window.some((c) => c.charCodeAt(0) >= PUA && c.charCodeAt(0) < PUA + 0x100)) continue;
        const names = map.get(keys.slice(i, i + len).join(''));
        // the name written exactly but not said in one piece (卧室…灯) is not a mishearing
        if (names?.length === 1 && names[0] !== window.join('')) return window.join('');
      }
    }
  }
  return null;
}

function takeAll(s: string, re: RegExp): { rest: string; found: string[] } {
  const g = new RegExp(re.source, 'g');
  const found: string[] = [];
  const rest = s.replace(g, (m) => {
    found.push(m);
    return ' ';
  });
  return { rest, found };
}

interface Partial {
  a: string | null;
  s: string[];
  n: string | null;
  t: string | null;
  q: Command['q'];
  c: number | null;
  ref: boolean;
  v: string | null;
  /** further settings of the same clause (制热 beside 26度) */
  w: { a: string; v: string }[];
  x: string[];
  /** n came from leftover text, not from a known name/subtype (有点暗) */
  residual: boolean;
  question: boolean;
  /** the only "verb" was a complaint (卧室太热了): a remark when another clause says what to do */
  complaint: boolean;
  /** a complaint about the air (好热, 有点冷): for what heats or cools a room */
  air?: boolean;
}

/** What to play without the size words around it (放点周杰伦 / 来几首老歌). */
const playable = (text: string) => text.replace(MEDIA.re.amount_lead, '') || text;

const blankOut = (s: string, start: number, end: number) => s.slice(0, start) + ' '.repeat(end - start) + s.slice(end);

/** Room and type words blanked (same length): 空调 holds 调, 玄关 and 开关 hold 关/开, 打开大柏 is not 开大. */
function blankWords(text: string, index: HomeIndex): string {
  const words = [...index.roomWords, ...index.subtypeWords, ...index.typeWords.map((t) => t[0]).filter((w) => w.length >= 2)];
  return findWords(text, words).reduce((t, m) => t.slice(0, m.start) + '#'.repeat(m.word.length) + t.slice(m.start + m.word.length), text);
}

/** Category of what a clause names (a known name's device, a subtype, a type). */
function categoryOf(p: Partial, index: HomeIndex): string | null {
  if (p.t) return p.t;
  if (p.n) {
    const key = norm(p.n);
    const hits = index.byName.get(key);
    if (hits?.length) return hits[0].category;
    // 入户门 for 入户门锁: a part of names that all are one kind says that kind
    if (Array.from(key).length >= 2) {
      const kinds = new Set<string>();
      for (const [name, list] of index.byName) if (name.includes(key)) for (const e of list) kinds.add(e.category);
      if (kinds.size === 1) return [...kinds][0];
    }
  }
  return null;
}

/**
 * 空调26 / 客厅灯 30 / 客厅空调 制冷 24: a number said last, right after what it is for, in a clause
 * with no verb at all, is that kind's main setting (the action follows from the kind).
 */
function bareTrailingNumber(s: string, index: HomeIndex): ReturnType<typeof valueSlot> {
  if (hasVerb(s)) return null;
  const bare = blankWords(s, index).match(NUMBERS.re.bare_trailing);
  return bare ? { start: bare.index!, end: bare.index! + bare[0].length, v: bare[1], attribute: null, kind: 'absolute', unit: null } : null;
}

/** A kind word in the text for which the home has a device with a mode command (加湿器, 净化器). */
function kindWithModes(text: string, index: HomeIndex): boolean {
  const kinds = index.typeWords.filter(([w]) => text.includes(w)).map(([, t]) => t);
  return kinds.length > 0 && index.entities.some((e) => e.kind === 'device' && kinds.includes(e.category) && e.commands.some((c) => commandActions(c).includes(A.set_mode)));
}

function parsePart(raw: string, masked: Map<string, string>, index: HomeIndex): Partial {
  const p: Partial = { a: null, s: [], n: null, t: null, q: 'one', c: null, ref: false, v: null, w: [], x: [], residual: false, question: false, complaint: false };
  let s = raw;
  // names (already masked as single private-use characters)
  const named = [...masked].filter(([ch]) => s.includes(ch));
  for (const [ch, name] of named) {
    const isScene = index.byName.get(norm(name))?.every((e) => e.kind === 'scene');
    // 把空气净化器调到睡眠模式 / 加湿器开启睡眠模式: a scene's name said with a device (by name, or by a
    // kind of which this home has one with modes) is the device's own mode
    if (isScene && COMMON.re.mode_suffix.test(name) && (named.length > 1 || kindWithModes(s.split(ch).join(' '), index))) {
      p.v = name.replace(COMMON.re.mode_suffix, '');
      s = s.split(ch).join(' ');
      continue;
    }
    if (!p.n) p.n = name;
    // 把入户门锁上 / 入户门锁了吗: a lock's name ending in 锁 also carries the verb's first half
    s = s.split(ch).join(LOCKS.re.lock_suffix.test(name) && new RegExp(ch + LOCKS.src.lock_tail).test(s) ? ' 锁' : ' ');
  }
  const modeFromScene = p.v !== null;
  p.question = isQuestion(s.trim());
  const ref = takeAll(s, REFERENCE);
  if (ref.found.length) {
    p.ref = true;
    if (ref.found.some((f) => COMMON.re.plural_reference.test(f))) p.q = 'all';
    s = ref.rest;
  }
  const count = s.match(COUNT);
  if (count) {
    const n = parseChineseNumber(count[1]);
    if (n && n > 0) p.c = n;
    s = s.replace(count[0], ' ');
  }
  // the value slot (26度, 一半, 调高两度, 最亮, 制冷模式, 红色): decides which setting 调到 means
  let attribute: ValueAttribute | null = null;
  let valueKind: string | null = null;
  if (modeFromScene) attribute = 'mode';
  if (!p.question && !modeFromScene) {
    let value = valueSlot(blankWords(s, index)) ?? bareTrailingNumber(s, index);
    if (value) {
      p.complaint = value.kind === 'relative' && COMPLAINT_LEAD.test(s.slice(value.start));
      s = blankOut(s, value.start, value.end);
      // 制热26度 / 暖光亮度50%: a second setting in the same clause; the number leads (ir.value.number)
      const more = value.kind === 'relative' ? null : (valueSlot(blankWords(s, index)) ?? bareTrailingNumber(s, index));
      if (more && more.kind !== 'relative' && more.attribute !== value.attribute) {
        s = blankOut(s, more.start, more.end);
        const numeric = (x: typeof more) => x.kind === 'absolute' || x.kind === 'extreme';
        const [lead, extra] = numeric(more) && !numeric(value) ? [more, value] : [value, more];
        value = lead;
        if (extra.attribute) p.w.push({ a: SET_ACTION[extra.attribute], v: extra.v });
      }
      p.v = value.v;
      attribute = value.attribute;
      valueKind = value.kind;
    }
  }
  const attr = attributeSlot(s);
  // 百叶帘角度调到45度: 度 of an angle is not a temperature
  if (attr?.attribute === 'position' && attribute === 'temperature') attribute = 'position';
  if (attr) {
    if (!attribute || attribute === 'brightness' || valueKind === 'relative' || valueKind === 'extreme') attribute = attr.attribute === 'color' && attribute === 'color' ? 'color' : attr.attribute;
    s = blankOut(s, attr.start, attr.end);
  }
  const verbText = blankWords(s, index);
  // 把门锁上: the lock verb wins over the type word 门锁 it overlaps
  // (锁前门: a bare 锁 right before a name, where the name was masked, is the verb)
  const lockVerb = s.match(LOCKS.re.lock_verb);
  if (lockVerb) {
    // 打开前门锁 / 开一下前门的锁: 开 before a bare 锁 opens the lock (开锁 split by the name)
    const opener = lockVerb[0] === '锁' ? s.slice(0, lockVerb.index).match(LOCKS.re.opener) : null;
    p.a = LOCKS.re.unlock.test(lockVerb[0]) || opener ? A.unlock : A.lock;
    s = s.replace(lockVerb[0], lockVerb[0] === '锁门' ? ' 门 ' : ' ');
    if (opener) s = s.replace(opener[0], ' ');
  } else {
    for (const [phrase, action] of index.actionPhrases) {
      const i = verbText.indexOf(phrase);
      if (i >= 0) {
        p.a = action;
        s = s.slice(0, i) + ' ' + s.slice(i + phrase.length);
        break;
      }
    }
  }
  // 次卧空调进入睡眠模式: entering / switching on the device's mode sets it
  if (modeFromScene && (!p.a || [A.on, A.run_scene, A.adjust].includes(p.a))) p.a = A.set_mode;
  const setText = blankWords(s, index);
  const hadSetVerb = (setText.match(SET_VERBS) ?? []).length > 0;
  for (const m of setText.matchAll(SET_VERBS)) s = blankOut(s, m.index!, m.index! + m[0].length);
  // 把客厅温度设为25度 where 客厅温度 is a sensor's name: a reading cannot be set, so the name says
  // the room (and the setting) and whatever in that room sets it is meant
  if (p.n && p.v !== null && !p.question && named.length === 1) {
    const hits = index.byName.get(norm(p.n)) ?? [];
    if (hits.length && hits.every((e) => /Sensor$/.test(e.category))) {
      const rooms = findWords(norm(p.n), index.roomWords).map((r) => r.word);
      if (rooms.length) {
        p.s.push(...rooms.filter((r) => !p.s.includes(r)));
        p.n = null;
      }
    }
  }
  // 客厅湿度 / 主卧温度: a room and a reading, nothing to set, is a question
  if (!p.a && !p.v && !hadSetVerb && (attribute === 'temperature' || attribute === 'humidity') && !NUMBERS.re.any_digit.test(s)) p.question = true;
  if (p.question || p.a === A.query) {
    p.question = true;
    p.a = A.query;
    s = s.replace(QUESTION_WORDS, ' ');
    // 客厅温度多少: a reading question targets the sensor, not the thermostat
    const reading = attribute ?? attributeSlot(s)?.attribute ?? (QUESTIONS.re.temperature_question.test(raw) ? 'temperature' : QUESTIONS.re.humidity_question.test(raw) ? 'humidity' : null);
    s = s.replace(QUESTIONS.re.reading_words, ' ');
    if (QUESTIONS.re.light_reading_words.test(raw)) p.t = 'lightSensor';
    // 花园亮度多少 / 客厅亮不亮: brightness asked of a place, no lamp named, is a light sensor's reading where
    // one is (else the lights there answer)
    else if ((reading === 'brightness' || QUESTIONS.re.brightness_question.test(raw)) && !named.length && !LIGHTS.re.lamp_word.test(raw)) {
      const rooms = findWords(s, index.roomWords).map((r) => r.word);
      const sensors = index.entities.filter((e) => e.category === 'lightSensor' && (!rooms.length || rooms.some((r) => roomMatches(e.room, r))));
      p.t = sensors.length ? 'lightSensor' : rooms.length ? 'light' : p.t;
    }
    else if (reading === 'temperature' || reading === 'humidity') p.t = reading === 'temperature' ? 'temperatureSensor' : 'humiditySensor';
  }
  // 所有设备 / 全部电器: no type restriction at all
  s = s.replace(COMMON.re.any_device, ' ');
  const any = takeAll(s, COMMON.re.any_one);
  if (any.found.length) {
    p.q = 'any';
    s = any.rest;
  }
  const all = takeAll(s, QUANT_ALL);
  if (all.found.length) {
    p.q = 'all';
    if (all.found.some((f) => f.startsWith('全屋') || f.startsWith('全家'))) p.s = [];
    s = all.rest;
  }
  // 有哪些窗户开着 / 几盏灯亮着: a question over a set asks about every member, not the best one
  if (p.a === A.query && p.q === 'one' && (QUESTIONS.re.which_many.test(raw) || INVENTORY.test(raw))) p.q = 'all';
  // after quantifiers (所有床头灯 is not 右床头灯), a misheard name (主卧吸定灯, 草平灯) is looked for before room and type words take it apart
  if (!p.n && !named.length) {
    // within one stretch of text: 卧室 + 所有的 + 灯 must not join into the name 卧室灯
    for (const segment of s.split(/\s+/)) {
      const homophone = findHomophone(segment, index);
      if (homophone) {
        p.n = homophone;
        s = s.replace(homophone, ' ');
        break;
      }
    }
  }
  const rooms = findWords(s, index.roomWords);
  for (const r of rooms) p.s.push(r.word);
  for (const r of rooms) s = s.replace(r.word, ' ');
  const sub = findWords(s, index.subtypeWords)[0];
  if (sub) {
    if (!p.t) p.t = SUBTYPES[sub.word];
    if (!p.n) p.n = sub.word;
    s = s.replace(sub.word, ' ');
  }
  // 我要出门了: leaving, not a door
  s = s.replace(LOCKS.re.not_a_door, ' ');
  const type = index.typeWords.find(([w]) => s.includes(w));
  if (type) {
    // 客厅温度传感器多少度 keeps the sensor; 空调现在多少度 / 冰箱几度: a named appliance answers for itself
    const keepSensor = p.question && p.t?.endsWith('Sensor') && /sensor/i.test(type[1]);
    if (!p.t || p.t === type[1] || p.question) p.t = keepSensor ? p.t : type[1];
    s = s.replace(type[0], ' ');
  }
  if (!p.n) {
    const homophone = s.split(/\s+/).map((seg) => findHomophone(seg, index)).find((h) => h) ?? null;
    if (homophone) {
      p.n = homophone;
      s = s.replace(homophone, ' ');
    }
  }
  // 开始洗衣服 / 洗碗机… / 煮饭 / 给花园浇水: the activity names the kind of appliance (and said alone, starts it)
  const act = ACTIVITY_TYPES.find(([re]) => re.test(s));
  if (act && !p.n && (!p.t || p.t === act[1])) {
    p.t = act[1];
    s = s.replace(act[0], ' ');
  }
  if (!p.a && !p.question && ACTIVITY_TYPES.some(([re]) => re.test(raw))) p.a = A.on;
  // 扫地机回家: a vacuum's home is its dock (never the 回家模式 scene)
  if ((p.t === 'robotVacuum' || p.t === 'lawnMower' || ['robotVacuum', 'lawnMower'].includes(categoryOf(p, index) ?? '')) && VACUUM.re.go_home.test(s) && (!p.a || p.a === UNKNOWN_ACTION)) {
    p.a = A.dock;
    s = s.replace(VACUUM.re.go_home, ' ');
  }
  // 门锁上了吗: the question's lock verb also says what is asked about
  if (p.question && lockVerb && !p.t && !p.n) p.t = 'lock';
  // 有没有门没锁: a door asked about by its lock
  if (p.question && p.t === 'door' && LOCKS.re.lock_char.test(raw)) p.t = 'lock';
  // what is left after removing everything known may still be a name hint (小米插座2号), or, beside a
  // named player, what to play (在厨房音箱播放周杰伦)
  if (!p.n || (p.a === A.play && p.v === null)) {
    // 在书房音箱上放: the player said around 在…上 / 在…里
    const residual = s.replace(PARTICLES, ' ').replace(/[\s\d%％.#]+/g, ' ').trim().replace(MEDIA.re.on_player, (m, lead: string, inner: string) => (index.namesLongestFirst.some((n) => n.includes(norm(inner))) ? lead + inner : m));
    const longest = residual.split(' ').sort((a, b) => b.length - a.length)[0] ?? '';
    if (Array.from(longest).length >= 2 && !NUMBERS.re.numeral_only.test(longest) && !MEDIA_WORDS.test(longest)) {
      if (!p.n) {
        p.n = longest;
        p.residual = true;
      } else p.v = playable(longest);
    }
  }
  // 大门 / 正门 / 入户门 with no name: the one door of the entrance (a lock in 玄关, or named 前门/正门/入户)
  // (开门 said plainly where 门 could be a lock or a garage door: the entrance's door too; 锁门 still locks every lock)
  if ((p.t === 'door' || p.t === 'lock') && !p.n && !p.s.length && (LOCKS.re.main_door_said.test(raw) || (p.t === 'door' && !p.question && p.a !== A.lock))) {
    const doors = index.entities.filter((e) => e.kind === 'device' && e.category === 'lock');
    const main = doors.filter((e) => LOCKS.re.main_door_name.test(norm(e.name)) || roomMatches(e.room, '玄关'));
    if (main.length === 1) {
      p.n = main[0].name;
      p.t = 'lock';
      if (p.q === 'all') p.q = 'one';
    }
  }
  // 门: when every door-like device of this home is one kind (only a lock), that kind (开门 unlocks)
  if (p.t === 'door' && lockVerb) p.t = 'lock';
  if (p.t === 'door') {
    const kinds = new Set(index.entities.filter((e) => DOOR_KINDS.includes(e.category)).map((e) => e.category));
    if (kinds.size === 1) p.t = [...kinds][0];
  }
  // the action follows the value: 打开到70% is a position, 调到26度 a temperature
  if (p.v !== null && !p.question) {
    const cat = categoryOf(p, index);
    const unit = valueSlot(p.v)?.unit ?? null;
    const setting = attribute ?? attributeForCategory(cat, unit) ?? (unit === '%' ? 'brightness' : null);
    const settable = !p.a || [A.on, A.off, A.set_mode, A.set_brightness, A.set_temperature, A.set_volume, A.set_fan_speed, A.set_position, A.set_humidity, A.set_color_temp, A.set_color].includes(p.a);
    if (settable) p.a = setting ? SET_ACTION[setting] : A.adjust;
    else if (p.a && ![A.on, A.off, A.play].includes(p.a)) p.v = null; // 暂停两台: a count, not a value (播放 keeps what to play)
  } else if (!p.a && hadSetVerb && attribute) {
    p.a = SET_ACTION[attribute];
  } else if (!p.a && hadSetVerb) p.a = A.adjust;
  // a lock is opened by unlocking it and closed by locking it
  const cat = categoryOf(p, index);
  if (cat === 'lock' && p.a === A.on) p.a = A.unlock;
  if (cat === 'lock' && p.a === A.off) p.a = A.lock;
  // 扫地机继续扫 / 洗衣机继续: what is not a player carries on by starting again
  if (p.a === A.resume && cat && !MEDIA_KINDS.includes(cat)) p.a = cat === 'robotVacuum' || cat === 'lawnMower' ? A.start_cleaning : A.on;
  // 加湿器停一下 / 风扇停下: what only runs or not (no programme, nothing playing) is stopped by switching it off
  if ((p.a === A.pause || p.a === A.stop) && cat && POWER_ONLY.has(cat)) p.a = A.off;
  // 我要睡觉了 / 我出门了: a scene said by the event it is for, when nothing else is named
  if (!p.t && (!p.n || p.residual) && !p.s.length && !p.ref && !p.question && (!p.a || p.a === A.on || p.a === A.run_scene)) {
    const scene = lifeEventScene(raw, index);
    if (scene) {
      p.n = scene;
      p.residual = false;
      p.a = A.run_scene;
    }
  }
  // 好热 / 房间有点冷: a complaint about the air is for what heats or cools a room (never a water heater)
  // (marked here, typed once the clauses are joined: 卧室太热了，开一下空调 stays a remark about the room)
  if (p.complaint && attribute === 'temperature' && !p.t && (!p.n || p.residual) && !p.ref && index.entities.some((e) => e.category === 'airConditioner' || e.category === 'heater')) {
    p.air = true;
    p.n = null;
    p.residual = false;
  }
  // 锁上 / 开始扫地 with nothing named: the kind of device the verb belongs to
  if (!p.t && (!p.n || p.residual) && !p.ref && (p.a === A.lock || p.a === A.unlock)) p.t = 'lock';
  // 锁门 with nothing named locks every lock (the safe direction); 开锁 still asks which
  if (p.a === A.lock && p.t === 'lock' && (!p.n || p.residual) && !p.s.length && !p.ref && p.q === 'one' && !p.c) p.q = 'all';
  if (!p.t && (!p.n || p.residual) && !p.ref && (p.a === A.start_cleaning || p.a === A.dock || (p.a && VACUUM.re.cleaning.test(raw)))) p.t = VACUUM.re.mowing.test(raw) ? 'lawnMower' : 'robotVacuum';
  if (p.a === A.start_cleaning && cat && cat !== 'robotVacuum' && cat !== 'lawnMower') p.a = A.on;
  // 打开主卧的除湿模式 / 制冷: an air conditioner's mode word, nothing named, says the air conditioner
  if (attribute === 'mode' && !p.t && (!p.n || p.residual) && p.v && CLIMATE.re.ac_mode_word.test(p.v) && index.entities.some((e) => e.category === 'airConditioner')) {
    p.t = 'airConditioner';
    p.n = null;
    p.residual = false;
  }
  // 播放周杰伦的歌: what to play is not a player's name unless a device is called so; it is the value
  if (p.a === A.play && p.n && p.residual && !index.namesLongestFirst.some((n) => n.includes(norm(p.n!)))) {
    p.v = playable(p.n);
    p.n = null;
    p.residual = false;
  }
  // 停止播放 / 下一首 with nothing named: whatever plays media; stopping or muting means all of it
  if (p.n && p.residual && p.a && MEDIA_ACTIONS.has(p.a) && MEDIA_WORDS.test(p.n)) {
    p.n = null;
    p.residual = false;
  }
  // (a step of playback said bare — 暂停 / 继续 / 下一首 — is about whatever plays, as a voice assistant reads it;
  // it acts on every player, or on those the home's state says are playing, see the gate)
  if (!p.n && !p.t && !p.ref && p.a && MEDIA_ACTIONS.has(p.a) && (MEDIA.re.music_said.test(raw) || MEDIA_STEPS.has(p.a)) && index.entities.some((e) => MEDIA_KINDS.includes(e.category))) {
    p.t = 'media';
    // (播放 something starts it on one player: which one is asked)
    if (!p.s.length && p.q === 'one' && MEDIA_STEPS.has(p.a)) p.q = 'all';
  }
  // 启动扫地机 starts cleaning; 窗帘停一下 / 车库门暂停 stops a cover
  if ((cat === 'robotVacuum' || cat === 'lawnMower') && p.a === A.on) p.a = A.start_cleaning;
  if ((cat === 'curtain' || cat === 'garageDoor' || cat === 'window' || cat === 'clothesRack') && p.a === A.pause) p.a = A.stop;
  // 激活电影场景 where the scene is 电影模式: 场景 / 情景 said after a scene's own word
  if (p.n && p.residual && COMMON.re.scene_suffix.test(p.n)) {
    const stem = p.n.replace(COMMON.re.scene_suffix, '');
    const scene = stem ? index.home.scenes.find((sc) => norm(sc.name).includes(stem)) : undefined;
    if (scene) {
      p.n = scene.name;
      p.residual = false;
    }
  }
  // 打开回家模式 / 切换到观影模式 / 晚安: a scene is run
  const sceneNamed = p.n ? index.byName.get(norm(p.n)) : undefined;
  if (sceneNamed?.length && sceneNamed.every((e) => e.kind === 'scene' || e.category === 'scene') && (!p.a || [A.on, A.set_mode, A.adjust, A.start_cleaning].includes(p.a))) p.a = A.run_scene;
  return p;
}

/** The one room a command acted in: said (主卧), or the room of the one device it named. */
function actedRoom(p: Partial, index: HomeIndex): string | null {
  if (p.s.length === 1) return p.s[0];
  if (p.s.length || !p.n || p.residual) return null;
  const rooms = new Set((index.byName.get(norm(p.n)) ?? []).map((e) => e.room));
  const [room] = [...rooms];
  return rooms.size === 1 && room ? room : null;
}

function hasTarget(p: Partial): boolean {
  return !!(p.n || p.t || p.s.length || p.ref || p.q !== 'one');
}

/** 除了A和B / 除A以外: the words an exception names (rooms, names, kinds). */
function exceptionWords(inner: string, masked: Map<string, string>, index: HomeIndex): string[] {
  const words = findWords(inner, index.roomWords).map((r) => r.word);
  for (const [ch, name] of masked) if (inner.includes(ch)) words.push(name);
  for (const s of findWords(inner, index.subtypeWords)) words.push(s.word);
  if (!words.length) {
    const rest = inner.replace(COMMON.re.exception_filler, '');
    if (rest) words.push(rest);
  }
  return words;
}

/** Splits 除…(以外) out of a clause; returns the clause without it and the excluded words. */
function takeException(clause: Clause, index: HomeIndex): Clause {
  const text = clause.text;
  // 关掉所有灯但是保留花园灯: what the command keeps, said after it
  const keep = text.match(COMMON.re.keep_after);
  if (keep && keep.index && hasVerb(text.slice(0, keep.index).replace(/[\ue000-\ue0ff]/g, ''))) {
    return { ...clause, text: text.slice(0, keep.index), except: [...(clause.except ?? []), ...exceptionWords(keep[1], clause.masked, index)] };
  }
  const ex = text.match(EXCEPT);
  if (!ex || ex.index === undefined) return clause;
  const after = text.slice(ex.index + ex[0].length);
  let end = after.match(EXCEPT_END);
  // 除了书房其他空调都打开 / 主卧的灯除了床头灯都关了: without 以外 the exception ends where the rest
  // of the command starts (其他, 都, 所有, 把 …)
  const rest = after.match(COMMON.re.exception_rest);
  if (rest?.index && (!end || end.index === 0 || rest.index < end.index!)) end = Object.assign([''], { index: rest.index }) as RegExpMatchArray;
  // 关掉所有灯除了卧室 / 除了柠檬灯: the except span runs to the end of the clause
  const namesAfter = [...clause.masked.keys()].some((ch) => after.includes(ch)) || findWords(after, index.subtypeWords).length > 0;
  if ((!end || end.index === 0) && (findWords(after, index.roomWords).length || namesAfter)) end = Object.assign([''], { index: after.length }) as RegExpMatchArray;
  if (!end || end.index === undefined || end.index === 0) return clause;
  const inner = after.slice(0, end.index);
  const except = exceptionWords(inner, clause.masked, index);
  return { ...clause, text: text.slice(0, ex.index) + ' ' + after.slice(end.index + end[0].length), except: [...(clause.except ?? []), ...except] };
}

const KEEP_CLAUSE = COMMON.re.keep_clause;

const hasVerb = (s: string) => ACTION_PHRASES.some(([p]) => p.length >= 1 && s.includes(p) && !COMMON.re.except_lead.test(p));

/**
 * 左右床头灯 / 前后门 / 主次卧 / 一二楼: two leading characters sharing one tail stand for two names
 * (左床头灯 and 右床头灯) when the home has both; rewritten as "A尾和B尾" so each is matched whole.
 */
const tailWords = new WeakMap<HomeIndex, { words: Set<string>; byFirst: Map<string, string[]> }>();

export function distributeSharedTail(body: string, index: HomeIndex): string {
  // the home's names and room words by first character, built once per home index (not per utterance)
  let t = tailWords.get(index);
  if (!t) {
    const words = new Set([...index.namesLongestFirst, ...index.roomWords].filter((w) => w.length >= 2));
    const byFirst = new Map<string, string[]>();
    for (const w of words) {
      const list = byFirst.get(w[0]);
      if (list) list.push(w);
      else byFirst.set(w[0], [w]);
    }
    tailWords.set(index, (t = { words, byFirst }));
  }
  const { words, byFirst } = t;
  for (let i = 0; i + 2 < body.length; i++) {
    const [a, b] = [body[i], body[i + 1]];
    if (a === b) continue;
    const hit = (byFirst.get(a) ?? [])
      .filter((w) => body.startsWith(w.slice(1), i + 2) && words.has(b + w.slice(1)))
      .sort((x, y) => y.length - x.length)[0];
    if (hit) return body.slice(0, i) + `${hit}和${b}${hit.slice(1)}` + body.slice(i + 1 + hit.length);
  }
  return body;
}

/** Parses one utterance into commands with the rule grammar (no network). */
export function parseRules(text: string, home: Home | HomeIndex): Command[] {
  const index = 'entities' in home && 'info' in home ? (home as HomeIndex) : indexHome(home as Home);
  let body = canonical(text).replace(/\s+/g, '');
  // (before the wake word and the courtesy are taken off: 你好 / 谢谢 said alone are all there is)
  if (CHAT.test(body)) return [commandSchema.parse({ a: NOT_DEVICE_ACTION, i: 'chat', reason: '不是设备指令' })];
  // 半小时后提醒我关火 / 明早叫醒我: a reminder is a note for the user, whatever it mentions (even with a delay)
  if (REMINDER.test(body)) return [commandSchema.parse({ a: NOT_DEVICE_ACTION, i: 'list', reason: '不是设备指令' })];
  // 小爱同学，… is a wake word, but 小爱音箱 / 天猫精灵 may be this home's device names
  const wake = body.match(WAKE);
  if (wake && (/[，,、]$/.test(wake[0]) || !index.namesLongestFirst.some((n) => n.startsWith(norm(wake[0]).slice(0, 2))))) body = body.slice(wake[0].length);
  // trailing sentence particles (锁咗未呀 / 开了没啊) say nothing
  body = negationToVerb(body.replace(COURTESY_END, '').replace(COMMON.re.sentence_particles, ''));
  body = distributeSharedTail(body, index).replace(POLITE_REQUEST, '$1');
  // 十分钟后关灯带，二十分钟后关电视: each clause with its own delay is read on its own
  const delays = [...body.matchAll(new RegExp(DELAY.source, 'g'))];
  if (delays.length >= 2) {
    const cuts = delays.slice(1).map((d) => body.slice(0, d.index).search(COMMON.re.clause_end));
    if (cuts.every((c) => c > 0)) {
      const pieces = [0, ...cuts, body.length].slice(0, -1).map((start, i, all) => body.slice(start, i + 1 < all.length ? all[i + 1] : body.length).replace(/^[，,；;]+/, ''));
      if (pieces.every((p) => hasVerb(p))) return pieces.flatMap((p) => parseRules(p, index));
    }
  }
  const delay = takeDelay(body);
  // 玄关灯打开五分钟后关掉: a delay between two commands delays only the second (it acts on the same device)
  if (delay && hasVerb(delay.before.replace(/[，,]+$/, '')) && hasVerb(delay.after)) {
    const now = parseRules(delay.before, index);
    const all = parseRules(`${delay.before.replace(/[，,]+$/, '')}，然后${delay.after.replace(COMMON.re.then_lead, '')}`, index);
    if (all.length > now.length) return all.map((c, i) => (i >= now.length ? { ...c, d: delay.seconds } : c));
  }
  if (delay) body = delay.body;
  else {
    const other = timerCommand(body) ?? otherIntent(body.replace(/[，,。！!？?]+$/, ''), index);
    if (other) return [other];
  }
  // 明天早上七点打开窗帘: the clock time is when, not what (never act on it now); read after the
  // non-device intents, so 明天天气怎么样 / 明天几号 stay questions about the day
  const clock = delay ? null : takeClockTime(body);
  if (clock) body = clock.body;
  // 明天早上七点的闹钟: an alarm at a time is a note for the user, like a reminder
  if (clock && TIME.re.alarm.test(body)) return [commandSchema.parse({ a: NOT_DEVICE_ACTION, i: 'list', reason: '不是设备指令' })];
  let cond: Condition | null = null;
  const split = splitCondition(body, index);
  if (split) {
    cond = split.cond;
    body = split.rest;
  }
  const { text: maskedText, masked } = maskNames(body, index);
  let clauses: Clause[] = maskedText
    .split(SEPARATORS)
    .map((c) => c.replace(COMMON.re.again_lead, ''))
    .filter((c) => c.trim())
    .map((c) => ({ text: c, masked, except: null }));
  // a clause that is only an exception (…，除了床头灯 / 除了客厅，…) belongs to its neighbour
  const merged: Clause[] = [];
  for (let i = 0; i < clauses.length; i++) {
    const c = clauses[i];
    const m = c.text.match(COMMON.re.exception_clause);
    if (m && !hasVerb(m[1].replace(/[\ue000-\ue0ff]/g, ''))) {
      const words = exceptionWords(m[1], masked, index);
      const target = merged.length ? merged[merged.length - 1] : clauses[i + 1];
      if (target) {
        target.except = [...(target.except ?? []), ...words];
        continue;
      }
    }
    // …，厨房的不要关 / 床头灯留着 / 夜灯不用关: what the previous command must leave alone
    const keep = c.text.match(KEEP_CLAUSE);
    if (keep && merged.length && !hasVerb(keep[1].replace(/[\ue000-\ue0ff]/g, ''))) {
      const target = merged[merged.length - 1];
      target.except = [...(target.except ?? []), ...exceptionWords(keep[1], masked, index)];
      continue;
    }
    merged.push(c);
  }
  clauses = merged.map((c) => takeException(c, index));
  const parts: Partial[] = [];
  const clauseOf = new Map<Partial, number>();
  let clauseNo = 0;
  for (const clause of clauses) {
    const pieces = clause.text.split(JOINERS).filter((x) => x.trim());
    const sub = pieces.map((piece) => parsePart(piece, clause.masked, index));
    // 打开客厅和卧室的灯: parts lacking a type/name borrow from the next part that has one
    for (let i = sub.length - 2; i >= 0; i--) {
      if (!sub[i].t && !sub[i].n && !sub[i].ref) {
        sub[i].t = sub[i + 1].t;
        if (sub[i + 1].n && index.subtypeWords.includes(sub[i + 1].n!)) sub[i].n = sub[i + 1].n;
      }
      if (sub[i].q === 'one' && sub[i + 1].q === 'all') sub[i].q = 'all';
    }
    // 打开客厅的灯和窗帘: a later piece without a room stays in the room of the piece before it
    for (let i = 1; i < sub.length; i++) {
      if (!sub[i].s.length && sub[i - 1].s.length && !sub[i].ref && !(sub[i].n && !index.subtypeWords.includes(sub[i].n!))) sub[i].s = [...sub[i - 1].s];
    }
    // 把客厅和主卧的空调都调到25度: pieces joined by 和 share the verb and the value
    for (let i = 1; i < sub.length; i++) if (!sub[i].a) [sub[i].a, sub[i].v] = [sub[i - 1].a, sub[i].v ?? sub[i - 1].v];
    for (let i = sub.length - 2; i >= 0; i--) if (!sub[i].a) [sub[i].a, sub[i].v] = [sub[i + 1].a, sub[i].v ?? sub[i + 1].v];
    if (clause.except) {
      for (const p of sub) {
        p.q = 'except';
        p.x = clause.except;
        // a name the exception took is not also the target (关掉所有灯除了柠檬灯)
        if (p.n && clause.except.includes(p.n) && !index.subtypeWords.includes(p.n)) p.n = null;
        if (p.n && index.subtypeWords.includes(p.n) && clause.except.includes(p.n)) p.n = null;
      }
    }
    for (const p of sub) clauseOf.set(p, clauseNo);
    clauseNo++;
    parts.push(...sub);
  }
  // 客厅有点暗，把吊灯打开: a verbless remark that only names a room sets the room of what follows
  for (let i = parts.length - 2; i >= 0; i--) {
    const p = parts[i];
    const next = parts[i + 1];
    // (灯，书房的，打开: after a kind still waiting for its verb, the room is that kind's)
    const before = parts[i - 1];
    if (before && !before.a && !before.s.length && (before.t || (before.n && !before.residual))) continue;
    if ((!p.a || p.complaint) && p.s.length && !p.t && !p.ref && (!p.n || p.residual) && next.a && !next.s.length) {
      next.s = p.s;
      parts.splice(i, 1);
    }
  }
  // 窗帘再拉开一些，客厅的: a clause naming only a kind or a device, then one with only the verb, are one
  // command (joined before a later clause that says where narrows it)
  for (let i = 0; i + 1 < parts.length; i++) {
    const [p, next] = [parts[i], parts[i + 1]];
    if (p.a || p.question || p.ref || !(p.t || (p.n && !p.residual)) || clauseOf.get(p) === clauseOf.get(next)) continue;
    if (!next.a || hasTarget(next) || next.question) continue;
    p.a = next.a;
    p.v = p.v ?? next.v;
    p.w = p.w.length ? p.w : next.w;
    p.complaint = next.complaint;
    parts.splice(i + 1, 1);
  }
  // 把主卧窗帘拉上，然后关掉吸顶灯: a kind said without a room in the next clause is looked for
  // in the room the previous clause acted in, when that room has one
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i];
    const prev = parts[i - 1];
    if (clauseOf.get(p) === clauseOf.get(prev) || p.s.length || p.ref || p.q !== 'one' || !p.t || (p.n && !index.subtypeWords.includes(p.n))) continue;
    const room = actedRoom(prev, index);
    if (room && index.entities.some((e) => e.kind === 'device' && roomMatches(e.room, room) && e.category === p.t && (!p.n || norm(e.name).includes(p.n)))) p.s = [room];
  }
  // 关灯，客厅的 / 上一首歌，客厅的音箱 / 把吸顶灯打开，主卧的: a clause that only says where or which
  // (no verb, no value) narrows the command before it when it does not contradict what that one named
  for (let i = parts.length - 1; i >= 1; i--) {
    const p = parts[i];
    const prev = parts[i - 1];
    // (灯，书房的，打开: the clause narrowed may still wait for its verb, when it names a kind or a device)
    if (p.a || p.v || p.ref || p.question || p.residual || clauseOf.get(p) === clauseOf.get(prev) || prev.ref) continue;
    if (!prev.a && !(prev.t || (prev.n && !prev.residual))) continue;
    if (!p.s.length && !p.t && !p.n) continue;
    const sameKind = !p.t || !prev.t || p.t === prev.t || (prev.t === 'media' && MEDIA_KINDS.includes(p.t));
    if (!sameKind || (p.n && prev.n) || (p.s.length && prev.s.length)) continue;
    if (!p.s.length && prev.s.length === 0 && !prev.t && !prev.n) continue;
    // (the 'every player' of a bare 上一首 gives way to the player now named)
    if (prev.t === 'media' && p.t && prev.q === 'all') prev.q = p.q;
    prev.s = prev.s.length ? prev.s : p.s;
    prev.t = p.t ?? prev.t;
    prev.n = prev.n ?? p.n;
    parts.splice(i, 1);
  }
  // a verb-only clause (…然后关掉) applies to the previous target; a target-only clause takes the next verb
  const out: Partial[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const next = parts[i + 1];
    if (!p.a && next && next.a && !hasTarget(next)) {
      p.a = next.a;
      if (!p.v) p.v = next.v;
      out.push(p);
      i++;
      continue;
    }
    if (!p.a && out.length && !p.residual) p.a = out[out.length - 1].a;
    if (p.a && !hasTarget(p) && out.length === 0 && parts.length === 1) p.ref = true;
    // 客厅空调调到26度，并且开到最大风: a later clause with a verb and no target acts on the previous target
    if (p.a && !hasTarget(p) && out.length && hasTarget(out[out.length - 1])) p.ref = true;
    out.push(p);
  }
  // the condition's room is where the command acts when the command names none (客厅温度高于27度就把空调…)
  const commands = out
    .filter((p) => p.a || hasTarget(p))
    .filter((p) => !(out.length > 1 && !p.a && p.residual && !p.t && !p.s.length))
    .filter((p) => !(out.length > 1 && p.complaint && (!p.n || p.residual) && !p.t && !p.s.length))
    .map((p) =>
      commandSchema.parse({
        a: p.a ?? UNKNOWN_ACTION,
        s: p.s.length ? p.s.join('、') : cond?.room && !p.n && p.t ? cond.room : null,
        n: p.n,
        t: p.t ?? (p.air ? 'climate' : null),
        q: p.q,
        c: p.c,
        cond: cond ?? undefined,
        ref: p.ref ? 'last-mentioned' : undefined,
        v: p.v ?? undefined,
        w: p.w.length && p.v !== null ? p.w : undefined,
        x: p.x.length ? p.x.join('、') : undefined,
        d: delay?.seconds,
        at: clock?.at,
        reason: p.a ? undefined : '未识别出动作',
      }),
    );
  if (!commands.length) return [unknownCommand('未识别出任何设备命令')];
  // 我要出门了，开启离家模式: the same scene said twice in a row runs once (a repeated step, 调高一度 twice, stays)
  return commands.filter((c, i) => i === 0 || c.a !== A.run_scene || commands[i - 1].a !== A.run_scene || c.n !== commands[i - 1].n);
}

/**
 * Seed 000: command -> QueryIR. With x (exceptions) s is the include scope; without it, the
 * older form q = except moves s into scope_exclude.
 */
export function commandToIR(cmd: Command): QueryIR {
  const split = (v: string | null | undefined) => (v ? v.split(/[、,，\s]+/).filter(Boolean) : []);
  const rooms = split(cmd.s);
  const except = split(cmd.x);
  const oldExcept = cmd.q === 'except' && !except.length;
  if (cmd.a in TIMER_OPS || cmd.a === NOT_DEVICE_ACTION) {
    return {
      action: cmd.a,
      value: null,
      name_hint: null,
      type_hint: null,
      scope_include: [],
      scope_exclude: [],
      quantifier: 'one',
      count: null,
      conditions: [],
      references: [],
      ...(cmd.a in TIMER_OPS ? { timer: { op: TIMER_OPS[cmd.a as keyof typeof TIMER_OPS], seconds: cmd.d ?? null, text: String(cmd.v ?? '') } } : {}),
      ...(cmd.i ? { intent: cmd.i } : {}),
    };
  }
  const value = valueFromCommand(cmd.v, cmd.a);
  const more = (cmd.w ?? []).map((x) => valueFromCommand(x.v, x.a)).filter((x): x is NonNullable<typeof x> => !!x);
  return {
    ...(cmd.d ? { delay_seconds: cmd.d } : {}),
    ...(cmd.at ? { schedule: cmd.at } : {}),
    action: cmd.a,
    value,
    ...(value && more.length ? { values: [value, ...more] } : {}),
    name_hint: cmd.n,
    type_hint: cmd.t,
    scope_include: oldExcept ? [] : rooms,
    scope_exclude: oldExcept ? rooms : except,
    quantifier: cmd.q,
    count: cmd.c,
    conditions: cmd.cond ? [cmd.cond] : [],
    references: cmd.ref ? [cmd.ref] : [],
  };
}
