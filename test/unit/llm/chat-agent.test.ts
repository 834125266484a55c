import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { configureLlm, onLlmSettingsChanged } from '../../../src/core/llm/client';
import { buildChatSystemPrompt, formatRegulationList } from '../../../src/core/llm/prompts';
import { citedSources } from '../../../src/core/llm/agent';
import type { ProgressEvent } from '../../../src/core/common/operation';
import { reply, startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '../../fixtures/fake-llm-server';
import { tempContext, tempDir } from '../../helpers';

const KEY = 'sk-chat-test-abcdef0123456789';

/** Two small regulations written for these tests, imported through the real importer. */
const DOCS: Record<string, string> = {
  jianxiu_test: `# 配电网检修作业管理办法

## 第一章 总则

第一条 为规范配电网检修作业，保障人身、电网和设备安全，制定本办法。

## 第二章 停电申请

第二条 计划检修应提前七个工作日提交停电申请，写明停电范围、工作内容和安全措施。

第三条 故障抢修可先行处置，事后二十四小时内补办停电申请手续。
`,
  daidian_test: `# 配电网带电作业管理规定

## 第一章 总则

第一条 为规范配电网带电作业，制定本规定。

## 第二章 作业条件

第二条 带电作业应在良好天气下进行，风力大于五级或湿度大于百分之八十时不宜进行带电作业。

第三条 带电作业前应向调度申请停用线路重合闸。
`,
};

let server: FakeLlmServer;
let ctx: ReturnType<typeof tempContext>;
let docs: string;

beforeAll(async () => {
  server = await startFakeLlmServer();
  docs = tempDir();
  ctx = tempContext();
  configureLlm(ctx, { apiKey: KEY, baseUrl: server.baseUrl });
  ctx.config.llm.retryBaseMs = 5;
  for (const [id, text] of Object.entries(DOCS)) {
    const file = path.join(docs, `${id}.md`);
    fs.writeFileSync(file, text);
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file], id });
    expect(res.status).not.toBe('failed');
  }
  await invokeOperation(ctx, 'regulations.update_info', { reg_id: 'jianxiu_test', keywords: ['检修', '停电申请', '故障抢修'], scope: '检修停电手续' });
  await invokeOperation(ctx, 'regulations.update_info', { reg_id: 'daidian_test', keywords: ['带电作业', '天气', '重合闸'], scope: '带电作业条件' });
});
afterAll(async () => {
  await server.close();
  await ctx.cleanup();
  fs.rmSync(docs, { recursive: true, force: true });
});
afterEach(() => server.reset());

type ToolMsg = { role: string; name?: string; content: string; tool_call_id?: string };
/** Tool messages on the wire carry only tool_call_id; the name comes from the assistant's call. */
const toolMessages = (req: RecordedRequest): ToolMsg[] => {
  const messages = req.body.messages as (ToolMsg & { tool_calls?: { id: string; function: { name: string } }[] })[];
  const names = new Map(messages.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, c.function.name]));
  return messages.filter((m) => m.role === 'tool').map((m) => ({ ...m, name: names.get(m.tool_call_id ?? '') }));
};

/**
 * A scripted "model": searches each regulation, reads the page of one hit, then answers
 * from what the tools actually returned (so citations come from the real engines).
 */
function scriptedModel(searches: { query: string; reg_id: string }[], readFrom = 0) {
  return (req: RecordedRequest) => {
    const tools = toolMessages(req);
    if (!tools.length) return reply.toolCalls(searches.map((s) => ({ name: 'smart_search', arguments: s })));
    const results = tools
      .filter((m) => m.name === 'smart_search')
      .map((m) => JSON.parse(m.content).results?.[0])
      .filter(Boolean) as { reg_id: string; title: string; page_num: number; article: string | null; section: string; snippet: string }[];
    if (!tools.some((m) => m.name === 'read_page_range')) {
      const hit = results[readFrom];
      return reply.toolCalls([{ name: 'read_page_range', arguments: { reg_id: hit.reg_id, start: hit.page_num } }]);
    }
    const lines = results.map((r) => `- 根据《${r.title}》${r.article ?? r.section ?? ''}（第${r.page_num}页）：${r.snippet}`);
    return reply.content(`结论：两部规程分别规定如下。\n${lines.join('\n')}\n参考条款见上。`);
  };
}

