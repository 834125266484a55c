import { capabilityScore, confidentAction, type SimilarityFn } from '../capability';
import { EXACT_CAPABILITY } from '../lexicon';
import { UNKNOWN_ACTION, type RetrievalMeta, type Scored } from '../types';
import type { DevicesConfig } from './recall';

/**
 * Stage 4 — score: adds the capability match (can this device do the action?) and orders the
 * candidates. A confident action filters devices that cannot do it (seed 001: 打开 never
 * reaches a device that can only 关闭); an unsure one only halves their score.
 */
export function scoreStage(cands: Scored[], action: string, cfg: DevicesConfig, meta: RetrievalMeta, similarity?: SimilarityFn): Scored[] {
  let out = cands;
  if (action !== UNKNOWN_ACTION) {
    for (const c of out) {
      c.cap = capabilityScore(c.entity, action, similarity);
      c.score += cfg.weights.capability * c.cap;
      if (c.cap >= cfg.capabilityMin) c.reasons.push('command_match');
    }
    if (confidentAction(action)) {
      // a setting only some candidates really have (a colour, a track skip, a humidity): when any
      // candidate has the command itself, those that merely approximate it (brightness for a colour) drop out
      const floor = EXACT_CAPABILITY.has(action) && out.some((c) => c.cap >= 1) ? 1 : cfg.capabilityMin;
      meta.capability_filtered = out.filter((c) => c.cap < floor).map((c) => c.entity.id);
      out = out.filter((c) => c.cap >= floor);
    } else {
      for (const c of out) if (c.cap < cfg.capabilityMin) c.score *= 0.5;
    }
  }
  return out.sort((a, b) => b.score - a.score || (a.entity.id < b.entity.id ? -1 : a.entity.id > b.entity.id ? 1 : 0));
}
