import crypto from 'node:crypto';
import type { Db } from '../store/db';
import { getSetting } from '../store/db';
import { GridError, isGridError } from '../common/errors';
import type { EmbedKind, Embedder, ModelStatus } from './types';
import { checkInstalled, listModels, onnxFileOf, type LocatedModel } from './manifest';
import { WorkerClient } from './worker-client';

export interface EmbedderOptions {
  db: Db;
  modelsDir: string;
  dataDir: string;
  batchSize: number;
  /** Remember query vectors in memory (benchmarks measure the model, not the cache). Default true. */
  cache?: boolean;
}

/** Counters tests and benchmarks read to see what really ran. */
export interface EmbedStats {
  /** Batches the model ran (batchSize texts each; all batches of one call go to the worker in one message). */
  worker_calls: number;
  /** Texts the model actually embedded. */
  texts_embedded: number;
  cache_hits: number;
  cache_misses: number;
  /** Worker start + model load time, null until loaded. */
  load_ms: number | null;
  /** Time this embedder's batches spent inside the worker (tokenise + run + pool). */
  worker_ms: number;
}

export interface LocalEmbedder extends Embedder {
  stats(): EmbedStats;
  /** The model in use (null when none is installed). */
  model(): LocatedModel | null;
  /** The `model_id` written to embedding_cache: `<id>@<onnx sha256[:12] or dtype>:<pooling>`, so replaced files or a changed pooling never reuse stale vectors. */
  cacheModelId(): string | null;
  /** Re-reads manifests and files (after models.import); stops a worker bound to a different model. */
  reload(): Promise<ModelStatus>;
}

/** settings key holding the chosen model id (falls back to the manifest default, then any installed model). */
export const MODEL_SETTING_KEY = 'embed.model';

const MISSING_HINT = '运行 npm run models:pull -- bge-small-zh-v1.5 下载，或用 gridcode models import <文件夹> 导入';

export function missingStatus(reason?: string): ModelStatus {
  return {
    state: 'missing',
    model_id: null,
    dims: null,
    message: `未安装嵌入模型，检索仅使用关键词${reason ? `（${reason}）` : ''}。${MISSING_HINT}`,
  };
}

interface Resolution {
  status: ModelStatus;
  model: LocatedModel | null;
}

/** Picks the configured model, else the manifest default, else any installed model, and checks its files. */
export function resolveModel(db: Db | undefined, modelsDir: string, dataDir: string): Resolution {
  let models: LocatedModel[];
  try {
    models = listModels(modelsDir, dataDir);
  } catch (e) {
    return { model: null, status: { state: 'error', model_id: null, dims: null, message: `${(e as Error).message}；检索仅使用关键词` } };
  }
  let configured: string | undefined;
  try {
    configured = process.env.GRIDCODE_EMBED_MODEL || (db ? getSetting<string>(db, MODEL_SETTING_KEY) : undefined);
  } catch {
    configured = undefined;
  }
  const check = (m: LocatedModel): Resolution => {
    const inst = checkInstalled(m, db);
    if (inst.state === 'installed') {
      return { model: m, status: { state: 'ready', model_id: m.id, dims: m.dims, message: `嵌入模型 ${m.id} 已就绪（${m.dims} 维），检索为关键词 + 语义混合` } };
    }
    if (inst.state === 'error') {
      return { model: null, status: { state: 'error', model_id: m.id, dims: m.dims, message: `嵌入模型 ${m.id} 不可用：${inst.reason}；检索仅使用关键词` } };
    }
    return { model: null, status: { ...missingStatus(inst.reason), model_id: m.id, dims: m.dims } };
  };
  if (configured) {
    const m = models.find((x) => x.id === configured);
    if (!m) return { model: null, status: missingStatus(`已选择的模型 ${configured} 不在模型清单中`) };
    return check(m);
  }
  const ordered = [...models.filter((m) => m.default), ...models.filter((m) => !m.default)];
  let first: Resolution | undefined;
  for (const m of ordered) {
    const r = check(m);
    if (r.status.state === 'ready') return r;
    first ??= r;
  }
  // Report the default's problem (a hash mismatch, a missing file) rather than a generic "missing".
  return first ?? { model: null, status: missingStatus() };
}

/** sha256 of kind + NUL + prefixed text (one-shot crypto.hash: half the cost of createHash for short texts). */
function textHash(kind: EmbedKind, prefixed: string): string {
  return crypto.hash('sha256', `${kind}\u0000${prefixed}`, 'hex');
}

/** query vectors kept per embedder (a few KB each) */
const QUERY_CACHE_SIZE = 512;

