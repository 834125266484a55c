import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import type { OperationRun } from '../common/operation';
import { GridError, toErrorPayload } from '../common/errors';
import { REG_CORPUS, embedRegulation, storeRegulationVectors, type RegulationVectors } from './search-index';
import { followSearchIndexes } from '../search/engine';
import { decodeTextFile } from './decode';
import { docxToMarkdown } from './docx';
import { parsePdf } from './pdf';
import { disambiguate, slugFromFileName, validateRegId } from './slug';
import { findRegulation, writeRegulation } from './store';
import { documentIdentity, editionsOf, recordEdition, type EditionChoice } from './editions';
import { saveSourceCopy, sourceCopyPath } from './sources';
import { parseFlowText } from './structure';
import type { ParsedDocument } from './types';
import { listFilesRecursive } from '../common/files';
import { checkPdfStreams } from '../common/pdf-guard';
import { writeTransaction } from '../store/transaction';

export const SUPPORTED_EXTENSIONS = ['.pdf', '.md', '.markdown', '.txt', '.docx'];

/** files whose embedding may still run in the worker while later files are written (bounds memory) */
const EMBED_AHEAD = 8;

export type ImportStatus = 'imported' | 'unchanged' | 'replaced' | 'failed';

export interface ImportFileResult {
  file: string;
  reg_id: string | null;
  status: ImportStatus;
  title?: string;
  total_pages?: number;
  /** pages read by OCR (0 for a PDF with a text layer on every page) */
  ocr_pages?: number;
  /** mean confidence of the lines OCR read (0..1) */
  ocr_confidence?: number | null;
  /** pages OCR left out, in Chinese */
  notes?: string[];
  error?: string;
  error_code?: string;
  warning?: string;
  /** the regulation's editions after this import (present when it has more than one, or one was asked for) */
  edition?: ImportEdition;
}

