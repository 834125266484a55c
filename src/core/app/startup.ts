import type { AppContext } from '../context';
import { seedDemoLibrary } from '../regulations/demo';
import { seedDemoCollections } from '../collections/demo';
import { REG_CORPUS } from '../regulations/search-index';
import { warmSearchIndexes } from '../search/engine';

/**
 * Work the app shells (Electron main, browser shell) do once at start, e.g. seeding the demo
 * library and the demo recipe collection on first run. The CLI never calls this: its data dirs start empty.
 */
export async function runStartupTasks(ctx: AppContext): Promise<void> {
  try {
    // once per data dir (a settings flag), so a user-deleted demo regulation does not come back
    await seedDemoLibrary(ctx);
  } catch (e) {
    process.stderr.write(`演示规程导入失败（不影响使用）：${(e as Error).message}\n`);
  }
  try {
    await seedDemoCollections(ctx);
  } catch (e) {
    process.stderr.write(`示例文集导入失败（不影响使用）：${(e as Error).message}\n`);
  }
  // the search indexes load from <data-dir>/index right after start, not on the first query
  setImmediate(() => {
    try {
      warmSearchIndexes(ctx, REG_CORPUS);
    } catch {
      // a damaged database shows up on the first search with a proper message
    }
  });
}
