import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient, configureLlm, llmAvailable, parseRetryAfter, resolveLlmSettings } from '../../../src/core/llm/client';
import { extractJson } from '../../../src/core/llm/json';
import { redactSecrets } from '../../../src/core/llm/redact';
import { toErrorPayload } from '../../../src/core/common/errors';
import { reply, startLlmTestEnv, type FakeLlmServer } from '../../fixtures/fake-llm-server';
import { tempContext } from '../../helpers';

const KEY = 'sk-test-0123456789abcdefSECRET';

let server: FakeLlmServer;
let ctx: ReturnType<typeof tempContext>;

beforeAll(async () => {
  ({ server, ctx } = await startLlmTestEnv(KEY));
});
afterAll(async () => {
  await server.close();
  await ctx.cleanup();
});
afterEach(() => server.reset());

const client = (o: Parameters<typeof createLlmClient>[1] = {}) => createLlmClient(ctx, { retryBaseMs: 5, retryMaxMs: 50, ...o });

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string; details?: { kind: string; status?: number; attempts?: number } };
  }
  throw new Error('expected a failure');
}

describe('settings', () => {
  it('has no LLM without a key, and the app key wins over the environment', () => {
    const bare = tempContext();
    const saved = process.env.DASHSCOPE_API_KEY;
    try {
      delete process.env.DASHSCOPE_API_KEY;
      expect(llmAvailable(bare)).toBe(false);
      expect(() => createLlmClient(bare)).toThrow(/DASHSCOPE_API_KEY/);
      process.env.DASHSCOPE_API_KEY = 'sk-from-env-123456';
      expect(resolveLlmSettings(bare)).toMatchObject({ apiKey: 'sk-from-env-123456', keySource: 'env' });
      configureLlm(bare, { apiKey: 'sk-from-app-654321' });
      expect(resolveLlmSettings(bare)).toMatchObject({ apiKey: 'sk-from-app-654321', keySource: 'app' });
      expect(resolveLlmSettings(bare).baseUrl).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1');
    } finally {
      if (saved === undefined) delete process.env.DASHSCOPE_API_KEY;
      else process.env.DASHSCOPE_API_KEY = saved;
      void bare.cleanup();
    }
  });
});

