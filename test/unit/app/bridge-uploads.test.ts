import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebArgs, startWebServer, type WebServer } from '../../../src/web/server';
import { tempDir } from '../../helpers';

let server: WebServer;
let dataDir: string;
const CAP = 256 * 1024;

beforeAll(async () => {
  const staticDir = tempDir('gridcode-static-');
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  fs.writeFileSync(path.join(staticDir, 'app.js'), 'console.log(1)');
  dataDir = tempDir();
  fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ import: { maxFileBytes: CAP } }));
  server = await startWebServer({ port: 0, dataDir, staticDir, skipStartup: true });
});
afterAll(async () => server?.close());

const headers = (extra: Record<string, string> = {}) => ({ 'X-GridCode-Token': server.token, ...extra });
const uploadsLeft = () => (fs.existsSync(path.join(dataDir, 'uploads')) ? fs.readdirSync(path.join(dataDir, 'uploads')) : []);

async function upload(name: string, body: string | Buffer): Promise<Response> {
  return fetch(new URL(`/api/upload?name=${encodeURIComponent(name)}`, server.url), { method: 'POST', body, headers: headers() });
}

async function invoke(name: string, input: unknown): Promise<{ type: string; data?: unknown; error?: { code: string; message: string } }> {
  const res = await fetch(new URL(`/api/invoke/${name}`, server.url), { method: 'POST', body: JSON.stringify(input), headers: headers({ 'Content-Type': 'application/json' }) });
  const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
  return lines.at(-1);
}

describe('browser-shell uploads', () => {
  it('streams an upload to its own temp folder and removes it after a successful import', async () => {
    const res = await upload('安全规程.md', '# 安全规程\n\n## 第一章 总则\n\n第一条 为保证安全，制定本规程。\n');
    expect(res.status).toBe(200);
    const { path: file } = (await res.json()) as { path: string };
    expect(path.dirname(path.dirname(file))).toBe(path.join(dataDir, 'uploads'));
    expect(fs.existsSync(file)).toBe(true);
    const out = await invoke('regulations.import', { paths: [file] });
    expect(out.type).toBe('result');
    expect((out.data as { status: string }[])[0].status).toBe('imported');
    expect(fs.existsSync(path.dirname(file))).toBe(false);
    expect(server.uploads.pending()).toEqual([]);
  });

  it('removes the upload after a failed import as well', async () => {
    const { path: file } = (await (await upload('空白.txt', '   \n\n')).json()) as { path: string };
    const out = await invoke('regulations.import', { paths: [file] });
    expect((out.data as { status: string; error_code: string }[])[0]).toMatchObject({ status: 'failed', error_code: 'BAD_FILE' });
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });

  it('keeps an upload that is only read (a device file) until the shell closes', async () => {
    const { path: file } = (await (await upload('home.json', JSON.stringify([{ id: 'l1', name: '客厅灯', type: 'light', room: '客厅' }]))).json()) as { path: string };
    const out = await invoke('devices.load', { file });
    expect(out.type).toBe('result');
    expect(fs.existsSync(file)).toBe(true);
    expect(server.uploads.pending()).toContain(path.dirname(file));
  });

  it('answers an upload over the cap with a JSON 413 and keeps nothing of it', async () => {
    const before = uploadsLeft().length;
    const res = await upload('big.txt', Buffer.alloc(CAP + 100_000, 0x61));
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('TOO_LARGE');
    expect(body.error.message).toMatch(/过大/);
    expect(uploadsLeft().length).toBe(before);
  });

  it('refuses API calls from another origin even with the token', async () => {
    const res = await fetch(new URL('/api/invoke/app.info', server.url), { method: 'POST', body: '{}', headers: headers({ Origin: 'http://evil.example' }) });
    expect(res.status).toBe(403);
    const own = await fetch(new URL('/api/invoke/app.info', server.url), { method: 'POST', body: '{}', headers: headers({ Origin: `http://127.0.0.1:${server.port}` }) });
    expect(own.status).toBe(200);
  });

  it('serves static files and the app with the CSP header (frame-ancestors included)', async () => {
    const js = await fetch(new URL('/app.js', server.url));
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const spa = await fetch(new URL('/some/route', server.url));
    expect(await spa.text()).toContain(`content="${server.token}"`);
    expect(spa.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const traversal = await fetch(new URL('/..%2f..%2fconfig.json', server.url));
    expect(await traversal.text()).not.toContain('maxFileBytes');
  });
});

describe('browser-shell options (commander)', () => {
  it('parses --port and --data-dir, falls back to PORT, rejects bad ports', () => {
    expect(parseWebArgs(['--port', '0', '--data-dir', '/tmp/x'], {})).toEqual({ port: 0, dataDir: '/tmp/x' });
    expect(parseWebArgs(['--port=8123'], {})).toEqual({ port: 8123, dataDir: undefined });
    expect(parseWebArgs([], { PORT: '9000' })).toEqual({ port: 9000, dataDir: undefined });
    expect(() => parseWebArgs(['--port', 'abc'], {})).toThrow(/端口无效/);
    expect(() => parseWebArgs(['--port', '70000'], {})).toThrow(/端口无效/);
  });
});
