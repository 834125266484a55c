import type { z } from 'zod';
import type { AppContext } from '../context';

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

export interface OperationRun {
  progress: ProgressSink;
  signal: AbortSignal;
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
