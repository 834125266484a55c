import type { AppContext } from '../context';
import { normalizeText } from '../text/normalize';
import { queryTokens } from '../text/segment';
import { corpusVersion, lexicalSearch, type LexicalHit } from '../search/lexical';
import { loadMatrix, vectorTopK } from '../search/vectors';
import { aggregateParents, decide, rrfFuse, type ChunkScore, type ParentHit, type RankedHit } from '../search/fusion';
import { corpusOf, type CollectionRow } from './store';
import { chunkKey } from './search-bridge';

/**
 * Retrieval state of seed 003 on the shared search engine: chunk-level ranked lists (lexical
 * BM25 over jieba tokens, document titles, vectors when a model is installed) -> RRF (k from
 * config.search.rrfK) -> parent aggregation (rrf_sum, max_chunk_score, coverage, coverage_ratio,
 * overall_score) -> locked / ambiguous / low_evidence. Only the title list is collection-specific.
 *
 * Document size: every chunk carries its document title in the index's title field, so a question
 * naming the document hits all of its chunks, and coverage_ratio = hits / min(total_chunks,
 * config.collections.coverageCap, 2): a 2-chunk note and a 300-chunk manual both reach 1 with 2
 * relevant chunks, and extra hits in a long document earn nothing (see fusion.ts, retrieval.test.ts).
 */

export type RetrievalDecision = 'locked' | 'ambiguous' | 'low_evidence';

export interface ParentScore {
  doc_id: number;
  title: string;
  rel_path: string;
  rrf_sum: number;
  max_chunk_score: number;
  coverage: number;
  total_chunks: number;
  coverage_ratio: number;
  overall_score: number;
  title_score: number;
  passes_coverage: boolean;
}

export interface RetrievalState {
  query: string;
  /** The question with its question words removed (`红烧肉怎么做` -> `红烧肉`), used for title matching. */
  core: string;
  tokens: string[];
  lists: string[];
  decision: RetrievalDecision;
  reason: string;
  /** Locked document, or null. */
  locked: ParentScore | null;
  /** Close candidates when ambiguous (best first); the top parents otherwise. */
  candidates: ParentScore[];
  parents: ParentScore[];
}

