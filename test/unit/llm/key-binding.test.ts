import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../src/web/server';
import { configureLlm, createLlmClient, resolveLlmSettings } from '../../../src/core/llm/client';
import { invokeOperation } from '../../../src/core/api/invoke';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../fixtures/fake-llm-server';
import { projectRoot } from '../../../src/core/common/paths';
import { tempContext, tempDir } from '../../helpers';

const KEY = 'sk-bound-0123456789abcdefSECRET';

/** Env vars touched by a test are restored afterwards. */
function withEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

describe('the key stays with its endpoint (through the browser-shell bridge)', () => {
  let legit: FakeLlmServer;
  let attacker: FakeLlmServer;
  let web: WebServer;
  let restoreEnv: () => void = () => {};

  beforeAll(async () => {
    legit = await startFakeLlmServer();
    attacker = await startFakeLlmServer();
    const staticDir = tempDir('gridcode-static-');
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    web = await startWebServer({ port: 0, dataDir: tempDir(), staticDir, skipStartup: true });
  });
  afterAll(async () => {
    await web.close();
    await legit.close();
    await attacker.close();
  });
  afterEach(() => {
    restoreEnv();
    restoreEnv = () => {};
    legit.reset();
    attacker.reset();
    configureLlm(web.ctx, {});
  });

  async function invoke(name: string, input: unknown): Promise<{ type: string; data?: any; error?: { code: string; message: string } }> {
    const res = await fetch(new URL(`/api/invoke/${name}`, web.url), {
      method: 'POST',
      body: JSON.stringify(input),
      headers: { 'Content-Type': 'application/json', 'X-GridCode-Token': web.token },
    });
    const text = await res.text();
    expect(text).not.toContain(KEY);
    return JSON.parse(text.trim().split('\n').at(-1)!);
  }

  it('an app key: base_url changed without re-entering the key sends no key anywhere', async () => {
    legit.setHandler(() => reply.content('好'));
    attacker.setHandler(() => reply.content('好'));
    const set = await invoke('llm.configure', { api_key: KEY, base_url: legit.baseUrl });
    expect(set.data.available).toBe(true);
    const ok = await invoke('llm.status', { check: true });
    expect(ok.data.check.ok).toBe(true);
    expect(legit.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);

    const moved = await invoke('llm.configure', { base_url: attacker.baseUrl });
    expect(moved.data.available).toBe(false);
    expect(moved.data.message).toMatch(/重新输入密钥/);
    const probe = await invoke('llm.status', { check: true });
    expect(probe.data.check?.ok ?? false).toBe(false);
    // an LLM feature now falls back or fails; never a request carrying the key
    await invoke('llm.chat', { question: '母线失压怎么处理' });
    expect(attacker.requests.filter((r) => r.headers.authorization)).toEqual([]);

    // and moving back to the endpoint it was entered for restores it
    await invoke('llm.configure', { base_url: legit.baseUrl });
    expect((await invoke('llm.status', {})).data.available).toBe(true);
  });

  it('an env key goes only to DASHSCOPE_BASE_URL', async () => {
    restoreEnv = withEnv({ DASHSCOPE_API_KEY: KEY, DASHSCOPE_BASE_URL: legit.baseUrl });
    attacker.setHandler(() => reply.content('好'));
    legit.setHandler(() => reply.content('好'));
    expect((await invoke('llm.status', { check: true })).data.check.ok).toBe(true);
    expect(legit.requests).toHaveLength(1);
    const moved = await invoke('llm.configure', { base_url: attacker.baseUrl });
    expect(moved.data.available).toBe(false);
    await invoke('llm.status', { check: true });
    expect(attacker.requests).toEqual([]);
  });

  it('a base_url written into config.json (bridge app.update_config) never receives the env key', async () => {
    restoreEnv = withEnv({ DASHSCOPE_API_KEY: KEY, DASHSCOPE_BASE_URL: undefined });
    attacker.setHandler(() => reply.content('好'));
    const saved = await invoke('app.update_config', { patch: { llm: { baseUrl: attacker.baseUrl } } });
    expect(saved.type).toBe('result');
    try {
      const status = await invoke('llm.status', { check: true });
      expect(status.data.available).toBe(false);
      expect(status.data.message).toMatch(/config\.json.*没有为它保存密钥/);
      await invoke('llm.chat', { question: '母线失压怎么处理' });
      await invoke('llm.enrich_metadata', { all: true });
      // later CLI runs on the same data dir read that config.json too
      const cli = spawnSync(process.execPath, [path.join(projectRoot(), 'bin', 'gridcode.mjs'), 'llm', 'status', '--check', '--json', '--data-dir', web.ctx.dataDir], {
        env: { ...process.env, DASHSCOPE_API_KEY: KEY },
        encoding: 'utf8',
      });
      expect(cli.stdout + cli.stderr).not.toContain(KEY);
      expect(JSON.parse(cli.stdout)).toMatchObject({ available: false });
      expect(attacker.requests.filter((r) => r.headers.authorization)).toEqual([]);
      // an app key entered while that endpoint is in effect is the user storing a key with it
      await invoke('llm.configure', { api_key: KEY });
      expect((await invoke('llm.status', { check: true })).data.check.ok).toBe(true);
      expect(attacker.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await invoke('app.update_config', { patch: { llm: { baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1' } } });
    }
  });

  it('re-entering the key for a new endpoint is the user saying so: then it is sent there', async () => {
    attacker.setHandler(() => reply.content('好'));
    await invoke('llm.configure', { api_key: KEY, base_url: legit.baseUrl });
    await invoke('llm.configure', { base_url: attacker.baseUrl, api_key: KEY });
    expect((await invoke('llm.status', { check: true })).data.check.ok).toBe(true);
    expect(attacker.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('refuses plain http to another machine (and URLs with credentials)', async () => {
    for (const base_url of ['http://203.0.113.9/v1', 'http://evil.example/v1', 'https://user:pw@evil.example/v1', 'file:///etc/passwd']) {
      const out = await invoke('llm.configure', { base_url });
      expect(out.type).toBe('error');
      expect(out.error!.code).toBe('INVALID_INPUT');
    }
  });
});

describe('endpoint checks in the client', () => {
  it('an env endpoint over plain http to another host gets no key', async () => {
    const ctx = tempContext();
    const restore = withEnv({ DASHSCOPE_API_KEY: KEY, DASHSCOPE_BASE_URL: 'http://203.0.113.9/v1' });
    try {
      expect(resolveLlmSettings(ctx)).toMatchObject({ apiKey: null, withheld: 'insecure_endpoint' });
      expect(() => createLlmClient(ctx)).toThrow(/https/);
      const status = await invokeOperation(ctx, 'llm.status', {});
      expect(status.available).toBe(false);
    } finally {
      restore();
      await ctx.cleanup();
    }
  });
});

describe('replies are redacted', () => {
  let server: FakeLlmServer;
  let ctx: ReturnType<typeof tempContext>;
  beforeAll(async () => {
    server = await startFakeLlmServer();
    ctx = tempContext();
    configureLlm(ctx, { apiKey: KEY, baseUrl: server.baseUrl });
  });
  afterAll(async () => {
    await server.close();
    await ctx.cleanup();
  });

  it('a completion echoing the key (content and tool-call arguments) comes back without it', async () => {
    server.enqueue(reply.content(`你的密钥是 ${KEY}，请保管`), reply.toolCalls([{ name: 'search', arguments: { q: KEY } }]));
    const client = createLlmClient(ctx);
    const a = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(a.message.content).toContain('你的密钥是');
    expect(a.message.content).not.toContain(KEY);
    const b = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(JSON.stringify(b.message)).not.toContain(KEY);
  });

  it('a stream that splits the key across deltas never emits it, in any delta or joined', async () => {
    const parts = ['密钥：', KEY.slice(0, 5), KEY.slice(5, 17), KEY.slice(17), ' 完毕，另一个 sk-', 'otherSECRET99', ' 结束'];
    server.enqueue(reply.stream(parts));
    const deltas: string[] = [];
    const out = await createLlmClient(ctx).chatStream({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, (d) => deltas.push(d));
    const joined = deltas.join('');
    expect(joined).toContain('密钥：');
    expect(joined).toContain('结束');
    expect(joined).not.toContain(KEY);
    expect(joined).not.toContain('otherSECRET99');
    for (const d of deltas) expect(d).not.toContain(KEY.slice(5, 17));
    expect(out.message.content).not.toContain(KEY);
    expect(deltas.length).toBeGreaterThan(1);
  });
});
