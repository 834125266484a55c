import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { configureLlm } from '../../../src/core/llm/client';
import { parseMetadataReply } from '../../../src/core/llm/metadata';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../fixtures/fake-llm-server';
import { tempContext, tempDir } from '../../helpers';

const KEY = 'sk-meta-test-abcdef0123456789';

/** A small regulation written for this test; imported through the real importer. */
const REGULATION = `# 配电网检修作业管理办法

## 第一章 总则

第一条 为规范配电网检修作业，保障人身、电网和设备安全，制定本办法。

第二条 本办法适用于公司所属各级供电单位的配电网计划检修、临时检修和故障抢修作业。

## 第二章 停电申请

第三条 计划检修应提前七个工作日提交停电申请，写明停电范围、工作内容和安全措施。

第四条 故障抢修可先行处置，事后二十四小时内补办手续。

## 第三章 安全措施

第五条 工作前必须验电、装设接地线，并悬挂"禁止合闸，有人工作"标示牌。
`;

const GOOD = {
  description: '规范配电网检修的停电申请与安全措施',
  keywords: ['配电网检修', '停电申请', '故障抢修', '验电', '接地线', '安全措施'],
  scope: '适用于配电网检修计划、停电手续和现场安全措施相关问题',
};

let server: FakeLlmServer;
let ctx: ReturnType<typeof tempContext>;
let docs: string;

async function importDoc(name: string, text: string): Promise<string> {
  const file = path.join(docs, `${name}.md`);
  fs.writeFileSync(file, text);
  const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file], id: name });
  expect(res.status).not.toBe('failed');
  return res.reg_id!;
}

const info = (regId: string) => invokeOperation(ctx, 'regulations.get', { reg_id: regId });

beforeAll(async () => {
  server = await startFakeLlmServer();
  docs = tempDir();
});
beforeEach(() => {
  ctx = tempContext();
  configureLlm(ctx, { apiKey: KEY, baseUrl: server.baseUrl });
  ctx.config.llm.retryBaseMs = 5;
  ctx.config.llm.maxRetries = 1;
});
afterEach(async () => {
  server.reset();
  await ctx.cleanup();
});
afterAll(async () => {
  await server.close();
  fs.rmSync(docs, { recursive: true, force: true });
});

describe('parseMetadataReply', () => {
  it('validates the limits with zod', () => {
    expect(parseMetadataReply(JSON.stringify(GOOD))).toMatchObject({ ok: true });
    expect(parseMetadataReply('```json\n' + JSON.stringify(GOOD) + '\n```')).toMatchObject({ ok: true });
    expect(parseMetadataReply(JSON.stringify({ ...GOOD, description: '长'.repeat(51) }))).toMatchObject({ ok: false, problem: expect.stringContaining('50') });
    expect(parseMetadataReply(JSON.stringify({ ...GOOD, keywords: ['a', 'b', 'c', 'd'] }))).toMatchObject({ ok: false });
    // duplicates do not count towards the 5
    expect(parseMetadataReply(JSON.stringify({ ...GOOD, keywords: ['a', 'a', 'b', 'c', 'd'] }))).toMatchObject({ ok: false });
    expect(parseMetadataReply(JSON.stringify({ ...GOOD, keywords: [...GOOD.keywords, 'x', 'y', 'z'] }))).toMatchObject({ ok: false });
    expect(parseMetadataReply('没有 JSON')).toMatchObject({ ok: false, problem: '回复中没有 JSON 对象' });
    expect(parseMetadataReply('')).toMatchObject({ ok: false, problem: '回复为空' });
  });
});

