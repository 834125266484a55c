import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../src/core/context';
import { invokeOperation } from '../../../src/core/api/invoke';
import type { LocalEmbedder } from '../../../src/core/embed/create';
import { lexicalIndex } from '../../../src/core/search/lexical-index';
import { loadMatrix } from '../../../src/core/search/vector-index';
import { REG_CORPUS } from '../../../src/core/regulations/search-index';
import { tempDir } from '../../helpers';
import { BAG_TEST_ID, makeBagWeights, writeBagTestModel } from '../../fixtures/bag-model';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

const article = (n: number, body: string) => `## 第${n}条\n\n第${n}条 ${body}\n`;
const regulation = (changed: string) =>
  [
    '# 变电站运行规程\n',
    article(1, '变压器保护动作跳闸后，调度员应立即通知运维人员检查一次设备。'),
    article(2, '母线失压时，值班人员应检查母线保护动作情况，断开失压母线上的全部断路器。'),
    article(3, changed),
    article(4, '调度员应核对保护动作信号，记录时间并报告值班负责人。'),
  ].join('\n');

describe('an import keeps the search indexes current and re-embeds only what changed', () => {
  it('writes index files the next process loads (no rebuild), and a changed file keeps the vectors of unchanged chunks', async () => {
    const modelsDir = temp('gridcode-bag-models-');
    writeBagTestModel(modelsDir, makeBagWeights());
    const dataDir = temp('gridcode-import-indexes-');
    const docs = temp('gridcode-import-docs-');
    const file = path.join(docs, '变电站运行规程.md');
    fs.writeFileSync(file, regulation('变压器油温超过限值时，应立即降低负荷并报告调度。'));

    const ctx = createAppContext({ dataDir, modelsDir });
    try {
      const [first] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
      expect(first.status).toBe('imported');
      const chunks = (ctx.db.prepare("SELECT COUNT(*) AS n FROM search_items WHERE corpus = 'reg'").get() as { n: number }).n;
      const embedded = (ctx.embedder() as LocalEmbedder).stats().texts_embedded;
      expect(embedded).toBe(chunks);
      // the index files are written by the import itself, before any search
      const files = fs.readdirSync(path.join(dataDir, 'index'));
      expect(files.some((f) => f.startsWith('lexical-'))).toBe(true);
      expect(files.some((f) => f.startsWith('vectors-'))).toBe(true);

      // the same file with one article changed: only that article is embedded again
      fs.writeFileSync(file, regulation('主变压器冷却器全停时，应在规定时间内恢复冷却器运行。'));
      const [second] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
      expect(second.status).toBe('replaced');
      expect((ctx.embedder() as LocalEmbedder).stats().texts_embedded - embedded).toBe(1);
      const vectors = (ctx.db.prepare("SELECT COUNT(*) AS n FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = 'reg'").get() as { n: number }).n;
      expect(vectors).toBe(chunks);
      // in this process the loaded indexes already hold the new article
      const hits = await invokeOperation(ctx, 'search.smart_search', { query: '冷却器全停', reg_id: 'all' });
      expect(hits.results[0]?.snippet ?? '').toContain('冷却器');
    } finally {
      await ctx.close();
    }

    // the next process (the desktop app after a CLI import) reads both indexes from their files
    const next = createAppContext({ dataDir, modelsDir });
    try {
      expect(lexicalIndex(next.db).source).toBe('file');
      const m = loadMatrix(next.db, next.state, REG_CORPUS, BAG_TEST_ID)!;
      expect(m.source).toBe('file');
      expect(m.live).toBe((next.db.prepare('SELECT COUNT(*) AS n FROM search_vectors').get() as { n: number }).n);
    } finally {
      await next.close();
    }
  }, 120_000);

  it('a folder import embeds while later files are written: every chunk gets its vector, a failing file in between loses none', async () => {
    const modelsDir = temp('gridcode-bag-models-');
    writeBagTestModel(modelsDir, makeBagWeights());
    const dataDir = temp('gridcode-import-ahead-');
    const docs = temp('gridcode-import-ahead-docs-');
    const bodies = ['变压器油温超过限值时，应立即降低负荷。', '母线失压时应检查保护动作情况。', '电缆沟内应保持清洁，不得堆放杂物。'];
    for (let i = 0; i < 12; i++) {
      // the fifth file has no text: it fails (BAD_FILE) while the files before it are still being embedded
      fs.writeFileSync(path.join(docs, `规程${String(i).padStart(2, '0')}.md`), i === 4 ? '   \n' : `# 规程${i}\n\n${article(1, bodies[i % 3])}\n${article(2, `第${i}号规程的附加条款。`)}`);
    }
    const ctx = createAppContext({ dataDir, modelsDir });
    try {
      const results = await invokeOperation(ctx, 'regulations.import', { paths: [docs] });
      expect(results.filter((r) => r.status === 'imported')).toHaveLength(11);
      expect(results.filter((r) => r.status === 'failed').map((r) => r.error_code)).toEqual(['BAD_FILE']);
      expect(results.every((r) => !r.warning)).toBe(true);
      const count = (sql: string) => (ctx.db.prepare(sql).get() as { n: number }).n;
      const chunks = count("SELECT COUNT(*) AS n FROM search_items WHERE corpus = 'reg'");
      expect(chunks).toBeGreaterThanOrEqual(22);
      expect(count("SELECT COUNT(*) AS n FROM search_vectors v JOIN search_items i ON i.id = v.item_id WHERE i.corpus = 'reg'")).toBe(chunks);
      // the loaded matrix followed every stored vector
      expect(loadMatrix(ctx.db, ctx.state, REG_CORPUS, BAG_TEST_ID)!.live).toBe(chunks);
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
