import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../src/web/server';
import { tempDir } from '../../helpers';

const root = path.resolve(__dirname, '../../..');

describe('browser shell HTTP bridge', () => {
  let server: WebServer;
  beforeAll(async () => {
    const staticDir = tempDir('gridcode-static-');
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
    server = await startWebServer({ port: 0, dataDir: tempDir(), staticDir, skipStartup: true });
  });
  afterAll(async () => server?.close());

  const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(new URL(p, server.url), { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } });

  it('binds to loopback and injects the per-run token into the page', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const html = await (await fetch(server.url)).text();
    expect(html).toContain(`<meta name="gridcode-token" content="${server.token}"`);
  });

  it('rejects API calls without the token', async () => {
    const res = await post('/api/invoke/app.info', {});
    expect(res.status).toBe(401);
    const wrong = await post('/api/invoke/app.info', {}, { 'X-GridCode-Token': 'nope' });
    expect(wrong.status).toBe(401);
  });

  it('rejects foreign Host headers (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(server.url, { method: 'GET', headers: { Host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('answers app.info over NDJSON with the token', async () => {
    const res = await post('/api/invoke/app.info', {}, { 'X-GridCode-Token': server.token });
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    const last = lines.at(-1);
    expect(last.type).toBe('result');
    expect(last.data.data_dir).toBe(server.ctx.dataDir);
  });

  it('returns readable validation errors naming the field, and rejects bad JSON', async () => {
    const res = await post('/api/invoke/app.info', { surprise: true }, { 'X-GridCode-Token': server.token });
    const last = JSON.parse((await res.text()).trim().split('\n').at(-1)!);
    expect(last.type).toBe('error');
    expect(last.error.code).toBe('INVALID_INPUT');
    expect(last.error.message).toContain('surprise');
    const bad = await fetch(new URL('/api/invoke/app.info', server.url), { method: 'POST', body: '{not json', headers: { 'X-GridCode-Token': server.token } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
  });

  it('stores uploads under the data dir with a sanitised name', async () => {
    const res = await fetch(new URL('/api/upload?name=' + encodeURIComponent('../../evil 规程.md'), server.url), {
      method: 'POST',
      body: '# 标题',
      headers: { 'X-GridCode-Token': server.token },
    });
    const { path: stored } = (await res.json()) as { path: string };
    expect(stored.startsWith(path.join(server.ctx.dataDir, 'uploads'))).toBe(true);
    expect(path.basename(stored)).toBe('evil 规程.md');
    expect(fs.readFileSync(stored, 'utf8')).toBe('# 标题');
  });
});

describe('CLI adapter', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [path.join(root, 'bin/gridcode.mjs'), ...args], { encoding: 'utf8' });

  it('prints help and info --json', () => {
    expect(cli(['--help']).stdout).toContain('--data-dir');
    const dir = tempDir();
    const out = execFileSync(process.execPath, [path.join(root, 'bin/gridcode.mjs'), 'info', '--json', '--data-dir', dir], { encoding: 'utf8' });
    const info = JSON.parse(out);
    expect(info.data_dir).toBe(dir);
    expect(info.embedding_model.state).toMatch(/missing|ready|error/);
  });

  it('honours GRIDCODE_DATA_DIR', () => {
    const dir = tempDir();
    const r = spawnSync(process.execPath, [path.join(root, 'bin/gridcode.mjs'), 'info', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, GRIDCODE_DATA_DIR: dir },
    });
    expect(JSON.parse(r.stdout).data_dir).toBe(dir);
  });
});
