import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import type { OperationRun } from '../common/operation';
import { GridError, toErrorPayload } from '../common/errors';
import { REG_CORPUS, indexRegulationVectors } from './search-index';
import { followSearchIndexes } from '../search/engine';
import { decodeTextFile } from './decode';
import { docxToMarkdown } from './docx';
import { parsePdf } from './pdf';
import { disambiguate, slugFromFileName, validateRegId } from './slug';
import { findRegulation, writeRegulation } from './store';
import { saveSourceCopy, sourceCopyPath } from './sources';
import { parseFlowText } from './structure';
import type { ParsedDocument } from './types';
import { listFilesRecursive } from '../common/files';
import { writeTransaction } from '../store/transaction';

export const SUPPORTED_EXTENSIONS = ['.pdf', '.md', '.markdown', '.txt', '.docx'];

export type ImportStatus = 'imported' | 'unchanged' | 'replaced' | 'failed';

export interface ImportFileResult {
  file: string;
  reg_id: string | null;
  status: ImportStatus;
  title?: string;
  total_pages?: number;
  error?: string;
  error_code?: string;
  warning?: string;
}

/** Files and folders (recursively, sorted) -> the files to import; unknown paths become failures. */
export function collectFiles(paths: string[]): { files: string[]; missing: ImportFileResult[] } {
  const files: string[] = [];
  const missing: ImportFileResult[] = [];
  const walk = (dir: string) => files.push(...listFilesRecursive(dir, SUPPORTED_EXTENSIONS));
  for (const p of paths) {
    const abs = path.resolve(p);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      missing.push({ file: p, reg_id: null, status: 'failed', error: `路径「${p}」不存在`, error_code: 'NOT_FOUND' });
      continue;
    }
    if (stat.isDirectory()) {
      const before = files.length;
      walk(abs);
      if (files.length === before) {
        missing.push({
          file: p,
          reg_id: null,
          status: 'failed',
          error: `文件夹「${p}」中没有可导入的文件（支持 ${SUPPORTED_EXTENSIONS.join(' ')}）`,
          error_code: 'NOT_FOUND',
        });
      }
    }
    else if (SUPPORTED_EXTENSIONS.includes(path.extname(abs).toLowerCase())) files.push(abs);
    else {
      missing.push({
        file: p,
        reg_id: null,
        status: 'failed',
        error: `文件「${path.basename(p)}」格式不支持（支持 ${SUPPORTED_EXTENSIONS.join(' ')}）`,
        error_code: 'UNSUPPORTED_FORMAT',
      });
    }
  }
  return { files: [...new Set(files)], missing };
}

