import { logisticLoss, sigmoid, standardise } from '../common/logistic';
import type { ChunkInfo, EngineResult } from './engine';
import type { ParentHit } from './fusion';

/**
 * The rerank stage: after fusion and parent aggregation, a learned linear model re-orders the
 * first `pool` parents from features the engine already computed (ranks in every list, cosine,
 * term evidence, coverage, how much of the candidates' evidence the parent's scope holds) plus
 * features the caller adds (regulations: local regulation, article kind, title match). Cheap
 * (a dot product per candidate, no text is read) and trained offline on held-out questions
 * (scripts/train-reranker.ts); fitted by `fitLinearReranker` below (L2 logistic regression on
 * standardised features, one query's candidates per group; standardisation and pointwise loss from
 * common/logistic.ts, the lock model's fitter).
 */

/** Features every engine result has, in model order (callers append theirs). */
export const ENGINE_FEATURES = [
  'overall',
  'rrf_norm',
  'coverage',
  'position',
  'lexical',
  'expansion',
  'vector',
  'known',
  'cosine',
  'evidence',
  'scope_share',
  'scope_vector',
  'scope_known',
  'scope_top50',
] as const;

export interface LinearReranker {
  kind: 'linear';
  /** feature names, in the order of `weights` */
  features: string[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** parents (engine order) the reranker re-orders; the rest keep their order after them */
  pool: number;
  /** chunk candidates per ranked list the features were measured with (the search looks this deep) */
  candidates: number;
  /** the embedding model the vector features were measured with: other models are not reranked */
  embedding_model: string;
}

/** A rank in a list -> 0..1, 1 at rank 1, 0.5 at rank 10, 0 when absent. */
function inv(rank: number | null | undefined): number {
  return rank === null || rank === undefined ? 0 : 10 / (9 + rank);
}

/** Scope (regulation) shares of the first `top` entries of a list of parents / chunks. */
function shares(scopes: (string | undefined)[], weights?: number[]): Map<string, number> {
  const out = new Map<string, number>();
  let total = 0;
  scopes.forEach((s, i) => {
    if (s === undefined) return;
    const w = weights?.[i] ?? 1;
    out.set(s, (out.get(s) ?? 0) + w);
    total += w;
  });
  if (total > 0) for (const [k, v] of out) out.set(k, v / total);
  return out;
}

/**
 * Engine features of the first `pool` parents (ENGINE_FEATURES order). `ranks` of a parent are its
 * best chunk's rank per list; scope shares are measured on the first 20 parents (overall score),
 * the vector list's first 50 chunks, the known list's first 50 and the first 50 parents (unweighted).
 */
export function engineFeatures(engine: EngineResult, pool: number): { parent: string; scope: string; x: number[] }[] {
  const parents = engine.parents.slice(0, pool);
  const chunksOf = (p: ParentHit) => p.chunks.map((k) => engine.chunks.get(k)).filter((c): c is ChunkInfo => !!c);
  const scopeOf = new Map<string, string>();
  for (const c of engine.chunks.values()) if (!scopeOf.has(c.parent)) scopeOf.set(c.parent, c.scope);
  const head = engine.parents.slice(0, 20);
  const scopeShare = shares(
    head.map((p) => scopeOf.get(p.parent)),
    head.map((p) => p.overall_score),
  );
  const listShare = (name: string) => {
    const inList = [...engine.chunks.values()].filter((c) => c.ranks[name] !== undefined && c.ranks[name] <= 50);
    return shares(inList.map((c) => c.scope));
  };
  // unweighted share of the first 50 parents (chosen on the tuning half of STARD: R@10 +0.014 there)
  const top50Share = shares(engine.parents.slice(0, 50).map((p) => scopeOf.get(p.parent)));
  const vectorShare = listShare('vector');
  const knownShare = listShare('known');
  return parents.map((p, i) => {
    const chunks = chunksOf(p);
    const best = (name: string) => {
      const rs = chunks.map((c) => c.ranks[name]).filter((r): r is number => r !== undefined);
      return rs.length ? Math.min(...rs) : null;
    };
    const scope = scopeOf.get(p.parent) ?? '';
    const x = [
      p.overall_score,
      p.rrf_norm,
      p.coverage_ratio,
      Math.log1p(i),
      inv(best('lexical')),
      inv(best('expansion')),
      inv(best('vector')),
      inv(best('known')),
      Math.max(0, ...chunks.map((c) => c.cosine ?? 0)),
      Math.max(0, ...chunks.map((c) => c.evidence)),
      scopeShare.get(scope) ?? 0,
      vectorShare.get(scope) ?? 0,
      knownShare.get(scope) ?? 0,
      top50Share.get(scope) ?? 0,
    ];
    return { parent: p.parent, scope, x };
  });
}

export function rerankScore(model: LinearReranker, x: number[]): number {
  let z = model.bias;
  for (let j = 0; j < model.weights.length; j++) z += model.weights[j] * (((x[j] ?? 0) - model.mean[j]) / model.scale[j]);
  return sigmoid(z);
}

/** Whether the model fits these features and embedding model (a model trained on other features is ignored). */
export function rerankerApplies(model: LinearReranker, features: readonly string[], embeddingModel: string | null): boolean {
  return (
    !!embeddingModel &&
    (embeddingModel === model.embedding_model || embeddingModel.startsWith(`${model.embedding_model}-`)) &&
    model.features.length === features.length &&
    model.features.every((f, i) => f === features[i])
  );
}

export interface RerankGroup {
  /** one row per candidate */
  x: number[][];
  /** 1 = relevant */
  y: number[];
}

export interface FitOptions {
  /** L2 penalty on the standardised weights */
  l2?: number;
  /** weight of the listwise term (softmax over a group's candidates); the pointwise term weighs 1 */
  listwise?: number;
  iterations?: number;
}

/**
 * A linear model over standardised features (mean 0, sd 1 over the training candidates), fitted on
 * two convex terms summed over groups (groups with no positive or no negative are skipped):
 * - pointwise: logistic loss, positives weighted so a group's positives weigh as much as its negatives;
 * - listwise (weight `listwise`): cross-entropy of the softmax over the group's candidates against
 *   its positives (what puts a right answer first; the pointwise term keeps the deep order).
 * Plus an L2 penalty. Newton steps (a handful of features: each step solves a small linear
 * system). Deterministic.
 */
export function fitLinearReranker(groups: RerankGroup[], features: string[], meta: { pool: number; candidates: number; embedding_model: string }, o: FitOptions = {}): LinearReranker {
  const l2 = o.l2 ?? 1;
  const lw = o.listwise ?? 1;
  const d = features.length;
  const used = groups.filter((g) => g.y.some((v) => v > 0) && g.y.some((v) => v <= 0));
  const all = used.flatMap((g) => g.x);
  const { mean, scale } = standardise(all, d);
  const n = d + 1;
  const data = used.map((g) => ({ z: g.x.map((x) => [...x.map((v, j) => (v - mean[j]) / scale[j]), 1]), y: g.y.map((v): number => (v > 0 ? 1 : 0)) }));
  /** objective, gradient and Hessian at b */
  const evaluate = (b: number[], withDerivatives: boolean) => {
    let loss = 0;
    const grad = new Array<number>(n).fill(0);
    const hess = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    const addOuter = (w: number, a: number[], c: number[]) => {
      for (let j = 0; j < n; j++) {
        const wj = w * a[j];
        if (wj) for (let k = j; k < n; k++) hess[j][k] += wj * c[k];
      }
    };
    for (const { z, y } of data) {
      const pos = y.reduce((acc, v) => acc + v, 0);
      const neg = y.length - pos;
      const s = z.map((zi) => zi.reduce((acc, v, j) => acc + v * b[j], 0));
      // pointwise
      s.forEach((si, i) => {
        const p = sigmoid(si);
        const w = y[i] ? 0.5 / pos : 0.5 / neg;
        loss += w * logisticLoss(si, y[i]);
        if (!withDerivatives) return;
        for (let j = 0; j < n; j++) grad[j] += w * (p - y[i]) * z[i][j];
        addOuter(w * p * (1 - p), z[i], z[i]);
      });
      if (lw > 0) {
        // listwise: softmax over the group
        const mx = Math.max(...s);
        const e = s.map((v) => Math.exp(v - mx));
        const sum = e.reduce((a, c) => a + c, 0);
        const logZ = mx + Math.log(sum);
        s.forEach((si, i) => {
          if (y[i]) loss += (lw * (logZ - si)) / pos;
        });
        if (!withDerivatives) continue;
        const p = e.map((v) => v / sum);
        const m = new Array<number>(n).fill(0);
        p.forEach((pi, i) => {
          for (let j = 0; j < n; j++) {
            m[j] += pi * z[i][j];
            grad[j] += lw * (pi - y[i] / pos) * z[i][j];
          }
          addOuter(lw * pi, z[i], z[i]);
        });
        addOuter(-lw, m, m);
      }
    }
    for (let j = 0; j < n; j++) {
      // each group's terms weigh about 1: the penalty weighs like `l2` groups; the bias is not penalised
      if (j < d) {
        loss += 0.5 * l2 * b[j] * b[j];
        grad[j] += l2 * b[j];
        hess[j][j] += l2;
      }
      hess[j][j] += 1e-9;
      for (let k = 0; k < j; k++) hess[j][k] = hess[k][j];
    }
    return { loss, grad, hess };
  };
  let beta = new Array<number>(n).fill(0);
  let cur = evaluate(beta, true);
  for (let it = 0; it < (o.iterations ?? 50); it++) {
    const step = solve(cur.hess, cur.grad);
    // damped Newton: halve the step until the objective decreases
    let t = 1;
    let next = beta;
    let nextLoss = Infinity;
    for (let tries = 0; tries < 30; tries++, t /= 2) {
      next = beta.map((v, j) => v - t * step[j]);
      nextLoss = evaluate(next, false).loss;
      if (nextLoss <= cur.loss) break;
    }
    if (!(nextLoss <= cur.loss)) break;
    const moved = Math.max(...step.map((v) => Math.abs(t * v)));
    beta = next;
    cur = evaluate(beta, true);
    if (moved < 1e-7 || cur.loss === 0) break;
  }
  return { kind: 'linear', features, mean, scale, weights: beta.slice(0, d), bias: beta[d], pool: meta.pool, candidates: meta.candidates, embedding_model: meta.embedding_model };
}

/** Gaussian elimination with partial pivoting (small dense systems). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[piv][c])) piv = r;
    [m[c], m[piv]] = [m[piv], m[c]];
    const p = m[c][c] || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / p;
      if (f) for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r][n];
    for (let k = r + 1; k < n; k++) s -= m[r][k] * x[k];
    x[r] = s / (m[r][r] || 1e-12);
  }
  return x;
}
