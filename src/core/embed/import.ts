import fs from 'node:fs';
import path from 'node:path';
import { parseJsonText, readUtf8File } from '../common/files';
import { GridError } from '../common/errors';
import type { ProgressSink } from '../common/operation';
import type { Db } from '../store/db';
import {
  DTYPE_SUFFIX,
  listModels,
  modelEntrySchema,
  readManifest,
  sha256File,
  userModelsDir,
  writeManifest,
  type ModelDtype,
  type ModelEntry,
} from './manifest';
import { WorkerClient } from './worker-client';

export interface ImportModelInput {
  folder: string;
  id?: string;
  pooling?: 'mean' | 'cls';
  normalize?: boolean;
  query_prefix?: string;
  passage_prefix?: string;
  dtype?: ModelDtype;
  replace?: boolean;
}

export interface ImportModelResult {
  entry: ModelEntry;
  dir: string;
  files: number;
  bytes: number;
  probe_ms: number;
}

function readJson(file: string, what: string): Record<string, unknown> {
  if (!fs.existsSync(file)) throw new GridError('BAD_FILE', `模型文件夹缺少 ${what}：${file}`);
  const v = parseJsonText(readUtf8File(file, `${file} `), `${file} `);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new GridError('BAD_FILE', `${file} 不是 JSON 对象`);
  return v as Record<string, unknown>;
}

/** ONNX ModelProto starts with field 1 (ir_version, varint): byte 0x08. Cheap check before the real load. */
function looksLikeOnnx(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(1);
    return fs.readSync(fd, head, 0, 1, 0) === 1 && head[0] === 0x08;
  } finally {
    fs.closeSync(fd);
  }
}

/** Finds the ONNX file to use: onnx/model<suffix>.onnx (or at the folder root), preferring the requested dtype, then q8, then fp32. */
function findOnnx(folder: string, wanted?: ModelDtype): { source: string; dtype: ModelDtype } {
  const order: ModelDtype[] = wanted ? [wanted] : ['q8', 'fp32', 'fp16', 'int8', 'uint8', 'q4'];
  for (const dtype of order) {
    const name = `model${DTYPE_SUFFIX[dtype]}.onnx`;
    for (const candidate of [path.join(folder, 'onnx', name), path.join(folder, name)]) {
      if (fs.existsSync(candidate)) return { source: candidate, dtype };
    }
  }
  const expect = order.map((d) => `onnx/model${DTYPE_SUFFIX[d]}.onnx`).join('、');
  throw new GridError('BAD_FILE', `模型文件夹 ${folder} 中没有 ONNX 模型文件（应为 ${expect}）`);
}

/** sentence-transformers folders say how they pool in 1_Pooling/config.json. */
function poolingFromFolder(folder: string): 'mean' | 'cls' | undefined {
  const file = path.join(folder, '1_Pooling', 'config.json');
  if (!fs.existsSync(file)) return undefined;
  try {
    const cfg = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (cfg.pooling_mode_cls_token) return 'cls';
    if (cfg.pooling_mode_mean_tokens) return 'mean';
  } catch {
    // ignore: the explicit option or the default decides
  }
  return undefined;
}

/**
 * Registers a model folder copied by hand (e.g. from a USB stick): validates config/tokenizer/ONNX,
 * copies it into <data-dir>/models/<id>/ (the install's models/ may be read-only), records sha256
 * of every file, proves it loads and embeds in a worker, then adds it to <data-dir>/models/manifest.json.
 * Staged in a temp folder and renamed, so a failed import leaves nothing behind.
 */