const QUESTION = '带电作业对天气有什么要求？检修停电申请要提前几天？';
const SEARCHES = [
  { query: '带电作业 天气 风力', reg_id: 'daidian_test' },
  { query: '计划检修 停电申请 提前', reg_id: 'jianxiu_test' },
];

describe('chat agent', () => {
  it('answers a cross-regulation question with the right tool calls and citations', async () => {
    server.setHandler(scriptedModel(SEARCHES));
    const t = await invokeOperation(ctx, 'llm.chat', { question: QUESTION });
    expect(t.stop_reason).toBe('answered');
    expect(t.tool_calls.map((c) => [c.name, c.operation, c.ok])).toEqual([
      ['smart_search', 'search.smart_search', true],
      ['smart_search', 'search.smart_search', true],
      ['read_page_range', 'regulations.read', true],
    ]);
    expect(t.steps).toBe(3);

    // citations = what the real search engine returns for the same queries
    for (const s of SEARCHES) {
      const direct = await invokeOperation(ctx, 'search.smart_search', s);
      const top = direct.results[0];
      expect(top, `no hit for ${s.query}`).toBeDefined();
      expect(t.citations).toContainEqual(expect.objectContaining({ reg_id: s.reg_id, page_num: top.page_num, label: top.article, title: top.title }));
    }
    expect(t.citations).toHaveLength(2);
    const byReg = Object.fromEntries(t.citations.map((c) => [c.reg_id, c]));
    expect(byReg.daidian_test.snippet).toMatch(/风力|天气/);
    expect(byReg.jianxiu_test.snippet).toMatch(/七个工作日/);
    expect(t.answer).toContain('《配电网带电作业管理规定》');

    // the model got the library in its system prompt and tools derived from the zod inputs
    const first = server.chatRequests()[0].body;
    expect(first.messages[0].content).toContain('**daidian_test**: 配电网带电作业管理规定');
    expect(first.messages[0].content).toContain('关键词: 带电作业, 天气, 重合闸');
    const names = first.tools.map((x: { function: { name: string } }) => x.function.name);
    expect(names.slice(0, 4)).toEqual(['list_regulations', 'get_toc', 'smart_search', 'read_page_range']);
    expect(names).toEqual(expect.arrayContaining(['search_tables', 'get_table_by_id', 'lookup_annotation', 'resolve_reference', 'get_chapter_structure', 'read_chapter_content']));
    const search = first.tools.find((x: { function: { name: string } }) => x.function.name === 'smart_search').function;
    expect(search.parameters.required).toEqual(['query']);
    expect(search.parameters.properties.reg_id).toBeDefined();
    // the tool messages answer the calls by id
    const last = server.chatRequests().at(-1)!;
    const calls = (last.body.messages as { tool_calls?: { id: string }[] }[]).flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
    expect(toolMessages(last).map((m) => m.tool_call_id)).toEqual(calls);
    // wire shape: no null content next to tool_calls, no `name` on tool messages
    for (const m of last.body.messages as Record<string, unknown>[]) {
      expect(typeof m.content).toBe('string');
      if (m.role === 'tool') expect(Object.keys(m).sort()).toEqual(['content', 'role', 'tool_call_id']);
    }
  });

  it('keeps a restricted chat (-r) inside the chosen regulations', async () => {
    server.setHandler((req) => {
      const tools = toolMessages(req);
      if (!tools.length)
        return reply.toolCalls([
          { name: 'smart_search', arguments: { query: '停电申请', reg_id: 'all' } },
          { name: 'read_page_range', arguments: { reg_id: 'daidian_test', start: 1 } },
        ]);
      return reply.content('完成');
    });
    const t = await invokeOperation(ctx, 'llm.chat', { question: '停电申请要求？', reg_ids: ['jianxiu_test'] });
    expect(t.regulations).toEqual(['jianxiu_test']);
    expect(t.tool_calls[0]).toMatchObject({ ok: true, arguments: { query: '停电申请', reg_id: 'jianxiu_test' } });
    expect(t.tool_calls[1]).toMatchObject({ ok: false, error: expect.stringContaining('不在本次限定的检索范围') });
    expect(t.sources.every((x) => x.reg_id === 'jianxiu_test')).toBe(true);
    expect(t.sources.length).toBeGreaterThan(0);
    const system = server.chatRequests()[0].body.messages[0].content as string;
    expect(system).toContain('**jianxiu_test**');
    expect(system).not.toContain('**daidian_test**');
    expect(system).toContain('用户已限定检索范围');
    await expect(invokeOperation(ctx, 'llm.chat', { question: 'x', reg_ids: ['nope_reg'] })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('nope_reg') });
  });

  it('answers a verbatim repeated tool call from the earlier result', async () => {
    const call = { name: 'smart_search', arguments: { query: '带电作业 天气', reg_id: 'daidian_test' } };
    server.setHandler((req) => (toolMessages(req).length < 2 ? reply.toolCalls([call]) : reply.content('好')));
    const t = await invokeOperation(ctx, 'llm.chat', { question: '天气要求' });
    expect(t.tool_calls.map((c) => c.cached)).toEqual([false, true]);
    const [first, second] = toolMessages(server.chatRequests().at(-1)!);
    expect(second.content).toBe(first.content);
  });

  it('streams the answer as progress deltas', async () => {
    server.setHandler((req) => (toolMessages(req).length ? reply.stream(['第一段，', '第二段。']) : reply.stream([], { toolCalls: [{ name: 'list_regulations', arguments: {} }] })));
    const events: ProgressEvent[] = [];
    const t = await invokeOperation(ctx, 'llm.chat', { question: '有哪些规程？', stream: true }, { progress: (e) => events.push(e) });
    expect(events.filter((e) => e.stage === 'delta').map((e) => e.message)).toEqual(['第一段，', '第二段。']);
    expect(events.find((e) => e.stage === 'tool')?.item).toBe('list_regulations');
    expect(t.answer).toBe('第一段，第二段。');
    expect(server.chatRequests()[0].body.stream).toBe(true);
  });

  it('stops a tool-call loop that never ends after the bounded steps, with a clear message', async () => {
    server.setHandler(() => reply.toolCalls([{ name: 'smart_search', arguments: { query: '带电作业', reg_id: 'all' } }]));
    const t = await invokeOperation(ctx, 'llm.chat', { question: '循环', max_steps: 4 });
    expect(t.stop_reason).toBe('max_steps');
    expect(server.chatRequests()).toHaveLength(4);
    expect(t.tool_calls).toHaveLength(4);
    expect(t.answer).toMatch(/已达到工具调用上限（4 轮）/);
    expect(t.answer).toContain('配电网带电作业管理规定');
    expect(t.citations).toEqual([]);
  });

  it('feeds tool errors back to the model instead of failing', async () => {
    server.setHandler((req) => {
      const tools = toolMessages(req);
      if (!tools.length)
        return reply.toolCalls([
          { name: 'delete_everything', arguments: {} },
          { name: 'read_page_range', arguments: '{not json' },
          { name: 'read_page_range', arguments: { reg_id: 'no_such_reg', start: 1 } },
        ]);
      return reply.content(`收到 ${tools.length} 个错误`);
    });
    const t = await invokeOperation(ctx, 'llm.chat', { question: '试试' });
    expect(t.tool_calls.map((c) => c.ok)).toEqual([false, false, false]);
    expect(t.tool_calls[0].error).toMatch(/未知工具/);
    expect(t.tool_calls[1].error).toMatch(/不是合法 JSON/);
    expect(t.tool_calls[2].error).toMatch(/no_such_reg/);
    expect(t.answer).toBe('收到 3 个错误');
  });

  it('fails clearly with no key, and never sends a request', async () => {
    const saved = process.env.DASHSCOPE_API_KEY;
    delete process.env.DASHSCOPE_API_KEY;
    const offline = tempContext();
    try {
      await expect(invokeOperation(offline, 'llm.chat', { question: '你好' })).rejects.toMatchObject({
        code: 'LLM_UNAVAILABLE',
        message: expect.stringContaining('DASHSCOPE_API_KEY'),
      });
      const status = await invokeOperation(offline, 'llm.status', {});
      expect(status).toMatchObject({ available: false, key_source: null });
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.DASHSCOPE_API_KEY = saved;
      await offline.cleanup();
    }
  });

  it('llm.status reports a configured key without revealing it', async () => {
    const status = await invokeOperation(ctx, 'llm.status', {});
    expect(status).toMatchObject({ available: true, key_source: 'app', base_url: server.baseUrl });
    expect(JSON.stringify(status)).not.toContain(KEY);
  });

  it('llm.status --check makes one tiny call and reports the failure reason', async () => {
    server.enqueue(reply.content('好'));
    const ok = await invokeOperation(ctx, 'llm.status', { check: true });
    expect(ok.check).toMatchObject({ ok: true, error: null });
    expect(server.requests[0].body).toMatchObject({ max_tokens: 1, model: ctx.config.llm.parseModel });
    server.enqueue(reply.status(401, { error: { message: `Incorrect API key ${KEY}` } }));
    const bad = await invokeOperation(ctx, 'llm.status', { check: true });
    expect(bad.check?.ok).toBe(false);
    expect(bad.check?.error).toMatch(/HTTP 401/);
    expect(JSON.stringify(bad)).not.toContain(KEY);
  });

  it('llm.configure sets and clears the app key for the process and notifies the shell', async () => {
    const saved = process.env.DASHSCOPE_API_KEY;
    delete process.env.DASHSCOPE_API_KEY;
    const c = tempContext();
    const seen: (string | null | undefined)[] = [];
    const off = onLlmSettingsChanged((_ctx, s) => seen.push(s.apiKey));
    try {
      expect((await invokeOperation(c, 'llm.status', {})).available).toBe(false);
      const on = await invokeOperation(c, 'llm.configure', { api_key: 'sk-typed-in-settings-123', base_url: server.baseUrl });
      expect(on).toMatchObject({ available: true, key_source: 'app', base_url: server.baseUrl });
      expect(JSON.stringify(on)).not.toContain('sk-typed-in-settings-123');
      const cleared = await invokeOperation(c, 'llm.configure', { api_key: null });
      expect(cleared).toMatchObject({ available: false, base_url: server.baseUrl });
      expect(seen).toEqual(['sk-typed-in-settings-123', null]);
      await expect(invokeOperation(c, 'llm.configure', { base_url: 'ftp://x' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('base_url') });
    } finally {
      off();
      if (saved !== undefined) process.env.DASHSCOPE_API_KEY = saved;
      await c.cleanup();
    }
  });

  it('redacts the key from transcripts and errors', async () => {
    server.setHandler(() => reply.status(403, { error: { message: `key ${KEY} is not allowed` } }));
    const e = await invokeOperation(ctx, 'llm.chat', { question: '你好' }).catch((x: Error) => x);
    expect((e as Error).message).toMatch(/HTTP 403/);
    expect(JSON.stringify(e) + (e as Error).message).not.toContain(KEY);
  });
});

