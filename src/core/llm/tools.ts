import { z } from 'zod';
import type { Operation } from '../common/operation';
import type { ToolDefinition } from './client';

/**
 * The API-table operations the chat agent may call, by their MCP tool names: seed 002 §5's four, then the
 * structure tools of issue 18 (tables, notes, references, chapters) so a multi-hop answer can open 表A.1
 * whole, read its 注, and follow "见附录D" instead of guessing from search snippets.
 */
export const CHAT_TOOL_NAMES = [
  'list_regulations',
  'get_toc',
  'smart_search',
  'read_page_range',
  'search_tables',
  'get_table_by_id',
  'lookup_annotation',
  'resolve_reference',
  'get_chapter_structure',
  'read_chapter_content',
  'find_similar_content',
  'compare_sections',
] as const;
export type ChatToolName = (typeof CHAT_TOOL_NAMES)[number];

export interface AgentTool {
  name: string;
  operation: string;
  definition: ToolDefinition;
}

/** JSON schema for function calling, derived from the op's zod input (never hand-written twice). */
export function toolParameters(op: Operation): Record<string, unknown> {
  const schema = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  if (schema.type !== 'object') return { type: 'object', properties: {}, additionalProperties: true };
  return schema;
}

/**
 * Tools for the chat agent: operations of the one API table (handed in by the run context)
 * that carry one of the chat MCP names. An engine that has not registered its op contributes no tool.
 */
export function chatTools(ops: readonly Operation[], names: readonly string[] = CHAT_TOOL_NAMES): AgentTool[] {
  const tools: AgentTool[] = [];
  for (const name of names) {
    const op = ops.find((o) => o.mcp === name);
    if (!op) continue;
    tools.push({
      name,
      operation: op.name,
      definition: { type: 'function', function: { name, description: op.summary, parameters: toolParameters(op) } },
    });
  }
  return tools;
}
