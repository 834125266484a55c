import { defaultConfig } from '../config';
import { homophoneKey } from '../text/pinyin';
import { norm } from './home';
import { findWords, indexHome, roomMatches } from './index';
import { BARE_TYPE_WORDS, ROOM_ALIASES, SUBTYPES, TYPE_LABELS } from './lexicon';
import type { Entity, Home } from './types';
import type { DevicesConfig } from './retrieve';
import { NAMING } from './data';

export type LintRule =
  | 'same_pinyin'
  | 'edit_distance_1'
  | 'embedding_near_duplicate'
  | 'room_in_name'
  | 'bare_type_name'
  | 'duplicate_in_room'
  | 'too_long'
  | 'instruction_like'
  | 'missing_room'
  | 'alias_collision';

export interface LintIssue {
  rule: LintRule;
  severity: 'error' | 'warning';
  ids: string[];
  names: string[];
  message: string;
  suggestion: string;
}

const INSTRUCTION = NAMING.re.instruction_like;

function editDistance(a: string[], b: string[]): number {
  if (Math.abs(a.length - b.length) > 1) return 2;
  const dp = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) dp[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) dp[i][j] = Math.min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return dp[a.length][b.length];
}

/** 儿童房恐龙造型小夜灯带遥控器版 -> 儿童房小夜灯: room + the most specific kind word in the name. */
function shortName(e: Entity): string {
  const n = norm(e.name);
  const sub = Object.keys(SUBTYPES).filter((w) => n.includes(w)).sort((a, b) => b.length - a.length)[0];
  return `${e.room ?? ''}${sub ?? TYPE_LABELS[e.category] ?? '设备'}`;
}

function label(e: Entity): string {
  return e.room ? `「${e.name}」（${e.room}）` : `「${e.name}」`;
}

/** A concrete rename that differs from the current name: the room in front when that adds something, else a word of purpose. */
function renameHint(e: Entity): string {
  if (e.room && !e.name.startsWith(e.room)) return `例如「${e.room}${e.name}」`;
  return `例如给「${e.name}」加上用途或位置（如「${e.kind === 'scene' ? '晚上' : '左侧'}${e.name}」）`;
}

type Push = (rule: LintRule, severity: LintIssue['severity'], list: Entity[], message: string, suggestion: string) => void;

/**
 * The installer's words (a device's aliases, a room's aliases, the user vocabulary) must not say
 * what something else is already called: 打开大屋 would otherwise reach two things.
 */
function aliasCollisions(index: ReturnType<typeof indexHome>, entities: Entity[], push: Push): void {
  const named = new Map<string, Entity[]>();
  for (const e of entities) for (const n of [e.name, ...e.nicknames]) named.set(norm(n), [...(named.get(norm(n)) ?? []), e]);
  const rooms = new Map(index.home.rooms.map((r) => [norm(r), r]));
  for (const e of entities)
    for (const a of e.aliases ?? []) {
      const others = (named.get(norm(a)) ?? []).filter((o) => o.id !== e.id);
      if (others.length) push('alias_collision', 'error', [e, others[0]], `${label(e)} 的别名「${a}」与${label(others[0])}的名称相同`, `换一个只指向一个设备的别名，例如「${e.room ?? ''}${a}」`);
      else if (rooms.has(norm(a))) push('alias_collision', 'error', [e], `${label(e)} 的别名「${a}」是房间「${rooms.get(norm(a))}」的名字`, '换一个不是房间名的别名');
    }
  const roomOf = new Map<string, string>();
  const words: [string, string, string][] = [
    ...Object.entries(index.home.roomAliases ?? {}).flatMap(([r, ws]) => ws.map((w): [string, string, string] => [w, r, '房间别名'])),
    ...Object.entries(index.home.vocabulary?.rooms ?? {}).flatMap(([r, ws]) => ws.map((w): [string, string, string] => [w, r, '词表中的房间词'])),
  ];
  for (const [w, room, what] of words) {
    const k = norm(w);
    const prev = roomOf.get(k);
    if (prev && prev !== room) push('alias_collision', 'error', [], `${what}「${w}」同时指「${prev}」和「${room}」`, '每个房间别名只给一个房间');
    else if (rooms.has(k) && norm(room) !== k) push('alias_collision', 'error', [], `${what}「${w}」（指「${room}」）是另一个房间「${rooms.get(k)}」的名字`, '换一个不是房间名的词');
    else if (named.has(k)) push('alias_collision', 'error', named.get(k)!.slice(0, 1), `${what}「${w}」（指「${room}」）与${label(named.get(k)![0])}的名称相同`, '换一个不是设备名的词，或给设备改名');
    roomOf.set(k, room);
  }
  for (const [kind, ws] of Object.entries(index.home.vocabulary?.kinds ?? {}))
    for (const w of ws) {
      const hit = named.get(norm(w)) ?? [];
      const other = hit.find((e) => e.category !== kind);
      if (other) push('alias_collision', 'warning', [other], `词表把「${w}」当作一类设备（${TYPE_LABELS[kind] ?? kind}），但${label(other)}也叫这个名字`, '从词表中删去这个词，或给设备改名');
      else if (rooms.has(norm(w))) push('alias_collision', 'warning', [], `词表把房间名「${w}」当作一类设备（${TYPE_LABELS[kind] ?? kind}）`, '从词表中删去这个词');
    }
  for (const [action, ws] of Object.entries(index.home.vocabulary?.actions ?? {}))
    for (const w of ws) {
      const hit = named.get(norm(w));
      if (hit) push('alias_collision', 'warning', hit.slice(0, 1), `词表把「${w}」当作动作「${action}」，但${label(hit[0])}也叫这个名字`, '从词表中删去这个词，或给设备改名');
    }
}

