import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';

export type LogKind = 'retrieval' | 'lock' | 'evidence' | 'generation';

export interface LogBase {
  trace_id: string;
  session_id: string;
  turn: number;
  collection: string;
}

/**
 * Appends one JSON line to the configured log of `kind` (config.collections.logs.<kind>; off when
 * null). Relative paths live under the data dir. A file above maxBytes is rotated first
 * (<file>.1 … <file>.<keep>, oldest dropped). Logging never breaks an answer: I/O errors are ignored.
 */
export function writeLog(ctx: AppContext, kind: LogKind, base: LogBase, record: Record<string, unknown>): void {
  const { kind: _ignored, ...rest } = record;
  const cfg = ctx.config.collections.logs;
  const configured = cfg[kind];
  if (!configured) return;
  const file = path.isAbsolute(configured) ? configured : path.join(ctx.dataDir, configured);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    rotateIfNeeded(file, cfg.maxBytes, cfg.keep);
    fs.appendFileSync(file, JSON.stringify({ ts: new Date().toISOString(), ...base, ...rest, kind }) + '\n');
  } catch {
    // a full disk or a read-only log folder must not fail the user's question
  }
}

export function rotateIfNeeded(file: string, maxBytes: number, keep: number): boolean {
  let size = 0;
  try {
    size = fs.statSync(file).size;
  } catch {
    return false;
  }
  if (size < maxBytes) return false;
  fs.rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) {
    if (fs.existsSync(`${file}.${i}`)) fs.renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  }
  fs.renameSync(file, `${file}.1`);
  return true;
}
