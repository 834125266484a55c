import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../store/db';
import { indexDir, readIndexFile, writeIndexFile } from './index-file';
import { KeyedCache, type ContextState } from '../common/cache';
import { blobInto, quantize, encodeRow, ensureRows, extendBinaryIndex, matrixFromInt8, removeRow, rowIndex, binaryIndex, type Int8Rows, type VectorMatrix } from './vectors';

/**
 * The persisted vector index: per (corpus, model) one file in `<data-dir>/index/` holding the
 * matrix's row order (ids, scopes) and its binary codes, so a process starts searching with one
 * file read; the int8 rows (kept once, in SQLite; a matrix stays int8 in memory) are read when a
 * search first needs them — its candidates — and all of them by the app's warm-up (vectors.ts ensureRows). SQLite stays the source of truth:
 * triggers on search_vectors append every insert / replace / delete to search_vector_log
 * (schema.ts, v2), and a loaded matrix applies the log entries after its own sequence number row
 * by row (new rows appended, replaced vectors overwritten, deleted rows left as holes), so
 * imports, deletes, re-embeds and model adaptation reach a running process in milliseconds.
 * The file is rewritten (holes dropped) when enough changed since it was written; the log is
 * pruned behind it. A file that does not match the database (another index_id, a sequence ahead
 * of the log, a pruned gap) is ignored and rebuilt.
 */

const MAGIC = 'gridcode-vectors';
/**
 * 3: ids, scopes and binary codes only — the int8 rows are read from search_vectors as searches need
 * them instead of being kept a second time in the file (42 MB for the statute corpus); 2 (still
 * read): int8 codes + one scale per row in the file; 1: Float32 rows.
 */
const FORMAT = 3;
/** rewrite the file when this share of its rows changed since it was written (and at least REWRITE_MIN rows) */
const REWRITE_SHARE = 0.02;
const REWRITE_MIN = 256;
/** with more changed items than this share of the matrix, reloading from SQLite is faster than row-wise updates */
const RELOAD_SHARE = 0.3;


interface Header {
  magic: string;
  format: number;
  index_id: string;
  corpus: string;
  model_id: string;
  dims: number;
  rows: number;
  seq: number;
  words: number;
  scopes: string[];
}

/** Bookkeeping kept beside a cached matrix. */
interface Loaded {
  m: VectorMatrix;
  /** sequence number of the file on disk (or -1 when none was written) */
  fileSeq: number;
  /** rows changed since the file was written */
  changed: number;
}

function indexFile(db: Db, corpus: string, modelId: string): string | null {
  const dir = indexDir(db);
  if (!dir) return null;
  const tag = crypto.hash('sha1', `${corpus}\u0000${modelId}`, 'hex').slice(0, 16);
  return path.join(dir, `vectors-${tag}.bin`);
}

function indexId(db: Db): string {
  return (db.prepare("SELECT value FROM search_meta WHERE key = 'index_id'").get() as { value: string } | undefined)?.value ?? '';
}

function logBounds(db: Db): { min: number; max: number } {
  // two statements: SQLite answers a lone MIN or MAX from the primary key, both together scan the log
  const min = db.prepare('SELECT MIN(seq) FROM search_vector_log').pluck().get() as number | null;
  const max = db.prepare('SELECT MAX(seq) FROM search_vector_log').pluck().get() as number | null;
  return { min: min ?? 0, max: max ?? 0 };
}

function storedCount(db: Db, corpus: string, modelId: string): number {
  return (
    db.prepare('SELECT COUNT(*) AS n FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = ? AND v.model_id = ?').get(corpus, modelId) as {
      n: number;
    }
  ).n;
}

