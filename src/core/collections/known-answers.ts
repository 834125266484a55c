import type { AppContext } from '../context';
import { QaMemory } from '../search/learn';
import { corpusRows, corpusVersion, documentFrequencies, idfOf } from '../search/lexical';
import { loadShippedKnownQuestions, normLawTitle, splitArticleRef, type KnownQuestion } from '../regulations/known-questions';
import { ContextValue, KeyedCache } from '../common/cache';
import { chunkDocument } from './chunk';
import { corpusOf, docsOf, getDoc, type CollectionRow } from './store';
import { chunkKey } from './search-bridge';

/**
 * Known questions for statute collections: lay questions with the articles that answer them
 * (resources/search/known-questions.json, learned from STARD train by scripts/learn-expansion.ts —
 * the same list smart search uses). A question close to known ones (idf-weighted cosine over jieba
 * tokens, search/learn.ts QaMemory) points at their articles wherever this collection holds them
 * (law title + 第N条, a code in parts by its code name). This is learned, not written: it carries to
 * any statute domain the known questions cover, where a hand-written lay-term table only knows the
 * words somebody thought of.
 *
 * Only confident neighbours count (cosine >= knownMinSim, calibrated on the tuning part of
 * eval/collections-stard.eval.ts): a rank-based fusion would otherwise give a loosely similar
 * question's article rank 1. A collection holding none of the known articles (recipes, power
 * statutes) gets no list at all.
 */

/** known questions looked at per query */
const NEIGHBOURS = 20;
const LIST_LENGTH = 50;

export interface KnownHit {
  key: string;
  parent: string;
  /** Highest cosine of a known question pointing at this article. */
  sim: number;
}

interface Resolved {
  version: number;
  generation: number;
  memory: QaMemory | null;
  /** passage id -> the article's chunk keys in this collection */
  passages: { parent: string; keys: string[] }[];
}

/** Known questions used instead of the shipped file (evaluations fit them on their learn part only). */
const override = new ContextValue<{ generation: number; known: KnownQuestion[] | null }>('collections.known-questions');
const resolved = new KeyedCache<Resolved>('collections.known-answers');

/** Replaces the shipped known questions in this context (null: back to the shipped file). */
export function setKnownQuestions(ctx: AppContext, known: KnownQuestion[] | null): void {
  const cur = override.get(ctx.state);
  override.set(ctx.state, { generation: (cur?.generation ?? 0) + 1, known });
}

/** The known questions in use: set by setKnownQuestions, else the shipped file. */
export function knownQuestions(ctx: AppContext): { generation: number; known: KnownQuestion[] | null } {
  const o = override.get(ctx.state);
  if (o && o.known) return o;
  return { generation: o?.generation ?? 0, known: loadShippedKnownQuestions(ctx) };
}

/** Title forms a reference may use for a document (a code in parts answers to the code's name). */
export function titleForms(title: string): string[] {
  return [...new Set([normLawTitle(title), normLawTitle(title.split(' · ')[0])])];
}

function build(ctx: AppContext, coll: CollectionRow, known: KnownQuestion[]): Omit<Resolved, 'version' | 'generation'> {
  const articles = new Map<string, number>();
  const passages: Resolved['passages'] = [];
  for (const d of docsOf(ctx.db, coll.id)) {
    if (d.kind === 'recipe') continue;
    const doc = getDoc(ctx.db, d.id);
    if (!doc?.parsed.articles?.length) continue;
    const keysByArticle = new Map<number, string[]>();
    for (const c of chunkDocument(doc.parsed, ctx.config.collections.maxChunkChars)) {
      if (c.article === undefined) continue;
      keysByArticle.set(c.article, [...(keysByArticle.get(c.article) ?? []), chunkKey(doc.id, c.ord)]);
    }
    for (const [i, a] of doc.parsed.articles.entries()) {
      const keys = keysByArticle.get(i);
      if (!keys) continue;
      const id = passages.length;
      passages.push({ parent: String(doc.id), keys });
      for (const t of titleForms(doc.title)) if (!articles.has(`${t}|${a.label}`)) articles.set(`${t}|${a.label}`, id);
    }
  }
  if (!articles.size) return { memory: null, passages };
  const memory = knownMemory(ctx, coll, known, (k) => {
    const ids = new Set<number>();
    for (const ref of k.relevant) {
      const parts = splitArticleRef(ref);
      const id = parts ? articles.get(`${normLawTitle(parts[0])}|${parts[1]}`) : undefined;
      if (id !== undefined) ids.add(id);
    }
    return [...ids];
  });
  return { memory, passages };
}

