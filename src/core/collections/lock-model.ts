/**
 * The calibrated lock decision of statute collections: after the focus rule (retrieve.ts) has found
 * the best article and its document, how likely is that document the right one? A logistic model
 * over what the ranking saw:
 *
 *   margin        1 − (best article of another statute family) / (best article), 1 without a rival
 *   familyMargin  1 − (best article of any other document) / (best article)
 *   evidence      idf-weighted share of the question's terms in the best article (lay words learned)
 *   known         highest similarity of a known question pointing into the document (0: none)
 *   subject       idf-weighted share of the question's nouns the document holds anywhere
 *   coverage      idf-weighted share of all the question's own words the document holds anywhere
 *   agree         share of the ranked lists (words, vectors, known questions) whose first hit lies in it
 *   concentration share of the ten best fused chunks that lie in it
 *
 *   p(right) = σ(bias + Σ wᵢ · featureᵢ)
 *
 * (No cosine: its scale differs between embedding models and it is absent without one.)
 *
 * The document is locked when p ≥ the threshold; otherwise the question is asked back with the two
 * closest documents (or answered as low evidence when there is no second one): asking beats a wrong
 * lock. Weights and threshold live in config (collections.lockModel), fitted by
 * `npm run eval -- collections-stard --fit-lock` on the tuning part of the STARD split only (criterion
 * in config.ts); the held-out part reports the curve.
 */

export const LOCK_FEATURES = ['margin', 'familyMargin', 'evidence', 'known', 'subject', 'coverage', 'agree', 'concentration'] as const;
export type LockFeature = (typeof LOCK_FEATURES)[number];
export type LockFeatures = Record<LockFeature, number>;

export interface LockModel {
  bias: number;
  weights: Record<LockFeature, number>;
}

export function lockProbability(model: LockModel, f: LockFeatures): number {
  let z = model.bias;
  for (const k of LOCK_FEATURES) z += (model.weights[k] ?? 0) * f[k];
  return 1 / (1 + Math.exp(-z));
}

/**
 * Fits the model by L2-regularised logistic regression (batch gradient descent on standardised
 * features, weights mapped back), deterministic. `rows`: features with whether the top document was right.
 */
export function fitLockModel(rows: { f: LockFeatures; right: boolean }[], l2 = 0.5, steps = 4000, rate = 0.1): LockModel {
  const n = rows.length;
  const mean = {} as Record<LockFeature, number>;
  const sd = {} as Record<LockFeature, number>;
  for (const k of LOCK_FEATURES) {
    mean[k] = rows.reduce((s, r) => s + r.f[k], 0) / Math.max(n, 1);
    sd[k] = Math.sqrt(rows.reduce((s, r) => s + (r.f[k] - mean[k]) ** 2, 0) / Math.max(n, 1)) || 1;
  }
  const x = rows.map((r) => LOCK_FEATURES.map((k) => (r.f[k] - mean[k]) / sd[k]));
  const y = rows.map((r) => (r.right ? 1 : 0));
  const w = LOCK_FEATURES.map(() => 0);
  let b = 0;
  for (let step = 0; step < steps; step++) {
    const gw = w.map(() => 0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const z = b + w.reduce((s, wj, j) => s + wj * x[i][j], 0);
      const err = 1 / (1 + Math.exp(-z)) - y[i];
      gb += err;
      for (let j = 0; j < w.length; j++) gw[j] += err * x[i][j];
    }
    b -= (rate * gb) / n;
    for (let j = 0; j < w.length; j++) w[j] -= rate * (gw[j] / n + (l2 * w[j]) / n);
  }
  const weights = {} as Record<LockFeature, number>;
  let bias = b;
  for (const [j, k] of LOCK_FEATURES.entries()) {
    weights[k] = round(w[j] / sd[k]);
    bias -= (w[j] * mean[k]) / sd[k];
  }
  return { bias: round(bias), weights };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
