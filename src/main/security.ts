/**
 * The Electron main process's security decisions as plain functions (no `electron` import), so they
 * are unit-tested without an Electron binary: which IPC senders are ours, how the renderer is served
 * (a privileged `app://` scheme, so every response carries the CSP header — file:// responses have
 * no headers, and frame-ancestors is ignored in a meta tag), and which URL the window loads.
 */
import fs from 'node:fs';
import path from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'gridcode';
/** Where the packaged renderer lives for the window: app://gridcode/index.html */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** `scheme://host[:port]` of a URL; custom schemes have no WHATWG origin ("null"), so it is built by hand. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.host ? `${u.protocol}//${u.host}` : null;
  } catch {
    return null;
  }
}

/** The origins whose top frame may call IPC: the packaged renderer, plus the dev server when unpackaged. */
export function trustedOrigins(options: { isPackaged: boolean; devUrl?: string }): string[] {
  const dev = !options.isPackaged && options.devUrl ? originOf(options.devUrl) : null;
  return dev ? [APP_ORIGIN, dev] : [APP_ORIGIN];
}

/** The URL the main window loads: the dev server only in an unpackaged app, else the app:// renderer. */
export function windowUrl(options: { isPackaged: boolean; devUrl?: string }): string {
  if (!options.isPackaged && options.devUrl && originOf(options.devUrl)) return options.devUrl;
  return `${APP_ORIGIN}/index.html`;
}

/** The part of an IPC event this check needs (Electron's IpcMainEvent / IpcMainInvokeEvent). */
export interface IpcSenderLike {
  senderFrame: { url: string; parent: unknown } | null | undefined;
}

/**
 * True only for our own renderer: the sender is a top-level frame (not an iframe a page could embed)
 * whose URL is on a trusted origin. A destroyed frame (null) is not trusted.
 */
export function isTrustedSender(event: IpcSenderLike, origins: readonly string[]): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent) return false;
  const origin = originOf(frame.url);
  return origin !== null && origins.includes(origin);
}

export class UntrustedSenderError extends Error {
  constructor() {
    super('拒绝来自非本应用页面的请求');
    this.name = 'UntrustedSenderError';
  }
}

/** Wraps an IPC handler so it runs only for trusted senders; others get an error (invoke) or are ignored. */
export function guardHandler<E extends IpcSenderLike, A extends unknown[], R>(
  origins: readonly string[],
  handler: (event: E, ...args: A) => R,
): (event: E, ...args: A) => R {
  return (event, ...args) => {
    if (!isTrustedSender(event, origins)) throw new UntrustedSenderError();
    return handler(event, ...args);
  };
}

/** Fire-and-forget channels (ipcMain.on): an untrusted sender is ignored. */
export function guardListener<E extends IpcSenderLike, A extends unknown[]>(
  origins: readonly string[],
  listener: (event: E, ...args: A) => void,
): (event: E, ...args: A) => void {
  return (event, ...args) => {
    if (isTrustedSender(event, origins)) listener(event, ...args);
  };
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** The file an app:// URL names inside the renderer folder, or null (other host, traversal, missing). */
export function rendererFile(url: string, rendererDir: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${path.posix.normalize(rel === '/' ? '/index.html' : rel)}`);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/** The protocol handler's answer for one app:// request: the file with its type and the security headers. */
export async function serveRendererRequest(url: string, rendererDir: string): Promise<Response> {
  const file = rendererFile(url, rendererDir);
  if (!file) return new Response('Not found', { status: 404, headers: SECURITY_HEADERS });
  const body = await fs.promises.readFile(file);
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream', ...SECURITY_HEADERS },
  });
}