/** 客厅灯12 -> 客厅灯: the stem of a name that ends in a number (numbered names are deliberate). */
const numberStem = (key: string): string | undefined => key.match(/^(.*\D)\d+$/)?.[1];

/**
 * Index pairs (i < j, in order) of names that share a key, a reading or a one-deletion variant
 * (two names one character apart always do); names of one numbered series (客厅灯1 / 客厅灯12) are
 * not paired by variant, the edit-distance rule passes them anyway.
 */
function candidatePairs(items: { key: string; py: string; chars: string[] }[]): [number, number][] {
  const buckets = new Map<string, number[]>();
  const put = (k: string, i: number) => {
    const list = buckets.get(k);
    if (list) list.push(i);
    else buckets.set(k, [i]);
  };
  const stems = items.map((it) => numberStem(it.key));
  items.forEach((it, i) => {
    put(`k${it.key}`, i);
    if (it.py) put(`p${it.py}`, i);
    if (it.chars.length < 2) return;
    put(`v${it.key}`, i);
    for (let k = 0; k < it.chars.length; k++) put(`v${[...it.chars.slice(0, k), ...it.chars.slice(k + 1)].join('')}`, i);
  });
  const pairs = new Set<number>();
  const n = items.length;
  for (const [key, list] of buckets) {
    if (list.length < 2) continue;
    const variant = key[0] === 'v';
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const [i, j] = list[x] < list[y] ? [list[x], list[y]] : [list[y], list[x]];
        if (i === j || (variant && stems[i] !== undefined && stems[i] === stems[j])) continue;
        pairs.add(i * n + j);
      }
  }
  return [...pairs].sort((a, b) => a - b).map((p) => [Math.floor(p / n), p % n]);
}

/**
 * Naming lint for installers: names a voice user or a retriever will confuse, each with a
 * concrete Chinese suggestion. `embed` (when a model is installed) adds near-duplicate detection.
 */
