/**
 * Imports all statutes in ../shared/data/laws into a temp data dir (no embeddings) and prints time,
 * throughput and peak RSS against the targets (<= 60 s, <= 1 GB on a 2-core machine).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { sharedDir } from '../src/core/common/paths';

const TARGET_SECONDS = 60;
const TARGET_RSS_MB = 1024;

export default async function importBench(): Promise<void> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  if (!fs.existsSync(laws)) {
    console.log(`[skip] ${laws} not found (set GRIDCODE_SHARED_DIR)`);
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-import-'));
  // an empty models dir keeps the run lexical-only (no embedding model, no worker)
  const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-models-'));
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
  const ctx = createAppContext({ dataDir, modelsDir });
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let lastLog = 0;
    const results = await invokeOperation(
      ctx,
      'regulations.import',
      { paths: [laws] },
      {
        progress: (e) => {
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          const now = performance.now();
          if (e.stage === '导入规程' && e.total > 1 && now - lastLog > 5000) {
            lastLog = now;
            console.log(`  ${e.done}/${e.total} files, ${((now - t0) / 1000).toFixed(1)} s`);
          }
        },
      },
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const count = (s: string) => results.filter((r) => r.status === s).length;
    const pages = (ctx.db.prepare('SELECT COUNT(*) AS n FROM reg_pages').get() as { n: number }).n;
    const units = (ctx.db.prepare('SELECT COUNT(*) AS n FROM reg_units').get() as { n: number }).n;
    const failures = results.filter((r) => r.status === 'failed');
    const reasons = new Map<string, number>();
    for (const f of failures) {
      const key = (f.error ?? '').replace(/「[^」]*」/, '「…」');
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    const dbBytes = fs.statSync(path.join(dataDir, 'gridcode.sqlite')).size;
    console.log(`files:        ${results.length} (imported ${count('imported')}, failed ${failures.length})`);
    for (const [reason, n] of reasons) console.log(`  failed ${n}× ${reason}`);
    console.log(`pages:        ${pages}   units: ${units}   db: ${(dbBytes / 1048576).toFixed(1)} MB`);
    console.log(`time:         ${seconds.toFixed(1)} s  (target <= ${TARGET_SECONDS} s, ratio ${(seconds / TARGET_SECONDS).toFixed(2)})`);
    // on a shared machine wall time includes waiting for the CPU; CPU time is what the import costs
    console.log(`CPU time:     ${cpuSeconds.toFixed(1)} s  (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
    console.log(`throughput:   ${(results.length / seconds).toFixed(0)} files/s`);
    console.log(`peak RSS:     ${(peakRss / 1048576).toFixed(0)} MB  (target <= ${TARGET_RSS_MB} MB, ratio ${(peakRss / 1048576 / TARGET_RSS_MB).toFixed(2)})`);

    const t1 = performance.now();
    const again = await invokeOperation(ctx, 'regulations.import', { paths: [laws] });
    console.log(`re-import:    ${((performance.now() - t1) / 1000).toFixed(1)} s, ${again.filter((r) => r.status === 'unchanged').length} unchanged`);
  } finally {
    clearInterval(sampler);
    await ctx.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(modelsDir, { recursive: true, force: true });
  }
}
