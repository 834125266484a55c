import type { AppConfig } from '../../config';
import { homophoneKey } from '../../text/pinyin';
import { norm } from '../home';
import type { HomeIndex } from '../index';
import { DOOR_KINDS, MEDIA_KINDS, SUBTYPES, TYPES, TYPE_LABELS } from '../lexicon';
import { capabilityScore, confidentAction, type SimilarityFn } from '../capability';
import type { Entity, QueryIR, RetrievalMeta, Scored } from '../types';
import { CONDITIONS } from '../data';
import { KIND_VOCAB } from '../vocab';

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
// (kinds.json families — climate: what heats or cools a room, for a complaint about the air)
// (sensor: 传感器 said alone, every kind that reads something)
const TYPE_FAMILIES: Record<string, string[]> = { ...KIND_VOCAB.families, media: MEDIA_KINDS, door: DOOR_KINDS, sensor: Object.keys(TYPE_LABELS).filter((k) => k.endsWith('Sensor')) };

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

/** The scope recall reads, with the wider pools its fallbacks may try (computed only when needed). */
export interface RecallScope {
  pool: Entity[];
  roomHit: Map<string, boolean>;
  askedUnknown: boolean;
  /** the broader room an unknown room word belongs to (次卧 -> 卧室) */
  aliasPool: () => Entity[];
  /** the whole home less what the command excludes */
  wholeHome: () => Entity[];
}

/**
 * Recall with its fallbacks, each retry passing its own hint (nothing reads a stale copy): a name that
 * matches nothing still says the kind (a subtype its kin first); a room word the home lacks is read as
 * the broader room; a room that holds nothing that fits widens to the whole home (the gate then asks).
 */
export function recallWithFallbacks(index: HomeIndex, ir: QueryIR, scope: RecallScope, except: Set<string>, meta: RetrievalMeta, cfg: DevicesConfig, vector?: Map<string, number>): Scored[] {
  const without = (list: Entity[]) => (except.size ? list.filter((e) => !except.has(e.id) && !(e.members ?? []).some((m) => except.has(m))) : list);
  const recall = (pool: Entity[], hint: string | null, roomHit = scope.roomHit) => recallStage(index, without(pool), { hint, type: ir.type_hint, roomHit, vector }, cfg);
  let cands = recall(scope.pool, ir.name_hint);
  if (!cands.length && ir.name_hint && ir.type_hint) {
    // a name that matches nothing (小米灯) still says the type; a subtype (台灯) its kin first
    cands = recall(scope.pool, null);
    if (isSubtype(ir.name_hint)) cands = preferKin(index, ir.name_hint, cands);
  }
  if (!cands.length && scope.askedUnknown && !meta.room_alias) {
    // 次卧 matched a name (次卧台灯) but not what was asked (空调): try the room 次卧 is a kind of
    const alias = scope.aliasPool();
    if (alias.length) {
      const again = recall(alias, ir.name_hint, new Map(alias.map((e) => [e.id, false])));
      if (again.length) {
        cands = again;
        meta.room_alias = true;
        meta.name_room_fallback = [];
      }
    }
  }
  if (!cands.length && ir.scope_include.length && meta.scope_fallback === null) {
    // the room exists but nothing in it fits: never return empty because of include alone
    cands = recall(scope.wholeHome(), ir.name_hint, new Map());
    if (!cands.length && ir.name_hint && ir.type_hint) cands = recall(scope.wholeHome(), null, new Map());
    if (cands.length) meta.scope_fallback = 'no_match_in_scope';
  }
  return cands;
}

/**
 * 客厅灯光调到50%: a group named outright whose shared commands cannot do the action stands for its
 * members that can (the dimmable lights of 客厅灯光), all of them (the quantifier becomes all).
 */
export function groupForMembers(index: HomeIndex, cands: Scored[], ir: QueryIR, except: Set<string>, cfg: DevicesConfig, sim?: SimilarityFn): Scored[] {
  const action = ir.action;
  const named = cands.filter((c) => c.nameScore === 1);
  const group = named.length === 1 && named[0].entity.kind === 'group' && confidentAction(action) ? named[0] : null;
  if (!group || capabilityScore(group.entity, action, sim) >= cfg.capabilityMin) return cands;
  const able = (group.entity.members ?? [])
    .map((id) => index.byId.get(id))
    .filter((e): e is Entity => !!e && !except.has(e.id) && capabilityScore(e, action, sim) >= cfg.capabilityMin);
  if (!able.length) return cands;
  ir.quantifier = 'all';
  return able.map((e) => ({ entity: e, score: group.score, nameScore: 1, cap: 0, reasons: [...group.reasons, 'group_covers'] }));
}
