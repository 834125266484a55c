/**
 * The browser shell: serves the built renderer and bridges the API table over HTTP on 127.0.0.1.
 * Every API request must carry the per-run token injected into the page, so other local pages
 * or processes cannot drive the app. Protocol: see src/preload/api-types.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAppContext, type AppContext } from '../core/context';
import { invokeOperation } from '../core/api/invoke';
import type { ApiName } from '../core/api/table';
import { GridError, toErrorPayload } from '../core/common/errors';
import { projectRoot } from '../core/common/paths';
import { fileAccessFor } from '../core/common/file-access';
import { runStartupTasks } from '../core/app/startup';

export const DEFAULT_PORT = 5317;
const MAX_JSON_BODY = 10 * 1024 * 1024;

export interface WebServerOptions {
  port?: number;
  dataDir?: string;
  staticDir?: string;
  /** Fixed token for tests; random per run otherwise. */
  token?: string;
  /** Skip demo seeding etc. (tests that want an empty library). */
  skipStartup?: boolean;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  ctx: AppContext;
  close(): Promise<void>;
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

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
  '.pdf': 'application/pdf',
  '.map': 'application/json',
};

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // keep the connection to answer 413 as JSON: stop collecting and discard the rest
        req.removeAllListeners('data');
        req.resume();
        reject(new GridError('TOO_LARGE', `请求体过大（上限 ${Math.round(limit / 1024 / 1024)} MB）`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

function safeUploadName(name: string): string {
  const base = path.basename(name).replace(/[\u0000-\u001f<>:"/\\|?*]/g, '_').slice(0, 200);
  if (base === '.' || base === '..') throw new GridError('INVALID_INPUT', '上传文件名无效');
  return base || 'upload.bin';
}

/** HTTP status for an error payload: bad input 400, too large 413, everything else 500. */
function statusOf(code: string): number {
  if (code === 'TOO_LARGE') return 413;
  if (code === 'NOT_FOUND') return 404;
  if (code === 'INTERNAL') return 500;
  return 400;
}

export async function startWebServer(options: WebServerOptions = {}): Promise<WebServer> {
  const staticDir = options.staticDir ?? path.join(projectRoot(), 'out', 'web');
  const indexFile = path.join(staticDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    throw new GridError('NOT_FOUND', `未找到界面构建产物 ${indexFile}，请先运行 npm run build:web`);
  }
  const token = options.token ?? crypto.randomBytes(24).toString('hex');
  const ctx = createAppContext({ dataDir: options.dataDir });
  // the page (or anything holding its token) reads device/case files only under the data dir
  // (uploads land there), the bundled resources and folders granted by GRIDCODE_ALLOW_PATHS
  ctx.fileAccess = fileAccessFor([ctx.dataDir, ctx.resourcesDir]);
  if (!options.skipStartup) await runStartupTasks(ctx);
  const indexHtml = fs
    .readFileSync(indexFile, 'utf8')
    .replace('<head>', `<head>\n    <meta name="gridcode-token" content="${token}" />`);
  const uploadsDir = path.join(ctx.dataDir, 'uploads');
  let port = options.port ?? DEFAULT_PORT;

  const server = http.createServer(async (req, res) => {
    try {
      // Reject DNS-rebinding: only our own loopback host names are served.
      const host = (req.headers.host ?? '').toLowerCase();
      if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
        sendJson(res, 403, { error: { code: 'FORBIDDEN', message: 'host not allowed' } });
        return;
      }
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      if (url.pathname.startsWith('/api/')) {
        if (req.headers['x-gridcode-token'] !== token) {
          sendJson(res, 401, { error: { code: 'UNAUTHORIZED', message: '缺少或错误的访问令牌' } });
          return;
        }
        if (req.method !== 'POST') {
          sendJson(res, 405, { error: { code: 'METHOD', message: 'POST only' } });
          return;
        }
        if (url.pathname === '/api/upload') {
          const name = safeUploadName(url.searchParams.get('name') ?? 'upload.bin');
          const body = await readBody(req, ctx.config.import.maxFileBytes);
          fs.mkdirSync(uploadsDir, { recursive: true });
          const dir = fs.mkdtempSync(path.join(uploadsDir, 'u-'));
          const file = path.join(dir, name);
          fs.writeFileSync(file, body);
          sendJson(res, 200, { path: file });
          return;
        }
        const match = /^\/api\/invoke\/([a-z0-9_.-]+)$/i.exec(url.pathname);
        if (!match) {
          sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `未知接口 ${url.pathname}` } });
          return;
        }
        await handleInvoke(match[1] as ApiName, req, res);
        return;
      }
      serveStatic(url.pathname, res);
    } catch (e) {
      // a malformed %-escape in the URL is the caller's input, not an internal failure
      const payload = e instanceof URIError ? { code: 'INVALID_INPUT' as const, message: '请求地址中的 % 转义无效' } : toErrorPayload(e);
      if (!res.headersSent) sendJson(res, statusOf(payload.code), { error: payload });
      else res.end();
    }
  });

  async function handleInvoke(name: ApiName, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req, MAX_JSON_BODY);
    let input: unknown = {};
    if (raw.length) {
      try {
        input = JSON.parse(raw.toString('utf8'));
      } catch {
        sendJson(res, 400, { error: { code: 'INVALID_INPUT', message: '请求体不是有效的 JSON' } });
        return;
      }
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
    const write = (obj: unknown) => {
      if (!res.destroyed) res.write(JSON.stringify(obj) + '\n');
    };
    try {
      const data = await invokeOperation(ctx, name, input, {
        signal: abort.signal,
        progress: (ev) => write({ type: 'progress', ...ev }),
      });
      write({ type: 'result', data });
    } catch (e) {
      write({ type: 'error', error: toErrorPayload(e) });
    }
    res.end();
  }

  function serveStatic(pathname: string, res: http.ServerResponse): void {
    const security = { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };
    if (pathname === '/' || pathname === '/index.html') {
      res.writeHead(200, { 'Content-Type': MIME['.html'], 'Cache-Control': 'no-store', ...security });
      res.end(indexHtml);
      return;
    }
    const file = path.normalize(path.join(staticDir, decodeURIComponent(pathname)));
    if (!file.startsWith(staticDir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      // single-page app: unknown paths get the app
      res.writeHead(200, { 'Content-Type': MIME['.html'], 'Cache-Control': 'no-store', ...security });
      res.end(indexHtml);
      return;
    }
    res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream', ...security });
    fs.createReadStream(file).pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    token,
    ctx,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await ctx.close();
    },
  };
}

