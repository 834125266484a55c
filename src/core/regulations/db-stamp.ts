import type { Db } from '../store/db';

/**
 * A stamp that changes whenever the database may have: a write on this connection (total_changes)
 * or a commit by another connection (data_version), e.g. an import thread. Values derived from
 * the library and cached per context are keyed on it; reading it costs microseconds.
 */
export function dbWriteStamp(db: Db): string {
  const changes = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  return `${changes}|${db.pragma('data_version', { simple: true }) as number}`;
}
