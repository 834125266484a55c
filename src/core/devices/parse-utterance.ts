import { syllableKeys } from '../text/pinyin';
import { findWords, type HomeIndex } from './index';
import { ACTIONS, longestFirst } from './lexicon';
import { OTHER_INTENTS } from './timing';
import { commandSchema, NOT_DEVICE_ACTION, type Command } from './types';
import { COMMON, CONDITIONS, INTENTS, MEDIA } from './data';
import { A } from './actions';

/**
 * The parse stage, utterance level (before clauses): the verbs the grammar knows (hasVerb), wake words
 * and courtesy, negation said as a verb (别开着了 -> 关掉), requests that are not device commands, the
 * home's names masked as single characters (so separators inside a name never split it), names misheard
 * (homophones), and 左右床头灯-style shared tails. parser.ts sequences these; parse-slots.ts and
 * parse-clauses.ts read what is left.
 */
export const ACTION_PHRASES: [string, string][] = longestFirst(Object.values(ACTIONS).flat()).map((p) => [
  p,
  Object.entries(ACTIONS).find(([, list]) => list.includes(p))![0],
]);

/** 能帮我把走廊灯打开吗: a request asked politely (a modal before, a command verb right before 吗), not a state question. */
export const POLITE_REQUEST = COMMON.re.polite_request;

/** Wake words said before a command (小爱同学，…) and courtesy said after it (…好吗 / 谢谢). */
export const WAKE = COMMON.re.wake;
// (运行吗 is a question about running, not 行吗)
export const COURTESY_END = COMMON.re.courtesy_end;

/**
 * 别开着了 / 不要亮着了 / 不用开了: asking to stop something being on is turning it off;
 * 别让扫地机扫了 stops it. Rewritten before the grammar reads verbs.
 */
export function negationToVerb(body: string): string {
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

export const REMINDER = INTENTS.re.reminder;

/** Greetings, thanks and questions to the assistant itself, said alone (早上好 / 晚安 may run a scene, so they are not here). */
export const CHAT = INTENTS.re.chat;

export function otherIntent(body: string, index: HomeIndex): Command | null {
  const found = OTHER_INTENTS.find(([re]) => re.test(body));
  if (!found) return null;
  // (空调坏了，打开风扇: a remark beside a command leaves the command)
  if (found[1] === 'other' && hasVerb(body.replace(/[\ue000-\ue0ff]/g, ''))) return null;
  // 如果天气热就开空调 is a device command with a condition; 客厅的温度 names no weather
  // a home with an outdoor sensor answers 外面多少度 itself
  if (found[1] === 'weather' && (CONDITIONS.re.said.test(body) || maskNames(body, index).masked.size > 0 || index.entities.some((e) => OUTDOOR.test(`${e.name} ${e.room ?? ''}`)))) return null;
  return commandSchema.parse({ a: NOT_DEVICE_ACTION, i: found[1], reason: '不是设备指令' });
}


export const PUA = 0xe000;

/** The names long enough to mask, per home index (computed once, not per utterance). */
const maskable = new WeakMap<HomeIndex, string[]>();

export function maskNames(text: string, index: HomeIndex): { text: string; masked: Map<string, string> } {
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
export function findHomophone(text: string, index: HomeIndex): string | null {
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

export const hasVerb = (s: string) => ACTION_PHRASES.some(([p]) => p.length >= 1 && s.includes(p) && !COMMON.re.except_lead.test(p));

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
