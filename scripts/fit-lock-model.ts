/**
 * `npm run models:fit-lock [-- --dump FILE] [--why] [--no-bounds] [--features] [--described] [--robust]` fits the calibrated lock decision of statute collections
 * (src/core/collections/lock-model.ts) and writes src/core/collections/data/lock-model.json,
 * deterministically, from ../shared only:
 *
 * 1. imports the STARD domain collections (eval/collections-stard.eval.ts: learned vocabulary and known
 *    questions from the learn part only) and the power / labour statute collections
 *    (eval/collections-laws.eval.ts; with the matters they do not regulate of
 *    eval/collections-absent.eval.ts, reported only), reusing the evaluations' data dirs, and asks every
 *    tuning and held-out question with the lock model off: the focus rule's scored articles, the fused chunks,
 *    the rule's own decision;
 * 2. for each chooser (the focus rule's statute / the largest aggregated share) and temperature of
 *    the grid: lock-model.ts lockChoice (the tie kind from the focus rule's ratios) and weights by logistic regression (L2 1) of "a lock on the chosen statute
 *    is wanted" (it is right, and the question was not written to be asked back: the collection
 *    evaluation counts a lock there only with the accepted article) on the tuning rows, with
 *    out-of-fold probabilities (five folds);
 * 3. thresholds (lock-model.ts Thresholds: no tie / a tie inside the statute family / with another
 *    statute; grid 0.3 … 0.95). Hard bound: the power and labour tuning slices' right answers
 *    less wrong locks not below the ratio rules' (an ask-back instead of a wrong lock is no loss there,
 *    one instead of a right lock is). Then: thresholds keeping the STARD tuning half's out-of-fold
 *    wrong-lock rate ≤ 5 % beat those that do not; among them the most right STARD locks (ties: fewer
 *    wrong); among those that do not, the fewest wrong (ties: more right); equal: the lower thresholds.
 *    The chooser and temperature doing best by the same order win;
 * 4. prints the tuning (out-of-fold) and held-out curves per set: right lock / ask-back naming a right
 *    statute / wrong lock / other, statute level (the collection evaluations score the power and labour
 *    sets by article too). The held-out slices are never used to choose anything. `--why` prints, per
 *    chooser and temperature, what the STARD bound alone would pick and the power / labour tuning
 *    answers it would lose; `--dump FILE` writes the rows (articles, chunks, family pairs) for analysis.
 *
 * Not used: STARD's learn part (the embedding model was trained on its questions: its first vector
 * hit is right for 99.6 % of them, so weights fitted there over-trust vectors) and known-question
 * features (STARD-only: absent from the power statutes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import { fitLogistic, sigmoid } from '../src/core/common/logistic';
import { corpusOf, docsOf, requireCollection } from '../src/core/collections/store';
import { questionTerms, retrieveState, statuteFamily, type RetrievalState } from '../src/core/collections/retrieve';
import { knownAnswers, knownInsideOutside, knownQuestions, setKnownQuestions } from '../src/core/collections/known-answers';
import { knownStatutePosterior, questionGrams } from '../src/core/collections/known-statutes';
import { loadShippedKnownQuestions } from '../src/core/regulations/known-questions';
import { setLayVocabulary } from '../src/core/collections/lay-terms';
import { choiceCandidates, fitChoiceModel, fitLockModel, isJudicialInterpretation, lockChoice, lockProbability, lockThreshold, LOCK_DECIMALS, LOCK_FEATURES, LOCK_MODEL, type ChoiceModel, type LockChoice, type LockChooser, type LockModel, type Thresholds } from '../src/core/collections/lock-model';
import { defaultConfig } from '../src/core/config';
import { corpusRows, documentFrequencies, idfOf } from '../src/core/search/lexical';

const NONE: Thresholds = { lock: 0, family: 0, rival: 0 };
import { readStardQuestions } from '../eval/stard.eval';
import { STARD_DOMAINS, learnPartLayVocabulary, questionsOf, stageDomain, stardPartOf } from '../eval/collections-stard.eval';
import { importSet } from '../eval/collections-laws.eval';

const TEMPERATURES = [0.02, 0.03, 0.05, 0.08, 0.12, 0.2];
const MAX_WRONG = 0.05;
const L2 = 1;
const FOLDS = 5;
const SETS = ['stard', 'power', 'labour', 'power2', 'labour2', 'absent'] as const;
type SetName = (typeof SETS)[number];

interface Row {
  set: SetName;
  part: 'tune' | 'heldout';
  q: string;
  gold: Set<string>;
  /** the focus rule's own decision (the lock model off) */
  base: Decision;
  /** the decision with the shipped lock-model.json (what users get today) */
  shipped: Decision;
  /** the focus rule decided (the lock model applies) */
  focus: boolean;
  /** a question written to be asked back (the power / labour sets' ambiguous family): a clarify naming an accepted statute is its right answer */
  askWanted: boolean;
  /** whether two documents are one statute family (retrieve.ts sameStatuteFamily) */
  family: (a: string, b: string) => boolean;
  articles: NonNullable<RetrievalState['focus']>['articles'];
  chunks: RetrievalState['chunks'];
  /** the focus rule's own choice (the best article's statute, a law over its rules when they tie) */
  focusParent: string | null;
  /** p(statute | question) by the known questions' word model (known-statutes.ts) */
  prior: Map<string, number> | null;
  /** per scored statute: the idf-weighted share of the question's terms its scored chunks / its whole text hold (`--features`) */
  coverage: Record<string, [number, number]>;
  /**
   * the known questions describe the collection: its word model (known-statutes.ts) covers at least
   * DESCRIBED_SHARE of its statutes (`--described` fits and measures on these rows only)
   */
  described: boolean;
  /**
   * how familiar the question is to the known questions (`--features`, stop 39): the highest cosine of a known
   * question about a statute of the collection (known-answers.ts knownInsideOutside; 0: none near), the same per
   * statute among the confident neighbours (knownAnswers, ≥ knownMinSim), and the share of its Han bigrams /
   * trigrams some known question holds
   */
  novelty: { inside: number; sims: Record<string, number>; seen: number };
  /**
   * power / labour sets: the statute a lock lands on and whether its answer quotes an accepted article
   * (eval/collections-laws.eval.ts counts a lock right only then); asked with every threshold at 0
   */
  lockArticle?: { parent: string; ok: boolean };
}

type Outcome = 'right' | 'offered' | 'wrong' | 'other';

type Asked = RetrievalState & { shipped: Decision; prior: Row['prior']; coverage: Row['coverage']; statutes: number; novelty: Row['novelty'] };

/** `--described`: a collection is described by the known questions when their word model covers this share of its statutes */
const DESCRIBED_SHARE = 0.5;

/** The question asked with the lock model off (the features and the ratio rules' decision) and with the shipped fit on. */
async function ask(ctx: AppContext, name: string, q: string): Promise<Asked> {
  const coll = requireCollection(ctx.db, name);
  ctx.config.collections.lockModel.enabled = true;
  const on = await retrieveState(ctx, coll, q);
  ctx.config.collections.lockModel.enabled = false;
  const off = await retrieveState(ctx, coll, q);
  const statutes = docsOf(ctx.db, coll.id).filter((d) => d.kind !== 'recipe').length;
  return { ...off, shipped: decisionOf(on), prior: knownStatutePosterior(ctx, coll, q), coverage: coverageOf(ctx, coll, q, off), statutes, novelty: noveltyOf(ctx, coll, q) };
}

/** every Han gram of the known questions in use, by their generation */
let knownGrams: { generation: number; grams: Set<string> } | null = null;

