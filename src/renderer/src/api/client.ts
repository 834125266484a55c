/**
 * Typed access to the API table. Operation names and input/output shapes come from the engines'
 * zod schemas (types only — nothing from src/core is bundled into the renderer).
 */
import type { ApiInput, ApiName, ApiOutput } from '../../../core/api/table';
import type { GridcodeBridge, InvokeOptions, ProgressEventLike } from '../../../preload/api-types';
import { createHttpBridge, uploadFile } from './http-bridge';
import { ApiError, toApiError } from './errors';

export type { ApiInput, ApiName, ApiOutput, InvokeOptions, ProgressEventLike };

let bridge: GridcodeBridge | undefined;

export function getBridge(): GridcodeBridge {
  bridge ??= window.gridcode ?? createHttpBridge();
  return bridge;
}

export function isElectron(): boolean {
  return getBridge().platform === 'electron';
}

export interface CallOptions extends InvokeOptions {
  /** Give up after this long with a TIMEOUT error (screens then offer a retry); none by default. */
  timeoutMs?: number;
}

/** Calls one operation; errors come back as ApiError with words for people (i18n/messages.ts). */
export async function api<N extends ApiName>(name: N, input: ApiInput<N>, options?: CallOptions): Promise<ApiOutput<N>> {
  return (await apiLoose(name, input, options)) as ApiOutput<N>;
}

/** For operations whose engine may not be in this build yet (feature probes). */
export async function apiLoose<T = unknown>(name: string, input: unknown, options: CallOptions = {}): Promise<T> {
  const { timeoutMs, ...invokeOptions } = options;
  if (!timeoutMs) {
    try {
      return (await getBridge().invoke(name, input, invokeOptions)) as T;
    } catch (e) {
      throw toApiError(e);
    }
  }
  const controller = new AbortController();
  const outer = invokeOptions.signal;
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timedOut = false;
  const timer = window.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    return (await getBridge().invoke(name, input, { ...invokeOptions, signal: controller.signal })) as T;
  } catch (e) {
    if (timedOut) throw new ApiError('TIMEOUT', '服务响应超时');
    throw toApiError(e);
  } finally {
    window.clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}


/**
 * Turns user-chosen files into paths an import operation accepts: in the browser the bytes are
 * uploaded to the shell first; in Electron a File from drag-and-drop already has a real path.
 */
export async function fileToServerPath(
  file: File,
  options: { onProgress?: (loaded: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<string> {
  if (isElectron()) {
    // Electron >= 32 no longer exposes File.path; a preload may offer pathForFile (webUtils)
    const bridge = getBridge() as GridcodeBridge & { pathForFile?: (f: File) => string };
    const p = bridge.pathForFile?.(file) || (file as File & { path?: string }).path;
    if (p) return p;
    throw new ApiError('UNSUPPORTED', `无法取得「${file.name}」的文件路径，请使用“选择文件…”按钮导入`);
  }
  return uploadFile(file, options);
}
