import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { GridError } from '../common/errors';
import { findRegulation } from './store';

/**
 * Copies of original PDFs under <data-dir>/sources/, so the reader can show original pages even
 * after the user moves or deletes the file they imported (uploads, USB sticks). Text formats need
 * no copy: their pages are the original text.
 */
export function sourceCopyPath(ctx: AppContext, regId: string): string {
  return path.join(ctx.dataDir, 'sources', `${regId}.pdf`);
}

/** Written after the import commits (temp file + rename, so a crash never leaves half a copy). */
export function saveSourceCopy(ctx: AppContext, regId: string, bytes: Buffer): void {
  const target = sourceCopyPath(ctx, regId);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, target);
}

export function removeSourceCopy(ctx: AppContext, regId: string): void {
  fs.rmSync(sourceCopyPath(ctx, regId), { force: true });
}

/** The original bytes: the stored copy, else the imported file, and only if it still matches the library. */
export function readSource(ctx: AppContext, regId: string): { reg_id: string; format: string; file_name: string; bytes: number; data_base64: string } {
  const reg = findRegulation(ctx.db, regId);
  if (!reg) throw new GridError('NOT_FOUND', `未找到规程「${regId}」`);
  const candidates = [sourceCopyPath(ctx, regId), reg.extra.source_path].filter((f): f is string => !!f && fs.existsSync(f));
  if (!candidates.length) {
    throw new GridError('NOT_FOUND', `规程「${reg.title}」的原文件${reg.extra.source_path ? `「${reg.extra.source_path}」` : ''}已不存在，只能显示文本`);
  }
  let changed: string | null = null;
  for (const file of candidates) {
    const size = fs.statSync(file).size;
    if (size > ctx.config.import.maxFileBytes) throw new GridError('TOO_LARGE', `原文件「${path.basename(file)}」过大，只能显示文本`);
    const data = fs.readFileSync(file);
    if (crypto.createHash('sha256').update(data).digest('hex') !== reg.source_hash) {
      changed = file;
      continue;
    }
    return { reg_id: reg.reg_id, format: reg.format, file_name: reg.source_file, bytes: size, data_base64: data.toString('base64') };
  }
  throw new GridError('CONFLICT', `原文件「${path.basename(changed!)}」在导入后被修改过，与库中文本不一致，只能显示文本`);
}
