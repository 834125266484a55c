import { norm } from '../home';
import { roomMatches, type HomeIndex } from '../index';
import { ROOM_ALIASES, SIMILAR_ROOMS } from '../lexicon';
import { capabilityScore, confidentAction, type SimilarityFn } from '../capability';
import type { DevicesConfig } from './recall';
import { UNKNOWN_ACTION, type ConversationState, type Entity, type QueryIR, type RetrievalMeta, type Scored } from '../types';

/**
 * Stage 2 — scope (seed 000): exclude is always a hard filter; include is a hard filter that
 * falls back (never an empty set); a room word inside a name counts only when the room field
 * cannot be trusted or the asked room is unknown to the home.
 */

export interface ScopeResult {
  pool: Entity[];
  /** entity id -> matched via the name's room word (true) or the room field (false) */
  roomHit: Map<string, boolean>;
  /** the asked room is not one of the home's rooms (阁楼, 次卧 in a home with only 卧室) */
  askedUnknown: boolean;
}

/** 一楼 / 楼上 / 二层: a floor word stands for the rooms on that floor (the word itself stays, for a room so named). */
export function expandFloors(index: HomeIndex, words: string[]): string[] {
  if (!index.floorRooms.size) return words;
  return [...new Set(words.flatMap((w) => [w, ...(index.floorRooms.get(norm(w)) ?? [])]))];
}

/** The asked room is not one of the home's rooms (次卧 in a home with only 卧室). */
export function roomsUnknown(index: HomeIndex, rooms: string[]): boolean {
  return rooms.every((r) => !index.homeRooms.has(norm(r)) && ![...index.homeRooms].some((h) => roomMatches(h, r)));
}

/** Entities whose room is the broader room an unknown word belongs to (主卧/次卧 -> 卧室). */
export function roomAliasPool(pool: Entity[], rooms: string[]): Entity[] {
  const broader = Object.entries(ROOM_ALIASES)
    .filter(([, list]) => rooms.some((r) => list.includes(norm(r))))
    .map(([room]) => room);
  if (!broader.length) return [];
  return pool.filter((e) => broader.some((b) => roomMatches(e.room, b) && norm(e.room!) === b));
}

function roomInclude(index: HomeIndex, e: Entity, rooms: string[], meta: RetrievalMeta, askedUnknown: boolean, byRoom: Map<string | null, boolean>): { hit: boolean; viaName: boolean } {
  if (!rooms.length) return { hit: false, viaName: false };
  // (one answer per room of the home, not per entity: a home of 50,000 devices has a few dozen rooms)
  let inRoom = byRoom.get(e.room);
  if (inRoom === undefined) byRoom.set(e.room, (inRoom = rooms.some((r) => roomMatches(e.room, r))));
  if (inRoom) return { hit: true, viaName: false };
  const info = index.info.get(e.id)!;
  if (info.trust === 'ok' && !askedUnknown) return { hit: false, viaName: false };
  if (info.nameRooms.length > 1) {
    if (info.nameRooms.some((nr) => rooms.some((r) => roomMatches(nr, r)))) meta.uncertain_room_names.push(e.id);
    return { hit: false, viaName: false };
  }
  if (info.nameRooms.length === 1 && rooms.some((r) => roomMatches(info.nameRooms[0], r) || norm(info.nameRooms[0]) === norm(r))) {
    return { hit: true, viaName: true };
  }
  return { hit: false, viaName: false };
}

/** Excluded by room, by name (除了老伙计以外) or, for a group, through a member. */
export function excluded(index: HomeIndex, e: Entity, words: string[]): boolean {
  if (!words.length) return false;
  words = expandFloors(index, words);
  // room words exclude rooms; other words (床头灯, 老伙计) exclude by name only
  const rooms = words.filter((w) => index.roomWords.includes(norm(w)) || index.homeRooms.has(norm(w)));
  if (rooms.some((r) => roomMatches(e.room, r))) return true;
  const info = index.info.get(e.id)!;
  if (words.some((r) => info.keys.includes(norm(r)))) return true;
  if (rooms.some((r) => info.keys.includes(norm(r)))) return true;
  if (info.trust !== 'ok' && info.nameRooms.length === 1 && rooms.some((r) => roomMatches(info.nameRooms[0], r))) return true;
  if (e.kind === 'group' && e.members?.some((m) => excluded(index, index.byId.get(m)!, words))) return true;
  return false;
}

/** Everything not excluded (the pool before include, and the fallback pool). */
export function unexcluded(index: HomeIndex, ir: QueryIR): Entity[] {
  return index.entities.filter((e) => !excluded(index, e, ir.scope_exclude));
}

