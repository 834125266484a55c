import type { Migration } from '../store/migrations';
import { fromBlob, toBlob } from './vectors';

/**
 * Tables owned by the search engine. Append new versions; never edit a released one.
 *
 * One generic index for every corpus: `reg` (regulation units) and `col:<name>` (collections).
 * - search_items: one row per indexed chunk (key) with its parent (e.g. the article a chunk of a
 *   long article belongs to) and a scope (reg_id for regulations) used to restrict searches.
 * - search_fts: FTS5 over pre-segmented jieba tokens (space-joined), rowid = search_items.id.
 *   `tags` holds synthetic corpus/scope tokens so filtering happens inside the FTS query.
 *   unicode61 with tokenchars '-._+' keeps `n-1` / `500kv` / `5.3.2` as single tokens.
 * - search_vectors: unit-length Float32 vectors per item and model.
 * - search_corpus: a version per corpus, bumped on every change, to invalidate process caches.
 * - search_confirmed (v2): confirmed hits — a user opened a result of `query` and kept it — per
 *   corpus and parent key, used by "adapt to my library" as (question, passage) training pairs.
 *   Not tied to search_items by a foreign key: readers join on (corpus, parent), so a deleted
 *   document's confirmations simply stop counting.
 * - search_vector_log (v3): every insert / replace / delete of search_vectors, by trigger, so the
 *   persisted vector index (vector-index.ts) follows changes row by row; search_vector_files
 *   records the log position each index file holds (the log is pruned behind the oldest);
 *   search_meta.index_id ties index files to this database.
 * - search_item_log (v4): every insert / update / delete of search_items, for the in-memory BM25
 *   postings (lexical-index.ts).
 * - v5: search_vectors becomes a rowid table of int8 codes (vectors.ts toBlob, 260 bytes for 256
 *   dims): a 1 KB Float32 blob in a WITHOUT ROWID table spilled into overflow pages, ~4.4 KB on
 *   disk per vector. The database is vacuumed once afterwards to hand the space back.
 * - v6: search_fts (and its fts5vocab view) dropped: ranking runs on the in-memory postings
 *   (lexical-index.ts) and nothing queried FTS5 any more, yet it held a segmented copy of every
 *   chunk plus an inverted index (~160 MB of 600 for the statute corpus). Tokens are computed from
 *   search_items' title and text (tokens.ts), so every item keeps its text: rows indexed without
 *   one take the segmented text the FTS row held (the owner may write the real text back, as
 *   regulations-text v1 does for profiles), not logged as a change: the postings keep the exact
 *   tokens. Vacuumed afterwards.
 * - v7: search_text_sources — per corpus, a SELECT (one parameter: the item's parent) that gives
 *   the text of items stored without one because their owner holds it already (a regulation unit
 *   that is one chunk: the text would otherwise be in reg_units and again here). texts.ts resolves
 *   them; the owning engine registers its source in a migration of its own.
 */
/** search_vectors -> search_vector_log (v3, and again in v5 for the rebuilt table) */
const VECTOR_LOG_TRIGGERS = `
  CREATE TRIGGER search_vectors_logged_insert AFTER INSERT ON search_vectors
    BEGIN INSERT INTO search_vector_log (item_id, model_id) VALUES (new.item_id, new.model_id); END;
  CREATE TRIGGER search_vectors_logged_update AFTER UPDATE ON search_vectors
    BEGIN INSERT INTO search_vector_log (item_id, model_id) VALUES (new.item_id, new.model_id); END;
  CREATE TRIGGER search_vectors_logged_delete AFTER DELETE ON search_vectors
    BEGIN INSERT INTO search_vector_log (item_id, model_id) VALUES (old.item_id, old.model_id); END;`;

