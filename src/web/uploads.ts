/**
 * Files the browser sends to the shell (it cannot hand over a path). Each upload is streamed to its
 * own temp folder `<data-dir>/uploads/u-XXXX/<name>` under a size cap — never held in memory — and
 * removed again: after an operation that consumes its files (an import) ends, however it ends; when
 * the shell closes; and, for shells that crashed, at the next start once a day old.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GridError } from '../core/common/errors';

export interface UploadStore {
  readonly dir: string;
  /** Streams `body` into a fresh temp folder; returns the file's path. Over `maxBytes`: TOO_LARGE, nothing kept. */
  receive(body: Readable, rawName: string): Promise<string>;
  /** Removes the uploads named anywhere in an operation's input (strings that are paths inside `dir`). */
  release(input: unknown): void;
  /** Uploads currently on disk (for tests and the attack eval). */
  pending(): string[];
  /** Removes every upload this store received. */
  close(): void;
}

/** Uploads left by a shell that did not close cleanly are removed after this long. */
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

export function safeUploadName(name: string): string {
  const base = path.basename(name).replace(/[\u0000-\u001f<>:"/\\|?*]/g, '_').slice(0, 200);
  if (base === '.' || base === '..') throw new GridError('INVALID_INPUT', '上传文件名无效');
  return base || 'upload.bin';
}

function formatMb(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/** Every string inside a JSON-like value (operation inputs are small objects). */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => stringsIn(v, out));
  return out;
}

export function createUploadStore(dir: string, maxBytes: number, now = Date.now()): UploadStore {
  const root = path.resolve(dir);
  const received = new Set<string>();
  sweepStale(root, now);

  /** The u-XXXX folder holding `file`, when `file` is an upload. */
  const folderOf = (file: string): string | null => {
    const rel = path.relative(root, path.resolve(file));
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
    const first = rel.split(path.sep)[0];
    return first.startsWith('u-') ? path.join(root, first) : null;
  };
  const remove = (folder: string) => {
    fs.rmSync(folder, { recursive: true, force: true });
    received.delete(folder);
  };

  return {
    dir: root,
    async receive(body, rawName) {
      const name = safeUploadName(rawName);
      fs.mkdirSync(root, { recursive: true });
      const folder = fs.mkdtempSync(path.join(root, 'u-'));
      received.add(folder);
      const file = path.join(folder, name);
      let size = 0;
      // over the cap: stop writing but keep reading, so the client gets a JSON 413 instead of a reset
      const cap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, size > maxBytes ? undefined : chunk);
        },
      });
      try {
        await pipeline(body, cap, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      } catch (e) {
        remove(folder);
        throw e;
      }
      if (size > maxBytes) {
        remove(folder);
        throw new GridError('TOO_LARGE', `上传的文件过大（${formatMb(size)}，上限 ${formatMb(maxBytes)}，可在 config.json 的 import.maxFileBytes 调整）`);
      }
      return file;
    },
    release(input) {
      for (const s of stringsIn(input)) {
        const folder = folderOf(s);
        if (folder) remove(folder);
      }
    },
    pending() {
      return [...received].filter((f) => fs.existsSync(f));
    },
    close() {
      for (const folder of [...received]) remove(folder);
    },
  };
}

function sweepStale(root: string, now: number): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (!e.isDirectory() || !e.name.startsWith('u-')) continue;
    const folder = path.join(root, e.name);
    try {
      if (now - fs.statSync(folder).mtimeMs > STALE_UPLOAD_MS) fs.rmSync(folder, { recursive: true, force: true });
    } catch {
      // another shell removed it meanwhile
    }
  }
}
