import type { AppContext } from '../context';
import { seedDemoLibrary } from '../regulations/demo';

/**
 * Work the app shells (Electron main, browser shell) do once at start, e.g. seeding the demo
 * library on first run. The CLI never calls this: its data dirs start empty.
 */
export async function runStartupTasks(ctx: AppContext): Promise<void> {
  try {
    // once per data dir (a settings flag), so a user-deleted demo regulation does not come back
    await seedDemoLibrary(ctx);
  } catch (e) {
    process.stderr.write(`演示规程导入失败（不影响使用）：${(e as Error).message}\n`);
  }
}
