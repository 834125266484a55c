import { z } from 'zod';

export type EmbedKind = 'query' | 'passage';

/** The embedder's status as the API reports it (app.info, models.*). */
export const modelStatusSchema = z.object({
  state: z.enum(['ready', 'missing', 'error']),
  model_id: z.string().nullable(),
  dims: z.number().int().nullable(),
  /** Chinese, shown to users as is (e.g. "未安装嵌入模型，检索仅使用关键词"). */
  message: z.string(),
});

export type ModelStatus = z.infer<typeof modelStatusSchema>;

/**
 * Text -> unit vectors. Implementations run the model off the main thread and cache
 * vectors by (model id, text hash). With no model installed, available() is false and
 * embed() rejects with MODEL_MISSING; callers fall back to lexical behaviour.
 */
export interface Embedder {
  status(): ModelStatus;
  available(): boolean;
  embed(texts: string[], kind: EmbedKind): Promise<Float32Array[]>;
  close(): Promise<void>;
}
