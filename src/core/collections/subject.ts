import type { AppContext } from '../context';
import { normalizeText } from '../text/normalize';
import { getJieba, queryTokens, segmentForSearch, tagged } from '../text/segment';
import { corpusVersion } from '../search/lexical';
import { itemTokens } from '../search/tokens';
import fs from 'node:fs';
import path from 'node:path';
import { ContextValue, KeyedCache } from '../common/cache';
import { corpusOf, type CollectionRow } from './store';
import type { LayExpansion } from './lay-vocabulary';
import { isQuestionWord } from './question-words';
import { knownInsideOutside } from './known-answers';

/**
 * Does the collection hold what the question is about? The subject of a question is the thing it
 * names (`红烧排骨`, `铁路线路`): the words of its core (questionCore) weighed by how specific they
 * are IN THIS COLLECTION (idf over its chunks; a word no chunk has is the most specific of all, it
 * names something the collection never mentions). A candidate document holds the subject as much
 * as the weight of those words it contains:
 *
 *   held(doc)   = Σ idf(w) · [w in the document]        / Σ idf(w)   (recipes: a dish is its whole recipe)
 *   held(chunk) = Σ idf(w) · [w in the chunk (+ title)] / Σ idf(w)   (statutes: one article answers)
 *
 * A lock whose document does not hold the subject (held below the profile's threshold, calibrated
 * on the tuning slices of eval/collections-absent.eval.ts against the in-collection questions of
 * the howtocook / collections-laws / collections-stard evaluations) is a different subject that
 * merely shares a word or an ingredient (`红烧排骨` → 糖醋排骨, `宫保虾球` → 宫保鸡丁): the answer
 * becomes not_found, with the near documents offered as alternatives.
 */

interface Unit {
  parent: string;
  tokens: Set<string>;
}

interface SubjectIndex {
  version: number;
  /** chunks of the collection with their tokens (title field + body) */
  units: Map<string, Unit>;
  /** document id -> every token of its chunks */
  docs: Map<string, Set<string>>;
  df: Map<string, number>;
  n: number;
  /** normalised titles and their search tokens (what documents are named with) */
  titles: Map<string, string>;
  titleVocab: Set<string>;
  /** the chunks' plain text, one line each (contractions are read from it: lay-terms.ts) */
  text: string;
  /** document id -> its title and text as written (a modifier is looked up as written, whatever the segmenter made of it) */
  docText: Map<string, string>;
  /** string -> documents writing it (memo of docsWriting) */
  writing: Map<string, number>;
  /** document id -> body token counts and token total (matterNouns: how much a document is about a word) */
  counts: Map<string, { tf: Map<string, number>; total: number }>;
}

const indexes = new KeyedCache<SubjectIndex>('collections.subject');

