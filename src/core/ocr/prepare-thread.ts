/**
 * The ONNX thread's handle on page preparation: a second worker thread (prepare-worker.ts) with its own
 * pdf.js, so a page is decoded and levelled while ONNX Runtime reads the one before it; when that thread's
 * entry is missing (a build without it) the same functions run in this thread, one after the other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { closePrepDoc, openPrepDoc, preparePage, type PrepDoc, type PreparedPage } from './prepare-page';
import type { OcrLimits } from './types';

export type PrepRequest =
  | { id: number; type: 'open'; doc: number; data: Uint8Array; limits: OcrLimits }
  | { id: number; type: 'prepare'; doc: number; page: number; scannerOnly: boolean }
  | { id: number; type: 'close'; doc: number };
export type PrepResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** Compiled builds: `ocr-prepare-worker.js` beside this bundle; from source: the tsx bootstrap. */
function entry(): URL | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const f of ['ocr-prepare-worker.js', 'prepare-worker-bootstrap.mjs']) if (fs.existsSync(path.join(here, f))) return pathToFileURL(path.join(here, f));
  return null;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

function request(msg: WithoutId<PrepRequest>, transfer: ArrayBuffer[] = []): Promise<unknown> {
  if (!worker) {
    const url = entry();
    if (!url) return Promise.reject(new Error('no preparation thread'));
    const w = new Worker(url);
    w.unref();
    w.on('message', (m: PrepResponse) => {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.ok) p?.resolve(m.value);
      else p?.reject(new Error(m.message));
    });
    const fail = (e: Error) => {
      if (worker === w) worker = null;
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    };
    w.on('error', fail);
    w.on('exit', () => fail(new Error('页面预处理线程已退出')));
    worker = w;
  }
  const id = nextId++;
  const w = worker;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ ...msg, id } as PrepRequest, transfer);
  });
}

/** One document's pages, prepared in the other thread when it exists, else here. */
export interface PagePreparer {
  numPages: number;
  prepare(page: number, scannerOnly?: boolean): Promise<PreparedPage | null>;
  close(): Promise<void>;
}

let nextDoc = 1;

export async function openPreparer(data: Uint8Array, limits: OcrLimits): Promise<PagePreparer> {
  if (entry()) {
    const doc = nextDoc++;
    const numPages = (await request({ type: 'open', doc, data, limits })) as number;
    return {
      numPages,
      prepare: (page, scannerOnly = false) => request({ type: 'prepare', doc, page, scannerOnly }) as Promise<PreparedPage | null>,
      close: async () => {
        await request({ type: 'close', doc }).catch(() => {});
      },
    };
  }
  const d: PrepDoc = await openPrepDoc(data, limits);
  return { numPages: d.doc.numPages, prepare: (page, scannerOnly = false) => preparePage(d, page, scannerOnly), close: () => closePrepDoc(d) };
}
