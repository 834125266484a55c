import type { AppConfig } from '../../config';
import { homophoneKey } from '../../text/pinyin';
import { norm } from '../home';
import type { HomeIndex } from '../index';
import { DOOR_KINDS, MEDIA_KINDS, SUBTYPES, TYPES, TYPE_LABELS } from '../lexicon';
import type { Entity, Scored } from '../types';
import { CONDITIONS } from '../data';

/**
 * Stage 3 — recall: which entities in the scoped pool the command can mean, by name (exact,
 * homophone, partial), by type, or by embedding, each with its reason code.
 */

export type DevicesConfig = AppConfig['devices'];

/** What recall looks for. Passed explicitly so a retry without the name reads the retry's hint. */
export interface RecallQuery {
  hint: string | null;
  type: string | null;
  roomHit: Map<string, boolean>;
  /** entity id -> cosine(query, entity text), when an embedder is available */
  vector?: Map<string, number>;
}

export function isSubtype(n: string | null): boolean {
  return !!n && n in SUBTYPES;
}

/** 台灯 inside 阳台灯 starts in the middle of the room word 阳台: not a real partial match. */
function splitsRoomWord(rooms: string[], key: string, hint: string): boolean {
  const at = key.indexOf(hint);
  for (const r of rooms) {
    const rs = key.indexOf(r);
    if (rs >= 0 && at > rs && at < rs + r.length) return true;
  }
  return false;
}

/** Name evidence for one entity: exact, homophone (incl. common ASR confusions), partial. */
interface HintKeys {
  hint: string;
  key: string;
  pinyin: string;
  fuzzy: string;
  len: number;
  /** 总阀 said for 总水阀: the hint with its last character read as the two-character type word it ends */
  shortened: string[];
}

const TYPE_WORDS_2 = [...new Set(Object.values(TYPES).flat())].filter((w) => Array.from(w).length === 2);

/** The hint's matching keys, computed once per recall (not once per entity). */
export function hintKeys(hint: string): HintKeys {
  const key = norm(hint);
  const chars = Array.from(key);
  const shortened = chars.length >= 2 ? TYPE_WORDS_2.filter((t) => t.endsWith(chars[chars.length - 1]) && t !== key).map((t) => chars.slice(0, -1).join('') + t) : [];
  return { hint, key, pinyin: homophoneKey(key), fuzzy: homophoneKey(key, { fuzzy: true }), len: chars.length, shortened };
}

/** Below an exact name (1), above a homophone (0.9): the alias is the user's own wording of the name. */
const ALIAS_SCORE = 0.95;

export function nameEvidence(index: HomeIndex, e: Entity, h: HintKeys): { score: number; reason: string | null } {
  const info = index.info.get(e.id)!;
  const { hint, key: hintKey, pinyin: hintPinyin, fuzzy: hintFuzzy, len: hintLen } = h;
  let best = 0;
  let reason: string | null = null;
  info.keys.forEach((k, i) => {
    let s = 0;
    let r: string | null = null;
    if (k === hintKey) [s, r] = [1, 'name_hit'];
    else if (hintPinyin && info.pinyin[i] === hintPinyin && hintLen >= 2) [s, r] = [0.9, 'pinyin_hit'];
    else if (hintFuzzy && info.fuzzy[i] === hintFuzzy && hintLen >= 2) [s, r] = [0.85, 'pinyin_hit'];
    else if (hintLen >= 2 && k.includes(hintKey) && !splitsRoomWord(info.nameRooms, k, hintKey)) [s, r] = [0.5 + 0.3 * (hintLen / Array.from(k).length), 'name_partial'];
    else if (h.shortened.some((x) => k.includes(x))) [s, r] = [0.5 + 0.3 * (hintLen / Array.from(k).length), 'name_partial'];
    else if (hintKey.includes(k) && Array.from(k).length >= 2 && !(k in SUBTYPES)) [s, r] = [0.6, 'name_partial'];
    else if (hintLen >= 3 && !isSubtype(hint) && info.pinyin[i].includes(hintPinyin)) [s, r] = [0.55, 'pinyin_hit'];
    if (s > best) [best, reason] = [s, r];
  });
  // a shorter form of a product name (皓石吸顶灯 for Yeelight皓石吸顶灯Pro) is nearly the name
  if (best < ALIAS_SCORE && info.aliases.includes(hintKey)) [best, reason] = [ALIAS_SCORE, 'name_alias'];
  return { score: best, reason };
}

const READS = Object.fromEntries(CONDITIONS.tables.sensor_reads.map(([re, kind]) => [kind, re])) as Record<string, RegExp>;
const READ_ATTRIBUTE: Record<string, string> = { temperatureSensor: 'temperature', humiditySensor: 'humidity', lightSensor: 'illuminance' };

