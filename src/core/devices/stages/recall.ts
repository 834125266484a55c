import type { AppConfig } from '../../config';
import { homophoneKey } from '../../text/pinyin';
import { norm } from '../home';
import type { HomeIndex } from '../index';
import { SUBTYPES } from '../lexicon';
import type { Entity, Scored } from '../types';

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
export function nameEvidence(index: HomeIndex, e: Entity, hint: string): { score: number; reason: string | null } {
  const info = index.info.get(e.id)!;
  const hintKey = norm(hint);
  const hintPinyin = homophoneKey(hintKey);
  const hintFuzzy = homophoneKey(hintKey, { fuzzy: true });
  const hintLen = Array.from(hintKey).length;
  let best = 0;
  let reason: string | null = null;
  info.keys.forEach((k, i) => {
    let s = 0;
    let r: string | null = null;
    if (k === hintKey) [s, r] = [1, 'name_hit'];
    else if (hintPinyin && info.pinyin[i] === hintPinyin && hintLen >= 2) [s, r] = [0.9, 'pinyin_hit'];
    else if (hintFuzzy && info.fuzzy[i] === hintFuzzy && hintLen >= 2) [s, r] = [0.85, 'pinyin_hit'];
    else if (hintLen >= 2 && k.includes(hintKey) && !splitsRoomWord(info.nameRooms, k, hintKey)) [s, r] = [0.5 + 0.3 * (hintLen / Array.from(k).length), 'name_partial'];
    else if (Array.from(k).length >= 2 && hintKey.includes(k) && !(k in SUBTYPES)) [s, r] = [0.6, 'name_partial'];
    else if (hintLen >= 3 && !isSubtype(hint) && info.pinyin[i].includes(hintPinyin)) [s, r] = [0.55, 'pinyin_hit'];
    if (s > best) [best, reason] = [s, r];
  });
  return { score: best, reason };
}

export function recallStage(index: HomeIndex, pool: Entity[], q: RecallQuery, cfg: DevicesConfig): Scored[] {
  const w = cfg.weights;
  const out: Scored[] = [];
  for (const e of pool) {
    const reasons: string[] = [];
    let nameScore = 0;
    if (q.hint) {
      const ev = nameEvidence(index, e, q.hint);
      nameScore = ev.score;
      if (ev.reason) reasons.push(ev.reason);
    }
    const typeHit = !!q.type && e.category === q.type;
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
