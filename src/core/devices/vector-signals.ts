import type { SimilarityFn } from './capability';
import type { HomeIndex } from './index';
import { TYPE_LABELS } from './lexicon';
import type { Command } from './types';

/**
 * Embedding signals for one command, computed before the synchronous stages run (retrieve.ts):
 * cosine of the command's words to each entity's name/room/kind, and of its action to each command
 * description (the capability match). The home's passages are embedded once per home index.
 */

/** Per-command signals computed asynchronously (embeddings) before the synchronous core runs. */
export interface VectorSignals {
  /** entity id -> cosine(query, entity text) */
  entity: Map<string, number>;
  similarity?: SimilarityFn;
}

export type Embed = (texts: string[], kind: 'query' | 'passage') => Promise<Float32Array[]>;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

const vectorCache = new WeakMap<HomeIndex, Map<string, Float32Array[]>>();

export async function vectorSignals(index: HomeIndex, cmd: Command, text: string, embed: Embed): Promise<VectorSignals> {
  const store = vectorCache.get(index) ?? new Map<string, Float32Array[]>();
  vectorCache.set(index, store);
  let passages = store.get('vectors');
  if (!passages) {
    passages = await embed(index.entities.map((e) => `${e.name} ${e.room ?? ''} ${TYPE_LABELS[e.category] ?? ''}`.trim()), 'passage');
    store.set('vectors', passages);
  }
  const query = [cmd.n, cmd.s, cmd.t ? TYPE_LABELS[cmd.t] : null].filter(Boolean).join(' ') || text;
  const [q] = await embed([query], 'query');
  const entity = new Map<string, number>();
  index.entities.forEach((e, i) => entity.set(e.id, cosine(q, passages![i])));
  // embedding capability similarity: action vs each distinct description
  const descs = [...new Set(index.entities.flatMap((e) => e.commands.map((c) => c.description)))];
  let descVecs = store.get('descs');
  if (!descVecs) {
    descVecs = await embed(descs, 'passage');
    store.set('descs', descVecs);
  }
  const [av] = await embed([cmd.a], 'query');
  const bySim = new Map(descs.map((d, i) => [d, cosine(av, descVecs![i])]));
  return { entity, similarity: (_a, d) => bySim.get(d) ?? 0 };
}
