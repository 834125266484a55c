import { normalizeText } from '../text/normalize';
import { toSimplified } from './traditional';
import { CANONICAL_RULES } from './vocab';

/**
 * One canonical form for utterances AND device/room names, so both sides of every match speak
 * the same words: traditional -> simplified (OpenCC), then the Cantonese and Taiwan words the
 * conversion leaves alone (閂/熄 = 关, 冷氣 = 空调, 主人房 = 主卧, 較/校/扭 = 调 …), then English
 * device words mixed into Chinese (TV, speaker, Roomba, AC).
 */


/** The rewrite rules of vocab/canonical.json, compiled once (the file is checked when the module loads). */
const { english: ENGLISH, dialect: DIALECT } = CANONICAL_RULES;

const cache = new Map<string, string>();

/** Canonical text for matching (utterances and names alike). Memoised. */
export function canonical(text: string): string {
  let v = cache.get(text);
  if (v !== undefined) return v;
  let s = toSimplified(normalizeText(text));
  for (const [re, to] of ENGLISH) s = s.replace(re, to);
  for (const [re, to] of DIALECT) s = s.replace(re, to);
  v = s;
  if (cache.size > 400_000) cache.clear();
  cache.set(text, v);
  return v;
}
