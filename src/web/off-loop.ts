/**
 * Runs the operations marked `offLoop` (imports: parsing and one transaction per file, seconds of
 * synchronous work) in a worker thread (op-worker.ts) instead of on the shell's event loop, so one
 * heavy request never blocks the others. The thread opens its own connection to the same data dir
 * (the engines already serve several writers at once, like a CLI import beside the app; the shell's
 * caches check the data's version) and reaches the process's one ONNX thread through a relay
 * (core/embed/relay.ts). Progress streams back; cancel aborts the job's signal, and a job still
 * running a few seconds later (in the middle of one file's synchronous work) is stopped by ending the
 * thread: SQLite rolls back the transaction it had open, so nothing is half-written. A thread that
 * dies (a file exhausting its memory) fails its jobs with a Chinese message; the next job starts a
 * fresh one. The thread is started on first use and ended after a minute without work.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { GridError, type ErrorPayload } from '../core/common/errors';
import type { ProgressEvent } from '../core/common/operation';
import type { AppConfig } from '../core/config';
import { serveEmbedRelay } from '../core/embed/relay';

export type ToOpWorker = { type: 'run'; id: number; name: string; input: unknown; config: AppConfig } | { type: 'cancel'; id: number } | { type: 'close' };
export type FromOpWorker =
  | { type: 'progress'; id: number; event: ProgressEvent }
  | { type: 'result'; id: number; data: unknown }
  | { type: 'error'; id: number; error: ErrorPayload };

/** What the thread needs to open its context: the shell's data dir, folders and file-access roots. */
export interface OpWorkerSetup {
  dataDir: string;
  modelsDir: string;
  resourcesDir: string;
  roots: readonly string[];
}

export interface OffLoopRunner {
  run(name: string, input: unknown, options: { config: AppConfig; progress: (e: ProgressEvent) => void; signal: AbortSignal }): Promise<unknown>;
  /** Jobs in flight (tests). */
  busy(): number;
  /** The thread while it is up (tests end it to play a crash). */
  worker(): Worker | null;
  close(): Promise<void>;
}

interface Job {
  resolve: (data: unknown) => void;
  reject: (e: Error) => void;
  progress: (event: ProgressEvent) => void;
  cancelled: boolean;
}

/** How long a cancelled job may take to notice before its thread is ended. */
const CANCEL_GRACE_MS = 3000;
const IDLE_MS = 60_000;
/** The thread's heap: a file that exhausts it ends the thread, never the shell. */
const HEAP_MB = 3072;

function workerEntry(): URL {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = path.join(here, 'op-worker.js');
  return pathToFileURL(fs.existsSync(compiled) ? compiled : path.join(here, 'op-worker-bootstrap.mjs'));
}

export interface OffLoopOptions {
  /** the thread's heap limit (MB) */
  heapMb?: number;
  /** how long a cancelled job may take to notice before its thread is ended (ms) */
  cancelGraceMs?: number;
}

export function createOffLoopRunner(setup: OpWorkerSetup, options: OffLoopOptions = {}): OffLoopRunner {
  let worker: Worker | null = null;
  let relayEnd: (() => void) | null = null;
  const jobs = new Map<number, Job>();
  let nextId = 1;
  let idle: NodeJS.Timeout | null = null;

  const fail = (job: Job, why: string, code: 'INTERNAL' | 'TOO_LARGE' | 'CANCELLED') => job.reject(new GridError(code, why));

  const start = (): Worker => {
    const channel = new MessageChannel();
    const w = new Worker(workerEntry(), {
      workerData: { setup, relay: channel.port2 },
      transferList: [channel.port2],
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? HEAP_MB },
      stdout: false,
      stderr: false,
    });
    relayEnd = serveEmbedRelay(channel.port1).end;
    w.on('message', (msg: FromOpWorker) => {
      const job = jobs.get(msg.id);
      if (!job) return;
      if (msg.type === 'progress') return job.progress(msg.event);
      jobs.delete(msg.id);
      if (msg.type === 'result') job.resolve(msg.data);
      else job.reject(new GridError(msg.error.code, msg.error.message, msg.error.details));
      settle();
    });
    let error: (Error & { code?: string }) | null = null;
    w.on('error', (e) => (error = e));
    w.on('exit', () => {
      if (worker === w) worker = null;
      relayEnd?.();
      relayEnd = null;
      const outOfMemory = error?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      for (const [id, job] of jobs) {
        jobs.delete(id);
        if (job.cancelled) fail(job, '导入已取消（正在导入的文件未写入，之前完成的文件已保留）', 'CANCELLED');
        else if (outOfMemory) fail(job, '文件过大：解析时内存超过上限，本次导入未写入该文件；其他功能不受影响', 'TOO_LARGE');
        else fail(job, '后台导入线程意外结束，本次导入未完成（已完成的文件已保留），其他功能不受影响；请检查文件后重试', 'INTERNAL');
      }
    });
    return w;
  };

  /** Ends an idle thread after a while (it holds its own copy of the search indexes). */
  const settle = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    if (jobs.size || !worker) return;
    idle = setTimeout(() => void stop(), IDLE_MS);
    idle.unref();
  };

  const stop = async (): Promise<void> => {
    const w = worker;
    worker = null;
    if (!w) return;
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    w.postMessage({ type: 'close' } satisfies ToOpWorker);
    const timer = setTimeout(() => void w.terminate(), 5000);
    await exited;
    clearTimeout(timer);
  };

  return {
    run(name, input, { config, progress, signal }) {
      if (idle) clearTimeout(idle);
      idle = null;
      const id = nextId++;
      const w = (worker ??= start());
      return new Promise((resolve, reject) => {
        const job: Job = { resolve, reject, progress, cancelled: false };
        jobs.set(id, job);
        const cancel = () => {
          if (!jobs.has(id)) return;
          job.cancelled = true;
          w.postMessage({ type: 'cancel', id } satisfies ToOpWorker);
          // still busy in one file's synchronous work: end the thread (its open transaction rolls back)
          setTimeout(() => {
            if (jobs.has(id) && worker === w) {
              worker = null;
              void w.terminate();
            }
          }, options.cancelGraceMs ?? CANCEL_GRACE_MS).unref();
        };
        if (signal.aborted) cancel();
        else signal.addEventListener('abort', cancel, { once: true });
        w.postMessage({ type: 'run', id, name, input, config } satisfies ToOpWorker);
      });
    },
    busy: () => jobs.size,
    worker: () => worker,
    async close() {
      if (idle) clearTimeout(idle);
      idle = null;
      await stop();
    },
  };
}
