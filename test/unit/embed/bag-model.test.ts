import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BagTokenizer, readBagFromFolder } from '../../../src/core/embed/bag-model';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';
import { BAG_TEST_ID, bagReference, makeBagWeights, writeBagTestModel } from '../../fixtures/bag-model';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function bagContext() {
  const modelsDir = tempDir('gridcode-bag-');
  dirs.push(modelsDir);
  const weights = makeBagWeights();
  const modelDir = writeBagTestModel(modelsDir, weights);
  return { ctx: tempContext({ modelsDir }), weights, modelDir };
}

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

describe('GridCode embedding-bag model through transformers.js + onnxruntime-node', () => {
  it('reproduces the model maths for passages and [Q]-marked queries (tokenizer.json = the trainer tokenisation)', async () => {
    const { ctx, weights } = bagContext();
    try {
      const e = ctx.embedder();
      expect(e.status().model_id).toBe(BAG_TEST_ID);
      const tok = new BagTokenizer(weights.vocab, weights.pieceRegex);
      const texts = ['主变压器差动保护动作跳闸', '母线失压 10kV ABC', '调度员应立即通知运维人员，检查一次设备。', '①②特殊符号 ＡＢＣ ☃'];
      expect(tok.encode('变压器')).toEqual([weights.vocab.indexOf('变压器')]);
      expect(tok.encode('☃')).toEqual([1]); // unknown symbol -> [UNK], alone
      expect(tok.encode('①')).toEqual([weights.vocab.indexOf('1')]); // NFKC like tokenizer.json
      const passages = await e.embed(texts, 'passage');
      const queries = await e.embed(texts, 'query');
      texts.forEach((t, i) => {
        expect(cosine(passages[i], bagReference(weights, tok.encode(t), false))).toBeGreaterThan(0.9999);
        expect(cosine(queries[i], bagReference(weights, tok.encode(t), true))).toBeGreaterThan(0.9999);
      });
      // the query path really differs (projection + query weights)
      expect(cosine(passages[0], queries[0])).toBeLessThan(0.999);
    } finally {
      await ctx.cleanup();
    }
  });

  it('reads its weights back from the folder unchanged', () => {
    const { weights, modelDir, ctx } = bagContext();
    const back = readBagFromFolder(modelDir);
    expect(back.vocab).toEqual(weights.vocab);
    expect(back.dims).toBe(weights.dims);
    expect([...back.embQ8.slice(0, 100)]).toEqual([...weights.embQ8.slice(0, 100)]);
    expect([...back.wQuery]).toEqual([...weights.wQuery]);
    expect(back.pieceRegex).toBe(weights.pieceRegex);
    return ctx.cleanup();
  });
});

describe('models adapt / revert', () => {
  it('adds the library words, re-embeds with a new version, and reverts to the base', async () => {
    const { ctx, weights } = bagContext();
    try {
      const reg = path.join(ctx.resourcesDir, 'regulations', 'wengui_2024');
      await invokeOperation(ctx, 'regulations.import', { paths: [reg] });
      const items = (ctx.db.prepare("SELECT COUNT(*) AS n FROM search_items WHERE corpus = 'reg'").get() as { n: number }).n;
      expect(items).toBeGreaterThan(20);
      const vectorsOf = (id: string) => (ctx.db.prepare('SELECT COUNT(*) AS n FROM search_vectors WHERE model_id = ?').get(id) as { n: number }).n;
      expect(vectorsOf(BAG_TEST_ID)).toBe(items);

      const events: string[] = [];
      const out = await invokeOperation(ctx, 'models.adapt', {}, { progress: (e) => events.push(e.stage) });
      expect(out.model_id).toBe(`${BAG_TEST_ID}-lib1`);
      expect(out.base_id).toBe(BAG_TEST_ID);
      expect(out.new_words).toBeGreaterThan(10);
      expect(out.status.model_id).toBe(out.model_id);
      expect(vectorsOf(out.model_id)).toBe(items);
      expect(events).toContain('用新模型生成向量');
      // the adapted tokenizer knows a library word as one token that the base split into pieces
      const adapted = readBagFromFolder(path.join(ctx.dataDir, 'models', out.model_id));
      expect(adapted.vocab.length).toBe(weights.vocab.length + out.new_words);
      const word = out.examples[0];
      expect(new BagTokenizer(adapted.vocab, adapted.pieceRegex).encode(word)).toEqual([adapted.vocab.indexOf(word)]);
      expect(new BagTokenizer(weights.vocab, weights.pieceRegex).encode(word).length).toBeGreaterThan(1);

      const listed = await invokeOperation(ctx, 'models.list', {});
      expect(listed.active).toBe(out.model_id);
      const search = await invokeOperation(ctx, 'search.smart_search', { query: word, reg_id: 'all', top_k: 5 });
      expect(search.results.length).toBeGreaterThan(0);

      const back = await invokeOperation(ctx, 'models.revert', {});
      expect(back.model_id).toBe(BAG_TEST_ID);
      expect(ctx.embedder().status().model_id).toBe(BAG_TEST_ID);
      expect(back.vectors).toBe(0); // base vectors were kept

      const again = await invokeOperation(ctx, 'models.adapt', {});
      expect(again.model_id).toBe(`${BAG_TEST_ID}-lib2`);
    } finally {
      await ctx.cleanup();
    }
  }, 120_000);

  it('is cancellable and leaves no half-written model', async () => {
    const { ctx } = bagContext();
    try {
      await invokeOperation(ctx, 'regulations.import', { paths: [path.join(ctx.resourcesDir, 'regulations', 'wengui_2024')] });
      const controller = new AbortController();
      controller.abort();
      await expect(invokeOperation(ctx, 'models.adapt', {}, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
      const userDir = path.join(ctx.dataDir, 'models');
      const left = fs.existsSync(userDir) ? fs.readdirSync(userDir).filter((f) => f !== 'manifest.json') : [];
      expect(left).toEqual([]);
      expect(ctx.embedder().status().model_id).toBe(BAG_TEST_ID);
    } finally {
      await ctx.cleanup();
    }
  }, 60_000);

  it('refuses models it cannot adapt, in Chinese', async () => {
    const ctx = tempContext({ modelsDir: tempDir('gridcode-nomodel-') });
    try {
      await expect(invokeOperation(ctx, 'models.adapt', {})).rejects.toThrow(/没有可用的嵌入模型/);
      await expect(invokeOperation(ctx, 'models.revert', {})).rejects.toThrow(/不是按资料库调整的版本/);
    } finally {
      await ctx.cleanup();
    }
  });
});
