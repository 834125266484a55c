import type { AppContext } from '../context';
import { KeyedCache } from '../common/cache';
import { compareUnits } from '../editions/compare';
import type { EditionComparison, EditionPair, StoredUnit } from '../editions/types';
import { editionsOf, type EditionInfo } from './editions';
import { getRegulation } from './store';

/**
 * Comparisons of two regulations in the library (any two: editions of one regulation or not) on the
 * editions pipeline (src/core/editions), cached per pair until either side is imported again.
 */

const comparisons = new KeyedCache<EditionComparison>('editions.comparisons');
const MAX_CACHED = 32;

function storedUnits(ctx: AppContext, regId: string): StoredUnit[] {
  return ctx.db.prepare('SELECT id, ord, page_num, kind, label, section_path, text FROM reg_units WHERE reg_id = ? ORDER BY ord').all(regId) as StoredUnit[];
}

export function compareRegulations(ctx: AppContext, oldId: string, newId: string): EditionComparison {
  const a = getRegulation(ctx.db, oldId);
  const b = getRegulation(ctx.db, newId);
  // editions of one regulation (one family) are known to be related, however much was rewritten
  const sameFamily = editionsOf(ctx.db, oldId).some((e) => e.reg_id === newId);
  const key = `${oldId}\u0000${a.indexed_at}\u0000${newId}\u0000${b.indexed_at}\u0000${sameFamily}`;
  const cache = comparisons.in(ctx.state);
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compareUnits(storedUnits(ctx, oldId), storedUnits(ctx, newId), sameFamily ? { editions: true } : {});
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}

/** An article's label as stored: "第10条" / "第十条" / "10" all mean 第十条 in a statute. */
export function sameArticle(label: string | null | undefined, wanted: string): boolean {
  if (!label) return false;
  const norm = (s: string) => s.normalize('NFKC').replace(/\s+/g, '');
  return norm(label) === norm(wanted) || norm(label).startsWith(`${norm(wanted)} `);
}

export interface ArticleStep {
  reg_id: string;
  title: string;
  effective_date: string | null;
  in_force: boolean;
  status: EditionInfo['status'];
  /** the article in this edition (null: not in it — added later or deleted before) */
  article: string | null;
  text: string | null;
  unit_id: number | null;
  page_num: number | null;
  /** what happened to it from the previous edition to this one (null for the first) */
  change: EditionPair['change'] | null;
  relation?: EditionPair['relation'];
  words?: EditionPair['words'];
}

/**
 * The change history of one article over its regulation's editions, oldest first: the article is
 * followed forwards and backwards through the alignment of each neighbouring pair of editions.
 */
export function articleHistory(ctx: AppContext, regId: string, article: string): { editions: EditionInfo[]; steps: ArticleStep[]; found: boolean } {
  const editions = editionsOf(ctx.db, regId);
  const at = editions.findIndex((e) => e.reg_id === regId);
  const own = storedUnits(ctx, regId).find((u) => sameArticle(u.label, article));
  const steps: (ArticleStep | null)[] = editions.map(() => null);
  const stepOf = (e: EditionInfo, side: EditionPair['old'], change: ArticleStep['change'], pair?: EditionPair): ArticleStep => ({
    reg_id: e.reg_id,
    title: e.title,
    effective_date: e.effective_date,
    in_force: e.in_force,
    status: e.status,
    article: side?.article ?? null,
    text: side?.text ?? null,
    unit_id: side?.unit_id ?? null,
    page_num: side?.page_num ?? null,
    change,
    ...(pair?.relation ? { relation: pair.relation } : {}),
    ...(pair?.words ? { words: pair.words } : {}),
  });
  steps[at] = stepOf(editions[at], own ? { article: own.label ?? article, text: own.text, chapter: '', unit_id: own.id, page_num: own.page_num } : null, null);
  // forwards
  let label: string | null = own?.label ?? null;
  for (let k = at + 1; k < editions.length && label; k++) {
    const cmp = compareRegulations(ctx, editions[k - 1].reg_id, editions[k].reg_id);
    const pair = cmp.pairs.find((p) => p.old?.article === label);
    steps[k] = stepOf(editions[k], pair?.new ?? null, pair?.change ?? 'deleted', pair);
    label = pair?.new?.article ?? null;
  }
  // backwards: the change of edition k is told on edition k
  label = own?.label ?? null;
  for (let k = at - 1; k >= 0 && label; k--) {
    const cmp = compareRegulations(ctx, editions[k].reg_id, editions[k + 1].reg_id);
    const pair = cmp.pairs.find((p) => p.new?.article === label);
    const later = steps[k + 1]!;
    steps[k + 1] = { ...later, change: pair?.change ?? 'added', ...(pair?.relation ? { relation: pair.relation } : {}), ...(pair?.words ? { words: pair.words } : {}) };
    steps[k] = stepOf(editions[k], pair?.old ?? null, null);
    label = pair?.old?.article ?? null;
  }
  return {
    editions,
    steps: steps.map((s, k) => s ?? stepOf(editions[k], null, null)),
    found: own !== undefined,
  };
}

/** Where an article of an edition that is not in force stands in the edition that is (for citations and "查看新版"). */
export function currentArticle(ctx: AppContext, regId: string, article: string): ArticleStep | null {
  const history = articleHistory(ctx, regId, article);
  return history.steps.find((s) => s.in_force) ?? null;
}