describe('enrich-metadata --llm', () => {
  it('sends TOC and first pages, validates the JSON and writes it through the update path', async () => {
    const regId = await importDoc('peiwang_jianxiu', REGULATION);
    server.enqueue(reply.content(`元数据如下：${JSON.stringify(GOOD)}`));
    const out = await invokeOperation(ctx, 'llm.enrich_metadata', { reg_id: regId });
    expect(out.results).toEqual([expect.objectContaining({ reg_id: regId, source: 'llm', attempts: 1, message: null, ...GOOD })]);
    expect(await info(regId)).toMatchObject(GOOD);
    const prompt = server.requests[0].body.messages[1].content as string;
    expect(prompt).toContain('第二章 停电申请');
    expect(prompt).toContain('提前七个工作日提交停电申请');
    expect(server.requests[0].body.model).toBe(ctx.config.llm.parseModel);
    const extra = ctx.db.prepare('SELECT extra FROM regulations WHERE reg_id = ?').get(regId) as { extra: string };
    expect(JSON.parse(extra.extra).metadata_source).toBe('llm');
  });

  it('retries invalid JSON once, telling the model what was wrong', async () => {
    const regId = await importDoc('peiwang_retry', REGULATION);
    server.enqueue(reply.content('{"description": "太短的关键词", "keywords": ["一"], "scope": "x"}'), reply.content(JSON.stringify(GOOD)));
    const out = await invokeOperation(ctx, 'llm.enrich_metadata', { reg_id: regId });
    expect(out.results[0]).toMatchObject({ source: 'llm', attempts: 2 });
    const retry = server.requests[1].body.messages;
    expect(retry.at(-1).content).toMatch(/关键词至少 5 个/);
    expect(retry.at(-2).role).toBe('assistant');
  });

  it('falls back to the offline enrichment after two invalid replies, with a message', async () => {
    const regId = await importDoc('peiwang_garbage', REGULATION);
    server.setHandler(() => reply.content('我认为这部规程很重要。'));
    const out = await invokeOperation(ctx, 'llm.enrich_metadata', { reg_id: regId });
    expect(out.results[0]).toMatchObject({ source: 'offline', attempts: 2 });
    expect(out.results[0].message).toMatch(/两次.*无效.*离线/);
    expect(server.requests).toHaveLength(2);
    // exactly what the offline enrichment writes
    const offline = await invokeOperation(ctx, 'regulations.enrich', { reg_id: regId });
    expect(out.results[0]).toMatchObject({ description: offline[0].description, keywords: offline[0].keywords, scope: offline[0].scope });
    expect(out.results[0].keywords.length).toBeGreaterThanOrEqual(1);
  });

  it('falls back to offline on a server error and never leaks the key', async () => {
    const regId = await importDoc('peiwang_500', REGULATION);
    server.setHandler(() => reply.status(500, { error: { message: `boom for ${KEY}` } }));
    const out = await invokeOperation(ctx, 'llm.enrich_metadata', { reg_id: regId });
    expect(out.results[0].source).toBe('offline');
    expect(out.results[0].message).toMatch(/HTTP 500/);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it('uses the offline path with no key and makes no request', async () => {
    const saved = process.env.DASHSCOPE_API_KEY;
    delete process.env.DASHSCOPE_API_KEY;
    configureLlm(ctx, { apiKey: null, baseUrl: server.baseUrl });
    try {
      const regId = await importDoc('peiwang_offline', REGULATION);
      const out = await invokeOperation(ctx, 'llm.enrich_metadata', { reg_id: regId });
      expect(out.results[0]).toMatchObject({ source: 'offline', attempts: 0, message: expect.stringContaining('DASHSCOPE_API_KEY') });
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.DASHSCOPE_API_KEY = saved;
    }
  });

  it('--all processes every regulation; input needs exactly one of reg_id / all', async () => {
    await importDoc('peiwang_a', REGULATION);
    await importDoc('peiwang_b', REGULATION.replace('配电网检修作业管理办法', '配电网带电作业管理办法'));
    server.setHandler(() => reply.content(JSON.stringify(GOOD)));
    const out = await invokeOperation(ctx, 'llm.enrich_metadata', { all: true });
    expect(out.results.map((r) => r.reg_id).sort()).toEqual(['peiwang_a', 'peiwang_b']);
    expect(out.results.every((r) => r.source === 'llm')).toBe(true);
    await expect(invokeOperation(ctx, 'llm.enrich_metadata', {})).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(invokeOperation(ctx, 'llm.enrich_metadata', { reg_id: 'nope_missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
