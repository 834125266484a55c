import type { Db } from '../store/db';
import { writeTransaction } from '../store/transaction';
import { GridError } from '../common/errors';
import { REG_CORPUS, indexRegulation, indexRegulationProfile, removeRegulationIndex } from './search-index';
import { keepVectors } from '../search/vectors';
import { mergeMetadata } from './metadata-merge';
import type { OcrLineBox, ParsedDocument, RegulationInfo, TocEntry } from './types';

interface RegulationRow {
  reg_id: string;
  title: string;
  source_file: string;
  source_hash: string;
  format: string;
  total_pages: number;
  indexed_at: string;
  description: string | null;
  keywords: string;
  scope: string | null;
  is_demo: number;
  extra: string;
  unit_count?: number;
  toc_count?: number;
}

export interface RegulationExtra {
  /** Absolute path the regulation was imported from (identity for re-imports). */
  source_path?: string;
  metadata_source?: 'auto' | 'llm' | 'manual' | 'info.json';
  /** keywords / fields a program generated (see metadata-merge.ts); the rest are curated */
  generated_keywords?: string[];
  generated_fields?: ('description' | 'scope')[];
  /** scanned pages read by OCR at import */
  ocr?: { pages: number[]; mean_confidence: number | null; notes: string[] };
}

function parseKeywords(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function generatedKeywords(extraJson: string): string[] {
  try {
    const extra = JSON.parse(extraJson) as RegulationExtra;
    return Array.isArray(extra.generated_keywords) ? extra.generated_keywords : [];
  } catch {
    return [];
  }
}

function toInfo(row: RegulationRow): RegulationInfo {
  return {
    reg_id: row.reg_id,
    title: row.title,
    source_file: row.source_file,
    total_pages: row.total_pages,
    indexed_at: row.indexed_at,
    description: row.description,
    keywords: parseKeywords(row.keywords),
    generated_keywords: generatedKeywords(row.extra),
    scope: row.scope,
    format: row.format,
    is_demo: row.is_demo === 1,
    unit_count: row.unit_count ?? 0,
    toc_count: row.toc_count ?? 0,
  };
}

const INFO_SQL = `SELECT r.*,
  (SELECT COUNT(*) FROM reg_units u WHERE u.reg_id = r.reg_id) AS unit_count,
  (SELECT COUNT(*) FROM reg_toc t WHERE t.reg_id = r.reg_id) AS toc_count
  FROM regulations r`;

export function listRegulations(db: Db): RegulationInfo[] {
  return (db.prepare(`${INFO_SQL} ORDER BY r.is_demo DESC, r.title COLLATE NOCASE, r.reg_id`).all() as RegulationRow[]).map(toInfo);
}

export function findRegulation(db: Db, regId: string): (RegulationInfo & { source_hash: string; extra: RegulationExtra }) | null {
  const row = db.prepare(`${INFO_SQL} WHERE r.reg_id = ?`).get(regId) as RegulationRow | undefined;
  if (!row) return null;
  let extra: RegulationExtra = {};
  try {
    extra = JSON.parse(row.extra) as RegulationExtra;
  } catch {
    /* keep empty */
  }
  return { ...toInfo(row), source_hash: row.source_hash, extra };
}

export function getRegulation(db: Db, regId: string): RegulationInfo {
  const info = findRegulation(db, regId);
  if (!info) throw new GridError('NOT_FOUND', `未找到规程「${regId}」（可用 gridcode list 查看已导入的规程）`);
  const { source_hash: _h, extra: _e, ...rest } = info;
  return rest;
}

export function getToc(db: Db, regId: string): TocEntry[] {
  getRegulation(db, regId);
  return db
    .prepare('SELECT id, level, title, page_num, parent_id FROM reg_toc WHERE reg_id = ? ORDER BY ord')
    .all(regId) as TocEntry[];
}

/** Checks a page range against the regulation; returns its last existing page. */
function validatePageRange(db: Db, regId: string, from: number, to: number, maxPages: number): number {
  const info = getRegulation(db, regId);
  if (from < 1) throw new GridError('INVALID_INPUT', `起始页 ${from} 无效：页码从 1 开始`);
  if (to < from) throw new GridError('INVALID_INPUT', `结束页 ${to} 小于起始页 ${from}`);
  if (from > info.total_pages) {
    throw new GridError('INVALID_INPUT', `页码超出范围：「${regId}」共 ${info.total_pages} 页，请求从第 ${from} 页开始`);
  }
  if (to - from + 1 > maxPages) {
    throw new GridError('INVALID_INPUT', `一次最多读取 ${maxPages} 页（请求了 ${to - from + 1} 页：${from}–${to}）`);
  }
  return Math.min(to, info.total_pages);
}

export interface PageSlice {
  page_num: number;
  text: string;
  /** only on a partial page: where `text` starts in the page, and the page's full length (characters) */
  offset?: number;
  total_chars?: number;
}

export interface PageWindow {
  pages: PageSlice[];
  /** the response stops before the requested range ends; `next` continues it */
  truncated: boolean;
  next: { start: number; end: number; offset?: number } | null;
}

/**
 * Pages `from`..`to` cut to a budget of `maxChars` characters of page text: whole pages while they fit,
 * then stop at a page boundary; a single page longer than the budget comes in slices (`offset`). Text is
 * cut in SQL, so an oversized page (imported before pages were bounded) is never loaded whole.
 */
export function readPageWindow(
  db: Db,
  regId: string,
  range: { from: number; to: number; offset?: number },
  limits: { maxPages: number; maxChars: number },
): PageWindow {
  const { from, to, offset = 0 } = range;
  const heads = readPageHeads(db, regId, from, to, limits.maxPages);
  const slice = db.prepare('SELECT substr(text, ?, ?) AS text FROM reg_pages WHERE reg_id = ? AND page_num = ?');
  const pages: PageSlice[] = [];
  let budget = limits.maxChars;
  for (const head of heads) {
    const start = head.page_num === from ? offset : 0;
    if (start > 0 && start >= head.chars) {
      throw new GridError('INVALID_INPUT', `偏移 ${start} 超出第 ${from} 页的长度（${head.chars} 字）`);
    }
    const rest = head.chars - start;
    if (rest <= budget) {
      const text = start > 0 ? (slice.get(start + 1, rest, regId, head.page_num) as { text: string }).text : head.text();
      pages.push(start > 0 ? { page_num: head.page_num, text, offset: start, total_chars: head.chars } : { page_num: head.page_num, text });
      budget -= rest;
      continue;
    }
    if (pages.length) return { pages, truncated: true, next: { start: head.page_num, end: to } };
    // one page longer than the whole budget: a slice of it, continued at the next offset
    const text = (slice.get(start + 1, budget, regId, head.page_num) as { text: string }).text;
    pages.push({ page_num: head.page_num, text, offset: start, total_chars: head.chars });
    return { pages, truncated: true, next: { start: head.page_num, end: to, offset: start + budget } };
  }
  return { pages, truncated: false, next: null };
}

/** Page numbers and lengths of a validated range; the text is fetched only when the page is taken whole. */
function readPageHeads(db: Db, regId: string, from: number, to: number, maxPages: number): { page_num: number; chars: number; text: () => string }[] {
  validatePageRange(db, regId, from, to, maxPages);
  const rows = db
    .prepare('SELECT page_num, length(text) AS chars FROM reg_pages WHERE reg_id = ? AND page_num BETWEEN ? AND ? ORDER BY page_num')
    .all(regId, from, to) as { page_num: number; chars: number }[];
  const full = db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? AND page_num = ?');
  return rows.map((r) => ({ ...r, text: () => (full.get(regId, r.page_num) as { text: string }).text }));
}

/** Deletes inside the caller's transaction (search index first, so both go together). */
function deleteRows(db: Db, regId: string): void {
  removeRegulationIndex(db, regId);
  db.prepare('DELETE FROM reg_units WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM reg_tables WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM reg_notes WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM reg_refs WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM reg_ocr_lines WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM reg_figures WHERE reg_id = ?').run(regId);
  // children before parents: parent_id references reg_toc(id)
  db.prepare('UPDATE reg_toc SET parent_id = NULL WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM reg_toc WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM reg_pages WHERE reg_id = ?').run(regId);
  db.prepare('DELETE FROM regulations WHERE reg_id = ?').run(regId);
}

export function deleteRegulation(db: Db, regId: string): boolean {
  return writeTransaction(db, () => {
    if (!findRegulation(db, regId)) return false;
    deleteRows(db, regId);
    return true;
  });
}

export interface WriteOptions {
  regId: string;
  sourceFile: string;
  sourcePath: string;
  sourceHash: string;
  isDemo?: boolean;
  /** Characters per search chunk: config.search.chunkChars (the one place the chunk size comes from). */
  chunkChars: number;
  /** Metadata kept across a replace (user edits survive re-import of a changed file). */
  keep?: { description: string | null; keywords: string[]; scope: string | null; extra: RegulationExtra } | null;
}

/**
 * Writes one parsed document as a complete regulation, replacing any previous version, in ONE
 * transaction together with its search index: a crash leaves the old state or the new one, never half.
 */
export function writeRegulation(db: Db, doc: ParsedDocument, options: WriteOptions, onPage?: (done: number, total: number) => void): void {
  const insertReg = db.prepare(`INSERT INTO regulations
    (reg_id, title, source_file, source_hash, format, total_pages, indexed_at, description, keywords, scope, is_demo, extra)
    VALUES (@reg_id, @title, @source_file, @source_hash, @format, @total_pages, @indexed_at, @description, @keywords, @scope, @is_demo, @extra)`);
  const insertPage = db.prepare('INSERT INTO reg_pages (reg_id, page_num, text) VALUES (?, ?, ?)');
  const insertToc = db.prepare('INSERT INTO reg_toc (reg_id, ord, level, title, page_num, parent_id) VALUES (?, ?, ?, ?, ?, ?)');
  const insertUnit = db.prepare(
    'INSERT INTO reg_units (reg_id, ord, page_num, kind, label, section_path, text) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  // a re-imported edition keeps the vectors of the chunks it did not change (same section, same text)
  writeTransaction(db, () => keepVectors(db, REG_CORPUS, options.regId, () => {
    if (findRegulation(db, options.regId)) deleteRows(db, options.regId);
    const keep = options.keep;
    insertReg.run({
      reg_id: options.regId,
      title: doc.title,
      source_file: options.sourceFile,
      source_hash: options.sourceHash,
      format: doc.format,
      total_pages: doc.pages.length,
      indexed_at: new Date().toISOString(),
      description: keep?.description ?? null,
      keywords: JSON.stringify(keep?.keywords ?? []),
      scope: keep?.scope ?? null,
      is_demo: options.isDemo ? 1 : 0,
      extra: JSON.stringify({
        ...(keep?.extra ?? {}),
        source_path: options.sourcePath,
        ocr: doc.ocr?.pages.length ? { pages: doc.ocr.pages, mean_confidence: doc.ocr.mean_confidence, notes: doc.ocr.notes } : undefined,
      } satisfies RegulationExtra),
    });
    doc.pages.forEach((p, i) => {
      insertPage.run(options.regId, p.page_num, p.text);
      if (onPage && (i % 50 === 49 || i === doc.pages.length - 1)) onPage(i + 1, doc.pages.length);
    });
    const parents: { level: number; id: number }[] = [];
    doc.toc.forEach((t, ord) => {
      while (parents.length && parents[parents.length - 1].level >= t.level) parents.pop();
      const parent = parents.length ? parents[parents.length - 1].id : null;
      const id = Number(insertToc.run(options.regId, ord, t.level, t.title, t.page_num, parent).lastInsertRowid);
      parents.push({ level: t.level, id });
    });
    doc.units.forEach((u, ord) => insertUnit.run(options.regId, ord, u.page_num, u.kind, u.label, u.section_path, u.text));
    writeStructure(db, options.regId, doc);
    writeOcrLines(db, options.regId, doc);
    writeFigures(db, options.regId, doc);
    indexRegulation(db, options.regId, options.chunkChars);
  }));
}

function writeFigures(db: Db, regId: string, doc: ParsedDocument): void {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO reg_figures (reg_id, ord, figure_id, caption, page_num, x0, y0, x1, y1, page_width, page_height, citing) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  (doc.figures ?? []).forEach((f, ord) => insert.run(regId, ord, f.figure_id, f.caption, f.page_num, ...f.bbox, f.page_width, f.page_height, JSON.stringify(f.citing)));
}

function writeOcrLines(db: Db, regId: string, doc: ParsedDocument): void {
  const insert = db.prepare('INSERT INTO reg_ocr_lines (reg_id, page_num, ord, text, confidence, min_confidence, x0, y0, x1, y1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const ordOnPage = new Map<number, number>();
  for (const l of doc.ocr?.lines ?? []) {
    const ord = ordOnPage.get(l.page_num) ?? 0;
    ordOnPage.set(l.page_num, ord + 1);
    insert.run(regId, l.page_num, ord, l.text, l.confidence, l.min_confidence, l.x0, l.y0, l.x1, l.y1);
  }
}

/** The lines OCR read on a page, with their boxes (empty for a page that has a text layer). */
export function ocrLines(db: Db, regId: string, page: number): Omit<OcrLineBox, 'page_num'>[] {
  return db
    .prepare('SELECT text, confidence, COALESCE(min_confidence, confidence) AS min_confidence, x0, y0, x1, y1 FROM reg_ocr_lines WHERE reg_id = ? AND page_num = ? ORDER BY ord')
    .all(regId, page) as Omit<OcrLineBox, 'page_num'>[];
}

/** Tables (with per-row pages), notes and references of one regulation, inside the caller's transaction. */
function writeStructure(db: Db, regId: string, doc: ParsedDocument): void {
  const insertTable = db.prepare(
    'INSERT INTO reg_tables (reg_id, ord, table_id, title, columns, page_start, page_end, row_count, section_path, layout) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertRow = db.prepare('INSERT INTO reg_table_rows (table_pk, row_idx, page_num, cells) VALUES (?, ?, ?, ?)');
  const insertNote = db.prepare(
    'INSERT INTO reg_notes (reg_id, ord, label, text, page_num, section_path, target_type, target) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertRef = db.prepare('INSERT INTO reg_refs (reg_id, ord, page_num, source, text, ref_type, target, regulation) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  (doc.tables ?? []).forEach((t, ord) => {
    const pk = Number(
      insertTable.run(
        regId,
        ord,
        t.table_id,
        t.title,
        JSON.stringify(t.columns),
        t.page_start,
        t.page_end,
        t.rows.length,
        t.section_path,
        JSON.stringify({ header_rows: t.header_rows ?? [t.columns], merged_cells: t.merged_cells ?? [], layout: t.layout ?? 'aligned' }),
      ).lastInsertRowid,
    );
    t.rows.forEach((r, i) => insertRow.run(pk, i, r.page_num, JSON.stringify(r.cells)));
  });
  (doc.notes ?? []).forEach((n, ord) => insertNote.run(regId, ord, n.label, n.text, n.page_num, n.section_path, n.target_type, n.target));
  (doc.refs ?? []).forEach((r, ord) => insertRef.run(regId, ord, r.page_num, r.source, r.text, r.ref_type, r.target, r.regulation));
}

export interface InfoUpdate {
  title?: string;
  description?: string | null;
  keywords?: string[];
  scope?: string | null;
}

/** The one write path for metadata (offline enrich, LLM enrich, info.json import, UI edits). */
export function updateInfo(db: Db, regId: string, update: InfoUpdate, source: RegulationExtra['metadata_source']): RegulationInfo {
  return writeTransaction(db, () => {
    const cur = findRegulation(db, regId);
    if (!cur) throw new GridError('NOT_FOUND', `未找到规程「${regId}」`);
    // curated keywords/texts survive generated ones (metadata-merge.ts)
    const merged = mergeMetadata(
      {
        description: cur.description,
        keywords: cur.keywords,
        scope: cur.scope,
        // rows enriched before keywords were marked: everything an enrich wrote counts as generated
        generated_keywords: cur.extra.generated_keywords ?? (cur.extra.metadata_source === 'auto' || cur.extra.metadata_source === 'llm' ? cur.keywords : []),
        generated_fields: cur.extra.generated_fields ?? [],
      },
      update,
      source,
    );
    const extra: RegulationExtra = { ...cur.extra, metadata_source: source, generated_keywords: merged.generated_keywords, generated_fields: merged.generated_fields };
    db.prepare('UPDATE regulations SET title = ?, description = ?, keywords = ?, scope = ?, extra = ? WHERE reg_id = ?').run(
      update.title ?? cur.title,
      merged.description,
      JSON.stringify(merged.keywords),
      merged.scope,
      JSON.stringify(extra),
      regId,
    );
    // the search engine indexes title/keywords/scope as the regulation's profile: keep it in step
    indexRegulationProfile(db, regId);
    return getRegulation(db, regId);
  });
}

export function firstPages(db: Db, regId: string, count: number): { page_num: number; text: string }[] {
  return db.prepare('SELECT page_num, text FROM reg_pages WHERE reg_id = ? ORDER BY page_num LIMIT ?').all(regId, count) as {
    page_num: number;
    text: string;
  }[];
}

export function allUnits(db: Db, regId: string): { kind: string; label: string | null; section_path: string; text: string; page_num: number }[] {
  return db.prepare('SELECT kind, label, section_path, text, page_num FROM reg_units WHERE reg_id = ? ORDER BY ord').all(regId) as {
    kind: string;
    label: string | null;
    section_path: string;
    text: string;
    page_num: number;
  }[];
}
