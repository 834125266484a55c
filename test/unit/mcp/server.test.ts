import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../src/core/context';
import { invokeOperation } from '../../../src/core/api/invoke';
import { loadApiTable } from '../../../src/core/api/table';
import { tempDir } from '../../helpers';
import { lawMarkdown, writeFile } from '../regulations/fixtures';

const root = path.resolve(__dirname, '../../..');
let data: string;
let client: Client;

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const json = (r: unknown) => JSON.parse((r as TextResult).content[0].text);

beforeAll(async () => {
  data = tempDir('gridcode-mcp-');
  const docs = tempDir('gridcode-mcp-docs-');
  writeFile(docs, '电力法.md', lawMarkdown('中华人民共和国电力法', 3, 20));
  const ctx = createAppContext({ dataDir: data });
  await invokeOperation(ctx, 'regulations.import', { paths: [docs] });
  await ctx.close();
  fs.rmSync(docs, { recursive: true, force: true });
  client = new Client({ name: 'gridcode-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: 'node',
    args: [path.join(root, 'bin', 'gridcode.mjs'), 'mcp', '--data-dir', data],
    cwd: root,
    stderr: 'pipe',
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  fs.rmSync(data, { recursive: true, force: true });
});

describe('MCP server over stdio', () => {
  it('lists every API operation that has an mcp name, with bilingual descriptions and input schemas', async () => {
    const { tools } = await client.listTools();
    const expected = Object.values(await loadApiTable()).filter((op) => op.mcp).map((op) => op.mcp);
    expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort());
    for (const name of ['list_regulations', 'get_toc', 'read_page_range', 'get_regulation']) expect(tools.map((t) => t.name)).toContain(name);
    const read = tools.find((t) => t.name === 'read_page_range')!;
    expect(read.description).toMatch(/[\u4e00-\u9fff].* \/ [A-Za-z]/);
    expect(read.inputSchema.properties).toHaveProperty('reg_id');
    // our name and RegReader's, either one (one schema; the handler asks for one of them)
    expect(read.inputSchema.properties).toHaveProperty('start');
    expect(read.inputSchema.properties).toHaveProperty('start_page');
    expect(read.inputSchema.required).toEqual(['reg_id']);
  });

  it('answers list_regulations, get_toc and read_page_range', async () => {
    const list = json(await client.callTool({ name: 'list_regulations', arguments: {} }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ reg_id: 'dianlifa', title: '中华人民共和国电力法' });

    const toc = json(await client.callTool({ name: 'get_toc', arguments: { reg_id: 'dianlifa' } }));
    expect(toc.toc.map((t: { title: string }) => t.title)).toEqual(['第一章 第1部分', '第二章 第2部分', '第三章 第3部分']);

    const pages = json(await client.callTool({ name: 'read_page_range', arguments: { reg_id: 'dianlifa', start: 1, end: 2 } }));
    expect(pages.pages.map((p: { page_num: number }) => p.page_num)).toEqual([1, 2]);
    expect(pages.pages[0].text).toContain('第一条');
  });

  it('returns errors as isError results with a Chinese message', async () => {
    const missing = (await client.callTool({ name: 'get_toc', arguments: { reg_id: 'nope' } })) as TextResult;
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toContain('未找到规程');
    const past = (await client.callTool({ name: 'read_page_range', arguments: { reg_id: 'dianlifa', start: 999 } })) as TextResult;
    expect(past.isError).toBe(true);
    expect(past.content[0].text).toContain('页码超出范围');
  });
});
