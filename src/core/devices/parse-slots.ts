import { parseChineseNumber } from '../text/chinese-numbers';
import { INVENTORY, QUESTION_WORDS, SET_ACTION, SET_VERBS, attributeForCategory, COMPLAINT_LEAD, attributeSlot, isQuestion, valueSlot } from './grammar';
import { norm } from './home';
import { findWords, roomMatches, type HomeIndex } from './index';
import { DOOR_KINDS, MEDIA_KINDS, SUBTYPES } from './lexicon';
import { KIND_VOCAB } from './vocab';
import { commandActions } from './capability';
import { UNKNOWN_ACTION, type Command, type ValueAttribute } from './types';
import { CLIMATE, COMMON, INTENTS, LIGHTS, LOCKS, MEDIA, NUMBERS, QUESTIONS, VACUUM } from './data';
import { A } from './actions';
import { hasVerb, findHomophone } from './parse-utterance';

/**
 * The parse stage, slot level: one piece of a clause (names already masked) read as slots — reference,
 * count, value and a second setting, attribute, verb, rooms, subtype, kind, name or what is left of it —
 * and the rules that follow from the kind (a lock is opened by unlocking it, a vacuum's home is its dock,
 * a scene said by its event). Words come from the vocabulary files (data.ts).
 */
// (全 before a verb the verb slot already took: 把灯全关了)
const QUANT_ALL = COMMON.re.all;

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
const POWER_ONLY = new Set(KIND_VOCAB.power_only);

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

function takeAll(s: string, re: RegExp): { rest: string; found: string[] } {
  const g = new RegExp(re.source, 'g');
  const found: string[] = [];
  const rest = s.replace(g, (m) => {
    found.push(m);
    return ' ';
  });
  return { rest, found };
}

export interface Partial {
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

export function parsePart(raw: string, masked: Map<string, string>, index: HomeIndex): Partial {
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
    let longest = residual.split(' ').sort((a, b) => b.length - a.length)[0] ?? '';
    // play music on the Sonos -> 播放歌sonos: what is played, glued to a part of a device's name, leaves the name
    const part = longest.replace(MEDIA.re.content_edge, '');
    const inName = (w: string) => index.namesLongestFirst.some((n) => n.includes(norm(w)));
    if (part !== longest && Array.from(part).length >= 2 && !inName(longest) && inName(part)) longest = part;
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
export function actedRoom(p: Partial, index: HomeIndex): string | null {
  if (p.s.length === 1) return p.s[0];
  if (p.s.length || !p.n || p.residual) return null;
  const rooms = new Set((index.byName.get(norm(p.n)) ?? []).map((e) => e.room));
  const [room] = [...rooms];
  return rooms.size === 1 && room ? room : null;
}

export function hasTarget(p: Partial): boolean {
  return !!(p.n || p.t || p.s.length || p.ref || p.q !== 'one');
}
