/**
 * Once per run: build the renderer for the browser shell, and seed a template data dir (the demo
 * library the shell imports on first start) that each test copies instead of importing again.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, TEMPLATE_DIR } from './paths';
import { startShell, stopShell } from './shell';

export default async function globalSetup(): Promise<void> {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  fs.rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
  const { child } = await startShell(TEMPLATE_DIR);
  await stopShell(child);
  fs.mkdirSync(path.join(ROOT, 'test-results', 'screens'), { recursive: true });
}
