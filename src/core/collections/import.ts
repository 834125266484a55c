import crypto from 'node:crypto';
import { writeTransaction } from '../store/transaction';
import fs from 'node:fs';
import path from 'node:path';
import { GridError } from '../common/errors';
import type { AppContext } from '../context';
import type { ProgressSink } from '../common/operation';
import { parseDocument, type ParsedDocument } from './parse';
import { chunkDocument, type DocChunk } from './chunk';
import { corpusOf, findCollection, validateCollectionName } from './store';
import { indexDocChunks, removeDocIndex } from './search-bridge';
import { listFilesRecursive } from '../common/files';
import { detectCollectionProfile } from './profile';
import { forgetCollectionCache } from './retrieve';

export const DOC_EXTENSIONS = ['.md', '.markdown', '.txt'];

export interface ImportSkip {
  path: string;
  reason: string;
}

export interface ImportResult {
  collection: string;
  source_dir: string;
  files: number;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  skipped: ImportSkip[];
  documents: number;
  chunks: number;
}

interface Candidate {
  relPath: string;
  hash: string;
  parsed: ParsedDocument;
  chunks: DocChunk[];
  chars: number;
}

/** Recursive listing of importable files, sorted so imports are deterministic. Hidden folders are skipped. */
export function listDocumentFiles(root: string): string[] {
  return listFilesRecursive(root, DOC_EXTENSIONS);
}

/** Bytes -> text, or the reason the file is not a text document (binary, not UTF-8, empty). */
export function decodeDocument(bytes: Buffer): { text: string } | { reason: string } {
  if (bytes.length === 0) return { reason: '空文件' };
  const head = bytes.subarray(0, Math.min(bytes.length, 8192));
  if (head.includes(0)) return { reason: '二进制文件（含 NUL 字节），不是文本文档' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { reason: '不是有效的 UTF-8 文本（可能是二进制文件或其他编码）' };
  }
  if (!text.replace(/<!--[\s\S]*?-->/g, '').trim()) return { reason: '空文件（只有空白或注释）' };
  return { text };
}

/**
 * Imports a folder as collection `name`. The collection mirrors the folder: new files are added,
 * changed files (by sha256) replaced, missing files removed, unchanged files untouched, so a
 * second import of the same folder changes nothing. All writes (documents, chunks, search index)
 * happen in ONE transaction: a failure leaves the previous state intact.
 */
