import { z } from 'zod';
import type { AppContext } from '../context';
import { GridError } from './errors';

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
  operations: () => Promise<readonly Operation[]>;
}

/**
 * One operation as an engine declares it. Declared once; IPC, HTTP, CLI and MCP adapters all
 * validate with `input`, call `handler`, and return data shaped by `output`.
 */
export interface OperationSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** One line, Chinese then English; reused as MCP tool description. */
  summary: string;
  input: I;
  output: O;
  /** Name of the MCP tool when the operation is exposed to agents. */
  mcp?: string;
  /**
   * The files named in the input are imported, not kept referring to: an adapter that staged them
   * for the caller (the browser shell's uploads) removes them when the operation ends, however it ends.
   */
  consumesFiles?: boolean;
  /**
   * Seconds of synchronous work (imports: parsing, one transaction per file). An adapter serving
   * several callers at once (the browser-shell bridge) runs it off its event loop, so one heavy
   * request never blocks the others (src/web/off-loop.ts).
   */
  offLoop?: boolean;
  handler: (ctx: AppContext, input: z.output<I>, run: OperationRun) => Promise<z.input<O>> | z.input<O>;
}

/** A registered operation: its spec plus the name it is registered under (the key in its engine's map). */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends OperationSpec<I, O> {
  name: string;
}

/** Types one operation's handler from its zod schemas. */
export function defineOperation<I extends z.ZodType, O extends z.ZodType>(spec: OperationSpec<I, O>): OperationSpec<I, O> {
  return spec;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers differ in input type; any keeps each one's own
type AnySpec = OperationSpec<any, any>;
/** Any engine's operation (handlers differ in input type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any>;

export type NamedOperations<M extends Record<string, AnySpec>> = { [K in keyof M & string]: M[K] & { name: K } };

/**
 * An engine's operations, keyed by name: the key is the name (written once), so
 * `{ 'regulations.list': defineOperation({...}) }` registers `regulations.list`.
 */
export function defineOperations<const M extends Record<string, AnySpec>>(specs: M): NamedOperations<M> {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, { ...spec, name }])) as NamedOperations<M>;
}

type Merged<T extends readonly object[]> = T extends readonly [infer Head, ...infer Rest extends readonly object[]] ? Head & Merged<Rest> : unknown;

/**
 * Merges the engines' operation maps into the one table. A name registered twice fails at
 * start-up (like Actual Budget's handler registration) instead of one engine silently winning.
 */
export function registerOperations<const T extends readonly Record<string, AnyOperation>[]>(...groups: T): Merged<T> {
  const table: Record<string, AnyOperation> = {};
  for (const group of groups) {
    for (const [name, op] of Object.entries(group)) {
      if (Object.hasOwn(table, name)) throw new GridError('INTERNAL', `操作名重复：${name} 被注册了两次`);
      if (op.name !== name) throw new GridError('INTERNAL', `操作 ${name} 的名称与注册名不一致（${op.name}）`);
      table[name] = op;
    }
  }
  return table as Merged<T>;
}

/** "query: 无效输入：期望 string，实际接收 number" — names the field for every adapter. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(输入)'}: ${issue.message}`)
    .join('; ');
}
