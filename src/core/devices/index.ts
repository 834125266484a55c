import { homophoneKey } from '../text/pinyin';
import { allEntities, entityNames, norm } from './home';
import { ACTIONS, ROOM_ALIASES, ROOM_WORDS, SUBTYPES, TYPES, UNKNOWN_ROOM, longestFirst } from './lexicon';
import type { Entity, Home } from './types';
import { NAMING } from './data';

/** Why a room field cannot be trusted; only then does the room word inside the name count (seed 000). */
export type RoomTrust = 'ok' | 'missing' | 'unknown' | 'conflict';

export interface EntityInfo {
  entity: Entity;
  names: string[];
  /** normalised name and nicknames */
  keys: string[];
  /** homophone keys of name and nicknames */
  pinyin: string[];
  /** the same with common ASR/accent confusions folded (zh/z, n/l, an/ang, h/f …) */
  fuzzy: string[];
  /** room words found inside the name (longest match, non-overlapping) */
  nameRooms: string[];
  /** shorter forms people say for a product name (皓石吸顶灯 / Yeelight吸顶灯 for Yeelight皓石吸顶灯Pro) */
  aliases: string[];
  trust: RoomTrust;
}

/**
 * Everything derived from a home once (names, readings, room words in names), reused by every
 * command of every utterance: the per-utterance path stays a few map lookups (bench target 2 ms).
 */
export interface HomeIndex {
  home: Home;
  entities: Entity[];
  info: Map<string, EntityInfo>;
  byId: Map<string, Entity>;
  /** normalised name/nickname (and name alias) -> entities carrying it */
  byName: Map<string, Entity[]>;
  namesLongestFirst: string[];
  /** homophone key -> names with that reading */
  byPinyin: Map<string, string[]>;
  /** the same with ASR confusions folded */
  byFuzzy: Map<string, string[]>;
  roomWords: string[];
  homeRooms: Set<string>;
  /** floor word (一楼, 2楼, 二层, 楼上, the floor's own name and aliases) -> the rooms on it */
  floorRooms: Map<string, string[]>;
  typeWords: [string, string][];
  /** [phrase, action], longest first: the shipped verbs and the installer's */
  actionPhrases: [string, string][];
  subtypeWords: string[];
  /** device id -> groups containing it */
  groupsOf: Map<string, Entity[]>;
}


export function roomMatches(room: string | null | undefined, want: string): boolean {
  if (!room) return false;
  const r = norm(room);
  const w = norm(want);
  if (!w) return false;
  if (r === w) return true;
  if (ROOM_ALIASES[w]?.some((a) => norm(a) === r)) return true;
  // 主卧室 vs 主卧, 客厅区 vs 客厅
  return (r.length > w.length && r.startsWith(w)) || (w.length > r.length && w.startsWith(r) && r.length >= 2);
}

