import type Database from 'better-sqlite3';
import { writeTransaction } from './transaction';

/**
 * Each engine owns its tables and versions them itself (domain + version), so engines can evolve
 * independently. A migration runs once, inside a transaction, in ascending version order.
 */
export interface Migration {
  domain: string;
  version: number;
  name: string;
  up: (db: Database.Database) => void;
  /** Hand freed pages back to the file system afterwards (VACUUM, outside the transaction): a migration that drops a big table. */
  vacuum?: boolean;
}

export function applyMigrations(db: Database.Database, migrations: readonly Migration[]): void {
  if (applyPending(db, migrations)) {
    try {
      db.exec('VACUUM');
      // in WAL mode the compacted pages sit in the WAL until a checkpoint shrinks the file
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // another process holds the database: the space comes back at the next VACUUM, nothing is lost
    }
  }
}

/** Runs the pending migrations in one transaction; true when one of them asked for a VACUUM. */
function applyPending(db: Database.Database, migrations: readonly Migration[]): boolean {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    domain TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,
    PRIMARY KEY (domain, version))`);
  const record = db.prepare('INSERT INTO schema_migrations (domain, version, name, applied_at) VALUES (?, ?, ?, ?)');
  const readApplied = () =>
    new Set(
      (db.prepare('SELECT domain, version FROM schema_migrations').all() as { domain: string; version: number }[]).map(
        (r) => `${r.domain}:${r.version}`,
      ),
    );
  const pendingOf = (applied: Set<string>) =>
    [...migrations]
      .filter((m) => !applied.has(`${m.domain}:${m.version}`))
      .sort((a, b) => (a.domain === b.domain ? a.version - b.version : 0));
  if (!pendingOf(readApplied()).length) return false;
  // Two processes may open a fresh data dir at once: take the write lock, then re-read what is applied.
  // A fresh database has nothing to hand back: only a database that had data is vacuumed.
  const hadData = (db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n > 0;
  return writeTransaction(db, () => {
    let vacuum = false;
    for (const m of pendingOf(readApplied())) {
      m.up(db);
      record.run(m.domain, m.version, m.name, new Date().toISOString());
      vacuum ||= Boolean(m.vacuum) && hadData;
    }
    return vacuum;
  });
}

/** Per-domain schema versions plus a single total used by app.info. */
export function schemaVersions(db: Database.Database): { total: number; domains: Record<string, number> } {
  const rows = db.prepare('SELECT domain, MAX(version) AS v FROM schema_migrations GROUP BY domain').all() as {
    domain: string;
    v: number;
  }[];
  const domains: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    domains[r.domain] = r.v;
    total += r.v;
  }
  return { total, domains };
}
