/**
 * The renderer's only door to the engines. In Electron the preload exposes it as `window.gridcode`
 * (contextBridge); in the browser shell the renderer builds the same interface over HTTP.
 *
 * HTTP bridge protocol (src/web/server.ts), for the renderer's client:
 * - token: `<meta name="gridcode-token" content="...">` injected into index.html per run;
 *   every request sends it as header `X-GridCode-Token`.
 * - `POST /api/invoke/<operation name>` with the JSON input as body. The response is NDJSON:
 *   zero or more `{"type":"progress", ...ProgressEvent}` lines, then one
 *   `{"type":"result","data":...}` or `{"type":"error","error":{"code","message"}}` line.
 *   Aborting the fetch cancels the operation (its AbortSignal fires).
 * - `POST /api/upload?name=<file name>` with the raw file bytes as body -> `{"path": "<server path>"}`
 *   for operations that take file paths (imports) when the renderer runs in a browser. The body is
 *   streamed to a temp folder under import.maxFileBytes (JSON 413 beyond); an operation that consumes
 *   files (an import) removes its uploads when it ends; the rest go when the shell closes.
 * - Requests must come for our own Host (127.0.0.1/localhost:<port>) and, when the browser sends an
 *   Origin, from our own origin (403 otherwise).
 */
export interface ProgressEventLike {
  stage: string;
  done: number;
  total: number;
  item?: string;
  message?: string;
}

export interface InvokeOptions {
  onProgress?: (event: ProgressEventLike) => void;
  signal?: AbortSignal;
}

export interface ApiErrorLike {
  code: string;
  message: string;
}

export interface GridcodeBridge {
  /** 'electron' or 'browser' */
  readonly platform: 'electron' | 'browser';
  invoke(name: string, input: unknown, options?: InvokeOptions): Promise<unknown>;
  /** Electron only: native open dialog; returns absolute paths. */
  pickFiles?(options: { directory?: boolean; filters?: { name: string; extensions: string[] }[] }): Promise<string[]>;
  /** Electron only: absolute path of a dropped File (Electron >= 32 hides File.path). */
  pathForFile?(file: File): string;
  /**
   * Electron only: stores the DashScope key encrypted with the OS keychain (safeStorage) in main;
   * null removes it. The key never comes back to the renderer.
   */
  setApiKey?(key: string | null): Promise<void>;
}

declare global {
  interface Window {
    gridcode?: GridcodeBridge;
  }
}
