import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { createAppContext } from '../../../src/core/context';
import { projectRoot } from '../../../src/core/common/paths';
import { reply, startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '../../fixtures/fake-llm-server';
import { tempDir } from '../../helpers';

const KEY = 'sk-cli-test-abcdef0123456789';
const DOC = `# 配电网带电作业管理规定

## 第二章 作业条件

第二条 带电作业应在良好天气下进行，风力大于五级时不宜进行带电作业。
`;

let server: FakeLlmServer;
let dataDir: string;

/** Async spawn: the fake server lives in this process and must keep answering. */
function gridcode(args: string[], env: Record<string, string | undefined>, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const childEnv = { ...process.env, ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
    const child = spawn(process.execPath, [path.join(projectRoot(), 'bin', 'gridcode.mjs'), '--data-dir', dataDir, ...args], { env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

const withKey = () => ({ DASHSCOPE_API_KEY: KEY, DASHSCOPE_BASE_URL: server.baseUrl });
const noKey = { DASHSCOPE_API_KEY: undefined, DASHSCOPE_BASE_URL: undefined };

function model(req: RecordedRequest) {
  const tool = (req.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool');
  if (!tool) return reply.stream(['我来查一下。'], { toolCalls: [{ name: 'smart_search', arguments: { query: '带电作业 风力', reg_id: 'all' } }] });
  const hit = JSON.parse(tool.content).results[0];
  return reply.stream([`根据《${hit.title}》`, `${hit.article}（第${hit.page_num}页），`, '风力大于五级时不宜带电作业。']);
}

beforeAll(async () => {
  server = await startFakeLlmServer();
  dataDir = tempDir();
  const docs = tempDir();
  fs.writeFileSync(path.join(docs, 'daidian.md'), DOC);
  const ctx = createAppContext({ dataDir });
  await invokeOperation(ctx, 'regulations.import', { paths: [path.join(docs, 'daidian.md')], id: 'daidian_test' });
  await ctx.close();
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => server.reset());

describe('gridcode chat', () => {
  it('streams the answer to stdout, tool activity to stderr, then the sources', async () => {
    server.setHandler(model);
    const r = await gridcode(['chat', '带电作业对风力有什么要求？'], withKey());
    expect(r.stderr).toContain('↳ smart_search');
    expect(r.stdout).toContain('我来查一下。');
    expect(r.stdout).toContain('根据《配电网带电作业管理规定》第二条（第1页），风力大于五级时不宜带电作业。');
    expect(r.stdout).toMatch(/参考来源:\n\s+- 《配电网带电作业管理规定》第二条 第1页\s+\[daidian_test\]/);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('--json prints the transcript with tool calls and citations', async () => {
    server.setHandler(model);
    const r = await gridcode(['chat', '--json', '带电作业对风力有什么要求？'], withKey());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.tool_calls.map((c: { name: string }) => c.name)).toEqual(['smart_search']);
    expect(t.citations).toEqual([expect.objectContaining({ reg_id: 'daidian_test', label: '第二条', page_num: 1 })]);
    expect(t.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(r.stdout).not.toContain(KEY);
  });

  it('without a question reads questions from stdin and keeps the conversation', async () => {
    let turn = 0;
    server.setHandler(() => reply.stream([`回答${++turn}`]));
    const r = await gridcode(['chat'], withKey(), '第一个问题\n\n第二个问题\nexit\n第三个问题\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('回答1');
    expect(r.stdout).toContain('回答2');
    const requests = server.chatRequests();
    expect(requests).toHaveLength(2);
    const second = (requests[1].body.messages as { role: string; content: string }[]).slice(1);
    expect(second).toEqual([
      { role: 'user', content: '第一个问题' },
      { role: 'assistant', content: '回答1' },
      { role: 'user', content: '第二个问题' },
    ]);
  });

  it('a failed turn is reported and the conversation goes on', async () => {
    server.enqueue(reply.status(400, { error: { message: 'bad request' } }), reply.stream(['第二轮回答']));
    const r = await gridcode(['chat'], withKey(), '坏问题\n好问题\n');
    expect(r.stderr).toMatch(/错误 \[LLM_UNAVAILABLE\]: 大模型服务返回 HTTP 400/);
    expect(r.stdout).toContain('第二轮回答');
    expect(r.code).toBe(0);
    // the failed turn is not part of the history
    expect((server.chatRequests()[1].body.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('without a key fails clearly (exit 1) and status says no key', async () => {
    const r = await gridcode(['chat', '你好'], noKey);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/错误 \[LLM_UNAVAILABLE\].*DASHSCOPE_API_KEY/);
    const s = await gridcode(['--json', 'llm', 'status'], noKey);
    expect(JSON.parse(s.stdout)).toMatchObject({ available: false, key_source: null });
    const k = await gridcode(['--json', 'llm', 'status'], withKey());
    expect(JSON.parse(k.stdout)).toMatchObject({ available: true, key_source: 'env', base_url: server.baseUrl });
    expect(k.stdout).not.toContain(KEY);
    expect(server.requests).toHaveLength(0);
  });
});
