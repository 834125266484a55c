import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LineStdioTransport } from './stdio-transport';
import { z } from 'zod';
import type { AppContext } from '../core/context';
import { loadApiTable, type ApiName } from '../core/api/table';
import type { Operation } from '../core/common/operation';
import { invokeOperation } from '../core/api/invoke';
import { toErrorPayload } from '../core/common/errors';
import { projectRoot } from '../core/common/paths';
import fs from 'node:fs';
import path from 'node:path';

/** Every API-table operation that declares an `mcp` name, in table order. */
export async function mcpOperations(): Promise<{ tool: string; name: ApiName; op: Operation }[]> {
  return Object.entries(await loadApiTable())
    .filter(([, op]) => typeof op.mcp === 'string' && op.input instanceof z.ZodObject)
    .map(([name, op]) => ({ tool: op.mcp!, name: name as ApiName, op }));
}

function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * The MCP server is generic over the API table: adding `mcp: 'name'` to an operation exposes it here
 * (input schema from its zod input, description from its Chinese + English summary).
 */
export async function createMcpServer(ctx: AppContext): Promise<McpServer> {
  const server = new McpServer(
    { name: 'gridcode', version: version() },
    {
      instructions:
        'GridCode 规程库：先用 list_regulations 查看有哪些规程（含关键词与适用范围），再用 get_toc 看目录、read_page_range 按页阅读原文。' +
        ' / GridCode regulation library: list_regulations first, then get_toc and read_page_range to read the source text.',
    },
  );
  for (const { tool, name, op } of await mcpOperations()) {
    server.registerTool(
      tool,
      { title: op.summary.split(' / ')[0], description: op.summary, inputSchema: op.input as z.ZodObject },
      async (args: unknown) => {
        try {
          const out = await invokeOperation(ctx, name, args ?? {});
          return { content: [{ type: 'text' as const, text: JSON.stringify(out, null, 2) }] };
        } catch (e) {
          return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ error: toErrorPayload(e) }, null, 2) }] };
        }
      },
    );
  }
  return server;
}

/** Runs until stdin closes. stdout carries the protocol only: stray console.log goes to stderr. */
export async function runMcpServer(ctx: AppContext): Promise<void> {
  console.log = (...args: unknown[]) => console.error(...args);
  console.info = console.log;
  const server = await createMcpServer(ctx);
  const transport = new LineStdioTransport();
  transport.onerror = (e) => process.stderr.write(`[gridcode mcp] ${e.message}\n`);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
}