/** Longest non-overlapping matches of `words` (sorted longest first) inside `text`. */
export function findWords(text: string, words: string[]): { word: string; start: number }[] {
  const taken = new Array<boolean>(text.length).fill(false);
  const out: { word: string; start: number }[] = [];
  // (a word whose first character is not in the text cannot match: skipped without a search)
  const present = new Set(text);
  for (const w of words) {
    if (!present.has(w[0])) continue;
    let from = 0;
    for (;;) {
      const i = text.indexOf(w, from);
      if (i < 0) break;
      let free = true;
      for (let k = i; k < i + w.length; k++) if (taken[k]) free = false;
      if (free) {
        for (let k = i; k < i + w.length; k++) taken[k] = true;
        out.push({ word: w, start: i });
      }
      from = i + 1;
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Model/size suffixes of product names (Pro, 1S, ES65, G10, 2K): droppable, never distinctive. */
const MODEL = /^(?:[a-z]*\d[\w.+-]*|pro|max|plus|mini|lite|se|ultra|air|x)$/;
const MAX_NAME_TOKENS = 7;

/**
 * Shorter forms of a product-style name, as people say them: any of its distinctive words (brand,
 * series) kept in order before the kind word, with or without the model suffix after it —
 * Yeelight皓石吸顶灯Pro -> 皓石吸顶灯, Yeelight吸顶灯, 吸顶灯Pro; 客厅水晶吊灯 -> 水晶吊灯;
 * 米家台灯1S -> 米家台灯, 台灯1S. A name without a kind word or a distinctive word gets none.
 */
const markWordsCache = new WeakMap<string[], { kinds: string[]; words: string[]; rooms: Set<string> }>();

export function nameAliases(key: string, kindWords: string[], roomWords: string[]): string[] {
  // the word list is sorted once per home index (not per name: a 50,000-device home has 50,000 names)
  let cached = markWordsCache.get(roomWords);
  if (!cached || cached.kinds !== kindWords) {
    cached = { kinds: kindWords, words: [...kindWords, ...roomWords].filter((w) => w.length >= 2).sort((a, b) => b.length - a.length), rooms: new Set(roomWords) };
    markWordsCache.set(roomWords, cached);
  }
  const marks = findWords(key, cached.words);
  type Tok = { text: string; kind: 'room' | 'type' | 'word' | 'model' };
  const toks: Tok[] = [];
  let pos = 0;
  const plain = (text: string) => {
    for (const run of text.match(/[a-z0-9.+\-]+|[^a-z0-9.+\-]+/g) ?? []) toks.push({ text: run, kind: /^[a-z0-9.+\-]+$/.test(run) && MODEL.test(run) ? 'model' : 'word' });
  };
  for (const m of marks) {
    if (m.start > pos) plain(key.slice(pos, m.start));
    toks.push({ text: m.word, kind: cached.rooms.has(m.word) ? 'room' : 'type' });
    pos = m.start + m.word.length;
  }
  if (pos < key.length) plain(key.slice(pos));
  if (toks.length > MAX_NAME_TOKENS) return [];
  let head = -1;
  toks.forEach((t, i) => {
    if (t.kind === 'type') head = i;
  });
  if (head < 0) return [];
  const distinct = toks.slice(0, head).filter((t) => t.kind === 'word' && Array.from(t.text).length >= 2 && !NAMING.re.product_prefix.test(t.text));
  const model = toks.slice(head + 1).every((t) => t.kind === 'model') ? toks.slice(head + 1).map((t) => t.text).join('') : '';
  const out = new Set<string>();
  for (let mask = 0; mask < 1 << distinct.length; mask++) {
    const lead = distinct.filter((_, i) => mask & (1 << i)).map((t) => t.text).join('');
    if (!lead && !model) continue;
    if (lead) out.add(lead + toks[head].text);
    if (model) out.add(lead + toks[head].text + model);
  }
  out.delete(key);
  return [...out];
}

const CN_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/** The level a floor's name says: 二楼 / 2F / 三层 -> 2 / 2 / 3, 首层 -> 1, 地下室 / 负一楼 -> -1. */
export function floorLevel(name: string): number | null {
  const n = norm(name);
  if (NAMING.re.ground_floor.test(n)) return 1;
  const m = n.match(NAMING.re.floor_number);
  if (m) {
    const v = /\d/.test(m[2]) ? Number(m[2]) : m[2] === '两' ? 2 : CN_DIGITS.indexOf(m[2]);
    return m[1] ? -v : v;
  }
  if (NAMING.re.basement.test(n)) return -1;
  return null;
}

/**
 * Floor words of a home: each floor's name and aliases, the ways its level is said (二楼, 2楼,
 * 二层, 2f), and 楼上 / 楼下 in a home with floors above ground (楼下 = the lowest floor above
 * ground, 楼上 = every floor above it).
 */
function floorWords(home: Home): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const floors = (home.floors ?? []).map((f, i) => ({ ...f, lv: f.level ?? floorLevel(f.name) ?? i + 1 }));
  const add = (w: string, rooms: string[]) => out.set(norm(w), [...new Set([...(out.get(norm(w)) ?? []), ...rooms])]);
  for (const f of floors) {
    for (const w of [f.name, ...(f.aliases ?? [])]) add(w, f.rooms);
    if (f.lv > 0) {
      const said = f.lv <= 10 ? [CN_DIGITS[f.lv], String(f.lv)] : [String(f.lv)];
      for (const d of said) for (const unit of ['楼', '层']) add(d + unit, f.rooms);
      add(`${f.lv}f`, f.rooms);
      if (f.lv === 2) for (const unit of ['楼', '层']) add(`两${unit}`, f.rooms);
    } else add(`负${CN_DIGITS[-f.lv] ?? -f.lv}楼`, f.rooms);
  }
  // the installer's other words for a room (home file aliases, user vocabulary) stand for that room
  for (const [room, words] of Object.entries(home.roomAliases ?? {})) for (const w of words) add(w, [room]);
  for (const [room, words] of Object.entries(home.vocabulary?.rooms ?? {})) for (const w of words) add(w, [room]);
  const above = floors.filter((f) => f.lv > 0);
  if (above.length > 1) {
    const lowest = Math.min(...above.map((f) => f.lv));
    for (const f of above) add(f.lv === lowest ? '楼下' : '楼上', f.rooms);
  }
  return out;
}

const SHIPPED_PHRASES: [string, string][] = longestFirst(Object.values(ACTIONS).flat()).map((p) => [p, Object.entries(ACTIONS).find(([, list]) => list.includes(p))![0]]);

/** The verbs a parse reads: the shipped ones, plus the installer's (user vocabulary) merged in by length. */
function actionPhrases(home: Home): [string, string][] {
  const extra = Object.entries(home.vocabulary?.actions ?? {}).flatMap(([a, words]) => words.map((w): [string, string] => [norm(w), a]));
  if (!extra.length) return SHIPPED_PHRASES;
  return [...extra, ...SHIPPED_PHRASES].sort((x, y) => y[0].length - x[0].length);
}

const cache = new WeakMap<Home, HomeIndex>();

export function indexHome(home: Home): HomeIndex {
  const hit = cache.get(home);
  if (hit) return hit;
  const entities = allEntities(home);
  const homeRooms = new Set(home.rooms.map(norm));
  const floorRooms = floorWords(home);
  const roomWords = longestFirst([...home.rooms.map(norm), ...ROOM_WORDS, ...floorRooms.keys()]);
  const info = new Map<string, EntityInfo>();
  const byName = new Map<string, Entity[]>();
  const byPinyin = new Map<string, string[]>();
  const byFuzzy = new Map<string, string[]>();
  const kindWords = [...Object.values(TYPES).flat(), ...Object.keys(SUBTYPES)];
  for (const e of entities) {
    const names = entityNames(e);
    const keys = names.map(norm);
    const pinyin = names.map((n) => homophoneKey(norm(n)));
    const fuzzy = names.map((n) => homophoneKey(norm(n), { fuzzy: true }));
    const nameRooms = findWords(norm(e.name), roomWords).map((m) => m.word);
    let trust: RoomTrust = 'ok';
    if (!e.room) trust = e.kind === 'device' ? 'missing' : 'ok';
    else if (UNKNOWN_ROOM.test(e.room)) trust = 'unknown';
    else if (nameRooms.length && !nameRooms.some((r) => roomMatches(e.room, r) || roomMatches(r, e.room!))) trust = 'conflict';
    const aliases = e.kind === 'scene' ? [] : [...new Set(keys.flatMap((k) => nameAliases(k, kindWords, roomWords)))].filter((a) => !keys.includes(a));
    info.set(e.id, { entity: e, names, keys, pinyin, fuzzy, nameRooms, aliases, trust });
    keys.forEach((k, i) => {
      const list = byName.get(k) ?? [];
      list.push(e);
      byName.set(k, list);
      const p = pinyin[i];
      if (p) {
        const pl = byPinyin.get(p) ?? [];
        if (!pl.includes(k)) pl.push(k);
        byPinyin.set(p, pl);
      }
      const f = fuzzy[i];
      if (f) {
        const fl = byFuzzy.get(f) ?? [];
        if (!fl.includes(k)) fl.push(k);
        byFuzzy.set(f, fl);
      }
    });
  }
  // aliases answer only where no real name or nickname says the same words
  const realNames = new Set(byName.keys());
  for (const inf of info.values()) {
    for (const a of inf.aliases) {
      if (realNames.has(a)) continue;
      const list = byName.get(a) ?? [];
      list.push(inf.entity);
      byName.set(a, list);
    }
  }
  const groupsOf = new Map<string, Entity[]>();
  for (const g of home.groups) for (const m of g.members ?? []) groupsOf.set(m, [...(groupsOf.get(m) ?? []), g]);
  const typeWords: [string, string][] = [];
  for (const [t, words] of Object.entries(TYPES)) for (const w of words) typeWords.push([w, t]);
  for (const [t, words] of Object.entries(home.vocabulary?.kinds ?? {})) for (const w of words) typeWords.push([norm(w), t]);
  typeWords.sort((a, b) => b[0].length - a[0].length);
  const index: HomeIndex = {
    home,
    entities,
    info,
    byId: new Map(entities.map((e) => [e.id, e])),
    byName,
    namesLongestFirst: longestFirst(byName.keys()),
    byPinyin,
    byFuzzy,
    roomWords,
    homeRooms,
    floorRooms,
    typeWords,
    subtypeWords: longestFirst(Object.keys(SUBTYPES)),
    actionPhrases: actionPhrases(home),
    groupsOf,
  };
  cache.set(home, index);
  return index;
}