function subjectIndex(ctx: AppContext, coll: CollectionRow): SubjectIndex {
  const corpus = corpusOf(coll.name);
  const version = corpusVersion(ctx.db, corpus);
  const cache = indexes.in(ctx.state);
  const cached = cache.get(coll.name);
  if (cached && cached.version === version) return cached;
  const rows = ctx.db
    .prepare('SELECT id, key, parent, title, text FROM search_items WHERE corpus = ?')
    .all(corpus) as { id: number; key: string; parent: string; title: string | null; text: string | null }[];
  const rowTokens = itemTokens(ctx.db, rows, { remember: true });
  const units = new Map<string, Unit>();
  const docs = new Map<string, Set<string>>();
  const df = new Map<string, number>();
  const counts = new Map<string, { tf: Map<string, number>; total: number }>();
  for (const [i, r] of rows.entries()) {
    let c = counts.get(r.parent);
    if (!c) counts.set(r.parent, (c = { tf: new Map(), total: 0 }));
    for (const t of rowTokens[i].body.split(' ')) {
      if ([...t].length < 2) continue;
      c.tf.set(t, (c.tf.get(t) ?? 0) + 1);
      c.total++;
    }
    const tokens = new Set(`${rowTokens[i].title} ${rowTokens[i].body}`.split(' ').filter(Boolean));
    units.set(r.key, { parent: r.parent, tokens });
    let d = docs.get(r.parent);
    if (!d) docs.set(r.parent, (d = new Set()));
    for (const t of tokens) {
      d.add(t);
      df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  const titles = new Map<string, string>();
  const titleVocab = new Set<string>();
  for (const r of ctx.db.prepare('SELECT id, title FROM coll_docs WHERE collection_id = ?').all(coll.id) as { id: number; title: string }[]) {
    titles.set(String(r.id), normalizeText(r.title));
    for (const t of segmentForSearch(r.title)) titleVocab.add(t);
  }
  const text = rows.map((r) => (r.text ?? '').replace(/\s+/g, ' ')).join('\n');
  const docText = new Map<string, string>();
  for (const r of rows) docText.set(r.parent, `${docText.get(r.parent) ?? titles.get(r.parent) ?? ''}\n${normalizeText(`${r.title ?? ''} ${r.text ?? ''}`)}`);
  const fresh = { version, units, docs, df, n: Math.max(1, rows.length), titles, titleVocab, text, docText, writing: new Map<string, number>(), counts };
  cache.set(coll.name, fresh);
  return fresh;
}

/** The collection's word statistics (chunk frequencies, chunk count) and plain text, cached with the subject index. */
export function collectionTerms(ctx: AppContext, coll: CollectionRow): { version: number; df: Map<string, number>; n: number; text: string } {
  const idx = subjectIndex(ctx, coll);
  return { version: idx.version, df: idx.df, n: idx.n, text: idx.text };
}

/** Forgets a collection's subject index (re-import, delete). */
export function forgetSubjectIndex(ctx: AppContext, name: string): void {
  indexes.in(ctx.state).delete(name);
}

export interface SubjectWord {
  word: string;
  /** idf over the collection's chunks (a word no chunk holds gets the highest) */
  weight: number;
  /**
   * a word next to the dish words (宫保 + 虾球), before or after them: held by the title, or by the
   * recipe's text (露一手 is not a dish; 速冻 + 饺子 is 速冻水饺, whose text says 饺子 — requiring the
   * title for words after the name stopped 糖醋 + 淀粉 → 糖醋汁 but lost the natural 速冻饺子 question)
   */
  attached?: 'before' | 'after';
}

export interface SubjectCheck {
  words: SubjectWord[];
  /** weighted share of the subject held by the document (recipes) or its best chunk (other profiles) */
  held: number;
  /** subject words the document lacks, most specific first */
  missing: string[];
  /** titles: the weighted share of the name's words the title holds, before the head-word rule (near alternatives share some) */
  shared?: number;
}

/** Question words (data/question-words.json) are no subject; single characters neither (`鱼` alone is, when it is the whole core). */
const NOT_SUBJECT = { test: isQuestionWord };

/**
 * jieba tags of function and status words (adverbs, prepositions, particles, conjunctions, pronouns,
 * numbers, measure words, time, place and direction words, 最舒服-like status words): never part of a name.
 */
const FUNCTION_TAG = /^(?:d|p|u|c|r|y|e|o|m|q|f|t|s|z)/;

/** The subject words of a question core with their collection idf. */
export function subjectWords(ctx: AppContext, coll: CollectionRow, core: string): SubjectWord[] {
  const idx = subjectIndex(ctx, coll);
  const tokens = queryTokens(core).filter((t) => !NOT_SUBJECT.test(t));
  const multi = tokens.filter((t) => [...t].length >= 2);
  const words = multi.length ? multi.filter((t) => !multi.some((o) => o !== t && o.includes(t) && (idx.df.get(o) ?? 0) > 0)) : tokens;
  // search-mode sub-words of a word the collection knows are the same mention counted twice
  return [...new Set(words)].map((w) => ({ word: w, weight: Math.log(1 + (idx.n - (idx.df.get(w) ?? 0) + 0.5) / ((idx.df.get(w) ?? 0) + 0.5)) }));
}

function share(words: SubjectWord[], has: (w: string) => boolean): { held: number; missing: string[] } {
  let all = 0;
  let got = 0;
  const missing: SubjectWord[] = [];
  for (const w of words) {
    all += w.weight;
    if (has(w.word)) got += w.weight;
    else missing.push(w);
  }
  return { held: all > 0 ? got / all : 1, missing: missing.sort((a, b) => b.weight - a.weight).map((w) => w.word) };
}

/** A token set with the everyday words whose statute words it holds (lay-terms.ts). */
function withLay(tokens: Set<string>, lay: LayExpansion['equivalents']): (w: string) => boolean {
  return (w) => tokens.has(w) || lay.some(([everyday, statute]) => everyday.includes(w) && statute.some((t) => tokens.has(t)));
}

/** How much of the question's subject document `docId` holds (as a whole: recipes). */
export function docHoldsSubject(ctx: AppContext, coll: CollectionRow, words: SubjectWord[], docId: number, lay: LayExpansion['equivalents'] = []): SubjectCheck {
  const tokens = subjectIndex(ctx, coll).docs.get(String(docId)) ?? new Set<string>();
  return { words, ...share(words, withLay(tokens, lay)) };
}

/** How much of the question's subject the best of the given chunks holds (one article answers a statute question). */
export function chunksHoldSubject(ctx: AppContext, coll: CollectionRow, words: SubjectWord[], keys: string[], lay: LayExpansion['equivalents'] = []): SubjectCheck {
  const idx = subjectIndex(ctx, coll);
  let best: { held: number; missing: string[] } = { held: 0, missing: words.map((w) => w.word) };
  for (const k of keys) {
    const u = idx.units.get(k);
    if (!u) continue;
    const s = share(words, withLay(u.tokens, lay));
    if (s.held > best.held) best = s;
  }
  return { words, ...best };
}

/** How many documents of the collection write the string (title or text, as written). */
function docsWriting(idx: SubjectIndex, w: string): number {
  let n = idx.writing.get(w);
  if (n === undefined) {
    n = 0;
    for (const t of idx.docText.values()) if (t.includes(w)) n++;
    idx.writing.set(w, n);
  }
  return n;
}

function weightOf(idx: SubjectIndex, w: string): number {
  const df = idx.df.get(w) ?? 0;
  return Math.log(1 + (idx.n - df + 0.5) / (df + 0.5));
}

export interface NamedSubject {
  /** the named thing as written (`红烧排骨`) */
  text: string;
  words: SubjectWord[];
  /** its share of the question core (characters): a dish name is most of `红烧排骨怎么做`, a word of a description is not */
  share: number;
  /** a noun the collection never mentions (no dish word of it named): it is the subject whatever its share */
  unknown?: boolean;
  /** the name's last word (黄焖排骨: 排骨): what the dish is made of; a title lacking it names another dish */
  head?: string;
}

/**
 * The whole name as written around the words a subject was read from (what a not_found answer
 * names): the words joined to them in the core (no 的 or dropped text between) that belong to a
 * name — dish words, words the collection never mentions (a place, 西湖 / 兰州 / 水晶, or a dish it
 * lacks), single-character nouns inside a name (醋 + 鱼) — so 西湖醋鱼 is named whole, not 「西湖」.
 * Only the wording: the words weighed for the decision stay those of the run.
 */
function nameSpan(core: string, words: { word: string; tag: string }[], from: number, to: number, nameWord: (w: { word: string; tag: string }, k: number) => boolean): string {
  const joined = (a: number, b: number) => core.includes(words.slice(a, b + 1).map((w) => w.word).join(''));
  const belongs = (k: number) => nameWord(words[k], k) || ([...words[k].word].length === 1 && /^n/.test(words[k].tag));
  // a place before the name is part of it (重庆 + 鸡公煲) even when the collection mentions the place
  while (from > 0 && [...words[from - 1].word].length >= 2 && (nameWord(words[from - 1], from - 1) || words[from - 1].tag === 'ns') && joined(from - 1, to)) from--;
  while (to + 1 < words.length && belongs(to + 1) && joined(from, to + 1)) to++;
  return words.slice(from, to + 1).map((w) => w.word).join('');
}

/**
 * Two single characters the segmenter split (香 + 煎) that at least two titles of the collection write
 * together are one word of a dish name (香煎, as in 香煎五花肉 and 香煎翘嘴鱼).
 */
function rejoined(words: { word: string; tag: string }[], titles: string[]): { word: string; tag: string }[] {
  const out: { word: string; tag: string }[] = [];
  for (let k = 0; k < words.length; k++) {
    const a = words[k];
    const b = words[k + 1];
    if (b && [...a.word].length === 1 && [...b.word].length === 1 && !FUNCTION_TAG.test(a.tag) && !FUNCTION_TAG.test(b.tag) && titles.filter((t) => t.includes(a.word + b.word)).length >= 2) {
      out.push({ word: a.word + b.word, tag: 'n' });
      k++;
    } else out.push(a);
  }
  return out;
}

/**
 * The thing a recipe question names: the longest run of words of the core that are dish-name words
 * of this collection (a title word, or inside a title) together with the nouns and unknown words
 * attached to them (`宫保` + `虾球`, `红烧` + `带鱼`, `羊肉串`). Null when the question names no dish
 * (a description, `今天天气怎么样`… still gets the weak-evidence rules).
 */
export function namedSubject(ctx: AppContext, coll: CollectionRow, core: string): NamedSubject | null {
  const idx = subjectIndex(ctx, coll);
  const titleText = [...idx.titles.values()];
  const words = rejoined(tagged(core), titleText);
  if (!words.length) return null;
  // a dish-name word: titles use it for a good share of the documents that mention it at all
  // (排骨, 红烧, 鸡丁), unlike description words that one title happens to hold (家常, 口感)
  const titleShare = (w: string) => {
    const inTitles = titleText.filter((t) => t.includes(w)).length;
    if (!inTitles) return 0;
    let inDocs = 0;
    for (const d of idx.docs.values()) if (d.has(w)) inDocs++;
    return inTitles / Math.max(inTitles, inDocs);
  };
  const minShare = ctx.config.collections.dishWordTitleShare;
  const dishy = (w: string) => !NOT_SUBJECT.test(w) && [...w].length >= 2 && titleShare(w) >= minShare;
  // nouns attach to a dish word (宫保 + 虾球, 京酱 + 肉丝); verbs, particles and colloquial words end the name
  // (a word many recipes use, 不粘锅 or 面皮, is about cooking, not part of a name)
  const docsWith = (w: string) => {
    let n = 0;
    for (const d of idx.docs.values()) if (d.has(w) && ++n > 2) break;
    return n;
  };
  // an ingredient noun right after the dish word is the head of the name (黄焖 + 羊肉, 红烧 + 鸡块: the
  // dish is the 羊肉, not any 黄焖 dish); before it, a noun many recipes use (不粘锅, 面皮) is about cooking.
  // eval/collections-absent.eval.ts tuning parts, wrong locks on absent dishes: round 1 16.7 → 13.3 %,
  // round 3 31.3 → 18.8 %, switches to an absent subject (round 3) 2 of 9 → 0; howtocook natural and
  // title questions unchanged (one natural question, 炒河粉怎么才不粘锅, kept by the whole-title rule below)
  // the segmenter's part-of-speech tag is no guide to a name the collection does not use (带鱼 comes
  // tagged as a verb): a dictionary word the collection never mentions, in no chunk and no title, right
  // after the dish word is the head of the name whatever its tag (糖醋 + 带鱼: not 糖醋汁). Words the
  // segmenter made up itself (tag x: 炒个, 要放, 老是 — pieces of the question around the name) and
  // function words (adverbs, particles, pronouns, numbers…) never are: taking every unknown word made
  // the natural questions of the howtocook eval fall from 97.7 to 83.9 % (collections-recipes-2: 100 → 70.8 %). Absent
  // dishes, tuning parts of eval/collections-absent.eval.ts: round 1 wrong locks 16.7 → 3.3 %, round 3 18.8 → 0 %
  const unknownToCollection = (w: { word: string; tag: string }) =>
    [...w.word].length >= 2 && !NOT_SUBJECT.test(w.word) && w.tag !== 'x' && !FUNCTION_TAG.test(w.tag) && !idx.df.has(w.word) && !titleText.some((t) => t.includes(w.word));
  // before the name any noun joined to it is part of it (黄油 + 牛肉 is not 酱牛肉; it was only a noun at
  // most two recipes use); after a run that already is a whole title only such a rare noun (炒河粉 +
  // 不粘锅 asks about the dish). Absent names made of the collection's own title words × ingredients
  // (60 a draw, two draws): 10 / 11 → 9 / 10 locked; howtocook natural and title questions unchanged
  const attachable = (w: { word: string; tag: string }, where: 'before' | 'after' | 'afterTitle') =>
    !NOT_SUBJECT.test(w.word) &&
    [...w.word].length >= 2 &&
    (/^(?:n|vn)/.test(w.tag) ? where !== 'afterTitle' || docsWith(w.word) <= 2 : where === 'after' && unknownToCollection(w));
  // a status word, adjective or distinguishing word (tags z / a / b) that at least two titles begin with names
  // a family of dishes (麻辣香锅, 麻辣减脂荞麦面): before a dish word it is a modifier too (麻辣鸡爪 is not
  // 香辣鸡爪煲). Stop 37 tuning: 麻辣鸡爪 wrong lock → named not_found; one title or two the same; howtocook
  // title, paraphrase and natural questions unchanged
  // a one-character cooking verb at least two titles begin with (烤: 烤鱼, 烤茄子) is the method of the name (烤五花肉
  // is not 香煎五花肉)
  const cookingMethod = (w: { word: string; tag: string }) => [...w.word].length === 1 && /^v/.test(w.tag) && titleText.filter((t) => t.startsWith(w.word)).length >= 2;
  const titlePrefix = (w: { word: string; tag: string }) => [...w.word].length >= 2 && /^(?:z|a|b)/.test(w.tag) && titleText.filter((t) => t.startsWith(w.word)).length >= 2;
  const attachBefore = (w: { word: string; tag: string }) =>
    attachable(w, 'before') || (!NOT_SUBJECT.test(w.word) && (([...w.word].length >= 2 && /^l/.test(w.tag)) || ([...w.word].length === 1 && w.tag === 'n') || titlePrefix(w) || cookingMethod(w)));
  // a word the segmenter made up (tag x) right before the dish word is a modifier of the name (京酱 +
  // 肉丝: 京酱肉丝 is not 鱼香肉丝) when no recipe of the collection writes it (its document frequency,
  // as written, at most collections.modifierMaxDocs) and every piece of it is a noun or a place (京 + 酱);
  // a piece that is a verb, measure word, number or adverb makes it the question's own words (炒 + 个,
  // 想 + 炖, 卤 + 一锅, 不 + 吸油: reading those as modifiers made the natural questions fall 97.7 → 93.1 %)
  // a status word the segmenter knows (tag z: 葱爆) that no recipe writes is such a modifier too (葱爆牛肉 is not
  // 尖椒炒牛肉)
  const madeUpModifier = (w: { word: string; tag: string }) =>
    (w.tag === 'x' || w.tag === 'z') &&
    [...w.word].length >= 2 &&
    !NOT_SUBJECT.test(w.word) &&
    docsWriting(idx, w.word) <= ctx.config.collections.modifierMaxDocs &&
    (w.tag === 'z' ||
      getJieba()
        .tag(w.word, false)
        .every((p) => /^n/.test(p.tag)));
  // a noun the collection never mentions names something it does not hold (羊肉串, 锅贴)
  const unknownNoun = (w: { word: string; tag: string }) => /^n/.test(w.tag) && unknownToCollection(w);
  // a run of dish words, with the word right before and after it when that can be part of a name
  const isDish = words.map((w) => dishy(w.word) || segmentForSearch(w.word).some((t) => t !== w.word && dishy(t)));
  const runs: { words: string[]; attached: string[]; dish: number; verb?: string; from: number; to: number }[] = [];
  // a name is written in one piece: a word across 的 or other dropped text is not attached (酸菜鱼的酸菜
  // is two names, not 「酸菜鱼酸菜」)
  const joins = (a: number, b: number) => core.includes(words.slice(a, b + 1).map((w) => w.word).join(''));
  for (let i = 0; i < words.length; i++) {
    if (!isDish[i] || (i > 0 && isDish[i - 1] && joins(i - 1, i))) continue;
    let j = i;
    while (j + 1 < words.length && isDish[j + 1] && joins(i, j + 1)) j++;
    const from = i > 0 && (attachBefore(words[i - 1]) || madeUpModifier(words[i - 1])) && joins(i - 1, j) ? i - 1 : i;
    // X炒Y / X烧Y: a one-character cooking verb between the dish word and a noun is inside the name
    // a run that already is a whole title (炒河粉) is a complete name: a noun after it is what is asked about it (不粘锅)
    const complete = titleText.includes(words.slice(i, j + 1).map((w) => w.word).join(''));
    const bridge = !complete && j + 2 < words.length && [...words[j + 1].word].length === 1 && /^v/.test(words[j + 1].tag) && attachable(words[j + 2], 'after') && joins(from, j + 2);
    // a one-character noun written right after the dish words ends the name as its head (干锅 + 鸡, 椒盐 +
    // 虾: the dish is the 鸡, not any 干锅 dish), unless the run already is a whole title
    const oneCharHead = !complete && j + 1 < words.length && [...words[j + 1].word].length === 1 && /^n/.test(words[j + 1].tag) && !NOT_SUBJECT.test(words[j + 1].word) && joins(from, j + 1);
    const to = bridge ? j + 2 : j + 1 < words.length && (attachable(words[j + 1], complete ? 'afterTitle' : 'after') || oneCharHead) && joins(from, j + 1) ? j + 1 : j;
    const picked = words.slice(from, to + 1).map((w) => w.word);
    const attached = [from < i ? words[from].word : '', to > j ? words[to].word : ''].filter(Boolean);
    runs.push({ words: picked, attached, dish: words.slice(i, j + 1).reduce((n, w) => n + [...w.word].length, 0), verb: bridge ? words[j + 1].word : undefined, from, to });
  }
  for (const [k, w] of words.entries()) if (unknownNoun(w)) runs.push({ words: [w.word], attached: [], dish: 0, from: k, to: k });
  // no dish word at all (孜然羊肉, 番茄炖牛尾: each word is in many recipes, no title is named by it): a core
  // made only of content words, no longer than the collection's longest title, is itself the name
  // (X炖Y: a one-character cooking verb between two of them belongs to it); a description is longer
  if (!runs.length) {
    // two one-character nouns joined in the core that the collection writes together are one word the segmenter
    // did not know (意 + 面: 番茄意面 names 意面, as 半成品意面 writes it)
    const nd: { word: string; tag: string }[] = [];
    for (let k = 0; k < words.length; k++) {
      const [x, y] = [words[k], words[k + 1]];
      if (y && [...x.word].length === 1 && [...y.word].length === 1 && /^n/.test(x.tag) && /^n/.test(y.tag) && !NOT_SUBJECT.test(x.word + y.word) && joins(k, k + 1) && docsWriting(idx, x.word + y.word) > 0) {
        nd.push({ word: x.word + y.word, tag: 'n' });
        k++;
      } else nd.push(x);
    }
    const joinsNd = (p: number, q: number) => core.includes(nd.slice(p, q + 1).map((w) => w.word).join(''));
    // the question's own one-character verb after the name (豆豉蒸鱼 + 要蒸几分钟) is not part of it
    let end = nd.length;
    while (end > 2 && [...nd[end - 1].word].length === 1 && /^v/.test(nd[end - 1].tag)) end--;
    // a status word (tag z: 酸辣) is a word of the name here too (酸辣鸡杂)
    const content = (w: { word: string; tag: string }) => [...w.word].length >= 2 && !NOT_SUBJECT.test(w.word) && (!FUNCTION_TAG.test(w.tag) || w.tag === 'z');
    // the question's own verb before the name (想做个…) is not part of it; anything after it that is not
    // (里脊 + 要切多粗) makes it a question about the thing, not a name
    // a one-character noun is a piece of the name too when the segmenter split a name it does not know: the
    // rest of it is a word it made up (椒 + 麻鸡, tag x: 椒麻鸡 is not 小炒黄牛肉)
    const splitHere = (k: number) => [...nd[k].word].length === 1 && /^n/.test(nd[k].tag) && !NOT_SUBJECT.test(nd[k].word) && nd[k + 1]?.tag === 'x' && joinsNd(k, k + 1);
    // and a one-character noun ending the name after a word of it is its head (番茄 + 鱼, 盐焗鸡 + 翅)
    const headHere = (k: number) => k === end - 1 && k > 0 && [...nd[k].word].length === 1 && /^n/.test(nd[k].tag) && !NOT_SUBJECT.test(nd[k].word) && content(nd[k - 1]) && joinsNd(k - 1, k);
    // a one-character cooking verb at least two titles begin with (烤: 烤鱼, 烤茄子) right before a word of the name
    // is its method (烤五花肉 is not 香煎五花肉)
    const methodHere = (k: number) => k + 1 < end && cookingMethod(nd[k]) && content(nd[k + 1]) && joinsNd(k, k + 1);
    let a = 0;
    while (a < end && !content(nd[a]) && !splitHere(a) && !methodHere(a)) a++;
    const piece = (w: { word: string; tag: string }, i: number) => content(w) || splitHere(a + i) || headHere(a + i) || (i === 0 && methodHere(a));
    const name = nd.slice(a, end);
    const from = a === 0 ? 0 : Math.max(0, core.indexOf(name[0]?.word ?? ''));
    const text = end === nd.length ? core.slice(from) : core.slice(from, core.indexOf(nd[end - 1].word, from) + nd[end - 1].word.length);
    const inName = name.every((w, i) => piece(w, i) || (i > 0 && i + 1 < name.length && [...w.word].length === 1 && /^v/.test(w.tag) && content(name[i - 1]) && content(name[i + 1])));
    const longest = Math.max(0, ...titleText.map((t) => [...t].length));
    if (inName && name.length >= 2 && [...text].length <= longest) {
      const verb = name.find((w, i) => i > 0 && [...w.word].length === 1 && /^v/.test(w.tag))?.word;
      const out = name.filter((w) => w.word !== verb).map((w) => ({ word: w.word, weight: weightOf(idx, w.word) }));
      return { text, words: out, share: [...text].length / ([...core.replace(/[\p{P}\p{S}\s]/gu, '')].length || 1), unknown: false, head: out[out.length - 1]?.word };
    }
  }
  if (!runs.length) return null;
  const best = runs.sort((a, b) => b.dish - a.dish || b.words.join('').length - a.words.join('').length)[0];
  // a name read from a noun the collection never mentions goes on over the nouns written right after it (老母 +
  // 鸡汤: the answer names 老母鸡汤, not 「老母」) unless it is a word of cooking many recipes write (调味: 87 of 369
  // HowToCook recipes, 鸡汤 4; at most a tenth of the documents) — the wording only
  const noun2 = (w: { word: string; tag: string }, k: number) =>
    best.dish === 0 && k > best.to && [...w.word].length >= 2 && /^n/.test(w.tag) && !NOT_SUBJECT.test(w.word) && docsWriting(idx, w.word) <= idx.docText.size / 10;
  const text = nameSpan(core, words, best.from, best.to, (w, k) => isDish[k] || unknownToCollection(w) || noun2(w, k));
  const coreLen = [...core.replace(/[\p{P}\p{S}\s]/gu, '')].length || 1;
  // a word of the name the collection does not know is also weighed by its known parts (宫爆鸡丁: 鸡丁),
  // so a near dish sharing them is offered
  const out: SubjectWord[] = [];
  for (const w of best.words) {
    // the cooking verb inside a name (韭菜炒虾仁) is shown, not weighed
    if (w === best.verb) continue;
    const attached = best.attached.includes(w) ? (w === best.words[0] ? 'before' : 'after') : undefined;
    out.push({ word: w, weight: weightOf(idx, w), attached });
    if (!idx.df.has(w)) for (const t of segmentForSearch(w)) if (t !== w && [...t].length >= 2 && idx.df.has(t) && !out.some((o) => o.word === t)) out.push({ word: t, weight: weightOf(idx, t), attached });
  }
  const head = [...best.words].reverse().find((w) => w !== best.verb);
  return { text, words: out, share: [...text].length / coreLen, unknown: best.dish === 0, head: best.words.length > 1 ? head : undefined };
}

/** The word of the core that holds the document's title inside it and that the collection never mentions (葱油饼 for 葱油), else null. */
export function titleInsideUnknownWord(ctx: AppContext, coll: CollectionRow, core: string, docId: number): string | null {
  const idx = subjectIndex(ctx, coll);
  const title = idx.titles.get(String(docId));
  if (!title) return null;
  const titleText = [...idx.titles.values()];
  const w = tagged(core).find((t) => t.word !== title && t.word.includes(title) && !idx.df.has(t.word) && !titleText.some((x) => x.includes(t.word)));
  return w?.word ?? null;
}

/** How much of a named dish the document's title holds (a word counts when the title contains it). */
export function titleHoldsSubject(ctx: AppContext, coll: CollectionRow, subject: NamedSubject, docId: number): SubjectCheck {
  const idx = subjectIndex(ctx, coll);
  const title = idx.titles.get(String(docId)) ?? '';
  const tokens = new Set(segmentForSearch(title));
  const text = idx.docs.get(String(docId)) ?? new Set<string>();
  const attached = new Set(subject.words.filter((w) => w.attached).map((w) => w.word));
  const holds = (w: string) => tokens.has(w) || title.includes(w) || (attached.has(w) && text.has(w));
  const s = share(subject.words, holds);
  // a title without the name's head word is another dish however much of the rest it shares (黄焖排骨 ≠
  // 黄焖鸡: 黄焖 is the rarer word, 0.62 of the weight): absent dishes, tuning, round 1 wrong locks 6.7 →
  // 3.3 %; howtocook title, paraphrase and natural questions unchanged
  // a modifier of the name (a word before its head) distinctive in the collection (idf at least
  // collections.subjectModifierMinWeight) that the title does not hold makes it another dish however heavy
  // the shared head is (京酱肉丝 ≠ 鱼香肉丝)
  const headAt = subject.head ? subject.words.findIndex((w) => w.word === subject.head) : -1;
  // the modifier must be in the title itself: a recipe's text naming it as an ingredient (烤茄子 says 蒜蓉,
  // 红烧鲤鱼 says 豆瓣酱) does not make it that dish (stop 37, tuning: 蒜蓉茄子 → 烤茄子 and 豆瓣鲤鱼 asked back
  // become named not_found; every howtocook title, paraphrase and natural question unchanged)
  const inTitle = (w: string) => tokens.has(w) || title.includes(w);
  const lostModifier = headAt > 0 && subject.words.slice(0, headAt).some((w) => !inTitle(w.word) && w.weight >= ctx.config.collections.subjectModifierMinWeight);
  // a one-character head (干锅鸡: 鸡) must be in the title: every recipe's text has its characters somewhere
  const headHeld = (h: string) => ([...h].length === 1 ? inTitle(h) : holds(h));
  return { words: subject.words, ...s, held: (subject.head && !headHeld(subject.head)) || lostModifier ? 0 : s.held, shared: s.held };
}

/** The nouns of a statute question (`铁路`, `线路`, `房子`): what it is about, weighed by collection idf. */
export function nounSubject(ctx: AppContext, coll: CollectionRow, core: string): SubjectWord[] {
  const idx = subjectIndex(ctx, coll);
  const words = tagged(core).filter((w) => /^(?:n|vn|nz|j)/.test(w.tag) && [...w.word].length >= 2 && !NOT_SUBJECT.test(w.word));
  return [...new Set(words.map((w) => w.word))].map((w) => ({ word: w, weight: weightOf(idx, w) }));
}

export interface SubjectVerdict {
  /** the named thing the collection does not hold (shown to the user) */
  subject: string;
  reason: string;
  /** near documents (best first): offered as alternatives, clearly labelled as not what was asked */
  near: string[];
}

/**
 * The subject decision on top of a retrieval decision. Recipes: a named dish (namedSubject, at least
 * `share` of the core) whose words the locked title (or, when not locked, every candidate title)
 * holds less than `held` of is not in the collection. Statutes and other documents name their matter
 * with lay words the law does not use, so only a subject none of whose nouns (with their learned
 * statute words) the candidate documents mention anywhere is not in the collection, and a lock that
 * close known questions support stands. Tuning parts: this overrules 4 of 14 wrong locks on absent
 * matters of eval/collections-absent.eval.ts and 1 of 102 locks of eval/collections-stard.eval.ts;
 * a rule on the locked articles instead of the whole statute (any noun share < 0.3) overrules 8 of 14
 * but 21 of 104 right STARD locks. Before that, for statute collections the known questions describe
 * (collections.elsewhereMinKnown cite them): a question whose nearest known questions (its core, so
 * the question frame 多长时间 does not match) cite statutes the collection does not hold, at least
 * collections.elsewhereMargin closer than any citing its own, is about another matter (STARD
 * cross-domain wrong locks, tuning 19.5 → 14.6 %, right 39.0 → 56.1 %; no right lock of the STARD
 * tuning part or of the labour / power sets lost). Null: the decision stands.
 */
export function subjectVerdict(
  ctx: AppContext,
  coll: CollectionRow,
  o: { recipes: boolean; core: string; state: 'locked' | 'ambiguous' | 'low_evidence'; rule: string | null; candidates: string[]; lay: LayExpansion['equivalents']; knownSupport?: boolean },
): SubjectVerdict | null {
  const cfg = ctx.config.collections;
  if (!o.core || !o.candidates.length) return null;
  const ids = o.candidates.map(Number);
  if (o.rule === 'title') {
    // a named title stands, unless it is only part of a longer word the collection never mentions
    // (葱油 inside 葱油饼: another dish, not the sauce)
    const inside = o.recipes && o.state === 'locked' ? titleInsideUnknownWord(ctx, coll, o.core, ids[0]) : null;
    return inside ? { subject: inside, near: o.candidates.slice(0, 1), reason: `问题所说的「${inside}」在文集中没有出现，只是包含了标题「${subjectIndex(ctx, coll).titles.get(String(ids[0])) ?? ''}」` } : null;
  }
  if (o.recipes) {
    const s = namedSubject(ctx, coll, o.core);
    if (!s || (s.share < cfg.subjectMinShare && !s.unknown)) return null;
    const checked = (o.state === 'locked' ? ids.slice(0, 1) : ids).map((id) => titleHoldsSubject(ctx, coll, s, id));
    const best = Math.max(...checked.map((c) => c.held));
    if (best >= cfg.subjectMinHeld) return null;
    const missing = checked[0]?.missing ?? [];
    // alternatives share part of the named dish (糖醋排骨 for 红烧排骨), never noise
    const near = o.candidates.filter((id) => (titleHoldsSubject(ctx, coll, s, Number(id)).shared ?? 0) > 0);
    return { subject: s.text, near, reason: `问题所说的「${s.text}」不在候选菜谱的标题中（缺少：${missing.join('、') || '—'}；最多覆盖 ${best.toFixed(2)} < ${cfg.subjectMinHeld}）` };
  }
  const nouns = nounSubject(ctx, coll, o.core);
  // the known questions nearest to it are about statutes the collection does not hold, far closer than
  // any about its own (a trademark question asked to the criminal code): another matter
  const split = knownInsideOutside(ctx, coll, o.core);
  if (split && split.described >= cfg.elsewhereMinKnown && split.outside - split.inside >= cfg.elsewhereMargin) {
    const absent = nouns.filter((n) => !ids.some((id) => docHoldsSubject(ctx, coll, [n], id, o.lay).held > 0));
    const text = absent.length ? absent.map((n) => n.word).join('、') : o.core;
    const cited = split.outsideStatute ? `如《${split.outsideStatute}》，` : '';
    return { subject: text, near: [], reason: `相近的已知问题涉及集合外的法规（${cited}相似度 ${split.outside.toFixed(2)}；涉及集合内法规的 ${split.inside.toFixed(2)}）` };
  }
  // weaker signals that agree: the known questions lean outside (a smaller margin), every noun of the question —
  // one is enough here — is one the collection mentions only in passing while a statute outside it is about it
  // (商标被别人抢注了 asked to the criminal code: 商标 1.8 per 10,000 tokens there, 834 in a trademark rule)
  // — and the statute those known questions cite is named for one of those nouns (商标法 for 商标; 民法典 for 公司 is not)
  if (split?.outsideStatute && split.described >= cfg.elsewhereMinKnown && split.outside - split.inside >= cfg.elsewherePassingMargin) {
    const title = normalizeText(split.outsideStatute);
    // a noun most statutes use (服务, 企业, 工作: collections.elsewhereVetoMaxStatuteShare) says nothing either way
    const specific = (matterNouns(ctx, coll, o.core, o.lay) ?? []).filter((n) => statuteWordShare(ctx, n.word) < cfg.elsewhereVetoMaxStatuteShare);
    const passing = passingMatter(ctx, specific);
    const namedFor = (w: string) => title.includes(w) || segmentForSearch(w).some((t) => [...t].length >= 2 && title.includes(t));
    if (passing?.some((n) => namedFor(n.word))) {
      const cited = `如《${split.outsideStatute}》，`;
      const text = [...new Set(passing.map((n) => nounPhrase(o.core, n.word)))].join('、');
      return { subject: text, near: [], reason: `「${passing.map((n) => n.word).join('、')}」在集合中的法规里只是顺带提到，相近的已知问题涉及集合外的法规（${cited}相似度 ${split.outside.toFixed(2)}；涉及集合内法规的 ${split.inside.toFixed(2)}）` };
    }
  }
  // a lock supported by close known questions (learned lay questions answered by its articles) stands
  // (also when the statute holds none of the question's nouns and the questions do not name them: that
  // stopped 公务员辞职 → 劳动合同法 but lost 2 right STARD tuning locks — 仓储合同纠纷管辖: 仓储 only
  // narrows the matter the statute does regulate)
  if (o.state === 'locked' && o.knownSupport) return null;
  // a noun a statute of the whole corpus is about, which the collection never mentions: a matter governed
  // elsewhere (石油管道 → 石油天然气管道保护法 asked to the power statutes), unless the question also names
  // something the collection is much about
  const elsewhere = matterElsewhere(ctx, coll, o.core, o.lay);
  if (elsewhere) {
    const text = [...new Set(elsewhere.map((n) => nounPhrase(o.core, n.word)))].join('、');
    return { subject: text, near: [], reason: `「${elsewhere.map((n) => n.word).join('、')}」是集合外法规规定的事项（如《${elsewhere[0].outsideTitle}》），集合中的法规没有提到` };
  }
  // a lock whose matter the collection does not write: two or more of the question's nouns the collection
  // never writes (nor any two-character piece of them, nor a statute word the lay vocabulary gives for them)
  // though other statutes do, while none is a noun the collection is much about (光纤入户 / 屋顶…热水器 on the
  // power statutes): the retrieval locked on the question's verbs and frame (收费, 报批), not its matter
  // — unless the nearest known questions are the collection's own (as for a lock on everyday words below:
  // 航司…机票…飞机 asked to the civil code, whose known questions are the nearest)
  const ownKnown = !!split && split.described >= cfg.elsewhereMinKnown && split.inside > split.outside;
  const unwritten = o.state === 'locked' && !ownKnown ? unwrittenMatter(ctx, coll, o.core, o.lay) : null;
  if (unwritten) {
    const text = [...new Set(unwritten.map((n) => nounPhrase(o.core, n.word)))].join('、');
    return { subject: text, near: [], reason: `集合中的法规都没有写到「${unwritten.map((n) => n.word).join('、')}」，锁定的法规只对上了问题里的其他词` };
  }
  if (!nouns.length) return null;
  const held = Math.max(...ids.map((id) => docHoldsSubject(ctx, coll, nouns, id, o.lay).held));
  if (held > 0) return null;
  // what kind of word is missing: a noun the statutes use (驾驶证, 商标, 燃气管) names a matter regulated
  // elsewhere; a word no statute uses (电饭锅, 老板, 肚子) names a thing the statutes call by its kind
  // (商品, 用人单位), so when the retrieval did not lock, it is no reason to say the matter is absent —
  // the ask-back or low-evidence answer stands. A lock on a statute mentioning none of the question's
  // nouns is still overruled (买到假货 → 劳动合同法). Tuning parts: no not_found on an absent matter
  // lost; 老板几个月不发工资 (labour-2) is no longer refused
  // and a word some statutes use but none is about (衣服 at most 20 per 10,000 tokens, in a ship-safety rule)
  // is such a thing too: only a noun whose phrase names a matter some statute is about (个人所得税起征点:
  // 所得税) counts (collections.statuteMatterMinRate)
  const topics = !!topicsOf(ctx);
  const statuteNouns = nouns.filter(
    (n) =>
      statuteWordFiles(ctx, n.word) >= cfg.statuteWordMinFiles &&
      (!topics || Math.max(topicRate(ctx, n.word), ...segmentForSearch(nounPhrase(o.core, n.word)).map((w) => topicRate(ctx, w))) >= cfg.statuteMatterMinRate),
  );
  if (!statuteNouns.length && o.state !== 'locked') return null;
  // a lock on everyday words no statute is about stands when the nearest known questions are about the
  // collection's own statutes (承包的地被村里收回了: jieba reads 地被, a word no statute writes, and the land
  // statutes' known questions are the nearest): the collection describes the matter, the word is the segmenter's
  if (!statuteNouns.length && split && split.described >= cfg.elsewhereMinKnown && split.inside > split.outside) return null;
  // a lock on a statute that does not write the question's nouns stands when another statute of the collection
  // does write every one of them: the collection knows the word (公司 in the labour statutes), so retrieval chose
  // the statute for the rest of the question (年假没休完公司要多给钱吗: jieba reads 年 / 假, only 公司 is left as a
  // noun, and the locked 带薪年休假条例 says 单位). Stop-38 tuning: that false refusal gone; no other answer of
  // collections-absent, collections-laws or collections-stard changes (tuning or held-out)
  if (o.state === 'locked' && nouns.every((n) => subjectIndex(ctx, coll).df.has(n.word))) return null;
  const text = [...new Set((statuteNouns.length ? statuteNouns : nouns).map((n) => nounPhrase(o.core, n.word)))].join('、');
  return { subject: text, near: [], reason: `候选文档都没有提到「${nouns.map((n) => n.word).join('、')}」${statuteNouns.length ? '' : '（都是没有法规专门规定的日常词，但检索锁定的法规与之无关）'}` };
}

/**
 * The noun phrase as written around a noun of the core (what a statute not_found names): the nouns
 * joined to it in the core (自来水 + 公司, 消防 + 通道), and a one-character noun or measure word the
 * segmenter split off its end (燃气管 + 道). 的 or other dropped text ends it.
 */
function nounPhrase(core: string, word: string): string {
  const words = tagged(core);
  const k = words.findIndex((w) => w.word === word);
  if (k < 0) return word;
  const joined = (a: number, b: number) => core.includes(words.slice(a, b + 1).map((w) => w.word).join(''));
  const noun = (w: { word: string; tag: string }) => [...w.word].length >= 2 && /^(?:n|l|vn)/.test(w.tag) && !NOT_SUBJECT.test(w.word);
  let from = k;
  let to = k;
  while (from > 0 && noun(words[from - 1]) && joined(from - 1, to)) from--;
  while (to + 1 < words.length && noun(words[to + 1]) && joined(from, to + 1)) to++;
  if (to + 1 < words.length && [...words[to + 1].word].length === 1 && /^(?:n|q)/.test(words[to + 1].tag) && joined(from, to + 1)) to++;
  return words.slice(from, to + 1).map((w) => w.word).join('');
}

/** The statutes of the whole corpus most about each noun (resources/collections/statute-topics.tsv), read once per context. */
interface StatuteTopics {
  titles: string[];
  /** noun -> [statute index, occurrences per 10,000 tokens], most first */
  top: Map<string, [number, number][]>;
}
const statuteTopics = new ContextValue<StatuteTopics | null>('collections.statute-topics');

function topicsOf(ctx: AppContext): StatuteTopics | null {
  let table = statuteTopics.get(ctx.state);
  if (table === undefined) {
    table = null;
    try {
      const titles: string[] = [];
      const top = new Map<string, [number, number][]>();
      for (const line of fs.readFileSync(path.join(ctx.resourcesDir, 'collections', 'statute-topics.tsv'), 'utf8').split('\n')) {
        if (!line || line.startsWith('#')) continue;
        const [k, v] = line.split('\t');
        if (k.startsWith('@')) titles[Number(k.slice(1))] = normalizeText(v ?? '');
        else top.set(k, (v ?? '').split(' ').filter(Boolean).map((x) => x.split(':').map(Number) as [number, number]));
      }
      table = { titles, top };
    } catch {
      table = null; // a missing or broken resource must not break answering
    }
    statuteTopics.set(ctx.state, table);
  }
  return table;
}

/** The rate of the word in the statute of the corpus most about it (0: no statute at least 50 about it, the learned list's floor). */
export function topicRate(ctx: AppContext, word: string): number {
  return topicsOf(ctx)?.top.get(word)?.[0]?.[1] ?? 0;
}

/** Occurrences of a word per 10,000 tokens of a document (texts under 500 tokens count as 500, as in the learned list). */
function rate(tf: number, total: number): number {
  return (10000 * tf) / Math.max(500, total);
}

export interface MatterNoun {
  word: string;
  /** the highest rate of the word in a statute of the corpus the collection does not hold, and that statute */
  outside: number;
  outsideTitle: string;
  /** the highest rate in a document of the collection (the word itself, or a statute word the lay vocabulary gives for it) */
  inside: number;
}

/**
 * Where the question's matter is governed: for each noun of the core, how much the statute of the whole
 * corpus most about it (resources/collections/statute-topics.tsv; the collection's own titles left out)
 * and the collection's document most about it are about it (occurrences per 10,000 tokens). A noun a
 * statute is about (公务员 → 公务员法 411, 石油 → 对外合作开采陆上石油资源条例 406) differs from an everyday
 * word scattered thinly over unrelated statutes (电线杆 7, 家属 140 at most, 员工 68).
 */
export function matterNouns(ctx: AppContext, coll: CollectionRow, core: string, lay: LayExpansion['equivalents'] = []): MatterNoun[] | null {
  const topics = topicsOf(ctx);
  if (!topics) return null;
  const idx = subjectIndex(ctx, coll);
  const own = new Set(idx.titles.values());
  const insideRate = (w: string) => Math.max(0, ...[...idx.counts.values()].map((d) => rate(d.tf.get(w) ?? 0, d.total)));
  const out: MatterNoun[] = [];
  for (const n of nounSubject(ctx, coll, core)) {
    const top = (topics.top.get(n.word) ?? []).filter(([i]) => !own.has(topics.titles[i]));
    const statuteWordsOf = lay.filter(([everyday]) => everyday.includes(n.word)).flatMap(([, statute]) => statute);
    out.push({
      word: n.word,
      outside: top[0]?.[1] ?? 0,
      outsideTitle: top[0] ? topics.titles[top[0][0]] : '',
      inside: Math.max(insideRate(n.word), ...statuteWordsOf.map(insideRate)),
    });
  }
  return out;
}

/**
 * The nouns naming a matter governed outside the collection (matterNouns): nouns the collection never
 * mentions that a statute of the corpus is about (collections.elsewhereTopicRate), at least
 * collections.elsewhereNounShare of the question's nouns, while none is a noun the collection is much
 * about (collections.elsewhereInsideVeto). Null: no such matter (or no learned list).
 */
export function matterElsewhere(ctx: AppContext, coll: CollectionRow, core: string, lay: LayExpansion['equivalents'] = []): MatterNoun[] | null {
  const cfg = ctx.config.collections;
  const nouns = matterNouns(ctx, coll, core, lay);
  if (!nouns?.length) return null;
  // a word most statutes use (标准, 登记) is no sign of what the collection is about: it does not veto
  if (nouns.some((n) => n.inside >= cfg.elsewhereInsideVeto && statuteWordShare(ctx, n.word) < cfg.elsewhereVetoMaxStatuteShare)) return null;
  const outside = nouns.filter((n) => n.inside <= 0 && n.outside >= cfg.elsewhereTopicRate).sort((a, b) => b.outside - a.outside);
  if (outside.length && outside.length / nouns.length >= cfg.elsewhereNounShare - 1e-9) return outside;
  // or every noun (two or more) is one the collection mentions only in passing — at most
  // elsewhereMentionRatio as much as a statute outside it is about it — and one of them a matter an outside
  // statute is about (商标 in the criminal code's trademark crimes: 1.8 against 834)
  return nouns.length >= 2 ? passingMatter(ctx, nouns) : null;
}

/**
 * The nouns of a question core naming a matter the collection never writes: at least
 * collections.unwrittenMinNouns nouns (of those fewer than elsewhereVetoMaxStatuteShare of all statutes use,
 * and used by at least statuteWordMinFiles statutes) that neither the collection nor the statute words the lay vocabulary gives for them occur in, and none of
 * whose two-character pieces the collection writes (小区业主 holds 业主, 合同工 合同: the collection's own matter
 * in other words), while no noun is one the collection is much about (elsewhereInsideVeto). Null: none.
 */
function unwrittenMatter(ctx: AppContext, coll: CollectionRow, core: string, lay: LayExpansion['equivalents']): MatterNoun[] | null {
  const cfg = ctx.config.collections;
  const idx = subjectIndex(ctx, coll);
  const nouns = (matterNouns(ctx, coll, core, lay) ?? []).filter((n) => statuteWordShare(ctx, n.word) < cfg.elsewhereVetoMaxStatuteShare);
  if (nouns.some((n) => n.inside >= cfg.elsewhereInsideVeto)) return null;
  // a word no statute uses (商家, 房东: statuteWordMinFiles) names a thing the statutes call by its kind
  // (经营者, 出租人), so it is no sign the matter is absent
  const unwritten = nouns.filter(
    (n) => n.inside <= 0 && statuteWordFiles(ctx, n.word) >= cfg.statuteWordMinFiles && !idx.df.has(n.word) && !segmentForSearch(n.word).some((t) => [...t].length >= 2 && idx.df.has(t)),
  );
  return cfg.unwrittenMinNouns > 0 && unwritten.length >= cfg.unwrittenMinNouns ? unwritten : null;
}

/**
 * Every noun is one the collection mentions only in passing (at most collections.elsewhereMentionRatio as
 * much as the statute outside it most about it) and one of them a matter an outside statute is about
 * (collections.elsewhereTopicRate): those nouns, most first; else null.
 */
function passingMatter(ctx: AppContext, nouns: MatterNoun[]): MatterNoun[] | null {
  const cfg = ctx.config.collections;
  if (!nouns.length || !nouns.every((n) => n.inside <= cfg.elsewhereMentionRatio * n.outside)) return null;
  const named = nouns.filter((n) => n.outside >= cfg.elsewhereTopicRate).sort((a, b) => b.outside - a.outside);
  return named.length ? named : null;
}

/** Statutes of the whole corpus using each word (resources/collections/statute-words.tsv) and how many statutes it counted, read once per context; null: no list. */
const statuteWords = new ContextValue<{ files: Map<string, number>; statutes: number } | null>('collections.statute-words');

function statuteWordTable(ctx: AppContext): { files: Map<string, number>; statutes: number } | null {
  let table = statuteWords.get(ctx.state);
  if (table === undefined) {
    table = null;
    try {
      const files = new Map<string, number>();
      let statutes = 0;
      for (const line of fs.readFileSync(path.join(ctx.resourcesDir, 'collections', 'statute-words.tsv'), 'utf8').split('\n')) {
        if (!line) continue;
        // header: "# statutes of ../shared/data/laws each word occurs in (3445 statutes; …"
        if (line.startsWith('#')) {
          statutes ||= Number(/\((\d+) statutes/.exec(line)?.[1] ?? 0);
          continue;
        }
        const [n, words] = line.split('\t');
        for (const w of (words ?? '').split(' ')) if (w) files.set(w, Number(n));
      }
      table = { files, statutes };
    } catch {
      table = null; // a missing or broken resource must not break answering
    }
    statuteWords.set(ctx.state, table);
  }
  return table;
}

/** How many statutes of the whole corpus use the word (0: none); without the shipped list every word counts as a statute word. */
export function statuteWordFiles(ctx: AppContext, word: string): number {
  const table = statuteWordTable(ctx);
  return table ? (table.files.get(word) ?? 0) : Number.MAX_SAFE_INTEGER;
}

/** The share of all the corpus's statutes using the word (0 without the shipped list or its count). */
function statuteWordShare(ctx: AppContext, word: string): number {
  const table = statuteWordTable(ctx);
  return table?.statutes ? (table.files.get(word) ?? 0) / table.statutes : 0;
}

/**
 * Does a question asked while locked on `docId` name a dish of its own (namedSubject, at least
 * subjectMinShare of the core) that the locked recipe's title does not hold and its text does not
 * mention? Then it is a new question, not a follow-up of the lock.
 */
export function namesOtherDish(ctx: AppContext, coll: CollectionRow, core: string, docId: number): boolean {
  const cfg = ctx.config.collections;
  const s = core ? namedSubject(ctx, coll, core) : null;
  if (!s || s.share < cfg.subjectMinShare) return false;
  if (titleHoldsSubject(ctx, coll, s, docId).held >= cfg.subjectMinHeld) return false;
  return docHoldsSubject(ctx, coll, s.words, docId).held < cfg.subjectMinHeld;
}

/**
 * A statute question asked while locked on `docId` whose retrieval found too little evidence: does it
 * name a thing of its own the whole collection never mentions (醉驾 while locked on 劳动法)? Then it
 * is a new question the collection cannot answer, not a follow-up to be answered from the locked
 * statute. The leading 那 / 那么 of a switch is dropped first (the segmenter glues it to the word:
 * 那醉 / 驾会). Nouns, and words the dictionary knows but the collection never uses; made-up
 * segments (tag x) and function words are not things.
 */
export function namesThingOutside(ctx: AppContext, coll: CollectionRow, core: string): string | null {
  const idx = subjectIndex(ctx, coll);
  const text = core.replace(/^(?:那么|那)/, '');
  const thing = tagged(text).find(
    (w) => [...w.word].length >= 2 && !NOT_SUBJECT.test(w.word) && w.tag !== 'x' && !FUNCTION_TAG.test(w.tag) && /^(?:n|vn|v|j|l)/.test(w.tag) && !idx.df.has(w.word) && !segmentForSearch(w.word).some((t) => t !== w.word && idx.df.has(t) && [...t].length >= 2),
  );
  return thing?.word ?? null;
}
