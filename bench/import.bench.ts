/**
 * `npm run bench -- import [--files=300]`: imports the statutes in ../shared/data/laws (all, or an
 * evenly spread subset) twice, side by side in one run, each in a process of its own
 * (bench/import-run.ts): without any embedding model and with the shipped model. Prints time, CPU,
 * peak RSS, the data dir against the documents' size, the first search after the import (in the
 * importing process and in a fresh one, as the desktop app after a CLI import), the idle RSS of a
 * process holding the library, and the same vectors in the old storage layout (Float32 blobs in a
 * WITHOUT ROWID table plus the embedding cache) against the current one. Targets (issue 29):
 * embedding adds ≤ 50 %, full corpus ≤ 60 s, data dir ≤ 6× the documents, import ≤ 1 GB, idle ≤ 600 MB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { sharedDir, projectRoot } from '../src/core/common/paths';
import { collectFiles } from '../src/core/regulations/importer';
import { fromBlob } from '../src/core/search/vectors';
import { childrenCpu } from './children-cpu';

const here = path.dirname(fileURLToPath(import.meta.url));
const MB = 1048576;

interface Step {
  [k: string]: unknown;
  seconds: number;
  cpu_seconds: number;
  peak_rss_mb: number;
  storage: Record<string, number>;
  first_search_ms: number;
}

function runStep(args: string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'import-run.ts'), ...args], {
    cwd: projectRoot(),
    encoding: 'utf8',
    maxBuffer: 64 * MB,
    env: { ...process.env, NODE_OPTIONS: '--expose-gc' },
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@'));
  if (!line) throw new Error(`import-run ${args[0]} failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(2)) as Record<string, unknown>;
}

/** The vectors of `dbFile` written in the previous layout (and the current one) into scratch databases: bytes of each. */
function layoutBytes(dbFile: string): { old: number; current: number; rows: number } {
  const src = new Database(dbFile, { readonly: true });
  const rows = src.prepare('SELECT item_id, model_id, dims, vec FROM search_vectors').all() as { item_id: number; model_id: string; dims: number; vec: Buffer }[];
  src.close();
  const measure = (ddl: string, fill: (db: Database.Database) => void): number => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-layout-')), 'x.sqlite');
    const db = new Database(file);
    db.exec(ddl);
    db.transaction(() => fill(db))();
    const bytes = (db.prepare("SELECT SUM(pgsize) AS b FROM dbstat WHERE name NOT LIKE 'sqlite_%' OR name LIKE 'sqlite_autoindex%'").get() as { b: number }).b;
    db.close();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    return bytes;
  };
  const old = measure(
    `CREATE TABLE search_vectors (item_id INTEGER NOT NULL, model_id TEXT NOT NULL, dims INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (item_id, model_id)) WITHOUT ROWID;
     CREATE TABLE embedding_cache (model_id TEXT NOT NULL, text_hash TEXT NOT NULL, dims INTEGER NOT NULL, vector BLOB NOT NULL, created_at TEXT NOT NULL DEFAULT (datetime('now')), PRIMARY KEY (model_id, text_hash)) WITHOUT ROWID;`,
    (db) => {
      const v = db.prepare('INSERT INTO search_vectors VALUES (?, ?, ?, ?)');
      const c = db.prepare('INSERT INTO embedding_cache (model_id, text_hash, dims, vector) VALUES (?, ?, ?, ?)');
      for (const r of rows) {
        const f = fromBlob(r.vec, r.dims);
        const blob = Buffer.from(f.buffer);
        v.run(r.item_id, r.model_id, r.dims, blob);
        c.run(`${r.model_id}@0123456789ab:cls`, `${r.item_id}`.padStart(64, '0'), r.dims, blob);
      }
    },
  );
  const current = measure(
    `CREATE TABLE search_vectors (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL, model_id TEXT NOT NULL, dims INTEGER NOT NULL, vec BLOB NOT NULL, UNIQUE (item_id, model_id));`,
    (db) => {
      const v = db.prepare('INSERT INTO search_vectors (item_id, model_id, dims, vec) VALUES (?, ?, ?, ?)');
      for (const r of rows) v.run(r.item_id, r.model_id, r.dims, r.vec);
    },
  );
  return { old, current, rows: rows.length };
}

