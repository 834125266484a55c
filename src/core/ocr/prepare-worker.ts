/**
 * Page-preparation thread (worker_threads), started by the ONNX thread (prepare-thread.ts): opens each OCR
 * document with its own pdf.js and prepares pages (prepare-page.ts) while the ONNX thread recognises the
 * previous one. Never loads onnxruntime (one thread per process may). Bundled as `ocr-prepare-worker.js`
 * beside the embedding worker.
 */
import { parentPort } from 'node:worker_threads';
import { closePrepDoc, openPrepDoc, preparePage, transferables, type PrepDoc } from './prepare-page';
import type { PrepRequest, PrepResponse } from './prepare-thread';

const port = parentPort!;
const docs = new Map<number, PrepDoc>();

async function handle(msg: PrepRequest): Promise<void> {
  try {
    if (msg.type === 'open') {
      const d = await openPrepDoc(msg.data, msg.limits);
      docs.set(msg.doc, d);
      port.postMessage({ id: msg.id, ok: true, value: d.doc.numPages } satisfies PrepResponse);
    } else if (msg.type === 'prepare') {
      const d = docs.get(msg.doc);
      if (!d) throw new Error('document not open');
      const value = await preparePage(d, msg.page, msg.scannerOnly);
      port.postMessage({ id: msg.id, ok: true, value } satisfies PrepResponse, transferables(value));
    } else {
      const d = docs.get(msg.doc);
      docs.delete(msg.doc);
      await closePrepDoc(d);
      port.postMessage({ id: msg.id, ok: true, value: null } satisfies PrepResponse);
    }
  } catch (e) {
    port.postMessage({ id: msg.id, ok: false, message: (e as Error).message ?? String(e) } satisfies PrepResponse);
  }
}

// one request at a time, in order: a page read ahead finishes before the next one starts
let chain = Promise.resolve();
port.on('message', (msg: PrepRequest) => {
  chain = chain.then(() => handle(msg));
});
