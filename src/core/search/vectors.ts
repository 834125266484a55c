import type { Db } from '../store/db';
import { writeTransaction } from '../store/transaction';
import { resolveTexts } from './texts';

/**
 * Generic vector store: unit-length vectors as int8 BLOBs in search_vectors per (item, model)
 * (the source of truth), and the in-memory matrix searched at query time: ONE contiguous array
 * (row-major) per corpus and model with binary codes beside it — int8 codes with a scale per row,
 * exactly as stored, for matrices loaded from the library (a quarter of Float32: ~42 MB instead of
 * ~165 MB for 160k × 256), Float32 for matrices built in memory (tests, benchmarks). Top-k is an exact
 * cosine scan for small candidate sets and, from INDEX_MIN_ROWS rows on, a binary-code prefilter
 * (sign bits scored against the float query) followed by an exact rerank of the best few thousand (see
 * vectorTopK; recall vs exact in `npm run bench -- vector`). vector-index.ts persists the matrix
 * in the data dir and keeps it in step with imports and deletes (a change log, applied row by row).
 */

export interface VectorMatrix {
  corpus: string;
  modelId: string;
  dims: number;
  /** last change-log sequence applied (vector-index.ts); 0 for matrices built in memory */
  seq: number;
  /** item id per row, -1 for a deleted row (a hole until the next compaction) */
  ids: Int32Array;
  scopes: string[];
  /** scope -> row indexes, for restricted scans */
  byScope: Map<string, number[]>;
  /** row-major Float32 vectors: ids.length x dims (matrices built in memory); empty when `q8` holds the rows */
  data: Float32Array;
  /** row-major int8 codes (ids.length x dims) and one scale per row: a row is codes × scale (toBlob's form) */
  q8?: Int8Rows;
  /** rows holding a vector (ids.length minus holes) */
  live: number;
  /** binary codes, built on first use and extended row by row afterwards */
  binary?: BinaryIndex;
  /** item id -> row, built on first use */
  rowOf?: Map<number, number>;
  /** where the loader got it: the index file in the data dir, or SQLite (vector-index.ts) */
  source?: 'file' | 'db';
  /** rows whose codes are still in SQLite (a matrix opened from its index file): read on first use (ensureRows) */
  lazy?: LazyRows;
}

/**
 * The rows of a matrix opened from its index file are read from search_vectors when a search first
 * needs them — the few thousand candidates the binary codes pick, a scope's rows — rather than all
 * 160k before the first search (~0.4 s CPU); warmVectors reads the rest (the app, once it is idle).
 * `q8` is allocated whole from the start (zero pages cost no memory until written).
 */
export interface LazyRows {
  /** 1 once the row's codes and scale are in q8 (rows appended later are always in) */
  loaded: Uint8Array;
  /** rows not read yet */
  left: number;
  /** stored vectors (item id, blob) of the given items, or of every item of the model (null) */
  fetch(ids: number[] | null): Iterable<[number, Uint8Array]>;
}

/** Reads the rows (null: all) that are not in memory yet; an item gone from SQLite becomes a hole. */
export function ensureRows(m: VectorMatrix, rows: Iterable<number> | null): void {
  const lazy = m.lazy;
  if (!lazy || !m.q8) return;
  const wanted: number[] = [];
  if (rows) {
    for (const row of rows) if (row < lazy.loaded.length && !lazy.loaded[row] && m.ids[row] >= 0) wanted.push(row);
    if (!wanted.length) return;
  }
  // one pass over the table when most of what is left is wanted, or once a few searches have read
  // their candidates row by row (~3 % of the matrix): a long-lived process (MCP server, --batch) that
  // nobody warmed stops paying ~4 ms per search for lookups, a one-shot CLI search never reads it all
  const read = lazy.loaded.length - lazy.left;
  const all = rows === null || wanted.length > lazy.left / 4 || read >= lazy.loaded.length / 32;
  const rowOf = rowIndex(m);
  for (const [id, blob] of lazy.fetch(all ? null : wanted.map((r) => m.ids[r]))) {
    const row = rowOf.get(id);
    if (row === undefined || row >= lazy.loaded.length || lazy.loaded[row]) continue;
    blobInto(blob, m.dims, m.q8, row);
    lazy.loaded[row] = 1;
    lazy.left--;
  }
  // asked for and not stored (deleted behind the index file's back): a hole, never a zero vector
  for (const row of all ? m.ids.keys() : wanted) {
    if (row < lazy.loaded.length && !lazy.loaded[row] && m.ids[row] >= 0) {
      removeRow(m, row);
      lazy.loaded[row] = 1;
      lazy.left--;
    }
  }
  if (all || lazy.left <= 0) m.lazy = undefined;
}

