import { GridError } from '../common/errors';
import type { AppContext } from '../context';
import { confineInput } from '../common/file-access';
import { describeZodError, type Operation, type OperationRun } from '../common/operation';
import { findOperation, loadApiTable, type ApiName, type ApiInput, type ApiOutput } from './table';

export function parseInput(op: Operation, raw: unknown): unknown {
  const parsed = op.input.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new GridError('INVALID_INPUT', `参数无效 (${op.name}) — ${describeZodError(parsed.error)}`, parsed.error.issues);
  }
  return parsed.data;
}

const neverAborted = new AbortController().signal;

/**
 * The single call path every adapter uses: validate input, run, validate output. Handlers get
 * `run.invoke` (this same path, inheriting the cancel signal) to call other operations.
 */
export async function invokeOperation<N extends ApiName>(
  ctx: AppContext,
  name: N,
  raw: ApiInput<N> | unknown,
  run?: Partial<Pick<OperationRun, 'progress' | 'signal'>>,
): Promise<ApiOutput<N>>;
/** A name from outside (IPC, HTTP, MCP, a model's tool call): unknown names fail with NOT_FOUND. */
export async function invokeOperation(
  ctx: AppContext,
  name: string,
  raw: unknown,
  run?: Partial<Pick<OperationRun, 'progress' | 'signal'>>,
): Promise<unknown>;
export async function invokeOperation(
  ctx: AppContext,
  name: string,
  raw: unknown,
  run: Partial<Pick<OperationRun, 'progress' | 'signal'>> = {},
): Promise<unknown> {
  const op = await findOperation(name);
  // adapters serving other callers (bridge, MCP) set ctx.fileAccess: every declared path is confined
  const input = confineInput(ctx.fileAccess, op.input, parseInput(op, raw));
  const signal = run.signal ?? neverAborted;
  const full: OperationRun = {
    progress: run.progress ?? (() => {}),
    signal,
    invoke: (other, otherInput, otherRun = {}) => invokeOperation(ctx, other, otherInput, { signal, ...otherRun }),
    operations: async () => Object.values(await loadApiTable()),
  };
  const result = await op.handler(ctx, input as never, full);
  const checked = op.output.safeParse(result);
  if (!checked.success) {
    throw new GridError('INTERNAL', `内部错误：${name} 的输出不符合约定 — ${describeZodError(checked.error)}`);
  }
  return checked.data;
}
