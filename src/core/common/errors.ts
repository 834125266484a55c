/**
 * One error type for everything the engines reject on purpose. `code` is stable
 * (adapters and tests match on it); `message` is for people (Chinese first).
 */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'UNSUPPORTED_FORMAT'
  | 'BAD_FILE'
  | 'TOO_LARGE'
  | 'CONFLICT'
  | 'MODEL_MISSING'
  | 'LLM_UNAVAILABLE'
  | 'CANCELLED'
  /** Another process held the database longer than the bounded wait: not the input's fault, retry later. */
  | 'BUSY'
  | 'INTERNAL';

export class GridError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'GridError';
    this.code = code;
    this.details = details;
  }
}

export function isGridError(e: unknown): e is GridError {
  return e instanceof GridError || (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'GridError');
}

/** Serialisable error shape used by every adapter (HTTP, IPC, CLI --json, MCP). */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export function toErrorPayload(e: unknown): ErrorPayload {
  if (isGridError(e)) return { code: e.code, message: e.message, details: e.details };
  const sqliteCode = (e as { code?: unknown } | null)?.code;
  if (typeof sqliteCode === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(sqliteCode)) {
    return { code: 'BUSY', message: '数据库正被其他程序（桌面应用、命令行或 MCP 服务）占用，本次写入未完成，请稍后重试' };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'INTERNAL', message };
}

/** Failures that are the file's own (bad content, wrong format, too big, missing): re-running will not help. */
export const FILE_FAULT_CODES: readonly ErrorCode[] = ['BAD_FILE', 'UNSUPPORTED_FORMAT', 'TOO_LARGE', 'NOT_FOUND', 'INVALID_INPUT'];
