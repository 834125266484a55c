/**
 * The browser shell's operation thread (see off-loop.ts): runs the operations marked `offLoop`
 * through the one call path, on its own context over the shell's data dir, with the shell's file
 * access and configuration. Embedding and OCR go through the relay to the process's ONNX thread.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createAppContext, type AppContext } from '../core/context';
import { invokeOperation } from '../core/api/invoke';
import { toErrorPayload } from '../core/common/errors';
import { RelayHost } from '../core/embed/relay';
import { useSharedHost } from '../core/embed/worker-client';
import type { FromOpWorker, OpWorkerSetup, ToOpWorker } from './off-loop';

const { setup, relay } = workerData as { setup: OpWorkerSetup; relay: MessagePort };
useSharedHost(new RelayHost(relay));
const port = parentPort!;
let ctx: AppContext | null = null;
const running = new Map<number, AbortController>();
const send = (msg: FromOpWorker) => port.postMessage(msg);

async function run(msg: Extract<ToOpWorker, { type: 'run' }>): Promise<void> {
  const abort = new AbortController();
  running.set(msg.id, abort);
  try {
    ctx ??= createAppContext({ dataDir: setup.dataDir, modelsDir: setup.modelsDir, resourcesDir: setup.resourcesDir });
    ctx.fileAccess = { roots: setup.roots };
    ctx.config = msg.config;
    const data = await invokeOperation(ctx, msg.name, msg.input, { signal: abort.signal, progress: (event) => send({ type: 'progress', id: msg.id, event }) });
    send({ type: 'result', id: msg.id, data });
  } catch (e) {
    send({ type: 'error', id: msg.id, error: toErrorPayload(e) });
  } finally {
    running.delete(msg.id);
  }
}

port.on('message', (msg: ToOpWorker) => {
  if (msg.type === 'run') void run(msg);
  else if (msg.type === 'cancel') running.get(msg.id)?.abort();
  else {
    for (const a of running.values()) a.abort();
    void (ctx?.close() ?? Promise.resolve()).finally(() => {
      port.close();
      relay.close();
    });
  }
});
