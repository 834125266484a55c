/**
 * An agent written for RegReader calls our MCP tools with RegReader's argument names (start_page,
 * reference_text, annotation_id, query_text, one reg_id + section_a/section_b …) against the shipped demo
 * library; our own names keep working. The server runs in process over the SDK's in-memory transport.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { createMcpServer } from '../../../src/mcp/server';
import { tempContext } from '../../helpers';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
let ctx: ReturnType<typeof tempContext>;
let client: Client;

async function call(name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as TextResult;
  const body = JSON.parse(r.content[0].text);
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(body)}`);
  return body;
}

beforeAll(async () => {
  ctx = tempContext();
  const loaded = await invokeOperation(ctx, 'regulations.demo_load', {});
  expect(loaded.every((r) => r.status === 'imported')).toBe(true);
  const server = await createMcpServer(ctx);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'regreader-agent', version: '1.0.0' });
  await client.connect(b);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await ctx?.cleanup();
});

describe('the substation safety demo: the first searches of a field engineer', () => {
  // query -> the article that answers it (or the chapter all of whose articles do)
  const cases: [string, RegExp][] = [
    ['工作票', /^第十一条$/],
    ['操作票', /^第二十五条$/],
    ['接地线', /^第二十二条$/],
    ['验电', /^第二十一条$/],
    ['停电', /^第二十条$/],
    ['悬挂标示牌和装设遮栏', /^第二十三条$/],
    ['设备不停电时的安全距离', /^(第七条|表1)$/],
    ['高压设备工作的基本要求', /^第[五六七八九]条$/],
  ];
  it.each(cases)('%s finds its article in the top 3', async (query, want) => {
    const out = await invokeOperation(ctx, 'search.smart_search', { query });
    const top = out.results.slice(0, 3);
    expect(top.some((r) => r.reg_id === 'biandian_2024' && want.test(r.article ?? r.table?.table_id ?? '')), JSON.stringify(top.map((r) => [r.reg_id, r.article]))).toBe(true);
  });

  it('has a safety-distance table whose merged 交流/直流 cells reach every row, notes in every written form, a resolvable reference and a figure', async () => {
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: 'biandian_2024', table_id: '表1' });
    expect(t.columns).toEqual(['电流类别', '电压等级（kV）', '安全距离（m）']);
    const row = (kv: string) => t.rows.find((r) => r.cells[1] === kv)?.cells;
    expect(row('220')).toEqual(['交流', '220', '3.00']);
    expect(row('±800')).toEqual(['直流', '±800', '9.30']);
    for (const label of ['注1', '注一', '注①', '注 1']) {
      const n = await invokeOperation(ctx, 'regulations.notes', { reg_id: 'biandian_2024', note: label });
      expect(n.notes.map((x) => [x.label, x.target])).toEqual([['注1', '表1']]);
    }
    const plan = await invokeOperation(ctx, 'regulations.notes', { reg_id: 'biandian_2024', note: '方案A' });
    expect(plan.content).toMatch(/^方案甲：全站停电检修/);
    expect((await invokeOperation(ctx, 'regulations.notes', { reg_id: 'biandian_2024', note: '方案乙' })).content).toMatch(/^方案乙：部分停电检修/);
    const ref = await invokeOperation(ctx, 'regulations.resolve', { reg_id: 'biandian_2024', reference: '停电范围按本规程第二十条执行' });
    expect(ref).toMatchObject({ resolved: true, target: '第二十条' });
    const chapter = await invokeOperation(ctx, 'regulations.chapter', { reg_id: 'biandian_2024', chapter: '第四章' });
    expect(chapter.blocks.map((b) => b.text).join('\n')).toContain('图1 停电检修安全技术措施执行顺序示意图');
  });
});

describe('RegReader argument names on our MCP tools', () => {
  it('tools/list documents both names in one schema per tool', async () => {
    const { tools } = await client.listTools();
    const props = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
    expect(props('read_page_range')).toEqual(expect.arrayContaining(['start', 'end', 'start_page', 'end_page']));
    expect(props('smart_search')).toEqual(expect.arrayContaining(['top_k', 'limit', 'section_number', 'chapter_scope']));
    expect(props('get_toc')).toEqual(expect.arrayContaining(['max_depth', 'expand_section']));
    expect(props('resolve_reference')).toEqual(expect.arrayContaining(['reference', 'reference_text']));
    expect(props('lookup_annotation')).toEqual(expect.arrayContaining(['note', 'annotation_id', 'page_hint']));
    expect(props('search_tables')).toEqual(expect.arrayContaining(['top_k', 'limit', 'search_mode']));
    expect(props('get_table_by_id')).toEqual(expect.arrayContaining(['include_merged']));
    expect(props('find_similar_content')).toEqual(expect.arrayContaining(['text', 'query_text', 'source_block_id', 'exclude_same_page']));
    expect(props('compare_sections')).toEqual(expect.arrayContaining(['reg_id', 'reg_id_a', 'reg_id_b', 'section_a', 'section_b']));
    expect(props('get_block_with_context')).toEqual(expect.arrayContaining(['reg_id', 'block_id', 'context_blocks']));
    expect(props('get_page_chapter_info')).toEqual(expect.arrayContaining(['reg_id', 'page_num']));
    expect(tools.find((t) => t.name === 'read_page_range')!.description).toContain('start_page');
  });

  it('read_page_range: start_page/end_page and start/end read the same pages; neither is a Chinese error', async () => {
    const theirs = await call('read_page_range', { reg_id: 'biandian_2024', start_page: 1, end_page: 2 });
    const ours = await call('read_page_range', { reg_id: 'biandian_2024', start: 1, end: 2 });
    expect(theirs.pages).toEqual(ours.pages);
    expect(theirs.pages.map((p: { page_num: number }) => p.page_num)).toEqual([1, 2]);
    const none = (await client.callTool({ name: 'read_page_range', arguments: { reg_id: 'biandian_2024' } })) as TextResult;
    expect(none.isError).toBe(true);
    expect(none.content[0].text).toContain('起始页');
  });

  it('get_toc: a tree cut at max_depth, with expand_section opened', async () => {
    const flat = await call('get_toc', { reg_id: 'angui_2024' });
    expect(flat.toc.length).toBeGreaterThan(0);
    const cut = await call('get_toc', { reg_id: 'angui_2024', max_depth: 1 });
    expect(cut.tree.length).toBe(flat.toc.filter((t: { parent_id: number | null }) => t.parent_id === null).length);
    for (const n of cut.tree) expect(n.children).toEqual([]);
    const parent = cut.tree.find((n: { hidden_children: number }) => n.hidden_children > 0);
    if (parent) {
      const open = await call('get_toc', { reg_id: 'angui_2024', max_depth: 1, expand_section: parent.title });
      expect(open.expanded).toBe(parent.title);
      expect(open.tree.find((n: { id: number }) => n.id === parent.id).children.length).toBe(parent.hidden_children);
    }
  });

  it('smart_search: limit caps the results, section_number keeps them inside the section', async () => {
    const two = await call('smart_search', { query: '安全距离', reg_id: 'biandian_2024', limit: 2 });
    expect(two.results.length).toBe(2);
    const inSection = await call('smart_search', { query: '安全距离', reg_id: 'biandian_2024', section_number: '第四章' });
    expect(inSection.results.length).toBeGreaterThan(0);
    for (const r of inSection.results) expect(r.section).toContain('第四章');
  });

  it('multi-hop: search_tables -> get_table_by_id -> lookup_annotation -> resolve_reference -> get_block_with_context', async () => {
    const tables = await call('search_tables', { query: '设备不停电时的安全距离', reg_id: 'biandian_2024', search_mode: 'hybrid', limit: 1 });
    expect(tables.results).toHaveLength(1);
    const tableId = tables.results[0].table.table_id;
    expect(tableId).toBe('表1');
    const table = await call('get_table_by_id', { reg_id: 'biandian_2024', table_id: tableId, include_merged: true });
    expect(table.rows.length).toBe(13);
    expect(table.notes.map((n: { label: string }) => n.label)).toEqual(['注1', '注2']);
    const note = await call('lookup_annotation', { reg_id: 'biandian_2024', annotation_id: '注②', page_hint: table.page_start });
    expect(note).toMatchObject({ found: true, annotation_id: '注2' });
    expect(note.content).toContain('海拔');
    const ref = await call('resolve_reference', { reg_id: 'biandian_2024', reference_text: '见附录A' });
    expect(ref.resolved).toBe(true);
    expect(ref.target).toMatch(/^附录A/);
    const hit = (await call('smart_search', { query: '装设接地线的顺序', reg_id: 'biandian_2024', limit: 1 })).results[0];
    const ctxBlock = await call('get_block_with_context', { reg_id: 'biandian_2024', block_id: String(hit.unit_id), context_blocks: 1 });
    expect(ctxBlock.target_block.label).toBe(hit.article);
    expect(ctxBlock.before_blocks).toHaveLength(1);
    expect(ctxBlock.after_blocks).toHaveLength(1);
    expect(ctxBlock.active_chapters.map((c: { title: string }) => c.title)).toContain('第四章 保证安全的技术措施');
    const page = await call('get_page_chapter_info', { reg_id: 'biandian_2024', page_num: hit.page_num });
    expect(page.active_chapters.map((c: { title: string }) => c.title)).toContain('第四章 保证安全的技术措施');
  });

  it('find_similar_content with query_text / source_block_id; compare_sections with one reg_id', async () => {
    const byText = await call('find_similar_content', { reg_id: 'biandian_2024', query_text: '验电器应先在有电设备上试验', limit: 3 });
    expect(byText.results.length).toBeGreaterThan(0);
    for (const r of byText.results) expect(r.reg_id).toBe('biandian_2024');
    const seed = (await call('smart_search', { query: '验电', reg_id: 'biandian_2024', limit: 1 })).results[0];
    const byBlock = await call('find_similar_content', { reg_id: 'biandian_2024', source_block_id: seed.unit_id, exclude_same_page: true, limit: 5 });
    expect(byBlock.reference.label).toBe(seed.article);
    for (const r of byBlock.results) {
      expect(r.unit_id).not.toBe(seed.unit_id);
      if (r.reg_id === 'biandian_2024') expect(r.page_num).not.toBe(seed.page_num);
    }
    const cmp = await call('compare_sections', { reg_id: 'biandian_2024', section_a: '第二十一条', section_b: '第二十二条' });
    expect(cmp.a.label).toBe('第二十一条');
    expect(cmp.b.label).toBe('第二十二条');
    expect(cmp.common_terms).toContain('接地线');
    const ours = await call('compare_sections', { reg_id_a: 'biandian_2024', section_a: '第二十一条', reg_id_b: 'biandian_2024', section_b: '第二十二条' });
    expect(ours.similarity).toBe(cmp.similarity);
  });
});