export function createEmbedder(options: EmbedderOptions): LocalEmbedder {
  const { db, modelsDir, dataDir } = options;
  const batchSize = Math.max(1, options.batchSize);
  const useCache = options.cache !== false;
  let resolution = resolveModel(db, modelsDir, dataDir);
  const stats: EmbedStats = { worker_calls: 0, texts_embedded: 0, cache_hits: 0, cache_misses: 0, load_ms: null, worker_ms: 0 };

  let client: WorkerClient | null = null;
  /** recent query vectors by key (insertion order = recency) */
  const queryCache = new Map<string, Float32Array>();
  let queryCacheModel: string | null = null;

  const cacheModelId = (): string | null => {
    const m = resolution.model;
    if (!m) return null;
    // files and pooling change the vectors: either change gives a new cache namespace
    const onnx = m.files.find((f) => f.path === onnxFileOf(m) && f.sha256) ?? m.files.find((f) => f.path.endsWith('.onnx') && f.sha256);
    return `${m.id}@${onnx?.sha256 ? onnx.sha256.slice(0, 12) : m.dtype}:${m.pooling}${m.normalize ? '' : ':raw'}`;
  };

  const status = (): ModelStatus => {
    const m = resolution.model;
    const failure = client?.failure();
    if (m && failure && isGridError(failure) && failure.code === 'MODEL_MISSING') {
      return { state: 'error', model_id: m.id, dims: m.dims, message: `${failure.message}；检索仅使用关键词` };
    }
    return resolution.status;
  };

  const stopWorker = async () => {
    const c = client;
    client = null;
    if (c) await c.terminate();
  };

  const workerFor = async (model: LocatedModel): Promise<WorkerClient> => {
    client ??= new WorkerClient(
      { modelRoot: model.root, folder: model.folder, dtype: model.dtype, pooling: model.pooling, normalize: model.normalize },
      model.id,
    );
    const c = client;
    stats.load_ms ??= await c.ready;
    return c;
  };

  const embedder: LocalEmbedder = {
    status,
    available: () => status().state === 'ready',
    model: () => resolution.model,
    cacheModelId,
    stats: () => ({ ...stats }),

    async embed(texts: string[], kind: EmbedKind): Promise<Float32Array[]> {
      const model = resolution.model;
      if (!model || status().state !== 'ready') throw new GridError('MODEL_MISSING', status().message);
      if (kind !== 'query' && kind !== 'passage') throw new GridError('INVALID_INPUT', `kind: 只能是 query 或 passage，收到 ${String(kind)}`);
      if (texts.length === 0) return [];
      const prefix = kind === 'query' ? model.query_prefix : model.passage_prefix;
      const prefixed = texts.map((t) => prefix + t);
      // Passage vectors are not cached here: they are stored once, in search_vectors, and a
      // re-indexed document keeps the vectors of unchanged chunks (search/vectors.ts keepVectors).
      // Queries: an in-process LRU, never SQLite (a write transaction per search costs more than
      // embedding a query, and waits on any other writer of the library).
      const memo = useCache && kind === 'query';
      const hashes = memo ? prefixed.map((t) => textHash(kind, t)) : prefixed;
      const modelId = cacheModelId()!;

      const found = new Map<string, Float32Array>();
      if (memo && queryCacheModel !== modelId) {
        queryCache.clear();
        queryCacheModel = modelId;
      }
      if (memo) {
        for (const h of hashes) {
          const v = queryCache.get(h);
          if (v) {
            queryCache.delete(h);
            queryCache.set(h, v);
            found.set(h, v);
          }
        }
      }
      // unique misses, sorted by length so batches pad little (padding is masked, results are unchanged)
      const missing = new Map<string, string>();
      hashes.forEach((h, i) => {
        if (!found.has(h) && !missing.has(h)) missing.set(h, prefixed[i]);
      });
      const misses = hashes.filter((h) => !found.has(h)).length;
      stats.cache_hits += hashes.length - misses;
      stats.cache_misses += misses;

      if (missing.size > 0) {
        const worker = await workerFor(model);
        const todo = [...missing.entries()].sort((a, b) => a[1].length - b[1].length);
        const workBefore = worker.workerMs();
        // one message for all of them: the worker runs batchSize texts per model run
        const vectors = await worker.embed(
          todo.map(([, t]) => t),
          batchSize,
        );
        stats.worker_ms += worker.workerMs() - workBefore;
        stats.worker_calls += Math.ceil(todo.length / batchSize);
        const got = vectors[0]?.length;
        if (got !== model.dims) {
          throw new GridError('BAD_FILE', `嵌入模型 ${model.id} 输出 ${got} 维向量，但清单写的是 ${model.dims} 维（${model.dir}），请修正 manifest.json`);
        }
        const fresh: [string, Float32Array][] = todo.map(([h], i) => [h, vectors[i]]);
        stats.texts_embedded += fresh.length;
        for (const [h, v] of fresh) found.set(h, v);
        if (memo) {
          for (const [h, v] of fresh) queryCache.set(h, v);
          for (const k of queryCache.keys()) {
            if (queryCache.size <= QUERY_CACHE_SIZE) break;
            queryCache.delete(k);
          }
        }
      }
      // every returned vector is its own array (duplicates in the input get copies)
      const handed = new Set<string>();
      return hashes.map((h) => {
        const v = found.get(h)!;
        // cached query vectors stay ours: callers get copies
        if (handed.has(h) || memo) return v.slice();
        handed.add(h);
        return v;
      });
    },

    async reload(): Promise<ModelStatus> {
      const before = resolution.model;
      resolution = resolveModel(db, modelsDir, dataDir);
      queryCache.clear();
      const after = resolution.model;
      if (!after || !before || before.id !== after.id || before.dir !== after.dir || client?.failure()) await stopWorker();
      return status();
    },

    async close(): Promise<void> {
      await stopWorker();
    },
  };
  return embedder;
}