/** Row.novelty: how close the known questions come to the question. */
function noveltyOf(ctx: AppContext, coll: ReturnType<typeof requireCollection>, q: string): Row['novelty'] {
  const sims: Record<string, number> = {};
  for (const h of knownAnswers(ctx, coll, q)) sims[h.parent] = Math.max(sims[h.parent] ?? 0, h.sim);
  const { generation, known } = knownQuestions(ctx);
  if (!knownGrams || knownGrams.generation !== generation) knownGrams = { generation, grams: new Set((known ?? []).flatMap((k) => questionGrams(k.question))) };
  const grams = questionGrams(q);
  const seen = grams.length ? grams.filter((g) => knownGrams!.grams.has(g)).length / grams.length : 0;
  return { inside: knownInsideOutside(ctx, coll, q)?.inside ?? 0, sims, seen };
}

/** each scored statute's whole text, by corpus and document */
const textCache = new Map<string, string>();

/** Row.coverage: which of the question's terms (idf-weighted) each scored statute's chunks and whole text hold. */
function coverageOf(ctx: AppContext, coll: { name: string }, q: string, r: RetrievalState): Row['coverage'] {
  const corpus = corpusOf(coll.name);
  const terms = [...new Set(questionTerms(q, 'statutes'))];
  const total = corpusRows(ctx.db, [corpus]);
  const df = documentFrequencies(ctx.db, terms, [corpus]);
  const idf = new Map(terms.map((t) => [t, idfOf(df.get(t) ?? 0, Math.max(total, 1))]));
  const sum = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
  const out: Row['coverage'] = {};
  for (const parent of new Set((r.focus?.articles ?? []).map((a) => a.parent))) {
    const keys = r.chunks.filter((c) => c.parent === parent).map((c) => c.key);
    const scored = keys.map((k) => (ctx.db.prepare('SELECT text FROM search_items WHERE corpus = ? AND key = ?').get(corpus, k) as { text: string } | undefined)?.text ?? '').join('\n');
    const ck = `${corpus}|${parent}`;
    if (!textCache.has(ck)) textCache.set(ck, (ctx.db.prepare('SELECT text FROM search_items WHERE corpus = ? AND parent = ?').all(corpus, parent) as { text: string }[]).map((x) => x.text).join('\n'));
    const whole = textCache.get(ck)!;
    const cov = (text: string) => terms.reduce((a, t) => a + (text.includes(t) ? idf.get(t)! : 0), 0) / sum;
    out[parent] = [cov(scored), cov(whole)];
  }
  return out;
}

type Decision = { state: RetrievalState['decision']; parents: string[] };

/** Where a forced lock (every threshold 0) lands and whether its answer quotes an accepted article, as the collection evaluation scores it. */
async function lockedArticle(ctx: AppContext, name: string, q: string, accept: { title: string; article: string }[]): Promise<Row['lockArticle']> {
  const model = ctx.config.collections.lockModel;
  const saved = { ...model };
  Object.assign(model, { enabled: true, threshold: 0, familyThreshold: 0, rivalThreshold: 0 });
  try {
    const a = await invokeOperation(ctx, 'collections.ask', { collection: name, question: q });
    if (a.decision !== 'locked') return undefined;
    const art = a.citations[0]?.label ?? null;
    return { parent: String(a.lock.doc_id), ok: !!art && accept.some((x) => x.title === a.lock.title && x.article === art) && (a.answer ?? '').includes(art) };
  } finally {
    Object.assign(model, saved);
  }
}

function decisionOf(r: RetrievalState): Decision {
  return { state: r.decision, parents: r.decision === 'locked' && r.locked ? [String(r.locked.doc_id)] : r.candidates.map((c) => String(c.doc_id)) };
}

function row(set: SetName, part: Row['part'], q: string, gold: Iterable<number>, r: Asked, family: Row['family'], askWanted = false): Row {
  const focus = r.rule === 'focus' && !!r.focus && (r.decision === 'locked' || r.decision === 'ambiguous');
  return {
    set,
    part,
    q,
    gold: new Set([...gold].map(String)),
    base: decisionOf(r),
    shipped: r.shipped,
    focus,
    askWanted,
    family,
    articles: r.focus?.articles ?? [],
    chunks: r.chunks,
    focusParent: r.focus?.bestParent ?? null,
    prior: r.prior,
    coverage: r.coverage,
    described: !!r.prior && r.prior.size >= DESCRIBED_SHARE * r.statutes,
    novelty: r.novelty,
  };
}

async function collect(): Promise<Row[]> {
  const rows: Row[] = [];
  const laws = path.join(sharedDir(), 'data', 'laws');
  const all = readStardQuestions(path.join(sharedDir(), 'data', 'stard', 'train.jsonl'));
  const cache = path.join(projectRoot(), '.cache', 'eval', 'collections-stard');
  const ctx = createAppContext({ dataDir: path.join(cache, 'data') });
  try {
    const scoredTexts = new Set(all.filter((q) => stardPartOf(q.id) !== 'learn').map((q) => q.question));
    setKnownQuestions(ctx, (loadShippedKnownQuestions(ctx) ?? []).filter((k) => !scoredTexts.has(k.question)));
    setLayVocabulary(ctx, learnPartLayVocabulary(laws, all));
    for (const d of STARD_DOMAINS) {
      const src = stageDomain(laws, path.join(cache, 'statutes', d.name), d.statutes);
      await invokeOperation(ctx, 'collections.import', { folder: src, name: `stard-${d.name}` });
    }
    for (const d of STARD_DOMAINS) {
      const family = statuteFamily(ctx, requireCollection(ctx.db, `stard-${d.name}`));
      for (const q of questionsOf(ctx, `stard-${d.name}`, all)) {
        if (q.part === 'learn') continue;
        rows.push(row('stard', q.part, q.question, q.gold.keys(), await ask(ctx, `stard-${d.name}`, q.question), family));
      }
    }
  } finally {
    await ctx.close();
  }
  const lcache = path.join(projectRoot(), '.cache', 'eval', 'collections-laws');
  const lctx = createAppContext({ dataDir: path.join(lcache, 'data') });
  try {
    await importSet(lctx, 'power-laws', 'collections-laws.json', lcache);
    await importSet(lctx, 'labour-laws', 'collections-labour.json', lcache);
    for (const [set, name, file] of [
      ['power', 'power-laws', 'collections-laws.json'],
      ['labour', 'labour-laws', 'collections-labour.json'],
      ['power2', 'power-laws', 'collections-laws-2.json'],
      ['labour2', 'labour-laws', 'collections-labour-2.json'],
    ] as const) {
      const data = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'data', file), 'utf8')) as { items: { q: string; family: string; accept?: { title: string; article: string }[] }[]; held_out_every?: number };
      const every = data.held_out_every ?? 4;
      const coll = requireCollection(lctx.db, name);
      const family = statuteFamily(lctx, coll);
      const docs = lctx.db.prepare('SELECT id, title FROM coll_docs WHERE collection_id = ?').all(coll.id) as { id: number; title: string }[];
      for (const [i, item] of data.items.entries()) {
        const gold = docs.filter((d) => item.accept?.some((a) => a.title === d.title)).map((d) => d.id);
        const r = row(set, i % every === every - 1 ? 'heldout' : 'tune', item.q, gold, await ask(lctx, name, item.q), family, item.family === 'ambiguous');
        r.lockArticle = await lockedArticle(lctx, name, item.q, item.accept ?? []);
        rows.push(r);
      }
    }
    // matters the power / labour statutes do not regulate (eval/collections-absent.eval.ts, its
    // held-out rule): any lock is wrong
    type Absent = { power: { q: string }[]; labour: { q: string }[] };
    const absent = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'data', 'collections-absent.json'), 'utf8')) as Absent & { heldout_v2: Absent; round3: Absent; round4: Absent };
    for (const [set, heldOut] of [
      [absent, (i: number) => i % 4 === 3],
      [absent.round3, (i: number) => i % 3 === 2],
      [absent.heldout_v2, () => true],
      [absent.round4, () => true],
    ] as const) {
      for (const [list, name] of [
        [set.power, 'power-laws'],
        [set.labour, 'labour-laws'],
      ] as const) {
        const family = statuteFamily(lctx, requireCollection(lctx.db, name));
        for (const [i, item] of list.entries()) rows.push(row('absent', heldOut(i) ? 'heldout' : 'tune', item.q, [], await ask(lctx, name, item.q), family));
      }
    }
  } finally {
    await lctx.close();
  }
  return rows;
}

