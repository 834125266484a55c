/**
 * Sandboxed preload: exposes exactly one typed object, window.gridcode, to the renderer.
 * No Node APIs leak through; every call is an API-table operation validated in main.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { IPC_CHANNELS } from './channels';
import type { GridcodeBridge, InvokeOptions, ProgressEventLike } from './api-types';

const progressListeners = new Map<string, (ev: ProgressEventLike) => void>();
ipcRenderer.on(IPC_CHANNELS.progress, (_event, requestId: string, ev: ProgressEventLike) => {
  progressListeners.get(requestId)?.(ev);
});

let counter = 0;

const bridge: GridcodeBridge = {
  platform: 'electron',
  async invoke(name: string, input: unknown, options: InvokeOptions = {}) {
    const requestId = `${Date.now()}-${++counter}`;
    if (options.onProgress) progressListeners.set(requestId, options.onProgress);
    const onAbort = () => ipcRenderer.send(IPC_CHANNELS.cancel, requestId);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const reply = (await ipcRenderer.invoke(IPC_CHANNELS.invoke, requestId, name, input)) as
        | { ok: true; data: unknown }
        | { ok: false; error: { code: string; message: string } };
      if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
      return reply.data;
    } finally {
      progressListeners.delete(requestId);
      options.signal?.removeEventListener('abort', onAbort);
    }
  },
  pickFiles(options) {
    return ipcRenderer.invoke(IPC_CHANNELS.pickFiles, options) as Promise<string[]>;
  },
  pathForFile(file: File) {
    return webUtils.getPathForFile(file);
  },
  async setApiKey(key: string | null) {
    await ipcRenderer.invoke(IPC_CHANNELS.setApiKey, key);
  },
};

contextBridge.exposeInMainWorld('gridcode', bridge);