export interface ImportEdition {
  /** the edition it was added to (null: kept on its own) */
  edition_of: string | null;
  reason: 'title' | 'doc_number' | 'asked' | 'separate' | 'alone';
  effective_date: string | null;
  in_force: boolean;
  /** every edition of the family, oldest first */
  editions: { reg_id: string; effective_date: string | null; in_force: boolean }[];
  /** 已作为「…」的新版本（2010-01-09 → 2023-12-11，现行） */
  message: string;
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
  onPage?: (done: number, total: number, message?: string) => void,
  signal?: AbortSignal,
): Promise<ParsedDocument> {
  const label = path.basename(file);
  const ext = path.extname(file).toLowerCase();
  const fallbackTitle = path.basename(file, path.extname(file));
  const pageChars = ctx.config.import.virtualPageChars;
  const maxPageChars = Math.max(pageChars, ctx.config.import.maxPageChars);
  let doc: ParsedDocument;
  if (ext === '.pdf') {
    const c = ctx.config.import;
    checkPdfStreams(bytes, label, { maxStreamBytes: c.maxPdfStreamBytes, maxTotalBytes: c.maxInflatedBytes, maxImagePixels: ctx.config.ocr.maxImagePixels });
    doc = await parsePdf(bytes, label, { fallbackTitle, onPage, signal, ocr: ctx.config.ocr });
  }
  else if (ext === '.docx') {
    const c = ctx.config.import;
    const md = await docxToMarkdown(bytes, label, {
      maxEntries: c.maxArchiveEntries,
      maxInflatedBytes: c.maxInflatedBytes,
      maxXmlBytes: c.maxXmlBytes,
      maxRatio: c.maxCompressionRatio,
      maxParagraphChars: c.maxParagraphChars,
    });
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
  /** the title to list the regulation under, instead of the one found in the file (single file only) */
  title?: string;
  isDemo?: boolean;
  /** auto (default): a document matching a regulation in the library with another date becomes its edition */
  edition?: EditionChoice;
}

function firstText(doc: ParsedDocument): string {
  return doc.pages.slice(0, 2).map((p) => p.text).join('\n').slice(0, 4000);
}

function describeEdition(ctx: AppContext, regId: string, decision: ReturnType<typeof recordEdition>): ImportEdition | undefined {
  const family = editionsOf(ctx.db, regId);
  if (family.length < 2 && decision.reason !== 'separate' && decision.reason !== 'asked') return undefined;
  const me = family.find((e) => e.reg_id === regId)!;
  const dates = family.map((e) => e.effective_date ?? '日期不详').join(' → ');
  const status = me.in_force ? '现行' : me.status === 'upcoming' ? '即将施行' : '旧版';
  const message =
    decision.reason === 'separate'
      ? '已单独保存（未与同名规程合并为版本）'
      : decision.joined
        ? `已作为「${decision.joined}」的${me.in_force ? '新' : ''}版本保存（${dates}；本版为${status}），旧版保留`
        : `共 ${family.length} 个版本（${dates}；本版为${status}）`;
  return {
    edition_of: decision.joined,
    reason: decision.reason,
    effective_date: decision.effective_date,
    in_force: me.in_force,
    editions: family.map((e) => ({ reg_id: e.reg_id, effective_date: e.effective_date, in_force: e.in_force })),
    message,
  };
}

/**
 * The same file re-imported with another edition's content (a new 安规 saved over the old file): the
 * old edition is kept and the new content gets an id of its own, joined to it — never replaced silently.
 */
function editionIdForChangedFile(ctx: AppContext, current: { reg_id: string; title: string }, doc: ParsedDocument, label: string): string | null {
  const before = editionsOf(ctx.db, current.reg_id).find((e) => e.reg_id === current.reg_id);
  const now = documentIdentity(doc.title, label, firstText(doc));
  if (!before?.effective_date || !now.effective_date || before.effective_date === now.effective_date) return null;
  const suffix = `-${now.effective_date}`;
  return `${current.reg_id.slice(0, 64 - suffix.length)}${suffix}`;
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
  if (options.title !== undefined && files.length > 1) {
    throw new GridError('INVALID_INPUT', `--title 只能用于单个文件（这次有 ${files.length} 个文件）`);
  }
  if (options.edition?.mode === 'of') {
    if (files.length > 1) throw new GridError('INVALID_INPUT', `--as-edition-of 只能用于单个文件（这次有 ${files.length} 个文件）`);
    if (!findRegulation(ctx.db, options.edition.reg_id)) {
      throw new GridError('NOT_FOUND', `未找到规程「${options.edition.reg_id}」：--as-edition-of 需要一部已导入的规程（可用 gridcode list 查看）`);
    }
  }
  const results: ImportFileResult[] = [...missing];
  const total = files.length;
  const multi = total > 1;
  // Files are embedded in the worker while this thread reads, parses and writes the next ones (up
  // to EMBED_AHEAD files in flight, so neither thread waits for the other); the vectors ready by a
  // file's write transaction are written in it (one commit for both), the rest at the end. The
  // search indexes in memory follow each commit and are saved at the end.
  const inFlight: { done: boolean; vectors: Promise<RegulationVectors | null> }[] = [];
  // embeddings run after commit: the regulation is already complete and lexically searchable, so a
  // vector failure is a warning on its result, not a failed import
  const resultOf = new Map<string, ImportFileResult>();
  const vectorWarning = (e: unknown) => `语义向量未生成（仍可关键词检索）：${toErrorPayload(e).message}`;
  /** the vectors computed so far (all of them with `all`; at least the oldest when too many are in flight) */
  const readyVectors = async (all: boolean): Promise<RegulationVectors[]> => {
    const out: RegulationVectors[] = [];
    while (inFlight.length && (all || inFlight[0].done || inFlight.length > EMBED_AHEAD)) {
      const v = await inFlight.shift()!.vectors;
      if (v) out.push(v);
    }
    return out;
  };
  const storeEach = (list: RegulationVectors[]) => {
    for (const v of list) {
      try {
        storeRegulationVectors(ctx, v);
      } catch (e) {
        const r = resultOf.get(v.regId);
        if (r) r.warning = vectorWarning(e);
      }
    }
  };
  const flush = async () => {
    storeEach(await readyVectors(true));
    followSearchIndexes(ctx, REG_CORPUS, false);
  };
  for (let i = 0; i < files.length; i++) {
    if (run.signal.aborted) {
      await flush();
      throw new GridError('CANCELLED', `导入已取消（完成 ${i}/${total} 个文件）`);
    }
    const abs = files[i];
    const label = path.basename(abs);
    const display = path.relative(process.cwd(), abs).startsWith('..') ? abs : path.relative(process.cwd(), abs) || abs;
    const progress = (done: number, pages: number, message?: string) =>
      run.progress(
        multi
          ? { stage: '导入规程', done: i, total, item: label, message: message ? `第 ${done}/${pages} 页 · ${message}` : `第 ${done}/${pages} 页` }
          : { stage: '导入规程', done, total: pages, item: label, ...(message ? { message } : {}) },
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
      if (options.title?.trim()) doc.title = options.title.trim();
      let explicitId = options.id;
      let edition = options.edition ?? { mode: 'auto' as const };
      const previous = explicitId === undefined ? findRegulation(ctx.db, regId) : null;
      const editionId = previous && previous.source_hash !== hash && edition.mode !== 'separate' ? editionIdForChangedFile(ctx, previous, doc, label) : null;
      if (previous && editionId) {
        explicitId = editionId;
        if (edition.mode === 'auto') edition = { mode: 'of', reg_id: previous.reg_id };
      }
      // Another process (app, CLI, MCP) may have written meanwhile: decide the id and replace-or-skip
      // again under the write lock, so two overlapping imports land every file exactly once.
      const writeFile = () => {
        const id = resolveRegId(ctx, abs, hash, explicitId);
        const current = findRegulation(ctx.db, id);
        if (current && current.source_hash === hash) return { id, unchanged: current, replaced: true, decision: null };
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
        const decision = recordEdition(ctx.db, id, { title: doc.title, sourceFile: label, firstText: firstText(doc) }, edition);
        return { id, unchanged: null, replaced: current !== null, decision };
      };
      // one commit for this file and the vectors the worker finished meanwhile; the file in a
      // savepoint, so its failure leaves them written
      const ready = await readyVectors(false);
      let writeError: unknown = null;
      const written = writeTransaction(ctx.db, () => {
        // each regulation's vectors in a savepoint of their own (storeRegulationVectors), like the file
        storeEach(ready);
        try {
          return writeTransaction(ctx.db, writeFile);
        } catch (e) {
          writeError = e;
          return null;
        }
      });
      followSearchIndexes(ctx, REG_CORPUS, false);
      if (!written) throw writeError;
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
      const result: ImportFileResult = {
        file: display,
        reg_id: id,
        status: written.replaced ? 'replaced' : 'imported',
        title: doc.title,
        total_pages: doc.pages.length,
        ...(doc.format === 'pdf' ? { ocr_pages: doc.ocr?.pages.length ?? 0, ocr_confidence: doc.ocr?.mean_confidence ?? null } : {}),
        ...(doc.ocr?.notes.length ? { notes: doc.ocr.notes } : {}),
      };
      const editionInfo = written.decision ? describeEdition(ctx, id, written.decision) : undefined;
      if (editionInfo) result.edition = editionInfo;
      results.push(result);
      // in a folder import, keep one bar (files) and show the embedding step as its message
      const vectorProgress: typeof run.progress = multi
        ? (e) => run.progress({ stage: '导入规程', done: i, total, item: label, message: `${e.stage} ${e.done}/${e.total}` })
        : run.progress;
      resultOf.set(id, result);
      const job = {
        done: false,
        vectors: embedRegulation(ctx, id, vectorProgress)
          .catch((e) => {
            result.warning = vectorWarning(e);
            return null;
          })
          .finally(() => {
            job.done = true;
          }),
      };
      inFlight.push(job);
    } catch (e) {
      if ((e as { code?: string }).code === 'CANCELLED') {
        await flush();
        throw e;
      }
      const err = toErrorPayload(e);
      results.push({ file: display, reg_id: regId, status: 'failed', error: err.message, error_code: err.code });
    }
    if (multi) run.progress({ stage: '导入规程', done: i + 1, total, item: label });
  }
  await flush();
  // written when missing or behind by enough; smaller changes stay in the logs the next process applies
  if (files.length) followSearchIndexes(ctx, REG_CORPUS, true);
  return results;
}
