import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMatch, indexItems, lexicalSearch, removeItems, corpusVersion } from '../../../src/core/search/lexical';
import { storeVectors, vectorTopK } from '../../../src/core/search/vectors';
import { loadMatrix } from '../../../src/core/search/vector-index';
import { tempContext } from '../../helpers';

const ctx = tempContext();
afterAll(() => ctx.cleanup());

beforeAll(() => {
  indexItems(ctx.db, 'col:demo', [
    { key: 'r1#0', parent: 'r1', title: '红烧肉', text: '五花肉切块，冰糖炒糖色，小火慢炖一小时。', storeText: true },
    { key: 'r2#0', parent: 'r2', title: '番茄炒蛋', text: '鸡蛋打散炒熟，番茄切块下锅翻炒。', storeText: true },
  ]);
  indexItems(ctx.db, 'reg', [
    { key: '1', scope: 'angui', title: '第五章 故障处理', text: '500kV母线失压时，值班调度员应立即检查安控装置投退情况。' },
    { key: '2', scope: 'angui', title: '第六章 N-1', text: '发生N-1故障后，220kV线路潮流应控制在稳定限额以内。' },
    { key: '3', scope: 'wengui', title: '第二章 稳定限额', text: '特高压交流联络线的稳定限额按照年度方式执行。' },
  ]);
});

describe('lexical index', () => {
  it('finds 2-character words and mixed terms', () => {
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '失压', k: 5 }).hits.map((h) => h.key)).toEqual(['1']);
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '投退', k: 5 }).hits.map((h) => h.key)).toEqual(['1']);
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: 'N-1', k: 5 }).hits[0].key).toBe('2');
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '５００ＫＶ', k: 5 }).hits.map((h) => h.key)).toEqual(['1']);
  });

  it('keeps corpora and scopes apart', () => {
    expect(lexicalSearch(ctx.db, { corpus: 'col:demo', query: '母线', k: 5 }).hits).toEqual([]);
    const r = lexicalSearch(ctx.db, { corpus: 'reg', scopes: ['wengui'], query: '稳定限额', k: 5 });
    expect(r.hits.map((h) => h.key)).toEqual(['3']);
    const both = lexicalSearch(ctx.db, { corpus: 'reg', query: '稳定限额', k: 5 });
    expect(both.hits.map((h) => h.key).sort()).toEqual(['2', '3']);
    const recipe = lexicalSearch(ctx.db, { corpus: 'col:demo', query: '番茄', k: 5 });
    expect(recipe.hits[0]).toMatchObject({ key: 'r2#0', parent: 'r2', title: '番茄炒蛋' });
  });

  it('reports matched terms and idf-weighted evidence', () => {
    const r = lexicalSearch(ctx.db, { corpus: 'reg', query: '母线失压 天气', k: 5 });
    expect(r.hits[0].matched.sort()).toEqual(['失压', '母线']);
    expect(r.hits[0].evidence).toBeGreaterThan(0.3);
    expect(r.hits[0].evidence).toBeLessThan(1);
    expect(r.hits[0].bm25).toBeLessThan(0);
  });

  it('never throws or injects on FTS5-hostile queries', () => {
    const hostile = ['"', '""', 'AND(', 'OR', 'NOT 母线', '母线*', '-失压', 'NEAR(母线 失压)', 'body:母线', 'tags : x', '{title body}:', "'; DROP TABLE search_items; --", '^母线', '(((', '*', '', '   ', '\u0000'];
    for (const q of hostile) {
      expect(() => lexicalSearch(ctx.db, { corpus: 'reg', query: q, k: 5 }), q).not.toThrow();
    }
    // operators are plain words: '-失压' still finds the 失压 unit, NOT does not exclude
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '-失压', k: 5 }).hits.map((h) => h.key)).toEqual(['1']);
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: 'NOT 母线', k: 5 }).hits.map((h) => h.key)).toContain('1');
    expect(buildMatch(['a"b'])).toBe('"a""b"');
    expect(buildMatch([])).toBeNull();
    expect((ctx.db.prepare('SELECT COUNT(*) AS n FROM search_items').get() as { n: number }).n).toBe(5);
  });

  it('removes a scope and bumps the corpus version', () => {
    const v = corpusVersion(ctx.db, 'reg');
    indexItems(ctx.db, 'reg', [{ key: '9', scope: 'tmp', text: '临时条文 母线' }]);
    expect(removeItems(ctx.db, 'reg', { scope: 'tmp' })).toBe(1);
    expect(corpusVersion(ctx.db, 'reg')).toBe(v + 2);
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '临时条文', k: 5 }).hits).toEqual([]);
  });
});

describe('vector store', () => {
  it('stores unit vectors and returns exact cosine top-k, per scope too', () => {
    const ids = (ctx.db.prepare("SELECT id, key FROM search_items WHERE corpus = 'reg' ORDER BY key").all() as { id: number; key: string }[]);
    const vecs = [new Float32Array([1, 0, 0]), new Float32Array([0.6, 0.8, 0]), new Float32Array([0, 0, 2])];
    storeVectors(ctx.db, 'test-model', ids.map((r, i) => ({ id: r.id, vector: vecs[i] })));
    const m = loadMatrix(ctx.db, ctx.state, 'reg', 'test-model')!;
    expect(m.dims).toBe(3);
    expect(m.ids.length).toBe(3);
    const hits = vectorTopK(m, new Float32Array([1, 0.1, 0]), 2);
    expect(hits.map((h) => h.id)).toEqual([ids[0].id, ids[1].id]);
    expect(hits[0].score).toBeCloseTo(1 / Math.sqrt(1.01), 5);
    expect(vectorTopK(m, new Float32Array([1, 0, 0]), 5, ['wengui']).map((h) => h.id)).toEqual([ids[2].id]);
    expect(loadMatrix(ctx.db, ctx.state, 'reg', 'test-model')).toBe(m);
  });
});
