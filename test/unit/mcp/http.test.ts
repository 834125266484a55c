import fs from 'node:fs';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { startMcpHttpServer } from '../../../src/mcp/http';
import { tempContext, tempDir } from '../../helpers';
import { writeFile } from '../regulations/fixtures';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const json = (r: unknown) => JSON.parse((r as TextResult).content[0].text);

let ctx: ReturnType<typeof tempContext>;
let svc: Awaited<ReturnType<typeof startMcpHttpServer>>;
const TOKEN = 'test-token-0123456789abcdef';

const MD = [
  '# 断面限额规定',
  '',
  '## 第一章 总则',
  '',
  '第一条 断面限额见表2-1，按本规定第二条执行。',
  '',
  '第二条 超过限额时立即汇报。',
  '',
  '## 第二章 限额',
  '',
  '表2-1 断面稳定限额',
  '',
  '| 断面 | 限额(MW) |',
  '| --- | --- |',
  '| 甲乙断面 | 1200 |',
  '| 丙丁断面 | 900 |',
  '',
  '注1：夏季限额下调 5%。',
].join('\n');

beforeAll(async () => {
  ctx = tempContext();
  const docs = tempDir('gridcode-mcp-http-');
  writeFile(docs, 'xiane.md', MD);
  await invokeOperation(ctx, 'regulations.import', { paths: [docs] });
  fs.rmSync(docs, { recursive: true, force: true });
  svc = await startMcpHttpServer(ctx, { port: 0, token: TOKEN });
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await ctx?.cleanup();
});

function post(headers: Record<string, string>): Promise<number> {
  const url = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}

describe('MCP over streamable HTTP', () => {
  it('listens on loopback and refuses requests without the token, with a foreign Host or a web Origin', async () => {
    expect(svc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(await post({})).toBe(401);
    expect(await post({ authorization: 'Bearer wrong-token-0123456789' })).toBe(401);
    expect(await post({ authorization: `Bearer ${TOKEN}`, host: 'evil.example:80' })).toBe(403);
    expect(await post({ authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' })).toBe(403);
  });

  it('serves the structure toolset to an SDK client that sends the token', async () => {
    const client = new Client({ name: 'gridcode-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(svc.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const n of ['search_tables', 'get_table_by_id', 'lookup_annotation', 'resolve_reference', 'get_chapter_structure', 'read_chapter_content', 'find_similar_content', 'compare_sections', 'smart_search']) {
        expect(names).toContain(n);
      }
      const smart = (await client.listTools()).tools.find((t) => t.name === 'smart_search')!;
      expect(Object.keys(smart.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'reg_id', 'chapter_scope', 'block_types']));

      const table = json(await client.callTool({ name: 'get_table_by_id', arguments: { reg_id: 'xiane', table_id: '表2-1' } }));
      expect(table).toMatchObject({ table_id: '表2-1', title: '断面稳定限额', columns: ['断面', '限额(MW)'], regulation: '断面限额规定' });
      expect(table.rows.map((r: { cells: string[] }) => r.cells[0])).toEqual(['甲乙断面', '丙丁断面']);
      expect(table.notes[0]).toMatchObject({ label: '注1' });

      const note = json(await client.callTool({ name: 'lookup_annotation', arguments: { reg_id: 'xiane', note: '注1' } }));
      expect(note.notes[0]).toMatchObject({ target_type: 'table', target: '表2-1' });

      const ref = json(await client.callTool({ name: 'resolve_reference', arguments: { reg_id: 'xiane', reference: '按本规定第二条执行' } }));
      expect(ref).toMatchObject({ resolved: true, reference_type: 'article', target: '第二条', page_num: 1 });

      const chapters = json(await client.callTool({ name: 'get_chapter_structure', arguments: { reg_id: 'xiane' } }));
      expect(chapters.chapters.map((c: { title: string }) => c.title)).toEqual(['第一章 总则', '第二章 限额']);
      expect(chapters.chapters[1].table_ids).toEqual(['表2-1']);

      const chapter = json(await client.callTool({ name: 'read_chapter_content', arguments: { reg_id: 'xiane', chapter: '第二章' } }));
      expect(chapter.blocks.map((b: { type: string }) => b.type)).toEqual(['table', 'note']);

      const hits = json(await client.callTool({ name: 'smart_search', arguments: { query: '丙丁断面 限额', reg_id: 'xiane', block_types: ['table'] } }));
      expect(hits.results.length).toBeGreaterThan(0);
      expect(hits.results.every((r: { block_type: string }) => r.block_type === 'table')).toBe(true);
      expect(hits.results[0].table).toMatchObject({ table_id: '表2-1', columns: ['断面', '限额(MW)'], row: { cells: ['丙丁断面', '900'] } });

      const scoped = json(await client.callTool({ name: 'smart_search', arguments: { query: '限额', reg_id: 'xiane', chapter_scope: '第一章' } }));
      expect(scoped.results.length).toBeGreaterThan(0);
      expect(scoped.results.every((r: { section: string }) => r.section.startsWith('第一章'))).toBe(true);

      const cmp = json(await client.callTool({ name: 'compare_sections', arguments: { reg_id_a: 'xiane', section_a: '第一条', reg_id_b: 'xiane', section_b: '第二条' } }));
      expect(cmp.common_terms).toContain('限额');
    } finally {
      await client.close();
    }
  });
});
