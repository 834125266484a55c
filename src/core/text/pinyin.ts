import { lazyModule } from '../common/lazy';
import { normalizeText } from './normalize';

const pinyinPro = lazyModule<typeof import('pinyin-pro')>('pinyin-pro');

/**
 * Toneless pinyin helpers for matching speech-recognised device names: ASR writes 大柏 for
 * 大白, 老火鸡 for 老伙计. Keys compare readings, not characters.
 */

const cache = new Map<string, string[]>();

/** One toneless syllable per character (non-Han characters kept as themselves, lower-cased). */
export function pinyinSyllables(text: string): string[] {
  const s = normalizeText(text);
  const hit = cache.get(s);
  if (hit) return hit;
  const out = s ? (pinyinPro().pinyin(s, { toneType: 'none', type: 'array' }) as string[]).map((x) => x.toLowerCase()) : [];
  if (cache.size > 20_000) cache.clear();
  cache.set(s, out);
  return out;
}

/** "大白" -> "da bai" */
export function tonelessPinyin(text: string): string {
  return pinyinSyllables(text).join(' ');
}

// Common southern-accent / ASR confusions folded together for the fuzzy key.
function fuzzySyllable(s: string): string {
  return s
    .replace(/^zh/, 'z')
    .replace(/^ch/, 'c')
    .replace(/^sh/, 's')
    .replace(/^l(?=[aeiouv])/, 'n')
    .replace(/^f(?=[aeiou])/, 'h')
    .replace(/ng$/, 'n');
}

/** Key equal for homophones: 大白 / 大柏 -> "dabai". With fuzzy, also zh/z, n/l, in/ing... */
export function homophoneKey(text: string, options: { fuzzy?: boolean } = {}): string {
  const syl = pinyinSyllables(text).filter((x) => x.trim());
  return (options.fuzzy ? syl.map(fuzzySyllable) : syl).join('');
}

/** Keys for every syllable so callers can slide windows over an utterance. */
export function syllableKeys(text: string, options: { fuzzy?: boolean } = {}): string[] {
  const syl = pinyinSyllables(text);
  return options.fuzzy ? syl.map(fuzzySyllable) : syl;
}

export function sameReading(a: string, b: string, options: { fuzzy?: boolean } = {}): boolean {
  const ka = homophoneKey(a, options);
  return ka.length > 0 && ka === homophoneKey(b, options);
}