function parseArgs(argv: string[]): { port?: number; dataDir?: string } {
  const out: { port?: number; dataDir?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') out.port = Number(argv[++i]);
    else if (a.startsWith('--port=')) out.port = Number(a.slice(7));
    else if (a === '--data-dir') out.dataDir = argv[++i];
    else if (a.startsWith('--data-dir=')) out.dataDir = a.slice(11);
  }
  if (out.port === undefined && process.env.PORT) out.port = Number(process.env.PORT);
  if (out.port !== undefined && (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535)) {
    throw new GridError('INVALID_INPUT', `端口无效: ${out.port}`);
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const args = parseArgs(process.argv.slice(2));
    // `npm run web` is a try-out: it keeps its data inside the project (.gridcode-data/, gitignored),
    // not in the per-user folder the desktop app uses, unless told otherwise
    const projectLocal = !args.dataDir && !process.env.GRIDCODE_DATA_DIR;
    if (projectLocal) args.dataDir = path.join(projectRoot(), '.gridcode-data');
    const server = await startWebServer(args);
    console.log(`GridCode 浏览器版已启动: ${server.url}`);
    console.log(`数据目录: ${server.ctx.dataDir}`);
    if (projectLocal) console.log('（浏览器版默认把数据放在项目内的 .gridcode-data/；换文件夹：npm run web -- --data-dir <文件夹>，或设置环境变量 GRIDCODE_DATA_DIR）');
    const stop = async () => {
      await server.close();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (e) {
    console.error(`启动失败: ${toErrorPayload(e).message}`);
    process.exit(1);
  }
}
