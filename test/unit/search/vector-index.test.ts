import { describe, expect, it } from 'vitest';
import { INDEX_MIN_ROWS, binaryIndex, blobInto, cosineFor, matrixFrom, matrixFromInt8, toBlob, vectorTopK, warmVectors, type VectorMatrix } from '../../../src/core/search/vectors';
import { mulberry32 } from '../../../scripts/lib/prng';

function clustered(n: number, dims: number, seed = 3): VectorMatrix {
  const rand = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand());
  const centers = Array.from({ length: 200 }, () => Float32Array.from({ length: dims }, gauss));
  const data = new Float32Array(n * dims);
  const scopes: string[] = [];
  for (let r = 0; r < n; r++) {
    const c = centers[r % centers.length];
    let s = 0;
    for (let d = 0; d < dims; d++) s += (data[r * dims + d] = c[d] + gauss() + 0.3) ** 2;
    for (let d = 0; d < dims; d++) data[r * dims + d] /= Math.sqrt(s);
    const scope = `reg${r % 50}`;
    scopes.push(scope);
  }
  return matrixFrom('t', 't', dims, Int32Array.from({ length: n }, (_, i) => i + 1000), scopes, data);
}

describe('vector top-k with the binary prefilter', () => {
  const m = clustered(INDEX_MIN_ROWS + 10_000, 64);
  const rand = mulberry32(9);
  const queries = Array.from({ length: 20 }, () => {
    const row = Math.floor(rand() * m.ids.length);
    return Float32Array.from({ length: m.dims }, (_, d) => m.data[row * m.dims + d] + (rand() - 0.5) * 0.1);
  });

  it('finds nearly the same top 100 as the exact scan on a large matrix', () => {
    let recall = 0;
    for (const q of queries) {
      const exact = vectorTopK(m, q, 100, undefined, { exact: true });
      const approx = vectorTopK(m, q, 100);
      expect(approx).toHaveLength(100);
      // scores are exact cosines, sorted
      for (let i = 1; i < approx.length; i++) expect(approx[i - 1].score).toBeGreaterThanOrEqual(approx[i].score);
      expect(approx[0].id).toBe(exact[0].id);
      const got = new Set(approx.map((h) => h.id));
      recall += exact.filter((h) => got.has(h.id)).length / 100;
    }
    // ranking codes by Hamming distance (the earlier prefilter) reached 0.982 here
    expect(recall / queries.length).toBeGreaterThan(0.99);
  });

  it('keeps recall for query directions unlike any row (a question is not a passage)', () => {
    let recall = 0;
    for (let i = 0; i < 20; i++) {
      const q = Float32Array.from({ length: m.dims }, () => rand() - 0.5);
      const exact = vectorTopK(m, q, 100, undefined, { exact: true });
      const got = new Set(vectorTopK(m, q, 100).map((h) => h.id));
      recall += exact.filter((h) => got.has(h.id)).length / 100;
    }
    // ranking codes by Hamming distance: 0.90 even with 3,000 rows reranked; codes scored against the float query: 0.926
    expect(recall / 20).toBeGreaterThan(0.915);
  });

  it('never returns a deleted row (a hole) and finds rows of many scopes through the prefilter', () => {
    const q = queries[1];
    const exact = vectorTopK(m, q, 100, undefined, { exact: true });
    const holed = { ...m, ids: Int32Array.from(m.ids), binary: m.binary ? { ...m.binary } : undefined, live: m.live - 1 };
    const gone = exact[0].id;
    holed.ids[gone - 1000] = -1;
    const after = vectorTopK(holed, q, 100);
    expect(after.map((h) => h.id)).not.toContain(gone);
    expect(after[0].id).toBe(exact[1].id);
    const scopes = Array.from({ length: 40 }, (_, i) => `reg${i}`);
    const scoped = vectorTopK(m, q, 50, scopes);
    const scopedExact = vectorTopK(m, q, 50, scopes, { exact: true });
    expect(scoped.every((h) => scopes.includes(m.scopes[h.id - 1000]))).toBe(true);
    // most scopes go through a row mask: the exact scan over it is the unscoped one without the other scopes
    const inScopes = vectorTopK(m, q, 200, undefined, { exact: true }).filter((h) => scopes.includes(m.scopes[h.id - 1000]));
    expect(scopedExact.map((h) => h.id)).toEqual(inScopes.slice(0, 50).map((h) => h.id));
    const got = new Set(scoped.map((h) => h.id));
    expect(scopedExact.filter((h) => got.has(h.id)).length).toBeGreaterThanOrEqual(48);
  });

  it('scans exactly when the candidate rows are few (one scope)', () => {
    const q = queries[0];
    const scoped = vectorTopK(m, q, 10, ['reg3']);
    const exact = vectorTopK(m, q, 10, ['reg3'], { exact: true });
    expect(scoped).toEqual(exact);
    expect(scoped.every((h) => m.scopes[h.id - 1000] === 'reg3')).toBe(true);
  });
});

