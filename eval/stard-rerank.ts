/**
 * Training data of the learned reranker (src/core/search/rerank.ts, regulations/rerank.ts) from
 * ../shared only, shared by its trainer (scripts/train-reranker.ts) and the STARD evaluation:
 *
 * - questions: the held-out fifth of STARD train.jsonl (eval/stard.eval.ts hash split). Its features
 *   are honest: the embedding model never saw these questions, and the expansion table and known
 *   questions are refitted on the train part only. (The train part cannot serve: the model was
 *   trained on it, so its vector ranks there are near perfect and a reranker would learn to trust
 *   them blindly.)
 * - candidates: the first `pool` parents of the default hybrid search over every statute, with
 *   label 1 for the question's articles.
 * - evaluation: two-fold cross-fitting over the two halves of the held-out fifth (tuneSliceOf): each
 *   question is reranked by a model fitted on the other half only.
 */
import type { AppContext } from '../src/core/context';
import { smartSearch, type SmartSearchOptions } from '../src/core/regulations/search';
import { fitLinearReranker, rerankScore, type FitOptions, type LinearReranker, type RerankGroup } from '../src/core/search/rerank';
import { REG_FEATURES } from '../src/core/regulations/rerank';

/** The embedding model the reranker's vector features are measured with. */
export const RERANK_EMBEDDING_MODEL = 'gridcode-zh-v1';

interface Question {
  id: number;
  question: string;
  gold: number[];
  /** per cited article, its units (one per edition; eval/stard.eval.ts) */
  cited: number[][];
}

export interface LabelledGroup extends RerankGroup {
  id: number;
  parents: string[];
  /** gold units of the question (also those outside the pool) */
  gold: number;
  /** per cited article, its units (found when any is): recall counts articles, not editions' copies */
  cited: string[][];
}

/** Rerank features of the first `pool` candidates of each question's default hybrid search (no reranker). */
export async function rerankGroups(ctx: AppContext, honest: () => SmartSearchOptions, qs: Question[], pool: number, candidates: number): Promise<LabelledGroup[]> {
  const out: LabelledGroup[] = [];
  for (const q of qs) {
    let rows: { parent: string; x: number[] }[] = [];
    await smartSearch(ctx, { query: q.question, reg_id: 'all', top_k: 10, mode: 'hybrid' }, { ...honest(), rerank: null, featurePool: pool, featureCandidates: candidates, onFeatures: (r) => (rows = r) });
    const gold = new Set(q.gold.map(String));
    out.push({ id: q.id, parents: rows.map((r) => r.parent), x: rows.map((r) => r.x), y: rows.map((r) => (gold.has(r.parent) ? 1 : 0)), gold: gold.size, cited: q.cited.map((units) => units.map(String)) });
  }
  return out;
}

/** Parents the shipped reranker re-orders, and chunk candidates per ranked list it looks at. */
export const RERANK_POOL = 400;
export const RERANK_CANDIDATES = 200;

/** How the shipped reranker is fitted (scripts/train-reranker.ts); the evaluation cross-fits with the same. */
export const RERANK_FIT: FitOptions = { l2: 1, listwise: 1 };

export interface Depth {
  pool: number;
  candidates: number;
}

export function fitReranker(groups: RerankGroup[], depth: Depth, fit: FitOptions = RERANK_FIT): LinearReranker {
  return fitLinearReranker(groups, [...REG_FEATURES], { ...depth, embedding_model: RERANK_EMBEDDING_MODEL }, fit);
}

/**
 * Two-fold cross-fitting over the halves of the held-out fifth (`inA` = tuning half): the model
 * that reranks a question was fitted on the other half only.
 */
export function crossFitted(
  groups: LabelledGroup[],
  inA: (id: number) => boolean,
  depth: Depth,
  fit: FitOptions = RERANK_FIT,
): { modelFor: (id: number) => LinearReranker; a: LinearReranker; b: LinearReranker } {
  const a = fitReranker(groups.filter((g) => inA(g.id)), depth, fit);
  const b = fitReranker(groups.filter((g) => !inA(g.id)), depth, fit);
  return { a, b, modelFor: (id) => (inA(id) ? b : a) };
}

/** Pool order of a model (for poolMetrics). */
export function byModel(model: (id: number) => LinearReranker): (g: LabelledGroup, i: number) => number {
  return (g, i) => rerankScore(model(g.id), g.x[i]);
}

/** R@10 / R@100 / MRR@10 of groups ordered by `score` (candidates beyond the pool count as misses). */
export function poolMetrics(groups: LabelledGroup[], score: (g: LabelledGroup, i: number) => number): { r10: number; r100: number; mrr10: number; n: number } {
  let r10 = 0;
  let r100 = 0;
  let mrr = 0;
  for (const g of groups) {
    const order = g.x.map((_, i) => i).sort((a, b) => score(g, b) - score(g, a) || a - b);
    const hits = (k: number) => {
      const got = new Set(order.slice(0, k).map((i) => g.parents[i]));
      return g.cited.filter((units) => units.some((u) => got.has(u))).length / (g.cited.length || 1);
    };
    r10 += hits(10);
    r100 += hits(100);
    const first = order.slice(0, 10).findIndex((i) => g.y[i] > 0);
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  const n = groups.length || 1;
  return { r10: r10 / n, r100: r100 / n, mrr10: mrr / n, n: groups.length };
}
