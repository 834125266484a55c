import type { AppContext } from '../context';
import { ContextValue } from '../common/cache';
import { dbWriteStamp } from './db-stamp';
import { editionLabel, notInForce as readNotInForce, type EditionInfo } from './editions';
import { currentArticle } from './edition-compare';

/**
 * Search knows editions (issue 25): by default only editions in force are searched (an old edition
 * picked by the automatic selection stands in for its current one); with edition 'all', or when the
 * caller names an old edition itself, its hits come marked 旧版 with a link to the article in force.
 */

export type EditionScope = 'current' | 'all';

export interface HitEdition {
  status: EditionInfo['status'];
  effective_date: string | null;
  /** 旧版（2010-01-09 施行） */
  label: string;
  /** the edition in force and the article there that this one became (null: not in it any more) */
  current: { reg_id: string; title: string; effective_date: string | null; article: string | null; page_num: number | null; unit_id: number | null };
}

type NotInForce = ReturnType<typeof readNotInForce>;
const notInForceCache = new ContextValue<{ key: string; value: NotInForce }>('regulations.not-in-force');

/**
 * Editions not in force, read once per state of the database (any write on this connection or a
 * commit by another one, e.g. an import thread, and a new day invalidate it): reading every
 * family cost ~9 ms, on every search.
 */
function notInForce(ctx: AppContext): NotInForce {
  const key = `${dbWriteStamp(ctx.db)}|${new Date().toISOString().slice(0, 10)}`;
  const cached = notInForceCache.get(ctx.state);
  if (cached?.key === key) return cached.value;
  const value = readNotInForce(ctx.db);
  notInForceCache.set(ctx.state, { key, value });
  return value;
}

/** The regulations to search once superseded editions give way to the ones in force (order kept, no repeats). */
export function inForceSelection(ctx: AppContext, selected: string[]): { selected: string[]; replaced: number } {
  const off = notInForce(ctx);
  if (!off.size) return { selected, replaced: 0 };
  // a Set, not out.includes: with every regulation selected that was quadratic (~8 ms a search)
  const out = new Set<string>();
  let replaced = 0;
  for (const id of selected) {
    const entry = off.get(id);
    if (entry) replaced++;
    out.add(entry ? entry.current.reg_id : id);
  }
  return { selected: [...out], replaced };
}

/** Marks hits from editions not in force, with where their article stands in the edition in force. */
export function markEditions<T extends { reg_id: string; article: string | null; edition?: HitEdition }>(ctx: AppContext, hits: T[]): T[] {
  const off = notInForce(ctx);
  if (!off.size) return hits;
  for (const h of hits) {
    const entry = off.get(h.reg_id);
    if (!entry) continue;
    const now = h.article ? currentArticle(ctx, h.reg_id, h.article) : null;
    h.edition = {
      status: entry.edition.status,
      effective_date: entry.edition.effective_date,
      label: editionLabel(entry.edition),
      current: {
        reg_id: entry.current.reg_id,
        title: entry.current.title,
        effective_date: entry.current.effective_date,
        article: now?.article ?? null,
        page_num: now?.page_num ?? null,
        unit_id: now?.unit_id ?? null,
      },
    };
  }
  return hits;
}
