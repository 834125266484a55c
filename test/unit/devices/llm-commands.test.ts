import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commandSystemPrompt, createLlmCommandParser, parseCommandsWithLlm } from '../../../src/core/devices/llm-commands';
import { normalizeHome } from '../../../src/core/devices/home';
import { parseRules } from '../../../src/core/devices/parser';
import { retrieve } from '../../../src/core/devices/retrieve';
import { reply, startLlmTestEnv, type FakeLlmServer } from '../../fixtures/fake-llm-server';
import { tempContext } from '../../helpers';

const KEY = 'sk-parse-test-abcdef0123456789';

const { home } = normalizeHome({
  rooms: ['客厅', '主卧', '次卧', '厨房'],
  devices: [
    { id: 'fan1', name: '老伙计', room: '客厅', type: 'fan', commands: [{ id: 'on', description: '打开设备' }] },
    { id: 'l1', name: '主卧吸顶灯', room: '主卧', type: 'light', commands: [{ id: 'on', description: '打开设备' }, { id: 'off', description: '关闭设备' }] },
    { id: 'l2', name: '次卧台灯', room: '次卧', type: 'light', commands: [{ id: 'off', description: '关闭设备' }] },
    { id: 'l3', name: '客厅主灯', room: '客厅', type: 'light', commands: [{ id: 'off', description: '关闭设备' }] },
  ],
});

let server: FakeLlmServer;
let ctx: ReturnType<typeof tempContext>;

beforeAll(async () => {
  ({ server, ctx } = await startLlmTestEnv(KEY, { parseTimeoutMs: 2000, retryBaseMs: 5 }));
});
afterAll(async () => {
  await server.close();
  await ctx.cleanup();
});
afterEach(() => server.reset());

const MODEL_ARRAY = '[{"a":"关闭","s":"主卧、次卧","n":null,"t":"light","q":"all","c":null}]';
const TEXT = '关闭所有卧室的灯';

describe('LLM command parsing', () => {
  it('uses the devices engine prompt with the home rooms and the model parse model', async () => {
    server.enqueue(reply.content(MODEL_ARRAY));
    const out = await parseCommandsWithLlm(ctx, TEXT, home);
    expect(out.parser).toBe('llm');
    expect(out.error).toBeNull();
    expect(out.commands).toEqual([expect.objectContaining({ a: '关闭', s: '主卧、次卧', t: 'light', q: 'all' })]);
    const body = server.requests[0].body;
    expect(body.model).toBe(ctx.config.llm.parseModel);
    expect(body.messages[0]).toEqual({ role: 'system', content: commandSystemPrompt(home) });
    expect(body.messages[0].content).toContain('主卧、次卧');
    expect(body.messages[1]).toEqual({ role: 'user', content: TEXT });
  });

  it('accepts fenced JSON and prose around the array', async () => {
    server.enqueue(reply.content('```json\n' + MODEL_ARRAY + '\n```'));
    expect((await parseCommandsWithLlm(ctx, TEXT, home)).parser).toBe('llm');
    server.enqueue(reply.content(`好的，解析结果如下：\n${MODEL_ARRAY}\n以上。`));
    const prose = await parseCommandsWithLlm(ctx, TEXT, home);
    expect(prose.parser).toBe('llm');
    expect(prose.commands[0].s).toBe('主卧、次卧');
  });

  it('keeps several commands in spoken order', async () => {
    server.enqueue(reply.content('[{"a":"打开","n":"老伙计"},{"a":"关闭","s":"客厅","t":"light"}]'));
    const out = await parseCommandsWithLlm(ctx, '打开老伙计然后关闭客厅灯', home);
    expect(out.commands.map((c) => [c.a, c.n, c.s])).toEqual([
      ['打开', '老伙计', null],
      ['关闭', null, '客厅'],
    ]);
  });

  it.each([
    ['garbage', reply.content('抱歉，我不太明白你的意思。'), /无效/],
    ['empty', reply.content(''), /无效/],
    ['null content', reply.content(null), /无效/],
    ['wrong shape', reply.content('[{"action":"open"}]'), /无效/],
    ['HTTP 500', reply.status(500), /HTTP 500/],
    ['slow', reply.content(MODEL_ARRAY, { delayMs: 5000 }), /超时/],
  ])('falls back to the rule parser on %s', async (_name, scripted, why) => {
    server.setHandler(() => scripted);
    const out = await parseCommandsWithLlm(ctx, TEXT, home);
    expect(out.parser).toBe('rules-fallback');
    expect(out.error).toMatch(why);
    expect(out.commands).toEqual(parseRules(TEXT, home));
    expect(out.error).not.toContain(KEY);
  });

  it('exposes the outcome of the last call; resolves with rules in onFailure=rules mode', async () => {
    const parse = createLlmCommandParser(ctx, { onFailure: 'rules' });
    server.enqueue(reply.content('[{"a":"打开","n":"老伙计"}]'));
    expect(await parse('打开老伙计', home)).toEqual([expect.objectContaining({ a: '打开', n: '老伙计' })]);
    expect(parse.lastOutcome?.parser).toBe('llm');
    server.enqueue(reply.content('不是 JSON'));
    expect(await parse('打开老伙计', home)).toEqual(parseRules('打开老伙计', home));
    expect(parse.lastOutcome?.parser).toBe('rules-fallback');
  });

  it('plugs into the devices engine retrieve(): meta says which parser produced the result', async () => {
    const state = () => ({ version: 1 as const, turn: 0, last_mentioned: [], pending: null });
    // The model understood 老伙计 as a name; the device is selected from its command.
    server.enqueue(reply.content('[{"a":"打开","s":null,"n":"老伙计","t":null,"q":"one","c":null}]'));
    const viaLlm = await retrieve('把我的老伙计开一下', home, state(), { parseCommands: createLlmCommandParser(ctx) });
    expect(viaLlm[0].meta.parser).toBe('llm');
    expect(viaLlm[0].selected.map((s) => s.id)).toEqual(['fan1']);

    // Garbage: retrieve falls back to the rule parser and records why.
    server.enqueue(reply.content('我听不懂'));
    const fallback = await retrieve(TEXT, home, state(), { parseCommands: createLlmCommandParser(ctx) });
    const offline = await retrieve(TEXT, home, state());
    expect(fallback[0].meta.parser).toBe('rules-fallback');
    expect(fallback[0].meta.parser_error).toMatch(/大模型回复无效/);
    expect(fallback.map((r) => r.selected.map((s) => s.id))).toEqual(offline.map((r) => r.selected.map((s) => s.id)));
    expect(offline[0].meta.parser).toBe('rules');
  });

  it('behaves exactly as offline with no key and makes no request', async () => {
    const saved = process.env.DASHSCOPE_API_KEY;
    delete process.env.DASHSCOPE_API_KEY;
    const offline = tempContext();
    try {
      const out = await parseCommandsWithLlm(offline, TEXT, home);
      expect(out).toMatchObject({ parser: 'rules-fallback', reply: null });
      expect(out.error).toMatch(/DASHSCOPE_API_KEY/);
      expect(out.commands).toEqual(parseRules(TEXT, home));
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.DASHSCOPE_API_KEY = saved;
      await offline.cleanup();
    }
  });
});
