import type { Migration } from '../store/migrations';

/**
 * Tables owned by the collections engine. Append new versions; never edit a released one.
 * - collections: a named set of documents imported from a folder.
 * - coll_docs: parents (one per file) with their parsed blocks as JSON (answers are built from them).
 * - coll_chunks: section pieces of a parent, the unit the search index ranks (`col:<name>` corpus).
 * - coll_sessions: ask sessions (lock, candidates, turn), so follow-ups survive process restarts.
 */
export const collectionsMigrations: Migration[] = [
  {
    domain: 'collections',
    version: 1,
    name: 'collections, documents, chunks, sessions',
    up: (db) => {
      db.exec(`
        CREATE TABLE collections (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          source_dir TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE coll_docs (
          id INTEGER PRIMARY KEY,
          collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
          rel_path TEXT NOT NULL,              -- path inside the imported folder, '/'-separated
          source_hash TEXT NOT NULL,           -- sha256 of the bytes: unchanged file => untouched on re-import
          title TEXT NOT NULL,                 -- 红烧肉 (from '# 红烧肉的做法')
          heading TEXT NOT NULL,
          kind TEXT NOT NULL,                  -- recipe | document
          difficulty INTEGER,                  -- stars 1..5
          parsed TEXT NOT NULL,                -- JSON ParsedDocument (blocks, steps, ingredients, tools)
          total_chunks INTEGER NOT NULL,
          chars INTEGER NOT NULL,
          UNIQUE (collection_id, rel_path)
        );
        CREATE INDEX coll_docs_title ON coll_docs(collection_id, title);
        CREATE TABLE coll_chunks (
          id INTEGER PRIMARY KEY,
          doc_id INTEGER NOT NULL REFERENCES coll_docs(id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,                -- order inside the parent, 0-based
          block_kind TEXT NOT NULL,            -- title | intro | ingredients | calculation | steps | extras | section
          heading TEXT NOT NULL,
          text TEXT NOT NULL,
          UNIQUE (doc_id, ord)
        );
        CREATE TABLE coll_sessions (
          session_id TEXT PRIMARY KEY,
          collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
          state TEXT NOT NULL,                 -- JSON SessionState
          turn INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL             -- idle expiry is measured from here
        );
      `);
    },
  },
  {
    domain: 'collections',
    version: 2,
    name: 'collection profile (recipes / regulations / generic)',
    up: (db) => {
      // NULL = detect from the documents (older imports); set on import and editable afterwards
      db.exec(`ALTER TABLE collections ADD COLUMN profile TEXT`);
    },
  },
];