/** Marks a row as deleted (a hole until the next compaction). */
export function removeRow(m: VectorMatrix, row: number): void {
  const id = m.ids[row];
  if (id < 0) return;
  m.ids[row] = -1;
  m.rowOf?.delete(id);
  const list = m.byScope.get(m.scopes[row]);
  if (list) {
    const at = list.indexOf(row);
    if (at >= 0) list.splice(at, 1);
    if (!list.length) m.byScope.delete(m.scopes[row]);
  }
  m.live--;
}

/** Every row in memory (a matrix opened from its file reads the rest from SQLite): before idle, or a rewrite. */
export function warmVectors(m: VectorMatrix): void {
  ensureRows(m, null);
}

export interface Int8Rows {
  codes: Int8Array;
  scales: Float32Array;
}

/** A matrix over int8 rows (the loaders: index file, SQLite). */
export function matrixFromInt8(corpus: string, modelId: string, dims: number, ids: Int32Array, scopes: string[], q8: Int8Rows): VectorMatrix {
  const m = matrixFrom(corpus, modelId, dims, ids, scopes, new Float32Array(0));
  m.q8 = q8;
  return m;
}

/** Row `row` as Float32 into `out` at `at` (either representation). */
export function rowInto(m: VectorMatrix, row: number, out: Float32Array, at = 0): Float32Array {
  const { dims } = m;
  const off = row * dims;
  if (m.q8) {
    const { codes, scales } = m.q8;
    const sc = scales[row];
    for (let d = 0; d < dims; d++) out[at + d] = codes[off + d] * sc;
  } else out.set(m.data.subarray(off, off + dims), at);
  return out;
}

/** Copies a stored vector's int8 codes and scale into rows at `row` (an old Float32 blob is quantised). */
export function blobInto(b: Uint8Array, dims: number, q8: Int8Rows, row: number): void {
  if (b.byteLength === dims + 4) {
    q8.codes.set(new Int8Array(b.buffer, b.byteOffset, dims), row * dims);
    q8.scales[row] = new DataView(b.buffer, b.byteOffset + dims, 4).getFloat32(0, true);
  } else {
    const f = new Float32Array(dims);
    decodeInto(b, dims, f, 0);
    q8.scales[row] = quantize(f, 0, dims, q8.codes, row * dims);
  }
}

/** A matrix over rows held in memory (tests, benchmarks, the loader). */
export function matrixFrom(corpus: string, modelId: string, dims: number, ids: Int32Array, scopes: string[], data: Float32Array): VectorMatrix {
  const byScope = new Map<string, number[]>();
  scopes.forEach((sc, row) => {
    let list = byScope.get(sc);
    if (!list) byScope.set(sc, (list = []));
    list.push(row);
  });
  return { corpus, modelId, dims, seq: 0, ids, scopes, byScope, data, live: ids.length };
}

export interface VectorHit {
  id: number;
  rank: number;
  /** cosine similarity (vectors are unit length) */
  score: number;
}

/**
 * Stored vectors are int8 codes with one scale per vector (dims + 4 bytes: codes, then the Float32
 * scale; the largest component is ±127): 260 bytes for 256 dims instead of 1 KB, small enough to
 * sit inside the table's pages. Unit vectors lose about 0.3 % of a code step per dimension; recall of the
 * top 100 against float vectors and STARD are reported by `npm run bench -- vector` / `eval -- stard`.
 * Float32 blobs (dims × 4 bytes) from before are still read.
 */
export function toBlob(v: Float32Array): Buffer {
  const out = Buffer.alloc(v.length + 4);
  out.writeFloatLE(quantize(v, 0, v.length, new Int8Array(out.buffer, out.byteOffset, v.length), 0), v.length);
  return out;
}

/**
 * int8 codes of v[off, off+dims) into `codes` at `at`; returns the scale that gives the decoded
 * vector (codes × scale) the norm of the original, so unit vectors stay unit and cosines stay cosines.
 */
