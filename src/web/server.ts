/**
 * The browser shell: serves the built renderer and bridges the API table over HTTP on 127.0.0.1
 * (hono on @hono/node-server). Every API request must carry the per-run token injected into the page,
 * and come for our own host (DNS rebinding) from our own origin, so other local pages or processes
 * cannot drive the app. Protocol: see src/preload/api-types.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { serve, type HttpBindings } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Command, InvalidArgumentError } from 'commander';
import { Hono, type Context } from 'hono';
import { createAppContext, type AppContext } from '../core/context';
import { invokeOperation, parseInput } from '../core/api/invoke';
import { findOperation } from '../core/api/table';
import { GridError, toErrorPayload, type ErrorPayload } from '../core/common/errors';
import type { ProgressEvent } from '../core/common/operation';
import { projectRoot } from '../core/common/paths';
import { confineInput, fileAccessFor } from '../core/common/file-access';
import { runStartupTasks } from '../core/app/startup';
import { createUploadStore, type UploadStore } from './uploads';
import { createOffLoopRunner, type OffLoopOptions, type OffLoopRunner } from './off-loop';

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
  /** false: run imports on this loop too (benchmarks compare); default: in the operation thread, with these options. */
  offLoop?: false | OffLoopOptions;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  ctx: AppContext;
  uploads: UploadStore;
  /** The thread running imports (null when the shell runs them on its loop). */
  offLoop: OffLoopRunner | null;
  close(): Promise<void>;
}

/** Sent as a header (frame-ancestors only works there; the page's meta tag repeats the rest for Electron's file://). */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
const SECURITY_HEADERS = { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

type Env = { Bindings: HttpBindings };

/** Reads a request body up to `limit` bytes; beyond it keeps draining (so the 413 reaches the client) and fails. */
function readBody(body: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    body.on('end', () =>
      size > limit ? reject(new GridError('TOO_LARGE', `请求体过大（上限 ${Math.round(limit / 1024 / 1024)} MB）`)) : resolve(Buffer.concat(chunks)),
    );
    body.on('error', reject);
  });
}

/** HTTP status for an error payload: bad input 400, too large 413, unknown 404, everything else 500. */
function statusOf(code: string): 400 | 404 | 413 | 500 {
  if (code === 'TOO_LARGE') return 413;
  if (code === 'NOT_FOUND') return 404;
  if (code === 'INTERNAL') return 500;
  return 400;
}

function errorJson(c: Context, status: 400 | 401 | 403 | 404 | 405 | 413 | 500, error: ErrorPayload | { code: string; message: string }) {
  c.header('Cache-Control', 'no-store');
  return c.json({ error }, status);
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given || given.length !== token.length) return false;
  return crypto.timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