describe('prompts', () => {
  it('builds the role + regulation list + rules prompt from metadata (seed 002)', () => {
    const list = formatRegulationList([{ reg_id: 'angui_2024', title: '安全自动装置调度运行管理规定', keywords: ['安控装置', '压板投退'], scope: '装置操作问题' }]);
    expect(list).toBe('- **angui_2024**: 安全自动装置调度运行管理规定\n  - 关键词: 安控装置, 压板投退\n  - 适用范围: 装置操作问题');
    const prompt = buildChatSystemPrompt([]);
    expect(prompt).toContain('规程库为空');
    expect(prompt).toMatch(/跨规程检索/);
    expect(prompt).toMatch(/《规程标题》第X条（第N页）/);
  });

  it('counts a source as cited only when the answer names its location', () => {
    const sources = [
      { reg_id: 'a', title: '甲规程', page_num: 3, label: '第五条', section_path: null, snippet: null },
      { reg_id: 'b', title: '乙规程', page_num: 3, label: '第五条', section_path: null, snippet: null },
      { reg_id: 'b', title: '乙规程', page_num: 9, label: '第九条', section_path: null, snippet: null },
    ];
    expect(citedSources('见《甲规程》第五条', sources).map((s) => s.reg_id)).toEqual(['a']);
    // a location belongs to the regulation named last before it
    expect(citedSources('见《乙规程》第九条，另见《甲规程》第五条', sources).map((s) => `${s.reg_id}${s.label}`)).toEqual(['a第五条', 'b第九条']);
    // unnamed locations only count when a single regulation was retrieved
    expect(citedSources('见第九条', sources)).toEqual([]);
    expect(citedSources('见第五条', sources.slice(0, 1)).map((s) => s.reg_id)).toEqual(['a']);
    // a page mention cites one source of that page
    expect(citedSources('《乙规程》第9页', sources).map((s) => s.label)).toEqual(['第九条']);
    expect(citedSources('没有出处', sources)).toEqual([]);
  });
});

