import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
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
        '工具参数也接受 RegReader 的写法（如 start_page/end_page、reference_text、annotation_id），各工具说明中已注明。' +
        ' / GridCode regulation library: list_regulations first, then get_toc and read_page_range to read the source text.' +
        " Tools also accept RegReader's argument names (start_page/end_page, reference_text, annotation_id …), noted in each description.",
    },
  );
  const tools = await mcpOperations();
  for (const { tool, op } of tools) {
    // registered for tools/list (JSON schema from the zod input); calls are answered below
    server.registerTool(tool, { title: op.summary.split(' / ')[0], description: op.summary, inputSchema: op.input as z.ZodObject }, () => ({ content: [] }));
  }
  // The SDK would validate arguments itself and answer a wrong type with its own text wrapping raw zod
  // issue JSON; every call goes through the one call path instead, whose errors are readable.
  const byTool = new Map(tools.map((t) => [t.tool, t]));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = byTool.get(request.params.name);
    if (!entry) return toolError({ code: 'NOT_FOUND', message: `没有这个工具：${request.params.name} / unknown tool: ${request.params.name}` });
    try {
      const out = await invokeOperation(ctx, entry.name, request.params.arguments ?? {});
      return { content: [{ type: 'text' as const, text: JSON.stringify(out, null, 2) }] };
    } catch (e) {
      const payload = toErrorPayload(e);
      if (payload.code !== 'INVALID_INPUT') return toolError(payload);
      // wrong arguments: the Chinese message plus the same issues in English, never zod's issue objects
      const english = englishIssues(entry.op, request.params.arguments);
      return toolError({ code: payload.code, message: payload.message, ...(english ? { message_en: english } : {}) });
    }
  });
  return server;
}

function toolError(error: { code: string; message: string; message_en?: string; details?: unknown }) {
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ error }, null, 2) }] };
}

/** "Invalid arguments — devices: Invalid input: expected string, received number" for agents reading English. */
function englishIssues(op: Operation, args: unknown): string | null {
  const parsed = op.input.safeParse(args ?? {}, { error: z.locales.en().localeError });
  if (parsed.success) return null;
  return `Invalid arguments — ${parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ')}`;
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