export async function importModel(
  env: { modelsDir: string; dataDir: string; db?: Db },
  input: ImportModelInput,
  progress: ProgressSink = () => {},
  signal?: AbortSignal,
): Promise<ImportModelResult> {
  const folder = path.resolve(input.folder);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new GridError('NOT_FOUND', `模型文件夹不存在：${folder}`);

  const config = readJson(path.join(folder, 'config.json'), 'config.json');
  if (typeof config.model_type !== 'string') throw new GridError('BAD_FILE', `${path.join(folder, 'config.json')} 缺少 model_type 字段`);
  const tokenizer = readJson(path.join(folder, 'tokenizer.json'), 'tokenizer.json');
  if (typeof tokenizer.model !== 'object' || tokenizer.model === null) {
    throw new GridError('BAD_FILE', `${path.join(folder, 'tokenizer.json')} 缺少 model 字段（不是 Hugging Face tokenizers 格式）`);
  }
  readJson(path.join(folder, 'tokenizer_config.json'), 'tokenizer_config.json');
  const onnx = findOnnx(folder, input.dtype);
  if (!looksLikeOnnx(onnx.source)) throw new GridError('BAD_FILE', `${onnx.source} 不是 ONNX 模型文件（文件头不符）`);

  const id = input.id ?? path.basename(folder);
  const idCheck = modelEntrySchema.shape.id.safeParse(id);
  if (!idCheck.success) throw new GridError('INVALID_INPUT', `id: 模型 id "${id}" 无效，${idCheck.error.issues[0].message}（可用 --id 指定）`);

  const known = listModels(env.modelsDir, env.dataDir).find((m) => m.id === id);
  const userDir = userModelsDir(env.dataDir);
  const target = path.join(userDir, id);
  if (fs.existsSync(target) && !input.replace) {
    throw new GridError('CONFLICT', `模型 ${id} 已存在（${target}），如需覆盖请加 --replace`);
  }
  if (path.resolve(target) === folder) throw new GridError('CONFLICT', `模型文件夹已经在 ${userDir} 中，无需导入`);

  const dimsFromConfig = [config.hidden_size, config.d_model, config.dim].find((v) => typeof v === 'number') as number | undefined;

  const plan: { from: string; to: string }[] = [
    { from: path.join(folder, 'config.json'), to: 'config.json' },
    { from: path.join(folder, 'tokenizer.json'), to: 'tokenizer.json' },
    { from: path.join(folder, 'tokenizer_config.json'), to: 'tokenizer_config.json' },
    ...['special_tokens_map.json', 'vocab.txt']
      .filter((f) => fs.existsSync(path.join(folder, f)))
      .map((f) => ({ from: path.join(folder, f), to: f })),
    { from: onnx.source, to: `onnx/model${DTYPE_SUFFIX[onnx.dtype]}.onnx` },
  ];

  fs.mkdirSync(userDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(userDir, `.import-${id}-`));
  try {
    const stagedModel = path.join(staging, id);
    const files: { path: string; sha256: string }[] = [];
    let bytes = 0;
    for (const [i, f] of plan.entries()) {
      if (signal?.aborted) throw new GridError('CANCELLED', '导入已取消');
      progress({ stage: '复制模型文件', done: i, total: plan.length, item: f.to });
      const dest = path.join(stagedModel, f.to);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      await fs.promises.copyFile(f.from, dest);
      bytes += fs.statSync(dest).size;
      files.push({ path: f.to, sha256: await sha256File(dest) });
    }
    progress({ stage: '复制模型文件', done: plan.length, total: plan.length });

    const pooling = input.pooling ?? poolingFromFolder(folder) ?? known?.pooling ?? 'mean';
    const normalize = input.normalize ?? known?.normalize ?? true;

    // Prove it loads and embeds off the main thread; take dims from the real output.
    progress({ stage: '校验模型', done: 0, total: 1, item: id });
    const started = performance.now();
    const probe = new WorkerClient({ modelRoot: staging, folder: id, dtype: onnx.dtype, pooling, normalize }, id);
    let dims: number;
    try {
      const [v] = await probe.embed(['模型导入校验 model import check']);
      dims = v.length;
      if (!v.every(Number.isFinite)) throw new GridError('BAD_FILE', `模型 ${id} 输出了非有限数值（NaN/Infinity），文件可能损坏`);
    } catch (e) {
      if (e instanceof GridError && e.code !== 'MODEL_MISSING') throw e;
      throw new GridError('BAD_FILE', `模型 ${id} 无法加载或运行：${(e as Error).message}`);
    } finally {
      await probe.terminate();
    }
    const probeMs = performance.now() - started;
    progress({ stage: '校验模型', done: 1, total: 1, item: id });
    if (dimsFromConfig !== undefined && dimsFromConfig !== dims) {
      // not fatal (some configs describe an inner size), but the real output decides
      progress({ stage: '校验模型', done: 1, total: 1, message: `config.json 写 ${dimsFromConfig} 维，实际输出 ${dims} 维` });
    }

    const entry: ModelEntry = modelEntrySchema.parse({
      id,
      folder: id,
      dims,
      pooling,
      normalize,
      dtype: onnx.dtype,
      query_prefix: input.query_prefix ?? known?.query_prefix ?? '',
      passage_prefix: input.passage_prefix ?? known?.passage_prefix ?? '',
      files,
      source: known?.source ?? null,
      description: known?.description ?? `从 ${folder} 导入`,
    });

    // Swap in: old copy aside, new copy in, manifest updated, then the old copy goes.
    const backup = fs.existsSync(target) ? `${staging}-old` : null;
    if (backup) fs.renameSync(target, backup);
    try {
      fs.renameSync(stagedModel, target);
      const manifest = readManifest(userDir);
      manifest.models = [...manifest.models.filter((m) => m.id !== id), entry];
      writeManifest(userDir, manifest);
    } catch (e) {
      if (backup) {
        fs.rmSync(target, { recursive: true, force: true });
        fs.renameSync(backup, target);
      }
      throw e;
    }
    if (backup) fs.rmSync(backup, { recursive: true, force: true });
    return { entry, dir: target, files: files.length, bytes, probe_ms: probeMs };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