/** Parses one file by its extension. Throws GridError (BAD_FILE ...) naming the file. */
export async function parseFile(
  ctx: AppContext,
  file: string,
  bytes: Buffer,
  onPage?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<ParsedDocument> {
  const label = path.basename(file);
  const ext = path.extname(file).toLowerCase();
  const fallbackTitle = path.basename(file, path.extname(file));
  const pageChars = ctx.config.import.virtualPageChars;
  const maxPageChars = Math.max(pageChars, ctx.config.import.maxPageChars);
  let doc: ParsedDocument;
  if (ext === '.pdf') doc = await parsePdf(bytes, label, { fallbackTitle, onPage, signal });
  else if (ext === '.docx') {
    const md = await docxToMarkdown(bytes, label);
    doc = parseFlowText(md, { format: 'docx', markdown: true, pageChars, maxPageChars, fallbackTitle });
  } else if (ext === '.md' || ext === '.markdown') {
    doc = parseFlowText(decodeTextFile(bytes, label), { format: 'markdown', markdown: true, pageChars, maxPageChars, fallbackTitle });
  } else if (ext === '.txt') {
    doc = parseFlowText(decodeTextFile(bytes, label), { format: 'text', markdown: false, pageChars, maxPageChars, fallbackTitle });
  } else throw new GridError('UNSUPPORTED_FORMAT', `文件「${label}」格式不支持`);
  const chars = doc.pages.reduce((n, p) => n + p.text.replace(/\s/g, '').length, 0);
  if (!doc.pages.length || chars === 0) throw new GridError('BAD_FILE', `文件「${label}」没有可导入的正文内容`);
  return doc;
}

/**
 * Which reg_id a file maps to. The same file (path) or the same bytes keep their id, so re-imports are
 * idempotent; a different file whose name slugs the same gets a short stable disambiguator.
 */
function resolveRegId(ctx: AppContext, abs: string, hash: string, explicit?: string): string {
  if (explicit) return validateRegId(explicit);
  const base = slugFromFileName(abs);
  // imported earlier under its disambiguated id (the base id was taken then): keep that id
  const alt = disambiguate(base, abs);
  if (findRegulation(ctx.db, alt)?.extra.source_path === abs) return alt;
  const existing = findRegulation(ctx.db, base);
  if (!existing || existing.extra.source_path === abs || existing.source_hash === hash) return base;
  return alt;
}

export interface ImportOptions {
  id?: string;
  isDemo?: boolean;
}

export async function importPaths(
  ctx: AppContext,
  paths: string[],
  options: ImportOptions,
  run: Pick<OperationRun, 'progress' | 'signal'>,
): Promise<ImportFileResult[]> {
  if (options.id !== undefined) validateRegId(options.id);
  const { files, missing } = collectFiles(paths);
  if (options.id !== undefined && files.length > 1) {
    throw new GridError('INVALID_INPUT', `--id 只能用于单个文件（这次有 ${files.length} 个文件）`);
  }
  const results: ImportFileResult[] = [...missing];
  const total = files.length;
  const multi = total > 1;
  // The embedding of one file runs in the worker while the next file is read and parsed here (one
  // file in flight); the search indexes in memory follow each written file, and are saved once at the end.
  let embedding: Promise<void> | null = null;
  const settle = async () => {
    const e = embedding;
    embedding = null;
    if (e) await e;
    followSearchIndexes(ctx, REG_CORPUS, false);
  };
  try {
    await importEach();
  } finally {
    await settle().catch(() => {});
    if (files.length) followSearchIndexes(ctx, REG_CORPUS, true);
  }
  return results;

  async function importEach(): Promise<void> {
    for (let i = 0; i < files.length; i++) {
      if (run.signal.aborted) throw new GridError('CANCELLED', `导入已取消（完成 ${i}/${total} 个文件）`);
      const abs = files[i];
      const label = path.basename(abs);
      const display = path.relative(process.cwd(), abs).startsWith('..') ? abs : path.relative(process.cwd(), abs) || abs;
      const progress = (done: number, pages: number) =>
        run.progress(
          multi
            ? { stage: '导入规程', done: i, total, item: label, message: `第 ${done}/${pages} 页` }
            : { stage: '导入规程', done, total: pages, item: label },
        );
      let regId: string | null = null;
      try {
        const size = fs.statSync(abs).size;
        if (size > ctx.config.import.maxFileBytes) {
          throw new GridError(
            'TOO_LARGE',
            `文件「${label}」过大（${(size / 1048576).toFixed(1)} MB，上限 ${(ctx.config.import.maxFileBytes / 1048576).toFixed(1)} MB，可在 config.json 的 import.maxFileBytes 调整）`,
          );
        }
        const bytes = fs.readFileSync(abs);
        const hash = crypto.createHash('sha256').update(bytes).digest('hex');
        regId = resolveRegId(ctx, abs, hash, options.id);
        const existing = findRegulation(ctx.db, regId);
        if (existing && existing.source_hash === hash) {
          if (existing.format === 'pdf' && !fs.existsSync(sourceCopyPath(ctx, regId))) saveSourceCopy(ctx, regId, bytes);
          results.push({ file: display, reg_id: regId, status: 'unchanged', title: existing.title, total_pages: existing.total_pages });
          if (multi) run.progress({ stage: '导入规程', done: i + 1, total, item: label });
          continue;
        }
        const doc = await parseFile(ctx, abs, bytes, progress, run.signal);
        // Another process (app, CLI, MCP) may have written meanwhile: decide the id and replace-or-skip
        // again under the write lock, so two overlapping imports land every file exactly once.
        const written = writeTransaction(ctx.db, () => {
          const id = resolveRegId(ctx, abs, hash, options.id);
          const current = findRegulation(ctx.db, id);
          if (current && current.source_hash === hash) return { id, unchanged: current, replaced: true };
          writeRegulation(
            ctx.db,
            doc,
            {
              regId: id,
              sourceFile: label,
              sourcePath: abs,
              sourceHash: hash,
              isDemo: options.isDemo,
              chunkChars: ctx.config.search.chunkChars,
              keep: current ? { description: current.description, keywords: current.keywords, scope: current.scope, extra: current.extra } : null,
            },
            // PDF pages were already counted while extracting; text formats count while writing
            multi || doc.format === 'pdf' ? undefined : progress,
          );
          return { id, unchanged: null, replaced: current !== null };
        });
        const id = written.id;
        regId = id;
        if (written.unchanged) {
          results.push({ file: display, reg_id: id, status: 'unchanged', title: written.unchanged.title, total_pages: written.unchanged.total_pages });
          if (multi) run.progress({ stage: '导入规程', done: i + 1, total, item: label });
          continue;
        }
        // after commit: the reader shows original PDF pages from this copy
        if (doc.format === 'pdf') {
          try {
            saveSourceCopy(ctx, id, bytes);
          } catch (e) {
            run.progress({ stage: '导入规程', done: i, total, item: label, message: `原文件副本未保存：${(e as Error).message}` });
          }
        }
        const result: ImportFileResult = { file: display, reg_id: id, status: written.replaced ? 'replaced' : 'imported', title: doc.title, total_pages: doc.pages.length };
        results.push(result);
        // embeddings after commit: the regulation is already complete and lexically searchable,
        // so a vector failure is a warning, not a failed import
        // in a folder import, keep one bar (files) and show the embedding step as its message
        const vectorProgress: typeof run.progress = multi
          ? (e) => run.progress({ stage: '导入规程', done: i, total, item: label, message: `${e.stage} ${e.done}/${e.total}` })
          : run.progress;
        await settle();
        embedding = indexRegulationVectors(ctx, id, vectorProgress).catch((e) => {
          result.warning = `语义向量未生成（仍可关键词检索）：${toErrorPayload(e).message}`;
        });
      } catch (e) {
        if ((e as { code?: string }).code === 'CANCELLED') throw e;
        const err = toErrorPayload(e);
        results.push({ file: display, reg_id: regId, status: 'failed', error: err.message, error_code: err.code });
      }
      if (multi) run.progress({ stage: '导入规程', done: i + 1, total, item: label });
    }
  }
}
