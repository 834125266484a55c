import type { AppContext } from '../context';
import type { ProgressSink } from '../common/operation';
import { itemsMissingVectors, storeVectors } from '../search/vectors';
import { corpusOf } from './store';

/**
 * Embeds the collection's chunks that have no vector yet for the installed model (after the
 * import transaction, so a slow or failing model never blocks or undoes an import). Without a
 * model it returns 0 and retrieval stays lexical + titles. Returns the number of vectors stored.
 */
export async function embedCollectionVectors(ctx: AppContext, name: string, progress: ProgressSink = () => {}): Promise<number> {
  const embedder = ctx.embedder();
  if (!embedder.available()) return 0;
  const modelId = embedder.status().model_id;
  if (!modelId) return 0;
  const corpus = corpusOf(name);
  const missing = itemsMissingVectors(ctx.db, corpus, modelId);
  if (!missing.length) return 0;
  const textOf = ctx.db.prepare('SELECT title, text FROM search_items WHERE id = ?');
  const batch = Math.max(1, ctx.config.embed.batchSize);
  let done = 0;
  for (let i = 0; i < missing.length; i += batch) {
    const part = missing.slice(i, i + batch);
    const texts = part.map((m) => {
      const r = textOf.get(m.id) as { title: string | null; text: string | null };
      return `${r.title ?? ''}\n${r.text ?? ''}`.trim();
    });
    const vectors = await embedder.embed(texts, 'passage');
    storeVectors(
      ctx.db,
      modelId,
      part.map((m, j) => ({ id: m.id, vector: vectors[j] })),
    );
    done += part.length;
    progress({ stage: '生成向量', done, total: missing.length });
  }
  return done;
}