describe('chat completions', () => {
  it('sends the model, messages and bearer key and returns the reply', async () => {
    server.enqueue(reply.content('你好'));
    const out = await client().chat({ model: 'qwen-flash', messages: [{ role: 'user', content: '嗨' }], jsonMode: true });
    expect(out.message.content).toBe('你好');
    expect(out.attempts).toBe(1);
    const req = server.requests[0];
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toMatchObject({ model: 'qwen-flash', stream: false, response_format: { type: 'json_object' } });
    expect(req.body.messages).toEqual([{ role: 'user', content: '嗨' }]);
    // the SDK's client fingerprint headers are not sent
    expect(Object.keys(req.headers).filter((h) => h.startsWith('x-stainless'))).toEqual([]);
  });

  it('accepts a tool call without type or id and with object arguments (lenient gateways)', async () => {
    server.enqueue({
      kind: 'json',
      status: 200,
      body: { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ function: { name: 'smart_search', arguments: { query: '母线' } } }] }, finish_reason: 'tool_calls' }] },
    });
    const out = await client().chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(out.message.tool_calls).toEqual([{ id: 'call_0', type: 'function', function: { name: 'smart_search', arguments: '{"query":"母线"}' } }]);
  });

  it('retries 429 honouring Retry-After, then succeeds', async () => {
    server.enqueue(reply.status(429, { error: { message: 'rate limited' } }, { 'Retry-After': '0' }), reply.content('ok'));
    const out = await client().chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(out.message.content).toBe('ok');
    expect(out.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('waits as long as Retry-After says (within retryMaxMs)', async () => {
    server.enqueue(reply.status(429, { error: { message: 'slow down' } }, { 'Retry-After': '1' }), reply.content('ok'));
    const started = Date.now();
    await client({ retryBaseMs: 1, retryMaxMs: 5000 }).chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('caps a long Retry-After at retryMaxMs', async () => {
    server.enqueue(reply.status(429, { error: { message: 'come back in an hour' } }, { 'Retry-After': '3600' }), reply.content('ok'));
    const started = Date.now();
    const out = await client({ retryMaxMs: 50 }).chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(out).toMatchObject({ message: { content: 'ok' }, attempts: 2 });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('backs off exponentially between retries', async () => {
    server.enqueue(reply.status(503), reply.status(502), reply.content('ok'));
    const started = Date.now();
    const out = await client({ retryBaseMs: 100, retryMaxMs: 5000 }).chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(out.attempts).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290); // 100 + 200
  });

  it('gives up after the bounded retries on 500 with a clear error', async () => {
    server.setHandler(() => reply.status(500, { error: { message: 'upstream exploded' } }));
    const e = await failure(client({ maxRetries: 2 }).chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    expect(e.code).toBe('LLM_UNAVAILABLE');
    expect(e.message).toMatch(/HTTP 500/);
    expect(e.message).toMatch(/upstream exploded/);
    expect(e.details).toMatchObject({ kind: 'http', status: 500, attempts: 3 });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 (a bad request stays bad)', async () => {
    server.setHandler(() => reply.status(400, { code: 'InvalidParameter', message: 'bad model' }));
    const e = await failure(client().chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    expect(e.message).toMatch(/HTTP 400.*InvalidParameter: bad model/);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a slow reply without retrying', async () => {
    server.enqueue(reply.content('late', { delayMs: 1500 }));
    const started = Date.now();
    const e = await failure(client({ timeoutMs: 200 }).chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    expect(e.details?.kind).toBe('timeout');
    expect(e.message).toMatch(/超时/);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(server.requests).toHaveLength(1);
  });

  it('is cancelled by the caller signal', async () => {
    server.enqueue(reply.content('late', { delayMs: 1500 }));
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const e = await failure(client().chat({ model: 'm', messages: [{ role: 'user', content: 'x' }], signal: abort.signal }));
    expect(e.code).toBe('CANCELLED');
  });

  it('reports a non-JSON body as a bad response', async () => {
    server.enqueue(reply.raw('<html>gateway</html>'));
    const e = await failure(client().chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    expect(e.details?.kind).toBe('bad_response');
  });

  it('never lets the key into errors, even when the server echoes it', async () => {
    server.setHandler((req) => reply.status(401, { error: { message: `Invalid key ${req.headers.authorization} (${KEY})` } }));
    const e = await failure(client().chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    const serialised = JSON.stringify(toErrorPayload(e)) + String(e) + e.message;
    expect(serialised).not.toContain(KEY);
    expect(serialised).not.toContain('0123456789abcdef');
    expect(e.message).toMatch(/HTTP 401/);
  });

  it('reports an unreachable server as a network failure after retries', async () => {
    const dead = tempContext();
    configureLlm(dead, { apiKey: KEY, baseUrl: 'http://127.0.0.1:9/v1' });
    try {
      const e = await failure(createLlmClient(dead, { maxRetries: 1, retryBaseMs: 1 }).chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
      expect(e.details).toMatchObject({ kind: 'network', attempts: 2 });
      expect(e.message).not.toContain(KEY);
    } finally {
      await dead.cleanup();
    }
  });
});

describe('streaming', () => {
  it('streams deltas and assembles split tool-call arguments', async () => {
    server.enqueue(reply.stream(['母线', '失压', '处理'], { toolCalls: [{ name: 'smart_search', arguments: { query: '母线失压', reg_id: 'all' } }] }));
    const deltas: string[] = [];
    const out = await client().chatStream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, (d) => deltas.push(d));
    expect(deltas).toEqual(['母线', '失压', '处理']);
    expect(out.message.content).toBe('母线失压处理');
    expect(out.finishReason).toBe('tool_calls');
    expect(out.message.tool_calls).toHaveLength(1);
    expect(JSON.parse(out.message.tool_calls![0].function.arguments)).toEqual({ query: '母线失压', reg_id: 'all' });
    expect(out.usage).toMatchObject({ total_tokens: 15 });
    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('is cancelled mid-stream by the caller signal', async () => {
    server.enqueue(reply.stream(['a', 'b', 'c', 'd'], { chunkDelayMs: 200 }));
    const abort = new AbortController();
    const deltas: string[] = [];
    const e = await failure(
      client().chatStream({ model: 'm', messages: [{ role: 'user', content: 'x' }], signal: abort.signal }, (d) => {
        deltas.push(d);
        abort.abort();
      }),
    );
    expect(e.code).toBe('CANCELLED');
    expect(deltas).toEqual(['a']);
  });

  it('reports an error event inside a stream', async () => {
    server.enqueue(reply.raw('data: {"choices":[{"index":0,"delta":{"content":"半"}}]}\n\ndata: {"error":{"code":"DataInspectionFailed","message":"内容审核未通过"}}\n\n', 200, { 'Content-Type': 'text/event-stream' }));
    const e = await failure(client().chatStream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, () => {}));
    expect(e.code).toBe('LLM_UNAVAILABLE');
    expect(e.message).toMatch(/DataInspectionFailed: 内容审核未通过/);
  });

  it('falls back to one plain request when a gateway answers stream=true with plain JSON', async () => {
    // the gateway ignores stream=true both times: the second, non-streaming request reads it as a completion
    server.enqueue(reply.content('整段回答'));
    server.enqueue(reply.content('整段回答'));
    const deltas: string[] = [];
    const out = await client().chatStream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, (d) => deltas.push(d));
    expect(deltas).toEqual(['整段回答']);
    expect(out.message.content).toBe('整段回答');
    expect(server.requests.map((r) => (r.body as { stream?: boolean }).stream)).toEqual([true, false]);
  });

  it('does not repeat a request whose stream broke after text arrived', async () => {
    server.enqueue(reply.raw('data: {"choices":[{"index":0,"delta":{"content":"半"}}]}\n\ndata: not json\n\n', 200, { 'Content-Type': 'text/event-stream' }));
    const e = await failure(client().chatStream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, () => {}));
    expect(e.code).toBe('LLM_UNAVAILABLE');
    expect(server.requests).toHaveLength(1);
  });

  it('times out a stream that goes idle', async () => {
    server.enqueue(reply.stream(['a', 'b'], { chunkDelayMs: 800 }));
    const e = await failure(client({ timeoutMs: 300 }).chatStream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, () => {}));
    expect(e.details?.kind).toBe('timeout');
  });
});

describe('embeddings', () => {
  it('posts to /embeddings and returns vectors in input order', async () => {
    server.enqueue({
      kind: 'json',
      status: 200,
      body: { data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] },
    });
    const out = await client().embed(['甲', '乙'], { model: 'text-embedding-v4', dimensions: 2 });
    expect(out).toEqual([[1, 0], [0, 1]]);
    expect(server.requests[0]).toMatchObject({ path: '/v1/embeddings', body: { model: 'text-embedding-v4', input: ['甲', '乙'], dimensions: 2 } });
  });
});

describe('helpers', () => {
  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('redacts known and key-shaped secrets', () => {
    expect(redactSecrets('key=abcdef123456 end', ['abcdef123456'])).toBe('key=*** end');
    expect(redactSecrets('Authorization: Bearer sk-abcdefghijkl')).not.toContain('abcdefghijkl');
    expect(redactSecrets('api_key: "zzzzzzzzzz"')).not.toContain('zzzzzzzzzz');
    expect(redactSecrets('{"api_key":"zzzzzzzzzz"} apikey=yyyyyyyyyy')).toBe('{"api_key":"***"} apikey=***');
    // ordinary prose about keys stays readable
    expect(redactSecrets('请在 API-key settings 页面填写')).toBe('请在 API-key settings 页面填写');
  });

  it('extracts JSON from fences and prose, and nothing from garbage', () => {
    expect(extractJson('[{"a":"打开"}]', 'array')).toEqual([{ a: '打开' }]);
    expect(extractJson('```json\n[{"a":"打开"}]\n```', 'array')).toEqual([{ a: '打开' }]);
    expect(extractJson('好的，结果如下：[{"a":"关闭","n":"灯]"}] 希望有帮助', 'array')).toEqual([{ a: '关闭', n: '灯]' }]);
    expect(extractJson('结果 {"description":"x","keywords":["a"]} 完', 'object')).toEqual({ description: 'x', keywords: ['a'] });
    expect(extractJson('{"a":"打开"}', 'array')).toEqual([{ a: '打开' }]);
    expect(extractJson('抱歉，我无法理解', 'array')).toBeUndefined();
    expect(extractJson('[1, 2', 'array')).toBeUndefined();
    expect(extractJson('', 'array')).toBeUndefined();
  });
});