export function importCollection(
  ctx: AppContext,
  input: { folder: string; name: string },
  progress: ProgressSink = () => {},
  signal?: AbortSignal,
): ImportResult {
  const name = validateCollectionName(input.name);
  const root = path.resolve(input.folder);
  if (!fs.existsSync(root)) throw new GridError('NOT_FOUND', `folder: 文件夹不存在: ${root}`);
  if (!fs.statSync(root).isDirectory()) throw new GridError('INVALID_INPUT', `folder: 不是文件夹: ${root}`);
  const existing = findCollection(ctx.db, name);
  if (existing && path.resolve(existing.source_dir) !== root) {
    throw new GridError(
      'CONFLICT',
      `集合 ${name} 已从 ${existing.source_dir} 导入；同名集合只能从同一文件夹更新。请换一个名称，或先删除: gridcode collection delete ${name}`,
    );
  }
  const cfg = ctx.config.collections;
  const files = listDocumentFiles(root);
  // an empty (or unmounted) folder must not silently empty an existing collection
  if (files.length === 0) {
    throw new GridError('INVALID_INPUT', `folder: 文件夹中没有可导入的 ${DOC_EXTENSIONS.join('/')} 文件: ${root}${existing ? `（集合 ${name} 保持不变）` : ''}`);
  }
  const known = new Map<string, string>();
  if (existing) {
    for (const r of ctx.db.prepare('SELECT rel_path, source_hash FROM coll_docs WHERE collection_id = ?').all(existing.id) as {
      rel_path: string;
      source_hash: string;
    }[])
      known.set(r.rel_path, r.source_hash);
  }

  const skipped: ImportSkip[] = [];
  const changed: Candidate[] = [];
  const seen = new Set<string>();
  let unchanged = 0;
  for (const [i, file] of files.entries()) {
    if (signal?.aborted) throw new GridError('CANCELLED', '导入已取消，集合未改变');
    const relPath = path.relative(root, file).split(path.sep).join('/');
    progress({ stage: '解析文档', done: i, total: files.length, item: relPath });
    const size = fs.statSync(file).size;
    if (size > cfg.maxFileBytes) {
      skipped.push({ path: relPath, reason: `文件过大（${(size / 1048576).toFixed(1)} MB，上限 ${(cfg.maxFileBytes / 1048576).toFixed(0)} MB）` });
      continue;
    }
    const bytes = fs.readFileSync(file);
    const hash = crypto.createHash('sha256').update(bytes).digest('hex');
    if (known.get(relPath) === hash) {
      seen.add(relPath);
      unchanged++;
      continue;
    }
    const decoded = decodeDocument(bytes);
    if ('reason' in decoded) {
      skipped.push({ path: relPath, reason: decoded.reason });
      continue;
    }
    const parsed = parseDocument(decoded.text, path.basename(file));
    const chunks = chunkDocument(parsed, cfg.maxChunkChars);
    seen.add(relPath);
    changed.push({ relPath, hash, parsed, chunks, chars: decoded.text.length });
  }
  progress({ stage: '解析文档', done: files.length, total: files.length });

  const corpus = corpusOf(name);
  const now = new Date().toISOString();
  const db = ctx.db;
  let added = 0;
  let updated = 0;
  let removed = 0;
  writeTransaction(db, () => {
    let collectionId = existing?.id;
    if (collectionId === undefined) {
      collectionId = Number(
        db.prepare('INSERT INTO collections (name, source_dir, created_at, updated_at) VALUES (?, ?, ?, ?)').run(name, root, now, now)
          .lastInsertRowid,
      );
    } else {
      db.prepare('UPDATE collections SET updated_at = ? WHERE id = ?').run(now, collectionId);
    }
    const findDoc = db.prepare('SELECT id FROM coll_docs WHERE collection_id = ? AND rel_path = ?');
    const deleteDoc = db.prepare('DELETE FROM coll_docs WHERE id = ?');
    const insertDoc = db.prepare(
      `INSERT INTO coll_docs (collection_id, rel_path, source_hash, title, heading, kind, difficulty, parsed, total_chunks, chars)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertChunk = db.prepare('INSERT INTO coll_chunks (doc_id, ord, block_kind, heading, text) VALUES (?, ?, ?, ?, ?)');
    // files that disappeared from the folder (or became unreadable) leave the collection
    const changedPaths = new Set(changed.map((c) => c.relPath));
    for (const relPath of known.keys()) {
      if (seen.has(relPath) && !changedPaths.has(relPath)) continue;
      const row = findDoc.get(collectionId, relPath) as { id: number } | undefined;
      if (!row) continue;
      removeDocIndex(db, corpus, row.id);
      deleteDoc.run(row.id);
      if (!seen.has(relPath)) removed++;
    }
    for (const [i, c] of changed.entries()) {
      if (signal?.aborted) throw new GridError('CANCELLED', '导入已取消，集合未改变');
      progress({ stage: '写入索引', done: i, total: changed.length, item: c.relPath });
      if (known.has(c.relPath)) updated++;
      else added++;
      const docId = Number(
        insertDoc.run(
          collectionId,
          c.relPath,
          c.hash,
          c.parsed.title,
          c.parsed.heading,
          c.parsed.kind,
          c.parsed.difficulty,
          JSON.stringify(c.parsed),
          c.chunks.length,
          c.chars,
        ).lastInsertRowid,
      );
      for (const ch of c.chunks) insertChunk.run(docId, ch.ord, ch.blockKind, ch.heading, ch.text);
      indexDocChunks(db, corpus, { id: docId, title: c.parsed.title }, c.chunks);
    }
    progress({ stage: '写入索引', done: changed.length, total: changed.length });
    // profile detected once (first import); an edited profile (collections.profile) is kept on re-import
    db.prepare('UPDATE collections SET profile = ? WHERE id = ? AND profile IS NULL').run(detectCollectionProfile(db, collectionId), collectionId);
  });

  const counts = db
    .prepare(
      `SELECT COUNT(*) AS documents, COALESCE(SUM(total_chunks), 0) AS chunks FROM coll_docs
       WHERE collection_id = (SELECT id FROM collections WHERE name = ?)`,
    )
    .get(name) as { documents: number; chunks: number };
  forgetCollectionCache(ctx, name);
  return {
    collection: name,
    source_dir: root,
    files: files.length,
    added,
    updated,
    unchanged,
    removed,
    skipped,
    documents: counts.documents,
    chunks: counts.chunks,
  };
}

export function deleteCollection(ctx: AppContext, name: string): { collection: string; documents: number } {
  const row = findCollection(ctx.db, name);
  if (!row) throw new GridError('NOT_FOUND', `集合不存在: ${name}`);
  const corpus = corpusOf(name);
  let documents = 0;
  writeTransaction(ctx.db, () => {
    const ids = ctx.db.prepare('SELECT id FROM coll_docs WHERE collection_id = ?').all(row.id) as { id: number }[];
    documents = ids.length;
    for (const { id } of ids) removeDocIndex(ctx.db, corpus, id);
    ctx.db.prepare('DELETE FROM collections WHERE id = ?').run(row.id);
  });
  forgetCollectionCache(ctx, name);
  return { collection: name, documents };
}

/**
 * Browser folder upload: files already uploaded into the data dir's uploads/ (one by one,
 * through the shell's upload bridge) are staged under collections-src/<name>/ with their
 * relative paths and imported from there. Re-uploading the same folder re-stages it, so the
 * import stays idempotent (unchanged files keep their hash). Only files inside uploads/ are
 * accepted; relative paths cannot leave the staging folder.
 */
export function importUploadedFiles(
  ctx: AppContext,
  input: { name: string; files: { path: string; rel_path: string }[] },
  progress: ProgressSink = () => {},
  signal?: AbortSignal,
): ImportResult {
  const name = validateCollectionName(input.name);
  const uploads = path.resolve(ctx.dataDir, 'uploads');
  const staged = path.resolve(ctx.dataDir, 'collections-src', name);
  const entries: { from: string; rel: string }[] = [];
  for (const f of input.files) {
    const from = path.resolve(f.path);
    if (!from.startsWith(uploads + path.sep)) throw new GridError('INVALID_INPUT', `files: 只能导入已上传的文件（${path.basename(f.path)}）`);
    if (!fs.existsSync(from)) throw new GridError('NOT_FOUND', `files: 上传的文件已不存在（${path.basename(f.path)}），请重新上传`);
    const parts = f.rel_path.split(/[\\/]+/).filter((p) => p && p !== '.' && p !== '..');
    if (!parts.length) throw new GridError('INVALID_INPUT', `files: 相对路径无效（${f.rel_path}）`);
    if (!DOC_EXTENSIONS.includes(path.extname(parts[parts.length - 1]).toLowerCase())) continue;
    entries.push({ from, rel: parts.map((p) => p.replace(/[\u0000-\u001f<>:"|?*]/g, '_')).join(path.sep) });
  }
  if (!entries.length) throw new GridError('INVALID_INPUT', `files: 文件夹中没有可导入的 ${DOC_EXTENSIONS.join('/')} 文件`);
  const fresh = `${staged}.new-${process.pid}`;
  fs.rmSync(fresh, { recursive: true, force: true });
  for (const e of entries) {
    const to = path.join(fresh, e.rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(e.from, to);
  }
  fs.rmSync(staged, { recursive: true, force: true });
  fs.renameSync(fresh, staged);
  for (const e of entries) fs.rmSync(path.dirname(e.from), { recursive: true, force: true });
  return importCollection(ctx, { folder: staged, name }, progress, signal);
}
