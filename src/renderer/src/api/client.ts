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

/** Calls one operation; errors come back as ApiError with the engine's Chinese message. */
export async function api<N extends ApiName>(name: N, input: ApiInput<N>, options?: InvokeOptions): Promise<ApiOutput<N>> {
  try {
    return (await getBridge().invoke(name, input, options)) as ApiOutput<N>;
  } catch (e) {
    throw toApiError(e);
  }
}

/** For operations whose engine may not be in this build yet (feature probes). */
export async function apiLoose<T = unknown>(name: string, input: unknown, options?: InvokeOptions): Promise<T> {
  try {
    return (await getBridge().invoke(name, input, options)) as T;
  } catch (e) {
    throw toApiError(e);
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
