import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { hasShared, sharedPath, tempDir } from '../../helpers';
import { listFilesRecursive } from '../../../src/core/common/files';
import { openDatabase } from '../../../src/core/store/db';
import { allMigrations } from '../../../src/core/schema';

const root = path.resolve(__dirname, '../../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

// A few hundred real statutes; every folder has its own `_index.md`, so equal file names with
// different content race for the same reg_id as well.
const FOLDERS = ['宪法相关法', '社会法', '民法商法', '刑法', '宪法', '诉讼与非诉讼程序法', '部门规章'];

function runImport(dataDir: string, paths: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [path.join(root, 'bin', 'gridcode.mjs'), 'import', ...paths, '--data-dir', dataDir, '--json'], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('two gridcode import processes into one data dir', () => {
  it.skipIf(!hasShared('data', 'laws'))(
    'land every file exactly once over overlapping folders, and both exit 0',
    async () => {
      const work = tempDir('gridcode-concurrent-');
      dirs.push(work);
      const docs = path.join(work, 'docs');
      for (const f of FOLDERS) fs.cpSync(sharedPath('data', 'laws', f), path.join(docs, f), { recursive: true });
      const files = listFilesRecursive(docs, ['.md']);
      expect(files.length).toBeGreaterThan(150);
      const dataDir = path.join(work, 'data');
      // one imports everything, the other an overlapping half (in another order): same files race
      const [a, b] = await Promise.all([
        runImport(dataDir, [docs]),
        runImport(dataDir, [...FOLDERS.slice(0, 4)].reverse().map((f) => path.join(docs, f))),
      ]);
      const empty = new Set<string>();
      for (const r of [a, b]) {
        expect(r.stderr).not.toMatch(/database is locked|INTERNAL|BUSY/);
        expect(r.code).toBe(0);
        const rows = JSON.parse(r.stdout) as { file: string; status: string; error_code?: string }[];
        // only the file's own fault may fail (a few `_index.md` have no body text)
        expect(rows.filter((x) => x.status === 'failed' && x.error_code !== 'BAD_FILE')).toEqual([]);
        rows.filter((x) => x.status === 'failed').forEach((x) => empty.add(path.resolve(root, x.file)));
      }
      expect(empty.size).toBeLessThan(10);
      const importable = files.filter((f) => !empty.has(f));

      const db = new Database(path.join(dataDir, 'gridcode.sqlite'), { readonly: true });
      const regs = db.prepare('SELECT reg_id, source_hash, extra FROM regulations').all() as { reg_id: string; source_hash: string; extra: string }[];
      const bySource = new Map<string, string[]>();
      for (const r of regs) {
        const src = (JSON.parse(r.extra) as { source_path: string }).source_path;
        bySource.set(src, [...(bySource.get(src) ?? []), r.reg_id]);
        expect(r.source_hash).toBe(crypto.createHash('sha256').update(fs.readFileSync(src)).digest('hex'));
      }
      expect(regs.length).toBe(importable.length);
      for (const f of importable) expect(bySource.get(f), f).toHaveLength(1);
      // each regulation complete: pages and a search profile present
      const noPages = db.prepare('SELECT COUNT(*) AS n FROM regulations r WHERE NOT EXISTS (SELECT 1 FROM reg_pages p WHERE p.reg_id = r.reg_id)').get() as { n: number };
      expect(noPages.n).toBe(0);
      db.close();
    },
    600_000,
  );
});

describe('an import that cannot get the database', () => {
  it('fails loudly: non-zero exit, a Chinese message, the file marked BUSY (not silently skipped)', async () => {
    const work = tempDir('gridcode-busy-');
    dirs.push(work);
    const dataDir = path.join(work, 'data');
    openDatabase(dataDir, allMigrations).close();
    const file = path.join(work, '安全规程.md');
    fs.writeFileSync(file, '# 安全规程\n\n## 第一章 总则\n\n第一条 为保证安全，制定本规程。\n');
    // another process holds the write lock for the whole run
    const holder = new Database(path.join(dataDir, 'gridcode.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const r = await runImport(dataDir, [file], { GRIDCODE_BUSY_TIMEOUT_MS: '100' });
      expect(r.code).not.toBe(0);
      const rows = JSON.parse(r.stdout) as { status: string; error_code?: string; error?: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'failed', error_code: 'BUSY' });
      expect(rows[0].error).toMatch(/数据库/);
      expect(r.stderr).toMatch(/不是因为文件本身的问题/);
      expect(r.stderr).not.toMatch(/SQLITE|database is locked|at .*\.ts/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    // and once the lock is gone the same command lands it
    const again = await runImport(dataDir, [file]);
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as { status: string }[])[0].status).toBe('imported');
  }, 120_000);
});
