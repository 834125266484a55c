import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { normalizeText } from '../text/normalize';
import { queryTokens } from '../text/segment';
import { ContextValue } from '../common/cache';

/**
 * Everyday words → statute words (resources/collections/lay-terms.json, written by hand): `偷电`
 * is 窃电 / 盗窃电能 in a statute, `社保` 社会保险, `高压线` 架空电力线路. A question is searched
 * with both (`extra` tokens for BM25), and a chunk holding a statute word counts as holding the
 * everyday word for evidence (`equivalents`), so an article is not penalised for the law's wording.
 * The table only knows the words somebody wrote down; known-answers.ts backs it with learned
 * lay questions (a learned word table from STARD train was tried and left out: it covers too few
 * everyday words — 公司, 加班, 社保 have no confident pair — and cost the labour set 2 points).
 */

export interface LayExpansion {
  /** Statute-word tokens added to the lexical query. */
  extra: string[];
  /** [everyday-word tokens, statute-word tokens]: a chunk with any statute token has the everyday tokens. */
  equivalents: [string[], string[]][];
}

const EMPTY: LayExpansion = { extra: [], equivalents: [] };

/** The table, loaded once per context. */
const layTable = new ContextValue<[string, string[]][]>('collections.lay-terms');

function table(ctx: AppContext): [string, string[]][] {
  let t = layTable.get(ctx.state);
  if (!t) {
    t = [];
    try {
      const file = path.join(ctx.resourcesDir, 'collections', 'lay-terms.json');
      const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { terms: Record<string, string[]> };
      t = Object.entries(data.terms).map(([k, v]) => [normalizeText(k), v]);
    } catch {
      t = []; // a missing or broken resource must not break answering
    }
    layTable.set(ctx.state, t);
  }
  return t;
}

export function layExpansion(ctx: AppContext, question: string): LayExpansion {
  const q = normalizeText(question);
  const hits = table(ctx).filter(([lay]) => q.includes(lay));
  if (!hits.length) return EMPTY;
  const extra = new Set<string>();
  const equivalents: [string[], string[]][] = [];
  for (const [lay, words] of hits) {
    const statute = words.flatMap((w) => queryTokens(w));
    for (const t of statute) extra.add(t);
    equivalents.push([queryTokens(lay), statute]);
  }
  return { extra: [...extra], equivalents };
}

/** Adds the everyday tokens to a chunk's token set when it holds one of their statute words. */
export function withLayEquivalents(present: Set<string>, equivalents: LayExpansion['equivalents']): Set<string> {
  for (const [lay, statute] of equivalents) if (statute.some((t) => present.has(t))) for (const t of lay) present.add(t);
  return present;
}