/**
 * What a row's answer would be: the model (choice, p) locks at p ≥ the threshold that applies
 * (lock-model.ts lockThreshold), else asks back naming the chosen statute and the runner-up.
 * A question written to be asked back counts a clarify naming an accepted statute as right, a lock
 * on an accepted one as neither (its article is not checked here).
 */
function outcome(r: Row, choice: LockChoice | null, p: number | null, t: Thresholds): Outcome {
  return scored(r, r.base.state, r.base.parents, choice, p, t);
}

/** The outcome of the shipped fit's decision (what users get today). */
function shippedOutcome(r: Row): Outcome {
  return scored(r, r.shipped.state, r.shipped.parents, null, null, NONE);
}

function scored(r: Row, state: Decision['state'], parents: string[], choice: LockChoice | null, p: number | null, t: Thresholds): Outcome {
  if (r.focus && choice && p !== null) {
    if (p >= lockThreshold(t, choice.tie, choice.disagrees)) (state = 'locked'), (parents = [choice.parent]);
    else if (choice.second) (state = 'ambiguous'), (parents = [choice.parent, choice.second]);
    else (state = 'low_evidence'), (parents = [choice.parent]);
  }
  if (state === 'locked') {
    if (!r.gold.has(parents[0])) return 'wrong';
    // power / labour: right only when the answer quotes an accepted article (as their evaluation scores it)
    if (r.lockArticle?.parent === parents[0]) return r.lockArticle.ok ? 'right' : 'other';
    return r.askWanted ? 'other' : 'right';
  }
  if (state === 'ambiguous' && parents.some((x) => r.gold.has(x))) return r.askWanted ? 'right' : 'offered';
  return 'other';
}

function rates(outcomes: Outcome[]): Record<Outcome, number> {
  const n = Math.max(outcomes.length, 1);
  const c = (o: Outcome) => outcomes.filter((x) => x === o).length / n;
  return { right: c('right'), offered: c('offered'), wrong: c('wrong'), other: c('other') };
}

/** "right/all" of the chosen statutes over a part's focus-decided questions that have a right statute. */
function choiceAccuracy(choices: Map<Row, LockChoice | null>, part: Row['part'], set: SetName): string {
  const rs = [...choices.keys()].filter((r) => r.part === part && r.set === set && r.focus && r.gold.size && choices.get(r));
  return `${rs.filter((r) => r.gold.has(choices.get(r)!.parent)).length}/${rs.length}`;
}

/**
 * Why a lock on `parent` is wrong (`--why`): the question was not decided by the focus rule; no article of a
 * right statute was scored (only an ask-back naming something else or low evidence could help); the
 * locked document is of a right statute's family (its law or rules, another part of its code); else the
 * rank of the best right statute by its best article (2: the runner-up — an ask-back naming the
 * two would have offered it).
 */
function wrongCause(r: Row, parent: string): string {
  if (!r.focus) return 'not focus-decided';
  // statutes in the order of their best article (the focus rule's scores; no temperature)
  const order = [...new Set(r.articles.map((a) => a.parent))];
  const ranks = [...r.gold].map((g) => order.indexOf(g)).filter((i) => i >= 0);
  if (!ranks.length) return 'right statute not scored';
  if ([...r.gold].some((g) => r.family(parent, g))) return 'same statute family';
  const rank = Math.min(...ranks) + 1;
  return rank === 2 ? 'right statute runner-up' : `right statute rank ${rank}`;
}

/**
 * Candidate lock features measured by `--features` (not in the model): how far the chosen statute's
 * best evidence leads any other document's; how far the best article of another statute (outside its
 * family) trails its best; whether the chooser agrees with the focus rule; whether the known questions'
 * word model puts it first (+1 / −1, 0 without a model); how much more of the question's terms (idf
 * weighted) its scored chunks / its whole text hold than any other scored statute's.
 */
const EXTRA_FEATURES: Record<string, (r: Row, c: LockChoice) => number> = {
  evidenceMargin: (r, c) => c.features.evidence - Math.max(0, ...r.articles.filter((a) => a.parent !== c.parent).map((a) => a.evidence)),
  rivalMargin: (r, c) => {
    const best = Math.max(0, ...r.articles.filter((a) => a.parent === c.parent).map((a) => a.score));
    const rival = r.articles.find((a) => a.parent !== c.parent && !r.family(c.parent, a.parent));
    return best > 0 && rival ? Math.max(0, 1 - rival.score / best) : 1;
  },
  chooserAgrees: (r, c) => (c.parent === r.focusParent ? 1 : 0),
  knownAgrees: (r, c) => (r.prior ? ([...r.prior].sort((a, b) => b[1] - a[1])[0][0] === c.parent ? 1 : -1) : 0),
  coverageLead: (r, c) => (r.coverage[c.parent]?.[0] ?? 0) - Math.max(0, ...Object.entries(r.coverage).filter(([p]) => p !== c.parent).map(([, v]) => v[0])),
  // independent rankers (first hit of the word / embedding / known-question lists, the word model's top) naming another statute (stop 39)
  rankersAgainst: (r, c) => {
    const top = r.prior && r.prior.has(c.parent) ? [...r.prior].sort((a, b) => b[1] - a[1])[0][0] : undefined;
    return [firstHit(r, 'lexical')?.parent, firstHit(r, 'vector')?.parent, firstHit(r, 'known')?.parent, top].filter((p) => p !== undefined && p !== c.parent).length;
  },
  // the word and the embedding rankings' first hits are the same article of the chosen statute (stop 39)
  articleAgrees: (r, c) => {
    const l = firstHit(r, 'lexical');
    const v = firstHit(r, 'vector');
    return l && v && l.key === v.key && l.parent === c.parent ? 1 : 0;
  },
  knownInside: (r) => r.novelty.inside,
  knownSimChosen: (r, c) => r.novelty.sims[c.parent] ?? 0,
  gramsSeen: (r) => r.novelty.seen,
  wholeCoverageLead: (r, c) => (r.coverage[c.parent]?.[1] ?? 0) - Math.max(0, ...Object.entries(r.coverage).filter(([p]) => p !== c.parent).map(([, v]) => v[1])),
};

/** Area under the ROC curve of scores of positives over negatives (ties count half). */
function auc(pos: number[], neg: number[]): number {
  if (!pos.length || !neg.length) return NaN;
  let s = 0;
  for (const p of pos) for (const n of neg) s += p > n ? 1 : p === n ? 0.5 : 0;
  return s / pos.length / neg.length;
}

/**
 * `--features`: out-of-fold AUC (the script's folds) on the STARD tuning half of p with the lock
 * features, with each candidate feature added, and with all of them; and each candidate's own AUC.
 */
