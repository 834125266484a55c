import type { AppContext } from '../context';
import { GridError } from '../common/errors';
import type { EmbedKind, Embedder, ModelStatus } from '../embed/types';
import { createLlmClient, llmAvailable } from './client';

/** DashScope's compatible-mode embeddings accept at most 10 texts per request. */
const DASHSCOPE_EMBED_BATCH = 10;
const CACHE_LIMIT = 20_000;

function normalise(vector: number[]): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(vector, (x) => x / norm);
}

/**
 * Online embedder (`text-embedding-v4`) behind the same interface as the local model, for
 * connected users without a local model. Vectors are cached per process by (kind, text).
 */
export function createDashScopeEmbedder(ctx: AppContext): Embedder {
  const { embedModel: model, embedDims: dims } = ctx.config.llm;
  const modelId = `dashscope/${model}`;
  const cache = new Map<string, Float32Array>();
  return {
    status(): ModelStatus {
      return llmAvailable(ctx)
        ? { state: 'ready', model_id: modelId, dims, message: `使用 DashScope 在线嵌入模型 ${model}（${dims} 维）` }
        : { state: 'missing', model_id: null, dims: null, message: '未配置 DASHSCOPE_API_KEY，无法使用在线嵌入模型' };
    },
    available: () => llmAvailable(ctx),
    async embed(texts: string[], kind: EmbedKind): Promise<Float32Array[]> {
      if (!llmAvailable(ctx)) throw new GridError('MODEL_MISSING', '未配置 DASHSCOPE_API_KEY，无法使用在线嵌入模型');
      const client = createLlmClient(ctx);
      const key = (t: string) => `${kind}\u0000${t}`;
      const missing = [...new Set(texts.filter((t) => !cache.has(key(t))))];
      for (let i = 0; i < missing.length; i += DASHSCOPE_EMBED_BATCH) {
        const batch = missing.slice(i, i + DASHSCOPE_EMBED_BATCH);
        const vectors = await client.embed(batch, { model, dimensions: dims });
        if (cache.size > CACHE_LIMIT) cache.clear();
        batch.forEach((t, j) => cache.set(key(t), normalise(vectors[j])));
      }
      return texts.map((t) => cache.get(key(t)) as Float32Array);
    },
    close: async () => {
      cache.clear();
    },
  };
}