export function quantize(v: ArrayLike<number>, off: number, dims: number, codes: Int8Array, at: number): number {
  let max = 0;
  let norm = 0;
  for (let d = 0; d < dims; d++) {
    const x = v[off + d];
    max = Math.max(max, Math.abs(x));
    norm += x * x;
  }
  if (max === 0) {
    codes.fill(0, at, at + dims);
    return 1;
  }
  const step = max / 127;
  let codeNorm = 0;
  for (let d = 0; d < dims; d++) {
    const c = Math.round(v[off + d] / step);
    codes[at + d] = c;
    codeNorm += c * c;
  }
  return Math.sqrt(norm / codeNorm);
}

/** A stored vector as Float32 (int8 codes × scale, or a Float32 blob of dims × 4 bytes). */
export function fromBlob(b: Buffer, dims: number): Float32Array {
  const out = new Float32Array(dims);
  decodeInto(b, dims, out, 0);
  return out;
}

/** Decodes a stored vector into `out` at `at` (no allocation: the matrix loaders). */
export function decodeInto(b: Uint8Array, dims: number, out: Float32Array, at: number): void {
  if (b.byteLength === dims + 4) {
    const codes = new Int8Array(b.buffer, b.byteOffset, dims);
    const scale = new DataView(b.buffer, b.byteOffset + dims, 4).getFloat32(0, true);
    for (let d = 0; d < dims; d++) out[at + d] = codes[d] * scale;
  } else if (b.byteLength === dims * 4) {
    // copy bytes: the Buffer may not be 4-byte aligned
    new Uint8Array(out.buffer, out.byteOffset + at * 4, dims * 4).set(b);
  } else throw new Error(`stored vector has ${b.byteLength} bytes, not ${dims} dimensions`);
}

