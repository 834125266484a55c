import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import type { EngineResult } from '../search/engine';
import { ENGINE_FEATURES, engineFeatures, type LinearReranker } from '../search/rerank';
import { ContextValue } from '../common/cache';
import { dbWriteStamp } from './db-stamp';
import { readManifest, sha256FileSync } from '../embed/manifest';
import { localPlaceOf } from './rank';
import type { KnownPriors } from './known-questions';

/**
 * Regulation features of the rerank stage (search/rerank.ts), after the engine's: whether the hit
 * is a local regulation whose place the query does not name (lay questions are answered by
 * national law), whether it is an article (第N条), how much of the query the regulation's title
 * holds, how often known questions (regulations/known-questions.ts) cite the unit and its
 * regulation, and how close the known questions citing it are to this query (0 on a library they
 * do not apply to).
 */
export const REG_FEATURES = [...ENGINE_FEATURES, 'local', 'article', 'title_match', 'cited_unit', 'cited_reg', 'known_near', 'known_best'] as const;

export interface FeatureUnit {
  reg_id: string;
  kind: string;
  label: string | null;
  title: string;
}

/** Units the features have read, per context, until the database changes. */
const unitCache = new ContextValue<{ stamp: string; units: Map<string, FeatureUnit> }>('regulations.feature-units');

/** What the features need of many units: cached ones, the rest in one query (no texts read). */
export function featureUnits(ctx: AppContext, parents: string[]): (parent: string) => FeatureUnit | undefined {
  const stamp = dbWriteStamp(ctx.db);
  let cache = unitCache.get(ctx.state);
  // bounded: a long session touches many units (a search reads up to 400)
  if (cache?.stamp !== stamp || cache.units.size > 20_000) unitCache.set(ctx.state, (cache = { stamp, units: new Map() }));
  const { units } = cache;
  const missing = parents.filter((p) => !units.has(p));
  if (missing.length) {
    const rows = ctx.db
      .prepare(
        `SELECT u.id, u.reg_id, u.kind, u.label, r.title
           FROM reg_units u JOIN regulations r ON r.reg_id = u.reg_id WHERE u.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(missing.map(Number))) as (FeatureUnit & { id: number })[];
    for (const { id, ...u } of rows) units.set(String(id), u);
  }
  return (parent) => units.get(parent);
}

export interface CandidateFeatures {
  parent: string;
  x: number[];
}

/** REG_FEATURES of the first `pool` parents of an engine result. */
export function regulationFeatures(
  engine: EngineResult,
  pool: number,
  query: string,
  unit: (parent: string) => FeatureUnit | undefined,
  priors: KnownPriors | null,
): CandidateFeatures[] {
  const words = [...new Set(engine.tokens.filter((t) => t.length >= 2))];
  const titleMatch = new Map<string, number>();
  return engineFeatures(engine, pool).map((c) => {
    const u = unit(c.parent);
    const title = u?.title ?? '';
    let tm = titleMatch.get(title);
    if (tm === undefined) titleMatch.set(title, (tm = words.length ? words.filter((w) => title.includes(w)).length / words.length : 0));
    const place = u ? localPlaceOf(u.title) : null;
    const [citedUnit, citedReg, near, nearBest] = u && priors ? priors(Number(c.parent), u.reg_id, query) : [0, 0, 0, 0];
    return {
      parent: c.parent,
      x: [
        ...c.x,
        place && !query.includes(place) ? 1 : 0,
        u?.kind === 'article' && /^第.+条/.test(u.label ?? '') ? 1 : 0,
        tm,
        citedUnit,
        citedReg,
        near,
        nearBest,
      ],
    };
  });
}

/** The shipped reranker file, read once per context (null when absent, broken or not listed). */
const shipped = new ContextValue<LinearReranker | null>('regulations.reranker');

/** Reranker entry of models/manifest.json (`rerankers`: [{id, folder, file, sha256}]). */
interface RerankerEntry {
  id: string;
  folder: string;
  file: string;
  sha256: string | null;
}

export const SHIPPED_RERANKER_ID = 'gridcode-rerank-v1';

/** The shipped reranker's file and recorded sha256, from the manifest (null when not listed). */
export function rerankerFile(modelsDir: string): { file: string; sha256: string | null } | null {
  try {
    const entries = (readManifest(modelsDir) as { rerankers?: RerankerEntry[] }).rerankers ?? [];
    const e = entries.find((r) => r.id === SHIPPED_RERANKER_ID);
    return e ? { file: path.join(modelsDir, e.folder, e.file), sha256: e.sha256 } : null;
  } catch {
    return null;
  }
}

/**
 * The shipped reranker, read once per context; null (the fused order is used) when it is not
 * listed, missing, altered (sha256 differs from the manifest) or not a linear model.
 */
export function shippedReranker(ctx: AppContext): LinearReranker | null {
  let model = shipped.get(ctx.state);
  if (model === undefined) {
    model = null;
    try {
      const entry = rerankerFile(ctx.modelsDir);
      if (entry && fs.existsSync(entry.file) && (!entry.sha256 || sha256FileSync(entry.file) === entry.sha256)) {
        const m = JSON.parse(fs.readFileSync(entry.file, 'utf8')) as LinearReranker;
        if (m.kind === 'linear' && Array.isArray(m.weights) && m.weights.length === m.features.length && m.candidates > 0 && m.pool > 0) model = m;
      }
    } catch {
      model = null; // a broken file must not break search: the fused order is used
    }
    shipped.set(ctx.state, model);
  }
  return model;
}
