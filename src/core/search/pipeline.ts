import { rrfFuse, type RankedHit } from './fusion';

/**
 * One retrieval pipeline (seed 003 parent retrieval) for any chunked corpus:
 *
 *   retrievers (title, lexical, vectors, …) -> ranked chunk lists
 *   -> RRF over the lists, keep the best `topK` chunks
 *   -> parents: rrf_sum = Σ chunk rrf, max_chunk_score = max chunk score, coverage = hit chunks,
 *      coverage_ratio = coverage / total_chunks
 *   -> parents with coverage_ratio >= coverageThreshold are eligible; over the eligible ones
 *      rrf_sum_norm = rrf_sum / max(rrf_sum), max_chunk_norm = max_chunk_score / max(max_chunk_score),
 *      overall_score = 0.7 · rrf_sum_norm + 0.3 · max_chunk_norm
 *   -> decision: low_evidence (none eligible, or top1 < tMin), ambiguous (top2/top1 > ratio), locked.
 *
 * Normalising by the best eligible parent (not min-max): min-max would put a lone eligible parent
 * at 0/0 and make top2/top1 depend on the weakest candidate of the list.
 *
 * Callers supply their retrievers and, optionally, an evidence rule that may overrule the generic
 * decision with a stated reason (e.g. a document named by its title). Every rule a caller adds
 * must be measured by an evaluation; the pipeline itself has none.
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
  /** Fused chunks kept for aggregation (seed 003 top_k). */
  topK: number;
  coverageThreshold: number;
  tMin: number;
  ambiguityRatio: number;
  /** Weight of rrf_sum_norm (0.7); max_chunk_norm gets the rest. */
  rrfWeight: number;
  totalChunks(parent: string): number;
}

export interface PipelineChunk {
  key: string;
  parent: string;
  rrf: number;
  score: number;
  ranks: Record<string, number>;
}

export interface PipelineParent {
  parent: string;
  rrf_sum: number;
  max_chunk_score: number;
  coverage: number;
  total_chunks: number;
  coverage_ratio: number;
  eligible: boolean;
  rrf_sum_norm: number;
  max_chunk_norm: number;
  overall_score: number;
  /** Hit chunk keys, best fused first. */
  chunks: string[];
}

export type PipelineState = 'locked' | 'ambiguous' | 'low_evidence';

export interface PipelineDecision {
  state: PipelineState;
  /** Locked parent, or the close candidates when ambiguous (best first). */
  parents: string[];
  reason: string;
  /** Name of the caller's evidence rule when it changed the generic decision. */
  rule?: string;
}

export interface PipelineResult {
  lists: Record<string, RankedHit[]>;
  chunks: PipelineChunk[];
  /** Eligible parents by overall_score, then the others by rrf_sum. */
  parents: PipelineParent[];
  /** The generic seed-003 decision. */
  generic: PipelineDecision;
  /** The final decision (generic unless an evidence rule overruled it). */
  decision: PipelineDecision;
}

export type EvidenceRule = (r: Omit<PipelineResult, 'decision'>) => PipelineDecision | null;

export function distanceToScore(distance: number): number {
  return 1 / (1 + distance);
}

/** Cosine similarity -> cosine distance (1 - cos, as Chroma reports it) -> seed 003 score 1/(1+d). */
export function cosineToScore(cosine: number): number {
  return distanceToScore(1 - cosine);
}

