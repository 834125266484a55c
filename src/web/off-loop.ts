/**
 * Runs operations marked `offLoop` (long synchronous work: imports) in a child process (op-runner.ts)
 * instead of on the shell's event loop, so one heavy request never blocks the others. One child,
 * started on first use and reused; a child that dies (a file exhausting its memory) fails the jobs it
 * held with a clear message, and the next job starts a fresh one. Progress and cancellation cross
 * the fork IPC channel.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GridError, type ErrorPayload } from '../core/common/errors';
import type { ProgressEvent } from '../core/common/operation';
import type { LlmSettings } from '../core/llm/client';

export type ToRunner = { type: 'run'; id: number; name: string; input: unknown; llm: LlmSettings } | { type: 'cancel'; id: number };
export type FromRunner =
  | { type: 'ready' }
  | { type: 'progress'; id: number; event: ProgressEvent }
  | { type: 'result'; id: number; data: unknown }
  | { type: 'error'; id: number; error: ErrorPayload };

interface Job {
  resolve: (data: unknown) => void;
  reject: (e: Error) => void;
  progress: (event: ProgressEvent) => void;
}

export interface OffLoopRunner {
  run(name: string, input: unknown, options: { llm: LlmSettings; progress: (e: ProgressEvent) => void; signal: AbortSignal }): Promise<unknown>;
  close(): Promise<void>;
  /** The runner process while it is up (tests, the attack eval). */
  pid(): number | null;
}

export function createOffLoopRunner(setup: { dataDir: string; modelsDir?: string; roots: readonly string[] }): OffLoopRunner {
  let child: ChildProcess | null = null;
  const jobs = new Map<number, Job>();
  let nextId = 1;

  const start = (): ChildProcess => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const c = fork(path.join(here, 'op-runner-bootstrap.mjs'), [], {
      env: { ...process.env, GRIDCODE_RUNNER: JSON.stringify(setup) },
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    c.on('message', (msg: FromRunner) => {
      if (msg.type === 'ready') return;
      const job = jobs.get(msg.id);
      if (!job) return;
      if (msg.type === 'progress') return job.progress(msg.event);
      jobs.delete(msg.id);
      if (msg.type === 'result') job.resolve(msg.data);
      else job.reject(new GridError(msg.error.code, msg.error.message, msg.error.details));
    });
    c.on('exit', () => {
      if (child === c) child = null;
      for (const [id, job] of jobs) {
        jobs.delete(id);
        job.reject(new GridError('INTERNAL', '后台导入进程意外退出（可能是文件过大导致内存不足），本次操作未完成，其他功能不受影响；请检查文件后重试'));
      }
    });
    return c;
  };

  return {
    run(name, input, { llm, progress, signal }) {
      const id = nextId++;
      child ??= start();
      const c = child;
      return new Promise((resolve, reject) => {
        jobs.set(id, { resolve, reject, progress });
        signal.addEventListener('abort', () => c.connected && c.send({ type: 'cancel', id } satisfies ToRunner), { once: true });
        c.send({ type: 'run', id, name, input, llm } satisfies ToRunner);
      });
    },
    pid: () => child?.pid ?? null,
    async close() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
        c.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        c.disconnect();
      });
    },
  };
}
