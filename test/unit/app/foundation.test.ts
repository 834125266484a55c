import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { apiNames, apiTable } from '../../../src/core/api/table';
import { allMigrations } from '../../../src/core/schema';
import { openDatabase } from '../../../src/core/store/db';
import { applyMigrations } from '../../../src/core/store/migrations';
import { tempContext, tempDir } from '../../helpers';

describe('store', () => {
  it('opens a real file database in WAL mode with foreign keys and applies migrations once', () => {
    const dir = tempDir();
    const db = openDatabase(dir, allMigrations);
    expect(fs.existsSync(path.join(dir, 'gridcode.sqlite'))).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const count = (db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n;
    db.close();
    const again = openDatabase(dir, allMigrations);
    expect((again.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(count);
    again.close();
  });

  it('rolls back a failing migration and leaves no version recorded', () => {
    const dir = tempDir();
    const db = openDatabase(dir, allMigrations);
    expect(() =>
      applyMigrations(db, [
        { domain: 'broken', version: 1, name: 'fails halfway', up: (d) => { d.exec('CREATE TABLE half (x)'); throw new Error('boom'); } },
      ]),
    ).toThrow('boom');
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    expect(db.prepare("SELECT * FROM schema_migrations WHERE domain = 'broken'").get()).toBeUndefined();
    db.close();
  });
});

describe('api table', () => {
  it('declares every operation once with matching names and schemas', () => {
    for (const name of apiNames) {
      const op = (apiTable as Record<string, { name: string; input: unknown; output: unknown }>)[name];
      expect(op.name).toBe(name);
      expect(op.input).toBeDefined();
      expect(op.output).toBeDefined();
    }
  });

  it('app.info reports versions, data dir, schema version and model status', async () => {
    const ctx = tempContext({ modelsDir: tempDir() });
    try {
      const info = await invokeOperation(ctx, 'app.info', {});
      expect(info.data_dir).toBe(ctx.dataDir);
      expect(info.schema_version).toBeGreaterThanOrEqual(1);
      expect(info.versions.sqlite).toMatch(/^3\./);
      expect(info.embedding_model.state).toBe('missing');
      expect(info.embedding_model.message).toMatch(/[\u4e00-\u9fa5]/);
      expect(info.search_mode).toBe('lexical');
    } finally {
      await ctx.cleanup();
    }
  });

  it('rejects invalid input with a readable error naming the field', async () => {
    const ctx = tempContext();
    try {
      await expect(invokeOperation(ctx, 'app.info', { bogus: 1 } as never)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('bogus'),
      });
    } finally {
      await ctx.cleanup();
    }
  });
});

describe('layering', () => {
  it('src/core never imports electron', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) {
          const text = fs.readFileSync(full, 'utf8');
          if (/from\s+['"]electron['"]|require\(\s*['"]electron['"]\s*\)|import\(\s*['"]electron['"]\s*\)/.test(text)) offenders.push(full);
        }
      }
    };
    walk(path.resolve(__dirname, '../../../src/core'));
    expect(offenders).toEqual([]);
  });
});
