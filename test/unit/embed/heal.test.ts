import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../src/core/context';
import { invokeOperation } from '../../../src/core/api/invoke';
import { startVectorHeal } from '../../../src/core/app/startup';
import { tempDir } from '../../helpers';
import { testModelsDir, TEST_MODEL_ID } from '../../fixtures/model';

type Status = { state: string; message: string; vectors: { model_id: string; items: number; missing: number } | null };

let dataDir: string;
let docs: string;
let noModels: string;
beforeAll(() => {
  dataDir = tempDir('gridcode-heal-');
  docs = tempDir('gridcode-heal-docs-');
  noModels = tempDir('gridcode-no-models-');
  for (let i = 0; i < 4; i++) {
    const articles = Array.from({ length: 12 }, (_, a) => `第${a + 1}条 第${i}号规程第${a + 1}条：运行人员应当按规定巡视${['母线', '变压器', '断路器', '隔离开关'][a % 4]}并做好记录。`);
    fs.writeFileSync(path.join(docs, `规程${i}.md`), `# 第${i}号规程\n\n## 第一章 总则\n\n${articles.join('\n\n')}\n`);
  }
  fs.mkdirSync(path.join(docs, '集合'));
  fs.writeFileSync(path.join(docs, '集合', '菜谱.md'), '# 番茄炒蛋\n\n## 做法\n\n先炒鸡蛋，再炒番茄，最后合在一起。\n');
});
afterAll(() => {
  for (const d of [dataDir, docs, noModels]) fs.rmSync(d, { recursive: true, force: true });
});

describe('interrupted embedding heals', () => {
  it('chunks imported without their vectors: status says what is missing, the start-up heal finishes them', async () => {
    // an import whose embedding never ran (killed after the commit, or run without the model)
    const bare = createAppContext({ dataDir, modelsDir: noModels });
    await invokeOperation(bare, 'regulations.import', { paths: [docs] });
    await invokeOperation(bare, 'collections.import', { folder: path.join(docs, '集合'), name: 'recipes' });
    await bare.close();

    const ctx = createAppContext({ dataDir, modelsDir: testModelsDir() });
    try {
      const before = (await invokeOperation(ctx, 'models.status', {})) as Status;
      expect(before.state).toBe('ready');
      expect(before.vectors!.model_id).toBe(TEST_MODEL_ID);
      expect(before.vectors!.items).toBeGreaterThan(40);
      expect(before.vectors!.missing).toBe(before.vectors!.items);
      expect(before.message).toMatch(new RegExp(`${before.vectors!.missing} / ${before.vectors!.items} 条文本还没有向量`));
      // a re-import of the unchanged files does not hide the gap
      const again = (await invokeOperation(ctx, 'regulations.import', { paths: [docs] })) as { status: string }[];
      expect(again.every((r) => r.status === 'unchanged')).toBe(true);
      expect(((await invokeOperation(ctx, 'models.status', {})) as Status).vectors!.missing).toBeGreaterThan(0);

      const added = await startVectorHeal(ctx);
      expect(added).toBe(before.vectors!.items);
      const after = (await invokeOperation(ctx, 'models.status', {})) as Status;
      expect(after.vectors).toMatchObject({ items: before.vectors!.items, missing: 0 });
      expect(after.message).not.toMatch(/没有向量/);
      // the healed vectors serve a vector-only search
      const hits = (await invokeOperation(ctx, 'search.smart_search', { query: '巡视母线并做好记录', mode: 'vector' })) as { results: unknown[] };
      expect(hits.results.length).toBeGreaterThan(0);
    } finally {
      await ctx.close();
    }
  });

  it('an embedding run stopped part-way (as a killed `models embed` / `models adapt`) leaves a gap the heal closes', async () => {
    const ctx = createAppContext({ dataDir, modelsDir: testModelsDir() });
    try {
      // drop the vectors of two regulations, then stop a re-run after its first regulation
      ctx.db.prepare("DELETE FROM search_vectors WHERE item_id IN (SELECT id FROM search_items WHERE corpus = 'reg' AND scope IN (SELECT reg_id FROM regulations ORDER BY reg_id LIMIT 2))").run();
      const stop = new AbortController();
      await expect(
        invokeOperation(ctx, 'models.embed_library', {}, { signal: stop.signal, progress: () => stop.abort() }),
      ).rejects.toMatchObject({ code: 'CANCELLED' });
      const partial = (await invokeOperation(ctx, 'models.status', {})) as Status;
      expect(partial.vectors!.missing).toBeGreaterThan(0);
      expect(partial.vectors!.missing).toBeLessThan(partial.vectors!.items);
      await startVectorHeal(ctx);
      expect(((await invokeOperation(ctx, 'models.status', {})) as Status).vectors!.missing).toBe(0);
      // nothing missing: the heal does no work
      expect(await startVectorHeal(ctx)).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
