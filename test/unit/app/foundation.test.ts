import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeOperation } from '../../../src/core/api/invoke';
import { defineOperation, defineOperations, registerOperations } from '../../../src/core/common/operation';
import { findOperation, loadApiTable, registerNamespace } from '../../../src/core/api/table';
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
  it('registers each operation under the name it is declared with; a duplicate name fails at start-up', () => {
    const ping = defineOperation({ summary: 'ping', input: z.object({}).strict(), output: z.object({ ok: z.boolean() }), handler: () => ({ ok: true }) });
    const first = defineOperations({ 'test.ping': ping });
    expect(first['test.ping'].name).toBe('test.ping');
    const table = registerOperations(first, defineOperations({ 'test.pong': ping }));
    expect(Object.keys(table)).toEqual(['test.ping', 'test.pong']);
    expect(() => registerOperations(first, defineOperations({ 'test.ping': ping }))).toThrow(/test\.ping/);
  });

  it('keeps each name inside its namespace, so lazily loaded engines can never register the same name', async () => {
    const ping = defineOperation({ summary: 'ping', input: z.object({}).strict(), output: z.object({ ok: z.boolean() }), handler: () => ({ ok: true }) });
    expect(Object.keys(registerNamespace('test', defineOperations({ 'test.ping': ping })))).toEqual(['test.ping']);
    expect(() => registerNamespace('test', defineOperations({ 'other.ping': ping }))).toThrow(/other\.ping/);
    expect(() => registerNamespace('test', defineOperations({ 'test.ping': ping }), defineOperations({ 'test.ping': ping }))).toThrow(/test\.ping/);
    // the real table: every engine loads without a duplicate or a stray name, each under its declared name
    const table = await loadApiTable();
    expect(Object.keys(table).length).toBeGreaterThan(40);
    for (const [name, op] of Object.entries(table)) {
      expect(op.name).toBe(name);
      expect(await findOperation(name)).toBe(op);
    }
    await expect(findOperation('nosuch.op')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(findOperation('app.nosuch')).rejects.toMatchObject({ code: 'NOT_FOUND' });
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
