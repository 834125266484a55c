import fitted from './data/lock-model.json' with { type: 'json' };

/**
 * The calibrated lock decision of statute collections: after the focus rule (retrieve.ts) has
 * scored the articles of the question's fused chunks, which statute is meant, and how likely is
 * that right? Both from signals every statute collection has (no known questions, no citation
 * counts, nothing learnt about one collection's documents):
 *
 * 1. aggregation — each document's share of softmax(article score / T) over the scored articles, so
 *    a statute with several good articles counts for more than one with a single lucky match; the
 *    chosen statute is the best article's (chooser 'article') or the largest share's ('share'): the
 *    fit picks chooser and T on the tuning rows (the shipped fit keeps the best article's statute;
 *    by share locked fewer right statutes on the STARD tuning half and moved two labour questions to
 *    the wrong statute; the focus rule's law-over-its-rules tie-break locked fewer too).
 * 2. confidence — p(the chosen statute is right) = σ(bias + Σ wᵢ · featureᵢ) over
 *
 *      statuteShare  its share above (how far the statute-level aggregation leans to it)
 *      evidence      idf-weighted share of the question's terms in its best article
 *      lexicalFirst  1 when the word ranking's (BM25) first hit lies in it
 *      vectorFirst   1 when the embedding ranking's first hit lies in it (no vectors: = lexicalFirst)
 *      concentration its share of the ten best fused chunks
 *
 * The chosen statute is locked when p reaches the threshold that applies (Thresholds: where the
 * focus rule's ratio rules would lock / ask back within one statute family / ask back between two
 * statutes), else the question is asked back naming it and the runner-up (asking beats a wrong
 * lock). Weights, chooser, T and the thresholds are data (data/lock-model.json), written by
 * `npm run models:fit-lock` (scripts/fit-lock-model.ts) from the tuning rows only: the STARD tuning
 * half and the tuning slices of the power and labour statute sets. The thresholds keep the STARD
 * tuning half's out-of-fold wrong-lock rate ≤ 5 % and the power and labour tuning answers not below
 * the ratio rules'; of those, the fewest wrong locks among the ones locking ≥ 75 % right statutes
 * (the issue's two bounds; a wrong lock is the worse error). The held-out slices are only reported.
 *
 * Why not STARD's learn part or known-question features (the earlier conditional-logit attempt):
 * the embedding model was trained on the learn part's questions (its first vector hit is right for
 * 99.6 % of them, 73 % of held-out STARD, 60–70 % of the hand-written labour and power questions),
 * so weights fitted there trust vectors far beyond what they earn elsewhere; known questions and
 * their citation counts exist only where STARD cites a statute (none in the power statutes, other
 * question habits in labour) — a choice leaning on them moved labour and power locks to the wrong
 * statute or into ask-backs.
 */

export const LOCK_FEATURES = ['statuteShare', 'evidence', 'lexicalFirst', 'vectorFirst', 'concentration', 'margin'] as const;
export type LockFeature = (typeof LOCK_FEATURES)[number];
export type LockFeatures = Record<LockFeature, number>;

export interface LockModel {
  bias: number;
  weights: Record<LockFeature, number>;
}

/**
 * How document b stands to the chosen document a: `unit` — a law and the implementing rules or judicial
 * interpretation naming it (one statute to the asker: the rules detail the law, and a tie between them
 * is answered from the law); `part` — another part of the same code (民法典 合同编 / 物权编: one name, but
 * different articles, so a tie between two parts is a real question); `other` — another statute.
 */
export type StatuteRelation = 'unit' | 'part' | 'other';

/**
 * Where the chosen statute stands against the best document outside it: `none` — clearly ahead;
 * `part` — another part of the same code scores about as high (within familyAmbiguityRatio); `rival` —
 * another statute scores about as high (within the ambiguity ratio). The same ratios as the focus
 * rule's (retrieve.ts), with a law and its own rules counted as one statute.
 */
export type LockTie = 'none' | 'part' | 'rival';

/**
 * p needed to lock: `lock` when no other statute ties with the chosen one, `family` when another part of
 * the same code ties with it, `rival` when another statute does (a question spanning two: asking back
 * with both names beats a wrong lock).
 */
export interface Thresholds {
  lock: number;
  family: number;
  rival: number;
}

export function lockThreshold(t: Thresholds, tie: LockTie): number {
  return tie === 'none' ? t.lock : tie === 'part' ? t.family : t.rival;
}

/**
 * Which statute is chosen: `focus` — the focus rule's own choice (its best article's statute, the law
 * when the law and its rules tie); `article` — the best article's statute; `share` — the largest
 * aggregated share.
 */
export type LockChooser = 'share' | 'article' | 'focus';

export interface FittedLockModel extends LockModel {
  /** softmax temperature of the statute-level aggregation of article scores */
  temperature: number;
  chooser: LockChooser;
  thresholds: Thresholds;
}

/** The shipped fit (data/lock-model.json, written by `npm run models:fit-lock`). */
export const LOCK_MODEL: FittedLockModel = {
  bias: fitted.bias,
  weights: fitted.weights as Record<LockFeature, number>,
  temperature: fitted.temperature,
  chooser: fitted.chooser === 'article' || fitted.chooser === 'focus' ? fitted.chooser : 'share',
  thresholds: { lock: fitted.threshold, family: fitted.familyThreshold, rival: fitted.rivalThreshold },
};

