import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers';
import { testModelDir, testModelsDir, TEST_MODEL_ID } from '../../fixtures/model';

const root = path.resolve(__dirname, '../../..');

function runPull(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(root, 'scripts', 'models-pull.ts'), ...args], {
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr, ms: Date.now() - started }));
  });
}

/** A models dir whose manifest lists the generated model as downloadable from `gridcode/tiny`. */
function pullableModelsDir(sha256: (file: string, real: string) => string | null): string {
  const dir = tempDir('gridcode-pull-');
  const manifest = JSON.parse(fs.readFileSync(path.join(testModelsDir(), 'manifest.json'), 'utf8'));
  const entry = manifest.models.find((m: { id: string }) => m.id === TEST_MODEL_ID);
  entry.id = 'tiny-remote';
  entry.folder = 'tiny-remote';
  entry.source = 'gridcode/tiny';
  entry.files = entry.files.map((f: { path: string; sha256: string }) => ({ path: f.path, sha256: sha256(f.path, f.sha256) }));
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ models: [entry] }));
  return dir;
}

describe('npm run models:pull', () => {
  // a local stand-in for the hub (the true network boundary): /<repo>/resolve/main/<file>
  let server: http.Server;
  let base = '';
  const requests: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      const m = /^\/gridcode\/tiny\/resolve\/main\/(.+)$/.exec(req.url ?? '');
      const file = m ? path.join(testModelDir(), decodeURIComponent(m[1])) : '';
      if (!m || !fs.existsSync(file)) {
        res.writeHead(404).end('not found');
        return;
      }
      const body = fs.readFileSync(file);
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('fails fast with a clear Chinese message when the hub is unreachable, leaving nothing behind', async () => {
    const dir = tempDir('gridcode-pull-');
    fs.copyFileSync(path.join(root, 'models', 'manifest.json'), path.join(dir, 'manifest.json'));
    const before = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
    const out = await runPull(['bge-small-zh-v1.5'], { GRIDCODE_MODELS_DIR: dir, GRIDCODE_HF_BASE_URL: 'http://127.0.0.1:9/' });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('无法连接 http://127.0.0.1:9/');
    expect(out.stderr).toContain('gridcode models import');
    expect(fs.readdirSync(dir)).toEqual(['manifest.json']);
    expect(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).toBe(before);
  });

  it('also when nothing listens on the address (connection refused)', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const dir = tempDir('gridcode-pull-');
    fs.copyFileSync(path.join(root, 'models', 'manifest.json'), path.join(dir, 'manifest.json'));
    const out = await runPull([], { GRIDCODE_MODELS_DIR: dir, GRIDCODE_HF_BASE_URL: `http://127.0.0.1:${port}` });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('ECONNREFUSED');
    expect(out.stderr).toContain('npm run models:pull -- bge-small-zh-v1.5'); // the default entry was chosen
    expect(fs.readdirSync(dir)).toEqual(['manifest.json']);
  });

  it('rejects an id that is not in the manifest, listing the ids', async () => {
    const dir = tempDir('gridcode-pull-');
    fs.copyFileSync(path.join(root, 'models', 'manifest.json'), path.join(dir, 'manifest.json'));
    const out = await runPull(['no-such-model'], { GRIDCODE_MODELS_DIR: dir, GRIDCODE_HF_BASE_URL: 'http://127.0.0.1:9/' });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('bge-small-zh-v1.5');
  });

  it('downloads every file, records sha256 in the manifest, and the model becomes installed', async () => {
    const dir = pullableModelsDir(() => null);
    const out = await runPull(['tiny-remote'], { GRIDCODE_MODELS_DIR: dir, GRIDCODE_HF_BASE_URL: base });
    expect(out.code, out.stderr).toBe(0);
    expect(requests.some((u) => u.endsWith('/onnx/model.onnx'))).toBe(true);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const original = JSON.parse(fs.readFileSync(path.join(testModelsDir(), 'manifest.json'), 'utf8')).models[0];
    const recorded = Object.fromEntries(manifest.models[0].files.map((f: { path: string; sha256: string }) => [f.path, f.sha256]));
    for (const f of original.files) expect(recorded[f.path]).toBe(f.sha256);
    expect(fs.readdirSync(dir).sort()).toEqual(['manifest.json', 'tiny-remote']);
  });

  it('refuses files whose sha256 differs from the manifest and installs nothing', async () => {
    const dir = pullableModelsDir((file, real) => (file === 'onnx/model.onnx' ? '0'.repeat(64) : real));
    const out = await runPull(['tiny-remote'], { GRIDCODE_MODELS_DIR: dir, GRIDCODE_HF_BASE_URL: base });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/onnx\/model\.onnx 的 sha256 不匹配/);
    expect(fs.readdirSync(dir)).toEqual(['manifest.json']);
  });
});