/** Seed 003 aggregation of fused chunks to parents (see the file comment for the formulas). */
export function aggregateSeed003(chunks: PipelineChunk[], o: Pick<PipelineOptions, 'coverageThreshold' | 'rrfWeight' | 'totalChunks'>): PipelineParent[] {
  const groups = new Map<string, PipelineChunk[]>();
  for (const c of chunks) {
    let g = groups.get(c.parent);
    if (!g) groups.set(c.parent, (g = []));
    g.push(c);
  }
  const parents: PipelineParent[] = [];
  for (const [parent, g] of groups) {
    const coverage = new Set(g.map((c) => c.key)).size;
    const total = Math.max(coverage, o.totalChunks(parent) || 0);
    const coverage_ratio = total > 0 ? coverage / total : 0;
    parents.push({
      parent,
      rrf_sum: g.reduce((s, c) => s + c.rrf, 0),
      max_chunk_score: Math.max(...g.map((c) => c.score)),
      coverage,
      total_chunks: total,
      coverage_ratio,
      eligible: coverage_ratio >= o.coverageThreshold,
      rrf_sum_norm: 0,
      max_chunk_norm: 0,
      overall_score: 0,
      chunks: g.map((c) => c.key),
    });
  }
  const eligible = parents.filter((p) => p.eligible);
  const maxRrf = Math.max(0, ...eligible.map((p) => p.rrf_sum));
  const maxScore = Math.max(0, ...eligible.map((p) => p.max_chunk_score));
  for (const p of eligible) {
    p.rrf_sum_norm = maxRrf > 0 ? p.rrf_sum / maxRrf : 0;
    p.max_chunk_norm = maxScore > 0 ? p.max_chunk_score / maxScore : 0;
    p.overall_score = o.rrfWeight * p.rrf_sum_norm + (1 - o.rrfWeight) * p.max_chunk_norm;
  }
  return parents.sort(
    (a, b) =>
      Number(b.eligible) - Number(a.eligible) ||
      b.overall_score - a.overall_score ||
      b.rrf_sum - a.rrf_sum ||
      a.parent.localeCompare(b.parent),
  );
}

/** Seed 003 decision over aggregated parents (eligible first, by overall_score). */
export function decideSeed003(parents: PipelineParent[], o: Pick<PipelineOptions, 'tMin' | 'ambiguityRatio'>): PipelineDecision {
  const eligible = parents.filter((p) => p.eligible);
  if (!eligible.length) {
    return { state: 'low_evidence', parents: [], reason: parents.length ? `没有候选的覆盖率达到阈值` : '没有任何命中' };
  }
  const top = eligible[0];
  if (top.overall_score < o.tMin) {
    return { state: 'low_evidence', parents: [top.parent], reason: `最高综合分 ${top.overall_score.toFixed(3)} 低于阈值 ${o.tMin}` };
  }
  const second = eligible[1];
  if (second && second.overall_score / top.overall_score > o.ambiguityRatio) {
    const close = eligible.filter((p) => p.overall_score / top.overall_score > o.ambiguityRatio).map((p) => p.parent);
    return { state: 'ambiguous', parents: close, reason: `前两名得分比 ${(second.overall_score / top.overall_score).toFixed(3)} 高于 ${o.ambiguityRatio}` };
  }
  return {
    state: 'locked',
    parents: [top.parent],
    reason: second ? `领先第二名（得分比 ${(second.overall_score / top.overall_score).toFixed(3)}）` : '唯一达到覆盖率的候选',
  };
}

/** Runs the retrievers (in order), fuses, aggregates and decides. */
export async function runPipeline(query: string, retrievers: Retriever[], o: PipelineOptions, rule?: EvidenceRule): Promise<PipelineResult> {
  const lists: Record<string, RankedHit[]> = {};
  const scores = new Map<string, number>();
  for (const r of retrievers) {
    const hits = await r.retrieve(query);
    if (!hits.length) continue;
    lists[r.name] = hits.map((h, i) => ({ key: h.key, parent: h.parent, rank: h.rank ?? i + 1 }));
    for (const h of hits) scores.set(h.key, Math.max(scores.get(h.key) ?? 0, h.score));
  }
  const chunks: PipelineChunk[] = rrfFuse(lists, o.rrfK)
    .slice(0, o.topK)
    .map((c) => ({ key: c.key, parent: c.parent, rrf: c.rrf, ranks: c.ranks, score: scores.get(c.key) ?? 0 }));
  const parents = aggregateSeed003(chunks, o);
  const generic = decideSeed003(parents, o);
  const partial = { lists, chunks, parents, generic };
  const ruled = rule?.(partial) ?? null;
  return { ...partial, decision: ruled ?? generic };
}
