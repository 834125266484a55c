import { z } from 'zod';
import { pathArg } from '../common/file-access';
import { defineOperation, defineOperations } from '../common/operation';
import type { AppContext } from '../context';
import { setSetting } from '../store/db';
import { GridError } from '../common/errors';
import { DTYPE_SUFFIX, checkInstalled, listModels, userModelsDir, type LocatedModel, type ModelDtype } from './manifest';
import { importModel } from './import';
import { MODEL_SETTING_KEY, type LocalEmbedder } from './create';
import { modelStatusSchema, type ModelStatus } from './types';
import { adaptModel, revertModel } from './adapt';
import { embedLibrary, vectorCoverageOf } from './library';


const dtypeSchema = z.enum(Object.keys(DTYPE_SUFFIX) as [ModelDtype, ...ModelDtype[]]);

export const modelListItemSchema = z.object({
  id: z.string(),
  dims: z.number().int(),
  pooling: z.enum(['mean', 'cls']),
  normalize: z.boolean(),
  dtype: dtypeSchema,
  query_prefix: z.string(),
  passage_prefix: z.string(),
  source: z.string().nullable(),
  default: z.boolean(),
  description: z.string().nullable(),
  location: z.enum(['bundled', 'user']),
  dir: z.string(),
  state: z.enum(['installed', 'missing', 'error']),
  problem: z.string().nullable(),
  active: z.boolean(),
  /** `models adapt` versions: the model it was adapted from */
  adapted_from: z.string().nullable().default(null),
  files: z.array(z.object({ path: z.string(), sha256: z.string().nullable() })),
});

function describe(ctx: AppContext, m: LocatedModel, activeId: string | null): z.input<typeof modelListItemSchema> {
  const inst = checkInstalled(m, ctx.db);
  return {
    id: m.id,
    dims: m.dims,
    pooling: m.pooling,
    normalize: m.normalize,
    dtype: m.dtype,
    query_prefix: m.query_prefix,
    passage_prefix: m.passage_prefix,
    source: m.source,
    default: Boolean(m.default),
    description: m.description ?? null,
    location: m.location,
    dir: m.dir,
    state: inst.state,
    problem: inst.state === 'installed' ? null : inst.reason,
    active: m.id === activeId && inst.state === 'installed',
    adapted_from: m.adapted_from ?? null,
    files: m.files.map((f) => ({ path: f.path, sha256: f.sha256 })),
  };
}

function asLocal(ctx: AppContext): Partial<LocalEmbedder> {
  return ctx.embedder() as Partial<LocalEmbedder>;
}

/** The context's embedder re-reads manifests so an import/select takes effect in this process. */
async function refreshed(ctx: AppContext): Promise<ModelStatus> {
  const e = asLocal(ctx);
  return e.reload ? e.reload() : ctx.embedder().status();
}

