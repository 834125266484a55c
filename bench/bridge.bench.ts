/**
 * `npm run bench -- bridge`: does one heavy import freeze the browser-shell bridge? Starts the bridge
 * (src/web/server.ts, in this process, no embedding model) and, while a large import runs through it
 * — an uploaded 8,000-article Markdown regulation, then a 1,500-file collection folder — sends cheap
 * requests (`app.info`) one after another. Prints the import's time and the cheap requests' count,
 * median and slowest answer: the slowest is how long the bridge stalled. Issue 28: before imports
 * left the bridge's loop the slowest cheap request waited as long as the import's longest synchronous
 * step (parse, one transaction); after, it is bounded by scheduling, not by the import's size.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../src/core/common/paths';

/** The bridge as a client sees it. */
export interface Bridge {
  url: string;
  token: string;
  dataDir: string;
  child: ChildProcess;
  close(): Promise<void>;
}

/** Starts bench/bridge-shell.ts over `dataDir` in its own process (env: e.g. GRIDCODE_MODELS_DIR). */
export async function startBridgeProcess(dataDir: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<Bridge> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'bridge-shell.ts'), dataDir, ...args], { cwd: projectRoot(), env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('@@'));
      if (line) resolve(JSON.parse(line.slice(2)) as { url: string; token: string });
    });
    child.once('exit', (code) => reject(new Error(`bridge process exited (${code}): ${err.slice(-2000)}`)));
  });
  return {
    ...ready,
    dataDir,
    child,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A regulation of `chapters` × 40 articles (8,000 by default). */
export function bigRegulationMarkdown(chapters = 200): string {
  let md = '# 大型运行规程\n\n';
  for (let c = 1; c <= chapters; c++) {
    md += `## 第${c}章 第${c}部分\n\n`;
    for (let a = 1; a <= 40; a++) md += `第${(c - 1) * 40 + a}条 运行人员应当按规定巡视${['母线', '变压器', '断路器', '隔离开关'][a % 4]}，发现异常及时报告值班负责人并做好记录，编号${c}-${a}。\n\n`;
  }
  return md;
}

/** A folder of `files` Markdown documents for a collection import. */
export function writeCollectionFolder(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `分类${i % 12}`);
    fs.mkdirSync(sub, { recursive: true });
    const body = Array.from({ length: 12 }, (_, s) => `## 第${s + 1}步\n\n将第${i}号菜的材料${'切块并腌制十分钟，'.repeat(3 + (s % 4))}然后下锅翻炒。`).join('\n\n');
    fs.writeFileSync(path.join(sub, `菜谱${i}.md`), `# 菜谱${i}\n\n${body}\n`);
  }
}

type Line = { type: string; data?: unknown; error?: { code: string; message: string } };

export async function bridgeInvoke(web: Pick<Bridge, 'url' | 'token'>, name: string, input: unknown): Promise<Line[]> {
  const res = await fetch(new URL(`/api/invoke/${name}`, web.url), { method: 'POST', body: JSON.stringify(input), headers: { 'X-GridCode-Token': web.token } });
  return (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

export async function bridgeUpload(web: Pick<Bridge, 'url' | 'token'>, name: string, body: string | Buffer): Promise<string> {
  const res = await fetch(new URL(`/api/upload?name=${encodeURIComponent(name)}`, web.url), { method: 'POST', body, headers: { 'X-GridCode-Token': web.token } });
  return ((await res.json()) as { path: string }).path;
}

export interface Stall {
  importMs: number;
  answered: number;
  medianMs: number;
  slowestMs: number;
  last: Line | undefined;
  /** cheap requests answered before the import's own answer arrived */
  answeredBeforeImport: number;
  /** cheap requests that got no answer (connection reset while the loop was blocked); their wait counts in slowest */
  failures: string[];
}

/** Runs `heavy` and, until it answers, cheap `app.info` requests one after another (20 ms apart). */
export async function measureStall(web: Pick<Bridge, 'url' | 'token'>, heavy: () => Promise<Line[]>): Promise<Stall> {
  let done = false;
  const started = performance.now();
  let importMs = 0;
  const importing = heavy().finally(() => {
    done = true;
    importMs = performance.now() - started;
  });
  const waits: number[] = [];
  let answeredBeforeImport = 0;
  const failures: string[] = [];
  while (!done) {
    const t = performance.now();
    const info = await bridgeInvoke(web, 'app.info', {}).catch((e: Error) => {
      failures.push(`${(e.cause as Error | undefined)?.message ?? e.message} after ${(performance.now() - t).toFixed(0)} ms`);
      waits.push(performance.now() - t);
      return [];
    });
    if (info.at(-1)?.type === 'result') {
      waits.push(performance.now() - t);
      if (!done) answeredBeforeImport++;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const lines = await importing;
  const sorted = [...waits].sort((a, b) => a - b);
  return { importMs, answered: waits.length, medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, slowestMs: sorted.at(-1) ?? 0, last: lines.at(-1), answeredBeforeImport, failures };
}

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