export function normalizeVector(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

/** Stores vectors for items (ids from search_items); normalises them to unit length, stores int8 codes (toBlob). */
export function storeVectors(db: Db, modelId: string, rows: { id: number; vector: Float32Array }[]): void {
  const ins = db.prepare(
    'INSERT INTO search_vectors (item_id, model_id, dims, vec) VALUES (?, ?, ?, ?) ON CONFLICT (item_id, model_id) DO UPDATE SET dims = excluded.dims, vec = excluded.vec',
  );
  const run = () => {
    for (const r of rows) ins.run(r.id, modelId, r.vector.length, toBlob(normalizeVector(r.vector)));
  };
  if (db.inTransaction) run();
  else writeTransaction(db, run);
}

/**
 * Runs `reindex` (which replaces a scope's items) and gives every new item of the scope whose title
 * and text are those of an item before it that item's vectors (every model), so re-importing a
 * changed document embeds only the chunks that changed. Call inside the write transaction.
 */
export function keepVectors<T>(db: Db, corpus: string, scope: string, reindex: () => T): T {
  const before = resolveTexts(
    db,
    db
      .prepare(
        `SELECT i.corpus, i.parent, i.title, i.text, v.model_id, v.dims, v.vec FROM search_items i JOIN search_vectors v ON v.item_id = i.id
         WHERE i.corpus = ? AND i.scope = ?`,
      )
      .all(corpus, scope) as { corpus: string; parent: string; title: string | null; text: string | null; model_id: string; dims: number; vec: Buffer }[],
  );
  const result = reindex();
  if (!before.length) return result;
  const byText = new Map<string, typeof before>();
  for (const r of before) {
    if (r.text === null) continue;
    const key = `${r.title ?? ''}\u0000${r.text}`;
    let list = byText.get(key);
    if (!list) byText.set(key, (list = []));
    list.push(r);
  }
  const ins = db.prepare('INSERT OR IGNORE INTO search_vectors (item_id, model_id, dims, vec) VALUES (?, ?, ?, ?)');
  const after = resolveTexts(
    db,
    db.prepare('SELECT id, corpus, parent, title, text FROM search_items WHERE corpus = ? AND scope = ?').all(corpus, scope) as {
      id: number;
      corpus: string;
      parent: string;
      title: string | null;
      text: string | null;
    }[],
  );
  for (const item of after) {
    if (item.text === null) continue;
    for (const v of byText.get(`${item.title ?? ''}\u0000${item.text}`) ?? []) ins.run(item.id, v.model_id, v.dims, v.vec);
  }
  return result;
}

/** How many items a corpus holds and how many of them have no vector for the model (an interrupted embedding). */
export function vectorCoverage(db: Db, corpus: string, modelId: string): { items: number; missing: number } {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS items, COALESCE(SUM(v.item_id IS NULL), 0) AS missing FROM search_items i
       LEFT JOIN search_vectors v ON v.item_id = i.id AND v.model_id = ? WHERE i.corpus = ?`,
    )
    .get(modelId, corpus) as { items: number; missing: number };
  return { items: row.items, missing: row.missing };
}

/** Items of a corpus (optionally one scope) that have no vector for the model yet. */
export function itemsMissingVectors(db: Db, corpus: string, modelId: string, scope?: string): { id: number; key: string; title: string | null }[] {
  const sql = `SELECT i.id, i.key, i.title FROM search_items i
     LEFT JOIN search_vectors v ON v.item_id = i.id AND v.model_id = ?
     WHERE i.corpus = ? ${scope !== undefined ? 'AND i.scope = ?' : ''} AND v.item_id IS NULL ORDER BY i.id`;
  const args: unknown[] = [modelId, corpus];
  if (scope !== undefined) args.push(scope);
  return db.prepare(sql).all(...args) as { id: number; key: string; title: string | null }[];
}

/**
 * Below this many candidate rows the scan is exact; above it a binary prefilter (one bit per
 * dimension: the sign of the vector minus the corpus mean) ranks rows against the float query
 * (codeCandidates), and only the best RERANK_FACTOR x k (at least RERANK_MIN) are scored exactly.
 * 160k x 256-d, top 100: ~6 ms CPU instead of ~60 ms, recall vs exact 0.981 @100 (0.990 with
 * 3,000 rows reranked at +10 % time), reported by `npm run bench -- vector`.
 */
export const INDEX_MIN_ROWS = 20_000;
const RERANK_FACTOR = 20;
const RERANK_MIN = 2000;

export interface BinaryIndex {
  /** 32-bit words per row */
  words: number;
  mean: Float32Array;
  codes: Uint32Array;
}

/** Sign codes of (vector - mean), built once per loaded matrix (~40 ms for 164k x 256). */
export function binaryIndex(m: VectorMatrix): BinaryIndex {
  if (m.binary && m.binary.codes.length >= m.ids.length * m.binary.words) return m.binary;
  ensureRows(m, null);
  const { dims } = m;
  const n = m.ids.length;
  const mean = new Float32Array(dims);
  const acc = new Float64Array(dims);
  const v = new Float32Array(dims);
  for (let r = 0; r < n; r++) {
    if (m.ids[r] < 0) continue;
    rowInto(m, r, v);
    for (let d = 0; d < dims; d++) acc[d] += v[d];
  }
  for (let d = 0; d < dims; d++) mean[d] = acc[d] / (m.live || 1);
  const words = Math.ceil(dims / 32);
  const codes = new Uint32Array(n * words);
  for (let r = 0; r < n; r++) encodeBits(rowInto(m, r, v), 0, mean, codes, r * words);
  m.binary = { words, mean, codes };
  return m.binary;
}

/** Codes of rows [from, ids.length) after rows were appended (the mean stays: centring, not statistics). */
export function extendBinaryIndex(m: VectorMatrix, from: number, codes?: Uint32Array): void {
  const idx = m.binary;
  if (!idx) return;
  const n = m.ids.length;
  const next = codes ?? new Uint32Array(n * idx.words);
  if (!codes) next.set(idx.codes.subarray(0, Math.min(idx.codes.length, from * idx.words)));
  else next.fill(0, from * idx.words, n * idx.words);
  const v = new Float32Array(m.dims);
  for (let r = from; r < n; r++) encodeBits(rowInto(m, r, v), 0, idx.mean, next, r * idx.words);
  idx.codes = next;
}

/** Re-encodes one row in place (a vector replaced). */
export function encodeRow(m: VectorMatrix, row: number): void {
  const idx = m.binary;
  if (!idx) return;
  idx.codes.fill(0, row * idx.words, (row + 1) * idx.words);
  encodeBits(rowInto(m, row, new Float32Array(m.dims)), 0, idx.mean, idx.codes, row * idx.words);
}

function encodeBits(v: ArrayLike<number>, off: number, mean: Float32Array, out: Uint32Array, at: number): void {
  const dims = mean.length;
  // a word's bits gathered in a local int, written once (|= on a Uint32Array element past 2^31 goes through doubles)
  for (let w = 0; w * 32 < dims; w++) {
    let bits = out[at + w] | 0;
    const end = Math.min(dims, w * 32 + 32);
    for (let d = w * 32; d < end; d++) if (v[off + d] > mean[d]) bits |= 1 << (d & 31);
    out[at + w] = bits;
  }
}

/**
 * The `want` rows (of `rows`, or all) whose codes score best against the float query; holes never.
 * Asymmetric scoring: the query keeps its floats and a row's code stands for sign(v - mean), so
 * (v - mean)·q ≈ c · Σ_d ±q_d, ranked by Σ of q_d over the row's set bits (the rest is the same
 * for every row). One 256-entry table per code byte turns that into 4 lookups per 32-bit word.
 * Measured on the statute corpus (160k × 256, STARD questions), top 100 after an exact rerank of
 * 3,000 rows: recall vs exact 0.990, where ranking by Hamming distance between the query's and
 * the rows' sign codes reached 0.921; 2,000 rows (the default) 0.981 at 1.07x the Hamming
 * prefilter's CPU time (see `npm run bench -- vector`).
 */
function codeCandidates(m: VectorMatrix, idx: BinaryIndex, q: Float32Array, rows: number[] | null, want: number, mask: Uint8Array | null = null): number[] {
  const { words, codes, mean } = idx;
  const ids = m.ids;
  const dims = mean.length;
  const lut = new Float32Array(words * 4 * 256);
  for (let b = 0; b < words * 4; b++) {
    const base = b * 256;
    for (let j = 0; j < 8; j++) {
      const d = b * 8 + j;
      const w = d < dims ? q[d] : 0;
      const bit = 1 << j;
      // every byte value with bit j set = the same value without it, plus q_d
      for (let v = bit; v < bit << 1; v++) lut[base + v] = lut[base + v - bit] + w;
    }
  }
  const count = rows ? rows.length : ids.length;
  const scores = new Float32Array(count);
  let max = -Infinity;
  let min = Infinity;
  for (let i = 0; i < count; i++) {
    const row = rows ? rows[i] : i;
    if (ids[row] < 0 || (mask && !mask[row])) {
      scores[i] = NaN;
      continue;
    }
    let off = row * words;
    // two sums: independent adds run in parallel
    let s0 = 0;
    let s1 = 0;
    let w = 0;
    for (let base = 0; w + 1 < words; w += 2, off += 2, base += 2048) {
      const c = codes[off];
      const e = codes[off + 1];
      s0 += lut[base + (c & 255)] + lut[base + 256 + ((c >>> 8) & 255)] + lut[base + 512 + ((c >>> 16) & 255)] + lut[base + 768 + (c >>> 24)];
      s1 += lut[base + 1024 + (e & 255)] + lut[base + 1280 + ((e >>> 8) & 255)] + lut[base + 1536 + ((e >>> 16) & 255)] + lut[base + 1792 + (e >>> 24)];
    }
    if (w < words) {
      const c = codes[off];
      const base = w * 1024;
      s0 += lut[base + (c & 255)] + lut[base + 256 + ((c >>> 8) & 255)] + lut[base + 512 + ((c >>> 16) & 255)] + lut[base + 768 + (c >>> 24)];
    }
    const sc = s0 + s1;
    scores[i] = sc;
    if (sc > max) max = sc;
    if (sc < min) min = sc;
  }
  // the best `want` (or a few more: ties within a bin) by a histogram of scores, no sort: half the cost of a heap
  const BINS = 4096;
  const hist = new Uint32Array(BINS + 1);
  const perBin = BINS / (max - min || 1);
  for (let i = 0; i < count; i++) {
    const sc = scores[i];
    if (sc === sc) hist[Math.min(BINS, ((max - sc) * perBin) | 0)]++;
  }
  let bin = 0;
  for (let acc = 0; bin < BINS; bin++) {
    acc += hist[bin];
    if (acc >= want) break;
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const sc = scores[i];
    // NaN (a hole) fails the comparison
    if (sc >= max - (bin + 1) / perBin) out.push(rows ? rows[i] : i);
  }
  return out;
}

export interface TopKOptions {
  /** Scan every row exactly (benchmarks, recall checks). */
  exact?: boolean;
}

/** Bounded min-heap of (score, row): O(n log k), no allocation per row. */
export class TopHeap {
  readonly s: Float64Array;
  readonly r: Int32Array;
  size = 0;
  constructor(readonly k: number) {
    this.s = new Float64Array(k);
    this.r = new Int32Array(k);
  }
  push(score: number, row: number): void {
    const { s, r, k } = this;
    if (this.size < k) {
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (s[p] <= score) break;
        s[i] = s[p];
        r[i] = r[p];
        i = p;
      }
      s[i] = score;
      r[i] = row;
    } else if (score > s[0]) {
      const size = this.size;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const rr = l + 1;
        const c = rr < size && s[rr] < s[l] ? rr : l;
        if (s[c] >= score) break;
        s[i] = s[c];
        r[i] = r[c];
        i = c;
      }
      s[i] = score;
      r[i] = row;
    }
  }
}

/** Cosine of row `row` with the unit query, in either representation. */
export function dotAt(m: VectorMatrix, row: number, q: Float32Array): number {
  return m.q8 ? dotRow(m.q8.codes, row * m.dims, q, m.dims) * m.q8.scales[row] : dotRow(m.data, row * m.dims, q, m.dims);
}

function dotRow(data: Float32Array | Int8Array, off: number, q: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dims; d += 4) {
    s0 += data[off + d] * q[d];
    s1 += data[off + d + 1] * q[d + 1];
    s2 += data[off + d + 2] * q[d + 2];
    s3 += data[off + d + 3] * q[d + 3];
  }
  for (; d < dims; d++) s0 += data[off + d] * q[d];
  return s0 + s1 + s2 + s3;
}

/** Cosine top-k over the matrix (all rows, or only rows of the given scopes); exact below INDEX_MIN_ROWS rows. */
export function vectorTopK(m: VectorMatrix, query: Float32Array, k: number, scopes?: string[], options: TopKOptions = {}): VectorHit[] {
  const q = normalizeVector(query);
  if (q.length !== m.dims || k <= 0) return [];
  const { ids } = m;
  const heap = new TopHeap(k);
  // a few scopes: their rows; most of the matrix (every regulation in force, say): a row mask, scanned in order
  let rows: number[] | null = null;
  let mask: Uint8Array | null = null;
  let n = m.live;
  if (scopes) {
    const allowed = new Set(scopes);
    let count = 0;
    for (const sc of allowed) count += m.byScope.get(sc)?.length ?? 0;
    n = count;
    if (count * 4 < m.live) {
      rows = [];
      for (const sc of allowed) for (const row of m.byScope.get(sc) ?? []) rows.push(row);
    } else {
      // every row but those of the scopes left out (holes are skipped by id anyway)
      mask = new Uint8Array(ids.length).fill(1);
      for (const [sc, list] of m.byScope) if (!allowed.has(sc)) for (const row of list) mask[row] = 0;
    }
  }
  const want = Math.max(k * RERANK_FACTOR, RERANK_MIN);
  if (!options.exact && n >= INDEX_MIN_ROWS && want < n) {
    const candidates = codeCandidates(m, binaryIndex(m), q, rows, want, mask);
    ensureRows(m, candidates);
    // a candidate read as deleted is a hole now
    for (const row of candidates) if (ids[row] >= 0) heap.push(dotAt(m, row, q), row);
  } else if (mask) {
    ensureRows(m, null);
    for (let row = 0; row < ids.length; row++) if (mask[row] && ids[row] >= 0) heap.push(dotAt(m, row, q), row);
  } else if (rows) {
    ensureRows(m, rows);
    for (const row of rows) if (ids[row] >= 0) heap.push(dotAt(m, row, q), row);
  } else {
    ensureRows(m, null);
    for (let row = 0; row < ids.length; row++) if (ids[row] >= 0) heap.push(dotAt(m, row, q), row);
  }
  const order = Array.from({ length: heap.size }, (_, i) => i).sort((a, b) => heap.s[b] - heap.s[a] || heap.r[a] - heap.r[b]);
  return order.map((i, rank) => ({ id: ids[heap.r[i]], rank: rank + 1, score: heap.s[i] }));
}

/** Cosine of the query with specific items (for evidence of items found only lexically). */
export function cosineFor(m: VectorMatrix, query: Float32Array, ids: number[]): Map<number, number> {
  const q = normalizeVector(query);
  const out = new Map<number, number>();
  if (q.length !== m.dims) return out;
  const rowOf = rowIndex(m);
  const rows = ids.map((id) => rowOf.get(id)).filter((r): r is number => r !== undefined);
  ensureRows(m, rows);
  for (const row of rows) if (m.ids[row] >= 0) out.set(m.ids[row], dotAt(m, row, q));
  return out;
}

/** item id -> row (holes excluded), built once per matrix and kept up to date by vector-index.ts. */
export function rowIndex(m: VectorMatrix): Map<number, number> {
  if (!m.rowOf) {
    m.rowOf = new Map();
    for (let i = 0; i < m.ids.length; i++) if (m.ids[i] >= 0) m.rowOf.set(m.ids[i], i);
  }
  return m.rowOf;
}
