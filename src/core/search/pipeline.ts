import { aggregateParents, decide, rrfFuse, type Decision, type Normalisation, type ParentHit, type RankedHit } from './fusion';

/**
 * The one ranking pipeline (seed 003 parent retrieval) of every corpus — regulations
 * (search/engine.ts) and collections (collections/retrieve.ts) alike:
 *
 *   ranked chunk lists (title, lexical, expansion, vector, known, …)
 *   -> RRF over the lists (optional per-list weights), keep the best `topK` fused chunks
 *   -> chunk score: the absolute relevance 0..1 of each kept chunk
 *   -> parents (fusion.ts aggregateParents), scored by the corpus's normalisation option
 *   -> decision (fusion.ts decide): low_evidence / ambiguous / locked
 *   -> optionally a caller's evidence rule that may overrule it with a stated reason
 *   (-> regulations: the learned rerank stage, search/rerank.ts, re-orders the parents; the decision stays)
 *
 * Callers differ only in options: how scores are normalised (`ideal` absolute for regulations,
 * `best` relative as seed 003 writes it for collections), list weights, and the minimum chunk
 * evidence. Every rule a caller adds must be measured by an evaluation; the pipeline has none.
 */

export interface RetrievedChunk {
  key: string;
  parent: string;
  /** Absolute relevance 0..1 of this chunk for the query (term share, title match, 1/(1+d)). */
  score: number;
  /** 1-based; defaults to position + 1. Equal ranks express ties (two titles matching alike). */
  rank?: number;
}

export interface Retriever {
  /** Name of the ranked list (title, lexical, vector, …); shown in traces. */
  name: string;
  retrieve(query: string): Promise<RetrievedChunk[]> | RetrievedChunk[];
}

export interface PipelineOptions {
  rrfK: number;
  /** RRF weight per list name; absent = 1 */
  weights?: Record<string, number>;
  /** Fused chunks kept for aggregation (seed 003 top_k); default all. */
  topK?: number;
  coverageThreshold: number;
  tMin: number;
  ambiguityRatio: number;
  /** Weight of rrf_norm (0.7); max_norm gets the rest. */
  rrfWeight: number;
  /** Best chunk evidence below this is low evidence (0 = not checked). */
  minEvidence?: number;
  /** Close candidates an ambiguous decision lists (default all). */
  maxClose?: number;
  normalise: Normalisation;
  totalChunks(parent: string): number;
  /** Short Chinese name of a parent, for clarify questions. */
  label?: (parent: string) => string;
}

export interface PipelineChunk {
  key: string;
  parent: string;
  rrf: number;
  score: number;
  ranks: Record<string, number>;
}

export interface PipelineResult {
  lists: Record<string, RankedHit[]>;
  chunks: PipelineChunk[];
  /** Parents passing coverage by overall_score, then the others. */
  parents: ParentHit[];
  /** The generic seed-003 decision. */
  generic: Decision;
  /** The final decision (generic unless an evidence rule overruled it). */
  decision: Decision;
}

export type EvidenceRule = (r: Omit<PipelineResult, 'decision'>) => Decision | null;

export function distanceToScore(distance: number): number {
  return 1 / (1 + distance);
}

/** Cosine similarity -> cosine distance (1 - cos, as Chroma reports it) -> seed 003 score 1/(1+d). */
export function cosineToScore(cosine: number): number {
  return distanceToScore(1 - cosine);
}

/**
 * Fuses ranked lists, scores the kept chunks (`scoreOf`: absolute relevance of a chunk, whichever
 * list found it), aggregates parents and decides; `rule` may overrule the decision.
 */
export function rankLists(lists: Record<string, RankedHit[]>, scoreOf: (chunkKeys: string[]) => Map<string, number>, o: PipelineOptions, rule?: EvidenceRule): PipelineResult {
  const fused = rrfFuse(lists, o.rrfK, o.weights ?? {});
  const kept = o.topK !== undefined ? fused.slice(0, o.topK) : fused;
  const scores = scoreOf(kept.map((c) => c.key));
  const chunks: PipelineChunk[] = kept.map((c) => ({ key: c.key, parent: c.parent, rrf: c.rrf, ranks: c.ranks, score: scores.get(c.key) ?? 0 }));
  const parents = aggregateParents(chunks, o.totalChunks, { rrfK: o.rrfK, rrfWeight: o.rrfWeight, coverageThreshold: o.coverageThreshold, normalise: o.normalise });
  const generic = decide(parents, { tMin: o.tMin, ambiguityRatio: o.ambiguityRatio, minEvidence: o.minEvidence ?? 0, maxClose: o.maxClose }, o.label);
  const partial = { lists, chunks, parents, generic };
  const ruled = rule?.(partial) ?? null;
  return { ...partial, decision: ruled ?? generic };
}

/** Runs the retrievers (in order) and ranks their lists; a chunk's score is the best any retriever gave it. */
export async function runPipeline(query: string, retrievers: Retriever[], o: PipelineOptions, rule?: EvidenceRule): Promise<PipelineResult> {
  const lists: Record<string, RankedHit[]> = {};
  const scores = new Map<string, number>();
  for (const r of retrievers) {
    const hits = await r.retrieve(query);
    if (!hits.length) continue;
    lists[r.name] = hits.map((h, i) => ({ key: h.key, parent: h.parent, rank: h.rank ?? i + 1 }));
    for (const h of hits) scores.set(h.key, Math.max(scores.get(h.key) ?? 0, h.score));
  }
  return rankLists(lists, () => scores, o, rule);
}
