/**
 * One measured step in a process of its own (so peak RSS is this step's), printing one JSON line:
 * - `tsx bench/import-run.ts import <folder> <data-dir> <models-dir>`: imports the folder through the
 *   API op; seconds, CPU seconds, peak RSS, sizes per table (app.info), the data dir's size and the
 *   first search after the import in the importing process;
 * - `tsx bench/import-run.ts idle <data-dir> <models-dir>`: opens the library, runs two searches (the
 *   first loads what it needs of the persisted indexes, as a CLI process does), then warms the rest as
 *   the app does in the background after start, and reports the searches, the warm-up and the idle RSS.
 * import.bench.ts runs the same files with and without the embedding model side by side.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { shutdownEmbedWorker } from '../src/core/embed/worker-client';
import { warmSearchIndexes } from '../src/core/search/engine';
import { REG_CORPUS } from '../src/core/regulations/search-index';

export function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return n;
}

const QUERIES = ['用人单位拖欠劳动报酬怎么办', '劳动合同解除的经济补偿', '交通事故逃逸的处罚'];

async function search(ctx: ReturnType<typeof createAppContext>, query: string): Promise<number> {
  const t = performance.now();
  await invokeOperation(ctx, 'search.smart_search', { query, reg_id: 'all', top_k: 10 });
  return performance.now() - t;
}

async function importStep(folder: string, dataDir: string, modelsDir: string): Promise<Record<string, unknown>> {
  const ctx = createAppContext({ dataDir, modelsDir });
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const results = await invokeOperation(ctx, 'regulations.import', { paths: [folder] });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const peak = process.resourceUsage().maxRSS / 1024;
    const count = (sql: string) => (ctx.db.prepare(sql).get() as { n: number }).n;
    const first = await search(ctx, QUERIES[0]);
    const info = (await invokeOperation(ctx, 'app.info', { storage: true })) as { storage?: Record<string, number> };
    return {
      files: results.length,
      failed: results.filter((r) => r.status === 'failed').length,
      chunks: count('SELECT COUNT(*) AS n FROM search_items'),
      vectors: count('SELECT COUNT(*) AS n FROM search_vectors'),
      seconds,
      cpu_seconds: (cpu.user + cpu.system) / 1e6,
      peak_rss_mb: peak,
      first_search_ms: first,
      storage: info.storage ?? {},
    };
  } finally {
    await ctx.close();
    await shutdownEmbedWorker();
  }
}

async function idleStep(dataDir: string, modelsDir: string): Promise<Record<string, unknown>> {
  const ctx = createAppContext({ dataDir, modelsDir });
  try {
    // as a CLI process: the first search reads what it needs (postings, vector codes, the candidates' rows)
    const first = await search(ctx, QUERIES[1]);
    const second = await search(ctx, QUERIES[2]);
    // as the app: the same process warms everything in the background (app/startup.ts) before idling
    const t = performance.now();
    await warmSearchIndexes(ctx, REG_CORPUS);
    const warm = performance.now() - t;
    globalThis.gc?.();
    return { first_search_ms: first, second_search_ms: second, warm_ms: warm, idle_rss_mb: process.memoryUsage().rss / 1048576, data_dir_bytes: dirBytes(dataDir) };
  } finally {
    await ctx.close();
    await shutdownEmbedWorker();
  }
}

const [mode, ...args] = process.argv.slice(2);
const out = mode === 'import' ? await importStep(args[0], args[1], args[2]) : await idleStep(args[0], args[1]);
process.stdout.write(`\n@@${JSON.stringify(out)}\n`);
process.exit(0);
