import type { AppContext } from '../context';
import type { ProgressSink } from '../common/operation';
import { GridError } from '../common/errors';
import { indexRegulationVectors, REG_CORPUS } from '../regulations/search-index';
import { embedCollectionVectors } from '../collections/vectors';
import { corpusOf } from '../collections/store';
import { vectorCoverage } from '../search/vectors';

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

export interface VectorCoverage {
  model_id: string;
  /** Texts that should have a vector for the active model (regulation chunks, collection chunks). */
  items: number;
  /** Of those, without one: left by an import or `models adapt` that was killed part-way. */
  missing: number;
}

/** What the active model's vectors cover; null without a model. */
export function vectorCoverageOf(ctx: AppContext): VectorCoverage | null {
  const embedder = ctx.embedder();
  if (!embedder.available()) return null;
  const modelId = embedder.status().model_id;
  if (!modelId) return null;
  const corpora = [REG_CORPUS, ...(hasTable(ctx, 'collections') ? (ctx.db.prepare('SELECT name FROM collections').all() as { name: string }[]).map((c) => corpusOf(c.name)) : [])];
  let items = 0;
  let missing = 0;
  for (const corpus of corpora) {
    const c = vectorCoverage(ctx.db, corpus, modelId);
    items += c.items;
    missing += c.missing;
  }
  return { model_id: modelId, items, missing };
}

/**
 * Finishes vectors an interrupted run left missing (a kill during an import's embedding, a killed
 * `models adapt`): the shells call it at start. Nothing to do = no work; returns the vectors added.
 */
export async function healMissingVectors(ctx: AppContext, progress: ProgressSink = () => {}, signal?: AbortSignal): Promise<number> {
  const coverage = vectorCoverageOf(ctx);
  if (!coverage?.missing) return 0;
  return (await embedLibrary(ctx, progress, signal)).vectors;
}
