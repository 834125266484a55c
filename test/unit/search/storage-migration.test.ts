import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../src/core/context';
import { allMigrations } from '../../../src/core/schema';
import { openDatabase, DB_FILE_NAME, tableSizes } from '../../../src/core/store/db';
import { corpusTag, indexItems, lexicalSearch, scopeTag } from '../../../src/core/search/lexical';
import { lexicalIndex } from '../../../src/core/search/lexical-index';
import { segmentItems } from '../../../src/core/search/tokens';
import { resolveTexts } from '../../../src/core/search/texts';
import { ANGUI, WENGUI, insertRegulation } from './fixtures';
import { fromBlob, storeVectors, vectorTopK } from '../../../src/core/search/vectors';
import { loadMatrix } from '../../../src/core/search/vector-index';
import { invokeOperation } from '../../../src/core/api/invoke';
import { mulberry32 } from '../../../scripts/lib/prng';
import { tempDir } from '../../helpers';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const DIMS = 256;
const N = 600;
const rand = mulberry32(29);
const unit = () => {
  const v = Float32Array.from({ length: DIMS }, () => rand() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);

/**
 * A data dir as the previous release wrote it: search schema v4 (Float32 blobs in a WITHOUT ROWID
 * search_vectors) and every passage vector a second time in embedding_cache.
 */
function oldDataDir(): { dir: string; vectors: Map<number, Float32Array> } {
  const dir = tempDir('gridcode-old-layout-');
  dirs.push(dir);
  const old = allMigrations.filter((m) => !(m.domain === 'search' && m.version >= 5) && !(m.domain === 'core' && m.version >= 2) && m.domain !== 'regulations-text');
  const db = openDatabase(dir, old);
  indexItems(db, 'reg', Array.from({ length: N }, (_, i) => ({ key: `u${i}`, scope: `r${i % 7}`, text: `第${i}条 母线失压 处置 ${i}`, storeText: true })));
  const ids = (db.prepare('SELECT id FROM search_items ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  const vectors = new Map(ids.map((id) => [id, unit()]));
  const ins = db.prepare('INSERT INTO search_vectors (item_id, model_id, dims, vec) VALUES (?, ?, ?, ?)');
  const cache = db.prepare('INSERT INTO embedding_cache (model_id, text_hash, dims, vector) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const [id, v] of vectors) {
      const blob = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      ins.run(id, 'm1', DIMS, blob);
      cache.run('m1@x:cls', `h${id}`, DIMS, blob);
    }
  })();
  expect((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_vectors'").get() as { sql: string }).sql).toMatch(/WITHOUT ROWID/);
  db.close();
  return { dir, vectors };
}

describe('an old data dir migrates to compact vector storage and keeps working', () => {
  it('moves vectors to int8 codes in a rowid table, empties the duplicate cache, vacuums, and searches the same', async () => {
    const { dir, vectors } = oldDataDir();
    const before = fs.statSync(path.join(dir, DB_FILE_NAME)).size;
    const ctx = createAppContext({ dataDir: dir, modelsDir: tempDir('gridcode-no-models-') });
    try {
      const db = ctx.db;
      expect((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_vectors'").get() as { sql: string }).sql).not.toMatch(/WITHOUT ROWID/);
      expect((db.prepare('SELECT COUNT(*) AS n FROM embedding_cache').get() as { n: number }).n).toBe(0);
      const rows = db.prepare('SELECT item_id, dims, vec FROM search_vectors').all() as { item_id: number; dims: number; vec: Buffer }[];
      expect(rows).toHaveLength(N);
      for (const r of rows) {
        expect(r.vec.length).toBe(DIMS + 4);
        const back = fromBlob(r.vec, r.dims);
        expect(cosine(back, vectors.get(r.item_id)!)).toBeGreaterThan(0.9999);
        expect(Math.hypot(...back)).toBeCloseTo(1, 5); // still unit length: scores stay cosines
      }
      // the space came back: the file is a fraction of what it was
      const after = fs.statSync(path.join(dir, DB_FILE_NAME)).size;
      expect(after).toBeLessThan(before * 0.4);
      const sizes = tableSizes(db);
      expect(sizes.search_vectors).toBeLessThan(N * (DIMS + 4) * 1.5);

      // nearest neighbours are the same items as with the Float32 vectors
      const m = loadMatrix(db, ctx.state, 'reg', 'm1')!;
      for (const [id, v] of [...vectors].slice(0, 20)) expect(vectorTopK(m, v, 1)[0].id).toBe(id);
      // the change log still follows writes (triggers recreated), so a loaded matrix sees new vectors
      const first = [...vectors.keys()][0];
      const moved = unit();
      storeVectors(db, 'm1', [{ id: first, vector: moved }]);
      expect(vectorTopK(loadMatrix(db, ctx.state, 'reg', 'm1')!, moved, 1)[0].id).toBe(first);
      // and app.info reports the tables by size
      const info = await invokeOperation(ctx, 'app.info', { storage: true });
      expect(info.storage?.search_vectors).toBe(tableSizes(db).search_vectors);
      expect(Object.keys(info.storage ?? {})).toEqual(expect.arrayContaining(['search_items', 'search_vectors']));
      expect(Object.keys(info.storage ?? {})).not.toContain('search_fts');
      expect(info.data_dir_bytes).toBeGreaterThanOrEqual(after);
      expect(Object.keys(info.index_files ?? {}).length).toBeGreaterThan(0);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});

/**
 * A data dir as search schema v5 wrote it: every item's tokens a second time in an FTS5 table
 * (search_fts, with fts5vocab), and regulation profiles (corpus regmeta) with no stored text.
 */
function v5DataDir(): { dir: string; profileTokens: string } {
  const dir = tempDir('gridcode-fts-layout-');
  dirs.push(dir);
  const db = openDatabase(dir, allMigrations.filter((m) => !(m.domain === 'search' && m.version >= 6) && m.domain !== 'regulations-text'));
  indexItems(db, 'reg', Array.from({ length: N }, (_, i) => ({ key: `u${i}`, scope: `r${i % 7}`, title: `第${i % 9}章`, text: `第${i}条 母线失压 处置 ${i}，调度员应立即检查安控装置` })));
  indexItems(db, 'regmeta', [{ key: 'r1', scope: 'r1', title: '电网调度规程', text: '调度 规程 安控装置 稳定限额' }]);
  // v5 wrote no text for profiles and the segmented tokens of every item into search_fts
  db.prepare("UPDATE search_items SET text = NULL WHERE corpus = 'regmeta'").run();
  const rows = db.prepare('SELECT id, corpus, scope, title, text FROM search_items').all() as { id: number; corpus: string; scope: string; title: string | null; text: string | null }[];
  const tokens = segmentItems(rows.map((r) => (r.corpus === 'regmeta' ? { title: '电网调度规程', text: '调度 规程 安控装置 稳定限额' } : r)));
  const ins = db.prepare('INSERT INTO search_fts (rowid, tags, title, body) VALUES (?, ?, ?, ?)');
  db.transaction(() => rows.forEach((r, i) => ins.run(r.id, `${corpusTag(r.corpus)} ${scopeTag(r.corpus, r.scope)}`, tokens[i].title, tokens[i].body)))();
  const profileTokens = tokens[rows.findIndex((r) => r.corpus === 'regmeta')].body;
  db.close();
  return { dir, profileTokens };
}

describe('a data dir with the FTS5 copy of the tokens migrates to postings over the stored text', () => {
  it('drops search_fts and search_vocab, gives textless items the tokens as text, shrinks the file, and searches the same', async () => {
    const { dir, profileTokens } = v5DataDir();
    const before = fs.statSync(path.join(dir, DB_FILE_NAME)).size;
    const ctx = createAppContext({ dataDir: dir, modelsDir: tempDir('gridcode-no-models-') });
    try {
      const db = ctx.db;
      const names = (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'search_fts%' OR name = 'search_vocab'").all() as { name: string }[]).map((r) => r.name);
      expect(names).toEqual([]);
      expect(fs.statSync(path.join(dir, DB_FILE_NAME)).size).toBeLessThan(before);
      expect((db.prepare("SELECT text FROM search_items WHERE corpus = 'regmeta'").get() as { text: string }).text).toBe(profileTokens);
      expect((db.prepare('SELECT COUNT(*) AS n FROM search_items WHERE text IS NULL').get() as { n: number }).n).toBe(0);
      // the postings are rebuilt from the stored text and find what the FTS rows held
      const hit = lexicalSearch(db, { corpus: 'reg', scopes: ['r3'], query: '第10条 母线失压', k: 3 }).hits[0];
      expect(hit.key).toBe('u10');
      expect(lexicalSearch(db, { corpus: 'regmeta', query: '稳定限额', k: 3 }).hits.map((h) => h.key)).toEqual(['r1']);
      expect(lexicalIndex(db).live).toBe(N + 1);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});

describe('a data dir whose unit chunks carry a second copy of the unit text migrates to one copy, pages to a rowid table', () => {
  it('empties the copies, logs no change (the postings are not rebuilt), and the texts and searches stay', async () => {
    const dir = tempDir('gridcode-text-copy-');
    dirs.push(dir);
    const db = openDatabase(dir, allMigrations.filter((m) => m.domain !== 'regulations-text'));
    for (const r of [ANGUI, WENGUI]) insertRegulation(db, r);
    // as the previous release wrote them: every chunk with its text
    db.prepare("UPDATE search_items SET text = (SELECT u.text FROM reg_units u WHERE u.id = CAST(search_items.parent AS INTEGER)) WHERE corpus = 'reg' AND text IS NULL").run();
    const texts = new Map((db.prepare("SELECT id, text FROM search_items WHERE corpus = 'reg'").all() as { id: number; text: string }[]).map((r) => [r.id, r.text]));
    // profiles were indexed without their text
    const profiles = new Map((db.prepare("SELECT key, text FROM search_items WHERE corpus = 'regmeta'").all() as { key: string; text: string }[]).map((r) => [r.key, r.text]));
    expect(profiles.size).toBe(2);
    db.prepare("UPDATE search_items SET text = NULL WHERE corpus = 'regmeta'").run();
    expect([...texts.values()].every((t) => t.length > 0)).toBe(true);
    const logBefore = (db.prepare('SELECT MAX(seq) AS s FROM search_item_log').get() as { s: number }).s;
    const pages = db.prepare('SELECT reg_id, page_num, text FROM reg_pages ORDER BY reg_id, page_num').all();
    expect((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'reg_pages'").get() as { sql: string }).sql).toMatch(/WITHOUT ROWID/);
    db.close();
    const ctx = createAppContext({ dataDir: dir, modelsDir: tempDir('gridcode-no-models-') });
    try {
      // the migration logged nothing: an index file written before it stays current
      expect((ctx.db.prepare('SELECT MAX(seq) AS s FROM search_item_log').get() as { s: number }).s).toBe(logBefore);
      const x = lexicalIndex(ctx.db);
      const logMax = logBefore;
      const rows = ctx.db.prepare("SELECT id, corpus, parent, text FROM search_items WHERE corpus = 'reg'").all() as { id: number; corpus: string; parent: string; text: string | null }[];
      expect(rows.every((r) => r.text === null)).toBe(true);
      for (const r of resolveTexts(ctx.db, rows)) expect(r.text).toBe(texts.get(r.id));
      // the profiles have their text back, as indexing writes it
      for (const r of ctx.db.prepare("SELECT key, text FROM search_items WHERE corpus = 'regmeta'").all() as { key: string; text: string }[]) {
        expect(r.text).toBe(profiles.get(r.key));
      }
      expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '母线失压', k: 5 }).hits.length).toBeGreaterThan(0);
      expect(lexicalIndex(ctx.db)).toBe(x);
      // pages moved to a rowid table, the same rows
      expect((ctx.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'reg_pages'").get() as { sql: string }).sql).not.toMatch(/WITHOUT ROWID/);
      expect(ctx.db.prepare('SELECT reg_id, page_num, text FROM reg_pages ORDER BY reg_id, page_num').all()).toEqual(pages);
      expect(pages.length).toBeGreaterThan(0);
      expect(x.seq).toBe(logMax);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