export function scopeStage(index: HomeIndex, ir: QueryIR, meta: RetrievalMeta): ScopeResult {
  let pool = unexcluded(index, ir);
  const roomHit = new Map<string, boolean>();
  let askedUnknown = false;
  if (ir.scope_include.length) {
    let include = expandFloors(index, ir.scope_include);
    askedUnknown = roomsUnknown(index, include);
    // 所有卧室的空调: every room of that kind, the children's room too
    if (ir.quantifier === 'all' && ir.scope_include.some((w) => !index.homeRooms.has(norm(w)))) include = [...new Set(include.flatMap((w) => [w, ...(SIMILAR_ROOMS[norm(w)] ?? [])]))];
    const byRoom = new Map<string | null, boolean>();
    const inScope = pool.filter((e) => {
      const r = roomInclude(index, e, include, meta, askedUnknown, byRoom);
      if (r.hit) {
        roomHit.set(e.id, r.viaName);
        if (r.viaName) meta.name_room_fallback.push(e.id);
      }
      return r.hit;
    });
    let alias: Entity[] = [];
    if (inScope.length) {
      pool = inScope;
      // 卧室 in a home of 主卧 and 次卧: a word for a kind of room, standing for several of them
      if (ir.scope_include.some((w) => !index.homeRooms.has(norm(w)) && !index.floorRooms.has(norm(w)))) meta.room_kind = true;
    }
    else if (askedUnknown && (alias = roomAliasPool(pool, ir.scope_include)).length) {
      // 主卧 in a home that only has 卧室: the room the word is a kind of
      pool = alias;
      for (const e of pool) roomHit.set(e.id, false);
      meta.room_alias = true;
    } else meta.scope_fallback = 'include_empty';
  }
  return { pool, roomHit, askedUnknown };
}

/** 关掉所有的灯，除了床头灯: names that the command excludes (exception by name or kind). */
export function exceptNames(index: HomeIndex, exclude: string[]): Set<string> {
  const ids = new Set<string>();
  for (const word of exclude) {
    const key = norm(word);
    for (const e of index.entities) {
      const info = index.info.get(e.id)!;
      if (info.keys.some((k) => k === key || (Array.from(key).length >= 2 && k.includes(key)))) ids.add(e.id);
    }
  }
  return ids;
}

/** The ids an exception of this command names (除了床头灯); empty unless the quantifier is except. */
export function exceptedIds(index: HomeIndex, ir: QueryIR): Set<string> {
  return ir.quantifier === 'except' ? exceptNames(index, ir.scope_exclude) : new Set<string>();
}

/** A pool without the excepted devices (and groups with an excepted member). */
export function withoutExcepted(list: Entity[], except: Set<string>): Entity[] {
  return except.size ? list.filter((e) => !except.has(e.id) && !(e.members ?? []).some((m) => except.has(m))) : list;
}

export interface ReferenceScope {
  mode: 'reference' | 'clarify';
  kept: Scored[];
  scored: Scored[];
  filtered: string[];
}

/**
 * 把它关了 / 关掉那个台灯: a reference scopes the command to the last-mentioned entities (seed 004),
 * narrowed to what fits the name or kind said; null when the command is a fresh request (no reference,
 * nothing fits, or nothing was said before and the action is one the home can answer with options).
 * Mutates ir.references when the reference falls away.
 */
export function referenceScope(index: HomeIndex, ir: QueryIR, state: ConversationState, action: string, cfg: DevicesConfig, sim?: SimilarityFn): ReferenceScope | null {
  if (!ir.references.length) return null;
  let last = state.last_mentioned.map((m) => index.byId.get(m.id)).filter((e): e is Entity => !!e);
  if (last.length && (ir.name_hint || ir.type_hint)) {
    // 关掉那个台灯: the reference narrows to what fits; if nothing fits it is a fresh request
    const nk = ir.name_hint ? norm(ir.name_hint) : null;
    last = last.filter((e) => (!ir.type_hint || e.category === ir.type_hint) && (!nk || index.info.get(e.id)!.keys.some((k) => k.includes(nk))));
    if (!last.length) {
      ir.references = [];
      return null;
    }
  }
  if (!last.length) {
    if (action === UNKNOWN_ACTION || !confidentAction(action)) return { mode: 'clarify', kept: [], scored: [], filtered: [] };
    // 关掉 / 停止播放 with nothing said before: read as a fresh request for whatever can do it
    // (the gate asks with real options, seed 000) instead of a question with none
    ir.references = [];
    return null;
  }
  const scored = last.map((e) => ({ entity: e, score: 1, nameScore: 0, cap: action === UNKNOWN_ACTION ? 1 : capabilityScore(e, action, sim), reasons: ['reference'] }));
  const kept = scored.filter((s) => !confidentAction(action) || s.cap >= cfg.capabilityMin);
  return { mode: 'reference', kept, scored, filtered: scored.filter((s) => !kept.includes(s)).map((s) => s.entity.id) };
}
