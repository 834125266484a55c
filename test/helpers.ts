import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { projectRoot, sharedDir } from '../src/core/common/paths';

/** A fresh data dir (real SQLite file) per test; removed by cleanup(). */
export function tempDir(prefix = 'gridcode-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes a small statute `<title>.md` (one chapter, 第一条… for each article, at most ten) into `dir`. */
export function writeStatuteFile(dir: string, title: string, articles: string[]): void {
  const body = articles.flatMap((a, i) => [`第${'一二三四五六七八九十'[i]}条 ${a}`, '']);
  fs.writeFileSync(path.join(dir, `${title}.md`), [`# ${title}`, '', '## 第一章 总则', '', ...body].join('\n'));
}

export function tempContext(options: { modelsDir?: string } = {}): AppContext & { cleanup: () => Promise<void> } {
  const dir = tempDir();
  const ctx = createAppContext({ dataDir: dir, ...options });
  return Object.assign(ctx, {
    async cleanup() {
      await ctx.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** ../shared corpora; tests using them call skipIf(!hasShared(...)). */
export function sharedPath(...parts: string[]): string {
  return path.join(sharedDir(), ...parts);
}

export function hasShared(...parts: string[]): boolean {
  const ok = fs.existsSync(sharedPath(...parts));
  if (!ok) console.warn(`[skip] shared data not found: ${sharedPath(...parts)} (set GRIDCODE_SHARED_DIR)`);
  return ok;
}

// not __dirname: the evaluations load this file as an ES module through tsx, where it is undefined
const repoRoot = projectRoot();
const cliBin = path.join(repoRoot, 'bin', 'gridcode.mjs');

/** Runs the built CLI binary in its own process, as agents and scripts do; never throws (exit code + both streams). */
export function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliBin, ...args], { cwd: repoRoot, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** `runCli(args + --json)`, parsed; a failing exit throws with the CLI's stderr so the test shows why. */
export async function runCliJson<T = any>(args: string[]): Promise<T> {
  const r = await runCli([...args, '--json']);
  if (r.code !== 0) throw new Error(`gridcode ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
