/** Error carried to screens: `code` from the engine (stable), `message` already Chinese. */
export class ApiError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
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
