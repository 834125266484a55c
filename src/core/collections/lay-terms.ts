import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { normalizeText } from '../text/normalize';
import { queryTokens } from '../text/segment';
import { ContextValue, KeyedCache } from '../common/cache';
import type { CollectionRow } from './store';
import { collectionTerms } from './subject';
import type { LayExpansion, LayTable } from './lay-vocabulary';
import { installedLayVocabulary, installedWords } from './lay-vocabulary-files';

export type { LayExpansion } from './lay-vocabulary';
import { isQuestionWord } from './question-words';

/**
 * Everyday words → the collection's own words, from three sources, first found first:
 * - the installer's vocabulary files (lay-vocabulary-files.ts: resources/collections/lay-vocabulary
 *   and <data dir>/lay-vocabulary, e.g. the shipped power-grid.json: `铁塔` → 杆塔), matched as
 *   written anywhere in the question, kept where the collection's text holds the document word;
 * and, learned, never written by hand:
 * - the collection's definitions (`本条例所称工资，是指…的劳动报酬`: 工资 → 劳动报酬, definitions()) and the groups
 *   it names for short (`境内的企业、个体经济组织…等组织（以下称用人单位）`: 企业 → 用人单位, namedGroups());
 * - rows learned from training questions (resources/collections/lay-vocabulary.json, built by
 *   `npm run learn:lay` from STARD train.jsonl), kept for this collection when its text holds the
 *   statute word and uses the everyday word less than it (`员工` → 劳动者 / 用人单位 in labour
 *   statutes; `公司` stays itself in company law, which says 公司 everywhere);
 * - contractions read from the collection's text: a question word of 2–3 characters the collection
 *   never uses, whose characters the collection writes in order within one phrase, first and last
 *   alike and at most two characters apart (`年假` → 年休假, `停电` → 停止供电, `社保` → 社会保险,
 *   `医保` → 医疗保险), when the phrase occurs at least twice.
 * A question is searched with both (`extra` tokens for BM25), and a chunk holding a statute word
 * counts as holding the everyday word for evidence (`equivalents`), so an article is not penalised
 * for the law's wording. Per collection, rebuilt when its corpus changes (import, re-import).
 */

const EMPTY: LayExpansion = { extra: [], equivalents: [] };

/** Learned rows used per everyday word (best first). */
const LEARNED_PER_WORD = 2;
/** A contraction's phrase must occur this often in the collection. */
const MIN_CONTRACTION_COUNT = 2;

/** The shipped learned table (or an evaluation's own fit), loaded once per context. */
const learned = new ContextValue<{ generation: number; table: LayTable }>('collections.lay-vocabulary');
const perCollection = new KeyedCache<{ version: number; generation: number; stamp: string; words: Map<string, string[]>; defined: Map<string, string[]> }>('collections.lay-words');

/** Replaces the shipped table in this context (evaluations fit it on their learn part only); null: back to the file. */
export function setLayVocabulary(ctx: AppContext, table: LayTable | null): void {
  const cur = learned.get(ctx.state);
  const generation = (cur?.generation ?? 0) + 1;
  learned.set(ctx.state, { generation, table: table ?? readShipped(ctx) });
}

