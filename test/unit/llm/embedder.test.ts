import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureLlm } from '../../../src/core/llm/client';
import { createDashScopeEmbedder } from '../../../src/core/llm/embedder';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../fixtures/fake-llm-server';
import { tempContext } from '../../helpers';

let server: FakeLlmServer;
let ctx: ReturnType<typeof tempContext>;

beforeAll(async () => {
  server = await startFakeLlmServer();
  ctx = tempContext();
  ctx.config.llm.embedDims = 3;
  configureLlm(ctx, { apiKey: 'sk-embed-test-0123456789', baseUrl: server.baseUrl });
});
afterAll(async () => {
  await server.close();
  await ctx.cleanup();
});
afterEach(() => server.reset());

describe('DashScope embedder', () => {
  it('batches by 10, returns unit vectors in input order and caches repeats', async () => {
    // vector = [text length, index in batch, 1]: lets the test check order after normalisation
    server.setHandler((req) => reply.embeddings((req.body.input as string[]).map((t, i) => [t.length, i, 1])));
    const embedder = createDashScopeEmbedder(ctx);
    expect(embedder.status()).toMatchObject({ state: 'ready', model_id: 'dashscope/text-embedding-v4', dims: 3 });
    const texts = Array.from({ length: 23 }, (_, i) => '字'.repeat(i + 1));
    const vectors = await embedder.embed(texts, 'passage');
    expect(server.requests.map((r) => r.body.input.length)).toEqual([10, 10, 3]);
    expect(server.requests[0].body).toMatchObject({ model: 'text-embedding-v4', dimensions: 3 });
    vectors.forEach((v, i) => {
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      expect(v[0] / v[2]).toBeCloseTo(i + 1, 4); // length of text i
    });
    await embedder.embed([texts[0], texts[5]], 'passage');
    expect(server.requests).toHaveLength(3);
  });

  it('reports missing and rejects with MODEL_MISSING without a key', async () => {
    const saved = process.env.DASHSCOPE_API_KEY;
    delete process.env.DASHSCOPE_API_KEY;
    const bare = tempContext();
    try {
      const embedder = createDashScopeEmbedder(bare);
      expect(embedder.available()).toBe(false);
      expect(embedder.status().state).toBe('missing');
      await expect(embedder.embed(['x'], 'query')).rejects.toMatchObject({ code: 'MODEL_MISSING' });
    } finally {
      if (saved !== undefined) process.env.DASHSCOPE_API_KEY = saved;
      await bare.cleanup();
    }
  });

  it('fails clearly when the service returns the wrong number of vectors', async () => {
    server.enqueue(reply.embeddings([[1, 0, 0]]));
    await expect(createDashScopeEmbedder(ctx).embed(['甲', '乙'], 'query')).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringContaining('期望 2 个'),
    });
  });
});
