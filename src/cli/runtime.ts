import type { Command } from 'commander';
import { createAppContext, type AppContext } from '../core/context';
import { invokeOperation } from '../core/api/invoke';
import type { ApiInput, ApiName, ApiOutput } from '../core/api/table';
import { toErrorPayload } from '../core/common/errors';
import { createProgressReporter } from './progress';

export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
}

export function globalOptions(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/** Opens the app context for one command and always closes it (workers, database). */
export async function withContext<T>(cmd: Command, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = createAppContext({ dataDir: globalOptions(cmd).dataDir });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

export function printJson(data: unknown): void {
  process.stdout.write(JSON.stringify(data, null, 2) + '\n');
}

/**
 * Runs one API operation for a CLI command: --json prints the operation's output as is
 * (that is the contract), otherwise `human` renders it. Progress goes to stderr.
 */
export async function runOperation<N extends ApiName>(
  cmd: Command,
  name: N,
  input: ApiInput<N>,
  human: (out: ApiOutput<N>) => string,
  options: { progress?: boolean; ctx?: AppContext } = {},
): Promise<ApiOutput<N>> {
  const exec = async (ctx: AppContext) => {
    const reporter = options.progress ? createProgressReporter() : undefined;
    try {
      return await invokeOperation(ctx, name, input, reporter ? { progress: reporter.sink } : {});
    } finally {
      reporter?.stop();
    }
  };
  const out = options.ctx ? await exec(options.ctx) : await withContext(cmd, exec);
  if (globalOptions(cmd).json) printJson(out);
  else {
    const text = human(out);
    if (text) process.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
  return out;
}

/** Prints an error the way the caller asked for (JSON on stdout with --json) and sets the exit code. */
export function reportError(e: unknown, json: boolean): void {
  const payload = toErrorPayload(e);
  if (json) printJson({ error: payload });
  process.stderr.write(`错误 [${payload.code}]: ${payload.message}\n`);
  if (payload.code === 'INTERNAL' && process.env.GRIDCODE_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  process.exitCode = payload.code === 'INVALID_INPUT' ? 2 : 1;
}