export const searchMigrations: Migration[] = [
  {
    domain: 'search',
    version: 1,
    name: 'generic lexical + vector index',
    up: (db) => {
      db.exec(`
        CREATE TABLE search_items (
          id INTEGER PRIMARY KEY,
          corpus TEXT NOT NULL,
          scope TEXT NOT NULL,
          key TEXT NOT NULL,
          parent TEXT NOT NULL,
          ord INTEGER NOT NULL DEFAULT 0,
          title TEXT,
          text TEXT,
          ntok INTEGER NOT NULL DEFAULT 0,
          UNIQUE (corpus, key)
        );
        CREATE INDEX search_items_scope ON search_items(corpus, scope);
        CREATE INDEX search_items_parent ON search_items(corpus, parent);
        CREATE VIRTUAL TABLE search_fts USING fts5(
          tags, title, body,
          tokenize = "unicode61 remove_diacritics 0 tokenchars '-._+'"
        );
        -- default ranking: tags never score, section titles count half of the body
        INSERT INTO search_fts(search_fts, rank) VALUES ('rank', 'bm25(0.0, 0.5, 1.0)');
        CREATE VIRTUAL TABLE search_vocab USING fts5vocab(search_fts, 'row');
        CREATE TABLE search_vectors (
          item_id INTEGER NOT NULL REFERENCES search_items(id) ON DELETE CASCADE,
          model_id TEXT NOT NULL,
          dims INTEGER NOT NULL,
          vec BLOB NOT NULL,
          PRIMARY KEY (item_id, model_id)
        ) WITHOUT ROWID;
        CREATE TABLE search_corpus (
          corpus TEXT PRIMARY KEY,
          version INTEGER NOT NULL DEFAULT 0
        );
      `);
    },
  },
  {
    domain: 'search',
    version: 2,
    name: 'confirmed hits (query -> kept result)',
    up: (db) => {
      db.exec(`
        CREATE TABLE search_confirmed (
          corpus TEXT NOT NULL,
          parent TEXT NOT NULL,
          query TEXT NOT NULL,
          times INTEGER NOT NULL DEFAULT 1,
          last_at TEXT NOT NULL,
          PRIMARY KEY (corpus, parent, query)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    domain: 'search',
    // 3, not 2: a parallel branch holds search v2
    version: 3,
    name: 'vector change log for the persisted vector index',
    up: (db) => {
      db.exec(`
        CREATE TABLE search_vector_log (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          item_id INTEGER NOT NULL,
          model_id TEXT NOT NULL
        );
        ${VECTOR_LOG_TRIGGERS}
        CREATE TABLE search_vector_files (
          corpus TEXT NOT NULL,
          model_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          PRIMARY KEY (corpus, model_id)
        ) WITHOUT ROWID;
        CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO search_meta (key, value) VALUES ('index_id', lower(hex(randomblob(8))));
      `);
    },
  },
  {
    domain: 'search',
    version: 4,
    name: 'item change log for the in-memory BM25 postings',
    up: (db) => {
      db.exec(`
        CREATE TABLE search_item_log (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          item_id INTEGER NOT NULL
        );
        CREATE TRIGGER search_items_logged_insert AFTER INSERT ON search_items
          BEGIN INSERT INTO search_item_log (item_id) VALUES (new.id); END;
        CREATE TRIGGER search_items_logged_update AFTER UPDATE ON search_items
          BEGIN INSERT INTO search_item_log (item_id) VALUES (new.id); END;
        CREATE TRIGGER search_items_logged_delete AFTER DELETE ON search_items
          BEGIN INSERT INTO search_item_log (item_id) VALUES (old.id); END;
      `);
    },
  },
  {
    domain: 'search',
    version: 5,
    name: 'int8 vectors in a rowid table (no overflow pages)',
    vacuum: true,
    up: (db) => {
      db.function('gridcode_int8_vector', { deterministic: true }, (vec: unknown, dims: unknown) =>
        toBlob(fromBlob(vec as Buffer, Number(dims))),
      );
      db.exec(`
        CREATE TABLE search_vectors_int8 (
          id INTEGER PRIMARY KEY,
          item_id INTEGER NOT NULL REFERENCES search_items(id) ON DELETE CASCADE,
          model_id TEXT NOT NULL,
          dims INTEGER NOT NULL,
          vec BLOB NOT NULL,
          UNIQUE (item_id, model_id)
        );
        INSERT INTO search_vectors_int8 (item_id, model_id, dims, vec)
          SELECT item_id, model_id, dims, gridcode_int8_vector(vec, dims) FROM search_vectors ORDER BY item_id, model_id;
        DROP TABLE search_vectors;
        ALTER TABLE search_vectors_int8 RENAME TO search_vectors;
        ${VECTOR_LOG_TRIGGERS}
      `);
    },
  },
  {
    domain: 'search',
    version: 6,
    name: 'no FTS5 copy of the tokens (postings from search_items text)',
    vacuum: true,
    up: (db) => {
      // not logged as changes: the postings (index file) hold these very tokens already
      const seq = (db.prepare('SELECT MAX(seq) AS s FROM search_item_log').get() as { s: number | null }).s ?? 0;
      db.exec(`
        UPDATE search_items SET text = (SELECT f.body FROM search_fts f WHERE f.rowid = search_items.id) WHERE text IS NULL;
        DROP TABLE IF EXISTS search_vocab;
        DROP TABLE IF EXISTS search_fts;
      `);
      db.prepare('DELETE FROM search_item_log WHERE seq > ?').run(seq);
    },
  },
  {
    domain: 'search',
    version: 7,
    name: 'text sources: items whose text their owner holds',
    up: (db) => {
      db.exec('CREATE TABLE search_text_sources (corpus TEXT PRIMARY KEY, sql TEXT NOT NULL)');
    },
  },
];