describe('chat agent with the structure tools (tables, notes, references)', () => {
  const DOC = `# 断面运行管理细则

## 第一章 总则

第一条 为规范断面运行，制定本细则。

第二条 断面限额见表2-1，限额计算条件见附录A。

## 第二章 断面限额

表2-1 主要断面限额

| 断面 | 运行方式 | 限额(MW) |
| --- | --- | ---: |
| 甲乙断面 | 正常方式 | 1200 |
| 丙丁断面 | 正常方式 | 900 |

注1：检修方式下限额按正常方式的80%执行。

注2：夏季高峰时段限额另行下达。

表2-1 主要断面限额（续）

| 断面 | 运行方式 | 限额(MW) |
| --- | --- | ---: |
| 戊己断面 | 检修方式 | 700 |

## 附录A 计算条件

按年度运行方式计算，负荷模型采用恒阻抗模型。
`;
  let sctx: ReturnType<typeof tempContext>;
  beforeAll(async () => {
    sctx = tempContext();
    configureLlm(sctx, { apiKey: KEY, baseUrl: server.baseUrl });
    sctx.config.llm.retryBaseMs = 5;
    const file = path.join(docs, 'duanmian_test.md');
    fs.writeFileSync(file, DOC);
    const [res] = await invokeOperation(sctx, 'regulations.import', { paths: [file], id: 'duanmian_test' });
    expect(res.status).toBe('imported');
  });
  afterAll(async () => {
    await sctx.cleanup();
  });

  it('finds a table, opens it whole, reads its notes and follows a reference, citing each', async () => {
    // a scripted model that only chains what each tool returned: search → table → notes → reference
    server.setHandler((req) => {
      const tools = toolMessages(req);
      const last = (name: string) => {
        const m = tools.filter((t) => t.name === name).at(-1);
        return m ? JSON.parse(m.content) : null;
      };
      if (!last('search_tables')) return reply.toolCalls([{ name: 'search_tables', arguments: { query: '戊己断面 限额' } }]);
      const found = last('search_tables').results[0];
      if (!last('get_table_by_id')) return reply.toolCalls([{ name: 'get_table_by_id', arguments: { reg_id: found.reg_id, table_id: found.table.table_id } }]);
      const table = last('get_table_by_id');
      if (!last('lookup_annotation')) return reply.toolCalls([{ name: 'lookup_annotation', arguments: { reg_id: table.reg_id, table_id: table.table_id } }]);
      if (!last('resolve_reference')) return reply.toolCalls([{ name: 'resolve_reference', arguments: { reg_id: table.reg_id, reference: '见附录A' } }]);
      const notes = last('lookup_annotation').notes as { label: string; text: string }[];
      const ref = last('resolve_reference');
      const row = (table.rows as { cells: string[]; page_num: number }[]).find((r) => r.cells[0] === '戊己断面')!;
      return reply.content(
        `戊己断面限额 ${row.cells[2]}MW，见《${table.regulation}》${table.table_id}（第${row.page_num}页）；${notes[0].label}：${notes[0].text}。计算条件见${ref.target}（第${ref.page_num}页）。`,
      );
    });
    const t = await invokeOperation(sctx, 'llm.chat', { question: '戊己断面的限额是多少？检修方式怎么算？' });
    expect(t.stop_reason).toBe('answered');
    expect(t.tool_calls.map((c) => [c.name, c.operation, c.ok])).toEqual([
      ['search_tables', 'regulations.search_tables', true],
      ['get_table_by_id', 'regulations.table', true],
      ['lookup_annotation', 'regulations.notes', true],
      ['resolve_reference', 'regulations.resolve', true],
    ]);
    // the answer is built from the real engines' results: the merged table, its first note, the appendix
    const direct = await invokeOperation(sctx, 'regulations.table', { reg_id: 'duanmian_test', table_id: '表2-1' });
    expect(direct.rows.map((r) => r.cells[0])).toEqual(['甲乙断面', '丙丁断面', '戊己断面']);
    expect(t.answer).toContain('戊己断面限额 700MW');
    expect(t.answer).toContain('注1：检修方式下限额按正常方式的80%执行');
    const appendix = await invokeOperation(sctx, 'regulations.resolve', { reg_id: 'duanmian_test', reference: '见附录A' });
    expect(appendix.resolved).toBe(true);
    // citations: the table (by id, with the regulation's title, not the table's) and the appendix page
    expect(t.citations).toContainEqual(expect.objectContaining({ reg_id: 'duanmian_test', label: '表2-1', title: '断面运行管理细则', page_num: direct.page_start }));
    expect(t.sources).toContainEqual(expect.objectContaining({ reg_id: 'duanmian_test', page_num: appendix.page_num }));
    expect(t.sources.some((s) => s.label === '注1')).toBe(true);
  });

  it('keeps the structure tools inside a restricted chat', async () => {
    server.setHandler((req) => {
      const tools = toolMessages(req);
      if (!tools.length)
        return reply.toolCalls([
          { name: 'get_table_by_id', arguments: { reg_id: 'jianxiu_test', table_id: '表1' } },
          { name: 'search_tables', arguments: { query: '断面 限额', reg_id: 'all' } },
        ]);
      return reply.content('完成');
    });
    // the restricted regulation exists in the main context only; use the structure context's own id
    const t = await invokeOperation(sctx, 'llm.chat', { question: '限额', reg_ids: ['duanmian_test'] });
    expect(t.tool_calls[0]).toMatchObject({ name: 'get_table_by_id', ok: false });
    expect(t.tool_calls[0].error).toContain('不在本次限定的检索范围');
    expect(t.tool_calls[1]).toMatchObject({ name: 'search_tables', ok: true, arguments: { query: '断面 限额', reg_id: 'duanmian_test' } });
  });
});

