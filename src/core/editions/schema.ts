import type { Migration } from '../store/migrations';
import { dateFromFileName, dateFromText, docNumberKey, docNumberOf, titleKey } from './identity';

/**
 * Editions of one regulation (issue 25): each imported regulation has a row; regulations with the same
 * `family` are editions of one another. The in-force edition is computed (latest effective date that
 * has come), never stored, so it cannot go stale. A row marked `separate` was kept apart by the user
 * and is never joined automatically.
 */
export const editionsMigrations: Migration[] = [
  {
    domain: 'editions',
    version: 1,
    name: 'reg_editions: families of editions, effective dates, identity keys',
    up: (db) => {
      db.exec(`
        CREATE TABLE reg_editions (
          reg_id TEXT PRIMARY KEY REFERENCES regulations(reg_id) ON DELETE CASCADE,
          family TEXT NOT NULL,                -- reg_id of the family's first edition (itself when alone)
          effective_date TEXT,                 -- YYYY-MM-DD, null when the document does not say
          title_key TEXT NOT NULL,             -- title without spaces, punctuation and edition marks
          doc_number TEXT,                     -- GB 26860-2011
          doc_key TEXT,                        -- the number without its year: GB 26860
          separate INTEGER NOT NULL DEFAULT 0  -- the user kept it apart from same-titled regulations
        );
        CREATE INDEX reg_editions_family ON reg_editions(family);
        CREATE INDEX reg_editions_title ON reg_editions(title_key);
        CREATE INDEX reg_editions_doc ON reg_editions(doc_key);
      `);
      // regulations imported before editions existed: their identity, each its own family
      const regs = db.prepare('SELECT reg_id, title, source_file FROM regulations').all() as { reg_id: string; title: string; source_file: string }[];
      const firstPage = db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? ORDER BY page_num LIMIT 1');
      const insert = db.prepare('INSERT INTO reg_editions (reg_id, family, effective_date, title_key, doc_number, doc_key) VALUES (?, ?, ?, ?, ?, ?)');
      for (const r of regs) {
        const text = (firstPage.get(r.reg_id) as { text: string } | undefined)?.text ?? '';
        const doc = docNumberOf(r.title, text);
        insert.run(r.reg_id, r.reg_id, dateFromFileName(r.source_file) ?? dateFromText(text, doc), titleKey(r.title), doc, docNumberKey(doc));
      }
    },
  },
];
