import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { createAppContext } from '../../../src/core/context';
import { projectRoot } from '../../../src/core/common/paths';
import { configureLlm } from '../../../src/core/llm/client';
import { reply, startLlmTestEnv, type FakeLlmServer } from '../../fixtures/fake-llm-server';
import { tempContext, tempDir } from '../../helpers';

/** The `llm` option of other engines' operations, end to end on the demo home. */
const KEY = 'sk-wiring-test-abcdef0123456789';

let server: FakeLlmServer;
let ctx: ReturnType<typeof tempContext>;

beforeAll(async () => {
  ({ server, ctx } = await startLlmTestEnv(KEY, { retryBaseMs: 5, parseTimeoutMs: 3000 }));
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

describe('devices.parse { llm: true }', () => {
  it('returns the model commands, or the rules with the reason', async () => {
    server.enqueue(reply.content('```json\n[{"a":"关闭","s":"卧室","t":"light","q":"all"}]\n```'));
    const llm = await invokeOperation(ctx, 'devices.parse', { utterance: '关闭卧室所有的灯', llm: true });
    expect(llm.parser).toBe('llm');
    expect(llm.commands[0]).toMatchObject({ a: '关闭', s: '卧室', t: 'light', q: 'all' });
    expect(llm.prompt).toBe(server.requests[0].body.messages[0].content);

    server.enqueue(reply.status(500));
    server.enqueue(reply.status(500));
    const fallback = await invokeOperation(ctx, 'devices.parse', { utterance: '关闭卧室所有的灯', llm: true });
    const rules = await invokeOperation(ctx, 'devices.parse', { utterance: '关闭卧室所有的灯' });
    expect(fallback.parser).toBe('rules-fallback');
    expect(fallback.parser_error).toMatch(/HTTP 500/);
    expect(fallback.commands).toEqual(rules.commands);
    expect(rules.parser).toBe('rules');
  });
});

describe('llm.enrich_metadata (the one LLM-enrich operation) and enrich-metadata --llm', () => {
  const GOOD = {
    description: '规定安全自动装置的投退操作与参数管理',
    keywords: ['安控装置', '稳控系统', '压板投退', '故障处理', '天中直流'],
    scope: '适用于安控装置操作与故障处置问题',
  };

  it('writes the model metadata the regulations engine then serves; regulations.enrich stays offline-only', async () => {
    const lib = tempContext();
    configureLlm(lib, { apiKey: KEY, baseUrl: server.baseUrl });
    try {
      await invokeOperation(lib, 'regulations.demo_load', {});
      // generated metadata never replaces curated metadata (info.json): start from an empty profile
      await invokeOperation(lib, 'regulations.update_info', { reg_id: 'angui_2024', description: null, keywords: [], scope: null });
      server.enqueue(reply.content(JSON.stringify(GOOD)));
      const out = await invokeOperation(lib, 'llm.enrich_metadata', { reg_id: 'angui_2024' });
      expect(out.results[0]).toMatchObject({ reg_id: 'angui_2024', source: 'llm', attempts: 1 });
      const info = await invokeOperation(lib, 'regulations.get', { reg_id: 'angui_2024' });
      expect(info).toMatchObject({ reg_id: 'angui_2024', ...GOOD, generated_keywords: GOOD.keywords });
      // one LLM path: the offline operation does not take an llm switch
      await expect(invokeOperation(lib, 'regulations.enrich', { reg_id: 'angui_2024', llm: true })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      expect(server.requests[0].body.messages[1].content).toContain('天中直流');
    } finally {
      await lib.cleanup();
    }
  });

  it('gridcode enrich-metadata --llm <reg_id> reports which path wrote the metadata', async () => {
    const dataDir = tempDir();
    const lib = createAppContext({ dataDir });
    await invokeOperation(lib, 'regulations.demo_load', {});
    await lib.close();
    try {
      server.setHandler(() => reply.content(JSON.stringify(GOOD)));
      const ok = await gridcode(dataDir, ['enrich-metadata', '--llm', 'angui_2024']);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('angui_2024 元数据已更新（大模型生成）');
      expect(ok.stdout).toContain('压板投退');
      server.setHandler(() => reply.content('不是 JSON'));
      const fb = await gridcode(dataDir, ['--json', 'enrich-metadata', '--llm', '--all']);
      const out = JSON.parse(fb.stdout);
      expect(out.results.map((r: { source: string }) => r.source)).toEqual(['offline', 'offline', 'offline']);
      expect(out.results[0].message).toMatch(/离线/);
      expect(fb.stdout + fb.stderr).not.toContain(KEY);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Async spawn: the fake server lives in this process and must keep answering. */
function gridcode(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, DASHSCOPE_API_KEY: KEY, DASHSCOPE_BASE_URL: server.baseUrl };
    const child = spawn(process.execPath, [path.join(projectRoot(), 'bin', 'gridcode.mjs'), '--data-dir', dataDir, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}
