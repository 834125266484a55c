import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseJsonText, readUtf8File } from '../common/files';
import { GridError } from '../common/errors';
import type { Db } from '../store/db';
import { getSetting, setSetting } from '../store/db';

/** transformers.js dtype -> ONNX file suffix (onnx/model<suffix>.onnx). */
export const DTYPE_SUFFIX = { fp32: '', fp16: '_fp16', q8: '_quantized', int8: '_int8', uint8: '_uint8', q4: '_q4' } as const;
export type ModelDtype = keyof typeof DTYPE_SUFFIX;

export const modelFileSchema = z.object({
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable().default(null),
});

export const modelEntrySchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, '只能包含字母、数字、点、下划线和连字符'),
  folder: z.string().min(1),
  dims: z.number().int().positive(),
  pooling: z.enum(['mean', 'cls']),
  normalize: z.boolean().default(true),
  dtype: z.enum(Object.keys(DTYPE_SUFFIX) as [ModelDtype, ...ModelDtype[]]).default('fp32'),
  query_prefix: z.string().default(''),
  passage_prefix: z.string().default(''),
  files: z.array(modelFileSchema).min(1),
  /** Hugging Face repo id used by `npm run models:pull`; null for local-only models. */
  source: z.string().nullable().default(null),
  default: z.boolean().optional(),
  description: z.string().optional(),
  /** `models adapt` versions: the model this one was adapted from (revert goes back to it). */
  adapted_from: z.string().optional(),
});

export type ModelEntry = z.infer<typeof modelEntrySchema>;

export const manifestSchema = z.object({ models: z.array(modelEntrySchema) }).loose();
export type Manifest = z.infer<typeof manifestSchema>;

export const MANIFEST_FILE = 'manifest.json';

/** Where an entry was found: the install's models/ (may be read-only) or the user's <data-dir>/models. */
export type ModelLocation = 'bundled' | 'user';

export interface LocatedModel extends ModelEntry {
  location: ModelLocation;
  /** Folder holding the model folder (transformers.js localModelPath). */
  root: string;
  dir: string;
}

export function userModelsDir(dataDir: string): string {
  return path.join(dataDir, 'models');
}

/** Reads a manifest; a missing file is an empty list, a broken one is a clear error naming the file. */
export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(file)) return { models: [] };
  const raw = parseJsonText(readUtf8File(file, `模型清单 ${file} `), `模型清单 ${file} `);
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GridError('BAD_FILE', `模型清单 ${file} 格式错误：${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export function writeManifest(dir: string, manifest: Manifest): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, MANIFEST_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/**
 * Bundled entries merged with the user's imported ones. A user entry with the same id wins
 * (it is the copy the user actually has), keeping the bundled default flag.
 */
export function listModels(modelsDir: string, dataDir: string): LocatedModel[] {
  const byId = new Map<string, LocatedModel>();
  for (const m of readManifest(modelsDir).models) {
    byId.set(m.id, { ...m, location: 'bundled', root: modelsDir, dir: path.join(modelsDir, m.folder) });
  }
  const userDir = userModelsDir(dataDir);
  if (path.resolve(userDir) !== path.resolve(modelsDir)) {
    for (const m of readManifest(userDir).models) {
      const prior = byId.get(m.id);
      byId.set(m.id, {
        ...m,
        default: m.default || prior?.default,
        location: 'user',
        root: userDir,
        dir: path.join(userDir, m.folder),
      });
    }
  }
  return [...byId.values()];
}

export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    fs.createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export function sha256FileSync(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(n === buf.length ? buf : buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** Hashing a 25 MB model costs ~60 ms: remember verified hashes by (path, size, mtime) per process and in settings. */
const verifiedHashes = new Map<string, string>();

function cachedSha256(file: string, db?: Db): string {
  const st = fs.statSync(file);
  const key = `${path.resolve(file)}|${st.size}|${st.mtimeMs}`;
  const hit = verifiedHashes.get(key);
  if (hit) return hit;
  const settingKey = `embed.sha256:${key}`;
  const stored = db ? getSetting<string>(db, settingKey) : undefined;
  const sha = stored ?? sha256FileSync(file);
  verifiedHashes.set(key, sha);
  if (db && !stored) {
    try {
      setSetting(db, settingKey, sha);
    } catch {
      // read-only database: the per-process memo is enough
    }
  }
  return sha;
}

export type InstallState = { state: 'installed' } | { state: 'missing'; reason: string } | { state: 'error'; reason: string };

/** The ONNX file transformers.js will load for this entry (onnx/model<dtype suffix>.onnx). */
export function onnxFileOf(entry: Pick<ModelEntry, 'dtype'>): string {
  return `onnx/model${DTYPE_SUFFIX[entry.dtype]}.onnx`;
}

/** Installed = folder with every listed file (and the ONNX file transformers.js loads), hashes matching when listed. */
export function checkInstalled(model: LocatedModel, db?: Db): InstallState {
  if (!fs.existsSync(model.dir)) return { state: 'missing', reason: `模型文件夹不存在：${model.dir}` };
  const required = new Set(model.files.map((f) => f.path));
  required.add(onnxFileOf(model));
  for (const p of required) {
    if (!fs.existsSync(path.join(model.dir, p))) return { state: 'missing', reason: `缺少模型文件：${path.join(model.dir, p)}` };
  }
  for (const f of model.files) {
    if (!f.sha256) continue;
    const actual = cachedSha256(path.join(model.dir, f.path), db);
    if (actual !== f.sha256) {
      return {
        state: 'error',
        reason: `模型文件 ${path.join(model.dir, f.path)} 的 sha256 不匹配（清单 ${f.sha256.slice(0, 12)}…，实际 ${actual.slice(0, 12)}…），文件可能损坏或不完整`,
      };
    }
  }
  return { state: 'installed' };
}
