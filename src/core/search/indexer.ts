import type { Db } from '../store/db';
import type { AppContext } from '../context';
import type { ProgressSink } from '../common/operation';
import { defaultConfig } from '../config';
import { indexItems, removeItems, type IndexItem } from './lexical';
import { itemsMissingVectors, storeVectors } from './vectors';

/** Corpus of regulation units, and of regulation profiles (title, description, keywords, scope, TOC). */
export const REG_CORPUS = 'reg';
export const REG_PROFILE_CORPUS = 'regmeta';

/**
 * Long units are split for indexing into overlapping windows (so one chunk is an embeddable
 * passage and a match deep inside a long clause still ranks); short units are one chunk.
 * Deterministic, so vectors can be computed later from the unit text alone.
 */
export function chunkText(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const overlap = Math.floor(maxChars / 5);
  const step = maxChars - overlap;
  const out: string[] = [];
  for (let start = 0; start < text.length; start += step) {
    out.push(text.slice(start, start + maxChars));
    if (start + maxChars >= text.length) break;
  }
  return out;
}

function chunkKey(unitId: number, n: number, count: number): string {
  return count === 1 ? String(unitId) : `${unitId}#${n}`;
}

interface UnitRow {
  id: number;
  ord: number;
  label: string | null;
  section_path: string;
  text: string;
}

/**
 * Hooks the regulation importer calls inside its import transaction, so a regulation and
 * its search index always change together (implemented by the search engine).
 */
export function indexRegulation(db: Db, regId: string, options: { chunkChars?: number } = {}): void {
  const maxChars = options.chunkChars ?? defaultConfig().search.chunkChars;
  removeItems(db, REG_CORPUS, { scope: regId });
  const units = db.prepare('SELECT id, ord, label, section_path, text FROM reg_units WHERE reg_id = ? ORDER BY ord').all(regId) as UnitRow[];
  const items: IndexItem[] = [];
  for (const u of units) {
    const chunks = chunkText(u.text, maxChars);
    chunks.forEach((text, n) => {
      items.push({ key: chunkKey(u.id, n, chunks.length), parent: String(u.id), scope: regId, title: u.section_path, text, ord: u.ord });
    });
  }
  indexItems(db, REG_CORPUS, items);
  indexRegulationProfile(db, regId);
}

/**
 * Re-indexes only the regulation's profile (title, description, keywords, scope, TOC) used by smart
 * selection. Metadata edits call this alone: unit chunks do not carry metadata, and rebuilding them
 * would also drop their vectors (ON DELETE CASCADE) with nothing to re-embed them.
 */
export function indexRegulationProfile(db: Db, regId: string): void {
  removeItems(db, REG_PROFILE_CORPUS, { scope: regId });
  const reg = db.prepare('SELECT title, description, keywords, scope FROM regulations WHERE reg_id = ?').get(regId) as
    | { title: string; description: string | null; keywords: string; scope: string | null }
    | undefined;
  if (!reg) return;
  const toc = (db.prepare('SELECT title FROM reg_toc WHERE reg_id = ? ORDER BY ord').all(regId) as { title: string }[]).map((r) => r.title);
  let keywords: string[] = [];
  try {
    keywords = JSON.parse(reg.keywords) as string[];
  } catch {
    keywords = [];
  }
  // keywords repeated: they are the curated topic words, so they should outweigh TOC noise
  const text = [reg.description ?? '', keywords.join(' '), keywords.join(' '), reg.scope ?? '', toc.join('\n')].join('\n');
  indexItems(db, REG_PROFILE_CORPUS, [{ key: regId, parent: regId, scope: regId, title: reg.title, text }]);
}

export function removeRegulationIndex(db: Db, regId: string): void {
  removeItems(db, REG_CORPUS, { scope: regId });
  removeItems(db, REG_PROFILE_CORPUS, { scope: regId });
}

/**
 * Called after the import transaction commits: embeds the regulation's units when a model is
 * installed (async, off the main thread). Without a model it does nothing; search stays lexical.
 */
export async function indexRegulationVectors(ctx: AppContext, regId: string, progress?: ProgressSink): Promise<void> {
  const embedder = ctx.embedder();
  if (!embedder.available()) return;
  const modelId = embedder.status().model_id ?? 'default';
  const missing = itemsMissingVectors(ctx.db, REG_CORPUS, modelId, regId);
  if (!missing.length) return;
  const unitText = ctx.db.prepare('SELECT text FROM reg_units WHERE id = ?');
  const maxChars = ctx.config.search.chunkChars;
  const batch = Math.max(1, ctx.config.embed.batchSize);
  for (let i = 0; i < missing.length; i += batch) {
    const slice = missing.slice(i, i + batch);
    const texts = slice.map((m) => {
      const [unitId, n] = m.key.split('#');
      const u = unitText.get(Number(unitId)) as { text: string } | undefined;
      const chunk = u ? chunkText(u.text, maxChars)[Number(n ?? 0)] ?? u.text : '';
      return m.title ? `${m.title}\n${chunk}` : chunk;
    });
    const vectors = await embedder.embed(texts, 'passage');
    storeVectors(ctx.db, modelId, slice.map((m, j) => ({ id: m.id, vector: vectors[j] })));
    progress?.({ stage: 'embed', done: Math.min(i + batch, missing.length), total: missing.length, item: regId });
  }
}
