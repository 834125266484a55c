import type { Db } from '../store/db';
import { writeTransaction } from '../store/transaction';
import { queryTokens } from '../text/segment';
import { freshTokensOf, segmentItems, type FreshTokens } from './tokens';
import { lexicalIndex } from './lexical-index';

/**
 * Generic lexical index over search_items (see schema.ts), shared by every corpus (regulations,
 * document collections); it knows items, parents and scopes, never their owners' tables.
 *
 * Ranking runs on in-memory postings (lexical-index.ts: FTS5's bm25, persisted in the data dir's
 * index file). The tokens are not stored in SQLite: they are the jieba search-mode segmentation
 * of the item's title and text (itemTokens), computed once while indexing and handed to the
 * postings, and recomputed from the text only when the postings are rebuilt. Where a MATCH
 * expression is built (buildMatch, for FTS5 tables of other engines or benchmarks), it holds only
 * our own tokens, each wrapped in double quotes (inner quotes doubled) and joined with OR, so `"`,
 * `AND(`, `*`, `-`, `NEAR`, `:` are just characters of a token.
 */

export interface IndexItem {
  /** Unique within the corpus (e.g. unit id, or `unitId#2` for the 3rd chunk of a long unit). */
  key: string;
  /** Aggregation target (article, recipe); defaults to key. */
  parent?: string;
  /** Filter group inside the corpus (e.g. one document); defaults to ''. */
  scope?: string;
  /** Headings / section path: indexed with half weight, returned with hits. */
  title?: string | null;
  /** Text to index. */
  text: string;
  ord?: number;
  /**
   * Kept for callers written when the text was optional: the text is always kept now (it is what
   * the postings and the vectors are computed from).
   */
  storeText?: boolean;
  /**
   * The owner holds this very text (the corpus' text source, texts.ts, gives it back by parent):
   * it is not stored a second time in search_items.
   */
  ownerText?: boolean;
}

export interface LexicalHit {
  id: number;
  corpus: string;
  scope: string;
  key: string;
  parent: string;
  title: string | null;
  /** 1-based rank in this list. */
  rank: number;
  /** FTS5 bm25 (lower = better, negative). */
  bm25: number;
  /** Query tokens present in the item. */
  matched: string[];
  /** idf-weighted share of the query's tokens the item contains, 0..1 (absolute evidence). */
  evidence: number;
}

export interface LexicalQuery {
  corpus: string | string[];
  /** Restrict to these scopes (e.g. reg_ids); undefined = whole corpus. */
  scopes?: string[];
  /** Either raw text (segmented here) or ready tokens (e.g. an expanded query). */
  query?: string;
  tokens?: string[];
  k: number;
}

export interface LexicalResult {
  tokens: string[];
  /** Tokens left out because they occur in nearly every item (speed, no signal). */
  dropped: string[];
  hits: LexicalHit[];
}

