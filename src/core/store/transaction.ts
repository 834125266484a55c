import type Database from 'better-sqlite3';
import { GridError } from '../common/errors';

/**
 * How long one writer waits for another (SQLite's busy handler), and how often a write transaction
 * is retried after that: the desktop app, the CLI and an agent's MCP server may all write at once,
 * and one regulation's write (pages + search index) can hold the lock for seconds.
 * GRIDCODE_BUSY_TIMEOUT_MS shortens the wait (tests of the give-up path).
 */
export const BUSY_TIMEOUT_MS = Number(process.env.GRIDCODE_BUSY_TIMEOUT_MS) || 10_000;
export const BUSY_RETRIES = 5;

export function isBusyError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** Runs `fn`, retrying a bounded number of times while the database is busy; then fails loudly (BUSY). */
export function withBusyRetry<T>(fn: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (e) {
      if (!isBusyError(e)) throw e;
      if (attempt >= BUSY_RETRIES) {
        throw new GridError('BUSY', '数据库正被其他程序（桌面应用、命令行或 MCP 服务）长时间占用，本次写入未完成，请稍后重试');
      }
      sleepSync(50 * 2 ** attempt + Math.floor(Math.random() * 50));
    }
  }
}

/**
 * The one way to write several statements together. BEGIN IMMEDIATE takes the write lock up front,
 * so the busy handler can wait for another writer; a deferred transaction that upgrades from a read
 * snapshot gets SQLITE_BUSY_SNAPSHOT at once and no timeout helps. Nested calls become savepoints
 * of the caller's transaction.
 */
export function writeTransaction<T>(db: Database.Database, fn: () => T): T {
  const tx = db.transaction(fn);
  if (db.inTransaction) return tx();
  return withBusyRetry(() => tx.immediate());
}
