import type { Db } from '../store/db';
import { writeTransaction } from '../store/transaction';
import { corpusVersion } from './lexical';

/**
 * Generic vector store: unit-length Float32 vectors as BLOBs in search_vectors per (item, model),
 * loaded per corpus into ONE contiguous Float32Array (row-major) cached per process, for exact
 * cosine top-k by brute force (dot products; sqlite-vec is not available here and a flat scan of
 * 140k x 384 floats takes tens of milliseconds on one core — see bench/search.bench.ts).
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

type Cache = Map<string, unknown>;

/** The corpus matrix for a model, from the process cache unless the corpus changed since. */
export function loadMatrix(db: Db, cache: Cache, corpus: string, modelId: string): VectorMatrix | null {
  const cacheKey = `search:vectors:${corpus}:${modelId}`;
  const version = corpusVersion(db, corpus);
  const cached = cache.get(cacheKey) as VectorMatrix | undefined;
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

/** Exact cosine top-k over the matrix (all rows, or only rows of the given scopes). */
export function vectorTopK(m: VectorMatrix, query: Float32Array, k: number, scopes?: string[]): VectorHit[] {
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
  if (scopes) {
    for (const sc of scopes) for (const row of m.byScope.get(sc) ?? []) push(dot(row), row);
  } else {
    const n = m.ids.length;
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