/** FNV-1a 64-bit (two 32-bit lanes) -> hex; tags must be plain ASCII letters+digits for the tokenizer. */
function hashHex(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

export function corpusTag(corpus: string): string {
  return `zc${hashHex(corpus)}`;
}

export function scopeTag(corpus: string, scope: string): string {
  return `zs${hashHex(`${corpus}\u0000${scope}`)}`;
}

/** A token as one quoted FTS5 string: the only way user-derived text enters MATCH. */
export function quoteTerm(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}

/** OR of quoted tokens, or null when nothing searchable remains. */
export function buildMatch(tokens: string[]): string | null {
  const uniq = [...new Set(tokens.filter((t) => t.length > 0))];
  return uniq.length ? uniq.map(quoteTerm).join(' OR ') : null;
}

export function corpusVersion(db: Db, corpus: string): number {
  const row = db.prepare('SELECT version FROM search_corpus WHERE corpus = ?').get(corpus) as { version: number } | undefined;
  return row?.version ?? 0;
}

export function bumpCorpus(db: Db, corpus: string): void {
  db.prepare(
    'INSERT INTO search_corpus (corpus, version) VALUES (?, 1) ON CONFLICT(corpus) DO UPDATE SET version = version + 1',
  ).run(corpus);
}

/**
 * Adds (or replaces, by key) items of one corpus. Segmentation happens in bulk before the
 * inserts; call inside the caller's transaction for atomicity (one is opened otherwise).
 */
export function indexItems(db: Db, corpus: string, items: IndexItem[]): number {
  if (!items.length) return 0;
  const tokens = segmentItems(items.map((i) => ({ title: i.title ?? null, text: i.text })));
  const del = db.prepare('SELECT id FROM search_items WHERE corpus = ? AND key = ?');
  const insItem = db.prepare(
    'INSERT INTO search_items (corpus, scope, key, parent, ord, title, text, ntok) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const fresh = freshTokensOf(db);
  const written = new Map<number, FreshTokens>();
  const run = () => {
    items.forEach((item, i) => {
      const old = del.get(corpus, item.key) as { id: number } | undefined;
      if (old) deleteIds(db, [old.id]);
      const scope = item.scope ?? '';
      const body = tokens[i].body;
      const info = insItem.run(
        corpus,
        scope,
        item.key,
        item.parent ?? item.key,
        item.ord ?? i,
        item.title ?? null,
        item.ownerText ? null : item.text,
        body ? body.split(' ').length : 0,
      );
      written.set(Number(info.lastInsertRowid), { ...tokens[i], from: { title: item.title ?? null, text: item.text } });
    });
    bumpCorpus(db, corpus);
  };
  if (db.inTransaction) run();
  else writeTransaction(db, run);
  // an outer transaction may still roll back and the ids be reused: itemTokens compares the text
  fresh.add(written);
  return items.length;
}

function deleteIds(db: Db, ids: number[]): void {
  const delVec = db.prepare('DELETE FROM search_vectors WHERE item_id = ?');
  const delItem = db.prepare('DELETE FROM search_items WHERE id = ?');
  const fresh = freshTokensOf(db);
  for (const id of ids) {
    delVec.run(id);
    delItem.run(id);
  }
  fresh.release(ids);
}

/** Removes a whole corpus, one scope of it, or given keys. Returns the number of items removed. */
export function removeItems(db: Db, corpus: string, filter: { scope?: string; keys?: string[] } = {}): number {
  const run = () => {
    let ids: number[];
    if (filter.keys) {
      const get = db.prepare('SELECT id FROM search_items WHERE corpus = ? AND key = ?');
      ids = filter.keys.map((k) => (get.get(corpus, k) as { id: number } | undefined)?.id).filter((x): x is number => x !== undefined);
    } else if (filter.scope !== undefined) {
      ids = (db.prepare('SELECT id FROM search_items WHERE corpus = ? AND scope = ?').all(corpus, filter.scope) as { id: number }[]).map((r) => r.id);
    } else {
      ids = (db.prepare('SELECT id FROM search_items WHERE corpus = ?').all(corpus) as { id: number }[]).map((r) => r.id);
    }
    deleteIds(db, ids);
    if (ids.length) bumpCorpus(db, corpus);
    return ids.length;
  };
  return db.inTransaction ? run() : writeTransaction(db, run);
}

export interface IndexStats {
  total: number;
  corpora: number;
}

/** Item count and corpus count, cached per (db, data version) — cheap enough to call per query. */
export function stats(db: Db): IndexStats {
  const version = db.pragma('data_version', { simple: true }) as number;
  const key = `${version}:${totalChanges(db)}`;
  const cached = statsCache.get(db);
  if (cached && cached.key === key) return cached.stats;
  const total = (db.prepare('SELECT COUNT(*) AS n FROM search_items').get() as { n: number }).n;
  const corpora = (db.prepare('SELECT COUNT(*) AS n FROM search_corpus').get() as { n: number }).n;
  const s = { total, corpora };
  statsCache.set(db, { key, stats: s });
  return s;
}

function totalChanges(db: Db): number {
  return (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
}

const statsCache = new WeakMap<Db, { key: string; stats: IndexStats }>();

/**
 * Document frequency of each token over the whole index (rows holding it, from the in-memory
 * postings), or over the rows of `corpora` only.
 */
export function documentFrequencies(db: Db, tokens: string[], corpora?: string[]): Map<string, number> {
  const idx = lexicalIndex(db);
  const out = new Map<string, number>();
  for (const t of tokens) out.set(t, idx.df(t, corpora));
  return out;
}

/** Live rows of these corpora (the N of idf over them). */
export function corpusRows(db: Db, corpora: string[]): number {
  return lexicalIndex(db).corpusStats(corpora).rows;
}

export function idfOf(df: number, total: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/** Share of query idf mass present in `bodyTokens` (0..1). */
export function termEvidence(queryIdf: Map<string, number>, present: Set<string>): { evidence: number; matched: string[] } {
  let all = 0;
  let got = 0;
  const matched: string[] = [];
  for (const [t, w] of queryIdf) {
    all += w;
    if (present.has(t)) {
      got += w;
      matched.push(t);
    }
  }
  return { evidence: all > 0 ? got / all : 0, matched };
}

export interface LexicalOptions {
  /** Tokens in more than this share of all items are dropped when others remain. */
  maxDfRatio?: number;
  /** document frequencies already looked up for these tokens */
  df?: Map<string, number>;
  /**
   * Statistics (N, df, avgdl, the evidence idf) over the searched corpora instead of the whole
   * index: a collection's answer must not depend on what else the data dir holds (other
   * collections, regulations) — nor on whether they were imported before or after it.
   */
  corpusStats?: boolean;
}

/**
 * BM25 top-k over one or more corpora (optionally a set of scopes). Returns hits with matched
 * terms and an absolute evidence score; never throws on odd query text.
 */
export function lexicalSearch(db: Db, q: LexicalQuery, options: LexicalOptions = {}): LexicalResult {
  const tokens = q.tokens ? [...new Set(q.tokens)] : queryTokens(q.query ?? '');
  const corpora = Array.isArray(q.corpus) ? q.corpus : [q.corpus];
  const scoped = options.corpusStats ?? false;
  const st = scoped ? { total: corpusRows(db, corpora) } : stats(db);
  const df = options.df ?? documentFrequencies(db, tokens, scoped ? corpora : undefined);
  const maxDf = (options.maxDfRatio ?? 0.05) * st.total;
  let used = tokens.filter((t) => (df.get(t) ?? 0) > 0);
  const dropped: string[] = [];
  if (st.total > 1000) {
    const rare = used.filter((t) => (df.get(t) ?? 0) <= maxDf);
    if (rare.length > 0) {
      for (const t of used) if (!rare.includes(t)) dropped.push(t);
      used = rare;
    }
  }
  const queryIdf = new Map<string, number>();
  for (const t of tokens) queryIdf.set(t, idfOf(df.get(t) ?? 0, Math.max(st.total, 1)));
  const terms = buildMatch(used);
  if (!terms || q.k <= 0) return { tokens, dropped, hits: [] };

  if (q.scopes && q.scopes.length === 0) return { tokens, dropped, hits: [] };
  // BM25 over the in-memory postings (lexical-index.ts: FTS5's bm25 and weights, without its
  // per-row cost); only the k survivors are joined to their items
  const idx = lexicalIndex(db);
  const top = idx.search(used, q.k, corpora, q.scopes, scoped);
  if (!top.length) return { tokens, dropped, hits: [] };
  const rows = db
    .prepare('SELECT id, corpus, scope, key, parent, title FROM search_items WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(top.map((t) => t.id))) as { id: number; corpus: string; scope: string; key: string; parent: string; title: string | null }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const present = idx.presence(tokens, byId.keys());
  const hits: LexicalHit[] = [];
  for (const t of top) {
    const r = byId.get(t.id);
    if (!r) continue;
    const { evidence, matched } = termEvidence(queryIdf, present.get(t.id) ?? new Set());
    hits.push({ id: r.id, corpus: r.corpus, scope: r.scope, key: r.key, parent: r.parent, title: r.title, rank: hits.length + 1, bm25: -t.score, matched, evidence });
  }
  return { tokens, dropped, hits };
}

/** Which of the query tokens each item holds (title or body), for evidence of items found by other lists. */
export function itemPresence(db: Db, tokens: string[], ids: number[]): Map<number, Set<string>> {
  return lexicalIndex(db).presence(tokens, ids);
}
