import type { Db } from '../store/db';
import { indexStrings } from '../text/segment';

/**
 * The tokens of a search item: the jieba search-mode segmentation of its title and text
 * (normalised, space-joined), as the BM25 postings (lexical-index.ts) hold them. They are not
 * stored in SQLite (schema v6 dropped the FTS5 copy): lexical.ts computes them once while
 * indexing and leaves them here until the postings take them (after each imported document);
 * a postings rebuild segments the stored text again.
 */

/** Title and body tokens (space-joined, as the postings hold them). */
export interface ItemTokens {
  title: string;
  body: string;
}

export interface FreshTokens extends ItemTokens {
  /** what they were computed from: a row id reused after a rolled-back transaction holds other text */
  from: { title: string | null; text: string | null };
}

/** Bound on tokens waiting for the postings (a process that indexes and never searches). */
const FRESH_MAX = 200_000;
/** Items whose tokens readers other than the postings asked for recently (collections' evidence), kept segmented. */
const RECENT_MAX = 20_000;

class FreshTokenStore {
  private readonly byId = new Map<number, FreshTokens>();
  /** least recently used first */
  readonly recent = new Map<number, FreshTokens>();
  add(rows: Map<number, FreshTokens>): void {
    if (this.byId.size + rows.size > FRESH_MAX) this.byId.clear();
    for (const [id, t] of rows) this.byId.set(id, t);
  }
  get(id: number): FreshTokens | undefined {
    return this.byId.get(id) ?? this.recent.get(id);
  }
  remember(id: number, t: FreshTokens): void {
    this.recent.delete(id);
    this.recent.set(id, t);
    if (this.recent.size > RECENT_MAX) this.recent.delete(this.recent.keys().next().value!);
  }
  release(ids: Iterable<number>): void {
    for (const id of ids) this.byId.delete(id);
  }
}

const stores = new WeakMap<Db, FreshTokenStore>();

/** Tokens written by this process and not yet taken by the postings, per database. */
export function freshTokensOf(db: Db): FreshTokenStore {
  let s = stores.get(db);
  if (!s) stores.set(db, (s = new FreshTokenStore()));
  return s;
}

/** Segments titles and texts as the index does. */
export function segmentItems(rows: { title: string | null; text: string | null }[]): ItemTokens[] {
  const bodies = indexStrings(rows.map((r) => r.text ?? ''));
  const titles = indexStrings(rows.map((r) => r.title ?? ''));
  return rows.map((_, i) => ({ title: titles[i], body: bodies[i] }));
}

/**
 * Tokens of stored items: those indexing just computed in this process, else segmented from the
 * stored title and text (a postings rebuild, a row written by another process). `remember` keeps
 * the last RECENT_MAX segmented for readers that ask again (collections' evidence per question).
 */
export function itemTokens(
  db: Db,
  rows: { id: number; title: string | null; text: string | null }[],
  options: { remember?: boolean } = {},
): ItemTokens[] {
  const store = freshTokensOf(db);
  const out: (ItemTokens | undefined)[] = rows.map((r) => {
    const f = store.get(r.id);
    return f && f.from.text === r.text && f.from.title === r.title ? f : undefined;
  });
  const missing = rows.filter((_, i) => !out[i]);
  if (missing.length) {
    const seg = segmentItems(missing);
    let j = 0;
    rows.forEach((r, i) => {
      if (out[i]) return;
      out[i] = seg[j++];
      if (options.remember) store.remember(r.id, { ...out[i]!, from: { title: r.title, text: r.text } });
    });
  }
  return out as ItemTokens[];
}
