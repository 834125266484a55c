import type { AppContext } from '../context';
import { normalizeText } from '../text/normalize';
import { queryTokens } from '../text/segment';
import { corpusVersion, lexicalSearch } from '../search/lexical';
import { vectorTopK } from '../search/vectors';
import { loadMatrix } from '../search/vector-index';
import { cosineToScore, runPipeline, type PipelineResult, type RetrievedChunk, type Retriever } from '../search/pipeline';
import type { Decision, ParentHit } from '../search/fusion';
import type { ParentScore } from './retrieval-contract';

export type { ParentScore } from './retrieval-contract';
import { corpusOf, type CollectionRow } from './store';
import { chunkKey } from './search-bridge';
import { KeyedCache } from '../common/cache';
import { articleScore, chunkEvidence, formBonus, questionForm } from './article-score';
import { layExpansion, type LayExpansion } from './lay-terms';
import { profileOf } from './profile';
import { knownAnswers } from './known-answers';
import { subjectVerdict } from './subject';
import { knownStatutePosterior } from './known-statutes';
import { isJudicialInterpretation, LOCK_MODEL, lockChoice, lockProbability, lockThreshold, type LockFeatures, type LockTie } from './lock-model';

/**
 * Retrieval state of seed 003 for a collection, on the shared pipeline (search/pipeline.ts):
 * the collection supplies its retrievers (titles, lexical BM25 over jieba tokens, vectors when a
 * model is installed) and its evidence rules; fusion, aggregation (coverage_ratio = coverage /
 * total_chunks, normalised rrf_sum, 1/(1+d)) and the t_min / ambiguity decision are the pipeline's.
 */

export type RetrievalDecision = 'locked' | 'ambiguous' | 'low_evidence' | 'not_found';

export interface RetrievalState {
  query: string;
  /** The question with its question words removed (`红烧肉怎么做` -> `红烧肉`), used for title matching. */
  core: string;
  tokens: string[];
  lists: string[];
  decision: RetrievalDecision;
  reason: string;
  /** Evidence rule that overruled the seed-003 decision (title / focus / weak), or null. */
  rule: string | null;
  /** The seed-003 decision before collection rules. */
  generic: { state: Exclude<RetrievalDecision, 'not_found'>; reason: string };
  /** Fused chunks kept for aggregation (top_k), best first. */
  chunks: { key: string; parent: string; rrf: number; score: number; ranks: Record<string, number> }[];
  /** Locked document, or null. */
  locked: ParentScore | null;
  /** Close candidates when ambiguous (best first); the top parents otherwise (not_found: the near documents). */
  candidates: ParentScore[];
  /** not_found: the named thing the collection does not hold. */
  subject: string | null;
  /** The focus rule's article scores when it decided (null otherwise). */
  focus: FocusScores | null;
  /** The calibrated lock decision when the focus rule decided (lock-model.ts), else null: the chosen statute, the runner-up, features, p(right). */
  lockCheck: { parent: string; second: string | null; tie: LockTie; disagrees: boolean; features: LockFeatures; p: number; applied: boolean } | null;
  parents: ParentScore[];
}

interface TitleEntry {
  docId: number;
  title: string;
  norm: string;
  /** norm and its short forms a question may use (中华人民共和国电力法 -> 电力法). */
  aliases: string[];
  relPath: string;
  totalChunks: number;
}

function titleAliases(norm: string): string[] {
  const short = norm.replace(/^中华人民共和国/, '');
  return short !== norm && [...short].length >= 3 ? [norm, short] : [norm];
}

interface CollectionCache {
  version: number;
  titles: TitleEntry[];
  byId: Map<number, TitleEntry>;
}

/**
 * Question scaffolding around the thing asked about. Removed before title matching so
 * `做红烧肉需要什么原料` and `红烧肉怎么做？` both leave `红烧肉`.
 */