function featureReport(fitRows: Row[], choices: Map<Row, LockChoice | null>): string {
  const y = (r: Row) => r.gold.has(choices.get(r)!.parent) && !r.askWanted;
  const stard = fitRows.filter((r) => r.set === 'stard');
  const oofAuc = (extra: string[]) => {
    const x = (r: Row) => [...LOCK_FEATURES.map((k) => choices.get(r)!.features[k]), ...extra.map((k) => EXTRA_FEATURES[k](r, choices.get(r)!))];
    const p = new Map<Row, number>();
    for (let f = 0; f < FOLDS; f++) {
      const m = fitLogistic(fitRows.filter((_, i) => i % FOLDS !== f).map((r) => ({ x: x(r), y: y(r) })), { l2: L2, decimals: LOCK_DECIMALS });
      for (const [i, r] of fitRows.entries()) if (i % FOLDS === f) p.set(r, sigmoid(m.bias + x(r).reduce((s, v, j) => s + v * m.weights[j], 0)));
    }
    return auc(stard.filter(y).map((r) => p.get(r)!), stard.filter((r) => !y(r)).map((r) => p.get(r)!)).toFixed(3);
  };
  const names = Object.keys(EXTRA_FEATURES);
  const alone = (k: string) => auc(stard.filter(y).map((r) => EXTRA_FEATURES[k](r, choices.get(r)!)), stard.filter((r) => !y(r)).map((r) => EXTRA_FEATURES[k](r, choices.get(r)!))).toFixed(3);
  return `out-of-fold AUC of p (STARD tuning, ${stard.filter(y).length} right / ${stard.filter((r) => !y(r)).length} wrong): lock features ${oofAuc([])}; ${names.map((k) => `+${k} ${oofAuc([k])} (alone ${alone(k)})`).join('; ')}; all ${oofAuc(names)}`;
}

/**
 * `--robust` (stop 39): calibrations that do not trust familiar-looking rows, on the shipped fit (chooser, T,
 * thresholds), measured and reported — tuning | held-out, STARD then power / labour tuning (the bound: right less
 * wrong not below the shipped fit's):
 *
 * 1. bagged lock models — ROBUST_BAGS bootstrap refits of the shipped features on the tuning rows; a tuning row's p
 *    is a quantile of the bags it is not in (out-of-bag), a held-out row's of all bags; the lock uses that quantile
 *    (the median is the plain refit; lower quantiles shrink p where the bags disagree);
 * 2. novelty — where the known questions describe the collection (Row.described), a question less familiar than s
 *    (nearest known question about the collection, the nearest citing the chosen statute, the share of its grams
 *    any known question holds; Row.novelty) needs p ≥ X; the uniform bound (every question of such a collection) for comparison.
 *    s and X from the tuning rows: per cap on STARD tuning wrong locks (3 / 2 / 1 / 0), the most right locks
 *    within the power / labour bound; the held-out line is reported once per pick.
 */
const ROBUST_BAGS = 100;

/** lockChoice's setting for a row: the focus rule's choice, the word model, the family relation and the focus rule's ratios (default config) */
function setting(r: Row) {
  const cfg = defaultConfig();
  return { focusParent: r.focusParent, prior: r.prior, family: r.family, ambiguityRatio: cfg.search.ambiguityRatio, familyAmbiguityRatio: cfg.collections.familyAmbiguityRatio };
}

/** the chunk a ranking (lexical, vector, known) puts first */
function firstHit(r: Row, list: string): Row['chunks'][number] | undefined {
  return r.chunks.filter((x) => x.ranks[list] !== undefined).sort((a, b) => a.ranks[list] - b.ranks[list])[0];
}
const ROBUST_FEATURES = ['statuteShare', 'evidence', 'lexicalFirst', 'vectorFirst', 'concentration'] as const;

function robustReport(rows: Row[]): string[] {
  const t = LOCK_MODEL.thresholds;
  const choices = new Map(rows.map((r) => [r, r.focus ? lockChoice(r.articles, r.chunks, LOCK_MODEL.temperature, LOCK_MODEL.chooser, setting(r)) : null]));
  // p → outcome; an extra bound X is met when p ≥ X (else the question is asked back like any p below its threshold)
  const out = (r: Row, p: number | null, extra = 0) => {
    const c = choices.get(r) ?? null;
    return outcome(r, c, p === null ? null : p >= extra ? p : -1, t);
  };
  const shippedP = (r: Row) => {
    const c = choices.get(r);
    return c ? lockProbability(LOCK_MODEL, c.features) : null;
  };
  const of = (set: SetName, part: Row['part']) => rows.filter((r) => r.set === set && r.part === part);
  const counts = (rs: Row[], f: (r: Row) => Outcome) => {
    const o = rs.map(f);
    return { right: o.filter((x) => x === 'right').length, wrong: o.filter((x) => x === 'wrong').length, n: rs.length, line: line(rates(o)) };
  };
  const bounded = ['power', 'labour', 'power2', 'labour2'] as const;
  const floor = new Map(bounded.map((s) => [s, counts(of(s, 'tune'), (r) => out(r, shippedP(r)))]));
  const keeps = (f: (r: Row) => Outcome) =>
    bounded.every((s) => {
      const c = counts(of(s, 'tune'), f);
      const b = floor.get(s)!;
      return c.right - c.wrong >= b.right - b.wrong;
    });
  const report = (name: string, f: (r: Row) => Outcome) => {
    const tu = counts(of('stard', 'tune'), f);
    const ho = counts(of('stard', 'heldout'), f);
    return `  ${name}: STARD tuning ${tu.line} (wrong ${tu.wrong}/${tu.n}, ${wilson(tu.wrong, tu.n)}) | held-out ${ho.line} (wrong ${ho.wrong}/${ho.n}, ${wilson(ho.wrong, ho.n)}); power / labour tuning ${counts(of('power', 'tune'), f).line} / ${counts(of('labour', 'tune'), f).line}${keeps(f) ? '' : ' !bound'}`;
  };
  const lines = ['--robust (shipped fit; right / ask-back naming a right statute / wrong / other):', report('shipped', (r) => out(r, shippedP(r)))];

  // 1. bagged refits: out-of-bag quantiles of p
  const fitRows = rows.filter((r) => r.part === 'tune' && r.set !== 'absent' && choices.get(r));
  const x = (r: Row) => ROBUST_FEATURES.map((k) => choices.get(r)!.features[k]);
  const y = (r: Row) => r.gold.has(choices.get(r)!.parent) && !r.askWanted;
  let seed = 39;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
  const bags: { m: { bias: number; weights: number[] }; inBag: Set<Row> }[] = [];
  for (let b = 0; b < ROBUST_BAGS; b++) {
    const sample = fitRows.map(() => fitRows[Math.floor(random() * fitRows.length)]);
    bags.push({ m: fitLogistic(sample.map((r) => ({ x: x(r), y: y(r) })), { l2: L2, steps: 1000, decimals: LOCK_DECIMALS }), inBag: new Set(sample) });
  }
  const bagPs = new Map<Row, number[]>();
  for (const r of rows) {
    if (!choices.get(r)) continue;
    const v = x(r);
    bagPs.set(
      r,
      bags.filter((b) => !b.inBag.has(r)).map((b) => sigmoid(b.m.bias + v.reduce((s, xi, j) => s + xi * b.m.weights[j], 0))).sort((a, b) => a - b),
    );
  }
  const quantile = (r: Row, q: number) => {
    const ps = bagPs.get(r);
    return ps?.length ? ps[Math.min(ps.length - 1, Math.floor(q * ps.length))] : null;
  };
  for (const q of [0.5, 0.2, 0.1]) lines.push(report(`bagged (${ROBUST_BAGS}), quantile ${q} of the out-of-bag p`, (r) => out(r, quantile(r, q))));

  // 2. novelty-bounded locks
  const familiarity: Record<string, (r: Row) => number> = {
    nearestKnown: (r) => r.novelty.inside,
    nearestKnownOfChosen: (r) => r.novelty.sims[choices.get(r)?.parent ?? ''] ?? 0,
    gramsSeen: (r) => r.novelty.seen,
    uniform: () => 0,
  };
  const xs: number[] = [];
  for (let v = 0.45; v <= 0.951; v += 0.025) xs.push(Math.round(v * 1000) / 1000);
  for (const [name, fam] of Object.entries(familiarity)) {
    const ss = name === 'uniform' ? [1] : [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65];
    const tried = ss.flatMap((sv) =>
      xs.map((xv) => {
        const f = (r: Row) => out(r, shippedP(r), r.described && fam(r) < sv ? xv : 0);
        return { sv, xv, f, tu: counts(of('stard', 'tune'), f), keeps: keeps(f) };
      }),
    );
    for (const cap of [3, 2, 1, 0]) {
      const ok = tried.filter((c) => c.keeps && c.tu.wrong <= cap);
      if (!ok.length) {
        lines.push(`  ${name}, tuning wrong ≤ ${cap}: none within the power / labour bound`);
        continue;
      }
      const best = ok.reduce((a, c) => (c.tu.right > a.tu.right || (c.tu.right === a.tu.right && c.xv < a.xv) ? c : a));
      lines.push(report(`${name} < ${best.sv} needs p ≥ ${best.xv} (tuning wrong ≤ ${cap})`, best.f));
    }
  }
  return lines;
}

