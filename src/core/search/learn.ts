import { queryTokens, segmentForSearch } from '../text/segment';

/**
 * Learning from (question, relevant passage) pairs, for lay questions that do not use the
 * statute's words (`老公` vs `配偶`):
 * - TranslationModel: question word -> passage word associations (a translation model for
 *   retrieval, used as query expansion): for each pair every question token w "translates" to the
 *   passage tokens v; score(w->v) = co(w,v) / (count(w) + α) · idf(v), kept when co >= minCo.
 * - QaMemory: the training questions themselves, attached to their passages; a new question
 *   close to known questions points at their passages (document expansion by past questions).
 * Both are plain in-memory tables built from pairs only, so evaluations can refit them per fold.
 */

/** Article numbers and numerals (第一千, 九十九, 第四十条, 12): they name positions, not topics. */
const NUMBERING = /^(第?[零〇一二三四五六七八九十百千万两\d]+[条款项章节编]?|\d+(\.\d+)*)$/;

export interface TrainPair {
  question: string;
  /** passage ids (parent keys of the corpus) with their text */
  passages: { id: number; text: string }[];
}

export interface TranslationOptions {
  minCo?: number;
  alpha?: number;
  /** passage tokens per pair considered (most specific first by idf) */
  maxPassageTokens?: number;
}

export class TranslationModel {
  private readonly table = new Map<string, Map<string, number>>();

  private constructor(private readonly idf: (t: string) => number) {}

  /** `idf` gives the corpus idf of a token (unknown tokens: high idf). */
  static learn(pairs: TrainPair[], idf: (t: string) => number, o: TranslationOptions = {}): TranslationModel {
    const minCo = o.minCo ?? 2;
    const alpha = o.alpha ?? 1;
    const maxP = o.maxPassageTokens ?? 40;
    const model = new TranslationModel(idf);
    const co = new Map<string, Map<string, number>>();
    const count = new Map<string, number>();
    for (const pair of pairs) {
      const q = new Set(queryTokens(pair.question));
      const p = new Set<string>();
      for (const passage of pair.passages) for (const t of segmentForSearch(passage.text)) p.add(t);
      const pTop = [...p].filter((t) => t.length > 1 && !NUMBERING.test(t)).sort((a, b) => idf(b) - idf(a)).slice(0, maxP);
      for (const w of q) {
        count.set(w, (count.get(w) ?? 0) + 1);
        let row = co.get(w);
        if (!row) co.set(w, (row = new Map()));
        for (const v of pTop) if (v !== w) row.set(v, (row.get(v) ?? 0) + 1);
      }
    }
    for (const [w, row] of co) {
      const n = count.get(w) ?? 0;
      const out = new Map<string, number>();
      for (const [v, c] of row) if (c >= minCo) out.set(v, (c / (n + alpha)) * idf(v));
      if (out.size) model.table.set(w, out);
    }
    return model;
  }

  /**
   * Portable table (question word -> [[statute word, score]]), scores with the question word's
   * weight already applied, best first; `fromTable` restores a model that expands the same way.
   */
  toTable(maxPerWord = 10): Record<string, [string, number][]> {
    const out: Record<string, [string, number][]> = {};
    for (const [w, row] of this.table) {
      const weight = Math.min(1, this.idf(w) / 8);
      out[w] = [...row.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, maxPerWord)
        .map(([v, sc]) => [v, Math.round(weight * sc * 1000) / 1000]);
    }
    return out;
  }

  static fromTable(table: Record<string, [string, number][]>): TranslationModel {
    // weights are baked in: a constant idf of 8 makes expand() use them unchanged
    const model = new TranslationModel(() => 8);
    for (const [w, row] of Object.entries(table)) model.table.set(w, new Map(row));
    return model;
  }

  get size(): number {
    return this.table.size;
  }