describe('chat agent on the demo library (angui_2024 + wengui_2024 + biandian_2024)', () => {
  let demo: ReturnType<typeof tempContext>;
  beforeAll(async () => {
    demo = tempContext();
    configureLlm(demo, { apiKey: KEY, baseUrl: server.baseUrl });
    const loaded = await invokeOperation(demo, 'regulations.demo_load', {});
    expect(loaded.map((r) => r.status)).toEqual(['imported', 'imported', 'imported']);
  });
  afterAll(async () => {
    await demo.cleanup();
  });

  it('answers 天中直流的稳定限额和安控措施 from both regulations with citations', async () => {
    const searches = [
      { query: '天中直流 稳定限额', reg_id: 'wengui_2024' },
      { query: '天中直流 安控 切机', reg_id: 'angui_2024' },
    ];
    server.setHandler(scriptedModel(searches, 1));
    const t = await invokeOperation(demo, 'llm.chat', { question: '天中直流的稳定限额和安控措施是什么？' });
    expect(t.stop_reason).toBe('answered');
    expect(t.regulations.sort()).toEqual(['angui_2024', 'biandian_2024', 'wengui_2024']);
    expect(t.tool_calls.map((c) => `${c.name}:${(c.arguments as { reg_id: string }).reg_id}`)).toEqual([
      'smart_search:wengui_2024',
      'smart_search:angui_2024',
      'read_page_range:angui_2024',
    ]);
    // The system prompt carries the library from metadata (info.json keywords and scope).
    const system = server.chatRequests()[0].body.messages[0].content as string;
    expect(system).toMatch(/\*\*angui_2024\*\*: 安全自动装置调度运行管理规定/);
    expect(system).toMatch(/\*\*wengui_2024\*\*: 特高压互联电网稳定及无功电压调度运行规定/);
    expect(system).toContain('天中直流');

    for (const s of searches) {
      const top = (await invokeOperation(demo, 'search.smart_search', s)).results[0];
      expect(t.citations).toContainEqual(expect.objectContaining({ reg_id: s.reg_id, page_num: top.page_num, title: top.title }));
    }
    const cited = (reg: string) => t.citations.filter((c) => c.reg_id === reg);
    expect(cited('wengui_2024').some((c) => /天中直流/.test(c.snippet ?? ''))).toBe(true);
    expect(cited('angui_2024').some((c) => /天中直流/.test(c.snippet ?? '') && /安控|切机/.test(c.snippet ?? ''))).toBe(true);
    // the page read is the angui hit's page, and it really holds that article
    const read = await invokeOperation(demo, 'regulations.read', { reg_id: 'angui_2024', start: cited('angui_2024')[0].page_num });
    expect(read.pages[0].text).toContain(cited('angui_2024')[0].label ?? '天中直流');
  });
});