export function lockProbability(model: LockModel, f: LockFeatures): number {
  let z = model.bias;
  for (const k of LOCK_FEATURES) z += (model.weights[k] ?? 0) * f[k];
  return 1 / (1 + Math.exp(-z));
}

export interface ScoredArticle {
  key: string;
  parent: string;
  score: number;
  evidence: number;
}

/** Each document's share of softmax(article score / T) over the scored articles, largest first. */
export function statuteShares(articles: ScoredArticle[], temperature: number): { parent: string; share: number }[] {
  if (!articles.length) return [];
  const max = Math.max(...articles.map((a) => a.score));
  const mass = new Map<string, number>();
  for (const a of articles) mass.set(a.parent, (mass.get(a.parent) ?? 0) + Math.exp((a.score - max) / temperature));
  const total = [...mass.values()].reduce((s, v) => s + v, 0);
  // ties keep the article order (the focus rule's ranking)
  const order = new Map<string, number>();
  for (const [i, a] of articles.entries()) if (!order.has(a.parent)) order.set(a.parent, i);
  return [...mass]
    .map(([parent, m]) => ({ parent, share: m / total }))
    .sort((a, b) => b.share - a.share || order.get(a.parent)! - order.get(b.parent)!);
}

export interface LockChoice {
  /** the chosen statute and the runner-up outside it (null when no other document was scored) */
  parent: string;
  second: string | null;
  tie: LockTie;
  features: LockFeatures;
}

export interface LockSetting {
  /** the focus rule's own choice (chooser 'focus'); without it the best article's statute */
  focusParent?: string | null;
  /** how a document stands to another (retrieve.ts statuteRelation); default: every other document is another statute */
  relation?: (a: string, b: string) => StatuteRelation;
  /** the focus rule's ratios: another statute's / another part's best article within best × ratio ties */
  ambiguityRatio?: number;
  familyAmbiguityRatio?: number;
}

/**
 * The chosen statute and its features. `articles`: the scored articles, best first; `chunks`: the
 * fused chunks with their rank in each list. A law and its own rules count as one statute: their
 * shares, chunks and first hits are added up, and the runner-up is the best document outside them.
 */
export function lockChoice(
  articles: ScoredArticle[],
  chunks: { key: string; parent: string; rrf: number; ranks: Record<string, number> }[],
  temperature: number,
  chooser: LockChooser = 'share',
  setting: LockSetting = {},
): LockChoice | null {
  const all = statuteShares(articles, temperature);
  if (!all.length) return null;
  const relation = setting.relation ?? (() => 'other');
  const parent =
    chooser === 'share' ? all[0].parent : chooser === 'focus' && setting.focusParent && all.some((x) => x.parent === setting.focusParent) ? setting.focusParent : articles[0].parent;
  const inside = (p: string) => p === parent || relation(parent, p) === 'unit';
  const first = (list: string): string | null => {
    let best: { rank: number; parent: string } | null = null;
    for (const c of chunks) {
      const r = c.ranks[list];
      if (r !== undefined && (!best || r < best.rank)) best = { rank: r, parent: c.parent };
    }
    return best?.parent ?? null;
  };
  const lexical = first('lexical');
  const vector = first('vector');
  const lexicalFirst = lexical !== null && inside(lexical) ? 1 : 0;
  const ten = [...chunks].sort((a, b) => b.rrf - a.rrf).slice(0, 10);
  let evidence = 0;
  let bestIn = 0;
  for (const a of articles) if (inside(a.parent)) (evidence = Math.max(evidence, a.evidence)), (bestIn = Math.max(bestIn, a.score));
  // the best article outside the chosen statute: of another statute, and of another part of the same code
  const outside = articles.filter((a) => !inside(a.parent));
  const rival = outside.find((a) => relation(parent, a.parent) === 'other');
  const part = outside.find((a) => relation(parent, a.parent) === 'part');
  const close = (a: ScoredArticle | undefined, ratio: number | undefined) => !!a && ratio !== undefined && bestIn > 0 && a.score / bestIn > ratio;
  const tie: LockTie = close(rival, setting.ambiguityRatio) ? 'rival' : close(part, setting.familyAmbiguityRatio) ? 'part' : 'none';
  const second = tie === 'rival' ? rival!.parent : tie === 'part' ? part!.parent : (outside[0]?.parent ?? null);
  return {
    parent,
    second,
    tie,
    features: {
      statuteShare: all.filter((x) => inside(x.parent)).reduce((s, x) => s + x.share, 0),
      evidence,
      lexicalFirst,
      // without an embedding model the missing ranker neither adds nor removes agreement
      vectorFirst: vector === null ? lexicalFirst : inside(vector) ? 1 : 0,
      concentration: ten.length ? ten.filter((c) => inside(c.parent)).length / ten.length : 0,
      // how far the best article outside the chosen statute falls behind its best (1: nothing else scored)
      margin: bestIn > 0 && outside.length ? Math.max(0, 1 - outside[0].score / bestIn) : 1,
    },
  };
}

/**
 * Fits the model by L2-regularised logistic regression (batch gradient descent on standardised
 * features, weights mapped back), deterministic. `rows`: features with whether the chosen statute was right.
 */
export function fitLockModel(rows: { f: LockFeatures; right: boolean }[], l2 = 1, steps = 3000, rate = 0.5): LockModel {
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
    b -= (rate * gb) / Math.max(n, 1);
    for (let j = 0; j < w.length; j++) w[j] -= rate * (gw[j] / Math.max(n, 1) + (l2 * w[j]) / Math.max(n, 1));
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
