import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../src/web/server';
import { tempDir } from '../../helpers';

let server: WebServer;
beforeAll(async () => {
  const staticDir = tempDir('gridcode-static-');
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  server = await startWebServer({ port: 0, dataDir: tempDir(), staticDir, skipStartup: true });
});
afterAll(async () => server?.close());

/** Raw HTTP over a socket: fetch() would normalise the malformed URLs these probes need. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.end(request));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

const headers = () => ({ 'X-GridCode-Token': server.token, 'Content-Type': 'application/json' });

describe('browser-shell bridge under attack', () => {
  it('prototype names are unknown operations, not internal errors', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await fetch(new URL(`/api/invoke/${name}`, server.url), { method: 'POST', body: '{}', headers: headers() });
      const text = await res.text();
      expect(text).not.toMatch(/INTERNAL|TypeError/);
      expect(text).toMatch(/NOT_FOUND/);
    }
  });

  it('a malformed %-escape is a clean 400 INVALID_INPUT', async () => {
    const reply = await raw(`GET /%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).toContain('INVALID_INPUT');
  });

  it('a body over the limit gets a JSON 413, not a reset', async () => {
    const body = JSON.stringify({ q: 'x'.repeat(11 * 1024 * 1024) });
    const res = await fetch(new URL('/api/invoke/app.info', server.url), { method: 'POST', body, headers: headers() });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('TOO_LARGE');
  });

  it('?name=.. on upload is a clean 400', async () => {
    for (const name of ['..', '.']) {
      const res = await fetch(new URL(`/api/upload?name=${name}`, server.url), { method: 'POST', body: 'abc', headers: headers() });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    }
  });

  it('device files outside the data dir are not read through the bridge', async () => {
    const outside = tempDir('gridcode-outside-');
    fs.writeFileSync(path.join(outside, 'cases.yaml'), 'cases:\n  - SECRET-LINE: [\n');
    const res = await fetch(new URL('/api/invoke/devices.test', server.url), { method: 'POST', body: JSON.stringify({ cases: path.join(outside, 'cases.yaml') }), headers: headers() });
    const text = await res.text();
    expect(text).not.toContain('SECRET-LINE');
    expect(text).toMatch(/不可访问/);
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
