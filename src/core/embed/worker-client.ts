import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GridError } from '../common/errors';
import type { FromWorker, ModelSpec, ToWorker } from './protocol';
import type { OcrLimits, OcrPageResult } from '../ocr/types';

/**
 * Worker entry: electron-vite emits `embed-worker.js` beside the bundled main; from source
 * (tsx, vitest) a tiny .mjs bootstrap registers tsx and imports worker.ts.
 */
export function workerEntry(): URL {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = path.join(here, 'embed-worker.js');
  if (fs.existsSync(compiled)) return pathToFileURL(compiled);
  const bootstrap = path.join(here, 'worker-bootstrap.mjs');
  if (fs.existsSync(bootstrap)) return pathToFileURL(bootstrap);
  throw new GridError('INTERNAL', `找不到嵌入 worker：${compiled} 或 ${bootstrap} 都不存在（构建缺少 embed-worker 入口）`);
}

/** OCR requests the shared worker answers (open a document, read a page, close it). */
export type OcrRequest = { type: 'ocr-open'; doc: number; data: Uint8Array; limits: OcrLimits } | { type: 'ocr-page'; doc: number; page: number } | { type: 'ocr-close'; doc: number };

/**
 * What embedders and OCR documents use of the process's one ONNX thread: the thread itself
 * (EmbedHost, on the main thread), or a relay to it from another thread (relay.ts), so a worker
 * thread of this process never loads onnxruntime a second time.
 */
export interface SharedHost {
  dead: Error | null;
  /** Milliseconds the ONNX thread spent embedding, summed. */
  workMs: number;
  load(key: string, spec: ModelSpec): Promise<number>;
  /** Vectors of the texts, run `batch` at a time on the ONNX thread (one message whatever their number). */
  embed(key: string, texts: string[], batch: number): Promise<Float32Array[]>;
  ocr(msg: OcrRequest): Promise<unknown>;
  /** Drops one client's use of a model. */
  release(key: string): void;
  /** An OCR document is done with the host. */
  ocrClosed(): void;
}

interface Pending {
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
  count: number;
}

interface Load {
  promise: Promise<number>;
  resolve: (ms: number) => void;
  reject: (e: Error) => void;
  refs: number;
  done: boolean;
}

/**
 * The process's single embedding worker. onnxruntime-node 1.21 keeps a process-global N-API
 * reference, so two threads using it at once abort the whole process (microsoft/onnxruntime#24486):
 * every embedder (several contexts, an import probe) shares this one thread, which loads each
 * model once. Do not import onnxruntime-node or @huggingface/transformers on the main thread
 * while it runs. The thread is never restarted: after a worker that loaded the addon exits, a new
 * one fails with "Module did not self-register". So closing an embedder unloads its model and
 * the idle thread stays parked, unref'd, so it never keeps a process alive.
 */
class EmbedHost implements SharedHost {
  private worker: Worker;
  private pending = new Map<number, Pending>();
  private ocrPending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private loads = new Map<string, Load>();
  private nextId = 1;
  clients = 0;
  dead: Error | null = null;
  /** Milliseconds the worker spent embedding (tokenise + run + pool), summed. */
  workMs = 0;

  constructor() {
    this.worker = new Worker(workerEntry());
    this.worker.unref();
    this.worker.on('message', (msg: FromWorker) => this.onMessage(msg));
    this.worker.on('error', (e) => this.die(`嵌入 worker 出错：${e.message}`));
    this.worker.on('exit', (code) => this.die(`嵌入 worker 已退出（代码 ${code}）`));
  }

  acquire(): void {
    this.clients++;
  }

