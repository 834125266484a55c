import type { AppContext } from '../context';
import type { Db } from '../store/db';
import type { Decision, ParentHit, RankedHit } from './fusion';
import { rankLists } from './pipeline';
import { documentFrequencies, idfOf, itemPresence, lexicalSearch, stats, termEvidence, type LexicalResult } from './lexical';
import { cosineFor, vectorTopK, warmVectors } from './vectors';
import { loadMatrix, persistMatrices } from './vector-index';
import { lexicalIndex, persistLexicalIndex } from './lexical-index';
import { queryTokens } from '../text/segment';

/**
 * One hybrid search over a corpus of the generic index (regulations, collections): lexical BM25
 * (+ optional expansion list) + exact cosine when a model and vectors exist, RRF, parent
 * aggregation, decision. Callers turn parents into their own result shapes.
 */

export type SearchMode = 'hybrid' | 'lexical' | 'vector';

export interface EngineQuery {
  corpus: string;
  scopes?: string[];
  query: string;
  mode: SearchMode;
  /** Extra statute-side tokens (learned expansion), searched as a separate ranked list. */
  expansion?: string[];
  /** Reuse a lexical result already computed for the same query and scopes (auto selection). */
  lexical?: LexicalResult;
  /** Extra ranked lists of parent keys (e.g. passages of similar known questions), fused like the others. */
  parentLists?: Record<string, string[]>;
  /** queryTokens(query), when the caller has them already */
  tokens?: string[];
  /** Optional label for clarify questions. */
  label?: (parent: string) => string;
  /**
   * Of the given parents, those whose chunks are independent records (the rows of a table cut into
   * chunks): one matching chunk covers such a parent fully, where a long text matched in one of its
   * chunks is only partly covered. Called once per search with every candidate's parent.
   */
  recordParents?: (parents: string[]) => Set<string>;
  /** chunk candidates per ranked list (default config.search.candidates; a reranker may look deeper) */
  candidates?: number;
}

export interface ChunkInfo {
  id: number;
  key: string;
  parent: string;
  scope: string;
  title: string | null;
  lexical_rank: number | null;
  vector_rank: number | null;
  expansion_rank: number | null;
  matched: string[];
  evidence: number;
  cosine: number | null;
  /** rank in every fused list that holds the chunk (lexical, expansion, vector, known, …) */
  ranks: Record<string, number>;
}

export interface EngineResult {
  /** mode actually used (hybrid/vector degrade to lexical without a model or vectors) */
  mode: SearchMode;
  lexical_only: boolean;
  note: string | null;
  tokens: string[];
  dropped: string[];
  parents: ParentHit[];
  chunks: Map<string, ChunkInfo>;
  decision: Decision;
}

interface ItemRow {
  id: number;
  key: string;
  parent: string;
  scope: string;
  title: string | null;
}

