import type { Db } from '../store/db';
import { GridError } from '../common/errors';
import { dateFromFileName, dateFromText, docNumberKey, docNumberOf, titleKey } from '../editions/identity';

/**
 * Editions of one regulation in the library (table reg_editions, src/core/editions/schema.ts).
 * Importing a document whose title (or document number) matches a regulation already in the library
 * with another effective date adds it to that regulation's family; the in-force edition is the one
 * with the latest effective date that has come (an edition dated in the future is 即将施行). Older
 * editions stay, labelled 旧版 with their dates; nothing is replaced.
 */

export interface EditionInfo {
  reg_id: string;
  title: string;
  effective_date: string | null;
  in_force: boolean;
  /** 现行 / 旧版 / 即将施行 */
  status: 'current' | 'superseded' | 'upcoming';
  source_file: string;
  indexed_at: string;
  doc_number: string | null;
  family: string;
}

interface EditionRow {
  reg_id: string;
  family: string;
  effective_date: string | null;
  title_key: string;
  doc_number: string | null;
  doc_key: string | null;
  separate: number;
  title: string;
  source_file: string;
  indexed_at: string;
}

const ROW_SQL = `SELECT e.*, r.title, r.source_file, r.indexed_at FROM reg_editions e JOIN regulations r ON r.reg_id = e.reg_id`;

export type EditionChoice = { mode: 'auto' } | { mode: 'separate' } | { mode: 'of'; reg_id: string };

export interface EditionDecision {
  family: string;
  /** the regulation this one was joined to (null: its own family) */
  joined: string | null;
  /** how it was decided: matched by title / document number, asked for, kept apart */
  reason: 'title' | 'doc_number' | 'asked' | 'separate' | 'alone';
  effective_date: string | null;
}

