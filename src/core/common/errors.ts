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
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'INTERNAL', message };
}