const PUNCTUATION = /[？?！!。，,、；;：:“”"'‘’（）()《》【】\[\]{}\s~～…*+=<>|^&%$#@/\\-]+/g;
// 怎么做 / 如何烧 / 怎样才能做好吃: the verb goes with the question word, never alone (红烧 keeps 烧)
const HOW = /(应该|要)?(怎么|如何|怎样|咋)(样)?(才能|才)?(做|烧|煮|炒|蒸|炖|烤|弄|制作|烹饪|操作|处理|办)?(出来|好|才好吃|好吃|比较好)?/g;
const POLITE = /(请问|请教|麻烦|帮我|帮忙|告诉我|教我|教教我|我想|我要|想要|想学|学做|学习|能不能|可以|可不可以|一下|一道|这道|那道)/g;
const HOW_LONG = /(大概|一共|总共)?(要|需要|得)?(多久|多长时间|多少时间|几分钟|几个小时|多少分钟|多少小时)/g;
const NEEDS = /(需要|要用|要|用|准备)(哪些|什么|啥|些什么|多少)?(原料|原材料|材料|食材|配料|用料|调料|东西|工具|步骤)/g;
const TAIL = /(呢|吗|呀|啊|吧|嘛|哦|的)$/g;
const ASKS_WHAT = /(是什么|是啥|有哪些|有什么|需要什么|需要哪些)$/g;
const QUESTION_PARTS: RegExp[] = [
  PUNCTUATION,
  HOW,
  // follow-up aspects asked together with the name: 红烧肉第三步是什么, 红烧肉要多久, 可乐鸡翅用什么锅
  /第[一二三四五六七八九十百零两〇\d]+(个)?步(骤)?(是什么|是啥|怎么做|呢)?|(最后|下|上)一步/g,
  HOW_LONG,
  /(需要|要用|要|用)(什么|哪种|啥)(样的)?(锅|工具|器具|厨具|设备)/g,
  POLITE,
  NEEDS,
  /(的)?(做法|作法|制作方法|制作步骤|制作过程|烹饪方法|步骤|流程|菜谱|食谱|教程|配方|原料|原材料|材料|食材|配料|用料|调料|工具)(是什么|是啥|有哪些|有什么)?/g,
  /^(做|制作|烹饪)(?=.)/g,
  TAIL,
  ASKS_WHAT,
  /(要|需要|得|该)?(放|加|用|准备|买)(些)?(什么|哪些|啥|多少)$/g,
];

/**
 * An A-not-A question (`要不要`, `能不能`, `是不是`, `有没有`, `可不可以`, `包不包括`) asks yes or no: it is read
 * as its verb (要, 能, 可以, 包括). Its pieces (不要, 不能, 没有, 不可, 包不 + 括) would otherwise be searched as words
 * and match articles that say 不得 / 不能 about something else (`公司开除员工之前要不要先通知工会`: 不要 → 不得
 * through the learned vocabulary chose 劳动合同法 第六十九条).
 */
const A_NOT_A = /(\p{Script=Han})[不没]\1/gu;
/**
 * Statute questions keep what the recipe scaffolding takes for question parts: 材料 not asked for
 * (`用假材料骗领`; `需要什么材料` stays a question part),
 * 告诉 inside the question (`公司应该告诉我哪些情况`: the duty to inform; only a leading `告诉我` is a
 * request).
 */
const STATUTE_PARTS: RegExp[] = [PUNCTUATION, HOW, HOW_LONG, NEEDS, /^(请问|请教|麻烦|帮我|帮忙|告诉我|我想问|我想知道)+/g, new RegExp(POLITE.source.replace('告诉我|', ''), 'g'), TAIL, ASKS_WHAT];

/** A token that asks rather than names (由谁来, 几天, 哪些, 什么样): statute articles never hold it. */
const INTERROGATIVE = /谁|几|哪|啥|什么|怎|多少|多久|吗|呢/u;

/**
 * The terms a question is searched and weighed by: jieba tokens of its core; statute questions drop
 * tokens that ask rather than name (`最低工资标准由谁来定` keeps 最低工资 标准 定, not 由谁来, which no
 * article holds and which only dilutes every article's evidence alike). The question's form
 * (article-score.ts) reads how it asks from the question itself.
 */
export function questionTerms(question: string, kind: 'any' | 'statutes' = 'any'): string[] {
  const tokens = queryTokens(questionCore(question, kind) || question);
  return kind === 'statutes' ? tokens.filter((t) => !INTERROGATIVE.test(t)) : tokens;
}

export function questionCore(question: string, kind: 'any' | 'statutes' = 'any'): string {
  let s = normalizeText(question);
  const parts = kind === 'statutes' ? STATUTE_PARTS : QUESTION_PARTS;
  if (kind === 'statutes') s = s.replace(A_NOT_A, '$1');
  for (let pass = 0; pass < 2; pass++) for (const re of parts) s = s.replace(re, '');
  return s.trim();
}

function bigrams(s: string): string[] {
  const chars = [...s];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/**
 * How strongly the asked-about thing names a document title, 0..1. Exact title = 1; the title
 * inside the question (`南派红烧肉配料表`) 0.1..0.9 by the share of the question it makes up; the question inside a longer title
 * (`红烧肉` in 南派红烧肉, `鸡` in 口水鸡) 0.5..0.9 by how much of the title it covers, so several
 * such titles score alike and the decision becomes "ambiguous"; otherwise character-bigram Dice.
 */
export function titleScore(core: string, title: string): number {
  if (!core || !title) return 0;
  if (core === title) return 1;
  const cl = [...core].length;
  const tl = [...title].length;
  // a title inside a long description mentions the dish rather than naming it: weight by share
  if (tl >= 2 && core.includes(title)) return 0.1 + 0.8 * (tl / cl);
  if (title.includes(core)) return 0.5 + 0.4 * (cl / tl);
  const a = bigrams(core);
  const b = new Set(bigrams(title));
  if (!a.length || !b.size) return 0;
  let common = 0;
  const used = new Set<string>();
  for (const g of a) if (b.has(g) && !used.has(g)) (common++, used.add(g));
  const dice = (2 * common) / (a.length + b.size);
  return dice >= 0.3 ? 0.8 * dice : 0;
}

/** Each collection's titles, by collection name, rebuilt when its corpus changes. */
const titleCaches = new KeyedCache<CollectionCache>('collections.titles');

/** Forgets a collection's cached titles (re-import, delete). */
export function forgetCollectionCache(ctx: AppContext, name: string): void {
  titleCaches.in(ctx.state).delete(name);
}

function collectionCache(ctx: AppContext, coll: CollectionRow): CollectionCache {
  const version = corpusVersion(ctx.db, corpusOf(coll.name));
  const cached = titleCaches.in(ctx.state).get(coll.name);
  if (cached && cached.version === version) return cached;
  const rows = ctx.db
    .prepare('SELECT id, title, rel_path, total_chunks FROM coll_docs WHERE collection_id = ? ORDER BY id')
    .all(coll.id) as { id: number; title: string; rel_path: string; total_chunks: number }[];
  const titles = rows.map((r) => ({
    docId: r.id,
    title: r.title,
    norm: questionCore(r.title) || normalizeText(r.title),
    aliases: titleAliases(questionCore(r.title) || normalizeText(r.title)),
    relPath: r.rel_path,
    totalChunks: r.total_chunks,
  }));
  const fresh = { version, titles, byId: new Map(titles.map((t) => [t.docId, t])) };
  titleCaches.in(ctx.state).set(coll.name, fresh);
  return fresh;
}

export function documentTitles(ctx: AppContext, coll: CollectionRow): { docId: number; title: string }[] {
  return collectionCache(ctx, coll).titles.map((t) => ({ docId: t.docId, title: t.title }));
}

/** Whether two documents of the collection are one statute family to the asker (sameStatuteFamily). */
export function statuteFamily(ctx: AppContext, coll: CollectionRow): (a: string, b: string) => boolean {
  const cache = collectionCache(ctx, coll);
  return (a, b) => sameStatuteFamily(cache.byId.get(Number(a)), cache.byId.get(Number(b)));
}

/** Titles of the collection that the question names literally (longest first), for switching documents. */
export function titlesNamedIn(ctx: AppContext, coll: CollectionRow, question: string): { docId: number; title: string }[] {
  const q = normalizeText(question).replace(/[\p{P}\p{S}\s]/gu, '');
  return collectionCache(ctx, coll)
    .titles.filter((t) => t.aliases.some((a) => [...a].length >= 2 && q.includes(a)))
    .sort((a, b) => b.norm.length - a.norm.length)
    .map((t) => ({ docId: t.docId, title: t.title }));
}

/** Documents whose titles the (core of the) question matches, best first (title score >= min). */
export function titleMatches(ctx: AppContext, coll: CollectionRow, question: string): { docId: number; title: string; score: number }[] {
  const core = questionCore(question);
  if (!core) return [];
  return collectionCache(ctx, coll)
    .titles.map((t) => ({ docId: t.docId, title: t.title, score: titleScore(core, t.norm) }))
    .filter((x) => x.score >= ctx.config.collections.minTitleScore)
    .sort((a, b) => b.score - a.score);
}

export interface RetrieveOptions {
  /** Chunks kept per ranked list and after fusion (seed 003 --top-k). */
  topK?: number;
  /** Parents returned as candidates (seed 003 --top-parents). */
  topParents?: number;
}

/**
 * Retrievers of a collection for the shared pipeline (search/pipeline.ts): titles (a document
 * whose title the question names: all its chunks, so it is fully covered), lexical BM25 over
 * jieba tokens of the question core, and vectors when a model and the collection's vectors exist.
 */
function collectionRetrievers(
  ctx: AppContext,
  coll: CollectionRow,
  cache: CollectionCache,
  core: string,
  topK: number,
  titleScores: Map<number, number>,
  cosines: Map<string, number>,
  lay: LayExpansion,
  knownSims: Map<string, number>,
  /** the terms searched (statutes: questionTerms' 'statutes' kind); default the core's tokens */
  terms: string[] | null = null,
): Retriever[] {
  const cfg = ctx.config.collections;
  const corpus = corpusOf(coll.name);
  const title: Retriever = {
    name: 'title',
    retrieve: () => {
      if (!core) return [];
      const scored = cache.titles
        .map((t) => ({ t, s: titleScore(core, t.norm) }))
        .filter((x) => x.s >= cfg.minTitleScore)
        .sort((a, b) => b.s - a.s || a.t.docId - b.t.docId)
        .slice(0, cfg.topParents);
      const out: RetrievedChunk[] = [];
      let rank = 0;
      for (const [i, x] of scored.entries()) {
        titleScores.set(x.t.docId, x.s);
        // equal title scores share a rank (1, 1, 3, ...): document order must not break a tie
        if (i === 0 || x.s < scored[i - 1].s) rank = i + 1;
        for (let ord = 0; ord < x.t.totalChunks; ord++) out.push({ key: chunkKey(x.t.docId, ord), parent: String(x.t.docId), score: x.s, rank });
      }
      return out;
    },
  };
  const lexical: Retriever = {
    name: 'lexical',
    retrieve: (q) => {
      const own = terms ?? queryTokens(core || q);
      if (!own.length) return [];
      // everyday words also search their statute words; evidence stays the share of the question's own terms
      const tokens = [...new Set([...own, ...lay.extra])];
      const hits = lexicalSearch(ctx.db, { corpus, tokens, k: topK }, { corpusStats: true }).hits;
      const evidence = lay.extra.length ? chunkEvidence(ctx.db, corpus, own, { keys: hits.map((h) => h.key) }, lay.equivalents) : null;
      return hits.map((h) => ({ key: h.key, parent: h.parent, score: evidence?.get(h.key)?.evidence ?? h.evidence }));
    },
  };
  const vector: Retriever = {
    name: 'vector',
    retrieve: async (q) => {
      const embedder = ctx.embedder();
      if (!embedder.available()) return [];
      const modelId = embedder.status().model_id;
      const matrix = modelId ? loadMatrix(ctx.db, ctx.state, corpus, modelId) : null;
      if (!matrix) return [];
      const [qv] = await embedder.embed([q], 'query');
      const hits = vectorTopK(matrix, qv, topK);
      const keys = keysOfItems(ctx, hits.map((h) => h.id));
      const out: RetrievedChunk[] = [];
      for (const h of hits) {
        const k = keys.get(h.id);
        if (!k) continue;
        cosines.set(k.key, h.score);
        out.push({ key: k.key, parent: k.parent, score: cosineToScore(h.score) });
      }
      return out;
    },
  };
  // learned: articles answering known lay questions close to this one (statute collections only)
  const known: Retriever = {
    name: 'known',
    retrieve: (q) => {
      const out: RetrievedChunk[] = [];
      let rank = 0;
      let last = '';
      for (const h of knownAnswers(ctx, coll, q)) {
        const article = `${h.parent}:${h.sim}`;
        // pieces of one article share its rank
        if (article !== last) (rank = out.length + 1), (last = article);
        knownSims.set(h.key, h.sim);
        out.push({ key: h.key, parent: h.parent, score: h.sim, rank });
      }
      return out;
    },
  };
  return [title, lexical, vector, known];
}

export async function retrieveState(ctx: AppContext, coll: CollectionRow, question: string, options: RetrieveOptions = {}): Promise<RetrievalState> {
  const cfg = ctx.config.collections;
  const search = ctx.config.search;
  const cache = collectionCache(ctx, coll);
  const family = statuteFamily(ctx, coll);
  const core = questionCore(question);
  // the terms searched and weighed: statutes keep what the recipe scaffolding drops (材料, 告诉);
  // the subject decision and title matching keep the common core
  const terms = profileOf(ctx.db, coll) === 'recipes' ? queryTokens(core || question) : questionTerms(question, 'statutes');
  const topK = options.topK ?? cfg.topChunks;
  const topParents = options.topParents ?? cfg.topParents;
  const titleScores = new Map<number, number>();
  const cosines = new Map<string, number>();
  const knownSims = new Map<string, number>();
  // recipes name dishes in everyday words already; statutes and other documents get the lay-term bridge
  const lay = profileOf(ctx.db, coll) === 'recipes' ? { extra: [], equivalents: [] } : layExpansion(ctx, coll, question);
  let focus: FocusScores | null = null;
  const result = await runPipeline(
    question,
    collectionRetrievers(ctx, coll, cache, core, topK, titleScores, cosines, lay, knownSims, terms),
    {
      rrfK: search.rrfK,
      topK,
      coverageThreshold: search.coverageThreshold,
      tMin: search.tMin,
      ambiguityRatio: search.ambiguityRatio,
      rrfWeight: search.rrfWeight,
      // seed 003 as written: relative to the best eligible document, coverage over all its chunks
      normalise: { kind: 'best' },
      totalChunks: (p) => cache.byId.get(Number(p))?.totalChunks ?? 1,
    },
    (r) =>
      collectionEvidenceRule(r, {
        titleScores,
        cosines,
        named: namedTitles(cache, question),
        titleOf: (p) => cache.byId.get(Number(p))?.title ?? p,
        family,
        names: (a, b) => titleNames(cache.byId.get(Number(a)), cache.byId.get(Number(b))),
        cfg,
        ambiguityRatio: search.ambiguityRatio,
        diag: (d) => (focus = d),
        articleScores: (chunks) => {
          const ev = chunkEvidence(ctx.db, corpusOf(coll.name), terms, { keys: chunks.map((c) => c.key) }, lay.equivalents);
          const maxRrf = Math.max(0, ...chunks.map((c) => c.rrf));
          const form = questionForm(question);
          const out = new Map<string, { score: number; evidence: number }>();
          for (const c of chunks) {
            const e = ev.get(c.key);
            // a close known question is evidence for its article as much as the question's own words
            const evidence = Math.max(e?.evidence ?? 0, knownSims.get(c.key) ?? 0);
            out.set(c.key, { evidence, score: articleScore(evidence, maxRrf > 0 ? c.rrf / maxRrf : 0, formBonus(form, e?.text ?? '', cfg.sectionFormBonus), cfg.sectionEvidenceWeight) });
          }
          return out;
        },
      }),
  );
  const toScore = (p: ParentHit): ParentScore => {
    const t = cache.byId.get(Number(p.parent));
    return {
      doc_id: Number(p.parent),
      title: t?.title ?? p.parent,
      rel_path: t?.relPath ?? '',
      rrf_sum: round(p.rrf_sum),
      rrf_sum_norm: round(p.rrf_norm),
      max_chunk_score: round(p.max_chunk_score),
      max_chunk_norm: round(p.max_norm),
      coverage: p.coverage,
      total_chunks: p.total_chunks,
      coverage_ratio: round(p.coverage_ratio),
      overall_score: round(p.overall_score),
      title_score: round(titleScores.get(Number(p.parent)) ?? 0),
      passes_coverage: p.passes_coverage,
      chunks: p.chunks.slice(0, 10),
    };
  };
  const byParent = new Map(result.parents.map((p) => [p.parent, p]));
  let decision = result.decision;
  // statutes: the calibrated lock decision (lock-model.ts) on the focus rule's documents: p(right)
  // from the statute-level aggregation of their article scores and the rankers' agreement; locked at
  // the threshold that applies, else asked back with the runner-up (replaces the ratio decisions)
  const focused = focus as FocusScores | null;
  let lockCheck: RetrievalState['lockCheck'] = null;
  if (profileOf(ctx.db, coll) !== 'recipes' && decision.rule === 'focus' && focused) {
    const choice = lockChoice(focused.articles, result.chunks, LOCK_MODEL.temperature, LOCK_MODEL.chooser, {
      focusParent: focused.bestParent,
      choice: LOCK_MODEL.choice,
      // the known questions' word model: the choice model's feature, and a second opinion on the chosen statute
      prior: LOCK_MODEL.chooser === 'model' || cfg.lockModel.disagreeThreshold > 0 ? knownStatutePosterior(ctx, coll, question) : null,
      family,
      ambiguityRatio: search.ambiguityRatio,
      familyAmbiguityRatio: cfg.familyAmbiguityRatio,
    });
    if (choice && byParent.has(choice.parent)) {
      const model = cfg.lockModel;
      const p = lockProbability(LOCK_MODEL, choice.features);
      const second = choice.second && byParent.has(choice.second) ? choice.second : null;
      lockCheck = { parent: choice.parent, second, tie: choice.tie, disagrees: choice.disagrees, features: choice.features, p: round(p), applied: model.enabled };
      if (model.enabled && (decision.state === 'locked' || decision.state === 'ambiguous')) {
        const was = decision.reason;
        const needed = lockThreshold(
          { lock: model.threshold, family: model.familyThreshold, rival: model.rivalThreshold, disagree: model.disagreeThreshold, interpretation: model.interpretationThreshold },
          choice.tie,
          choice.disagrees,
          isJudicialInterpretation(cache.byId.get(Number(choice.parent))?.title),
        );
        decision =
          p >= needed
            ? { state: 'locked', parents: [choice.parent], reason: `锁定把握 ${p.toFixed(2)}（不低于 ${needed}）；${was}`, rule: 'focus' }
            : second
              ? { state: 'ambiguous', parents: [choice.parent, second], reason: `锁定把握 ${p.toFixed(2)} 低于 ${needed}，请在两篇中选择（${was}）`, rule: 'focus' }
              : { state: 'low_evidence', parents: [choice.parent], reason: `锁定把握 ${p.toFixed(2)} 低于 ${needed}（${was}）`, rule: 'focus' };
      }
    }
  }
  const parents = result.parents.slice(0, Math.max(topParents, 10)).map(toScore);
  // the subject decision: a lock (or a clarify) on documents that do not hold what the question names
  const verdict = subjectVerdict(ctx, coll, {
    recipes: profileOf(ctx.db, coll) === 'recipes',
    core,
    state: decision.state,
    rule: decision.rule ?? null,
    candidates: decision.state === 'low_evidence' ? result.parents.slice(0, topParents).map((p) => p.parent) : decision.parents,
    lay: lay.equivalents,
    knownSupport: decision.state === 'locked' && result.chunks.some((c) => c.parent === decision.parents[0] && c.ranks.known !== undefined),
  });
  if (verdict) {
    return {
      query: question,
      core,
      tokens: queryTokens(core || question),
      lists: Object.keys(result.lists),
      decision: 'not_found',
      reason: `${verdict.reason}（原判定：${decision.reason}）`,
      rule: 'subject',
      generic: { state: result.generic.state, reason: result.generic.reason },
      locked: null,
      candidates: verdict.near.slice(0, cfg.nearAlternatives).map((p) => toScore(byParent.get(p)!)),
      subject: verdict.subject,
      focus,
      lockCheck,
      parents,
      chunks: result.chunks.map((c) => ({ key: c.key, parent: c.parent, rrf: round(c.rrf), score: round(c.score), ranks: c.ranks })),
    };
  }
  const candidates =
    decision.state === 'ambiguous'
      ? decision.parents.slice(0, topParents).map((p) => toScore(byParent.get(p)!))
      : result.parents.slice(0, topParents).map(toScore);
  return {
    query: question,
    core,
    tokens: queryTokens(core || question),
    lists: Object.keys(result.lists),
    decision: decision.state,
    reason: decision.reason,
    rule: decision.rule ?? null,
    generic: { state: result.generic.state, reason: result.generic.reason },
    locked: decision.state === 'locked' ? toScore(byParent.get(decision.parents[0])!) : null,
    candidates,
    subject: null,
    focus,
    lockCheck,
    parents,
    chunks: result.chunks.map((c) => ({ key: c.key, parent: c.parent, rrf: round(c.rrf), score: round(c.score), ranks: c.ranks })),
  };
}

/**
 * Two documents of one statute family: parts of one code (same title), or one whose title names the
 * other (商标法实施条例 names 商标法; 最高人民法院关于适用《中华人民共和国民法典》有关担保制度的解释
 * names 民法典): implementing rules and judicial interpretations answer the same questions as
 * their law, so a question matching both is no reason to ask which one is meant.
 */
export function sameStatuteFamily(a: TitleEntry | undefined, b: TitleEntry | undefined): boolean {
  if (!a || !b) return false;
  return a.title === b.title || titleNames(a, b) || titleNames(b, a);
}

/** Whether document a's title names document b (商标法实施条例 names 商标法): a's rules or interpretation of b. */
function titleNames(a: TitleEntry | undefined, b: TitleEntry | undefined): boolean {
  return !!a && !!b && a.title !== b.title && b.aliases.some((n) => [...n].length >= 3 && a.norm.includes(n));
}

/** Titles the question names literally (at least 2 characters), without titles inside a longer named one. */
function namedTitles(cache: CollectionCache, question: string): number[] {
  // punctuation never decides (酸梅汤（半成品加工） vs the title core 酸梅汤半成品加工)
  const q = normalizeText(question).replace(/[\p{P}\p{S}\s]/gu, '');
  const named = cache.titles.filter((t) => t.aliases.some((a) => [...a].length >= 2 && q.includes(a)));
  const kept = named.filter((t) => !named.some((o) => o.norm.length > t.norm.length && o.norm.includes(t.norm)));
  return kept.map((t) => t.docId);
}

interface RuleInputs {
  titleScores: Map<number, number>;
  /** Document title of a parent (parts of one code share it). */
  titleOf?: (parent: string) => string;
  /** Whether two parents are one statute family to the asker (parts of a code, a law and its implementing rules or interpretations). */
  family?: (a: string, b: string) => boolean;
  /** Whether document a's title names document b (a is b's implementing rules or interpretation). */
  names?: (a: string, b: string) => boolean;
  cosines: Map<string, number>;
  named: number[];
  /** Article score (article-score.ts) of fused chunks: evidence, rrf and question form. */
  articleScores: (chunks: PipelineResult['chunks']) => Map<string, { score: number; evidence: number }>;
  cfg: AppContext['config']['collections'];
  ambiguityRatio: number;
  /** Receives the focus rule's scores (evaluations and traces). */
  diag?: (d: FocusScores) => void;
}

/** Article scores behind a focus decision: the best, the best of another document (any / another statute family). */
export interface FocusScores {
  best: number;
  evidence: number;
  other: number;
  otherFamily: boolean;
  rival: number;
  /** the documents of the best article, of the best other document's and of the best rival's (another statute family) */
  bestParent: string;
  otherParent: string | null;
  rivalParent: string | null;
  /** every fused chunk in article-score order: its document, article score and term evidence */
  articles: { key: string; parent: string; score: number; evidence: number }[];
}

/**
 * Evidence rules of collections on top of the seed-003 decision, each measured by
 * eval/howtocook.eval.ts and eval/collections-laws.eval.ts (see their headers):
 * 1. title: a question naming exactly one document title (`今晚想做个可乐鸡翅`) locks on it; an exact
 *    title locks; several titles matching about equally (`鸡怎么做`) make it ambiguous.
 * 2. focus: in a long document (a statute of 40 articles) one relevant article is a tiny
 *    coverage_ratio, so nothing is eligible; then the document of the best fused chunk by article
 *    score (article-score.ts: term evidence incl. the statute's title words, fused rank, question
 *    form) is locked when that chunk has real evidence (focusMinChunks+ chunks: focusLongEvidence, shorter
 *    documents: focusEvidence); ambiguous when another document's best chunk scores within the
 *    ambiguity ratio. Ranking by article score instead of by RRF alone took the power-statute set
 *    from 4.8 % to 0 % wrong locks (eval/collections-laws.eval.ts); short documents (recipes) rarely
 *    need it and `高血压吃什么药` must not lock one.
 * 3. weak: a lock whose best chunk has no real evidence (term share / title / cosine below
 *    minEvidence) is low evidence (`今天天气怎么样` must not lock a random short document).
 */
export function collectionEvidenceRule(r: Omit<PipelineResult, 'decision'>, o: RuleInputs): Decision | null {
  const g = r.generic;
  const parents = r.parents;
  if (o.named.length === 1) {
    const id = String(o.named[0]);
    if (g.state === 'locked' && g.parents[0] === id) return null;
    return { state: 'locked', parents: [id], reason: `问题包含文档标题（原判定：${g.reason}）`, rule: 'title' };
  }
  if (o.titleScores.size) {
    const best = Math.max(...o.titleScores.values());
    const exact = [...o.titleScores].filter(([, s]) => s >= 1).map(([id]) => String(id));
    if (exact.length === 1) {
      if (g.state === 'locked' && g.parents[0] === exact[0]) return null;
      return { state: 'locked', parents: exact, reason: `标题完全匹配（原判定：${g.reason}）`, rule: 'title' };
    }
    const close = [...o.titleScores].filter(([, s]) => s >= best * o.ambiguityRatio && s >= 0.5).map(([id]) => String(id));
    if (close.length >= 2 && !(g.state === 'locked' && !close.includes(g.parents[0]))) {
      const listed = [...o.titleScores].filter(([, s]) => s >= best * o.cfg.candidateTitleRatio).map(([id]) => String(id));
      const order = new Map(parents.map((p, i) => [p.parent, i]));
      listed.sort((a, b) => o.titleScores.get(Number(b))! - o.titleScores.get(Number(a))! || (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9));
      return { state: 'ambiguous', parents: listed, reason: `${listed.length} 个文档的标题与问题同样匹配`, rule: 'title' };
    }
  }
  const chunkByKey = new Map(r.chunks.map((c) => [c.key, c]));
  const evidenceOf = (p: ParentHit): number => {
    let best = o.titleScores.get(Number(p.parent)) ?? 0;
    for (const key of p.chunks) {
      const c = chunkByKey.get(key);
      if (!c) continue;
      const cos = o.cosines.get(key);
      // vector-only chunks: 1/(1+d) is never small, so their evidence is the cosine above the floor
      const vectorOnly = cos !== undefined && c.ranks.lexical === undefined && c.ranks.title === undefined;
      best = Math.max(best, vectorOnly ? (cos >= o.cfg.vectorEvidenceFloor ? cos : 0) : c.score);
    }
    return best;
  };
  if (g.state === 'low_evidence' && r.chunks.length) {
    // focus: the best-scoring fused chunk (one article: evidence, rank, question form) decides in long documents
    const scores = o.articleScores(r.chunks);
    const ranked = [...r.chunks].sort((a, b) => (scores.get(b.key)?.score ?? 0) - (scores.get(a.key)?.score ?? 0) || b.rrf - a.rrf);
    let best = ranked[0];
    // a tie (within the ambiguity ratio) between rules or an interpretation and the law they name goes
    // to the law: the asker asks about the law, the interpretation details it. Tuning part of
    // eval/collections-stard.eval.ts: right article first 43.4 → 44.2 %, locks on a wrong title 5.4 →
    // 4.7 %; its learn part without learned lists: right statute 77.0 → 77.6 %, wrong lock 12.1 → 11.5 %
    const law = o.names && ranked.find((c) => c.parent !== best.parent && o.names!(best.parent, c.parent) && (scores.get(c.key)?.score ?? 0) >= (scores.get(best.key)?.score ?? 0) * o.ambiguityRatio);
    if (law) best = law;
    const top = parents.find((p) => p.parent === best.parent)!;
    const ev = Math.max(evidenceOf(top), scores.get(best.key)?.evidence ?? 0);
    // long documents: real evidence is enough; short ones could have been covered, so they need more
    if (ev < (top.total_chunks >= o.cfg.focusMinChunks ? o.cfg.focusLongEvidence : o.cfg.focusEvidence)) return null;
    // parts of one code (民法典's 合同编 and 物权编 are both 中华人民共和国民法典) are one statute to
    // the asker: a clarify listing the same name twice cannot be answered, so they are no rivals;
    // nor are a law and the rules or interpretations that name it (sameStatuteFamily). On the tuning
    // part of eval/collections-stard.eval.ts: right statute locked 74.4 → 80.6 %, right article first
    // 39.5 → 41.9 %, ambiguous 15.5 → 7.0 %, wrong lock 7.0 → 9.3 % (most clarifies it drops listed a
    // law and its interpretation that both held a cited article)
    const titleOf = o.titleOf ?? ((p: string) => p);
    const sameFamily = o.family ?? ((a: string, b: string) => titleOf(a) === titleOf(b));
    const rival = ranked.find((c) => c.parent !== best.parent && !sameFamily(c.parent, best.parent));
    const bestScore = scores.get(best.key)?.score ?? 0;
    const other = ranked.find((c) => c.parent !== best.parent);
    o.diag?.({
      best: bestScore,
      evidence: scores.get(best.key)?.evidence ?? 0,
      other: other ? (scores.get(other.key)?.score ?? 0) : 0,
      otherFamily: !!other && sameFamily(other.parent, best.parent),
      rival: rival ? (scores.get(rival.key)?.score ?? 0) : 0,
      bestParent: top.parent,
      otherParent: other?.parent ?? null,
      rivalParent: rival?.parent ?? null,
      articles: ranked.map((c) => ({ key: c.key, parent: c.parent, score: scores.get(c.key)?.score ?? 0, evidence: scores.get(c.key)?.evidence ?? 0 })),
    });
    // another document's best article scores about as high: ask which one is meant. The ratio stays
    // seed 003's 0.92: on the tuning part of eval/collections-stard.eval.ts a looser clarify (0.95 /
    // 0.97 / never) locks more right statutes (76.0 / 77.5 / 84.5 % vs 74.4 %) but wrong locks grow
    // faster (8.5 / 10.9 / 12.4 % vs 7.0 %), and a wrong confident answer is worse than a question.
    if (rival && bestScore > 0 && (scores.get(rival.key)?.score ?? 0) / bestScore > o.ambiguityRatio) {
      return { state: 'ambiguous', parents: [top.parent, rival.parent], reason: `两篇文档的最佳条款同样匹配（原判定：${g.reason}）`, rule: 'focus' };
    }
    // another part of the same code, or the law and its rules, scores nearly as high: also ask (parts
    // are told apart by their files). Tuning part of eval/collections-stard.eval.ts (right statute /
    // wrong lock): never 80.6 / 9.3 %, 0.97 → 76.0 / 6.2, 0.96 → 75.2 / 5.4, 0.95 → 74.4 / 4.7, 0.93 →
    // 72.9 / 4.7 (a question listing the right statute among two is no wrong answer)
    if (other && bestScore > 0 && (scores.get(other.key)?.score ?? 0) / bestScore > o.cfg.familyAmbiguityRatio) {
      return { state: 'ambiguous', parents: [top.parent, other.parent], reason: `同一法规的两个部分（或法律与其解释）的最佳条款同样匹配（原判定：${g.reason}）`, rule: 'focus' };
    }
    return { state: 'locked', parents: [top.parent], reason: `最佳条款在该文档（证据 ${ev.toFixed(2)}），长文档无法达到覆盖率（原判定：${g.reason}）`, rule: 'focus' };
  }
  if (g.state === 'locked') {
    const top = parents.find((p) => p.parent === g.parents[0])!;
    const ev = evidenceOf(top);
    if (ev < o.cfg.minEvidence) {
      return { state: 'low_evidence', parents: [top.parent], reason: `最佳片段证据 ${ev.toFixed(2)} 低于 ${o.cfg.minEvidence}（原判定：${g.reason}）`, rule: 'weak' };
    }
  }
  return null;
}

function keysOfItems(ctx: AppContext, ids: number[]): Map<number, { key: string; parent: string }> {
  const stmt = ctx.db.prepare('SELECT key, parent FROM search_items WHERE id = ?');
  const out = new Map<number, { key: string; parent: string }>();
  for (const id of ids) {
    const r = stmt.get(id) as { key: string; parent: string } | undefined;
    if (r) out.set(id, r);
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
