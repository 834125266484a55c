import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { allMigrations } from '../../../src/core/schema';
import { openDatabase } from '../../../src/core/store/db';
import { createAppContext } from '../../../src/core/context';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempDir } from '../../helpers';
import { lawMarkdown, writeFile } from './fixtures';

const root = path.resolve(__dirname, '../../..');
const FILES = 300;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function writeCorpus(dir: string, variant: string, chapters: number): Map<string, string> {
  const hashes = new Map<string, string>();
  for (let i = 0; i < FILES; i++) {
    const text = lawMarkdown(`演示条例${i}`, chapters, 12, variant);
    const file = writeFile(dir, `part${i % 5}/reg${String(i).padStart(4, '0')}.md`, text);
    hashes.set(path.basename(file, '.md'), crypto.createHash('sha256').update(text).digest('hex'));
  }
  return hashes;
}

/** Starts `gridcode import`, waits until `atLeast` regulations match `ready`, then SIGKILLs it. */
async function importAndKill(dataDir: string, docs: string, ready: (db: Database.Database) => number, atLeast: number): Promise<void> {
  const child = spawn('node', [path.join(root, 'bin', 'gridcode.mjs'), 'import', docs, '--data-dir', dataDir, '--json'], {
    cwd: root,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const dbFile = path.join(dataDir, 'gridcode.sqlite');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('import did not progress');
    if (fs.existsSync(dbFile)) {
      try {
        const db = new Database(dbFile, { readonly: true, fileMustExist: true });
        const n = ready(db);
        db.close();
        if (n >= atLeast) break;
      } catch {
        /* tables not created yet */
      }
    }
    await new Promise((r) => setTimeout(r, 30));
  }
  child.kill('SIGKILL');
  await exited;
}

function checkComplete(db: Database.Database, hashesV1: Map<string, string>, hashesV2?: Map<string, string>) {
  const regs = db.prepare('SELECT reg_id, source_hash, total_pages FROM regulations').all() as { reg_id: string; source_hash: string; total_pages: number }[];
  let v2 = 0;
  for (const r of regs) {
    const isV2 = hashesV2?.get(r.reg_id) === r.source_hash;
    if (!isV2) expect(hashesV1.get(r.reg_id)).toBe(r.source_hash);
    else v2++;
    const pages = db.prepare('SELECT page_num FROM reg_pages WHERE reg_id = ? ORDER BY page_num').all(r.reg_id) as { page_num: number }[];
    expect(pages.map((p) => p.page_num)).toEqual(Array.from({ length: r.total_pages }, (_, i) => i + 1));
    const units = db.prepare("SELECT text FROM reg_units WHERE reg_id = ? AND kind = 'article'").all(r.reg_id) as { text: string }[];
    // v1 has 4 chapters x 12 articles, v2 has 6 x 12 with a marker in every article
    expect(units).toHaveLength(isV2 ? 72 : 48);
    expect(units.every((u) => u.text.includes('第二版') === isV2)).toBe(true);
    const toc = (db.prepare('SELECT COUNT(*) AS n FROM reg_toc WHERE reg_id = ?').get(r.reg_id) as { n: number }).n;
    expect(toc).toBe(isV2 ? 6 : 4);
  }
  return { count: regs.length, v2 };
}

describe('crash atomicity', () => {
  it('a SIGKILL mid-import leaves every regulation complete or absent (fresh import and replace)', async () => {
    const data = tempDir('gridcode-crash-data-');
    const docs = tempDir('gridcode-crash-docs-');
    dirs.push(data, docs);
    const v1 = writeCorpus(docs, '', 4);

    await importAndKill(data, docs, (db) => (db.prepare('SELECT COUNT(*) AS n FROM regulations').get() as { n: number }).n, 15);
    let db = openDatabase(data, allMigrations);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const fresh = checkComplete(db, v1);
    expect(fresh.count).toBeGreaterThanOrEqual(15);
    expect(fresh.count).toBeLessThan(FILES);
    db.close();

    // finish the import, then change every file and kill the re-import halfway through replacing
    const ctx = createAppContext({ dataDir: data });
    await invokeOperation(ctx, 'regulations.import', { paths: [docs] });
    await ctx.close();
    const v2 = writeCorpus(docs, '第二版', 6);
    const v2Hashes = new Set(v2.values());
    await importAndKill(
      data,
      docs,
      (d) => (d.prepare('SELECT source_hash FROM regulations').all() as { source_hash: string }[]).filter((r) => v2Hashes.has(r.source_hash)).length,
      15,
    );
    db = openDatabase(data, allMigrations);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const replaced = checkComplete(db, v1, v2);
    expect(replaced.count).toBe(FILES);
    expect(replaced.v2).toBeGreaterThanOrEqual(15);
    expect(replaced.v2).toBeLessThan(FILES);
    db.close();
  }, 180_000);
});
