import type { Db } from '../store/db';
import { writeTransaction } from '../store/transaction';

/**
 * Confirmed hits: the user opened a result of a query and kept it (see search_confirmed in
 * search/schema.ts). They are (question, passage) pairs in the user's own words, which "adapt to
 * my library" learns from (embed/adapt.ts).
 */

export interface ConfirmedPair {
  corpus: string;
  parent: string;
  query: string;
  times: number;
}

/** Queries are stored as typed, with runs of whitespace folded; very long ones are cut. */
export function normalizeConfirmedQuery(query: string): string {
  return query.normalize('NFKC').replace(/\s+/g, ' ').trim().slice(0, 500);
}

/** Records (or counts again) a confirmed hit; returns how often this pair has been confirmed. */
export function recordConfirmedHit(db: Db, corpus: string, parent: string, query: string): number {
  const q = normalizeConfirmedQuery(query);
  return writeTransaction(db, () => {
    db.prepare(
      `INSERT INTO search_confirmed (corpus, parent, query, times, last_at) VALUES (?, ?, ?, 1, ?)
         ON CONFLICT (corpus, parent, query) DO UPDATE SET times = times + 1, last_at = excluded.last_at`,
    ).run(corpus, parent, q, new Date().toISOString());
    return (db.prepare('SELECT times FROM search_confirmed WHERE corpus = ? AND parent = ? AND query = ?').get(corpus, parent, q) as { times: number }).times;
  });
}

/** Pairs whose passage is still in the index (a deleted document's confirmations no longer count). */
export function confirmedPairs(db: Db, corpora?: (corpus: string) => boolean): ConfirmedPair[] {
  const rows = db
    .prepare(
      `SELECT c.corpus, c.parent, c.query, c.times FROM search_confirmed c
        WHERE EXISTS (SELECT 1 FROM search_items s WHERE s.corpus = c.corpus AND s.parent = c.parent)
        ORDER BY c.corpus, c.parent, c.query`,
    )
    .all() as ConfirmedPair[];
  return corpora ? rows.filter((r) => corpora(r.corpus)) : rows;
}
