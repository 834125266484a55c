import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../src/core/context';
import { buildMatch, corpusTag, indexItems, lexicalSearch, quoteTerm, removeItems, scopeTag } from '../../../src/core/search/lexical';
import { lexicalIndex, persistLexicalIndex } from '../../../src/core/search/lexical-index';
import { segmentItems } from '../../../src/core/search/tokens';
import { resolveTexts } from '../../../src/core/search/texts';
import { queryTokens } from '../../../src/core/text/segment';
import { tempContext } from '../../helpers';
import { ANGUI, DIAODU, WENGUI, insertRegulation } from './fixtures';

// The in-memory BM25 must rank exactly like FTS5's bm25(0, 0.5, 1) over the same rows. The library
// keeps no FTS5 table since search schema v6; the reference here is a real FTS5 table built from the
// stored items' segmented title and text, with the corpus/scope tags the old table carried.
const ctx = tempContext();

function referenceFts(): void {
  ctx.db.exec(`DROP TABLE IF EXISTS ref_vocab; DROP TABLE IF EXISTS ref_fts;
    CREATE VIRTUAL TABLE ref_fts USING fts5(tags, title, body, tokenize = "unicode61 remove_diacritics 0 tokenchars '-._+'");
    INSERT INTO ref_fts(ref_fts, rank) VALUES ('rank', 'bm25(0.0, 0.5, 1.0)');
    CREATE VIRTUAL TABLE ref_vocab USING fts5vocab(ref_fts, 'row');`);
  const rows = resolveTexts(
    ctx.db,
    ctx.db.prepare('SELECT id, corpus, scope, parent, title, text FROM search_items ORDER BY id').all() as {
      id: number;
      corpus: string;
      scope: string;
      parent: string;
      title: string | null;
      text: string | null;
    }[],
  );
  const tokens = segmentItems(rows);
  const ins = ctx.db.prepare('INSERT INTO ref_fts (rowid, tags, title, body) VALUES (?, ?, ?, ?)');
  rows.forEach((r, i) => ins.run(r.id, `${corpusTag(r.corpus)} ${scopeTag(r.corpus, r.scope)}`, tokens[i].title, tokens[i].body));
}
afterAll(() => ctx.cleanup());
beforeAll(() => {
  for (const r of [ANGUI, WENGUI, DIAODU]) insertRegulation(ctx.db, r);
  indexItems(ctx.db, 'col:demo', [
    { key: 'r1', title: '母线 失压', text: '母线失压的家常处理：先检查电源。', storeText: true },
    { key: 'r2', title: '番茄炒蛋', text: '鸡蛋打散炒熟，番茄切块下锅翻炒。', storeText: true },
  ]);
});

const QUERIES = ['母线失压', '稳定限额 特高压', '安控装置投退', '调度员应立即检查', '故障 处理 原则', '番茄 母线'];

/** FTS5's own ranking of the same words over a corpus (and scopes): [rowid, bm25 score (higher better)]. */
function fts5(words: string[], corpus: string, scopes?: string[]): [number, number][] {
  const tags = scopes ? scopes.map((s) => scopeTag(corpus, s)) : [corpusTag(corpus)];
  const match = `tags : (${tags.map(quoteTerm).join(' OR ')}) AND {title body} : (${buildMatch(words)})`;
  referenceFts();
  return (ctx.db.prepare('SELECT rowid AS id, rank FROM ref_fts WHERE ref_fts MATCH ? ORDER BY rank, rowid').all(match) as { id: number; rank: number }[]).map((r) => [
    r.id,
    -r.rank,
  ]);
}

function expectSameRanking(words: string[], corpus: string, scopes?: string[]): void {
  const ours = lexicalIndex(ctx.db).search(words, 1000, [corpus], scopes);
  const theirs = fts5(words, corpus, scopes);
  expect(ours.map((h) => h.id)).toEqual(theirs.map(([id]) => id));
  ours.forEach((h, i) => expect(h.score).toBeCloseTo(theirs[i][1], 9));
}

