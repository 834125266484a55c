import { GridError } from '../common/errors';
import type { AppContext } from '../context';
import { describeZodError, type Operation, type OperationRun } from '../common/operation';
import { apiTable, type ApiName, type ApiInput, type ApiOutput } from './table';

export function getOperation(name: string): Operation {
  const op = (apiTable as Record<string, Operation>)[name];
  if (!op) throw new GridError('NOT_FOUND', `未知操作: ${name}`);
  return op;
}

export function parseInput(op: Operation, raw: unknown): unknown {
  const parsed = op.input.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new GridError('INVALID_INPUT', `参数无效 (${op.name}) — ${describeZodError(parsed.error)}`, parsed.error.issues);
  }
  return parsed.data;
}

const neverAborted = new AbortController().signal;
const allOperations: readonly Operation[] = Object.values(apiTable as Record<string, Operation>);

/**
 * The single call path every adapter uses: validate input, run, validate output. Handlers get
 * `run.invoke` (this same path, inheriting the cancel signal) to call other operations.
 */
export async function invokeOperation<N extends ApiName>(
  ctx: AppContext,
  name: N,
  raw: ApiInput<N> | unknown,
  run: Partial<Pick<OperationRun, 'progress' | 'signal'>> = {},
): Promise<ApiOutput<N>> {
  const op = getOperation(name);
  const input = parseInput(op, raw);
  const signal = run.signal ?? neverAborted;
  const full: OperationRun = {
    progress: run.progress ?? (() => {}),
    signal,
    invoke: (other, otherInput, otherRun = {}) => invokeOperation(ctx, other as ApiName, otherInput, { signal, ...otherRun }),
    operations: () => allOperations,
  };
  const result = await op.handler(ctx, input as never, full);
  const checked = op.output.safeParse(result);
  if (!checked.success) {
    throw new GridError('INTERNAL', `内部错误：${name} 的输出不符合约定 — ${describeZodError(checked.error)}`);
  }
  return checked.data as ApiOutput<N>;
}
