import crypto from 'node:crypto';
import http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AppContext } from '../core/context';
import { GridError } from '../core/common/errors';
import { createMcpServer } from './server';

/**
 * MCP over streamable HTTP, so a team can share one library service. Stateless: every POST /mcp gets a
 * fresh server bound to the same AppContext (the library is the state). Loopback by default; every
 * request needs `Authorization: Bearer <token>`; on loopback, Host and Origin must be local too (a web
 * page cannot reach the service through DNS rebinding).
 */

export interface McpHttpOptions {
  port: number;
  host?: string;
  token?: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function hostName(header: string | undefined): string {
  if (!header) return '';
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  return h.split(':')[0];
}

function reply(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export function newMcpToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/** Starts the HTTP server; resolves once listening with the address and the token clients must send. */
export async function startMcpHttpServer(
  ctx: AppContext,
  options: McpHttpOptions,
): Promise<{ server: http.Server; url: string; token: string; close: () => Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? newMcpToken();
  if (token.length < 16) throw new GridError('INVALID_INPUT', '--token: 令牌至少 16 个字符');
  const loopback = LOOPBACK.has(host);
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/mcp') return reply(res, 404, '未找到：MCP 服务地址为 /mcp');
      if (loopback) {
        if (!LOOPBACK.has(hostName(req.headers.host))) return reply(res, 403, '拒绝访问：Host 不是本机地址');
        const origin = req.headers.origin;
        if (origin && !LOOPBACK.has(hostName(origin.replace(/^[a-z]+:\/\//i, '')))) return reply(res, 403, '拒绝访问：不接受来自网页的跨站请求');
      }
      const auth = req.headers.authorization ?? '';
      const given = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim() ?? '';
      if (!given || !sameToken(given, token)) return reply(res, 401, '未授权：请在 Authorization 头中提供 Bearer 令牌');
      if (req.method !== 'POST') return reply(res, 405, '此服务为无状态模式，只接受 POST /mcp');
      const mcp = await createMcpServer(ctx);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    } catch (e) {
      if (!res.headersSent) reply(res, 500, `服务内部错误：${(e as Error).message}`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new GridError('INVALID_INPUT', e.code === 'EADDRINUSE' ? `端口 ${options.port} 已被占用` : `无法监听 ${host}:${options.port}：${e.message}`)),
    );
    server.listen(options.port, host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : options.port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${shown}:${port}/mcp`,
    token,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
