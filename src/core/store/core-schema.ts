import type { Migration } from './migrations';

/** Tables every engine can rely on: settings and the embedding cache. */
export const coreMigrations: Migration[] = [
  {
    domain: 'core',
    version: 1,
    name: 'settings and embedding cache',
    up: (db) => {
      db.exec(`
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- vectors are cached by (model, sha256 of kind-prefixed text) so re-imports never re-embed
        CREATE TABLE embedding_cache (
          model_id TEXT NOT NULL,
          text_hash TEXT NOT NULL,
          dims INTEGER NOT NULL,
          vector BLOB NOT NULL,
          created_at TEXT NOT NULL DEFAULT (datetime('now')),
          PRIMARY KEY (model_id, text_hash)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    domain: 'core',
    version: 2,
    name: 'passage vectors only in search_vectors (embedding cache emptied)',
    vacuum: true,
    // passage vectors were cached here beside search_vectors (twice the space); queries were never
    // written here. The table stays for older readers.
    up: (db) => {
      db.exec('DELETE FROM embedding_cache');
    },
  },
];
