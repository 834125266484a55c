/**
 * `npm run bench -- bridge`: does one heavy import freeze the browser-shell bridge? Starts the bridge
 * (src/web/server.ts, in a process of its own, no embedding model) — once running imports on its
 * event loop as before issue 28, once in its import thread — and, while a large import runs through it
 * — an uploaded 8,000-article Markdown regulation, then a 1,500-file collection folder — sends cheap
 * requests (`app.info`) one after another. Prints the import's time and the cheap requests' count,
 * median and slowest answer: the slowest is how long the bridge stalled. Issue 28: before imports
 * left the bridge's loop the slowest cheap request waited as long as the import's longest synchronous
 * step (parse, one transaction); after, it is bounded by scheduling, not by the import's size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bigRegulationMarkdown, bridgeInvoke, bridgeUpload, measureStall, startBridgeProcess, writeCollectionFolder, type Stall } from '../test/fixtures/bridge-process';

async function scenario(onLoop: boolean): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-bridge-'));
  fs.mkdirSync(path.join(work, 'no-models'));
  const web = await startBridgeProcess(path.join(work, 'data'), { GRIDCODE_MODELS_DIR: path.join(work, 'no-models') }, onLoop ? ['--on-loop'] : []);
  try {
    await bridgeInvoke(web, 'app.info', {}); // warm
    const file = await bridgeUpload(web, 'big.md', bigRegulationMarkdown());
    const reg = await measureStall(web, () => bridgeInvoke(web, 'regulations.import', { paths: [file] }));
    const folder = path.join(web.dataDir, 'recipes');
    writeCollectionFolder(folder, 1500);
    const coll = await measureStall(web, () => bridgeInvoke(web, 'collections.import', { folder, name: 'recipes' }));
    const row = (what: string, s: Stall) =>
      console.log(
        `${(onLoop ? 'on the loop (before)' : 'import thread').padEnd(21)} ${what.padEnd(34)} import ${(s.importMs / 1000).toFixed(1).padStart(5)} s (${s.last?.type})  cheap requests ${String(s.answered - s.failures.length).padStart(4)}  median ${s.medianMs.toFixed(0).padStart(4)} ms  slowest ${s.slowestMs.toFixed(0).padStart(5)} ms  (${((s.slowestMs / s.importMs) * 100).toFixed(0)} % of the import)${s.failures.length ? `  ${s.failures.length} failed: ${s.failures.slice(0, 3).join('; ')}` : ''}`,
      );
    row('8,000-article regulation (upload)', reg);
    row('1,500-file collection folder', coll);
  } finally {
    await web.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export default async function bridgeBench(): Promise<void> {
  await scenario(true);
  await scenario(false);
}