/** Every vector of the corpus from SQLite (the slow path: first start, or a file that does not match). */
export function matrixFromDb(db: Db, corpus: string, modelId: string, seq: number): VectorMatrix | null {
  const count = storedCount(db, corpus, modelId);
  if (count === 0) return null;
  const first = db
    .prepare('SELECT v.dims FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = ? AND v.model_id = ? LIMIT 1')
    .get(corpus, modelId) as { dims: number };
  const dims = first.dims;
  const q8: Int8Rows = { codes: new Int8Array(count * dims), scales: new Float32Array(count) };
  const ids = new Int32Array(count);
  const scopes: string[] = new Array(count);
  let row = 0;
  const stmt = db.prepare(
    'SELECT v.item_id AS id, i.scope, v.vec FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = ? AND v.model_id = ? AND v.dims = ? ORDER BY v.item_id',
  );
  for (const r of stmt.iterate(corpus, modelId, dims) as Iterable<{ id: number; scope: string; vec: Buffer }>) {
    if (row >= count) break;
    blobInto(r.vec, dims, q8, row);
    ids[row] = r.id;
    scopes[row] = r.scope;
    row++;
  }
  const m = matrixFromInt8(corpus, modelId, dims, ids.subarray(0, row), scopes.slice(0, row), { codes: q8.codes.subarray(0, row * dims), scales: q8.scales.subarray(0, row) });
  m.seq = seq;
  m.source = 'db';
  return m;
}

function readFile(file: string, db: Db, corpus: string, modelId: string): VectorMatrix | null {
  try {
    const f = readIndexFile<Header>(file);
    if (!f) return null;
    const { header: h, take } = f;
    if (h.magic !== MAGIC || (h.format !== FORMAT && h.format !== 2) || h.corpus !== corpus || h.model_id !== modelId || h.index_id !== indexId(db)) return null;
    const ids = new Int32Array(take(h.rows * 4));
    const scopeIdx = new Int32Array(take(h.rows * 4));
    let q8: Int8Rows;
    let lazy: VectorMatrix['lazy'];
    if (h.format === 2) {
      const scales = new Float32Array(take(h.rows * 4));
      q8 = { codes: new Int8Array(take(Math.ceil((h.rows * h.dims) / 8) * 8)).subarray(0, h.rows * h.dims), scales };
    } else {
      // the rows stay in search_vectors until a search needs them (vectors.ts ensureRows)
      q8 = { codes: new Int8Array(h.rows * h.dims), scales: new Float32Array(h.rows) };
      lazy = { loaded: new Uint8Array(h.rows), left: h.rows, fetch: storedRows(db, modelId, h.dims) };
    }
    const mean = new Float32Array(take(h.dims * 4));
    const codes = new Uint32Array(take(h.rows * h.words * 4));
    const scopes = Array.from(scopeIdx, (i) => h.scopes[i]);
    // the codes stay int8 in memory (vectors.ts dotAt): a quarter of the Float32 matrix
    const m = matrixFromInt8(corpus, modelId, h.dims, ids, scopes, q8);
    m.seq = h.seq;
    m.binary = { words: h.words, mean, codes };
    m.source = 'file';
    if (lazy) m.lazy = lazy;
    return m;
  } catch {
    return null; // a damaged file is a cache miss
  }
}

/** Stored vectors of the model by item id (a list: one indexed lookup each; null: one pass over the table). */
function storedRows(db: Db, modelId: string, dims: number): (ids: number[] | null) => Iterable<[number, Uint8Array]> {
  return (ids) =>
    ids
      ? (db
          .prepare('SELECT item_id, vec FROM search_vectors WHERE model_id = ? AND dims = ? AND item_id IN (SELECT value FROM json_each(?))')
          .raw()
          .all(modelId, dims, JSON.stringify(ids)) as [number, Uint8Array][])
      : // streamed: 160k rows at once would be ~70 MB of short-lived buffers
        (db.prepare('SELECT item_id, vec FROM search_vectors WHERE model_id = ? AND dims = ?').raw().iterate(modelId, dims) as Iterable<[number, Uint8Array]>);
}

