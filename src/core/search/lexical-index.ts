import crypto from 'node:crypto';
import path from 'node:path';
import type { Db } from '../store/db';
import { indexDir, readIndexFile, writeIndexFile } from './index-file';
import { freshTokensOf, itemTokens } from './tokens';
import { resolveTexts } from './texts';
import { TopHeap } from './vectors';

/**
 * In-memory postings over search_items, so BM25 top-k costs a walk over the query words' postings
 * (microseconds per thousand rows) instead of FTS5 calling its bm25() on every matching row
 * (~4 µs each: 30–110 ms for a question with common words over 164k chunks).
 *
 * Scores are FTS5's own bm25 with the table's weights (tags 0, title 0.5, body 1): per query word
 * idf = ln((N − n + 0.5)/(n + 0.5)) (1e-6 when ≤ 0), f = 0.5·tf_title + tf_body, D = tokens of the
 * row in all columns, avgdl over all rows, k1 = 1.2, b = 0.75 — N, n and avgdl over the whole table
 * like FTS5, whatever corpus or scope is searched — or, with `corpusStats` (collections), N, n and
 * avgdl over the searched corpora only, so a collection's answer does not depend on what else the
 * data dir holds nor on the order things were imported in. Tokens are the space-separated jieba tokens of
 * the item's title and text (lexical.ts itemTokens, already normalised); every row also counts
 * its two corpus/scope tags in D, as the FTS5 table of schema v1–v5 did (so scores are unchanged).
 * Until schema v6 the tokens were also stored in an FTS5 table that nothing queried any more
 * (~160 MB for the statute corpus); they are now computed once while indexing and, when the
 * postings must be rebuilt (no index file yet, or one that does not match), from the stored text.
 *
 * Persisted like the vector index: `<data-dir>/index/lexical-<id>.bin` holds the postings; a
 * trigger-fed log of search_items inserts/deletes (schema v4) brings a loaded index up to date row
 * by row (deleted rows are skipped, new rows appended). The file is rewritten when enough changed.
 */

const MAGIC = 'gridcode-lexical';
/** 2: postings as varint doc gaps + frequencies (~2.3 bytes each instead of 6); 1 (still read): Int32 docs + Uint16 freqs */
const FORMAT = 2;
const K1 = 1.2;
const B = 0.75;
const REWRITE_SHARE = 0.02;
const REWRITE_MIN = 256;
const RELOAD_SHARE = 0.3;
const FILE_KEY = 'lexical';
/** synthetic corpus + scope tags every row carried in the FTS5 tags column, counted in D */
const TAGS = 'corpus scope';
/** rows segmented together when the postings are rebuilt from the stored text */
const REBUILD_BATCH = 2000;

interface Term {
  /** doc numbers (growable) */
  docs: Int32Array;
  /** tf_title + 2·tf_body (twice FTS5's weighted frequency, an integer) */
  freq: Uint16Array;
  n: number;
}

export interface ScoredDoc {
  id: number;
  score: number;
}

export class LexicalIndex {
  seq = 0;
  source: 'file' | 'db' = 'db';
  /** doc number -> search_items.id; -1 once deleted */
  ids: Int32Array = new Int32Array(0);
  /** doc number -> tokens in all columns */
  lens: Int32Array = new Int32Array(0);
  /** doc number -> index into corpora / scopes */
  corpusOf: Int32Array = new Int32Array(0);
  scopeOf: Int32Array = new Int32Array(0);
  size = 0;
  live = 0;
  totalTokens = 0;
  corpora: string[] = [];
  scopes: string[] = [];
  private corpusNo = new Map<string, number>();
  private scopeNo = new Map<string, number>();
  terms = new Map<string, Term>();
  /**
   * Postings still as the file holds them (varint gaps + frequencies, format 2): a word's are decoded
   * when first asked for (termOf), so opening the file costs a scan for word boundaries instead of
   * decoding ~8M postings, and the words no query touched stay packed (~2.3 bytes a posting, not 6).
   */
  private packed: { bytes: Uint8Array; word: Map<string, number>; counts: Int32Array; offsets: Int32Array } | null = null;
  docOf = new Map<number, number>();
  /** per-doc scratch for scoring and presence (reset after each query) */
  private acc = new Float64Array(0);
  private mark = new Int32Array(0);
  /** per-doc BM25 length norm k1·(1 − b + b·D/avgdl), valid for `normFor` (live:totalTokens) */
  private norm = new Float64Array(0);
  private normFor = '';

