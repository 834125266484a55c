import type { Db } from '../store/db';
import { writeTransaction } from '../store/transaction';
import { corpusVersion } from './lexical';
import { KeyedCache, type ContextState } from '../common/cache';

/**
 * Generic vector store: unit-length Float32 vectors as BLOBs in search_vectors per (item, model),
 * loaded per corpus into ONE contiguous Float32Array (row-major) cached per process. Top-k is an
 * exact cosine scan for small candidate sets and, from INDEX_MIN_ROWS rows on, a binary-code
 * prefilter (sign bits, Hamming distance) followed by an exact rerank of the best few thousand
 * (see vectorTopK; recall vs exact in `npm run bench -- vector`). The codes are derived from the
 * stored vectors when a matrix is loaded, so they follow imports and deletes with the matrix.
 */

export interface VectorMatrix {
  corpus: string;
  modelId: string;
  dims: number;
  version: number;
  ids: Int32Array;
  scopes: string[];
  /** scope -> row indexes, for restricted scans */
  byScope: Map<string, number[]>;
  data: Float32Array;
}

export interface VectorHit {
  id: number;
  rank: number;
  /** cosine similarity (vectors are unit length) */
  score: number;
}

export function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function fromBlob(b: Buffer): Float32Array {
  // copy: the Buffer may not be 4-byte aligned
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export function normalizeVector(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

/** Stores vectors for items (ids from search_items); normalises them to unit length. */
export function storeVectors(db: Db, modelId: string, rows: { id: number; vector: Float32Array }[]): void {
  const ins = db.prepare('INSERT OR REPLACE INTO search_vectors (item_id, model_id, dims, vec) VALUES (?, ?, ?, ?)');
  const run = () => {
    for (const r of rows) ins.run(r.id, modelId, r.vector.length, toBlob(normalizeVector(r.vector)));
  };
  if (db.inTransaction) run();
  else writeTransaction(db, run);
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

/** Loaded corpus matrices, by corpus and model. */
const matrices = new KeyedCache<VectorMatrix>('search.vectors');

/** The corpus matrix for a model, from the process cache unless the corpus changed since. */
export function loadMatrix(db: Db, state: ContextState, corpus: string, modelId: string): VectorMatrix | null {
  const cache = matrices.in(state);
  const cacheKey = `${corpus}\u0000${modelId}`;
  const version = corpusVersion(db, corpus);
  const cached = cache.get(cacheKey);
  if (cached && cached.version === version) return cached;
  const count = (
    db
      .prepare('SELECT COUNT(*) AS n FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = ? AND v.model_id = ?')
      .get(corpus, modelId) as { n: number }
  ).n;
  if (count === 0) {
    cache.delete(cacheKey);
    return null;
  }
  const first = db
    .prepare('SELECT v.dims FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = ? AND v.model_id = ? LIMIT 1')
    .get(corpus, modelId) as { dims: number };
  const dims = first.dims;
  const data = new Float32Array(count * dims);
  const ids = new Int32Array(count);
  const scopes: string[] = new Array(count);
  const byScope = new Map<string, number[]>();
  let row = 0;
  const stmt = db.prepare(
    'SELECT v.item_id AS id, i.scope, v.vec FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = ? AND v.model_id = ? AND v.dims = ? ORDER BY v.item_id',
  );
  for (const r of stmt.iterate(corpus, modelId, dims) as Iterable<{ id: number; scope: string; vec: Buffer }>) {
    new Uint8Array(data.buffer, row * dims * 4, dims * 4).set(r.vec);
    ids[row] = r.id;
    scopes[row] = r.scope;
    let list = byScope.get(r.scope);
    if (!list) byScope.set(r.scope, (list = []));
    list.push(row);
    row++;
  }
  const m: VectorMatrix = { corpus, modelId, dims, version, ids: ids.subarray(0, row), scopes, byScope, data: data.subarray(0, row * dims) };
  cache.set(cacheKey, m);
  return m;
}

/**
 * Below this many candidate rows the scan is exact; above it a binary prefilter (one bit per
 * dimension: the sign of the vector minus the corpus mean) ranks rows by Hamming distance, and
 * only the closest RERANK_FACTOR x k (at least RERANK_MIN) are scored exactly. 164k x 256-d:
 * ~8 ms instead of ~90 ms, recall of the index vs exact search reported by `npm run bench -- vector`.
 */
export const INDEX_MIN_ROWS = 20_000;
const RERANK_FACTOR = 20;
const RERANK_MIN = 3000;

export interface BinaryIndex {
  /** 32-bit words per row */
  words: number;
  mean: Float32Array;
  codes: Uint32Array;
}

const binaryIndexes = new WeakMap<VectorMatrix, BinaryIndex>();

/** Sign codes of (vector - mean), built once per loaded matrix (~40 ms for 164k x 256). */
export function binaryIndex(m: VectorMatrix): BinaryIndex {
  let idx = binaryIndexes.get(m);
  if (idx) return idx;
  const { dims, data } = m;
  const n = m.ids.length;
  const mean = new Float32Array(dims);
  const acc = new Float64Array(dims);
  for (let r = 0; r < n; r++) {
    const off = r * dims;
    for (let d = 0; d < dims; d++) acc[d] += data[off + d];
  }
  for (let d = 0; d < dims; d++) mean[d] = acc[d] / (n || 1);
  const words = Math.ceil(dims / 32);
  const codes = new Uint32Array(n * words);
  for (let r = 0; r < n; r++) encodeBits(data, r * dims, mean, codes, r * words);
  idx = { words, mean, codes };
  binaryIndexes.set(m, idx);
  return idx;
}

function encodeBits(v: ArrayLike<number>, off: number, mean: Float32Array, out: Uint32Array, at: number): void {
  const dims = mean.length;
  for (let d = 0; d < dims; d++) {
    if (v[off + d] > mean[d]) out[at + (d >>> 5)] |= 1 << (d & 31);
  }
}

/** popcount of 16-bit values */
const POP16 = (() => {
  const t = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) t[i] = (i & 1) + t[i >>> 1];
  return t;
})();

/** Rows (of `rows`, or all) whose codes are nearest to the query's, at least `want` of them. */
function hammingCandidates(idx: BinaryIndex, q: Float32Array, n: number, rows: number[] | null, want: number): number[] {
  const { words, codes } = idx;
  const qc = new Uint32Array(words);
  encodeBits(q, 0, idx.mean, qc, 0);
  const count = rows ? rows.length : n;
  const dist = new Uint16Array(count);
  const hist = new Uint32Array(words * 32 + 1);
  for (let i = 0; i < count; i++) {
    const off = (rows ? rows[i] : i) * words;
    let h = 0;
    for (let w = 0; w < words; w++) {
      const x = codes[off + w] ^ qc[w];
      h += POP16[x & 0xffff] + POP16[x >>> 16];
    }
    dist[i] = h;
    hist[h]++;
  }
  let threshold = 0;
  for (let acc = 0; threshold < hist.length; threshold++) {
    acc += hist[threshold];
    if (acc >= want) break;
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (dist[i] <= threshold) out.push(rows ? rows[i] : i);
  return out;
}

export interface TopKOptions {
  /** Scan every row exactly (benchmarks, recall checks). */
  exact?: boolean;
}

/** Cosine top-k over the matrix (all rows, or only rows of the given scopes); exact below INDEX_MIN_ROWS rows. */
export function vectorTopK(m: VectorMatrix, query: Float32Array, k: number, scopes?: string[], options: TopKOptions = {}): VectorHit[] {
  const q = normalizeVector(query);
  if (q.length !== m.dims || k <= 0) return [];
  const dims = m.dims;
  const data = m.data;
  // bounded min-heap of (score, row): O(n log k), no allocation per row
  const heapS = new Float64Array(k);
  const heapR = new Int32Array(k);
  let size = 0;
  const push = (s: number, row: number) => {
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heapS[p] <= s) break;
        heapS[i] = heapS[p];
        heapR[i] = heapR[p];
        i = p;
      }
      heapS[i] = s;
      heapR[i] = row;
    } else if (s > heapS[0]) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && heapS[r] < heapS[l] ? r : l;
        if (heapS[c] >= s) break;
        heapS[i] = heapS[c];
        heapR[i] = heapR[c];
        i = c;
      }
      heapS[i] = s;
      heapR[i] = row;
    }
  };
  const dot = (row: number) => {
    const off = row * dims;
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
  };
  let rows: number[] | null = null;
  if (scopes) {
    rows = [];
    for (const sc of scopes) for (const row of m.byScope.get(sc) ?? []) rows.push(row);
  }
  const n = rows ? rows.length : m.ids.length;
  const want = Math.max(k * RERANK_FACTOR, RERANK_MIN);
  if (!options.exact && n >= INDEX_MIN_ROWS && want < n) {
    for (const row of hammingCandidates(binaryIndex(m), q, m.ids.length, rows, want)) push(dot(row), row);
  } else if (rows) {
    for (const row of rows) push(dot(row), row);
  } else {
    for (let row = 0; row < n; row++) push(dot(row), row);
  }
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => heapS[b] - heapS[a] || heapR[a] - heapR[b]);
  return order.map((i, rank) => ({ id: m.ids[heapR[i]], rank: rank + 1, score: heapS[i] }));
}

/** Cosine of the query with specific items (for evidence of items found only lexically). */
export function cosineFor(m: VectorMatrix, query: Float32Array, ids: number[]): Map<number, number> {
  const q = normalizeVector(query);
  const out = new Map<number, number>();
  if (q.length !== m.dims) return out;
  const rowOf = rowIndex(m);
  for (const id of ids) {
    const row = rowOf.get(id);
    if (row === undefined) continue;
    let s = 0;
    const off = row * m.dims;
    for (let d = 0; d < m.dims; d++) s += m.data[off + d] * q[d];
    out.set(id, s);
  }
  return out;
}

const rowIndexes = new WeakMap<VectorMatrix, Map<number, number>>();
function rowIndex(m: VectorMatrix): Map<number, number> {
  let idx = rowIndexes.get(m);
  if (!idx) {
    idx = new Map();
    for (let i = 0; i < m.ids.length; i++) idx.set(m.ids[i], i);
    rowIndexes.set(m, idx);
  }
  return idx;
}
