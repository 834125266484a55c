/**
 * Typed access to the API table. Operation names and input/output shapes come from the engines'
 * zod schemas (types only — nothing from src/core is bundled into the renderer).
 */
import type { ApiInput, ApiName, ApiOutput } from '../../../core/api/table';
import type { GridcodeBridge, InvokeOptions, ProgressEventLike } from '../../../preload/api-types';
import { createHttpBridge, uploadFile } from './http-bridge';
import { toApiError } from './errors';

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
  const electronPath = (file as File & { path?: string }).path;
  if (isElectron() && electronPath) return electronPath;
  return uploadFile(file, options);
}
