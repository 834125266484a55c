import type { AppContext } from '../context';
import { seedDemoLibrary } from '../regulations/demo';
import { seedDemoCollections } from '../collections/demo';
import { REG_CORPUS } from '../regulations/search-index';
import { warmSearchIndexes } from '../search/engine';
import { healMissingVectors } from '../embed/library';

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
    // a damaged database shows up on the first search with a proper message
    warmSearchIndexes(ctx, REG_CORPUS).catch(() => {});
  });
  // vectors an interrupted import or `models adapt` left missing are finished in the background
  startVectorHeal(ctx);
}

/** The background heal, started once per context; `models.status` says what is still missing meanwhile. */
export function startVectorHeal(ctx: AppContext): Promise<number> {
  const run = healMissingVectors(ctx).catch((e: unknown) => {
    process.stderr.write(`补齐缺失的向量未完成（不影响关键词检索，下次启动会继续）：${(e as Error).message}\n`);
    return 0;
  });
  healing.set(ctx, run);
  return run;
}

const healing = new WeakMap<AppContext, Promise<number>>();

/** The heal started for this context (tests and shells wait for it before closing). */
export function vectorHealOf(ctx: AppContext): Promise<number> | undefined {
  return healing.get(ctx);
}