/** A row as `--dump` writes it, with the family relation among its scored documents (pairs "a|b") for offline analysis. */
function dumpRow(r: Row) {
  const ps = [...new Set(r.articles.map((a) => a.parent))];
  const families = ps.flatMap((a) => ps.filter((b) => a < b && r.family(a, b)).map((b) => `${a}|${b}`));
  return { ...r, gold: [...r.gold], prior: r.prior ? Object.fromEntries(r.prior) : null, families };
}

/** folds of STARD's learn part (by question id) for learnFolds */
const LEARN_FOLDS = 5;

/**
 * `--learn-folds` (stop 40): the bound on locks of judicial interpretations (lock-model.ts Thresholds
 * interpretation), learned where there are enough of them — STARD's learn part (the tuning half holds 10
 * such locks, all right; the learn part 82). Each learn question is asked with the known questions of the
 * other folds only (its own text is not among them) and the bound off; the embedding model was trained
 * on these questions, so their vector ranking is in-sample (which only makes the choice look better than it
 * is). The bound is the highest of 0.3 … 0.95 below which the focus-decided locks on interpretations are
 * wrong at least as often as right (asking back is no worse than such a lock); the figures of every
 * bound and the learn part's totals before / after are printed; writes interpretationThreshold into
 * lock-model.json, everything else of the shipped file kept.
 */
async function learnFolds(dump: string | null): Promise<void> {
  const dumped: Row[] = [];
  const laws = path.join(sharedDir(), 'data', 'laws');
  const all = readStardQuestions(path.join(sharedDir(), 'data', 'stard', 'train.jsonl'));
  const ctx = createAppContext({ dataDir: path.join(projectRoot(), '.cache', 'eval', 'collections-stard', 'data') });
  const locks: { p: number; right: boolean }[] = [];
  const outcomes: { decision: string; parents: string[]; gold: Set<string>; p: number | null; interpretation: boolean }[] = [];
  try {
    const scoredTexts = new Set(all.filter((q) => stardPartOf(q.id) !== 'learn').map((q) => q.question));
    const known = (loadShippedKnownQuestions(ctx) ?? []).filter((k) => !scoredTexts.has(k.question));
    setLayVocabulary(ctx, learnPartLayVocabulary(laws, all));
    for (const d of STARD_DOMAINS) {
      const src = stageDomain(laws, path.join(projectRoot(), '.cache', 'eval', 'collections-stard', 'statutes', d.name), d.statutes);
      await invokeOperation(ctx, 'collections.import', { folder: src, name: `stard-${d.name}` });
    }
    Object.assign(ctx.config.collections.lockModel, { enabled: true, interpretationThreshold: 0 });
    const learn = all.filter((q) => stardPartOf(q.id) === 'learn');
    for (let f = 0; f < LEARN_FOLDS; f++) {
      const fold = learn.filter((q) => q.id % LEARN_FOLDS === f);
      const texts = new Set(fold.map((q) => q.question));
      setKnownQuestions(ctx, known.filter((k) => !texts.has(k.question)));
      for (const d of STARD_DOMAINS) {
        const coll = requireCollection(ctx.db, `stard-${d.name}`);
        const titles = new Map(docsOf(ctx.db, coll.id).map((x) => [String(x.id), x.title]));
        for (const q of questionsOf(ctx, coll.name, fold)) {
          const r = await retrieveState(ctx, coll, q.question);
          const d0 = decisionOf(r);
          const gold = new Set([...q.gold.keys()].map(String));
          const interpretation = r.decision === 'locked' && isJudicialInterpretation(titles.get(d0.parents[0]));
          outcomes.push({ decision: r.decision, parents: d0.parents, gold, p: r.lockCheck?.applied ? r.lockCheck.p : null, interpretation });
          if (interpretation && r.rule === 'focus' && r.lockCheck?.applied) locks.push({ p: r.lockCheck.p, right: gold.has(d0.parents[0]) });
          if (dump) {
            dumped.push(row('stard', 'tune', q.question, q.gold.keys(), await ask(ctx, coll.name, q.question), statuteFamily(ctx, coll)));
            ctx.config.collections.lockModel.enabled = true; // ask() leaves the lock model off
          }
        }
      }
    }
  } finally {
    await ctx.close();
  }
  // the rows as --dump writes them (part 'tune' here: the learn part's, for analysis offline)
  if (dump) fs.writeFileSync(dump, JSON.stringify(dumped.map(dumpRow)));
  const grid: number[] = [];
  for (let t = 0.3; t <= 0.951; t += 0.05) grid.push(Math.round(t * 100) / 100);
  let bound = 0;
  console.log(`--learn-folds: ${outcomes.length} learn questions, ${locks.length} focus-decided locks on judicial interpretations (${locks.filter((l) => l.right).length} right)`);
  for (const t of grid) {
    const below = locks.filter((l) => l.p < t);
    const wrong = below.filter((l) => !l.right).length;
    const right = below.length - wrong;
    if (wrong > 0 && wrong >= right) bound = t;
    console.log(`  p < ${t.toFixed(2)}: ${right} right / ${wrong} wrong locks on interpretations would be asked back`);
  }
  const tally = (t: number) => {
    const c = { right: 0, offered: 0, wrong: 0, other: 0 };
    for (const o of outcomes) {
      const asked = o.interpretation && o.p !== null && o.p < t;
      if (o.decision === 'locked' && !asked) c[o.gold.has(o.parents[0]) ? 'right' : 'wrong']++;
      else if ((o.decision === 'ambiguous' || asked) && o.parents.some((p) => o.gold.has(p))) c.offered++;
      else c.other++;
    }
    const n = Math.max(outcomes.length, 1);
    return line({ right: c.right / n, offered: c.offered / n, wrong: c.wrong / n, other: c.other / n });
  };
  console.log(`bound ${bound}: learn part (known questions cross-fitted) ${tally(0)} → ${tally(bound)} (right / ask-back naming a right statute / wrong / other; an ask-back counted as naming a right statute only when the locked one is)`);
  const file = path.join(projectRoot(), 'src', 'core', 'collections', 'data', 'lock-model.json');
  const shippedFile = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(file, `${JSON.stringify({ ...shippedFile, interpretationThreshold: bound }, null, 2)}\n`);
  console.log(`wrote ${path.relative(projectRoot(), file)}: interpretationThreshold ${bound}`);
}