export const modelOperations = defineOperations({
  'models.list': defineOperation({
    summary: '列出嵌入模型及安装状态 / List embedding models (manifest + imported) with installed state',
    input: z.object({}).strict(),
    output: z.object({
      models: z.array(modelListItemSchema),
      active: z.string().nullable(),
      models_dir: z.string(),
      user_models_dir: z.string(),
    }),
    handler: (ctx) => {
      const status = ctx.embedder().status();
      const active = status.state === 'ready' ? status.model_id : null;
      return {
        models: listModels(ctx.modelsDir, ctx.dataDir).map((m) => describe(ctx, m, active)),
        active,
        models_dir: ctx.modelsDir,
        user_models_dir: userModelsDir(ctx.dataDir),
      };
    },
  }),

  'models.status': defineOperation({
    summary: '嵌入模型状态（就绪/未安装/错误）/ Embedding model status, cache size and counters',
    input: z.object({}).strict(),
    output: modelStatusSchema.extend({
      batch_size: z.number().int(),
      models_dir: z.string(),
      user_models_dir: z.string(),
      cache_entries: z.number().int(),
      stats: z
        .object({
          worker_calls: z.number().int(),
          texts_embedded: z.number().int(),
          cache_hits: z.number().int(),
          cache_misses: z.number().int(),
          load_ms: z.number().nullable(),
          worker_ms: z.number(),
        })
        .nullable(),
      /** What the active model's vectors cover (null without a model); missing > 0 after an interrupted run. */
      vectors: z.object({ model_id: z.string(), items: z.number().int(), missing: z.number().int() }).nullable(),
    }),
    handler: (ctx) => {
      const e = asLocal(ctx);
      const status = { ...ctx.embedder().status() };
      const vectors = vectorCoverageOf(ctx);
      if (vectors?.missing) {
        // "ready" alone would hide it: say what is missing and how it heals
        status.message = `${status.message}；但有 ${vectors.missing} / ${vectors.items} 条文本还没有向量（导入或模型适配曾被中断），语义检索对它们暂不可用：应用启动时会自动补齐，也可运行 gridcode models embed`;
      }
      const cacheId = e.cacheModelId?.() ?? null;
      const cache_entries = cacheId
        ? (ctx.db.prepare('SELECT COUNT(*) AS n FROM embedding_cache WHERE model_id = ?').get(cacheId) as { n: number }).n
        : 0;
      return {
        ...status,
        batch_size: ctx.config.embed.batchSize,
        models_dir: ctx.modelsDir,
        user_models_dir: userModelsDir(ctx.dataDir),
        cache_entries,
        stats: e.stats?.() ?? null,
        vectors,
      };
    },
  }),

  'models.import': defineOperation({
    summary: '导入手动拷贝的模型文件夹（校验后复制到数据目录）/ Import a model folder copied by hand',
    input: z
      .object({
        folder: pathArg(z.string().min(1), '模型文件夹'),
        id: z.string().min(1).optional(),
        pooling: z.enum(['mean', 'cls']).optional(),
        normalize: z.boolean().optional(),
        query_prefix: z.string().optional(),
        passage_prefix: z.string().optional(),
        dtype: dtypeSchema.optional(),
        replace: z.boolean().default(false),
      })
      .strict(),
    output: z.object({
      model: modelListItemSchema,
      dir: z.string(),
      files: z.number().int(),
      bytes: z.number().int(),
      probe_ms: z.number(),
      status: modelStatusSchema,
    }),
    handler: async (ctx, input, run) => {
      const result = await importModel({ modelsDir: ctx.modelsDir, dataDir: ctx.dataDir, db: ctx.db }, input, run.progress, run.signal);
      const status = await refreshed(ctx);
      const located = listModels(ctx.modelsDir, ctx.dataDir).find((m) => m.id === result.entry.id)!;
      return {
        model: describe(ctx, located, status.state === 'ready' ? status.model_id : null),
        dir: result.dir,
        files: result.files,
        bytes: result.bytes,
        probe_ms: result.probe_ms,
        status,
      };
    },
  }),

  'models.select': defineOperation({
    summary: '选择使用的嵌入模型（null 恢复默认）/ Choose the embedding model (null = manifest default)',
    input: z.object({ id: z.string().min(1).nullable() }).strict(),
    output: modelStatusSchema,
    handler: async (ctx, input) => {
      if (input.id !== null && !listModels(ctx.modelsDir, ctx.dataDir).some((m) => m.id === input.id)) {
        throw new GridError('NOT_FOUND', `id: 模型清单中没有 ${input.id}（gridcode models list 查看可用模型）`);
      }
      if (input.id === null) ctx.db.prepare('DELETE FROM settings WHERE key = ?').run(MODEL_SETTING_KEY);
      else setSetting(ctx.db, MODEL_SETTING_KEY, input.id);
      return refreshed(ctx);
    },
  }),

  'models.embed_library': defineOperation({
    summary: '为资料库中尚无向量的段落生成向量（换模型后）/ Embed every library chunk that has no vector for the active model',
    input: z.object({}).strict(),
    output: z.object({ model_id: z.string().nullable(), regulations: z.number().int(), collections: z.number().int(), vectors: z.number().int() }),
    handler: async (ctx, _input, run) => {
      const r = await embedLibrary(ctx, run.progress, run.signal);
      return { model_id: ctx.embedder().status().model_id, ...r };
    },
  }),

  'models.adapt': defineOperation({
    summary: '按本机资料库调整自带模型（新增资料库词汇并重新生成向量，可恢复）/ Adapt the shipped model to the library',
    input: z.object({}).strict(),
    output: z.object({
      model_id: z.string(),
      base_id: z.string(),
      chunks: z.number().int(),
      new_words: z.number().int(),
      examples: z.array(z.string()),
      vectors: z.number().int(),
      seconds: z.number(),
      confirmed_pairs: z.number().int(),
      query_words: z.number().int(),
      status: modelStatusSchema,
    }),
    handler: async (ctx, _input, run) => {
      const r = await adaptModel(ctx, run.progress, run.signal);
      return { ...r, status: ctx.embedder().status() };
    },
  }),

  'models.revert': defineOperation({
    summary: '恢复到调整前的模型 / Go back to the model the adapted one was built from',
    input: z.object({}).strict(),
    output: z.object({ model_id: z.string(), vectors: z.number().int(), status: modelStatusSchema }),
    handler: async (ctx, _input, run) => {
      const r = await revertModel(ctx, run.progress, run.signal);
      return { ...r, status: ctx.embedder().status() };
    },
  }),
});
