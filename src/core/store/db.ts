import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { applyMigrations, type Migration } from './migrations';
import { BUSY_TIMEOUT_MS, withBusyRetry } from './transaction';

export type Db = Database.Database;
export { BUSY_RETRIES, BUSY_TIMEOUT_MS, isBusyError, withBusyRetry, writeTransaction } from './transaction';

export const DB_FILE_NAME = 'gridcode.sqlite';

/**
 * Opens (creating if needed) the data-dir database: WAL for concurrent readers (UI + CLI),
 * foreign keys on, the given migrations applied before anyone reads. The store knows no engine:
 * the context hands in every engine's migrations (src/core/schema.ts).
 */
export function openDatabase(dataDir: string, migrations: readonly Migration[]): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, DB_FILE_NAME));
  // first: another process (desktop app, CLI, MCP server) may hold the lock while we switch to WAL
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  withBusyRetry(() => db.pragma('journal_mode = WAL'));
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  applyMigrations(db, migrations);
  return db;
}

/** Key/value settings shared by engines (JSON values). */
export function getSetting<T>(db: Db, key: string): T | undefined {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as T) : undefined;
}

export function setSetting(db: Db, key: string, value: unknown): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
    key,
    JSON.stringify(value),
  );
}