  load(key: string, spec: ModelSpec): Promise<number> {
    const existing = this.loads.get(key);
    if (existing) {
      existing.refs++;
      return existing.promise;
    }
    let resolve!: (ms: number) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<number>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => {});
    this.loads.set(key, { promise, resolve, reject, refs: 1, done: false });
    this.send({ type: 'load', key, spec });
    return promise;
  }

  embed(key: string, texts: string[], batch: number): Promise<Float32Array[]> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject, count: texts.length });
      this.send({ type: 'embed', id, key, texts, batch });
    });
  }

  /** One OCR request (open a document, read a page, close it), answered in order with the embeds. */
  ocr(msg: OcrRequest): Promise<unknown> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.ocrPending.set(id, { resolve, reject });
      this.send({ ...msg, id } as ToWorker);
    });
  }

  /** Drops one client's use of a model; the model is unloaded when its last client goes. */
  release(key: string): void {
    const load = this.loads.get(key);
    if (load && --load.refs === 0) {
      this.loads.delete(key);
      if (!this.dead) this.send({ type: 'unload', key });
    }
    this.clients--;
    this.settle();
  }

  ocrClosed(): void {
    this.clients--;
  }

  /** Models loaded right now (tests and status). */
  loadedModels(): number {
    return this.loads.size;
  }

  async terminate(): Promise<void> {
    this.dead ??= new GridError('CANCELLED', '嵌入 worker 已关闭');
    await this.worker.terminate();
  }

  private send(msg: ToWorker): void {
    this.worker.postMessage(msg);
    this.settle();
  }

  /** Referenced only while a load or an embed is outstanding, so idle never keeps a process alive. */
  private settle(): void {
    const busy = this.pending.size > 0 || this.ocrPending.size > 0 || [...this.loads.values()].some((l) => !l.done);
    if (busy) this.worker.ref();
    else this.worker.unref();
  }

  private onMessage(msg: FromWorker): void {
    if (msg.type === 'ocr-done' || msg.type === 'ocr-error') {
      const p = this.ocrPending.get(msg.id);
      this.ocrPending.delete(msg.id);
      if (msg.type === 'ocr-done') p?.resolve(msg.value);
      else p?.reject(new GridError('INTERNAL', `文字识别失败：${msg.message}`));
    } else if (msg.type === 'loaded' || msg.type === 'load-error') {
      const load = this.loads.get(msg.key);
      if (load) {
        load.done = true;
        if (msg.type === 'loaded') load.resolve(msg.loadMs);
        else {
          // forget failed loads so a later reload (files fixed) tries again
          this.loads.delete(msg.key);
          load.reject(new Error(msg.message));
        }
      }
    } else {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        if (msg.type === 'error') p.reject(new GridError('INTERNAL', `嵌入失败：${msg.message}`));
        else {
          this.workMs += msg.ms;
          const out: Float32Array[] = [];
          for (let i = 0; i < p.count; i++) out.push(msg.data.slice(i * msg.dims, (i + 1) * msg.dims));
          p.resolve(out);
        }
      }
    }
    this.settle();
  }

  private die(message: string): void {
    if (!this.dead) this.dead = new GridError('MODEL_MISSING', message);
    if (host === this) host = null;
    for (const p of this.pending.values()) p.reject(this.dead);
    this.pending.clear();
    for (const p of this.ocrPending.values()) p.reject(this.dead);
    this.ocrPending.clear();
    for (const l of this.loads.values()) l.reject(this.dead);
  }
}

let host: EmbedHost | null = null;
/** Set in a worker thread that reaches the ONNX thread through its parent (relay.ts). */
let relay: SharedHost | null = null;

/** Makes this thread's embedders and OCR documents use `shared` (a relay to the main thread's ONNX thread). */
export function useSharedHost(shared: SharedHost): void {
  relay = shared;
}

/** Ends the shared worker (process shutdown). A process cannot start another one afterwards. */
export async function shutdownEmbedWorker(): Promise<void> {
  const h = host;
  host = null;
  if (h) await h.terminate();
}

/** Number of models the shared worker holds (0 when none or no worker). */
export function loadedModelCount(): number {
  return host && !host.dead ? host.loadedModels() : 0;
}

/** The ONNX thread for one more client (started on first use), or this thread's relay to it. */
export function acquireHost(): SharedHost {
  if (relay) return relay;
  if (!host || host.dead) host = new EmbedHost();
  host.acquire();
  return host;
}

/** One embedder's handle on a model loaded in the shared worker. */
export class WorkerClient {
  private readonly host: SharedHost;
  private readonly key: string;
  private dead: Error | null = null;
  private closed = false;
  /** Resolves with the model load time (0 when another client had loaded it already). */
  readonly ready: Promise<number>;

  constructor(spec: ModelSpec, label: string) {
    this.host = acquireHost();
    this.key = JSON.stringify(spec);
    this.ready = this.host.load(this.key, spec).catch((e: Error) => {
      this.dead ??= new GridError('MODEL_MISSING', `嵌入模型 ${label} 加载失败：${e.message}`);
      throw this.dead;
    });
    this.ready.catch(() => {});
  }

  /** Why this client can no longer embed (load failure, worker crash, closed), or null. */
  failure(): Error | null {
    return this.dead ?? (this.host.dead && !this.closed ? this.host.dead : null);
  }

  /** Milliseconds the shared worker has spent embedding (all clients). */
  workerMs(): number {
    return this.host.workMs;
  }

  /** Vectors of the texts, `batch` per model run (sort them by length first: less padding). */
  async embed(texts: string[], batch = texts.length): Promise<Float32Array[]> {
    await this.ready;
    const failure = this.failure();
    if (failure) throw failure;
    return this.host.embed(this.key, texts, Math.max(1, batch));
  }

  async terminate(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.dead ??= new GridError('CANCELLED', '嵌入模型已关闭');
    this.host.release(this.key);
  }
}

let nextDoc = 1;

/**
 * A PDF opened for OCR in the shared ONNX worker; pages are read one request at a time, so a
 * cancelled import stops after the page in flight. Holds the worker (referenced) until closed.
 */
export class OcrDocument {
  private readonly host: SharedHost;
  private readonly doc = nextDoc++;
  private closed = false;

  private constructor(host: SharedHost) {
    this.host = host;
  }

  static async open(bytes: Uint8Array, limits: OcrLimits): Promise<OcrDocument> {
    const host = acquireHost();
    const d = new OcrDocument(host);
    try {
      // a copy: pdf.js in the worker takes ownership of its buffer
      await host.ocr({ type: 'ocr-open', doc: d.doc, data: new Uint8Array(bytes), limits });
    } catch (e) {
      await d.close();
      throw e;
    }
    return d;
  }

  async readPage(page: number): Promise<OcrPageResult> {
    return (await this.host.ocr({ type: 'ocr-page', doc: this.doc, page })) as OcrPageResult;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.host.ocr({ type: 'ocr-close', doc: this.doc }).catch(() => {});
    this.host.ocrClosed();
  }
}