/** Writes the live rows (holes dropped) atomically; returns the compacted matrix. */
function writeFile(file: string, db: Db, m: VectorMatrix): VectorMatrix {
  const c = compact(m);
  const idx = binaryIndex(c);
  const scopeList = [...c.byScope.keys()];
  const scopeNo = new Map(scopeList.map((s, i) => [s, i]));
  const header: Header = {
    magic: MAGIC,
    format: FORMAT,
    index_id: indexId(db),
    corpus: c.corpus,
    model_id: c.modelId,
    dims: c.dims,
    rows: c.ids.length,
    seq: c.seq,
    words: idx.words,
    scopes: scopeList,
  };
  const scopeIdx = Int32Array.from(c.scopes, (s) => scopeNo.get(s)!);
  writeIndexFile(file, header, [c.ids, scopeIdx, idx.mean, idx.codes.subarray(0, c.ids.length * idx.words)]);
  return c;
}

/** Rows as int8 codes with a scale each, like search_vectors holds them (toBlob): a quarter of Float32. */
function quantizeRows(data: Float32Array, rows: number, dims: number): { scales: Float32Array; codes: Int8Array } {
  const scales = new Float32Array(rows);
  // padded to 8 bytes: the next array starts aligned
  const codes = new Int8Array(Math.ceil((rows * dims) / 8) * 8);
  for (let row = 0; row < rows; row++) scales[row] = quantize(data, row * dims, dims, codes, row * dims);
  return { scales, codes };
}

/** A copy without holes (same binary mean: codes stay comparable). */
function compact(m: VectorMatrix): VectorMatrix {
  ensureRows(m, null);
  if (m.live === m.ids.length) return m;
  const { dims } = m;
  const ids = new Int32Array(m.live);
  const q8: Int8Rows = { codes: new Int8Array(m.live * dims), scales: new Float32Array(m.live) };
  const scopes: string[] = new Array(m.live);
  const words = m.binary?.words ?? 0;
  const codes = m.binary ? new Uint32Array(m.live * words) : null;
  const src = toInt8(m);
  let to = 0;
  for (let row = 0; row < m.ids.length; row++) {
    if (m.ids[row] < 0) continue;
    ids[to] = m.ids[row];
    scopes[to] = m.scopes[row];
    q8.codes.set(src.codes.subarray(row * dims, (row + 1) * dims), to * dims);
    q8.scales[to] = src.scales[row];
    if (codes) codes.set(m.binary!.codes.subarray(row * words, (row + 1) * words), to * words);
    to++;
  }
  const c = matrixFromInt8(m.corpus, m.modelId, dims, ids, scopes, q8);
  c.seq = m.seq;
  c.source = m.source;
  if (codes) c.binary = { words, mean: m.binary!.mean, codes };
  return c;
}

/** The matrix's rows as int8 (a Float32 matrix quantised, as search_vectors stores them). */
function toInt8(m: VectorMatrix): Int8Rows {
  return m.q8 ?? quantizeRows(m.data, m.ids.length, m.dims);
}

/** Item rows (stored blobs) appended at the end (capacity doubling keeps appends amortised). */
function appendRows(m: VectorMatrix, rows: { id: number; scope: string; vec: Buffer }[]): void {
  if (!rows.length) return;
  const { dims } = m;
  if (!m.q8) {
    m.q8 = toInt8(m);
    m.data = new Float32Array(0);
  }
  const from = m.ids.length;
  const need = from + rows.length;
  const q8 = m.q8;
  let idsBuf = new Int32Array(m.ids.buffer, m.ids.byteOffset, m.ids.buffer.byteLength / 4 - m.ids.byteOffset / 4);
  let codesBuf = new Int8Array(q8.codes.buffer, q8.codes.byteOffset, q8.codes.buffer.byteLength - q8.codes.byteOffset);
  let scalesBuf = new Float32Array(q8.scales.buffer, q8.scales.byteOffset, q8.scales.buffer.byteLength / 4 - q8.scales.byteOffset / 4);
  if (idsBuf.length < need || codesBuf.length < need * dims || scalesBuf.length < need) {
    const cap = Math.max(need, Math.ceil(from * 1.5), 64);
    const ni = new Int32Array(cap);
    ni.set(m.ids);
    const nc = new Int8Array(cap * dims);
    nc.set(q8.codes);
    const ns = new Float32Array(cap);
    ns.set(q8.scales);
    idsBuf = ni;
    codesBuf = nc;
    scalesBuf = ns;
  }
  m.ids = idsBuf.subarray(0, need);
  m.q8 = { codes: codesBuf.subarray(0, need * dims), scales: scalesBuf.subarray(0, need) };
  const rowOf = rowIndex(m);
  rows.forEach((r, i) => {
    const row = from + i;
    m.ids[row] = r.id;
    blobInto(r.vec, dims, m.q8!, row);
    m.scopes[row] = r.scope;
    let list = m.byScope.get(r.scope);
    if (!list) m.byScope.set(r.scope, (list = []));
    list.push(row);
    rowOf.set(r.id, row);
  });
  m.live += rows.length;
  extendBinaryIndex(m, from);
}