interface TitleEntry {
  docId: number;
  title: string;
  norm: string;
  relPath: string;
  totalChunks: number;
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
const QUESTION_PARTS: RegExp[] = [
  /[？?！!。，,、；;：:“”"'‘’（）()《》【】\[\]{}\s~～…*+=<>|^&%$#@/\\-]+/g,
  // 怎么做 / 如何烧 / 怎样才能做好吃: the verb goes with the question word, never alone (红烧 keeps 烧)
  /(应该|要)?(怎么|如何|怎样|咋)(样)?(才能|才)?(做|烧|煮|炒|蒸|炖|烤|弄|制作|烹饪|操作|处理|办)?(出来|好|才好吃|好吃|比较好)?/g,
  // follow-up aspects asked together with the name: 红烧肉第三步是什么, 红烧肉要多久, 可乐鸡翅用什么锅
  /第[一二三四五六七八九十百零两〇\d]+(个)?步(骤)?(是什么|是啥|怎么做|呢)?|(最后|下|上)一步/g,
  /(大概|一共|总共)?(要|需要|得)?(多久|多长时间|多少时间|几分钟|几个小时|多少分钟|多少小时)/g,
  /(需要|要用|要|用)(什么|哪种|啥)(样的)?(锅|工具|器具|厨具|设备)/g,
  /(请问|请教|麻烦|帮我|帮忙|告诉我|教我|教教我|我想|我要|想要|想学|学做|学习|能不能|可以|可不可以|一下|一道|这道|那道)/g,
  /(需要|要用|要|用|准备)(哪些|什么|啥|些什么|多少)?(原料|原材料|材料|食材|配料|用料|调料|东西|工具|步骤)/g,
  /(的)?(做法|作法|制作方法|制作步骤|制作过程|烹饪方法|步骤|流程|菜谱|食谱|教程|配方|原料|原材料|材料|食材|配料|用料|调料|工具)(是什么|是啥|有哪些|有什么)?/g,
  /^(做|制作|烹饪)(?=.)/g,
  /(呢|吗|呀|啊|吧|嘛|哦|的)$/g,
  /(是什么|是啥|有哪些|有什么|需要什么|需要哪些)$/g,
  /(要|需要|得|该)?(放|加|用|准备|买)(些)?(什么|哪些|啥|多少)$/g,
];

export function questionCore(question: string): string {
  let s = normalizeText(question);
  for (let pass = 0; pass < 2; pass++) for (const re of QUESTION_PARTS) s = s.replace(re, '');
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

function collectionCache(ctx: AppContext, coll: CollectionRow): CollectionCache {
  const key = `collections:${coll.name}`;
  const version = corpusVersion(ctx.db, corpusOf(coll.name));
  const cached = ctx.cache.get(key) as CollectionCache | undefined;
  if (cached && cached.version === version) return cached;
  const rows = ctx.db
    .prepare('SELECT id, title, rel_path, total_chunks FROM coll_docs WHERE collection_id = ? ORDER BY id')
    .all(coll.id) as { id: number; title: string; rel_path: string; total_chunks: number }[];
  const titles = rows.map((r) => ({
    docId: r.id,
    title: r.title,
    norm: questionCore(r.title) || normalizeText(r.title),
    relPath: r.rel_path,
    totalChunks: r.total_chunks,
  }));
  const fresh = { version, titles, byId: new Map(titles.map((t) => [t.docId, t])) };
  ctx.cache.set(key, fresh);
  return fresh;
}

export function documentTitles(ctx: AppContext, coll: CollectionRow): { docId: number; title: string }[] {
  return collectionCache(ctx, coll).titles.map((t) => ({ docId: t.docId, title: t.title }));
}

/** Titles of the collection that the question names literally (longest first), for switching documents. */
export function titlesNamedIn(ctx: AppContext, coll: CollectionRow, question: string): { docId: number; title: string }[] {
  const q = normalizeText(question);
  return collectionCache(ctx, coll)
    .titles.filter((t) => [...t.norm].length >= 2 && q.includes(t.norm))
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

export async function retrieveState(ctx: AppContext, coll: CollectionRow, question: string): Promise<RetrievalState> {
  const cfg = ctx.config.collections;
  const search = ctx.config.search;
  const cache = collectionCache(ctx, coll);
  const corpus = corpusOf(coll.name);
  const core = questionCore(question);
  // lexical tokens of the core when something is left, else of the whole question
  const tokens = queryTokens(core || question);

  const lists: Record<string, RankedHit[]> = {};
  const evidence = new Map<string, number>();

  const lexical = tokens.length ? lexicalSearch(ctx.db, { corpus, tokens, k: cfg.topChunks }) : { hits: [] as LexicalHit[] };
  if (lexical.hits.length) {
    lists.lexical = lexical.hits.map((h) => ({ key: h.key, parent: h.parent, rank: h.rank }));
    for (const h of lexical.hits) evidence.set(h.key, h.evidence);
  }

  // Title list: documents whose title the question names, best first.
  const titleScores = new Map<number, number>();
  if (core) {
    const scored = cache.titles
      .map((t) => ({ t, s: titleScore(core, t.norm) }))
      .filter((x) => x.s >= cfg.minTitleScore)
      .sort((a, b) => b.s - a.s || a.t.docId - b.t.docId)
      .slice(0, cfg.topChunks);
    if (scored.length) {
      // equal title scores share a rank (1, 1, 3, ...): document order must not break a tie
      let rank = 0;
      lists.title = scored.map((x, i) => {
        if (i === 0 || x.s < scored[i - 1].s) rank = i + 1;
        return { key: chunkKey(x.t.docId, 0), parent: String(x.t.docId), rank };
      });
      for (const x of scored) {
        titleScores.set(x.t.docId, x.s);
        const key = chunkKey(x.t.docId, 0);
        evidence.set(key, Math.max(evidence.get(key) ?? 0, x.s));
      }
    }
  }

  // Vectors when an embedding model is installed and the collection has been embedded.
  const embedder = ctx.embedder();
  if (embedder.available()) {
    const modelId = embedder.status().model_id;
    const matrix = modelId ? loadMatrix(ctx.db, ctx.cache, corpus, modelId) : null;
    if (matrix) {
      const [qv] = await embedder.embed([question], 'query');
      const hits = vectorTopK(matrix, qv, cfg.topChunks);
      const keys = keysOfItems(ctx, hits.map((h) => h.id));
      const ranked: RankedHit[] = [];
      for (const h of hits) {
        const k = keys.get(h.id);
        if (!k) continue;
        ranked.push({ key: k.key, parent: k.parent, rank: ranked.length + 1 });
        // cosine ranks always; it counts as evidence only above the floor (a nearest neighbour
        // of an unrelated question is still "close" in absolute terms with small models)
        const vecEvidence = h.score >= cfg.vectorEvidenceFloor ? h.score : 0;
        evidence.set(k.key, Math.max(evidence.get(k.key) ?? 0, vecEvidence));
      }
      if (ranked.length) lists.vector = ranked;
    }
  }

  const fused = rrfFuse(lists, search.rrfK);
  const chunks: ChunkScore[] = fused.map((c) => ({ ...c, score: evidence.get(c.key) ?? 0 }));
  const listCount = Math.max(1, Object.keys(lists).length);
  const hits = aggregateParents(chunks, (p) => cache.byId.get(Number(p))?.totalChunks ?? 1, {
    rrfK: search.rrfK,
    lists: listCount,
    coverageCap: cfg.coverageCap,
    rrfWeight: search.rrfWeight,
    coverageThreshold: search.coverageThreshold,
  });
  const toScore = (p: ParentHit): ParentScore => {
    const t = cache.byId.get(Number(p.parent));
    return {
      doc_id: Number(p.parent),
      title: t?.title ?? p.parent,
      rel_path: t?.relPath ?? '',
      rrf_sum: round(p.rrf_sum),
      max_chunk_score: round(p.max_chunk_score),
      coverage: p.coverage,
      total_chunks: p.total_chunks,
      coverage_ratio: round(p.coverage_ratio),
      overall_score: round(p.overall_score),
      title_score: round(titleScores.get(Number(p.parent)) ?? 0),
      passes_coverage: p.passes_coverage,
    };
  };
  const decision = titleGuard(
    decide(
      hits,
      { tMin: search.tMin, ambiguityRatio: search.ambiguityRatio, minEvidence: cfg.minEvidence },
      (p) => cache.byId.get(Number(p))?.title ?? p,
    ),
    hits,
    titleScores,
    search.ambiguityRatio,
    cfg.candidateTitleRatio,
  );
  const parents = hits.slice(0, Math.max(cfg.topParents, 10)).map(toScore);
  const byParent = new Map(hits.map((h) => [h.parent, h]));
  let candidates: ParentScore[];
  if (decision.state === 'ambiguous' && decision.byTitle) {
    candidates = decision.parents.slice(0, cfg.topParents).map((p) => toScore(byParent.get(p)!));
  } else if (decision.state === 'ambiguous') {
    // all parents close to the top (not only the three the generic decision names), up to topParents
    const top = hits.filter((h) => h.passes_coverage)[0];
    candidates = hits
      .filter((h) => h.passes_coverage && top && h.overall_score / top.overall_score > search.ambiguityRatio)
      .slice(0, cfg.topParents)
      .map(toScore);
    if (candidates.length < 2) candidates = decision.parents.map((p) => toScore(byParent.get(p)!));
  } else {
    candidates = hits.filter((h) => h.passes_coverage).slice(0, cfg.topParents).map(toScore);
  }
  return {
    query: question,
    core,
    tokens,
    lists: Object.keys(lists),
    decision: decision.state,
    reason: decision.reason,
    locked: decision.state === 'locked' ? toScore(byParent.get(decision.parents[0])!) : null,
    candidates,
    parents,
  };
}

type GuardedDecision = ReturnType<typeof decide> & { byTitle?: boolean };

/**
 * Titles are the strongest evidence of what a question is about, and they are not a ranking
 * signal that RRF over a single title list can express (ties, exact matches). After the generic
 * decision: a unique exact title match locks on that document; several documents whose titles
 * match the question about equally well (`鸡` in 黄焖鸡, 口水鸡, 宫保鸡丁) make it ambiguous even
 * when chunk ranks happened to favour one of them.
 */
export function titleGuard(
  decision: ReturnType<typeof decide>,
  hits: ParentHit[],
  titleScores: Map<number, number>,
  ratio: number,
  listRatio = ratio,
): GuardedDecision {
  if (titleScores.size === 0) return decision;
  const best = Math.max(...titleScores.values());
  const exact = [...titleScores].filter(([, s]) => s >= 1).map(([id]) => String(id));
  if (exact.length === 1) {
    const id = exact[0];
    if (decision.state === 'locked' && decision.parents[0] === id) return decision;
    return { state: 'locked', parents: [id], reason: `标题完全匹配（原判定：${decision.reason}）` };
  }
  const close = [...titleScores].filter(([, s]) => s >= best * ratio).map(([id]) => String(id));
  if (close.length < 2) return decision;
  if (decision.state === 'locked' && !close.includes(decision.parents[0])) return decision;
  if (decision.state === 'low_evidence' && best < 0.5) return decision;
  // several titles fit equally: list them (and the slightly longer ones naming the same thing,
  // 湖南家常红烧肉 next to 南派红烧肉), best title first, then best overall
  const order = new Map(hits.map((h, i) => [h.parent, i]));
  const listed = [...titleScores].filter(([, s]) => s >= best * listRatio).map(([id]) => String(id));
  const parents = listed.sort(
    (a, b) => titleScores.get(Number(b))! - titleScores.get(Number(a))! || (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9),
  );
  return {
    state: 'ambiguous',
    parents,
    byTitle: true,
    reason: `${parents.length} 个文档的标题与问题同样匹配（标题分 ≥ ${(best * ratio).toFixed(3)}）`,
  };
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