function readShipped(ctx: AppContext): LayTable {
  try {
    const file = path.join(ctx.resourcesDir, 'collections', 'lay-vocabulary.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { table: LayTable }).table ?? {};
  } catch {
    return {}; // a missing or broken resource must not break answering
  }
}

function learnedTable(ctx: AppContext): { generation: number; table: LayTable } {
  let t = learned.get(ctx.state);
  if (!t) learned.set(ctx.state, (t = { generation: 0, table: readShipped(ctx) }));
  return t;
}

/** The everyday word's statute words in this collection ([] when none), cached per collection and word. */
function statuteWords(ctx: AppContext, coll: CollectionRow, word: string, stamp: string): string[] {
  const terms = collectionTerms(ctx, coll);
  const { generation, table } = learnedTable(ctx);
  const cache = perCollection.in(ctx.state);
  let entry = cache.get(coll.name);
  if (!entry || entry.version !== terms.version || entry.generation !== generation || entry.stamp !== stamp) {
    entry = { version: terms.version, generation, stamp, words: new Map(), defined: definitions(terms.text) };
    cache.set(coll.name, entry);
  }
  const hit = entry.words.get(word);
  if (hit) return hit;
  const df = (w: string) => terms.df.get(w) ?? 0;
  // the installer's words first: they know the domain; a document word counts when the text holds it
  const out: string[] = installedWords(ctx, coll.name, word, (v) => df(v) > 0 || terms.text.includes(v));
  // the collection's own definitions: `本条例所称工资，是指…的劳动报酬` — what it says of the genus holds for the term
  for (const v of entry.defined.get(word) ?? []) if (!out.includes(v)) out.push(v);
  // the word's strongest associations only: when this collection lacks them, a weaker one is about another matter
  for (const [v] of (table[word] ?? []).slice(0, LEARNED_PER_WORD)) if (df(v) > 0 && df(word) < df(v) && !out.includes(v)) out.push(v);
  if (df(word) === 0) for (const p of contractions(terms, word)) if (!out.includes(p)) out.push(p);
  entry.words.set(word, out);
  return out;
}

/**
 * Terms the collection defines by their genus (`本条例所称工资，是指农民工为用人单位提供劳动后应当获得的
 * 劳动报酬` → 工资 → 劳动报酬, `所称月工资，是指…的平均工资` → 月工资 → 平均工资): the defined term (2–10
 * characters) and the single word after the definition's last 的 (2–8 characters; a list or a clause
 * there is no genus). Read from the collection's text at import, no table.
 */
export function definitions(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of text.matchAll(/所称([\p{Script=Han}]{2,10}?)[，,]?(?:是指|指)([^。；]{2,160})/gu)) {
    const [, term, body] = m;
    if (!body.includes('的')) continue;
    const genus = body.slice(body.lastIndexOf('的') + 1).trim();
    if (!/^\p{Script=Han}{2,8}$/u.test(genus) || genus === term || genus.includes(term)) continue;
    const list = out.get(term) ?? [];
    if (!list.includes(genus)) list.push(genus);
    out.set(term, list);
  }
  // and the members of a group it names for short: 企业 → 用人单位
  for (const [term, name] of namedGroups(text)) {
    const list = out.get(term) ?? [];
    if (!list.includes(name)) list.push(name);
    out.set(term, list);
  }
  return out;
}

/**
 * Members of a group the collection names for short (`境内的企业、个体经济组织、民办非企业单位等组织（以下称用人单位）`
 * → 企业 → 用人单位, 个体经济组织 → 用人单位; `电力使用者（以下称用户）` → 电力使用者 → 用户): what the text says of the
 * short name holds for each member. Members are the list items (、 和 或者 及) before the parenthesis, 2–8 characters
 * after the last 的 of their item, a closing 等/等组织 left out. Read from the collection's text at import, no table.
 */
export function namedGroups(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of text.matchAll(/([^，。；：（）()]{2,80})[（(]以下(?:简称|称)[“"]?(\p{Script=Han}{2,10})[”"]?[）)]/gu)) {
    const [, phrase, name] = m;
    for (const raw of phrase.split(/、|和|或者|以及|及/u)) {
      const item = raw
        .slice(raw.lastIndexOf('的') + 1)
        .replace(/等[\p{Script=Han}]{0,4}$/u, '')
        .trim();
      if (/^\p{Script=Han}{2,8}$/u.test(item) && item !== name && !name.includes(item) && !out.some(([t, n]) => t === item && n === name)) out.push([item, name]);
    }
  }
  return out;
}

/**
 * What `word` (2–3 characters, unused by the collection) contracts in the collection's text, most
 * frequent first (at most two), each seen at least MIN_CONTRACTION_COUNT times: its characters in
 * order, the first in place and at most two characters between two of them, either one word of the
 * collection whose last two characters hold the word's last one (`社保` → 社会保险, `年假` → 年休假)
 * or, when no word does, a phrase of the text ending with it (`停电` → 停止供电).
 */
