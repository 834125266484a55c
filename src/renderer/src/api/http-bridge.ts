/**
 * The browser shell's implementation of the GridcodeBridge (protocol: src/preload/api-types.ts).
 * Results stream as NDJSON so long operations can report progress before the final line.
 */
import type { GridcodeBridge, InvokeOptions, ProgressEventLike } from '../../../preload/api-types';
import { ApiError } from './errors';

function readToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="gridcode-token"]')?.content ?? '';
}

type Line =
  | ({ type: 'progress' } & ProgressEventLike)
  | { type: 'result'; data: unknown }
  | { type: 'error'; error: { code: string; message: string } };

async function errorFromResponse(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    return new ApiError(body.error?.code ?? `HTTP_${res.status}`, body.error?.message ?? `请求失败（HTTP ${res.status}）`);
  } catch {
    return new ApiError(`HTTP_${res.status}`, `请求失败（HTTP ${res.status}）`);
  }
}

function isAbort(e: unknown): boolean {
  return (e as { name?: string } | null)?.name === 'AbortError';
}

export function createHttpBridge(base = ''): GridcodeBridge {
  const token = readToken();
  return {
    platform: 'browser',
    async invoke(name: string, input: unknown, options: InvokeOptions = {}): Promise<unknown> {
      let res: Response;
      try {
        res = await fetch(`${base}/api/invoke/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-GridCode-Token': token },
          body: JSON.stringify(input ?? {}),
          signal: options.signal,
        });
      } catch (e) {
        if (isAbort(e)) throw new ApiError('CANCELLED', '操作已取消');
        throw new ApiError('NETWORK', `无法连接到本地服务：${(e as Error).message}`);
      }
      if (!res.ok || !res.body) throw await errorFromResponse(res);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      const handle = (raw: string): { done: true; value: unknown } | null => {
        if (!raw.trim()) return null;
        let line: Line;
        try {
          line = JSON.parse(raw) as Line;
        } catch {
          throw new ApiError('INTERNAL', '服务返回了无法解析的数据');
        }
        if (line.type === 'progress') {
          const { type: _type, ...event } = line;
          options.onProgress?.(event);
          return null;
        }
        if (line.type === 'error') throw new ApiError(line.error.code, line.error.message);
        return { done: true, value: line.data };
      };
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (value) buffered += decoder.decode(value, { stream: true });
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const r = handle(buffered.slice(0, nl));
            buffered = buffered.slice(nl + 1);
            if (r) return r.value;
          }
          if (done) break;
        }
        const last = handle(buffered);
        if (last) return last.value;
        throw new ApiError('INTERNAL', '服务提前结束了响应');
      } catch (e) {
        if (isAbort(e) || options.signal?.aborted) throw new ApiError('CANCELLED', '操作已取消');
        throw e;
      }
    },
  };
}

/**
 * Sends one file's bytes to the shell (POST /api/upload) and returns the server-side path
 * that import operations accept. XHR, not fetch, because only XHR reports upload progress.
 */
export function uploadFile(
  file: File,
  options: { onProgress?: (loaded: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/upload?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('X-GridCode-Token', readToken());
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (ev) => options.onProgress?.(ev.loaded, ev.lengthComputable ? ev.total : file.size);
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText) as { path?: string; error?: { code: string; message: string } };
        if (xhr.status === 200 && body.path) resolve(body.path);
        else reject(new ApiError(body.error?.code ?? `HTTP_${xhr.status}`, body.error?.message ?? `上传失败（HTTP ${xhr.status}）`));
      } catch {
        reject(new ApiError(`HTTP_${xhr.status}`, `上传失败（HTTP ${xhr.status}）`));
      }
    };
    xhr.onerror = () => reject(new ApiError('NETWORK', `上传 ${file.name} 失败：无法连接到本地服务`));
    xhr.onabort = () => reject(new ApiError('CANCELLED', '操作已取消'));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new ApiError('CANCELLED', '操作已取消'));
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(file);
  });
}
