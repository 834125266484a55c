import type { Db } from '../store/db';
import type { AppContext } from '../context';
import type { ProgressSink } from '../common/operation';
import { indexItems, removeItems, type IndexItem } from '../search/lexical';
import { itemsMissingVectors, keepVectors, storeVectors } from '../search/vectors';
import { chunkKey, chunkText } from '../search/chunk';
import { resolveTexts, type TextRow } from '../search/texts';

/**
 * How regulations live in the generic search index (src/core/search):
 * - corpus `reg`: one item per chunk of a unit (article, clause, table row…), key `<unitId>` or
 *   `<unitId>#<n>`, parent = unit id, scope = reg_id; a long unit's chunk texts are stored with
 *   their items, a one-chunk unit's text only in reg_units (the search engine reads it there through
 *   the corpus' text source), so the vectors embed exactly what the lexical index holds;
 * - corpus `regmeta`: one item per regulation, its profile (title, description, keywords, scope,
 *   TOC headings) used by smart selection.
 */
export const REG_CORPUS = 'reg';
export const REG_PROFILE_CORPUS = 'regmeta';

interface UnitRow {
  id: number;
  ord: number;
  section_path: string;
  text: string;
}

/**
 * Indexes a regulation's units; called by the writer inside its import transaction, so a
 * regulation and its search index always change together. `chunkChars` is the one chunk size
 * (config.search.chunkChars), handed in by the caller that owns the configuration.
 */
export function indexRegulation(db: Db, regId: string, chunkChars: number): void {
  // re-indexing (e.g. another chunk size) keeps the vectors of chunks whose text is unchanged
  keepVectors(db, REG_CORPUS, regId, () => indexUnits(db, regId, chunkChars));
  indexRegulationProfile(db, regId);
}

function indexUnits(db: Db, regId: string, chunkChars: number): void {
  removeItems(db, REG_CORPUS, { scope: regId });
  const units = db.prepare('SELECT id, ord, section_path, text FROM reg_units WHERE reg_id = ? ORDER BY ord').all(regId) as UnitRow[];
  const items: IndexItem[] = [];
  for (const u of units) {
    const chunks = chunkText(u.text, chunkChars);
    chunks.forEach((text, n) => {
      // a one-chunk unit's text is the unit's: reg_units holds it (search_text_sources, schema.ts)
      items.push({ key: chunkKey(u.id, n, chunks.length), parent: String(u.id), scope: regId, title: u.section_path, text, ord: u.ord, ownerText: chunks.length === 1 });
    });
  }
  indexItems(db, REG_CORPUS, items);
}

/**
 * Re-indexes only the regulation's profile (title, description, keywords, scope, TOC) used by smart
 * selection. Metadata edits call this alone: unit chunks do not carry metadata, and rebuilding them
 * would also drop their vectors (ON DELETE CASCADE) with nothing to re-embed them.
 */
export function indexRegulationProfile(db: Db, regId: string): void {
  removeItems(db, REG_PROFILE_CORPUS, { scope: regId });
  const reg = db.prepare('SELECT title, description, keywords, scope, extra FROM regulations WHERE reg_id = ?').get(regId) as
    | { title: string; description: string | null; keywords: string; scope: string | null; extra: string }
    | undefined;
  if (!reg) return;
  const toc = (db.prepare('SELECT title FROM reg_toc WHERE reg_id = ? ORDER BY ord').all(regId) as { title: string }[]).map((r) => r.title);
  let keywords: string[] = [];
  try {
    keywords = JSON.parse(reg.keywords) as string[];
  } catch {
    keywords = [];
  }
  let generated: string[] = [];
  try {
    generated = (JSON.parse(reg.extra) as { generated_keywords?: string[] }).generated_keywords ?? [];
  } catch {
    generated = [];
  }
  // curated keywords repeated: they are the topic words a person chose, so they outweigh TOC noise
  const curated = keywords.filter((k) => !generated.includes(k));
  const text = [reg.description ?? '', curated.join(' '), curated.join(' '), generated.join(' '), reg.scope ?? '', toc.join('\n')].join('\n');
  indexItems(db, REG_PROFILE_CORPUS, [{ key: regId, parent: regId, scope: regId, title: reg.title, text }]);
}

export function removeRegulationIndex(db: Db, regId: string): void {
  removeItems(db, REG_CORPUS, { scope: regId });
  removeItems(db, REG_PROFILE_CORPUS, { scope: regId });
}

/**
 * Called after the import transaction commits: embeds the regulation's chunks when a model is
 * installed (async, off the main thread). Without a model it does nothing; search stays lexical.
 */
export async function indexRegulationVectors(ctx: AppContext, regId: string, progress?: ProgressSink): Promise<void> {
  const embedder = ctx.embedder();
  if (!embedder.available()) return;
  const modelId = embedder.status().model_id ?? 'default';
  const missing = itemsMissingVectors(ctx.db, REG_CORPUS, modelId, regId);
  if (!missing.length) return;
  const itemOf = ctx.db.prepare('SELECT corpus, parent, text FROM search_items WHERE id = ?');
  const textOf = (id: number) => resolveTexts(ctx.db, [itemOf.get(id) as TextRow])[0];
  // indexes written before chunk text was stored with the item: re-cut the unit as it was indexed
  const unitText = ctx.db.prepare('SELECT text FROM reg_units WHERE id = ?');
  const legacyChunk = (key: string): string => {
    const [unitId, n] = key.split('#');
    const u = unitText.get(Number(unitId)) as { text: string } | undefined;
    return u ? (chunkText(u.text, ctx.config.search.chunkChars)[Number(n ?? 0)] ?? u.text) : '';
  };
  // the embedder cuts its own batches and sends them to the worker together: hand it many at once
  const batch = Math.max(1, ctx.config.embed.batchSize) * 16;
  for (let i = 0; i < missing.length; i += batch) {
    const slice = missing.slice(i, i + batch);
    const texts = slice.map((m) => {
      const chunk = textOf(m.id)?.text ?? legacyChunk(m.key);
      return m.title ? `${m.title}\n${chunk}` : chunk;
    });
    const vectors = await embedder.embed(texts, 'passage');
    storeVectors(ctx.db, modelId, slice.map((m, j) => ({ id: m.id, vector: vectors[j] })));
    progress?.({ stage: 'embed', done: Math.min(i + batch, missing.length), total: missing.length, item: regId });
  }
}