/** The entity is of the asked kind; a sensor kind also matches any sensor that reads it (温湿度计 for 湿度). */
/** Pseudo-types a command can ask for: media = whatever plays (停止播放 with nothing named). */
// (climate: what heats or cools a room, for a complaint about the air)
// (sensor: 传感器 said alone, every kind that reads something)
const TYPE_FAMILIES: Record<string, string[]> = { media: MEDIA_KINDS, door: DOOR_KINDS, climate: ['airConditioner', 'heater'], sensor: Object.keys(TYPE_LABELS).filter((k) => k.endsWith('Sensor')) };

export function typeMatches(e: Entity, type: string): boolean {
  if (e.category === type) return true;
  if (TYPE_FAMILIES[type]?.includes(e.category)) return true;
  const reads = READS[type];
  if (!reads || !/sensor/i.test(e.category + e.type)) return false;
  if (e.attributes && typeof e.attributes[READ_ATTRIBUTE[type]] === 'number') return true;
  return e.commands.some((c) => reads.test(`${c.description} ${c.id}`));
}

export function recallStage(index: HomeIndex, pool: Entity[], q: RecallQuery, cfg: DevicesConfig): Scored[] {
  const w = cfg.weights;
  const out: Scored[] = [];
  const keys = q.hint ? hintKeys(q.hint) : null;
  for (const e of pool) {
    const reasons: string[] = [];
    let nameScore = 0;
    if (q.hint) {
      const ev = nameEvidence(index, e, keys!);
      nameScore = ev.score;
      if (ev.reason) reasons.push(ev.reason);
    }
    const typeHit = !!q.type && typeMatches(e, q.type);
    const vec = q.vector?.get(e.id) ?? 0;
    const vecHit = vec >= cfg.vectorMin;
    // a real name must be hit by name (or embedding); 台灯 by name; no name: the type, or anything in scope
    const matched = q.hint ? nameScore > 0 || (!isSubtype(q.hint) && vecHit) : q.type ? typeHit : true;
    if (!matched) continue;
    // groups and scenes come in by name only; otherwise they return via collapse
    if (e.kind !== 'device' && nameScore === 0) continue;
    if (typeHit) reasons.push('type_hit');
    if (q.roomHit.has(e.id)) reasons.push(q.roomHit.get(e.id) ? 'room_from_name' : 'room_hit');
    if (vecHit) reasons.push('vector_hit');
    out.push({
      entity: e,
      nameScore,
      reasons,
      cap: 0,
      // the vector channel recalls names lexical matching missed; it does not re-rank lexical name/type matches
      score: w.name * nameScore + w.type * (typeHit ? 1 : 0) + w.room * (q.roomHit.has(e.id) ? 1 : 0) + (q.hint && nameScore === 0 ? w.vector * Math.max(0, vec) : 0),
    });
  }
  // a name that was heard beats anything an embedding thinks is similar
  if (q.hint && out.some((c) => c.nameScore > 0)) return out.filter((c) => c.nameScore > 0);
  return out;
}

/**
 * Kinds of a subtype that stand in for each other: a bedside lamp is the 台灯 of a bedroom, a
 * pendant is its 吸顶灯 (the main light).
 */
const SUBTYPE_KIN: string[][] = [
  ['台灯', '床头灯', '阅读灯', '夜灯', '小夜灯'],
  ['吸顶灯', '主灯', '吊灯', '顶灯'],
  ['筒灯', '射灯'],
  ['灯带', '灯串', '氛围灯'],
];

/**
 * 打开主卧台灯 where no name says 台灯: the devices of that kind whose names say a kindred subtype
 * (床头灯) come first; else those whose names say no subtype of that kind (主卧灯 is the room's main
 * light, not its bedside lamp); else all of them.
 */
export function preferKin(index: HomeIndex, hint: string, cands: Scored[]): Scored[] {
  const type = SUBTYPES[hint];
  if (!type || cands.length < 2) return cands;
  const kin = SUBTYPE_KIN.find((g) => g.includes(hint)) ?? [hint];
  const sameKind = Object.keys(SUBTYPES).filter((w) => SUBTYPES[w] === type);
  const says = (c: Scored, words: string[]) => index.info.get(c.entity.id)!.keys.some((k) => words.some((w) => k.includes(w)));
  const kindred = cands.filter((c) => says(c, kin));
  if (kindred.length) return kindred;
  const plain = cands.filter((c) => !says(c, sameKind));
  return plain.length ? plain : cands;
}
