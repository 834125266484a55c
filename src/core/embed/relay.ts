/**
 * onnxruntime-node must run in one thread per process (worker-client.ts). A worker thread that runs
 * whole operations (the browser shell's import thread) still embeds and reads scanned pages: its
 * embedders and OCR documents talk to a `RelayHost`, which forwards each request over a MessagePort
 * to `serveEmbedRelay` on the main thread, which hands it to the process's one ONNX thread.
 * When the relaying thread ends (finished, cancelled, out of memory), whatever it still held there
 * (model references, open OCR documents) is released.
 */
import type { MessagePort } from 'node:worker_threads';
import { GridError } from '../common/errors';
import type { ModelSpec } from './protocol';
import { acquireHost, type OcrRequest, type SharedHost } from './worker-client';

type ToMain =
  | { t: 'load'; id: number; key: string; spec: ModelSpec }
  | { t: 'embed'; id: number; key: string; texts: string[]; batch: number }
  | { t: 'ocr'; id: number; msg: OcrRequest }
  | { t: 'release'; key: string }
  | { t: 'ocr-closed' };

type FromMain = { t: 'ok'; id: number; value: unknown; workMs: number } | { t: 'fail'; id: number; code: string; message: string };

/** The worker thread's side: a SharedHost whose every request is answered by the main thread. */
export class RelayHost implements SharedHost {
  dead: Error | null = null;
  workMs = 0;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (msg: FromMain) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.t === 'ok') {
        this.workMs = msg.workMs;
        p.resolve(msg.value);
      } else p.reject(new GridError(msg.code as never, msg.message));
      if (!this.pending.size) port.unref();
    });
    port.on('close', () => {
      this.dead = new GridError('MODEL_MISSING', '嵌入线程的连接已关闭');
      for (const p of this.pending.values()) p.reject(this.dead);
      this.pending.clear();
    });
    port.unref();
  }

  private request(msg: ToMain extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never): Promise<unknown> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.ref();
      this.port.postMessage({ ...msg, id });
    });
  }

  load(key: string, spec: ModelSpec): Promise<number> {
    return this.request({ t: 'load', key, spec }) as Promise<number>;
  }

  embed(key: string, texts: string[], batch: number): Promise<Float32Array[]> {
    return this.request({ t: 'embed', key, texts, batch }) as Promise<Float32Array[]>;
  }

  ocr(msg: OcrRequest): Promise<unknown> {
    return this.request({ t: 'ocr', msg });
  }

  release(key: string): void {
    if (!this.dead) this.port.postMessage({ t: 'release', key } satisfies ToMain);
  }

  ocrClosed(): void {
    if (!this.dead) this.port.postMessage({ t: 'ocr-closed' } satisfies ToMain);
  }
}

/**
 * The main thread's side for one relaying thread. Returns `end()`, to call when that thread is gone:
 * it releases the models it still referenced and closes the OCR documents it left open.
 */
export function serveEmbedRelay(port: MessagePort): { end(): void } {
  let shared: SharedHost | null = null;
  const host = () => (shared ??= acquireHost());
  const models = new Map<string, number>();
  /** the relaying thread's OCR document numbers -> this thread's (both count from 1) */
  const docs = new Map<number, number>();
  let nextDoc = -1;
  const reply = (id: number, run: () => Promise<unknown>) =>
    run().then(
      (value) => port.postMessage({ t: 'ok', id, value, workMs: host().workMs } satisfies FromMain),
      (e: Error) => port.postMessage({ t: 'fail', id, code: (e as { code?: string }).code ?? 'INTERNAL', message: e.message } satisfies FromMain),
    );
  port.on('message', (msg: ToMain) => {
    switch (msg.t) {
      case 'load':
        models.set(msg.key, (models.get(msg.key) ?? 0) + 1);
        return void reply(msg.id, () => host().load(msg.key, msg.spec));
      case 'embed':
        return void reply(msg.id, () => host().embed(msg.key, msg.texts, msg.batch));
      case 'release': {
        const n = models.get(msg.key) ?? 0;
        if (n <= 0) return;
        if (n === 1) models.delete(msg.key);
        else models.set(msg.key, n - 1);
        return host().release(msg.key);
      }
      case 'ocr-closed':
        return host().ocrClosed();
      case 'ocr': {
        const m = msg.msg;
        // document numbers on the ONNX thread are this process's: negative ones never meet the main thread's
        if (m.type === 'ocr-open') docs.set(m.doc, nextDoc--);
        const doc = docs.get(m.doc);
        if (doc === undefined) return void reply(msg.id, () => Promise.reject(new GridError('INTERNAL', '文字识别文档未打开')));
        if (m.type === 'ocr-close') docs.delete(m.doc);
        return void reply(msg.id, () => host().ocr({ ...m, doc }));
      }
    }
  });
  return {
    end() {
      port.close();
      if (!shared) return;
      for (const [key, n] of models) for (let i = 0; i < n; i++) shared.release(key);
      models.clear();
      for (const doc of docs.values()) {
        void shared.ocr({ type: 'ocr-close', doc }).catch(() => {});
        shared.ocrClosed();
      }
      docs.clear();
    },
  };
}