/**
 * Applies log entries after m.seq. Returns the number of rows changed, or null when the log cannot
 * bring this matrix up to date (pruned past it, or reset) and it must be reloaded.
 */
function applyLog(db: Db, m: VectorMatrix, bounds: { min: number; max: number }): number | null {
  if (bounds.max === m.seq) return 0;
  if (bounds.max < m.seq || (bounds.min > m.seq + 1 && bounds.min > 0)) return null;
  const changed = (db.prepare('SELECT DISTINCT item_id AS id FROM search_vector_log WHERE seq > ? AND model_id = ?').all(m.seq, m.modelId) as { id: number }[]).map(
    (r) => r.id,
  );
  if (changed.length > RELOAD_SHARE * Math.max(m.live, 1) && changed.length > REWRITE_MIN) return null;
  // the changed rows' current state in one statement (absent = deleted)
  const current = new Map(
    (
      db
        .prepare(
          `SELECT v.item_id AS id, i.corpus, i.scope, v.dims, v.vec FROM search_vectors v JOIN search_items i ON i.id = v.item_id
           WHERE v.item_id IN (SELECT value FROM json_each(?)) AND v.model_id = ?`,
        )
        .all(JSON.stringify(changed), m.modelId) as { id: number; corpus: string; scope: string; dims: number; vec: Buffer }[]
    ).map((r) => [r.id, r]),
  );
  const rowOf = rowIndex(m);
  const appended: { id: number; scope: string; vec: Buffer }[] = [];
  let n = 0;
  for (const id of changed) {
    const r = current.get(id);
    const row = rowOf.get(id);
    const here = r && r.corpus === m.corpus && r.dims === m.dims;
    if (!here) {
      if (row !== undefined) {
        removeRow(m, row);
        n++;
      }
      continue;
    }
    if (row !== undefined && m.scopes[row] === r.scope) {
      if (!m.q8) {
        m.q8 = toInt8(m);
        m.data = new Float32Array(0);
      }
      blobInto(r.vec, m.dims, m.q8, row);
      if (m.lazy && row < m.lazy.loaded.length && !m.lazy.loaded[row]) {
        m.lazy.loaded[row] = 1;
        m.lazy.left--;
      }
      encodeRow(m, row);
    } else {
      if (row !== undefined) removeRow(m, row);
      appended.push({ id, scope: r.scope, vec: r.vec });
    }
    n++;
  }
  appendRows(m, appended);
  m.seq = bounds.max;
  return n;
}

/**
 * Records that the file of (corpus, model) holds the log up to `seq`, and drops the log entries
 * every index file has absorbed (best effort: a busy database just keeps them for next time).
 */