/** What a document says about its identity: the effective date, document number and title key. */
export function documentIdentity(title: string, sourceFile: string, firstText: string): { effective_date: string | null; doc_number: string | null; title_key: string } {
  const doc = docNumberOf(title, firstText);
  return { effective_date: dateFromFileName(sourceFile) ?? dateFromText(firstText, doc), doc_number: doc, title_key: titleKey(title) };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Orders a family oldest → newest: by effective date, unknown dates by import time. */
function sortKey(r: { effective_date: string | null; indexed_at: string }): string {
  return r.effective_date ?? r.indexed_at.slice(0, 10);
}

function toInfos(rows: EditionRow[]): EditionInfo[] {
  const sorted = [...rows].sort((a, b) => sortKey(a).localeCompare(sortKey(b)) || a.indexed_at.localeCompare(b.indexed_at));
  const now = today();
  // in force: the latest edition whose date has come; if every edition is dated ahead, the earliest
  let current = -1;
  sorted.forEach((r, k) => {
    if (sortKey(r) <= now) current = k;
  });
  if (current < 0) current = 0;
  return sorted.map((r, k) => ({
    reg_id: r.reg_id,
    title: r.title,
    effective_date: r.effective_date,
    in_force: k === current,
    status: k === current ? 'current' : k < current ? 'superseded' : 'upcoming',
    source_file: r.source_file,
    indexed_at: r.indexed_at,
    doc_number: r.doc_number,
    family: r.family,
  }));
}

function rowOf(db: Db, regId: string): EditionRow | undefined {
  return db.prepare(`${ROW_SQL} WHERE e.reg_id = ?`).get(regId) as EditionRow | undefined;
}

/** The editions of the regulation's family, oldest first (a regulation alone is a family of one). */
export function editionsOf(db: Db, regId: string): EditionInfo[] {
  const row = rowOf(db, regId);
  if (!row) {
    const reg = db.prepare('SELECT reg_id, title, source_file, indexed_at FROM regulations WHERE reg_id = ?').get(regId) as
      | { reg_id: string; title: string; source_file: string; indexed_at: string }
      | undefined;
    if (!reg) throw new GridError('NOT_FOUND', `未找到规程「${regId}」（可用 gridcode list 查看已导入的规程）`);
    return toInfos([{ ...reg, family: reg.reg_id, effective_date: null, title_key: '', doc_number: null, doc_key: null, separate: 0 }]);
  }
  return toInfos(db.prepare(`${ROW_SQL} WHERE e.family = ?`).all(row.family) as EditionRow[]);
}

/** Every family of two or more editions, each oldest first. */
export function allFamilies(db: Db): EditionInfo[][] {
  const rows = db.prepare(`${ROW_SQL} WHERE e.family IN (SELECT family FROM reg_editions GROUP BY family HAVING COUNT(*) > 1) ORDER BY e.family`).all() as EditionRow[];
  const byFamily = new Map<string, EditionRow[]>();
  for (const r of rows) byFamily.set(r.family, [...(byFamily.get(r.family) ?? []), r]);
  return [...byFamily.values()].map(toInfos);
}

/** reg_id -> its edition when it is not the one in force (superseded or upcoming); regulations alone are absent. */
export function notInForce(db: Db): Map<string, { edition: EditionInfo; current: EditionInfo }> {
  const out = new Map<string, { edition: EditionInfo; current: EditionInfo }>();
  for (const family of allFamilies(db)) {
    const current = family.find((e) => e.in_force)!;
    for (const e of family) if (!e.in_force) out.set(e.reg_id, { edition: e, current });
  }
  return out;
}

/**
 * Records a freshly written regulation's identity and decides its family (inside the import's write
 * transaction). auto: another regulation with the same title key or document number (year aside) and
 * another effective date → the same family; same date → kept apart (a copy, not an edition).
 */
export function recordEdition(
  db: Db,
  regId: string,
  doc: { title: string; sourceFile: string; firstText: string },
  choice: EditionChoice = { mode: 'auto' },
): EditionDecision {
  const id = documentIdentity(doc.title, doc.sourceFile, doc.firstText);
  const before = rowOf(db, regId);
  let family = before?.family ?? regId;
  let joined: string | null = null;
  let reason: EditionDecision['reason'] = before && before.family !== regId ? 'title' : 'alone';
  if (choice.mode === 'of') {
    if (choice.reg_id === regId) throw new GridError('INVALID_INPUT', '不能把规程设为它自己的版本');
    const target = rowOf(db, choice.reg_id);
    if (!target) throw new GridError('NOT_FOUND', `未找到规程「${choice.reg_id}」：--as-edition-of 需要一部已导入的规程（可用 gridcode list 查看）`);
    family = target.family;
    joined = target.reg_id;
    reason = 'asked';
  } else if (choice.mode === 'separate') {
    family = regId;
    reason = 'separate';
  } else if (!before || before.family === regId) {
    const docKey = docNumberKey(id.doc_number);
    const candidates = (
      db
        .prepare(`${ROW_SQL} WHERE e.reg_id != ? AND e.separate = 0 AND (e.title_key = ? OR (? IS NOT NULL AND e.doc_key = ?)) ORDER BY r.indexed_at`)
        .all(regId, id.title_key, docKey, docKey) as EditionRow[]
    ).filter((r) => r.effective_date !== id.effective_date || (r.doc_number !== null && id.doc_number !== null && r.doc_number !== id.doc_number));
    const match = candidates.find((r) => id.title_key && r.title_key === id.title_key) ?? candidates[0];
    if (match) {
      family = match.family;
      joined = match.reg_id;
      reason = match.title_key === id.title_key ? 'title' : 'doc_number';
    }
  }
  db.prepare(
    `INSERT INTO reg_editions (reg_id, family, effective_date, title_key, doc_number, doc_key, separate) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(reg_id) DO UPDATE SET family = excluded.family, effective_date = excluded.effective_date, title_key = excluded.title_key,
       doc_number = excluded.doc_number, doc_key = excluded.doc_key, separate = excluded.separate`,
  ).run(regId, family, id.effective_date, id.title_key, id.doc_number, docNumberKey(id.doc_number), choice.mode === 'separate' ? 1 : 0);
  return { family, joined, reason, effective_date: id.effective_date };
}

/**
 * After the fact (the import screen's "分开保存" / "作为新版本"): join `regId` to `of`'s family, or
 * (of = null) take it out of its family and keep it apart from now on.
 */
export function setEditionOf(db: Db, regId: string, of: string | null): EditionInfo[] {
  const row = rowOf(db, regId);
  if (!row) throw new GridError('NOT_FOUND', `未找到规程「${regId}」（可用 gridcode list 查看已导入的规程）`);
  if (of === null) {
    // the others keep their family; if this one named it, they take the next member's id
    const others = (db.prepare('SELECT reg_id FROM reg_editions WHERE family = ? AND reg_id != ? ORDER BY reg_id').all(row.family, regId) as { reg_id: string }[]).map((r) => r.reg_id);
    if (row.family === regId && others.length) db.prepare('UPDATE reg_editions SET family = ? WHERE family = ? AND reg_id != ?').run(others[0], regId, regId);
    db.prepare('UPDATE reg_editions SET family = ?, separate = 1 WHERE reg_id = ?').run(regId, regId);
    return editionsOf(db, regId);
  }
  if (of === regId) throw new GridError('INVALID_INPUT', '不能把规程设为它自己的版本');
  const target = rowOf(db, of);
  if (!target) throw new GridError('NOT_FOUND', `未找到规程「${of}」（可用 gridcode list 查看已导入的规程）`);
  db.prepare('UPDATE reg_editions SET family = ?, separate = 0 WHERE reg_id = ?').run(target.family, regId);
  // members that were in this regulation's own family come along
  if (row.family === regId) db.prepare('UPDATE reg_editions SET family = ? WHERE family = ?').run(target.family, regId);
  return editionsOf(db, regId);
}

/** 2023-12-11 施行 / 施行日期不详 — how an edition is labelled in lists. */
export function editionLabel(e: Pick<EditionInfo, 'effective_date' | 'status'>): string {
  const status = e.status === 'current' ? '现行' : e.status === 'upcoming' ? '即将施行' : '旧版';
  return `${status}（${e.effective_date ? `${e.effective_date} 施行` : '施行日期不详'}）`;
}

export interface UngroupedEditions {
  /** the newest member's title */
  title: string;
  /** what the members share: the title (edition marks aside) or the document number (year aside) */
  reason: 'title' | 'doc_number';
  /** every member, oldest first, with the status it would have once joined */
  editions: EditionInfo[];
}

/**
 * Regulations that are editions of one another by the import rule (same title key or document
 * number, another effective date) but sit in different families: imported before editions existed
 * (the migration gave each its own family). Regulations the user kept apart are never proposed;
 * a same-titled copy with the same date is not an edition.
 */
export function ungroupedEditions(db: Db, regId?: string): UngroupedEditions[] {
  const rows = (db.prepare(`${ROW_SQL} WHERE e.separate = 0`).all() as EditionRow[]).sort((a, b) => a.indexed_at.localeCompare(b.indexed_at));
  // union of families joined by a shared key between two rows that are editions (not copies)
  const parent = new Map<string, string>();
  const find = (f: string): string => {
    let r = f;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const touched = new Set<string>();
  const link = (rowsByKey: Map<string, EditionRow[]>) => {
    for (const members of rowsByKey.values()) {
      for (let a = 0; a < members.length; a++) {
        for (let b = a + 1; b < members.length; b++) {
          const x = members[a];
          const y = members[b];
          const edition = x.effective_date !== y.effective_date || (x.doc_number !== null && y.doc_number !== null && x.doc_number !== y.doc_number);
          if (!edition) continue;
          const fx = find(x.family);
          const fy = find(y.family);
          if (fx === fy) continue;
          parent.set(fy, fx);
          touched.add(x.family).add(y.family);
        }
      }
    }
  };
  const group = (key: (r: EditionRow) => string | null) => {
    const m = new Map<string, EditionRow[]>();
    for (const r of rows) {
      const k = key(r);
      if (k) m.set(k, [...(m.get(k) ?? []), r]);
    }
    return m;
  };
  link(group((r) => r.title_key || null));
  link(group((r) => r.doc_key));
  // every row of every family in a joined set (kept-apart rows included when their family is)
  const all = db.prepare(ROW_SQL).all() as EditionRow[];
  const sets = new Map<string, EditionRow[]>();
  for (const r of all) {
    if (!touched.has(r.family)) continue;
    const root = find(r.family);
    sets.set(root, [...(sets.get(root) ?? []), r]);
  }
  const out: UngroupedEditions[] = [];
  for (const members of sets.values()) {
    if (new Set(members.map((m) => m.family)).size < 2) continue;
    if (regId && !members.some((m) => m.reg_id === regId)) continue;
    const editions = toInfos(members);
    const sharedTitle = members.some((a) => a.title_key && members.some((b) => b.family !== a.family && b.title_key === a.title_key));
    out.push({ title: editions.at(-1)!.title, reason: sharedTitle ? 'title' : 'doc_number', editions });
  }
  return out.sort((a, b) => a.title.localeCompare(b.title, 'zh'));
}

/**
 * Joins proposed groups into one family each (the family of the member imported first), or with
 * `keepApart` marks their members as kept apart so they are not proposed again. `regIds` limits it
 * to the groups holding one of them. Returns the groups acted on, members as they now stand.
 */
export function groupEditions(db: Db, opts: { regIds?: string[]; keepApart?: boolean } = {}): UngroupedEditions[] {
  for (const id of opts.regIds ?? []) {
    if (!db.prepare('SELECT 1 FROM regulations WHERE reg_id = ?').get(id)) throw new GridError('NOT_FOUND', `未找到规程「${id}」（可用 gridcode list 查看已导入的规程）`);
  }
  const groups = ungroupedEditions(db).filter((g) => !opts.regIds?.length || g.editions.some((e) => opts.regIds!.includes(e.reg_id)));
  const out: UngroupedEditions[] = [];
  for (const g of groups) {
    const ids = g.editions.map((e) => e.reg_id);
    if (opts.keepApart) {
      const mark = db.prepare('UPDATE reg_editions SET separate = 1 WHERE reg_id = ?');
      for (const id of ids) mark.run(id);
      out.push(g);
      continue;
    }
    const first = [...g.editions].sort((a, b) => a.indexed_at.localeCompare(b.indexed_at))[0];
    const families = [...new Set(g.editions.map((e) => e.family))];
    const move = db.prepare('UPDATE reg_editions SET family = ? WHERE family = ?');
    for (const f of families) if (f !== first.family) move.run(first.family, f);
    out.push({ ...g, editions: editionsOf(db, first.reg_id) });
  }
  return out;
}
