import type { Migration } from '../store/migrations';

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
];
