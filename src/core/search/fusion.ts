/**
 * Fusion of ranked lists (RRF) and seed 003's aggregation of chunk hits to their parents
 * (article, recipe, …) with an auto-lock / ambiguity / low-evidence decision. Generic: used by
 * regulation search and by document collections. All thresholds come from config.search.
 */

export interface RankedHit {
  /** chunk key, unique within the search */
  key: string;
  parent: string;
  /** 1-based */
  rank: number;
}

export interface FusedChunk {
  key: string;
  parent: string;
  /** Σ over lists of 1/(k + rank) */
  rrf: number;
  /** rank per list name (absent = not in that list) */
  ranks: Record<string, number>;
}

/**
 * Order of keys that tie on score: digit runs compared as numbers, everything else by code unit,
 * no locale (the CLI and the app may run under different ones). Collection chunk keys are
 * `<docId>#<ord>`: chunk 7#1 comes before 276#5 whatever ids the documents took, so a collection
 * imported after another one (every id shifted alike) breaks its ties the same way.
 */
export function keyOrder(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    if (/^\d/.test(x) && /^\d/.test(y)) {
      const nx = x.replace(/^0+(?=\d)/, '');
      const ny = y.replace(/^0+(?=\d)/, '');
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length || (a < b ? -1 : 1);
}

/**
 * Reciprocal rank fusion: rrf(d) = Σ_lists w_list/(k + rank_list(d)); sorted best first. Lists
 * without a weight count 1 (plain RRF).
 */
export function rrfFuse(lists: Record<string, RankedHit[]>, k: number, weights: Record<string, number> = {}): FusedChunk[] {
  const byKey = new Map<string, FusedChunk>();
  for (const [name, hits] of Object.entries(lists)) {
    const w = weights[name] ?? 1;
    for (const h of hits) {
      let c = byKey.get(h.key);
      if (!c) byKey.set(h.key, (c = { key: h.key, parent: h.parent, rrf: 0, ranks: {} }));
      if (c.ranks[name] !== undefined && c.ranks[name] <= h.rank) continue;
      if (c.ranks[name] !== undefined) c.rrf -= w / (k + c.ranks[name]);
      c.ranks[name] = h.rank;
      c.rrf += w / (k + h.rank);
    }
  }
  return [...byKey.values()].sort((a, b) => b.rrf - a.rrf || keyOrder(a.key, b.key));
}

export interface ChunkScore extends FusedChunk {
  /** absolute relevance of the chunk in 0..1 (term evidence and/or cosine) */
  score: number;
}

/**
 * How a parent's rank evidence becomes a 0..1 score, the one choice that differs between corpora:
 * - `ideal` (regulations): absolute. Coverage counts at most `coverageCap` chunks
 *     coverage_ratio = min(1, coverage / min(total_chunks, coverageCap))
 *   so a 1-chunk parent with its chunk hit and a 20-chunk parent with `coverageCap` hit chunks both
 *   reach 1 (raw coverage rewards long parents, which match a few chunks by chance; seed 003's
 *   coverage/total_chunks punishes them: one precise hit in a long article scores 0.05); then
 *     rrf_fair = coverage_ratio · mean(rrf of the best min(coverage, coverageCap) chunks)
 *     rrf_norm = min(1, rrf_fair / ideal), ideal = lists/(k+1) (one chunk ranked first in every list)
 *     max_norm = max_chunk_score (already absolute 0..1)
 *   A query whose best hit is mediocre scores low, which is what t_min needs.
 * - `best` (collections, seed 003 as written): coverage_ratio = coverage / total_chunks; over the
 *   parents passing coverage, rrf_norm = rrf_sum / max(rrf_sum), max_norm = max_chunk_score /
 *   max(max_chunk_score): relative to the best eligible parent (min-max would put a lone eligible
 *   parent at 0/0); parents failing coverage score 0.
 * Either way overall_score = rrfWeight · rrf_norm + (1 − rrfWeight) · max_norm.
 */
export type Normalisation =
  | {
      kind: 'ideal';
      /** number of ranked lists that took part, or the sum of their RRF weights */
      lists: number;
      /** how many chunks of one parent can count */
      coverageCap: number;
    }
  | { kind: 'best' };

export interface AggregateOptions {
  rrfK: number;
  /** weight of rrf_norm in overall_score (0.7); max_norm gets the rest */
  rrfWeight: number;
  coverageThreshold: number;
  normalise: Normalisation;
}

/** One parent (article, recipe, statute, …) aggregated from its hit chunks: the one parent type of every search. */
export interface ParentHit {
  parent: string;
  /** Σ of chunk rrf over all hit chunks (reported as in seed 003) */
  rrf_sum: number;
  max_chunk_score: number;
  /** number of distinct hit chunks */
  coverage: number;
  total_chunks: number;
  coverage_ratio: number;
  rrf_norm: number;
  max_norm: number;
  overall_score: number;
  /** coverage_ratio ≥ coverageThreshold: only such parents are decided on (seed 003 "eligible") */
  passes_coverage: boolean;
  /** hit chunk keys, best first */
  chunks: string[];
}

/**
 * Chunk hits -> parents, scored by `o.normalise` (see Normalisation); parents passing coverage
 * first, then by overall_score, rrf_sum, key.
 */
export function aggregateParents(chunks: ChunkScore[], totalChunks: (parent: string) => number, o: AggregateOptions): ParentHit[] {
  const groups = new Map<string, ChunkScore[]>();
  for (const c of chunks) {
    let g = groups.get(c.parent);
    if (!g) groups.set(c.parent, (g = []));
    g.push(c);
  }
  const n = o.normalise;
  const out: ParentHit[] = [];
  for (const [parent, g] of groups) {
    g.sort((a, b) => b.rrf - a.rrf);
    const coverage = new Set(g.map((c) => c.key)).size;
    const max_chunk_score = Math.max(...g.map((c) => c.score));
    const rrf_sum = g.reduce((s, c) => s + c.rrf, 0);
    let total: number;
    let coverage_ratio: number;
    let rrf_norm = 0;
    let max_norm = 0;
    if (n.kind === 'ideal') {
      const cap = Math.max(1, n.coverageCap);
      const ideal = n.lists / (o.rrfK + 1);
      total = Math.max(coverage, totalChunks(parent) || 1);
      coverage_ratio = Math.min(1, coverage / Math.min(total, cap));
      const counted = g.slice(0, Math.min(coverage, cap));
      const mean = counted.reduce((s, c) => s + c.rrf, 0) / counted.length;
      rrf_norm = ideal > 0 ? Math.min(1, (coverage_ratio * mean) / ideal) : 0;
      max_norm = Math.max(0, Math.min(1, max_chunk_score));
    } else {
      total = Math.max(coverage, totalChunks(parent) || 0);
      coverage_ratio = total > 0 ? coverage / total : 0;
    }
    out.push({
      parent,
      rrf_sum,
      max_chunk_score,
      coverage,
      total_chunks: total,
      coverage_ratio,
      rrf_norm,
      max_norm,
      overall_score: 0,
      passes_coverage: coverage_ratio >= o.coverageThreshold,
      chunks: g.map((c) => c.key),
    });
  }
  if (n.kind === 'best') {
    const eligible = out.filter((p) => p.passes_coverage);
    const maxRrf = Math.max(0, ...eligible.map((p) => p.rrf_sum));
    const maxScore = Math.max(0, ...eligible.map((p) => p.max_chunk_score));
    for (const p of eligible) {
      p.rrf_norm = maxRrf > 0 ? p.rrf_sum / maxRrf : 0;
      p.max_norm = maxScore > 0 ? p.max_chunk_score / maxScore : 0;
    }
  }
  for (const p of out) if (n.kind === 'ideal' || p.passes_coverage) p.overall_score = o.rrfWeight * p.rrf_norm + (1 - o.rrfWeight) * p.max_norm;
  return out.sort(
    (a, b) => Number(b.passes_coverage) - Number(a.passes_coverage) || b.overall_score - a.overall_score || b.rrf_sum - a.rrf_sum || keyOrder(a.parent, b.parent),
  );
}

export type DecisionState = 'locked' | 'ambiguous' | 'low_evidence';

export interface DecisionOptions {
  tMin: number;
  ambiguityRatio: number;
  /** best chunk evidence below this = low evidence even when ranks look fine (lexical-only lists); 0 = not checked */
  minEvidence: number;
  /** close candidates an ambiguous decision lists (default all) */
  maxClose?: number;
}

/** The one decision vocabulary of every search: locked / ambiguous / low_evidence, with a why. */
export interface Decision {
  state: DecisionState;
  /** the parent locked on, or the top candidates when ambiguous */
  parents: string[];
  /** thresholds and scores, for the "详细" of a why */
  reason: string;
  /** a Chinese question back to the asker (ambiguous / low evidence) */
  clarify?: string;
  /** name of a caller's evidence rule when it overruled the generic decision */
  rule?: string;
}

/**
 * seed 003 decision over aggregated parents (already sorted):
 * - low_evidence: no parent passes coverage, or top1 overall < t_min, or top1's best chunk is weak
 *   (rank-only fusion of a single list always looks confident, so absolute evidence is checked too);
 * - ambiguous: top2/top1 > ambiguityRatio;
 * - locked otherwise.
 * `label` turns a parent key into a short Chinese name for the clarify question.
 */
export function decide(parents: ParentHit[], o: DecisionOptions, label: (parent: string) => string = (p) => p): Decision {
  const eligible = parents.filter((p) => p.passes_coverage);
  if (eligible.length === 0) {
    return {
      state: 'low_evidence',
      parents: [],
      reason: parents.length ? '没有候选达到覆盖度阈值' : '没有任何命中',
      clarify: '没有找到足够相关的内容，能否换个说法，或补充设备名称、电压等级、具体场景？',
    };
  }
  const top = eligible[0];
  if (top.overall_score < o.tMin || (o.minEvidence > 0 && top.max_chunk_score < o.minEvidence)) {
    return {
      state: 'low_evidence',
      parents: [top.parent],
      reason: top.overall_score < o.tMin ? `最高综合分 ${top.overall_score.toFixed(3)} 低于阈值 ${o.tMin}` : `最佳片段证据 ${top.max_chunk_score.toFixed(3)} 低于阈值 ${o.minEvidence}`,
      clarify: `证据不足：最接近的是「${label(top.parent)}」，但匹配度较低。能否补充更具体的关键词？`,
    };
  }
  const second = eligible[1];
  if (second && top.overall_score > 0 && second.overall_score / top.overall_score > o.ambiguityRatio) {
    const close = eligible.filter((p) => p.overall_score / top.overall_score > o.ambiguityRatio).slice(0, o.maxClose ?? Infinity);
    return {
      state: 'ambiguous',
      parents: close.map((p) => p.parent),
      reason: `前两名得分比 ${(second.overall_score / top.overall_score).toFixed(3)} 高于 ${o.ambiguityRatio}`,
      clarify: `找到多个相近的结果：${close.map((p) => `「${label(p.parent)}」`).join('、')}，请问您指的是哪一个？`,
    };
  }
  return { state: 'locked', parents: [top.parent], reason: second ? `领先第二名 ${(1 - second.overall_score / top.overall_score).toFixed(3)}` : '唯一候选' };
}