/** Wilson 95 % interval of k in n, as "lo–hi %". */
function wilson(k: number, n: number): string {
  if (!n) return '—';
  const z = 1.96;
  const p = k / n;
  const mid = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return `${(100 * Math.max(0, mid - half)).toFixed(1)}–${(100 * Math.min(1, mid + half)).toFixed(1)} %`;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(6);
const line = (r: Record<Outcome, number>) => `${pct(r.right)} /${pct(r.offered)} /${pct(r.wrong)} /${pct(r.other)}`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (!fs.existsSync(path.join(sharedDir(), 'data', 'laws')) || !fs.existsSync(path.join(sharedDir(), 'data', 'stard', 'train.jsonl'))) {
    console.error('未找到 ../shared/data/laws 或 ../shared/data/stard/train.jsonl');
    process.exit(1);
  }
  // --learn-folds: only the judicial-interpretation bound (learnFolds), written into the shipped file
  if (args.includes('--learn-folds')) return learnFolds(args.includes('--dump') ? args[args.indexOf('--dump') + 1] : null);
  // --why: per chooser and temperature, the thresholds the STARD bound alone would pick and the
  // power / labour tuning answers they would lose
  const why = args.includes('--why');
  // --no-bounds: measurement only — thresholds by the STARD rule alone (power / labour not bounded);
  // prints the curves and writes nothing
  const noBounds = args.includes('--no-bounds');
  // --features: the out-of-fold AUC of p with each candidate feature (EXTRA_FEATURES) added
  const features = args.includes('--features');
  // --described: measurement only — the fit, the rule and every figure on the rows of collections the
  // known questions describe (DESCRIBED_SHARE; the shipped fit measured on the same rows); writes nothing
  const described = args.includes('--described');
  const rows = (await collect()).filter((r) => !described || r.described);
  // --robust: measurement only (robustReport); writes nothing
  if (args.includes('--robust')) {
    for (const l of robustReport(rows)) console.log(l);
    return;
  }
  if (described) console.log(`--described: ${rows.length} rows (${SETS.map((s) => `${s} ${rows.filter((r) => r.set === s).length}`).join(', ')})`);
  const dump = args.indexOf('--dump');
  if (dump >= 0) {
    fs.writeFileSync(args[dump + 1], JSON.stringify(rows.map(dumpRow)));
  }
  const tune = rows.filter((r) => r.part === 'tune');
  const focusTune = tune.filter((r) => r.focus && r.gold.size);
  console.log(`rows: ${rows.length} (tuning ${tune.length}, focus-decided with a right statute ${focusTune.length})`);

  // 2.–3. for each temperature: weights on the tuning rows and their out-of-fold probabilities; the
  // thresholds (one where the ratio rules would lock, one — not lower — where they would ask back)
  // keeping the STARD tuning half's wrong locks within the bound and the power and labour tuning
  // slices' right answers at least as high as before, locking the most right statutes on the STARD
  // tuning half (ties: fewer wrong locks, then lower thresholds); the temperature doing best wins
  const before = (part: Row['part'], set: SetName) => rates(rows.filter((r) => r.part === part && r.set === set).map((r) => outcome(r, null, null, NONE)));
  const shipped = (part: Row['part'], set: SetName) => rates(rows.filter((r) => r.part === part && r.set === set).map(shippedOutcome));
  const grid: number[] = [];
  for (let t = 0.3; t <= 0.951; t += 0.025) grid.push(Math.round(t * 1000) / 1000);
  type Pair = Thresholds;
  const curveOf = (choices: Map<Row, LockChoice | null>, part: Row['part'], set: SetName, t: Pair, probability: (r: Row) => number | null) =>
    rates(rows.filter((r) => r.part === part && r.set === set).map((r) => outcome(r, choices.get(r) ?? null, probability(r), t)));
  type Fit = { chooser: LockChooser; temperature: number; choice: ChoiceModel | null; pair: Pair; model: LockModel; choices: Map<Row, LockChoice | null>; oof: Map<Row, number>; right: number; wrong: number };
  let best: Fit | null = null;
  // the stated rule, power / labour bounds being hard (the issue forbids lowering them): thresholds
  // keeping the STARD tuning wrong-lock rate (out-of-fold) within the bound beat those that do not;
  // among those, the most right STARD locks (ties: fewer wrong); among those that do not, the fewest
  // wrong locks (ties: more right). Equal: the lower thresholds (the grid's order)
  const better = (a: { right: number; wrong: number }, b: { right: number; wrong: number } | null): boolean => {
    if (!b) return true;
    const am = a.wrong <= MAX_WRONG + 1e-9;
    const bm = b.wrong <= MAX_WRONG + 1e-9;
    if (am !== bm) return am;
    if (!am && Math.abs(a.wrong - b.wrong) > 1e-9) return a.wrong < b.wrong;
    if (Math.abs(a.right - b.right) > 1e-9) return a.right > b.right;
    return a.wrong < b.wrong - 1e-9;
  };
  for (const [chooser, temperature] of (['article', 'share', 'model'] as const).flatMap((c) => TEMPERATURES.map((t) => [c, t] as const))) {
    // chooser 'model': the choice model fitted on the tuning rows; each tuning row chosen by the model
    // of the folds it is not in (out-of-fold, like p), held-out rows by the model of all tuning rows
    let choice: ChoiceModel | null = null;
    const foldChoice = new Map<Row, ChoiceModel>();
    if (chooser === 'model') {
      const pool = tune.filter((r) => r.focus && r.articles.length && r.set !== 'absent');
      const sample = (rs: Row[]) => rs.map((r) => ({ candidates: choiceCandidates(r.articles, r.chunks, temperature, r.focusParent, r.prior).map((c) => ({ x: c.x, right: r.gold.has(c.parent) })) }));
      choice = fitChoiceModel(sample(pool));
      for (let f = 0; f < FOLDS; f++) {
        const m = fitChoiceModel(sample(pool.filter((_, i) => i % FOLDS !== f)));
        for (const [i, r] of pool.entries()) if (i % FOLDS === f) foldChoice.set(r, m);
      }
    }
    const choices = new Map(rows.map((r) => [r, r.focus ? lockChoice(r.articles, r.chunks, temperature, chooser, { ...setting(r), choice: foldChoice.get(r) ?? choice }) : null]));
    // the absent matters are reported, not fitted on: as negatives, with a bound of no more locks
    // there, the fit kept fewer right STARD locks (tuning 74.4 vs 77.5 %, held-out 66.7 vs 69.9 %)
    const fitRows = tune.filter((r) => choices.get(r) && r.set !== 'absent');
    // a lock is wanted when the chosen statute is right and the question is not one written to be
    // asked back (eval/collections-laws.eval.ts counts a lock there only with the accepted article, a
    // clarify offering an accepted statute always)
    const sample = (rs: Row[]) => rs.map((r) => ({ f: choices.get(r)!.features, right: r.gold.has(choices.get(r)!.parent) && !r.askWanted }));
    const oof = new Map<Row, number>();
    for (let f = 0; f < FOLDS; f++) {
      const model = fitLockModel(sample(fitRows.filter((_, i) => i % FOLDS !== f)), L2);
      for (const [i, r] of fitRows.entries()) if (i % FOLDS === f) oof.set(r, lockProbability(model, choices.get(r)!.features));
    }
    const p = (r: Row) => oof.get(r) ?? null;
    const ys = sample(fitRows);
    const logLoss = -fitRows.reduce((sum, r, i) => sum + Math.log(Math.min(1 - 1e-9, Math.max(1e-9, ys[i].right ? oof.get(r)! : 1 - oof.get(r)!))), 0) / fitRows.length;
    console.log(`  out-of-fold log-loss ${logLoss.toFixed(4)}`);
    if (features) console.log(`  ${featureReport(fitRows, choices)}`);
    let pick: { pair: Pair; right: number; wrong: number } | null = null;
    let loose: { pair: Pair; right: number; wrong: number; pl: string } | null = null;
    for (const lock of grid) {
      for (const [family, rival] of grid.flatMap((a) => grid.filter((b) => b >= a).map((b) => [a, b]))) {
        if (family < lock) continue;
        const pair = { lock, family, rival };
        const c = curveOf(choices, 'tune', 'stard', pair, p);
        if (why && c.wrong <= MAX_WRONG && (!loose || better(c, loose))) loose = { pair, right: c.right, wrong: c.wrong, pl: (['power', 'labour'] as const).map((set) => `${set} ${line(curveOf(choices, 'tune', set, pair, p))} (before ${line(before('tune', set))})`).join(' ') };
        // power / labour: right answers less wrong locks not below the ratio rules' nor the shipped
        // fit's (an ask-back instead of a wrong lock is no loss there, one instead of a right lock is)
        const net = (x: Record<Outcome, number>) => x.right - x.wrong;
        if (!noBounds && !(['power', 'labour'] as const).every((set) => net(curveOf(choices, 'tune', set, pair, p)) >= Math.max(net(before('tune', set)), net(shipped('tune', set))) - 1e-9)) continue;
        if (better(c, pick)) pick = { pair, right: c.right, wrong: c.wrong };
      }
    }
    if (loose && why)
      for (const r of rows.filter((r) => r.part === 'tune' && (r.set === 'labour' || r.set === 'power')))
        if (outcome(r, null, null, NONE) === 'right' && outcome(r, choices.get(r) ?? null, p(r), loose.pair) !== 'right') {
          const c = choices.get(r)!;
          console.log(`    lost ${r.set} ${r.q} p ${p(r)?.toFixed(3)} tie ${c.tie} ${JSON.stringify(c.features)}`);
        }
    if (loose) console.log(`  without the power / labour bound: ${JSON.stringify(loose.pair)} STARD ${pct(loose.right)} / ${pct(loose.wrong)}; ${loose.pl}`);
    const chosenRight = focusTune.filter((r) => r.gold.has(choices.get(r)!.parent)).length;
    // the chooser alone: how often its statute is right (tuning out-of-fold for the model, held-out: totals only)
    console.log(`  chosen statute right (focus-decided questions with a right statute): ${SETS.filter((s) => s !== 'absent').map((set) => `${set} ${choiceAccuracy(choices, 'tune', set)} | ${choiceAccuracy(choices, 'heldout', set)}`).join('  ')}`);
    if (!pick) {
      console.log(`${chooser} temperature ${temperature}: chosen statute right for ${chosenRight}/${focusTune.length}; no thresholds meet the bounds`);
      continue;
    }
    console.log(`${chooser} temperature ${temperature}: chosen statute right for ${chosenRight}/${focusTune.length}; thresholds ${JSON.stringify(pick.pair)}: STARD tuning out-of-fold right ${pct(pick.right)} wrong ${pct(pick.wrong)}`);
    if (better(pick, best)) {
      best = { chooser, temperature, choice, pair: pick.pair, model: fitLockModel(sample(fitRows), L2), choices, oof, right: pick.right, wrong: pick.wrong };
    }
  }
  if (!best) throw new Error('no temperature and thresholds meet the bounds');
  const { chooser, temperature, choice, pair, model, choices, oof } = best;
  // the shipped fit stays unless the refit beats it on the STARD tuning half by the same rule (its
  // power / labour answers are the bound every refit already keeps): a refit that only moves the
  // tuning figures sideways is not worth a change of what users get
  const current = shipped('tune', 'stard');
  const keep = !better(best, current);

  // 5. the disagreement bound (lock-model.ts Thresholds.disagree) on the fit in use — the shipped one
  // when it is kept, else the refit: a lock the known questions' word model contradicts (it gives another
  // statute of the collection, one it has a model of, a higher p than the chosen one) needs p ≥ it.
  // Chosen on the tuning rows by the same rule (power / labour tuning right − wrong not below the ratio
  // rules' nor the shipped fit's; STARD tuning wrong ≤ 5 % with the most right locks, else the fewest
  // wrong; equal: the lower bound, 0 = none). Only collections the known questions describe have a word
  // model, so the power statutes are never touched and most labour rules (too few known questions) neither
  const use = keep
    ? {
        pair: LOCK_MODEL.thresholds,
        choices: new Map(rows.map((r) => [r, r.focus ? lockChoice(r.articles, r.chunks, LOCK_MODEL.temperature, LOCK_MODEL.chooser, { ...setting(r), choice: LOCK_MODEL.choice }) : null])),
        prob: (r: Row, c: LockChoice | null) => (c ? lockProbability(LOCK_MODEL, c.features) : null),
      }
    : { pair, choices, prob: (r: Row, c: LockChoice | null) => (r.part === 'tune' ? (oof.get(r) ?? null) : c ? lockProbability(model, c.features) : null) };
  const withDisagree = (d: number, part: Row['part'], set: SetName) =>
    rates(rows.filter((r) => r.part === part && r.set === set).map((r) => outcome(r, use.choices.get(r) ?? null, use.prob(r, use.choices.get(r) ?? null), { ...use.pair, disagree: d })));
  const netOf = (x: Record<Outcome, number>) => x.right - x.wrong;
  let disagree: { d: number; right: number; wrong: number } | null = null;
  console.log(`\ndisagreement bound on the ${keep ? 'shipped fit' : 'refit'} (right lock / ask-back naming a right statute / wrong lock / other; tuning${keep ? '' : ' out-of-fold'} | held-out):`);
  for (const d of [0, ...grid.filter((t) => t > use.pair.lock)]) {
    const c = withDisagree(d, 'tune', 'stard');
    const bounded = (['power', 'labour'] as const).every((set) => netOf(withDisagree(d, 'tune', set)) >= Math.max(netOf(before('tune', set)), netOf(shipped('tune', set))) - 1e-9);
    if ((noBounds || bounded) && better(c, disagree)) disagree = { d, right: c.right, wrong: c.wrong };
    console.log(`  ${d.toFixed(3)}${bounded ? ' ' : '!'} ${SETS.map((set) => `${set} ${line(withDisagree(d, 'tune', set))} | ${line(withDisagree(d, 'heldout', set))}`).join('  ')}`);
  }
  const disagreeThreshold = disagree?.d ?? 0;
  for (const part of ['tune', 'heldout'] as const) {
    const at = { ...use.pair, disagree: disagreeThreshold };
    const st = rows.filter((r) => r.set === 'stard' && r.part === part);
    const wrong = st.filter((r) => {
      const c = use.choices.get(r);
      const p = use.prob(r, c ?? null);
      const on = r.focus && c && p !== null ? (p >= lockThreshold(at, c.tie, c.disagrees) ? c.parent : null) : r.base.state === 'locked' ? r.base.parents[0] : null;
      return on !== null && !r.gold.has(on);
    }).length;
    console.log(`STARD wrong locks at disagreement bound ${disagreeThreshold}, ${part === 'tune' ? 'tuning' : 'held-out'}: ${wrong}/${st.length} (95 % ${wilson(wrong, st.length)})`);
    // where the focus-decided locks sit: p band × what the word model says of the locked statute
    // (agrees: its most probable statute; disagrees: it prefers another it has a model of; silent)
    const bands = [0, 0.6, 0.8, 0.95, 1.0001];
    const cells = new Map<string, { right: number; wrong: number }>();
    for (const r of st) {
      const c = use.choices.get(r);
      const p = use.prob(r, c ?? null);
      if (!r.focus || !c || p === null || p < lockThreshold(at, c.tie, c.disagrees)) continue;
      const top = r.prior?.has(c.parent) ? Math.max(...r.prior.values()) : null;
      const says = top === null ? 'silent' : c.disagrees ? 'disagrees' : (r.prior!.get(c.parent) ?? 0) >= top - 1e-9 ? 'agrees' : 'silent';
      const band = bands.findIndex((b, i) => p >= b && p < bands[i + 1]);
      const key = `p ${bands[band]}–${Math.min(1, bands[band + 1])} ${says}`;
      const cell = cells.get(key) ?? { right: 0, wrong: 0 };
      if (r.gold.has(c.parent)) cell.right++;
      else cell.wrong++;
      cells.set(key, cell);
    }
    console.log(`  focus-decided locks by p and the word model (right / wrong): ${[...cells].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} ${v.right}/${v.wrong}`).join(', ')}`);
  }

  // 4. curves (the lock threshold varied, the ask-back one kept at least as high)
  console.log('\nright lock / ask-back naming a right statute / wrong lock / other (statute level; power / labour: a clarify on a question written to be asked back is right)');
  for (const set of SETS) console.log(`before (ratio rules)  ${set.padEnd(8)} tuning ${line(before('tune', set))}   held-out ${line(before('heldout', set))}`);
  for (const set of SETS) console.log(`shipped fit           ${set.padEnd(8)} tuning ${line(shipped('tune', set))}   held-out ${line(shipped('heldout', set))}`);
  const final = (r: Row) => (choices.get(r) ? lockProbability(model, choices.get(r)!.features) : null);
  for (const [label, part, prob] of [
    ['tuning out-of-fold', 'tune', (r: Row) => oof.get(r) ?? null],
    ['held-out          ', 'heldout', final],
  ] as const) {
    for (const t of grid) {
      const at = { lock: t, family: Math.max(t, pair.family), rival: Math.max(t, pair.rival) };
      const cells = SETS.map((set) => `${set} ${line(curveOf(choices, part, set, at, prob))}`);
      console.log(`${label} ${t.toFixed(3)}${t === pair.lock ? '*' : ' '} ${cells.join('  ')}`);
    }
  }
  // where the STARD wrong locks come from (totals per cause; the held-out questions themselves are not
  // printed), and how uncertain the wrong-lock rates are at these sample sizes
  const lockedOn = (r: Row, prob: number | null): string | null => {
    const c = choices.get(r);
    if (r.focus && c && prob !== null) return prob >= lockThreshold(pair, c.tie, c.disagrees) ? c.parent : null;
    return r.base.state === 'locked' ? r.base.parents[0] : null;
  };
  const stard = (part: Row['part']) => rows.filter((r) => r.set === 'stard' && r.part === part);
  for (const [label, part, on] of [
    ['shipped fit, tuning', 'tune', (r: Row) => (r.shipped.state === 'locked' ? r.shipped.parents[0] : null)],
    ['shipped fit, held-out', 'heldout', (r: Row) => (r.shipped.state === 'locked' ? r.shipped.parents[0] : null)],
    ['refit, tuning out-of-fold', 'tune', (r: Row) => lockedOn(r, oof.get(r) ?? null)],
    ['refit, held-out', 'heldout', (r: Row) => lockedOn(r, final(r))],
  ] as const) {
    const wrong = stard(part).filter((r) => on(r) !== null && !r.gold.has(on(r)!));
    const causes = new Map<string, number>();
    for (const r of wrong) causes.set(wrongCause(r, on(r)!), (causes.get(wrongCause(r, on(r)!)) ?? 0) + 1);
    console.log(`STARD wrong locks, ${label}: ${wrong.length}/${stard(part).length} (95 % ${wilson(wrong.length, stard(part).length)}): ${[...causes].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  // calibration of the refit's p on the STARD tuning half (out-of-fold): mean p vs how often the chosen statute is right
  const focusStard = stard('tune').filter((r) => r.focus && choices.get(r) && oof.has(r));
  const bins = [0, 0.3, 0.5, 0.7, 0.9, 1.0001];
  const cal = bins.slice(0, -1).map((lo, i) => {
    const b = focusStard.filter((r) => oof.get(r)! >= lo && oof.get(r)! < bins[i + 1]);
    const right = b.filter((r) => r.gold.has(choices.get(r)!.parent)).length;
    return `p ${lo}–${Math.min(1, bins[i + 1])}: ${b.length} questions, mean p ${b.length ? (b.reduce((s, r) => s + oof.get(r)!, 0) / b.length).toFixed(2) : '—'}, right ${right}/${b.length} (95 % ${wilson(right, b.length)})`;
  });
  console.log(`calibration, refit, STARD tuning out-of-fold:\n  ${cal.join('\n  ')}`);
  const out = {
    about: 'Calibrated lock decision of statute collections (collections/lock-model.ts). Written by `npm run models:fit-lock` (scripts/fit-lock-model.ts) from tuning rows only; do not edit by hand.',
    chooser,
    temperature,
    threshold: pair.lock,
    familyThreshold: pair.family,
    rivalThreshold: pair.rival,
    bias: model.bias,
    weights: Object.fromEntries(LOCK_FEATURES.map((k) => [k, model.weights[k]])),
    ...(choice ? { choiceWeights: choice } : {}),
    disagreeThreshold,
    interpretationThreshold: LOCK_MODEL.thresholds.interpretation ?? 0,
  };
  const file = path.join(projectRoot(), 'src', 'core', 'collections', 'data', 'lock-model.json');
  console.log(`\nchooser ${chooser}, temperature ${temperature}, thresholds: ${pair.lock} where the ratio rules lock; where they ask back ${pair.family} (runner-up of the same statute family) / ${pair.rival} (another statute)`);
  if (noBounds || described) {
    console.log(`${noBounds ? '--no-bounds' : '--described'}: nothing written (${noBounds ? 'the power / labour bound was off' : 'fitted on part of the rows'})`);
    return;
  }
  if (keep) {
    console.log(`kept ${path.relative(projectRoot(), file)}: the refit (STARD tuning out-of-fold right ${pct(best.right)} wrong ${pct(best.wrong)}) does not beat the shipped fit (right ${pct(current.right)} wrong ${pct(current.wrong)}) by the rule`);
    const shippedFile = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    if ((shippedFile.disagreeThreshold ?? 0) !== disagreeThreshold) {
      fs.writeFileSync(file, `${JSON.stringify({ ...shippedFile, disagreeThreshold }, null, 2)}\n`);
      console.log(`wrote ${path.relative(projectRoot(), file)}: the shipped fit with disagreeThreshold ${disagreeThreshold}`);
    }
    return;
  }
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`wrote ${path.relative(projectRoot(), file)}: ${JSON.stringify(out.weights)} bias ${out.bias}`);
}

void main();
