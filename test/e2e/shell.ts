/**
 * Every e2e test gets its own browser shell: a fresh data dir (a copy of the demo-seeded template
 * made once in global-setup.ts) and a server on a free port, stopped and deleted afterwards.
 * So a spec asserts one state, whatever ran before it, and a failure leaks nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { ROOT, TEMPLATE_DIR } from './paths';

export { expect };

export interface Shell {
  url: string;
  dataDir: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts src/web/server.ts and resolves once it answers; rejects with its output if it dies. */
export async function startShell(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/web/server.ts', '--port', String(port), '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, GRIDCODE_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`browser shell exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(url);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`browser shell did not start within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child };
}

export async function stopShell(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<{ shell: Shell }>({
  shell: async ({}, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-e2e-'));
    fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
    const { url, child } = await startShell(dataDir);
    try {
      await use({ url, dataDir });
    } finally {
      await stopShell(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ shell }, use) => {
    await use(shell.url);
  },
});
