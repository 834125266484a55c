import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../src/core/context';
import { indexItems, removeItems } from '../../../src/core/search/lexical';
import { storeVectors, vectorTopK, warmVectors } from '../../../src/core/search/vectors';
import { loadMatrix } from '../../../src/core/search/vector-index';
import { indexDir } from '../../../src/core/search/index-file';
import { mulberry32 } from '../../../scripts/lib/prng';
import { tempContext, tempDir } from '../../helpers';

// A real data dir: the index file lives beside gridcode.sqlite, a second context plays the next process.
const ctx = tempContext();
afterAll(() => ctx.cleanup());
const DIMS = 16;
const rand = mulberry32(7);
const vec = () => Float32Array.from({ length: DIMS }, () => rand() - 0.5);
const idsOf = (scope: string) =>
  (ctx.db.prepare("SELECT id FROM search_items WHERE corpus = 'reg' AND scope = ? ORDER BY id").all(scope) as { id: number }[]).map((r) => r.id);

function addScope(scope: string, n: number): Map<number, Float32Array> {
  indexItems(ctx.db, 'reg', Array.from({ length: n }, (_, i) => ({ key: `${scope}-${i}`, scope, text: `条文 ${scope} ${i}` })));
  const out = new Map<number, Float32Array>();
  for (const id of idsOf(scope)) out.set(id, vec());
  storeVectors(ctx.db, 'm1', [...out].map(([id, vector]) => ({ id, vector })));
  return out;
}

let first: Map<number, Float32Array>;
beforeAll(() => {
  first = addScope('a', 300);
});

describe('persisted vector index', () => {
  it('is built from SQLite once, written to the data dir, and read from the file by the next process', async () => {
    const m = loadMatrix(ctx.db, ctx.state, 'reg', 'm1')!;
    expect(m.source).toBe('db');
    expect(m.live).toBe(300);
    const files = fs.readdirSync(indexDir(ctx.db)!);
    expect(files.filter((f) => f.endsWith('.bin'))).toHaveLength(1);
    const next = createAppContext({ dataDir: ctx.dataDir });
    try {
      const again = loadMatrix(next.db, next.state, 'reg', 'm1')!;
      expect(again.source).toBe('file');
      expect([...again.ids]).toEqual([...m.ids]);
      // the rows stay in search_vectors until a search needs them (a small matrix: the search reads all)
      expect(again.lazy?.left).toBe(300);
      const q = vec();
      expect(vectorTopK(again, q, 10)).toEqual(vectorTopK(m, q, 10));
      expect(again.lazy).toBeUndefined();
      warmVectors(again);
      expect([...again.q8!.codes]).toEqual([...m.q8!.codes]);
      expect([...again.q8!.scales]).toEqual([...m.q8!.scales]);
      expect(again.data).toHaveLength(0); // int8 rows in memory, as stored: no Float32 copy
    } finally {
      await next.close();
    }
  });

  it('follows new, replaced and deleted vectors row by row without reloading', () => {
    const m = loadMatrix(ctx.db, ctx.state, 'reg', 'm1')!;
    const added = addScope('b', 40);
    const [newId, newVec] = [...added][5];
    const after = loadMatrix(ctx.db, ctx.state, 'reg', 'm1')!;
    expect(after).toBe(m); // same object, updated in place
    expect(after.live).toBe(340);
    expect(vectorTopK(after, newVec, 1)[0]).toMatchObject({ id: newId });
    // a replaced vector (re-embed, adapted model) is searched with its new value
    const [oldId] = [...first][10];
    const moved = vec();
    storeVectors(ctx.db, 'm1', [{ id: oldId, vector: moved }]);
    expect(vectorTopK(loadMatrix(ctx.db, ctx.state, 'reg', 'm1')!, moved, 1)[0].id).toBe(oldId);
    // a deleted regulation leaves no hits behind, in full and in scoped scans
    removeItems(ctx.db, 'reg', { scope: 'b' });
    const gone = loadMatrix(ctx.db, ctx.state, 'reg', 'm1')!;
    expect(gone).toBe(m);
    expect(gone.live).toBe(300);
    const hits = vectorTopK(gone, newVec, 300);
    expect(hits).toHaveLength(300);
    expect(hits.some((h) => added.has(h.id))).toBe(false);
    expect(vectorTopK(gone, newVec, 5, ['b'])).toEqual([]);
  });

  it('rewrites the file after enough changes and prunes the change log behind it', async () => {
    addScope('c', 400);
    const m = loadMatrix(ctx.db, ctx.state, 'reg', 'm1')!;
    expect(m.live).toBe(700);
    const log = (ctx.db.prepare('SELECT COUNT(*) AS n FROM search_vector_log').get() as { n: number }).n;
    expect(log).toBeLessThan(10);
    const next = createAppContext({ dataDir: ctx.dataDir });
    try {
      const fromFile = loadMatrix(next.db, next.state, 'reg', 'm1')!;
      expect(fromFile.source).toBe('file');
      expect(fromFile.live).toBe(700);
      expect(fromFile.ids.length).toBe(700); // holes of the deleted scope were dropped
    } finally {
      await next.close();
    }
  });

  it('ignores a file that belongs to another database', async () => {
    const other = tempDir();
    const octx = createAppContext({ dataDir: other });
    try {
      indexItems(octx.db, 'reg', [{ key: 'x', scope: 'a', text: '别的库' }]);
      const id = (octx.db.prepare("SELECT id FROM search_items WHERE key = 'x'").get() as { id: number }).id;
      storeVectors(octx.db, 'm1', [{ id, vector: vec() }]);
      fs.mkdirSync(path.join(other, 'index'), { recursive: true });
      for (const f of fs.readdirSync(indexDir(ctx.db)!)) fs.copyFileSync(path.join(indexDir(ctx.db)!, f), path.join(other, 'index', f));
      const m = loadMatrix(octx.db, octx.state, 'reg', 'm1')!;
      expect(m.source).toBe('db');
      expect([...m.ids]).toEqual([id]);
    } finally {
      await octx.close();
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