export async function startWebServer(options: WebServerOptions = {}): Promise<WebServer> {
  const staticDir = path.resolve(options.staticDir ?? path.join(projectRoot(), 'out', 'web'));
  const indexFile = path.join(staticDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    throw new GridError('NOT_FOUND', `未找到界面构建产物 ${indexFile}，请先运行 npm run build:web`);
  }
  const token = options.token ?? crypto.randomBytes(24).toString('hex');
  const ctx = createAppContext({ dataDir: options.dataDir });
  // the page (or anything holding its token) reads device/case files only under the data dir
  // (uploads land there), the bundled resources and folders granted by GRIDCODE_ALLOW_PATHS
  ctx.fileAccess = fileAccessFor([ctx.dataDir, ctx.resourcesDir]);
  // imports run in a thread of their own: a heavy one never blocks the other requests (off-loop.ts)
  const offLoop =
    options.offLoop === false
      ? null
      : createOffLoopRunner({ dataDir: ctx.dataDir, modelsDir: ctx.modelsDir, resourcesDir: ctx.resourcesDir, roots: ctx.fileAccess.roots }, options.offLoop);
  if (!options.skipStartup) await runStartupTasks(ctx);
  const indexHtml = fs
    .readFileSync(indexFile, 'utf8')
    .replace('<head>', `<head>\n    <meta name="gridcode-token" content="${token}" />`);
  const uploads = createUploadStore(path.join(ctx.dataDir, 'uploads'), ctx.config.import.maxFileBytes);
  let port = options.port ?? DEFAULT_PORT;
  const ownHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];

  const app = new Hono<Env>();
  app.onError((e, c) => {
    const payload = toErrorPayload(e);
    return errorJson(c, statusOf(payload.code), payload);
  });
  app.use('*', async (c, next) => {
    // DNS rebinding: only our own loopback host names are served
    if (!ownHosts().includes((c.req.header('host') ?? '').toLowerCase())) return errorJson(c, 403, { code: 'FORBIDDEN', message: 'host not allowed' });
    try {
      decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      // a malformed %-escape in the URL is the caller's input, not an internal failure
      return errorJson(c, 400, { code: 'INVALID_INPUT', message: '请求地址中的 % 转义无效' });
    }
    await next();
  });
  app.use('/api/*', async (c, next) => {
    const origin = c.req.header('origin');
    if (origin && !ownHosts().some((h) => origin.toLowerCase() === `http://${h}`)) {
      return errorJson(c, 403, { code: 'FORBIDDEN', message: 'origin not allowed' });
    }
    if (!sameToken(c.req.header('x-gridcode-token'), token)) return errorJson(c, 401, { code: 'UNAUTHORIZED', message: '缺少或错误的访问令牌' });
    if (c.req.method !== 'POST') return errorJson(c, 405, { code: 'METHOD', message: 'POST only' });
    await next();
  });

  app.post('/api/upload', async (c) => {
    const file = await uploads.receive(c.env.incoming, c.req.query('name') ?? 'upload.bin');
    return c.json({ path: file }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/api/invoke/:name{[A-Za-z0-9_.-]+}', async (c) => {
    const name = c.req.param('name');
    const op = await findOperation(name);
    const raw = await readBody(c.env.incoming, MAX_JSON_BODY);
    let input: unknown = {};
    if (raw.length) {
      try {
        input = JSON.parse(raw.toString('utf8'));
      } catch {
        return errorJson(c, 400, { code: 'INVALID_INPUT', message: '请求体不是有效的 JSON' });
      }
    }
    const abort = new AbortController();
    const outgoing = c.env.outgoing;
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) abort.abort();
    });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const write = (obj: unknown) => {
          if (abort.signal.aborted) return;
          try {
            controller.enqueue(encoder.encode(JSON.stringify(obj) + '\n'));
          } catch {
            // the client went away between the check and the write
          }
        };
        try {
          const progress = (ev: ProgressEvent) => write({ type: 'progress', ...ev });
          const data =
            op.offLoop && offLoop
              ? // validated and confined here first: bad input fails at once, the thread gets only allowed paths
                await offLoop.run(name, confineInput(ctx.fileAccess, op.input, parseInput(op, input)), { config: ctx.config, progress, signal: abort.signal })
              : await invokeOperation(ctx, name, input, { signal: abort.signal, progress });
          write({ type: 'result', data });
        } catch (e) {
          write({ type: 'error', error: toErrorPayload(e) });
        } finally {
          if (op.consumesFiles) uploads.release(input);
          if (!abort.signal.aborted) controller.close();
        }
      },
    });
    return c.body(body, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
  });

  app.all('/api/*', (c) => errorJson(c, 404, { code: 'NOT_FOUND', message: `未知接口 ${c.req.path}` }));

  const sendIndex = (c: Context) => c.html(indexHtml, 200, { 'Cache-Control': 'no-store', ...SECURITY_HEADERS });
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  app.use('*', async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(k, v);
  });
  app.use('*', serveStatic({ root: staticDir }));
  // single-page app: unknown paths get the app
  app.get('*', sendIndex);

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s as Server));
    s.once('error', reject);
  });
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    token,
    ctx,
    uploads,
    offLoop,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await offLoop?.close();
      uploads.close();
      await ctx.close();
    },
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`端口无效: ${value}`);
  return port;
}

/** `npm run web -- [--port N] [--data-dir DIR]`, parsed by commander like the CLI. */
export function parseWebArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): { port?: number; dataDir?: string } {
  const program = new Command('gridcode-web')
    .description('GridCode 浏览器版 / the browser shell')
    .option('--port <n>', `端口（缺省 ${DEFAULT_PORT}，或环境变量 PORT） / port`, parsePort)
    .option('--data-dir <dir>', '数据目录（或环境变量 GRIDCODE_DATA_DIR） / data folder')
    .exitOverride()
    .configureOutput({ writeErr: () => {} })
    .parse(argv, { from: 'user' });
  const opts = program.opts<{ port?: number; dataDir?: string }>();
  const port = opts.port ?? (env.PORT ? parsePort(env.PORT) : undefined);
  return { port, dataDir: opts.dataDir };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const args = parseWebArgs(process.argv.slice(2));
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
    const code = (e as { code?: string }).code ?? '';
    if (code === 'commander.helpDisplayed' || code === 'commander.help') process.exit(0);
    // commander's own wording is English: say it in Chinese, keeping our port message when that was it
    const message =
      e instanceof InvalidArgumentError || code.startsWith('commander.')
        ? (/端口无效[^\n]*/.exec((e as Error).message)?.[0] ?? '命令行参数无效（可用：--port <端口>、--data-dir <文件夹>）')
        : toErrorPayload(e).message;
    console.error(`启动失败: ${message}`);
    process.exit(1);
  }
}
