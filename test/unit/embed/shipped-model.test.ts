import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import type { LocalEmbedder } from '../../../src/core/embed/create';
import { projectRoot } from '../../../src/core/common/paths';
import { tempContext } from '../../helpers';

// the suite hides the bundled models (vitest.config.ts); this file uses the real models/ folder
const shipped = () => tempContext({ modelsDir: path.join(projectRoot(), 'models') });

/**
 * The model that ships in models/ (gridcode-zh-v1) is what a fresh install uses: no download, no
 * setting. Every engine that calls ctx.embedder() gets it.
 */
describe('shipped model gridcode-zh-v1 is the default', () => {
  it('is ready out of the box, listed, and semantic (a lay question is nearer its article)', async () => {
    const ctx = shipped();
    try {
      const status = ctx.embedder().status();
      expect(status).toMatchObject({ state: 'ready', model_id: 'gridcode-zh-v1', dims: 256 });
      expect(status.message).toContain('混合');
      const list = await invokeOperation(ctx, 'models.list', {});
      expect(list.models.find((m) => m.id === 'gridcode-zh-v1')).toMatchObject({ state: 'installed', active: true, location: 'bundled' });

      const [q] = await ctx.embedder().embed(['家庭经营的个体户债务谁来还'], 'query');
      const [relevant, unrelated] = await ctx.embedder().embed(
        [
          '第二章 自然人 > 第五十六条\n第五十六条 个体工商户的债务，个人经营的，以个人财产承担；家庭经营的，以家庭财产承担；无法区分的，以家庭财产承担。',
          '第三章 航道保护 > 第二十八条\n第二十八条 在通航水域上建设桥梁等建筑物，应当符合通航标准和技术要求。',
        ],
        'passage',
      );
      const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
      expect(dot(q, relevant)).toBeGreaterThan(dot(q, unrelated) + 0.1);
    } finally {
      await ctx.cleanup();
    }
  }, 60_000);

  it('imports embed with it, search is hybrid, and the device engine, naming lint and collections use it', async () => {
    const ctx = shipped();
    try {
      await invokeOperation(ctx, 'regulations.import', { paths: [path.join(ctx.resourcesDir, 'regulations', 'wengui_2024')] });
      const vectors = (ctx.db.prepare("SELECT COUNT(*) AS n FROM search_vectors WHERE model_id = 'gridcode-zh-v1'").get() as { n: number }).n;
      expect(vectors).toBeGreaterThan(20);
      const search = await invokeOperation(ctx, 'search.smart_search', { query: '母线失压怎么处理', reg_id: 'all', top_k: 10 });
      expect(search.mode).toBe('hybrid');
      expect(search.results.length).toBeGreaterThan(0);

      const before = (ctx.embedder() as LocalEmbedder).stats().texts_embedded;
      await invokeOperation(ctx, 'devices.retrieve', { utterance: '把客厅的灯调暗一点' });
      expect((ctx.embedder() as LocalEmbedder).stats().texts_embedded).toBeGreaterThan(before);

      // the naming lint embeds device names with it too
      const beforeLint = (ctx.embedder() as LocalEmbedder).stats().texts_embedded;
      await invokeOperation(ctx, 'devices.lint', {});
      expect((ctx.embedder() as LocalEmbedder).stats().texts_embedded).toBeGreaterThan(beforeLint);

      const col = await invokeOperation(ctx, 'collections.import', { folder: path.join(ctx.resourcesDir, 'recipes'), name: 'recipes' });
      expect(col.vectors).toBeGreaterThan(0);
    } finally {
      await ctx.cleanup();
    }
  }, 120_000);
});
