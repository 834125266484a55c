import type { Db } from '../store/db';
import { writeTransaction } from '../store/transaction';
import type { AppContext } from '../context';
import type { ProgressSink } from '../common/operation';
import { indexItems, removeItems, type IndexItem } from '../search/lexical';
import { itemsMissingVectors, keepVectors, storeVectors } from '../search/vectors';
import { chunkKey, chunkText } from '../search/chunk';
import { regulationProfile } from './profile';

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
  const profile = regulationProfile(db, regId);
  if (!profile) return;
  indexItems(db, REG_PROFILE_CORPUS, [{ key: regId, parent: regId, scope: regId, title: profile.title, text: profile.text }]);
}

export function removeRegulationIndex(db: Db, regId: string): void {
  removeItems(db, REG_CORPUS, { scope: regId });
  removeItems(db, REG_PROFILE_CORPUS, { scope: regId });
}

/** Vectors computed for a regulation's chunks, waiting to be stored (storeRegulationVectors). */
export interface RegulationVectors {
  regId: string;
  modelId: string;
  rows: { id: number; vector: Float32Array }[];
}

/**
 * Called after the import transaction commits: embeds the regulation's chunks that have no vector
 * yet (async, in the embedding worker) and stores them, in slices (progress after each).
 * Without a model it does nothing; search stays lexical.
 */
export async function indexRegulationVectors(ctx: AppContext, regId: string, progress?: ProgressSink): Promise<void> {
  await embedRegulation(ctx, regId, progress, (v) => storeRegulationVectors(ctx, v));
}

/**
 * The vectors of the regulation's chunks that have none yet (null without a model or when none is
 * missing). With `store`, each slice is handed to it as it comes and nothing is returned; without,
 * all of them are returned for the caller to store — an import writes them together with the next
 * file (one commit for both).
 */
export async function embedRegulation(
  ctx: AppContext,
  regId: string,
  progress?: ProgressSink,
  store?: (v: RegulationVectors) => void,
): Promise<RegulationVectors | null> {
  const embedder = ctx.embedder();
  if (!embedder.available()) return null;
  const modelId = embedder.status().model_id ?? 'default';
  const missing = itemsMissingVectors(ctx.db, REG_CORPUS, modelId, regId);
  if (!missing.length) return null;
  // the chunk texts in one query: the item's own (a long unit's chunk) or its unit's (search_text_sources)
  const texts = new Map(
    (
      ctx.db
        .prepare(
          `SELECT i.id, COALESCE(i.text, u.text) AS text FROM search_items i LEFT JOIN reg_units u ON u.id = CAST(i.parent AS INTEGER)
           WHERE i.corpus = ? AND i.scope = ?`,
        )
        .all(REG_CORPUS, regId) as { id: number; text: string | null }[]
    ).map((r) => [r.id, r.text]),
  );
  // indexes written before chunk text was stored with the item: re-cut the unit as it was indexed
  const unitText = ctx.db.prepare('SELECT text FROM reg_units WHERE id = ?');
  const legacyChunk = (key: string): string => {
    const [unitId, n] = key.split('#');
    const u = unitText.get(Number(unitId)) as { text: string } | undefined;
    return u ? (chunkText(u.text, ctx.config.search.chunkChars)[Number(n ?? 0)] ?? u.text) : '';
  };
  // the embedder sends a call's texts to the worker in one message: hand it many at once
  const batch = Math.max(1, ctx.config.embed.batchSize) * 16;
  const all: RegulationVectors = { regId, modelId, rows: [] };
  for (let i = 0; i < missing.length; i += batch) {
    const slice = missing.slice(i, i + batch);
    const passages = slice.map((m) => {
      const chunk = texts.get(m.id) ?? legacyChunk(m.key);
      return m.title ? `${m.title}\n${chunk}` : chunk;
    });
    const vectors = await embedder.embed(passages, 'passage');
    const rows = slice.map((m, j) => ({ id: m.id, vector: vectors[j] }));
    if (store) store({ regId, modelId, rows });
    else for (const r of rows) all.rows.push(r);
    progress?.({ stage: 'embed', done: Math.min(i + batch, missing.length), total: missing.length, item: regId });
  }
  return store ? null : all;
}

/**
 * Stores computed vectors (inside the caller's transaction, or one of its own). Items deleted or
 * re-indexed since they were embedded (another process re-imported the regulation) are skipped:
 * their replacements have other ids and are embedded on their own.
 */
export function storeRegulationVectors(ctx: AppContext, v: RegulationVectors): void {
  if (!v.rows.length) return;
  writeTransaction(ctx.db, () => {
    const live = new Set(itemsMissingVectors(ctx.db, REG_CORPUS, v.modelId, v.regId).map((m) => m.id));
    storeVectors(
      ctx.db,
      v.modelId,
      v.rows.filter((r) => live.has(r.id)),
    );
  });
}
