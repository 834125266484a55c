import type { AppContext } from '../context';
import type { ProgressSink } from '../common/operation';
import { GridError } from '../common/errors';
import { indexRegulationVectors } from '../regulations/search-index';
import { embedCollectionVectors } from '../collections/vectors';

/**
 * Embeds everything in the library that has no vector for the active model yet: every
 * regulation's chunks, then every collection's. Used after the model changes (a new default,
 * `models adapt`, `models use`) and by evaluations on an already imported corpus. Items that
 * already have vectors are skipped, so an interrupted run resumes where it stopped.
 */
export async function embedLibrary(
  ctx: AppContext,
  progress: ProgressSink = () => {},
  signal?: AbortSignal,
): Promise<{ regulations: number; collections: number; vectors: number }> {
  const embedder = ctx.embedder();
  if (!embedder.available()) return { regulations: 0, collections: 0, vectors: 0 };
  const modelId = embedder.status().model_id ?? 'default';
  const count = () =>
    (ctx.db.prepare('SELECT COUNT(*) AS n FROM search_vectors WHERE model_id = ?').get(modelId) as { n: number }).n;
  const before = count();
  const regs = (ctx.db.prepare('SELECT reg_id, title FROM regulations ORDER BY reg_id').all() as { reg_id: string; title: string }[]);
  const cols = hasTable(ctx, 'collections') ? (ctx.db.prepare('SELECT name FROM collections ORDER BY name').all() as { name: string }[]) : [];
  const total = regs.length + cols.length;
  let done = 0;
  for (const r of regs) {
    if (signal?.aborted) throw new GridError('CANCELLED', '已取消生成向量');
    await indexRegulationVectors(ctx, r.reg_id);
    progress({ stage: '生成向量', done: ++done, total, item: r.title });
  }
  for (const c of cols) {
    if (signal?.aborted) throw new GridError('CANCELLED', '已取消生成向量');
    await embedCollectionVectors(ctx, c.name);
    progress({ stage: '生成向量', done: ++done, total, item: c.name });
  }
  return { regulations: regs.length, collections: cols.length, vectors: count() - before };
}

function hasTable(ctx: AppContext, name: string): boolean {
  return Boolean(ctx.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name));
}
