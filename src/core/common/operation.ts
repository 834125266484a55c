import { z } from 'zod';
import type { AppContext } from '../context';

// Validation messages in Chinese: the UI is Chinese-first and shows them as they are.
z.config(z.locales.zhCN());

/**
 * The contract every engine's api.ts declares its operations with. It lives below the engines:
 * engines import this, never the API table (src/core/api/table.ts) that composes them.
 */

/** Progress of long work (imports, indexing, model pulls), streamed to CLI bars and UI bars. */
export interface ProgressEvent {
  stage: string;
  done: number;
  total: number;
  /** e.g. the file being processed */
  item?: string;
  message?: string;
}

export type ProgressSink = (event: ProgressEvent) => void;

/**
 * Calls another operation by name through the one call path (input and output validated).
 * Handed to handlers by the composition root, so an engine that needs another engine's
 * operation (the chat agent's tools) never imports the table.
 */
export type Invoke = (name: string, input: unknown, run?: Partial<Pick<OperationRun, 'progress' | 'signal'>>) => Promise<unknown>;

export interface OperationRun {
  progress: ProgressSink;
  signal: AbortSignal;
  invoke: Invoke;
  /** Every registered operation, e.g. to offer some of them to a model as tools. */
  operations: () => readonly Operation[];
}

/**
 * One operation of the API table. Declared once; IPC, HTTP, CLI and MCP adapters all
 * validate with `input`, call `handler`, and return data shaped by `output`.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  /** One line, Chinese then English; reused as MCP tool description. */
  summary: string;
  input: I;
  output: O;
  /** Name of the MCP tool when the operation is exposed to agents. */
  mcp?: string;
  handler: (ctx: AppContext, input: z.output<I>, run: OperationRun) => Promise<z.input<O>> | z.input<O>;
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}

/** "query: 无效输入：期望 string，实际接收 number" — names the field for every adapter. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(输入)'}: ${issue.message}`)
    .join('; ');
}