function recordFile(db: Db, corpus: string, modelId: string, seq: number | null): void {
  try {
    if (seq === null) db.prepare('DELETE FROM search_vector_files WHERE corpus = ? AND model_id = ?').run(corpus, modelId);
    else db.prepare('INSERT OR REPLACE INTO search_vector_files (corpus, model_id, seq) VALUES (?, ?, ?)').run(corpus, modelId, seq);
    const oldest = (db.prepare('SELECT MIN(seq) AS s FROM search_vector_files').get() as { s: number | null }).s;
    // strictly below: the newest entry stays, so MAX(seq) never goes back to 0
    if (oldest !== null) db.prepare('DELETE FROM search_vector_log WHERE seq < ?').run(oldest);
  } catch {
    // another process is writing: pruning waits for the next rewrite
  }
}

/** Loaded matrices by corpus and model; `{ seq }` remembers "no vectors" as of that change. */
const loadedMatrices = new KeyedCache<Loaded | { seq: number }>('search.vectors');

/**
 * The corpus matrix for a model: from the process cache brought up to date with the change log,
 * else from the index file (plus the log since it was written), else from SQLite (and the file is
 * written for next time). Null when the corpus has no vectors for the model. `persist: false` (an
 * import between two files) leaves the file alone; persistMatrices writes it once at the end.
 */
export function loadMatrix(db: Db, state: ContextState, corpus: string, modelId: string, options: { persist?: boolean } = {}): VectorMatrix | null {
  const cache = loadedMatrices.in(state);
  const cacheKey = `${corpus}\u0000${modelId}`;
  const bounds = logBounds(db);
  const entry = cache.get(cacheKey);
  if (entry && !('m' in entry)) {
    if (entry.seq === bounds.max) return null;
  } else if (entry && entry.m.seq === bounds.max) return entry.m;
  const cached = entry && 'm' in entry ? entry : undefined;
  const file = indexFile(db, corpus, modelId);
  let loaded: Loaded | null = null;
  if (cached) {
    const n = applyLog(db, cached.m, bounds);
    if (n !== null) loaded = { ...cached, changed: cached.changed + n };
  }
  if (!loaded && file) {
    const m = readFile(file, db, corpus, modelId);
    if (m) {
      const fileSeq = m.seq;
      const n = applyLog(db, m, bounds);
      // index_id ties the file to this database and the log bridges it to now (counting the
      // stored vectors to double-check would read the whole vector table: seconds)
      if (n !== null) loaded = { m, fileSeq, changed: n };
    }
  }
  if (!loaded) {
    const m = matrixFromDb(db, corpus, modelId, bounds.max);
    if (!m) {
      cache.set(cacheKey, { seq: bounds.max });
      if (file && fs.existsSync(file)) {
        fs.rmSync(file, { force: true });
        recordFile(db, corpus, modelId, null);
      }
      return null;
    }
    loaded = { m, fileSeq: -1, changed: m.live };
  }
  cache.set(cacheKey, loaded);
  return options.persist === false ? loaded.m : persistMatrix(db, state, corpus, modelId);
}

/**
 * Writes a loaded matrix to its index file when there is none yet or enough changed since it was
 * written (smaller changes stay in the log, applied on top of the file by the next process);
 * returns the matrix (compacted when written).
 */
function persistMatrix(db: Db, state: ContextState, corpus: string, modelId: string): VectorMatrix | null {
  const cache = loadedMatrices.in(state);
  const cacheKey = `${corpus}\u0000${modelId}`;
  const loaded = cache.get(cacheKey);
  if (!loaded || !('m' in loaded)) return null;
  const file = indexFile(db, corpus, modelId);
  if (!file || (loaded.fileSeq >= 0 && loaded.changed < Math.max(REWRITE_MIN, REWRITE_SHARE * loaded.m.live))) return loaded.m;
  try {
    const m = writeFile(file, db, loaded.m);
    cache.set(cacheKey, { m, fileSeq: m.seq, changed: 0 });
    recordFile(db, corpus, modelId, m.seq);
    return m;
  } catch {
    // a read-only or full disk only costs the next start its speed
    return loaded.m;
  }
}

/** Writes the loaded matrix of the corpus when its file is missing or behind by enough (the end of an import). */
export function persistMatrices(db: Db, state: ContextState, corpus: string, modelId: string): void {
  persistMatrix(db, state, corpus, modelId);
}
