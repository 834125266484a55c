import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { sharedDir } from '../src/core/common/paths';

/** A fresh data dir (real SQLite file) per test; removed by cleanup(). */
export function tempDir(prefix = 'gridcode-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
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
