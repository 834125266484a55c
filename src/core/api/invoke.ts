import { z } from 'zod';
import { GridError } from '../common/errors';
import type { AppContext } from '../context';
import type { Operation, OperationRun } from './operation';
import { apiTable, type ApiName, type ApiInput, type ApiOutput } from './table';

// Validation messages in Chinese: the UI is Chinese-first and shows them as they are.
z.config(z.locales.zhCN());

/** "query: 无效输入：期望 string，实际接收 number" — names the field for every adapter. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(输入)'}: ${issue.message}`)
    .join('; ');
}

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

const noop: OperationRun = { progress: () => {}, signal: new AbortController().signal };

/** The single call path every adapter uses: validate input, run, validate output. */
export async function invokeOperation<N extends ApiName>(
  ctx: AppContext,
  name: N,
  raw: ApiInput<N> | unknown,
  run: Partial<OperationRun> = {},
): Promise<ApiOutput<N>> {
  const op = getOperation(name);
  const input = parseInput(op, raw);
  const result = await op.handler(ctx, input as never, { ...noop, ...run });
  const checked = op.output.safeParse(result);
  if (!checked.success) {
    throw new GridError('INTERNAL', `内部错误：${name} 的输出不符合约定 — ${describeZodError(checked.error)}`);
  }
  return checked.data as ApiOutput<N>;
}