function itemRows(db: Db, ids: number[]): Map<number, ItemRow> {
  const rows = db
    .prepare('SELECT id, key, parent, scope, title FROM search_items WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(ids)) as ItemRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** Chunks per parent (coverage), one query for all candidates' parents. */
function chunkCounts(db: Db, corpus: string, parents: string[]): Map<string, number> {
  const rows = db
    .prepare('SELECT parent, COUNT(*) AS n FROM search_items WHERE corpus = ? AND parent IN (SELECT value FROM json_each(?)) GROUP BY parent')
    .all(corpus, JSON.stringify(parents)) as { parent: string; n: number }[];
  return new Map(rows.map((r) => [r.parent, r.n]));
}

export async function searchEngine(ctx: AppContext, q: EngineQuery): Promise<EngineResult> {
  const cfg = ctx.config.search;
  const k = q.candidates ?? cfg.candidates;
  const embedder = ctx.embedder();
  let mode: SearchMode = q.mode;
  let note: string | null = null;
  let queryVec: Float32Array | null = null;
  let matrix = null as ReturnType<typeof loadMatrix>;
  if (mode !== 'lexical') {
    if (!embedder.available()) {
      note = `${embedder.status().message}（仅关键词检索）`;
      mode = 'lexical';
    } else {
      const modelId = embedder.status().model_id ?? 'default';
      // the query is embedded in the worker while this thread loads the matrix (a fresh process
      // starts the worker and loads the model meanwhile)
      const embedding = embedder.embed([q.query], 'query');
      embedding.catch(() => {});
      matrix = loadMatrix(ctx.db, ctx.state, q.corpus, modelId);
      if (!matrix) {
        note = '语义向量尚未建立（请重建索引），本次仅关键词检索';
        mode = 'lexical';
      } else {
        [queryVec] = await embedding;
      }
    }
  }

  const tokens = q.tokens ?? queryTokens(q.query);
  const df = documentFrequencies(ctx.db, tokens);
  const lists: Record<string, RankedHit[]> = {};
  const info = new Map<string, ChunkInfo>();
  const touch = (row: ItemRow): ChunkInfo => {
    const key = String(row.id);
    let c = info.get(key);
    if (!c) {
      c = { id: row.id, key, parent: row.parent, scope: row.scope, title: row.title, lexical_rank: null, vector_rank: null, expansion_rank: null, matched: [], evidence: 0, cosine: null, ranks: {} };
      info.set(key, c);
    }
    return c;
  };

  let lexical: LexicalResult = { tokens, dropped: [], hits: [] };
  /** query words each lexically found item holds */
  const known = new Map<number, string[]>();
  if (mode !== 'vector') {
    lexical = q.lexical ?? lexicalSearch(ctx.db, { corpus: q.corpus, scopes: q.scopes, tokens, k }, { maxDfRatio: cfg.maxDfRatio, df });
    lists.lexical = lexical.hits.map((h) => ({ key: String(h.id), parent: h.parent, rank: h.rank }));
    for (const h of lexical.hits) {
      const c = touch({ id: h.id, key: h.key, parent: h.parent, scope: h.scope, title: h.title });
      c.lexical_rank = h.rank;
      known.set(h.id, h.matched);
    }
    if (q.expansion?.length) {
      // only words this corpus actually contains (a table learned on one corpus is inert on another)
      const exDf = documentFrequencies(ctx.db, q.expansion.filter((t) => !tokens.includes(t)));
      const extra = [...exDf.entries()].filter(([, n]) => n > 0).map(([t]) => t);
      if (extra.length) {
        // query + expansion words (expansion words alone rank worse at the top: R@10 0.40 vs 0.45 held-out)
        const ex = lexicalSearch(ctx.db, { corpus: q.corpus, scopes: q.scopes, tokens: [...tokens, ...extra], k }, { maxDfRatio: cfg.maxDfRatio });
        lists.expansion = ex.hits.map((h) => ({ key: String(h.id), parent: h.parent, rank: h.rank }));
        const asked = new Set(tokens);
        for (const h of ex.hits) {
          const c = touch({ id: h.id, key: h.key, parent: h.parent, scope: h.scope, title: h.title });
          c.expansion_rank = h.rank;
          // matched over query + expansion words: every query word the item holds is among them
          if (!known.has(h.id)) known.set(h.id, h.matched.filter((t) => asked.has(t)));
        }
      }
    }
  }
  if (q.parentLists) {
    const first = ctx.db.prepare('SELECT id, key, parent, scope, title FROM search_items WHERE corpus = ? AND parent = ? ORDER BY id LIMIT 1');
    const allowed = q.scopes ? new Set(q.scopes) : null;
    for (const [name, parents] of Object.entries(q.parentLists)) {
      const hits: RankedHit[] = [];
      for (const p of parents) {
        const row = first.get(q.corpus, p) as ItemRow | undefined;
        if (!row || (allowed && !allowed.has(row.scope))) continue;
        touch(row);
        hits.push({ key: String(row.id), parent: row.parent, rank: hits.length + 1 });
      }
      if (hits.length) lists[name] = hits;
    }
  }
  if (matrix && queryVec) {
    const vhits = vectorTopK(matrix, queryVec, k, q.scopes);
    const rows = itemRows(ctx.db, vhits.map((h) => h.id));
    lists.vector = [];
    for (const h of vhits) {
      const row = rows.get(h.id);
      if (!row) continue;
      lists.vector.push({ key: String(h.id), parent: row.parent, rank: h.rank });
      const c = touch(row);
      c.vector_rank = h.rank;
      c.cosine = h.score;
    }
  }

  // absolute evidence for every candidate, whichever list found it
  const ids = [...info.values()].map((c) => c.id);
  const total = stats(ctx.db).total || 1;
  const qIdf = new Map(tokens.map((t) => [t, idfOf(df.get(t) ?? 0, total)]));
  // lexical hits already know which query words they hold; only the others are looked up
  const toks = itemPresence(ctx.db, tokens, ids.filter((id) => !known.has(id)));
  for (const [id, words] of known) toks.set(id, new Set(words));
  const cos = matrix && queryVec ? cosineFor(matrix, queryVec, ids.filter((id) => info.get(String(id))!.cosine === null)) : new Map<number, number>();
  for (const c of info.values()) {
    const ev = termEvidence(qIdf, toks.get(c.id) ?? new Set());
    c.matched = ev.matched;
    c.evidence = ev.evidence;
    if (c.cosine === null && cos.has(c.id)) c.cosine = cos.get(c.id)!;
  }

  // chunks per parent (coverage) for every candidate's parent, one query
  const candidateParents = [...new Set([...info.values()].map((c) => c.parent))];
  const counts = chunkCounts(ctx.db, q.corpus, candidateParents);
  const records = q.recordParents?.(candidateParents) ?? new Set<string>();
  const ranked = rankLists(
    lists,
    (keys) =>
      new Map(
        keys.map((key) => {
          const c = info.get(key)!;
          const cosine = c.cosine === null ? 0 : Math.max(0, c.cosine);
          return [key, mode === 'lexical' ? c.evidence : mode === 'vector' ? cosine : 0.5 * c.evidence + 0.5 * cosine];
        }),
      ),
    {
      rrfK: cfg.rrfK,
      weights: cfg.listWeights,
      coverageThreshold: cfg.coverageThreshold,
      tMin: cfg.tMin,
      ambiguityRatio: cfg.ambiguityRatio,
      rrfWeight: cfg.rrfWeight,
      minEvidence: cfg.minEvidence,
      maxClose: 3,
      normalise: { kind: 'ideal', lists: Math.max(1, Object.keys(lists).reduce((s, name) => s + (cfg.listWeights[name] ?? 1), 0)), coverageCap: cfg.coverageCap },
      totalChunks: (p) => (records.has(p) ? 1 : (counts.get(p) ?? 1)),
      label: q.label,
    },
  );
  for (const c of ranked.chunks) info.get(c.key)!.ranks = c.ranks;
  const parents = ranked.parents;
  const decision = ranked.decision;
  return { mode, lexical_only: mode === 'lexical', note, tokens, dropped: lexical.dropped, parents, chunks: info, decision };
}

/**
 * Gets everything the first search of a corpus needs ready, so it waits for none of it: the
 * embedding worker and its model (started first, they load in parallel), jieba's dictionary, the
 * BM25 postings and the vector matrix from their files, then the matrix rows still in SQLite
 * (a search reads only the rows it needs until then). App start-up runs it in the background;
 * it yields to the event loop between steps, so requests arriving meanwhile are answered.
 */
export async function warmSearchIndexes(ctx: AppContext, corpus: string): Promise<void> {
  const embedder = ctx.embedder();
  const modelId = embedder.available() ? embedder.status().model_id : null;
  const model = modelId ? embedder.embed(['检索预热'], 'query').catch(() => null) : null;
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  queryTokens('检索预热');
  await pause();
  lexicalIndex(ctx.db);
  await pause();
  const matrix = modelId ? loadMatrix(ctx.db, ctx.state, corpus, modelId) : null;
  await pause();
  if (matrix) warmVectors(matrix);
  await model;
}

/**
 * Keeps the in-memory indexes of a corpus current while an import writes (called after each
 * document: the rows it added are applied, nothing is rebuilt), and with `persist` writes the
 * index files, so the first search after an import — here or in the next process — loads
 * instead of rebuilding.
 */
export function followSearchIndexes(ctx: AppContext, corpus: string, persist: boolean): void {
  lexicalIndex(ctx.db, { persist: false });
  const embedder = ctx.embedder();
  const modelId = embedder.available() ? embedder.status().model_id : null;
  if (modelId) loadMatrix(ctx.db, ctx.state, corpus, modelId, { persist: false });
  if (!persist) return;
  persistLexicalIndex(ctx.db);
  if (modelId) persistMatrices(ctx.db, ctx.state, corpus, modelId);
}
