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
  cacheStatements(db);
  return db;
}

/** statements kept per connection (the code base has a few hundred distinct SQL strings) */
const STATEMENT_CACHE_MAX = 1000;
const MODES = ['pluck', 'raw', 'expand', 'safeIntegers', 'bind'] as const;
type Mode = (typeof MODES)[number];

/**
 * `db.prepare(sql)` hands back the statement prepared earlier for the same SQL: compiling one costs
 * 30–300 µs (findRegulation's query, a writer's INSERTs), and an import prepared ~60 per file —
 * about 7 of the full statute corpus's ~80 CPU-s. Sharing is safe because a statement keeps no
 * state between calls except its mode and an `iterate()` in progress: a shared statement's mode is
 * never changed — `.pluck()` / `.raw()` give the statement of that mode (cached as well), any other
 * mode change (`expand`, `safeIntegers`, `bind`, `pluck(false)` on a plucked one…) a fresh statement
 * of the caller's own — and a statement busy iterating is never handed out (a fresh one is).
 */
function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  /** a statement of `sql` for one caller alone, in `mode` (the cached statement's) before `method(args)` */
  const own = (sql: string, mode: Mode | null, method: Mode, args: unknown[]) => {
    const s = prepare(sql);
    if (mode) (s[mode] as (on: boolean) => Database.Statement)(true);
    return (s[method] as (...a: unknown[]) => Database.Statement)(...args);
  };
  const cached = (sql: string, mode: Mode | null): Database.Statement => {
    const key = mode ? `${mode}\u0000${sql}` : sql;
    const hit = cache.get(key);
    if (hit && !hit.busy) return hit;
    const stmt = prepare(sql);
    if (mode) (stmt[mode] as (on: boolean) => Database.Statement)(true);
    if (hit) return stmt; // the cached one is iterating: this caller gets its own
    if (cache.size >= STATEMENT_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, stmt);
    // instance properties in front of the prototype's methods: the shared statement's mode never changes
    for (const method of MODES) {
      Object.defineProperty(stmt, method, {
        configurable: true,
        writable: true,
        value: (...args: unknown[]) => {
          const on = args.length === 0 || args[0] === true;
          if (!mode && !on && (method === 'pluck' || method === 'raw')) return stmt;
          if (!mode && on && (method === 'pluck' || method === 'raw') && args.length <= 1) return cached(sql, method);
          return own(sql, mode, method, args);
        },
      });
    }
    return stmt;
  };
  db.prepare = ((sql: string) => cached(sql, null)) as typeof db.prepare;
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

/**
 * Bytes on disk per table (its indexes and, for FTS5 tables, their shadow tables counted with it),
 * from SQLite's dbstat: it reads every page, so ~1 s for a library of a few hundred MB.
 */
export function tableSizes(db: Db): Record<string, number> {
  const owner = new Map<string, string>();
  const objects = db.prepare("SELECT name, tbl_name, type, sql FROM sqlite_master WHERE type IN ('table', 'index')").all() as {
    name: string;
    tbl_name: string;
    type: string;
    sql: string | null;
  }[];
  const virtual = objects.filter((o) => o.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(o.sql ?? '')).map((o) => o.name);
  for (const o of objects) {
    const fts = virtual.find((v) => o.name !== v && o.name.startsWith(`${v}_`));
    owner.set(o.name, fts ?? o.tbl_name);
  }
  const out: Record<string, number> = {};
  for (const r of db.prepare('SELECT name, pgsize FROM dbstat WHERE aggregate = TRUE').all() as { name: string; pgsize: number }[]) {
    const table = owner.get(r.name) ?? r.name;
    out[table] = (out[table] ?? 0) + r.pgsize;
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}