  /** Up to `max` passage-side words for the query tokens, best first, excluding the tokens themselves. */
  expand(tokens: string[], max = 10): string[] {
    const score = new Map<string, number>();
    const own = new Set(tokens);
    for (const w of own) {
      const row = this.table.get(w);
      if (!row) continue;
      // rarer question words carry more topic
      const weight = Math.min(1, this.idf(w) / 8);
      for (const [v, s] of row) if (!own.has(v)) score.set(v, (score.get(v) ?? 0) + weight * s);
    }
    return [...score.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, max)
      .map(([v]) => v);
  }
}

/** Expansion words per query (the shipped table's `max_terms`, also the row length kept per question word). */
export const EXPANSION_MAX_TERMS = 10;

/**
 * The expansion table as shipped (resources/search/expansion.json, scripts/learn-expansion.ts).
 * Evaluations refit it with this same function on their train part only, so the table they
 * measure is built exactly like the shipped one but never saw the evaluated questions.
 */
export function fitExpansionTable(pairs: TrainPair[], idf: (t: string) => number, maxTerms = EXPANSION_MAX_TERMS): Record<string, [string, number][]> {
  return TranslationModel.learn(pairs, idf).toTable(maxTerms);
}

/** A table (shipped or refitted) as the query expander smart search uses. */
export function tableExpander(table: Record<string, [string, number][]>, maxTerms = EXPANSION_MAX_TERMS): (tokens: string[]) => string[] {
  const model = TranslationModel.fromTable(table);
  return (tokens) => model.expand(tokens, maxTerms);
}

export class QaMemory {
  private readonly entries: { tokens: Map<string, number>; norm: number; passages: number[] }[] = [];

  constructor(pairs: TrainPair[], private readonly idf: (t: string) => number) {
    for (const p of pairs) this.add(QaMemory.weigh(p.question, idf), p.passages.map((x) => x.id));
  }

  /** A question's tokens with their idf weights (what an entry is made of; can be stored and restored). */
  static weigh(question: string, idf: (t: string) => number): [string, number][] {
    return [...new Set(queryTokens(question))].map((t) => [t, idf(t)]);
  }

  /** A memory from already weighed questions (no segmentation, no idf lookups): `idf` weighs queries only. */
  static fromWeighed(entries: { tokens: [string, number][]; passages: number[] }[], idf: (t: string) => number): QaMemory {
    const memory = new QaMemory([], idf);
    for (const e of entries) memory.add(e.tokens, e.passages);
    return memory;
  }

  private add(weighed: [string, number][], passages: number[]): void {
    const tokens = new Map(weighed);
    const norm = Math.sqrt([...tokens.values()].reduce((s, w) => s + w * w, 0)) || 1;
    this.entries.push({ tokens, norm, passages });
  }

  /**
   * Passages of the most similar known questions (tf-idf cosine), summed per passage (Σ sim²), best
   * first; `best` is the highest cosine of a known question pointing at the passage. Known questions
   * below `minSim` are not neighbours (a list of weak neighbours would still rank 1, 2, 3 in a fusion).
   */
  nearest(question: string, k = 100, neighbours = 20, minSim = 0): { id: number; score: number; best: number }[] {
    const q = new Map<string, number>();
    for (const t of queryTokens(question)) q.set(t, this.idf(t));
    const qn = Math.sqrt([...q.values()].reduce((s, w) => s + w * w, 0)) || 1;
    const sims: { sim: number; passages: number[] }[] = [];
    for (const e of this.entries) {
      let dot = 0;
      for (const [t, w] of q) {
        const v = e.tokens.get(t);
        if (v) dot += w * v;
      }
      const sim = dot / (qn * e.norm);
      if (dot > 0 && sim >= minSim) sims.push({ sim, passages: e.passages });
    }
    sims.sort((a, b) => b.sim - a.sim);
    const score = new Map<number, number>();
    const best = new Map<number, number>();
    for (const s of sims.slice(0, neighbours)) {
      for (const id of s.passages) {
        score.set(id, (score.get(id) ?? 0) + s.sim * s.sim);
        best.set(id, Math.max(best.get(id) ?? 0, s.sim));
      }
    }
    return [...score.entries()]
      .map(([id, s]) => ({ id, score: s, best: best.get(id) ?? 0 }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }
}