  private grow(need: number): void {
    if (this.ids.length >= need) return;
    const cap = Math.max(need, Math.ceil(this.ids.length * 1.5), 1024);
    const g = <T extends Int32Array>(a: T): T => {
      const b = new Int32Array(cap) as T;
      b.set(a.subarray(0, this.size));
      return b;
    };
    this.ids = g(this.ids);
    this.lens = g(this.lens);
    this.corpusOf = g(this.corpusOf);
    this.scopeOf = g(this.scopeOf);
  }

  private intern(map: Map<string, number>, list: string[], v: string): number {
    let n = map.get(v);
    if (n === undefined) {
      n = list.length;
      list.push(v);
      map.set(v, n);
    }
    return n;
  }

  /** Adds one row (space-joined tokens: the tags counted in D only, title at half weight, body). */
  add(id: number, corpus: string, scope: string, tags: string, title: string, body: string): void {
    const doc = this.size;
    this.grow(doc + 1);
    this.size++;
    this.live++;
    this.ids[doc] = id;
    this.corpusOf[doc] = this.intern(this.corpusNo, this.corpora, corpus);
    this.scopeOf[doc] = this.intern(this.scopeNo, this.scopes, scope);
    this.docOf.set(id, doc);
    const counts = new Map<string, number>();
    let len = 0;
    for (const w of tags.split(' ')) if (w) len++;
    for (const w of title.split(' ')) {
      if (!w) continue;
      len++;
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    for (const w of body.split(' ')) {
      if (!w) continue;
      len++;
      counts.set(w, (counts.get(w) ?? 0) + 2);
    }
    this.lens[doc] = len;
    this.totalTokens += len;
    for (const [w, f] of counts) {
      let t = this.termOf(w);
      if (!t) this.terms.set(w, (t = { docs: new Int32Array(4), freq: new Uint16Array(4), n: 0 }));
      if (t.n === t.docs.length) {
        const docs = new Int32Array(t.n * 2);
        docs.set(t.docs);
        const freq = new Uint16Array(t.n * 2);
        freq.set(t.freq);
        t.docs = docs;
        t.freq = freq;
      }
      t.docs[t.n] = doc;
      t.freq[t.n] = Math.min(f, 0xffff);
      t.n++;
    }
  }

  /** A word's postings (decoded from the file's bytes on first use). */
  termOf(word: string): Term | undefined {
    const t = this.terms.get(word);
    if (t || !this.packed) return t;
    const { bytes, word: index, counts, offsets } = this.packed;
    const i = index.get(word);
    if (i === undefined) return undefined;
    index.delete(word);
    const n = counts[i];
    const docs = new Int32Array(n);
    const freq = new Uint16Array(n);
    let at = offsets[i];
    let prev = 0;
    for (let k = 0; k < n; k++) {
      let v = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[at++];
        v += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
        shift += 7;
      }
      prev += v;
      docs[k] = prev;
      let f = 0;
      shift = 0;
      for (;;) {
        const b = bytes[at++];
        f += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
        shift += 7;
      }
      freq[k] = f;
    }
    const term = { docs, freq, n };
    this.terms.set(word, term);
    if (!index.size) this.packed = null;
    return term;
  }

  /** Every word decoded (before the postings are renumbered or written). */
  private unpackAll(): void {
    if (!this.packed) return;
    for (const w of [...this.packed.word.keys()]) this.termOf(w);
    this.packed = null;
  }

  remove(id: number): void {
    const doc = this.docOf.get(id);
    if (doc === undefined) return;
    this.docOf.delete(id);
    this.ids[doc] = -1;
    this.live--;
    this.totalTokens -= this.lens[doc];
  }

  private lengthNorms(): Float64Array {
    const key = `${this.live}:${this.totalTokens}:${this.size}`;
    if (this.normFor !== key) {
      const avgdl = this.totalTokens / Math.max(this.live, 1);
      if (this.norm.length < this.size) this.norm = new Float64Array(this.ids.length);
      for (let doc = 0; doc < this.size; doc++) this.norm[doc] = K1 * (1 - B + (B * this.lens[doc]) / avgdl);
      this.normFor = key;
    }
    return this.norm;
  }