export function contractions(terms: { df: Map<string, number>; text: string }, word: string): string[] {
  const chars = [...word];
  if (chars.length < 2 || chars.length > 3 || /[^\p{Script=Han}]/u.test(word)) return [];
  const esc = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const gap = '[\\p{Script=Han}]{0,2}';
  const inWord = new RegExp(`^${chars.map(esc).join(gap)}[\\p{Script=Han}]?$`, 'u');
  const best = (counts: Map<string, number>) =>
    [...counts]
      .filter(([p, n]) => p !== word && n >= MIN_CONTRACTION_COUNT)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 2)
      .map(([p]) => p);
  const words = new Map<string, number>();
  for (const [t, n] of terms.df) if (t.startsWith(chars[0]) && [...t].length > chars.length && inWord.test(t)) words.set(t, n);
  const fromWords = best(words);
  if (fromWords.length) return fromWords;
  const phrases = new Map<string, number>();
  for (const m of terms.text.matchAll(new RegExp(chars.map(esc).join(gap), 'gu'))) phrases.set(m[0], (phrases.get(m[0]) ?? 0) + 1);
  return best(phrases);
}

export function layExpansion(ctx: AppContext, coll: CollectionRow, question: string): LayExpansion {
  const norm = normalizeText(question);
  const all = queryTokens(norm);
  const installed = installedLayVocabulary(ctx);
  // installed everyday words as written in the question, longest first (`电线杆` before `电线`), whatever jieba makes of them
  const written: string[] = [];
  for (const w of [...installed.rows.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)))
    if (norm.includes(w) && !written.some((o) => o.includes(w))) written.push(w);
  // single characters jieba left apart (`年` `假` of 几天年假) may be one everyday word together
  const joined: string[] = [];
  for (let i = 0; i + 1 < all.length; i++) if ([...all[i]].length === 1 && [...all[i + 1]].length === 1) joined.push(all[i] + all[i + 1]);
  const tokens = [...new Set([...all.filter((t) => [...t].length >= 2), ...joined])];
  // search-mode sub-words (压线 of 高压线) are not words of their own
  const own = tokens.filter((t) => !tokens.some((o) => o !== t && o.includes(t)) && !isQuestionWord(t));
  const extra = new Set<string>();
  const equivalents: [string[], string[]][] = [];
  const { df } = collectionTerms(ctx, coll);
  // a word inside an installed word the question uses is that word's part (`电线` of `电线杆`)
  const lookups = [...written, ...own.filter((t) => !written.some((w) => w.includes(t)))];
  for (const w of lookups) {
    const words = statuteWords(ctx, coll, w, installed.stamp);
    if (!words.length) continue;
    // a statute word the index holds as one token stands for itself (社会保险, not 社会 + 保险)
    const statute = [...new Set(words.flatMap((v) => ((df.get(v) ?? 0) > 0 ? [v] : queryTokens(v))))].filter((t) => !own.includes(t));
    if (!statute.length) continue;
    for (const t of statute) extra.add(t);
    // the everyday word as the question's tokens hold it (an installed word jieba splits: its pieces)
    // (pieces the document word shares, 电缆 of 电缆箱 → 电缆分支箱, are matched as themselves)
    const lay = own.includes(w) ? [w] : [...new Set([w, ...all.filter((t) => w.includes(t) && [...t].length >= 2 && !words.some((v) => v.includes(t)))])];
    equivalents.push([lay, statute]);
  }
  return equivalents.length ? { extra: [...extra], equivalents } : EMPTY;
}

/** Adds the everyday tokens to a chunk's token set when it holds one of their statute words. */
export function withLayEquivalents(present: Set<string>, equivalents: LayExpansion['equivalents']): Set<string> {
  for (const [lay, statute] of equivalents) if (statute.some((t) => present.has(t))) for (const t of lay) present.add(t);
  return present;
}
