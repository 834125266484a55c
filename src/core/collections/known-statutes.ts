import type { AppContext } from '../context';
import { corpusVersion } from '../search/lexical';
import { normLawTitle, splitArticleRef } from '../regulations/known-questions';
import { KeyedCache } from '../common/cache';
import { knownQuestions, titleForms } from './known-answers';
import { corpusOf, docsOf, getDoc, type CollectionRow } from './store';

/**
 * Which statute of a collection real askers of a question's words were answered from: a word model
 * per statute (multinomial naive Bayes over the question's Han character bigrams and trigrams) learned
 * from the known questions (known-answers.ts: lay questions with the articles that answer them) that
 * cite an article of it. Where the known-answers list finds the few closest questions, this reads all
 * questions about a statute at once: 「合同…还有效吗」 is asked of the general part of the civil code,
 * 「离婚…土地承包」 of marriage and family, whatever word the statute's own text uses. It is one signal of
 * the lock decision's statute choice (lock-model.ts CHOICE_FEATURES `knownStatute`).
 *
 * Built per collection from its documents and the known questions in use (an evaluation's learn part,
 * else the shipped file); a collection none of whose statutes the known questions cite (recipes, the
 * power statutes) gets no model, so the signal says nothing there.
 */

/** additive smoothing of the per-statute counts */
const ALPHA = 0.1;
/** statutes need this many known questions to get a word model */
const MIN_QUESTIONS = 3;

interface Model {
  /** per statute (doc id): gram -> questions about it holding the gram, and the total of those counts */
  counts: Map<string, { grams: Map<string, number>; total: number }>;
  vocabulary: Set<string>;
}

const models = new KeyedCache<{ version: number; generation: number; model: Model | null }>('collections.known-statutes');

/** The Han character bigrams and trigrams of a text, each once. */
export function questionGrams(text: string): string[] {
  const out = new Set<string>();
  for (const run of text.match(/[\u4e00-\u9fff]+/g) ?? []) {
    for (let i = 0; i + 2 <= run.length; i++) out.add(run.slice(i, i + 2));
    for (let i = 0; i + 3 <= run.length; i++) out.add(run.slice(i, i + 3));
  }
  return [...out];
}

function build(ctx: AppContext, coll: CollectionRow, known: NonNullable<ReturnType<typeof knownQuestions>['known']>): Model | null {
  // title form + article label -> the document holding it
  const holder = new Map<string, string>();
  for (const d of docsOf(ctx.db, coll.id)) {
    if (d.kind === 'recipe') continue;
    const doc = getDoc(ctx.db, d.id);
    for (const a of doc?.parsed.articles ?? []) for (const t of titleForms(d.title)) if (!holder.has(`${t}|${a.label}`)) holder.set(`${t}|${a.label}`, String(d.id));
  }
  if (!holder.size) return null;
  const questions = new Map<string, string[][]>();
  for (const k of known) {
    const parents = new Set<string>();
    for (const ref of k.relevant) {
      const parts = splitArticleRef(ref);
      const p = parts ? holder.get(`${normLawTitle(parts[0])}|${parts[1]}`) : undefined;
      if (p) parents.add(p);
    }
    const grams = questionGrams(k.question);
    for (const p of parents) questions.set(p, [...(questions.get(p) ?? []), grams]);
  }
  const counts: Model['counts'] = new Map();
  const vocabulary = new Set<string>();
  for (const [p, qs] of questions) {
    if (qs.length < MIN_QUESTIONS) continue;
    const grams = new Map<string, number>();
    let total = 0;
    for (const q of qs) for (const g of q) grams.set(g, (grams.get(g) ?? 0) + 1), total++, vocabulary.add(g);
    counts.set(p, { grams, total });
  }
  // one statute alone is no choice
  return counts.size >= 2 ? { counts, vocabulary } : null;
}

/**
 * p(statute | question) over the collection's statutes that have a word model (uniform prior), or
 * null when the collection has none. Statutes without one are not in the map.
 */
export function knownStatutePosterior(ctx: AppContext, coll: CollectionRow, question: string): Map<string, number> | null {
  const { generation, known } = knownQuestions(ctx);
  if (!known?.length) return null;
  const version = corpusVersion(ctx.db, corpusOf(coll.name));
  const cache = models.in(ctx.state);
  let entry = cache.get(coll.name);
  if (!entry || entry.version !== version || entry.generation !== generation) {
    entry = { version, generation, model: build(ctx, coll, known) };
    cache.set(coll.name, entry);
  }
  const m = entry.model;
  if (!m) return null;
  const grams = questionGrams(question).filter((g) => m.vocabulary.has(g));
  const v = m.vocabulary.size;
  const logs = [...m.counts].map(([p, c]) => [p, grams.reduce((s, g) => s + Math.log(((c.grams.get(g) ?? 0) + ALPHA) / (c.total + ALPHA * v)), 0)] as const);
  const top = Math.max(...logs.map(([, l]) => l));
  const mass = logs.reduce((s, [, l]) => s + Math.exp(l - top), 0);
  return new Map(logs.map(([p, l]) => [p, Math.exp(l - top) / mass]));
}
