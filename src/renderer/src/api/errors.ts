/**
 * Error carried to screens: `code` from the engine (stable, for logic), `message` already in the
 * words a person reads (i18n/messages.ts: Chinese, no codes, no internal paths), `raw` as sent.
 */
import { humanMessage } from '../i18n/messages';

export class ApiError extends Error {
  readonly code: string;
  readonly raw: string;
  constructor(code: string, message: string) {
    super(humanMessage(code, message));
    this.name = 'ApiError';
    this.code = code;
    this.raw = message;
  }
}

export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const code = (e as { code?: string } | null)?.code ?? 'INTERNAL';
  const message = e instanceof Error ? e.message : String(e);
  // Electron's ipcRenderer.invoke wraps messages as "Error invoking remote method ...: Error: <msg>"
  return new ApiError(code, message.replace(/^Error invoking remote method '[^']+': (?:\w*Error: )?/, ''));
}

export function isCancelled(e: unknown): boolean {
  return (e as { code?: string } | null)?.code === 'CANCELLED';
}

/** Backend down or too slow: the screen offers a retry rather than a dead end. */
export function isConnectionProblem(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === 'NETWORK' || code === 'TIMEOUT';
}
