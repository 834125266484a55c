import type Database from 'better-sqlite3';
import type { Db } from '../store/db';

/**
 * The text of a search item. Items store their text (search_items.text) unless their owner holds
 * the very same text already — a regulation unit indexed as one chunk — in which case the text is
 * NULL and the corpus' text source (search_text_sources, schema v7: a SELECT with the item's parent
 * as its one parameter, registered by the owning engine's migration) gives it. Everything that
 * needs an item's text (postings rebuild, vectors, model adaptation) reads it through here.
 */

export interface TextRow {
  corpus: string;
  parent: string;
  text: string | null;
}

const sources = new WeakMap<Db, Map<string, Database.Statement | null>>();

function sourceOf(db: Db, corpus: string): Database.Statement | null {
  let byCorpus = sources.get(db);
  if (!byCorpus) sources.set(db, (byCorpus = new Map()));
  let stmt = byCorpus.get(corpus);
  if (stmt === undefined) {
    const row = db.prepare('SELECT sql FROM search_text_sources WHERE corpus = ?').get(corpus) as { sql: string } | undefined;
    stmt = row ? db.prepare(row.sql).pluck() : null;
    byCorpus.set(corpus, stmt);
  }
  return stmt;
}

/** Fills in the text of rows stored without one (in place; rows whose owner has no text stay null). */
export function resolveTexts<T extends TextRow>(db: Db, rows: T[]): T[] {
  for (const r of rows) {
    if (r.text !== null) continue;
    const stmt = sourceOf(db, r.corpus);
    if (stmt) r.text = (stmt.get(r.parent) as string | undefined) ?? null;
  }
  return rows;
}