export async function lintHome(
  home: Home,
  options: { config?: DevicesConfig; embed?: (texts: string[], kind: 'query' | 'passage') => Promise<Float32Array[]> } = {},
): Promise<LintIssue[]> {
  const cfg = options.config ?? defaultConfig().devices;
  const index = indexHome(home);
  const issues: LintIssue[] = [];
  const entities = index.entities.filter((e) => e.kind !== 'scene' || true);
  const push = (rule: LintRule, severity: LintIssue['severity'], list: Entity[], message: string, suggestion: string) =>
    issues.push({ rule, severity, ids: list.map((e) => e.id), names: list.map((e) => e.name), message, suggestion });

  for (const e of entities) {
    const n = norm(e.name);
    if (INSTRUCTION.test(e.name)) {
      push('instruction_like', 'error', [e], `${label(e)} 的名称像一条指令，可能被当作提示注入`, `改成描述设备本身的短名称，例如「${shortName(e)}」`);
    }
    const len = Array.from(n).length;
    if (len > cfg.lintMaxNameChars) {
      push('too_long', 'warning', [e], `${label(e)} 的名称有 ${len} 个字，语音里难以完整说出`, `缩短到 ${cfg.lintMaxNameChars} 个字以内，保留房间和类型，例如「${shortName(e)}」`);
    }
    // a bare 冰箱 is fine when it is the only one; 灯 among 40 lights is unfindable
    if (BARE_TYPE_WORDS.has(n) && (n.length <= 1 || index.home.devices.some((o) => o.id !== e.id && o.category === e.category))) {
      push('bare_type_name', 'warning', [e], `${label(e)} 的名称只是类型词，说“打开${e.name}”会匹配所有同类设备`, `加上房间或位置，例如「${e.room ?? '客厅'}${e.name}」`);
    }
    if (e.kind === 'device' && !e.room) {
      push('missing_room', 'warning', [e], `${label(e)} 没有房间`, '在设备文件中填写 room 字段，按房间的指令才能找到它');
    }
    if (e.room) {
      const words = findWords(n, index.roomWords).map((m) => m.word);
      const other = words.filter((w) => !roomMatches(e.room, w) && !roomMatches(w, e.room!) && !(ROOM_ALIASES[w] ?? []).includes(e.room!));
      if (other.length && index.info.get(e.id)?.trust === 'unknown') {
        push('room_in_name', 'warning', [e], `${label(e)} 的房间字段「${e.room}」不是真实房间，名称表明它在「${other[0]}」`, `把房间字段改为「${other[0]}」`);
      } else if (other.length) {
        push('room_in_name', 'warning', [e], `${label(e)} 的名称含有其他房间「${other.join('、')}」，与房间字段「${e.room}」不一致`, `若设备已搬到${e.room}，改名为「${n.replace(other[0], e.room)}」；否则把房间字段改为「${other[0]}」`);
      }
    }
  }

  // pairwise rules over names (and nicknames)
  const items = entities.flatMap((e) => [e.name, ...e.nicknames].map((name) => ({ e, name, key: norm(name), py: homophoneKey(name), chars: Array.from(norm(name)) })));
  const seen = new Set<string>();
  const wordList = [...index.roomWords, ...index.subtypeWords, ...index.typeWords.map((t) => t[0])];
  const wordsOf = new Map<string, string>();
  const kindWords = (x: string) => {
    let v = wordsOf.get(x);
    if (v === undefined) wordsOf.set(x, (v = findWords(x, wordList).map((m) => m.word).sort().join('|')));
    return v;
  };
  // only pairs that can meet a rule are compared (same key, same reading, or one character apart:
  // they share a one-deletion variant), so a 50,000-device home is linted in seconds, not hours
  for (const [i, j] of candidatePairs(items)) {
    {
      const a = items[i];
      const b = items[j];
      if (a.e.id === b.e.id) continue;
      const pair = [a.e.id, b.e.id].sort().join('|');
      if (a.key === b.key) {
        if (a.e.room && a.e.room === b.e.room && !seen.has('dup' + pair)) {
          seen.add('dup' + pair);
          push('duplicate_in_room', 'error', [a.e, b.e], `${a.e.room} 里有两个同名设备「${a.name}」`, `改成可区分的名称，例如「${a.name}（左）」与「${a.name}（右）」或「${a.name}1」「${a.name}2」`);
        }
        continue;
      }
      if (a.py && a.py === b.py && !seen.has('py' + pair)) {
        seen.add('py' + pair);
        push('same_pinyin', 'error', [a.e, b.e], `「${a.name}」与「${b.name}」读音相同（${a.py}），语音识别无法区分`, `把其中一个改成读音不同的名称，${renameHint(b.e)}或换一个昵称`);
        continue;
      }
      if (a.e.category === b.e.category && a.chars.length >= 2 && b.chars.length >= 2 && editDistance(a.chars, b.chars) === 1 && !seen.has('ed' + pair)) {
        // 客厅筒灯1/客厅筒灯2 are deliberate numbering, not confusion
        const diff = a.chars.length === b.chars.length ? a.chars.findIndex((c, k) => c !== b.chars[k]) : -1;
        // (客厅灯1/客厅灯10/客厅灯21 too: one stem, different numbers at the end)
        const numbered =
          (diff >= 0 && NAMING.re.series_marks.test(a.chars[diff]) && NAMING.re.series_marks.test(b.chars[diff])) ||
          (numberStem(a.key) !== undefined && numberStem(a.key) === numberStem(b.key));
        // 客厅空调/餐厅空调 and 吊灯/壁灯 differ by a room or kind word: deliberate, not confusable
        const distinctWords = !numbered && kindWords(a.key) !== kindWords(b.key);
        if (!numbered && !distinctWords) {
          seen.add('ed' + pair);
          push('edit_distance_1', 'warning', [a.e, b.e], `「${a.name}」与「${b.name}」只差一个字，容易说错或听错`, `让两个名称差别更明显，${renameHint(a.e)}`);
        }
      }
    }
  }

  aliasCollisions(index, entities, push);

  if (options.embed) {
    try {
      const devs = entities.filter((e) => e.kind === 'device');
      const vecs = await options.embed(devs.map((d) => d.name), 'passage');
      for (let i = 0; i < devs.length; i++)
        for (let j = i + 1; j < devs.length; j++) {
          let dot = 0;
          for (let k = 0; k < vecs[i].length; k++) dot += vecs[i][k] * vecs[j][k];
          const pair = [devs[i].id, devs[j].id].sort().join('|');
          if (dot >= cfg.lintNearDuplicateCosine && norm(devs[i].name) !== norm(devs[j].name) && !seen.has('py' + pair) && !seen.has('ed' + pair)) {
            push('embedding_near_duplicate', 'warning', [devs[i], devs[j]], `「${devs[i].name}」与「${devs[j].name}」语义几乎相同（相似度 ${dot.toFixed(2)}）`, '在名称里加入房间或位置，让两者在语义上可区分');
          }
        }
    } catch {
      // no model: lexical rules only
    }
  }
  const order: Record<string, number> = { error: 0, warning: 1 };
  return issues.sort((x, y) => order[x.severity] - order[y.severity] || x.rule.localeCompare(y.rule));
}
