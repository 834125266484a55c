/**
 * A browser-shell bridge in a process of its own for bench/bridge.bench.ts and the attack replay, so
 * the client measuring it is not on the loop it measures. `node --import tsx bench/bridge-shell.ts
 * <data-dir> [--on-loop]`: serves a blank page, prints `@@{"url","token"}`, stops on SIGTERM or stdin's end.
 * `--on-loop` runs imports on the shell's event loop as before issue 28 (for the comparison).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWebServer } from '../src/web/server';

const dataDir = process.argv[2];
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-shell-static-'));
fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
const web = await startWebServer({ port: 0, dataDir, staticDir, skipStartup: true, ...(process.argv.includes('--on-loop') ? { offLoop: false as const } : {}) });
console.log(`@@${JSON.stringify({ url: web.url, token: web.token })}`);
let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await web.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