describe('a matrix whose rows are still in SQLite (opened from its index file)', () => {
  // the stored form of every row (int8 codes + scale, as search_vectors holds them)
  const full = clustered(INDEX_MIN_ROWS + 5_000, 64, 5);
  const blobs = new Map<number, Uint8Array>();
  full.ids.forEach((id, row) => blobs.set(id, toBlob(full.data.subarray(row * full.dims, (row + 1) * full.dims))));
  const q8 = { codes: new Int8Array(full.ids.length * full.dims), scales: new Float32Array(full.ids.length) };
  full.ids.forEach((id, row) => blobInto(blobs.get(id)!, full.dims, q8, row));
  const loaded = matrixFromInt8('t', 't', full.dims, Int32Array.from(full.ids), [...full.scopes], q8);
  const stored = () => loaded;
  const lazily = (gone: Set<number> = new Set()) => {
    const m = matrixFromInt8('t', 't', full.dims, Int32Array.from(full.ids), [...full.scopes], { codes: new Int8Array(full.ids.length * full.dims), scales: new Float32Array(full.ids.length) });
    m.binary = binaryIndex(stored());
    const asked: (number[] | null)[] = [];
    m.lazy = {
      loaded: new Uint8Array(full.ids.length),
      left: full.ids.length,
      fetch: (ids) => {
        asked.push(ids);
        return [...(ids ?? full.ids)].filter((id) => !gone.has(id)).map((id) => [id, blobs.get(id)!] as [number, Uint8Array]);
      },
    };
    return { m, asked };
  };
  const rand = mulberry32(11);
  const q = Float32Array.from({ length: full.dims }, () => rand() - 0.5);

  it('reads only the candidates the codes pick, and ranks exactly as the loaded matrix', () => {
    const { m, asked } = lazily();
    const hits = vectorTopK(m, q, 100);
    expect(hits).toEqual(vectorTopK(stored(), q, 100));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.length).toBeLessThan(full.ids.length / 5);
    expect(m.lazy!.left).toBe(full.ids.length - asked[0]!.length);
    // a scope's rows and cosines of given items come the same way
    expect(vectorTopK(m, q, 10, ['reg7'])).toEqual(vectorTopK(stored(), q, 10, ['reg7']));
    const some = [full.ids[3], full.ids[4000], full.ids[9999]];
    expect(cosineFor(m, q, some)).toEqual(cosineFor(stored(), q, some));
    // a few more searches, then the rest comes in one pass (no lookups per search for the process's life)
    for (let i = 0; i < 6 && m.lazy; i++) vectorTopK(m, Float32Array.from({ length: full.dims }, () => rand() - 0.5), 100);
    expect(m.lazy).toBeUndefined();
    expect(asked.at(-1)).toBeNull();
    warmVectors(m);
    expect(Buffer.compare(Buffer.from(m.q8!.codes.buffer), Buffer.from(q8.codes.buffer))).toBe(0);
  });

  it('turns a row deleted behind the file into a hole, never a zero vector', () => {
    const best = vectorTopK(stored(), q, 5, undefined, { exact: true });
    const { m } = lazily(new Set([best[0].id]));
    const hits = vectorTopK(m, q, 5);
    expect(hits.map((h) => h.id)).not.toContain(best[0].id);
    expect(hits[0].id).toBe(best[1].id);
    expect(m.live).toBe(full.ids.length - 1);
  });
});