describe('in-memory BM25 postings', () => {
  it('score every row exactly like FTS5 bm25 with the title at half weight, per corpus and scope', () => {
    for (const q of QUERIES) {
      const words = queryTokens(q);
      expectSameRanking(words, 'reg');
      expectSameRanking(words, 'reg', ['angui_2024']);
      expectSameRanking(words, 'col:demo');
    }
  });

  it('follow added, replaced and deleted rows, in this process and the next', async () => {
    const before = lexicalIndex(ctx.db);
    indexItems(ctx.db, 'reg', [
      { key: 'x1', scope: 'extra', title: '第一章', text: '母线失压后应立即汇报调度员。' },
      { key: 'x2', scope: 'extra', title: '第二章', text: '稳定限额由年度方式确定，特高压线路除外。' },
    ]);
    indexItems(ctx.db, 'reg', [{ key: 'x1', scope: 'extra', title: '第一章', text: '母线失压后应检查安控装置。' }]);
    expect(lexicalIndex(ctx.db)).toBe(before);
    for (const q of QUERIES) expectSameRanking(queryTokens(q), 'reg');
    expect(lexicalSearch(ctx.db, { corpus: 'reg', scopes: ['extra'], query: '安控装置', k: 5 }).hits.map((h) => h.key)).toEqual(['x1']);
    removeItems(ctx.db, 'reg', { scope: 'extra' });
    for (const q of QUERIES) expectSameRanking(queryTokens(q), 'reg');
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '年度方式确定', k: 50 }).hits.some((h) => h.scope === 'extra')).toBe(false);
    const next = createAppContext({ dataDir: ctx.dataDir });
    try {
      const other = lexicalIndex(next.db);
      expect(other).not.toBe(before);
      expect(other.source).toBe('file'); // the postings read back from the varint file
      for (const q of QUERIES) {
        const words = queryTokens(q);
        expect(other.search(words, 100, ['reg'])).toEqual(lexicalIndex(ctx.db).search(words, 100, ['reg']));
      }
    } finally {
      await next.close();
    }
  });

  it('decode a word from the file only when asked, and add to packed words, in the next process', async () => {
    lexicalIndex(ctx.db);
    persistLexicalIndex(ctx.db);
    const next = createAppContext({ dataDir: ctx.dataDir });
    try {
      const other = lexicalIndex(next.db);
      expect(other.source).toBe('file');
      // nothing decoded yet: opening scanned for word boundaries only
      expect(other.terms.size).toBe(0);
      expect(other.df('母线')).toBe(lexicalIndex(ctx.db).df('母线'));
      expect(other.terms.size).toBe(1);
      // rows added here append to words still packed ('失压') as well as to decoded ones ('母线')
      indexItems(next.db, 'reg', [{ key: 'y1', scope: 'more', title: '第三章', text: '母线失压时按稳定限额处理。' }]);
      const after = lexicalIndex(next.db);
      for (const q of QUERIES) expectSameRanking(queryTokens(q), 'reg');
      for (const q of QUERIES) {
        const words = queryTokens(q);
        expect(after.search(words, 100, ['reg'])).toEqual(lexicalIndex(ctx.db).search(words, 100, ['reg']));
      }
      removeItems(next.db, 'reg', { scope: 'more' });
    } finally {
      await next.close();
    }
  });

  it('count document frequencies like fts5vocab', () => {
    const idx = lexicalIndex(ctx.db);
    referenceFts();
    for (const w of ['母线', '失压', '稳定', '番茄', '不存在的词']) {
      const vocab = (ctx.db.prepare('SELECT doc FROM ref_vocab WHERE term = ?').get(w) as { doc: number } | undefined)?.doc ?? 0;
      expect(idx.df(w)).toBe(vocab);
    }
  });

  it('rebuild from the stored text alone (no index file, no tokens of this process) to the same postings', async () => {
    const here = lexicalIndex(ctx.db);
    fs.rmSync(path.join(ctx.dataDir, 'index'), { recursive: true, force: true });
    const next = createAppContext({ dataDir: ctx.dataDir });
    try {
      const rebuilt = lexicalIndex(next.db);
      expect(rebuilt.source).toBe('db');
      expect(rebuilt.live).toBe(here.live);
      expect(rebuilt.totalTokens).toBe(here.totalTokens);
      for (const q of QUERIES) {
        const words = queryTokens(q);
        expect(rebuilt.search(words, 100, ['reg'])).toEqual(here.search(words, 100, ['reg']));
        expect(rebuilt.search(words, 100, ['regmeta'])).toEqual(here.search(words, 100, ['regmeta']));
      }
    } finally {
      await next.close();
    }
  });
});
