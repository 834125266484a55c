/**
 * The browser shell's second process: operations marked `offLoop` (imports: long synchronous parsing
 * and transactions) run here, so the shell's event loop keeps answering every other request meanwhile.
 * It opens its own context on the same data dir (SQLite WAL; the engines already serve several
 * processes at once, like a CLI import beside the app) with the same file access. Started by
 * off-loop.ts through op-runner-bootstrap.mjs; speaks over the fork IPC channel.
 */
import { createAppContext, type AppContext } from '../core/context';
import { invokeOperation } from '../core/api/invoke';
import { fileAccessFor } from '../core/common/file-access';
import { toErrorPayload } from '../core/common/errors';
import { configureLlm, type LlmSettings } from '../core/llm/client';
import type { ToRunner, FromRunner } from './off-loop';

const setup = JSON.parse(process.env.GRIDCODE_RUNNER ?? '{}') as { dataDir: string; modelsDir?: string; roots: string[] };
let ctx: AppContext | null = null;
const running = new Map<number, AbortController>();

function send(msg: FromRunner): void {
  process.send?.(msg);
}

process.on('message', (msg: ToRunner) => {
  if (msg.type === 'cancel') {
    running.get(msg.id)?.abort();
    return;
  }
  void run(msg.id, msg.name, msg.input, msg.llm);
});

async function run(id: number, name: string, input: unknown, llm: LlmSettings): Promise<void> {
  const abort = new AbortController();
  running.set(id, abort);
  try {
    ctx ??= createAppContext({ dataDir: setup.dataDir, modelsDir: setup.modelsDir });
    ctx.fileAccess = fileAccessFor(setup.roots);
    configureLlm(ctx, llm);
    const data = await invokeOperation(ctx, name, input, { signal: abort.signal, progress: (event) => send({ type: 'progress', id, event }) });
    send({ type: 'result', id, data });
  } catch (e) {
    send({ type: 'error', id, error: toErrorPayload(e) });
  } finally {
    running.delete(id);
  }
}

process.on('disconnect', () => {
  void (ctx?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
send({ type: 'ready' });
