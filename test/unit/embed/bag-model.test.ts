import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BagTokenizer, readBagFromFolder } from '../../../src/core/embed/bag-model';
import { invokeOperation } from '../../../src/core/api/invoke';
import { queryRowSolver } from '../../../src/core/embed/adapt';
import { segment } from '../../../src/core/text/segment';
import { fromBlob } from '../../../src/core/search/vectors';
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

      // conservative: a library word starts from what the base made of its pieces, so every chunk
      // stays close to its base vector, and chunks with new words do move
      const both = ctx.db
        .prepare('SELECT a.vec AS a, b.vec AS b, a.dims FROM search_vectors a JOIN search_vectors b ON b.item_id = a.item_id WHERE a.model_id = ? AND b.model_id = ?')
        .all(BAG_TEST_ID, out.model_id) as { a: Buffer; b: Buffer; dims: number }[];
      const cosines = both.map((r) => cosine(fromBlob(r.a, r.dims), fromBlob(r.b, r.dims)));
      expect(cosines.length).toBe(items);
      expect(Math.min(...cosines)).toBeGreaterThan(0.8);
      expect(cosines.filter((c) => c < 0.999).length).toBeGreaterThan(0);

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

  it('learns from confirmed hits: a word only questions use leads to the passage the user kept', async () => {
    const { ctx } = bagContext();
    try {
      await invokeOperation(ctx, 'regulations.import', { paths: [path.join(ctx.resourcesDir, 'regulations', 'wengui_2024')] });
      const lay = '老伙计'; // a nickname nobody writes in a regulation
      expect(segment(`我家${lay}冒烟了怎么办`)).toContain(lay);
      const before = await invokeOperation(ctx, 'search.smart_search', { query: lay, reg_id: 'all', top_k: 30, mode: 'vector' });
      const kept = before.results[before.results.length - 1]; // a passage vector search ranks low for it
      expect(before.results[0].unit_id).not.toBe(kept.unit_id);

      const first = await invokeOperation(ctx, 'search.confirm_hit', { query: `我家${lay}冒烟了怎么办`, unit_id: kept.unit_id });
      expect(first).toEqual({ unit_id: kept.unit_id, times: 1, total: 1 });
      const again = await invokeOperation(ctx, 'search.confirm_hit', { query: ` 我家${lay}冒烟了怎么办 `, unit_id: kept.unit_id });
      expect(again).toEqual({ unit_id: kept.unit_id, times: 2, total: 1 });
      await expect(invokeOperation(ctx, 'search.confirm_hit', { query: lay, unit_id: 99_999_999 })).rejects.toThrow(/已不在资料库中/);

      const out = await invokeOperation(ctx, 'models.adapt', {});
      expect(out.confirmed_pairs).toBe(1);
      expect(out.query_words).toBeGreaterThan(0);
      const adapted = readBagFromFolder(path.join(ctx.dataDir, 'models', out.model_id));
      expect(adapted.vocab).toContain(lay);
      // a new question with the same lay word now finds the kept passage first
      const after = await invokeOperation(ctx, 'search.smart_search', { query: lay, reg_id: 'all', top_k: 30, mode: 'vector' });
      expect(after.results[0].unit_id).toBe(kept.unit_id);
    } finally {
      await ctx.cleanup();
    }
  }, 120_000);

  it('places a question-only word so that its projected query vector hits the target (ridge solve)', () => {
    const D = 8;
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
    const proj = Float32Array.from({ length: D * D }, (_, i) => (i % (D + 1) === 0 ? 1 : 0) + rand());
    const target = Float64Array.from({ length: D }, () => rand());
    const v = queryRowSolver(proj, D)(target);
    const projected = Array.from({ length: D }, (_, j) => v.reduce((s, x, i) => s + x * proj[i * D + j], 0));
    // ridge (λ = 1e-3 of the mean diagonal) is a hair short of exact, never off in direction
    const norm = (a: ArrayLike<number>) => Math.sqrt(cosine(a, a));
    expect(cosine(projected, target) / (norm(projected) * norm(target))).toBeGreaterThan(0.999);
    expect(cosine(v, target) / (norm(v) * norm(target))).toBeLessThan(0.99); // the raw target would not do
  });

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
