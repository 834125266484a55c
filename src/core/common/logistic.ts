/**
 * Logistic regression, the one fitter of the project's learned decisions: the statute lock
 * (collections/lock-model.ts, scripts/fit-lock-model.ts) fits with `fitLogistic`; the learned reranker
 * (search/rerank.ts fitLinearReranker) adds its listwise term to the same standardisation and
 * pointwise loss (`standardise`, `sigmoid`, `logisticLoss`) under Newton steps. Deterministic.
 */

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** −log p(y | score s) of the logistic model: log(1 + e^-s) for y = 1, log(1 + e^s) for y = 0, computed stably. */
export function logisticLoss(s: number, y: number): number {
  const m = y ? -s : s;
  return Math.max(m, 0) + Math.log1p(Math.exp(-Math.abs(m)));
}

/** Mean and standard deviation (population; 1 where a feature is constant) of each of the `d` columns of `xs`. */
export function standardise(xs: number[][], d: number): { mean: number[]; scale: number[] } {
  const n = Math.max(xs.length, 1);
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j], 0) / n);
  const scale = Array.from({ length: d }, (_, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j] - mean[j]) ** 2, 0) / n) || 1);
  return { mean, scale };
}

export interface LogisticOptions {
  /** L2 penalty on the standardised weights (the bias is not penalised), as a count of rows */
  l2?: number;
  /** batch gradient-descent steps */
  steps?: number;
  /** step size */
  rate?: number;
  /** round the raw-scale bias and weights to this many decimals (none: unrounded) */
  decimals?: number;
}

/**
 * L2-regularised logistic regression over feature vectors: batch gradient descent on standardised
 * features, the weights mapped back to the raw scale (p = σ(bias + Σ weightsⱼ · xⱼ)). Deterministic.
 * The lock model fits with its defaults, rounded to 3 decimals (`models:fit-lock --features` measures
 * candidate features with it too).
 */
export function fitLogistic(rows: { x: number[]; y: boolean }[], o: LogisticOptions = {}): { bias: number; weights: number[] } {
  const { l2 = 1, steps = 3000, rate = 0.5, decimals } = o;
  const k = decimals === undefined ? 0 : 10 ** decimals;
  const round = (v: number) => (k ? Math.round(v * k) / k : v);
  const n = rows.length;
  const d = rows[0]?.x.length ?? 0;
  const { mean, scale } = standardise(
    rows.map((r) => r.x),
    d,
  );
  const x = rows.map((r) => r.x.map((v, j) => (v - mean[j]) / scale[j]));
  const y = rows.map((r) => (r.y ? 1 : 0));
  const w = Array.from({ length: d }, () => 0);
  let b = 0;
  for (let step = 0; step < steps; step++) {
    const gw = w.map(() => 0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const err = sigmoid(b + w.reduce((s, wj, j) => s + wj * x[i][j], 0)) - y[i];
      gb += err;
      for (let j = 0; j < d; j++) gw[j] += err * x[i][j];
    }
    b -= (rate * gb) / Math.max(n, 1);
    for (let j = 0; j < d; j++) w[j] -= rate * (gw[j] / Math.max(n, 1) + (l2 * w[j]) / Math.max(n, 1));
  }
  let bias = b;
  const weights = w.map((wj, j) => {
    bias -= (wj * mean[j]) / scale[j];
    return round(wj / scale[j]);
  });
  return { bias: round(bias), weights };
}
