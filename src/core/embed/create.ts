import type { Db } from '../store/db';
import type { Embedder } from './types';
import { GridError } from '../common/errors';

export interface EmbedderOptions {
  db: Db;
  modelsDir: string;
  dataDir: string;
  batchSize: number;
}

/** Placeholder until the worker-backed embedder lands: reports "no model". */
export function createEmbedder(_options: EmbedderOptions): Embedder {
  return {
    status: () => ({ state: 'missing', model_id: null, dims: null, message: '未安装嵌入模型，检索仅使用关键词' }),
    available: () => false,
    embed: async () => {
      throw new GridError('MODEL_MISSING', '未安装嵌入模型');
    },
    close: async () => {},
  };
}
