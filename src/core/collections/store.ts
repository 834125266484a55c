import { GridError } from '../common/errors';
import type { Db } from '../store/db';
import type { ParsedDocument } from './parse';

export interface CollectionRow {
  id: number;
  name: string;
  source_dir: string;
  created_at: string;
  updated_at: string;
}

export interface DocRow {
  id: number;
  collection_id: number;
  rel_path: string;
  title: string;
  heading: string;
  kind: 'recipe' | 'document';
  difficulty: number | null;
  total_chunks: number;
}

export interface StoredDoc extends DocRow {
  parsed: ParsedDocument;
}

/** Corpus name of a collection in the shared search index. */
export function corpusOf(name: string): string {
  return `col:${name}`;
}

/** Names are used in CLI flags and corpus keys: no spaces/colons, 1..64 characters. */
export function validateCollectionName(name: string): string {
  const n = name.trim();
  if (!n) throw new GridError('INVALID_INPUT', 'name: 集合名称不能为空');
  if (n.length > 64) throw new GridError('INVALID_INPUT', `name: 集合名称过长（${n.length} 个字符，最多 64）`);
  if (/[\s:/\\]/.test(n)) throw new GridError('INVALID_INPUT', `name: 集合名称 "${n}" 不能包含空格、冒号或斜杠`);
  return n;
}

export function findCollection(db: Db, name: string): CollectionRow | undefined {
  return db.prepare('SELECT * FROM collections WHERE name = ?').get(name) as CollectionRow | undefined;
}

export function requireCollection(db: Db, name: string): CollectionRow {
  const row = findCollection(db, name);
  if (!row) {
    const names = (db.prepare('SELECT name FROM collections ORDER BY name').all() as { name: string }[]).map((r) => r.name);
    throw new GridError(
      'NOT_FOUND',
      `集合不存在: ${name}${names.length ? `（已有: ${names.join('、')}）` : '（尚未导入任何集合，请先运行 gridcode collection import <文件夹> --name <名称>）'}`,
    );
  }
  return row;
}

export function getDoc(db: Db, docId: number): StoredDoc | undefined {
  const row = db.prepare('SELECT * FROM coll_docs WHERE id = ?').get(docId) as (DocRow & { parsed: string }) | undefined;
  return row ? { ...row, parsed: JSON.parse(row.parsed) as ParsedDocument } : undefined;
}

export function docsOf(db: Db, collectionId: number): DocRow[] {
  return db
    .prepare(
      'SELECT id, collection_id, rel_path, title, heading, kind, difficulty, total_chunks FROM coll_docs WHERE collection_id = ? ORDER BY id',
    )
    .all(collectionId) as DocRow[];
}