  /** Rows (live) holding the word: FTS5's n for idf; with `corpora`, only the rows of those corpora. */
  df(word: string, corpora?: string[]): number {
    const t = this.termOf(word);
    if (!t) return 0;
    if (!corpora && this.live === this.size) return t.n;
    const ok = corpora ? this.corpusMask(corpora) : null;
    let n = 0;
    for (let i = 0; i < t.n; i++) {
      const doc = t.docs[i];
      if (this.ids[doc] >= 0 && (!ok || ok[this.corpusOf[doc]])) n++;
    }
    return n;
  }

  private corpusMask(corpora: string[]): Uint8Array {
    const ok = new Uint8Array(this.corpora.length);
    for (const c of corpora) {
      const n = this.corpusNo.get(c);
      if (n !== undefined) ok[n] = 1;
    }
    return ok;
  }

  /** live rows and their tokens per corpus number, for `size:live:totalTokens` */
  private perCorpus: { key: string; rows: Float64Array; tokens: Float64Array } | null = null;

  /**
   * Live rows of these corpora and their tokens (all columns): N and avgdl of BM25 over what is
   * searched, so a collection's scores never depend on what else the data dir holds.
   */
  corpusStats(corpora: string[]): { rows: number; tokens: number } {
    const key = `${this.size}:${this.live}:${this.totalTokens}`;
    if (this.perCorpus?.key !== key) {
      const rows = new Float64Array(this.corpora.length);
      const tokens = new Float64Array(this.corpora.length);
      for (let doc = 0; doc < this.size; doc++) {
        if (this.ids[doc] < 0) continue;
        rows[this.corpusOf[doc]]++;
        tokens[this.corpusOf[doc]] += this.lens[doc];
      }
      this.perCorpus = { key, rows, tokens };
    }
    const ok = this.corpusMask(corpora);
    let rows = 0;
    let tokens = 0;
    for (let c = 0; c < ok.length; c++) if (ok[c]) (rows += this.perCorpus.rows[c]), (tokens += this.perCorpus.tokens[c]);
    return { rows, tokens };
  }

