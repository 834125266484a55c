import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { configureLlm } from '../../../src/core/llm/client';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../fixtures/fake-llm-server';
import { tempContext } from '../../helpers';

/** The `llm` option of other engines' operations, end to end on the demo home. */
const KEY = 'sk-wiring-test-abcdef0123456789';

let server: FakeLlmServer;
let ctx: ReturnType<typeof tempContext>;

beforeAll(async () => {
  server = await startFakeLlmServer();
  ctx = tempContext();
  configureLlm(ctx, { apiKey: KEY, baseUrl: server.baseUrl });
  ctx.config.llm.retryBaseMs = 5;
  ctx.config.llm.parseTimeoutMs = 500;
});
afterAll(async () => {
  await server.close();
  await ctx.cleanup();
});
afterEach(() => server.reset());

const ids = (out: { results: { selected: { id: string }[] }[] }) => out.results.map((r) => r.selected.map((s) => s.id).sort());

describe('devices.retrieve { llm: true }', () => {
  it('uses the model reply and says so in meta', async () => {
    server.enqueue(reply.content('[{"a":"打开","s":null,"n":"老伙计","t":null,"q":"one","c":null}]'));
    const out = await invokeOperation(ctx, 'devices.retrieve', { utterance: '帮我把老伙计打开', llm: true });
    expect(out.results[0].meta.parser).toBe('llm');
    expect(out.results[0].selected.map((s) => s.name)).toEqual(['老伙计']);
    expect(server.requests[0].body.messages[0].content).toContain('客厅');
  });

  it('falls back to the rule parser on garbage, with the same selection as offline', async () => {
    const offline = await invokeOperation(ctx, 'devices.retrieve', { utterance: '关闭卧室的所有灯' });
    expect(offline.results[0].meta.parser).toBe('rules');
    expect(server.requests).toHaveLength(0);
    server.enqueue(reply.content('好的，我来帮你关灯！'));
    const out = await invokeOperation(ctx, 'devices.retrieve', { utterance: '关闭卧室的所有灯', llm: true });
    expect(out.results[0].meta.parser).toBe('rules-fallback');
    expect(out.results[0].meta.parser_error).toMatch(/大模型回复无效/);
    expect(ids(out)).toEqual(ids(offline));
  });

  it('with no key behaves as offline and makes no request', async () => {
    const saved = process.env.DASHSCOPE_API_KEY;
    delete process.env.DASHSCOPE_API_KEY;
    const bare = tempContext();
    try {
      const offline = await invokeOperation(bare, 'devices.retrieve', { utterance: '打开客厅的灯' });
      const asked = await invokeOperation(bare, 'devices.retrieve', { utterance: '打开客厅的灯', llm: true });
      expect(ids(asked)).toEqual(ids(offline));
      expect(asked.results[0].meta.parser).toBe('rules-fallback');
      expect(asked.results[0].meta.parser_error).toMatch(/DASHSCOPE_API_KEY/);
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.DASHSCOPE_API_KEY = saved;
      await bare.cleanup();
    }
  });
});