/**
 * The known questions as a QaMemory pointing at `passagesOf(question, index)` (none: left out).
 * Questions given without weights are weighed by idf over this collection's own chunks (lexical.ts
 * corpusStats), whatever else the data dir holds; entries are stored with their idf weights from the
 * library the file was made on, and a query token no known question has gets the highest weight (it
 * is specific, and absent from every neighbour).
 */
function knownMemory(ctx: AppContext, coll: CollectionRow, known: KnownQuestion[], passagesOf: (k: KnownQuestion, i: number) => number[]): QaMemory | null {
  const corpora = [corpusOf(coll.name)];
  const total = corpusRows(ctx.db, corpora) || 1;
  const idf = (t: string) => idfOf(documentFrequencies(ctx.db, [t], corpora).get(t) ?? 0, total);
  const weights = new Map<string, number>();
  const entries: { tokens: [string, number][]; passages: number[] }[] = [];
  for (const [i, k] of known.entries()) {
    const tokens = k.tokens ?? QaMemory.weigh(k.question, idf);
    for (const [t, w] of tokens) if (!weights.has(t)) weights.set(t, w);
    const passages = passagesOf(k, i);
    if (passages.length && tokens.length) entries.push({ tokens, passages });
  }
  if (!entries.length) return null;
  const unknownWeight = Math.max(1, ...weights.values());
  return QaMemory.fromWeighed(entries, (t) => weights.get(t) ?? unknownWeight);
}

/**
 * Articles of this collection answering known questions close to `question` (cosine >= minSim),
 * best first (Σ sim² over neighbours, as smart search ranks them); [] when the collection holds none.
 */
export function knownAnswers(ctx: AppContext, coll: CollectionRow, question: string, scope?: string): KnownHit[] {
  const { generation, known } = knownQuestions(ctx);
  if (!known?.length) return [];
  const version = corpusVersion(ctx.db, corpusOf(coll.name));
  const cache = resolved.in(ctx.state);
  let r = cache.get(coll.name);
  if (!r || r.version !== version || r.generation !== generation) {
    r = { version, generation, ...build(ctx, coll, known) };
    cache.set(coll.name, r);
  }
  if (!r.memory) return [];
  const out: KnownHit[] = [];
  for (const n of r.memory.nearest(question, LIST_LENGTH, NEIGHBOURS, ctx.config.collections.knownMinSim)) {
    const p = r.passages[n.id];
    if (scope !== undefined && p.parent !== scope) continue;
    for (const key of p.keys) out.push({ key, parent: p.parent, sim: n.best });
  }
  return out;
}

interface Split {
  version: number;
  generation: number;
  /** known questions citing a statute of this collection */
  inside: number;
  /** passage 0: cites a statute of this collection; 1 + i: known question i, citing only statutes it does not hold */
  memory: QaMemory | null;
  known: KnownQuestion[];
}

const splits = new KeyedCache<Split>('collections.known-split');

/**
 * How close the nearest known questions about this collection's statutes and about statutes it does
 * not hold come to `text` (highest cosine among the NEIGHBOURS nearest; 0 when none of them is of
 * that kind), the statute the closest outside one cites, and how many known questions cite this
 * collection at all (a collection the known questions do not describe — the power statutes: 1 of
 * 1,235 — gets nothing from the comparison). subject.ts: a question whose neighbours are all about
 * other statutes is about a matter the collection does not regulate.
 */
export function knownInsideOutside(ctx: AppContext, coll: CollectionRow, text: string): { inside: number; outside: number; outsideStatute: string | null; described: number } | null {
  const { generation, known } = knownQuestions(ctx);
  if (!known?.length || !text) return null;
  const version = corpusVersion(ctx.db, corpusOf(coll.name));
  const cache = splits.in(ctx.state);
  let s = cache.get(coll.name);
  if (!s || s.version !== version || s.generation !== generation) {
    const forms = new Set(docsOf(ctx.db, coll.id).flatMap((d) => titleForms(d.title)));
    let inside = 0;
    const memory = knownMemory(ctx, coll, known, (k, i) => {
      const ours = k.relevant.some((ref) => forms.has(normLawTitle(splitArticleRef(ref)?.[0] ?? '')));
      if (ours) inside++;
      return [ours ? 0 : 1 + i];
    });
    s = { version, generation, inside, known, memory };
    cache.set(coll.name, s);
  }
  if (!s.memory) return null;
  const near = s.memory.nearest(text, NEIGHBOURS + 1, NEIGHBOURS, 0);
  const out = near.filter((n) => n.id > 0).sort((a, b) => b.best - a.best)[0];
  const ref = out ? splitArticleRef(s.known[out.id - 1].relevant[0] ?? '') : null;
  return { inside: near.find((n) => n.id === 0)?.best ?? 0, outside: out?.best ?? 0, outsideStatute: ref ? ref[0] : null, described: s.inside };
}