  /**
   * BM25 top-k of the words (OR), restricted to corpora (and scopes when given); best first,
   * ties by item id. `score` is FTS5's bm25 with the sign flipped (higher = better). `corpusStats`:
   * N, n and avgdl over the searched corpora instead of the whole table (collections).
   */
  search(words: string[], k: number, corpora: string[], scopes?: string[], corpusStats = false): ScoredDoc[] {
    if (k <= 0 || !words.length || !this.live) return [];
    const okCorpus = this.corpusMask(corpora);
    let okScope: Uint8Array | null = null;
    if (scopes) {
      okScope = new Uint8Array(this.scopes.length);
      for (const s of scopes) {
        const n = this.scopeNo.get(s);
        if (n !== undefined) okScope[n] = 1;
      }
    }
    if (this.acc.length < this.size) this.acc = new Float64Array(this.ids.length);
    const acc = this.acc;
    const touched: number[] = [];
    const own = corpusStats ? this.corpusStats(corpora) : null;
    const N = own ? own.rows : this.live;
    if (!N) return [];
    // length norms against the searched corpora's avgdl when scoped (computed per posting read)
    const norm = own ? null : this.lengthNorms();
    const avgdl = own ? own.tokens / own.rows : 0;
    const { ids, corpusOf, scopeOf, lens } = this;
    for (const w of new Set(words)) {
      const t = this.termOf(w);
      if (!t) continue;
      const n = own ? this.df(w, corpora) : this.df(w);
      let idf = Math.log((N - n + 0.5) / (n + 0.5));
      if (idf <= 0) idf = 1e-6;
      const { docs, freq } = t;
      for (let i = 0; i < t.n; i++) {
        const doc = docs[i];
        if (ids[doc] < 0 || !okCorpus[corpusOf[doc]] || (okScope && !okScope[scopeOf[doc]])) continue;
        const f = freq[i] / 2;
        const s = (idf * (f * (K1 + 1))) / (f + (norm ? norm[doc] : K1 * (1 - B + (B * lens[doc]) / avgdl)));
        if (acc[doc] === 0) touched.push(doc);
        acc[doc] += s;
      }
    }
    const heap = new TopHeap(Math.min(k, touched.length));
    for (const doc of touched) {
      heap.push(acc[doc], doc);
      acc[doc] = 0;
    }
    const out: ScoredDoc[] = [];
    for (let i = 0; i < heap.size; i++) out.push({ id: ids[heap.r[i]], score: heap.s[i] });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** Which of the words each of the items holds (title or body). */
  presence(words: string[], items: Iterable<number>): Map<number, Set<string>> {
    const out = new Map<number, Set<string>>();
    const sets: Set<string>[] = [];
    // doc -> 1 + position in `sets`, in a scratch array (a Map lookup per posting is 10x slower)
    if (this.mark.length < this.size) this.mark = new Int32Array(this.ids.length);
    const mark = this.mark;
    const marked: number[] = [];
    for (const id of items) {
      const doc = this.docOf.get(id);
      if (doc === undefined || mark[doc]) continue;
      const set = new Set<string>();
      sets.push(set);
      mark[doc] = sets.length;
      marked.push(doc);
      out.set(id, set);
    }
    if (marked.length) {
      for (const w of new Set(words)) {
        const t = this.termOf(w);
        if (!t) continue;
        const docs = t.docs;
        for (let i = 0; i < t.n; i++) {
          const at = mark[docs[i]];
          if (at) sets[at - 1].add(w);
        }
      }
      for (const doc of marked) mark[doc] = 0;
    }
    return out;
  }

  /** Live rows renumbered without holes (before writing the file). */
  compacted(): LexicalIndex {
    this.unpackAll();
    if (this.live === this.size) return this;
    const c = new LexicalIndex();
    const remap = new Int32Array(this.size).fill(-1);
    c.grow(this.live);
    for (let doc = 0; doc < this.size; doc++) {
      if (this.ids[doc] < 0) continue;
      const to = c.size++;
      remap[doc] = to;
      c.ids[to] = this.ids[doc];
      c.lens[to] = this.lens[doc];
      c.corpusOf[to] = this.corpusOf[doc];
      c.scopeOf[to] = this.scopeOf[doc];
      c.docOf.set(this.ids[doc], to);
    }
    c.live = c.size;
    c.totalTokens = this.totalTokens;
    c.corpora = this.corpora;
    c.scopes = this.scopes;
    c.corpusNo = this.corpusNo;
    c.scopeNo = this.scopeNo;
    for (const [w, t] of this.terms) {
      let n = 0;
      for (let i = 0; i < t.n; i++) if (remap[t.docs[i]] >= 0) n++;
      if (!n) continue;
      const docs = new Int32Array(n);
      const freq = new Uint16Array(n);
      let j = 0;
      for (let i = 0; i < t.n; i++) {
        const d = remap[t.docs[i]];
        if (d < 0) continue;
        docs[j] = d;
        freq[j++] = t.freq[i];
      }
      c.terms.set(w, { docs, freq, n });
    }
    c.seq = this.seq;
    c.source = this.source;
    return c;
  }

  toFile(file: string, indexId: string): void {
    this.unpackAll();
    const c = this;
    const words = [...c.terms.keys()];
    const counts = Int32Array.from(words, (w) => c.terms.get(w)!.n);
    const total = counts.reduce((a, b) => a + b, 0);
    // each posting as varint(doc gap) varint(freq): docs are ascending within a term
    let buf = new Uint8Array(Math.max(1024, total * 3));
    let at = 0;
    const put = (v: number) => {
      if (at + 5 > buf.length) {
        const next = new Uint8Array(buf.length * 2);
        next.set(buf);
        buf = next;
      }
      while (v >= 0x80) {
        buf[at++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[at++] = v;
    };
    for (const w of words) {
      const t = c.terms.get(w)!;
      let prev = 0;
      for (let i = 0; i < t.n; i++) {
        put(t.docs[i] - prev);
        prev = t.docs[i];
        put(t.freq[i]);
      }
    }
    const bytes = buf.subarray(0, at);
    const header = { magic: MAGIC, format: FORMAT, index_id: indexId, seq: c.seq, size: c.size, total, bytes: at, total_tokens: c.totalTokens, corpora: c.corpora, scopes: c.scopes, words };
    writeIndexFile(file, header, [c.ids.subarray(0, c.size), c.lens.subarray(0, c.size), c.corpusOf.subarray(0, c.size), c.scopeOf.subarray(0, c.size), counts, bytes]);
  }

  static fromFile(file: string, indexId: string): LexicalIndex | null {
    try {
      const f = readIndexFile<{
        magic: string;
        format: number;
        index_id: string;
        seq: number;
        size: number;
        total: number;
        bytes?: number;
        total_tokens: number;
        corpora: string[];
        scopes: string[];
        words: string[];
      }>(file);
      if (!f) return null;
      const { header: h, take } = f;
      if (h.magic !== MAGIC || (h.format !== FORMAT && h.format !== 1) || h.index_id !== indexId) return null;
      const x = new LexicalIndex();
      x.ids = new Int32Array(take(h.size * 4));
      x.lens = new Int32Array(take(h.size * 4));
      x.corpusOf = new Int32Array(take(h.size * 4));
      x.scopeOf = new Int32Array(take(h.size * 4));
      const counts = new Int32Array(take(h.words.length * 4));
      let docs: Int32Array | null = null;
      let freq: Uint16Array | null = null;
      if (h.format === 1) {
        docs = new Int32Array(take(h.total * 4));
        freq = new Uint16Array(take((h.total + (h.total % 2)) * 2));
      } else {
        // where each word's postings start: skip 2·n varints per word (a byte below 0x80 ends one)
        const bytes = new Uint8Array(take(h.bytes ?? 0));
        const offsets = new Int32Array(h.words.length);
        let at = 0;
        let p = 0;
        for (let i = 0; i < counts.length; i++) {
          offsets[i] = at;
          p += counts[i];
          for (let ends = 2 * counts[i]; ends > 0 && at < bytes.length; at++) if (bytes[at] < 0x80) ends--;
        }
        if (at !== bytes.length || p !== h.total) return null;
        x.packed = { bytes, word: new Map(h.words.map((w, i) => [w, i])), counts, offsets };
      }
      x.size = h.size;
      x.live = h.size;
      x.totalTokens = h.total_tokens;
      x.corpora = h.corpora;
      x.scopes = h.scopes;
      h.corpora.forEach((c, i) => x.corpusNo.set(c, i));
      h.scopes.forEach((s, i) => x.scopeNo.set(s, i));
      for (let doc = 0; doc < h.size; doc++) x.docOf.set(x.ids[doc], doc);
      if (docs && freq) {
        let at = 0;
        h.words.forEach((w, i) => {
          const n = counts[i];
          // views into the shared arrays; the first append copies the term out (add() grows by copy)
          x.terms.set(w, { docs: docs.subarray(at, at + n), freq: freq.subarray(at, at + n), n });
          at += n;
        });
      }
      x.seq = h.seq;
      x.source = 'file';
      return x;
    } catch {
      return null;
    }
  }
}

function indexId(db: Db): string {
  return (db.prepare("SELECT value FROM search_meta WHERE key = 'index_id'").get() as { value: string } | undefined)?.value ?? '';
}

function fileOf(db: Db): string | null {
  const dir = indexDir(db);
  if (!dir) return null;
  return path.join(dir, `lexical-${crypto.hash('sha1', FILE_KEY, 'hex').slice(0, 8)}.bin`);
}

function logBounds(db: Db): { min: number; max: number } {
  // two statements: SQLite answers a lone MIN or MAX from the primary key, both together scan the log
  const min = db.prepare('SELECT MIN(seq) FROM search_item_log').pluck().get() as number | null;
  const max = db.prepare('SELECT MAX(seq) FROM search_item_log').pluck().get() as number | null;
  return { min: min ?? 0, max: max ?? 0 };
}

type ItemRow = { id: number; corpus: string; scope: string; parent: string; title: string | null; text: string | null };
const ROWS_SQL = 'SELECT id, corpus, scope, parent, title, text FROM search_items';

function addRows(db: Db, x: LexicalIndex, rows: ItemRow[]): void {
  const tokens = itemTokens(db, resolveTexts(db, rows));
  rows.forEach((r, i) => x.add(r.id, r.corpus, r.scope, TAGS, tokens[i].title, tokens[i].body));
  freshTokensOf(db).release(rows.map((r) => r.id));
}

/** Postings of every row, segmented from search_items (first start, or a file that does not match). */
export function buildLexicalIndex(db: Db, seq: number): LexicalIndex {
  const x = new LexicalIndex();
  let batch: ItemRow[] = [];
  for (const r of db.prepare(`${ROWS_SQL} ORDER BY id`).iterate() as Iterable<ItemRow>) {
    batch.push(r);
    if (batch.length >= REBUILD_BATCH) {
      addRows(db, x, batch);
      batch = [];
    }
  }
  addRows(db, x, batch);
  x.seq = seq;
  x.source = 'db';
  return x;
}

/** Log entries after x.seq applied; null when the log cannot bring it up to date (pruned past it, reset, too many). */
function applyLog(db: Db, x: LexicalIndex, bounds: { min: number; max: number }): number | null {
  if (bounds.max === x.seq) return 0;
  if (bounds.max < x.seq || (bounds.min > x.seq + 1 && bounds.min > 0)) return null;
  const changed = (db.prepare('SELECT DISTINCT item_id AS id FROM search_item_log WHERE seq > ?').all(x.seq) as { id: number }[]).map((r) => r.id);
  if (changed.length > REWRITE_MIN && changed.length > RELOAD_SHARE * Math.max(x.live, 1)) return null;
  const rows = db.prepare(`${ROWS_SQL} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`).all(JSON.stringify(changed)) as ItemRow[];
  for (const id of changed) x.remove(id);
  addRows(db, x, rows);
  x.seq = bounds.max;
  return changed.length;
}

interface Loaded {
  x: LexicalIndex;
  fileSeq: number;
  changed: number;
}

const loadedIndexes = new WeakMap<Db, Loaded>();

/**
 * The postings of this database, up to date with every committed change: from memory, else the
 * index file plus the log, else built from search_items (and written for the next start).
 * `persist: false` (an import between two files) keeps the file as it is; persistLexicalIndex
 * writes it once at the end.
 */
export function lexicalIndex(db: Db, options: { persist?: boolean } = {}): LexicalIndex {
  const bounds = logBounds(db);
  const cached = loadedIndexes.get(db);
  if (cached && cached.x.seq === bounds.max) return cached.x;
  const file = fileOf(db);
  const id = indexId(db);
  let loaded: Loaded | null = null;
  if (cached) {
    const n = applyLog(db, cached.x, bounds);
    if (n !== null) loaded = { ...cached, changed: cached.changed + n };
  }
  if (!loaded && file) {
    const x = LexicalIndex.fromFile(file, id);
    if (x) {
      const fileSeq = x.seq;
      const n = applyLog(db, x, bounds);
      const rows = (db.prepare('SELECT COUNT(*) AS n FROM search_items').get() as { n: number }).n;
      if (n !== null && x.live === rows) loaded = { x, fileSeq, changed: n };
    }
  }
  if (!loaded) {
    const x = buildLexicalIndex(db, bounds.max);
    loaded = { x, fileSeq: -1, changed: x.live };
  }
  loadedIndexes.set(db, loaded);
  if (options.persist !== false) persistLexicalIndex(db);
  return loadedIndexes.get(db)!.x;
}

/**
 * Writes the loaded postings to the index file (holes dropped) when there is none yet or enough
 * changed since it was written, and prunes the log behind it; smaller changes stay in the log,
 * which the next process applies on top of the file.
 */
export function persistLexicalIndex(db: Db): void {
  const loaded = loadedIndexes.get(db);
  const file = fileOf(db);
  if (!loaded || !file || (loaded.fileSeq >= 0 && loaded.changed < Math.max(REWRITE_MIN, REWRITE_SHARE * loaded.x.live))) return;
  try {
    const c = loaded.x.compacted();
    c.toFile(file, indexId(db));
    loadedIndexes.set(db, { x: c, fileSeq: c.seq, changed: 0 });
    try {
      // strictly below: the newest entry stays, so MAX(seq) never goes back to 0
      db.prepare('DELETE FROM search_item_log WHERE seq < ?').run(c.seq);
    } catch {
      // busy: pruned next time
    }
  } catch {
    // a read-only or full disk only costs the next start its speed
  }
}