/** `gridcode search … --all` through the compiled CLI in a process of its own: what a user at a terminal waits. */
function cliSearch(dataDir: string): { wall: number; cpu: number | null } {
  const root = projectRoot();
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build-cli failed: ${build.stderr}`);
  const cpu0 = childrenCpu();
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [path.join(root, 'bin', 'gridcode.mjs'), 'search', '工伤认定的申请时限', '--all', '--json', '--data-dir', dataDir], { encoding: 'utf8', maxBuffer: 64 * MB });
  const wall = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`gridcode search failed: ${r.stderr.slice(-2000)}`);
  const cpu1 = childrenCpu();
  return { wall, cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
}

function subset(laws: string, n: number): string {
  const { files } = collectFiles([laws]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-laws-'));
  const step = files.length / n;
  for (let i = 0; i < n && i < files.length; i++) {
    const f = files[Math.floor(i * step)];
    const to = path.join(dir, path.relative(laws, f));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(f, to);
  }
  return dir;
}

export default async function importBench(): Promise<void> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  if (!fs.existsSync(laws)) {
    console.log(`[skip] ${laws} not found (set GRIDCODE_SHARED_DIR)`);
    return;
  }
  const filesArg = process.argv.find((a) => a.startsWith('--files='));
  const n = filesArg ? Number(filesArg.split('=')[1]) : 0;
  const folder = n > 0 ? subset(laws, n) : laws;
  const docBytes = collectFiles([folder]).files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const emptyModels = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-models-'));
  const shipped = path.join(projectRoot(), 'models');
  const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-import-')), fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-import-'))];
  try {
    console.log(`documents:    ${collectFiles([folder]).files.length} files, ${(docBytes / MB).toFixed(1)} MB (${n > 0 ? `subset of ${n}` : 'full corpus'}); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
    const without = runStep(['import', folder, dirs[0], emptyModels]) as Step;
    const withModel = runStep(['import', folder, dirs[1], shipped]) as Step;
    const idle = runStep(['idle', dirs[1], shipped]);
    const cli = cliSearch(dirs[1]);
    const row = (label: string, s: Step) =>
      `${label.padEnd(14)} ${s.seconds.toFixed(1).padStart(7)} s  CPU ${s.cpu_seconds.toFixed(1).padStart(6)} s  peak RSS ${s.peak_rss_mb.toFixed(0).padStart(5)} MB  chunks ${s.chunks}  vectors ${s.vectors}  first search ${s.first_search_ms.toFixed(0)} ms`;
    console.log(row('without model', without));
    console.log(row('shipped model', withModel));
    console.log(
      `embedding adds: wall ${((withModel.seconds / without.seconds - 1) * 100).toFixed(0)} %, CPU ${((withModel.cpu_seconds / without.cpu_seconds - 1) * 100).toFixed(0)} %  (target <= 50 %)`,
    );
    if (n === 0) console.log(`full corpus with model: ${withModel.seconds.toFixed(1)} s (target <= 60 s, ratio ${(withModel.seconds / 60).toFixed(2)})`);
    console.log(`peak RSS with model: ${withModel.peak_rss_mb.toFixed(0)} MB (target <= 1024 MB, ratio ${(withModel.peak_rss_mb / 1024).toFixed(2)})`);
    const dataDir = idle.data_dir_bytes as number;
    console.log(`data dir with model: ${(dataDir / MB).toFixed(1)} MB = ${(dataDir / docBytes).toFixed(1)}× the documents (target <= 6×)`);
    const top = Object.entries(withModel.storage)
      .slice(0, 8)
      .map(([t, b]) => `${t} ${(b / MB).toFixed(1)}`)
      .join(' · ');
    console.log(`  tables (MB): ${top}`);
    console.log(
      `fresh process: first search ${(idle.first_search_ms as number).toFixed(0)} ms (indexes loaded from files as needed), second ${(idle.second_search_ms as number).toFixed(0)} ms; the app's background warm-up afterwards ${(idle.warm_ms as number).toFixed(0)} ms; idle RSS ${(idle.idle_rss_mb as number).toFixed(0)} MB (target <= 600 MB)`,
    );
    console.log(`CLI, fresh process (compiled gridcode search --all, start to exit): ${cli.wall.toFixed(2)} s wall, ${cli.cpu === null ? '-' : cli.cpu.toFixed(2)} s CPU`);
    const layout = layoutBytes(path.join(dirs[1], 'gridcode.sqlite'));
    console.log(
      `vector storage, same ${layout.rows} vectors: old layout (Float32 WITHOUT ROWID + cache) ${(layout.old / MB).toFixed(1)} MB, current (int8, rowid) ${(layout.current / MB).toFixed(1)} MB, ratio ${(layout.old / layout.current).toFixed(1)}×`,
    );
    // the figures of issue 29 side by side: measured, target, measured / target (≤ 1 = met)
    const load = os.loadavg()[0];
    const rows: [string, number, number, string][] = [
      ['CPU with model / without (same files, this run)', withModel.cpu_seconds / without.cpu_seconds, 1.5, '×'],
      ['wall with model / without', withModel.seconds / without.seconds, 1.5, '×'],
      ...(n === 0 ? ([['full corpus with model, wall (s)', withModel.seconds, 60, 's'], ['full corpus with model, CPU (s)', withModel.cpu_seconds, 60, 's']] as [string, number, number, string][]) : []),
      ['data dir with model / documents', dataDir / docBytes, 6, '×'],
      ['peak RSS, import with model (MB)', withModel.peak_rss_mb, 1024, 'MB'],
      ['idle RSS, library open (MB)', idle.idle_rss_mb as number, 600, 'MB'],
      ['fresh process: first search (ms; no target)', idle.first_search_ms as number, NaN, 'ms'],
      ['CLI search in a fresh process, start to exit (s)', cli.wall, NaN, 's'],
      ['vectors, old layout / current', layout.old / layout.current, 1, '× smaller'],
    ];
    console.log(`\nsummary (load average ${load.toFixed(1)} on ${os.cpus().length} cores; wall times wait for a CPU under load, CPU times do not):`);
    console.log(`  ${'figure'.padEnd(50)} ${'measured'.padStart(9)} ${'target'.padStart(8)}  measured/target`);
    for (const [label, value, target, unit] of rows) {
      const ratio = label.startsWith('vectors') || Number.isNaN(target) ? '' : (value / target).toFixed(2);
      console.log(`  ${label.padEnd(50)} ${value.toFixed(value >= 100 ? 0 : 2).padStart(9)} ${(Number.isNaN(target) ? '—' : `${target}`).padStart(8)}  ${ratio}${label.startsWith('vectors') ? unit : ''}`);
    }
  } finally {
    for (const d of [...dirs, emptyModels]) fs.rmSync(d, { recursive: true, force: true });
    if (n > 0) fs.rmSync(folder, { recursive: true, force: true });
  }
}
