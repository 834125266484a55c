import type { Migration } from '../store/migrations';
import { regulationProfile } from './profile';

/**
 * Regulation library tables. The search engine indexes reg_units (citable units:
 * articles, clauses, numbered sections, or paragraphs when a text has no articles).
 * Append new versions; never edit a released one.
 */
export const regulationsMigrations: Migration[] = [
  {
    domain: 'regulations',
    version: 1,
    name: 'regulations, pages, toc, units',
    up: (db) => {
      db.exec(`
        CREATE TABLE regulations (
          reg_id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          source_file TEXT NOT NULL,
          source_hash TEXT NOT NULL,          -- sha256 of the file bytes; unchanged file => no-op re-import
          format TEXT NOT NULL,               -- pdf | markdown | text | docx
          total_pages INTEGER NOT NULL,
          indexed_at TEXT NOT NULL,
          description TEXT,
          keywords TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
          scope TEXT,
          is_demo INTEGER NOT NULL DEFAULT 0,
          extra TEXT NOT NULL DEFAULT '{}'     -- JSON: engine-specific metadata
        );
        CREATE TABLE reg_pages (
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          page_num INTEGER NOT NULL,           -- 1-based, physical page for PDF, virtual page otherwise
          text TEXT NOT NULL,
          PRIMARY KEY (reg_id, page_num)
        ) WITHOUT ROWID;
        CREATE TABLE reg_toc (
          id INTEGER PRIMARY KEY,
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,                -- document order
          level INTEGER NOT NULL,              -- 1 = top level
          title TEXT NOT NULL,
          page_num INTEGER NOT NULL,
          parent_id INTEGER REFERENCES reg_toc(id) ON DELETE CASCADE
        );
        CREATE INDEX reg_toc_reg ON reg_toc(reg_id, ord);
        CREATE TABLE reg_units (
          id INTEGER PRIMARY KEY,
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,                -- document order
          page_num INTEGER NOT NULL,           -- page where the unit starts
          kind TEXT NOT NULL,                  -- article | clause | section | paragraph
          label TEXT,                          -- 第二十条 / 5.3.2 / null for plain paragraphs
          section_path TEXT NOT NULL,          -- 第三章 调度计划 > 第二十条
          text TEXT NOT NULL
        );
        CREATE INDEX reg_units_reg ON reg_units(reg_id, ord);
        CREATE INDEX reg_units_label ON reg_units(reg_id, label);
      `);
    },
  },
  {
    domain: 'regulations',
    version: 2,
    name: 'structure: tables with per-row pages, notes, references',
    up: (db) => {
      db.exec(`
        CREATE TABLE reg_tables (
          id INTEGER PRIMARY KEY,
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,                -- document order
          table_id TEXT NOT NULL,              -- printed id (表A.1, 表6-2, 附表3) or T1, T2 … when unnumbered
          title TEXT NOT NULL,
          columns TEXT NOT NULL,               -- JSON array: the header row, once
          page_start INTEGER NOT NULL,
          page_end INTEGER NOT NULL,
          row_count INTEGER NOT NULL,
          section_path TEXT NOT NULL
        );
        CREATE UNIQUE INDEX reg_tables_id ON reg_tables(reg_id, table_id);
        CREATE TABLE reg_table_rows (
          table_pk INTEGER NOT NULL REFERENCES reg_tables(id) ON DELETE CASCADE,
          row_idx INTEGER NOT NULL,
          page_num INTEGER NOT NULL,           -- page the row is printed on (cross-page tables)
          cells TEXT NOT NULL,                 -- JSON array, one string per column
          PRIMARY KEY (table_pk, row_idx)
        ) WITHOUT ROWID;
        CREATE TABLE reg_notes (
          id INTEGER PRIMARY KEY,
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,
          label TEXT NOT NULL,                 -- 注 / 注1 / 说明
          text TEXT NOT NULL,
          page_num INTEGER NOT NULL,
          section_path TEXT NOT NULL,
          target_type TEXT NOT NULL,           -- table | article | section
          target TEXT NOT NULL                 -- 表A.1 / 第二十条 / section path
        );
        CREATE INDEX reg_notes_reg ON reg_notes(reg_id, label);
        CREATE TABLE reg_refs (
          id INTEGER PRIMARY KEY,
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,
          page_num INTEGER NOT NULL,           -- page the reference is written on
          source TEXT NOT NULL,                -- label / section of the unit holding it
          text TEXT NOT NULL,                  -- the words as written: 附录D, 第三十二条, 表6-2
          ref_type TEXT NOT NULL,              -- article | clause | chapter | section | part | appendix | table | note | regulation
          target TEXT NOT NULL,
          regulation TEXT                      -- another regulation's title when the reference names one
        );
        CREATE INDEX reg_refs_reg ON reg_refs(reg_id, page_num);
      `);
    },
  },
  {
    // own domain: OCR tables evolve apart from the core regulation tables (other work adds versions there)
    domain: 'regulations-ocr',
    version: 1,
    name: 'lines read by OCR with their boxes on the page',
    up: (db) => {
      db.exec(`
        CREATE TABLE reg_ocr_lines (
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          page_num INTEGER NOT NULL,
          ord INTEGER NOT NULL,                -- reading order on the page
          text TEXT NOT NULL,
          confidence REAL NOT NULL,            -- mean character probability, 0..1
          x0 REAL NOT NULL, y0 REAL NOT NULL,  -- box as fractions of the page width / height,
          x1 REAL NOT NULL, y1 REAL NOT NULL,  -- from the top-left corner
          PRIMARY KEY (reg_id, page_num, ord)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    domain: 'regulations-ocr',
    version: 2,
    name: 'OCR lines: probability of the least sure character (the low-confidence mark)',
    up: (db) => {
      // NULL for lines stored before: their mean stands in
      db.exec('ALTER TABLE reg_ocr_lines ADD COLUMN min_confidence REAL');
    },
  },
  {
    // own domain: how a table was laid out (printed header lines, merged cells, ruled or aligned)
    domain: 'regulations-table-layout',
    version: 1,
    name: 'table header lines, merged cells and layout',
    up: (db) => {
      db.exec(`ALTER TABLE reg_tables ADD COLUMN layout TEXT NOT NULL DEFAULT '{}'; -- JSON {header_rows, merged_cells, layout}`);
    },
  },
  {
    domain: 'regulations-figures',
    version: 1,
    name: 'figures: caption, page, box, citing sentences',
    up: (db) => {
      db.exec(`
        CREATE TABLE reg_figures (
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,
          figure_id TEXT NOT NULL,             -- 图3-1 as printed (numbers normalised)
          caption TEXT NOT NULL,
          page_num INTEGER NOT NULL,
          x0 REAL NOT NULL, y0 REAL NOT NULL,  -- PDF points from the page's top-left corner
          x1 REAL NOT NULL, y1 REAL NOT NULL,
          page_width REAL NOT NULL, page_height REAL NOT NULL,
          citing TEXT NOT NULL DEFAULT '[]',   -- JSON [{page_num, label, text}]
          PRIMARY KEY (reg_id, figure_id)
        ) WITHOUT ROWID;
      `);
    },
  },
];

/**
 * Text storage of regulations (v1, v2), after the search migrations.
 * v1: regulation units in the search index without a second copy of their text (after the search
 * migrations: search v7 creates search_text_sources). A unit indexed as one chunk has exactly the
 * unit's text, so its item stores none and the search engine reads it from reg_units by parent
 * (search/texts.ts); long units cut into several chunks keep each chunk's text. Existing items are
 * emptied where the texts are equal, without logging them as changed (the postings hold the same
 * tokens), and the database is vacuumed: the statute corpus holds ~57 MB of chunk text.
 */
export const regulationsTextMigrations: Migration[] = [
  {
    domain: 'regulations-text',
    version: 1,
    name: 'one-chunk units keep their text only in reg_units',
    vacuum: true,
    up: (db) => {
      const seq = (db.prepare('SELECT MAX(seq) AS s FROM search_item_log').get() as { s: number | null }).s ?? 0;
      db.exec(`
        INSERT OR REPLACE INTO search_text_sources (corpus, sql) VALUES ('reg', 'SELECT text FROM reg_units WHERE id = CAST(? AS INTEGER)');
        UPDATE search_items SET text = NULL
          WHERE corpus = 'reg' AND key = parent AND text = (SELECT u.text FROM reg_units u WHERE u.id = CAST(search_items.parent AS INTEGER));
      `);
      // profiles (regmeta) were indexed without their text: write it back as they were built (the
      // postings keep the tokens computed from it; a rebuild segments the same text again)
      const setText = db.prepare("UPDATE search_items SET text = ? WHERE corpus = 'regmeta' AND key = ?");
      for (const { reg_id } of db.prepare('SELECT reg_id FROM regulations').all() as { reg_id: string }[]) {
        const profile = regulationProfile(db, reg_id);
        if (profile) setText.run(profile.text, reg_id);
      }
      db.prepare('DELETE FROM search_item_log WHERE seq > ?').run(seq);
    },
  },
  {
    domain: 'regulations-text',
    version: 2,
    name: 'reg_pages as a rowid table (no half-empty overflow pages)',
    vacuum: true,
    // A page of text is ~4 KB: as a row of a WITHOUT ROWID table it spilled into overflow pages
    // (78.6 MB on disk for 57.7 MB of statute text); in a rowid table most fit one page (-15 %).
    // Same columns and key, so every reader stays as it is.
    up: (db) => {
      db.exec(`
        CREATE TABLE reg_pages_rowid (
          id INTEGER PRIMARY KEY,
          reg_id TEXT NOT NULL REFERENCES regulations(reg_id) ON DELETE CASCADE,
          page_num INTEGER NOT NULL,
          text TEXT NOT NULL,
          UNIQUE (reg_id, page_num)
        );
        INSERT INTO reg_pages_rowid (reg_id, page_num, text) SELECT reg_id, page_num, text FROM reg_pages ORDER BY reg_id, page_num;
        DROP TABLE reg_pages;
        ALTER TABLE reg_pages_rowid RENAME TO reg_pages;
      `);
    },
  },
];
