/**
 * The search a person is working through, kept for this window's lifetime: the search screen
 * restores it (list, scroll, the hit last opened) and the reader shows it beside the page (split
 * view on wide windows). Plain data + one navigation helper (which also records a hit the user
 * keeps reading as confirmed), so the reader does not load the search screen to use it.
 */
import { api, type ApiOutput } from '../api/client';
import { navigate } from '../router';
import { hitTargetParams } from '../components/reader-logic';

export type SearchOutput = ApiOutput<'search.smart_search'>;
export type Hit = SearchOutput['results'][number];
export type Scope = 'auto' | 'pick' | 'all';

export interface SearchSession {
  query: string;
  scope: Scope;
  picked: string[];
  /** "包括旧版": editions no longer in force are searched too (edition 'all'), their hits marked 旧版 */
  allEditions: boolean;
  /** the first page's answer with every hit loaded since ("加载更多", "更多来自本规程") */
  result: SearchOutput | null;
  /** scope the stored result was searched in */
  resultKey: string;
  /** offset of the next "加载更多" page */
  nextOffset: number;
  scrollTop: number;
  /** the hit last opened: focused again on return, marked in the split view */
  openedUnit: string | null;
}

export const searchSession: SearchSession = {
  query: '',
  scope: 'auto',
  picked: [],
  allEditions: false,
  result: null,
  resultKey: '',
  nextOffset: 0,
  scrollTop: 0,
  openedUnit: null,
};

export function scopeKey(sc: Scope, pk: string[], allEditions = false): string {
  return (sc === 'pick' ? `pick:${[...pk].sort().join(',')}` : sc) + (allEditions ? '|all-editions' : '');
}

/** Terms the reader should mark: what was highlighted in the snippet, plus matched terms. */
export function hitTerms(hit: Hit): string[] {
  const fromSnippet = hit.highlights.map(([s, e]) => hit.snippet.slice(s, e));
  return [...new Set([...fromSnippet, ...hit.reasons.matched_terms].map((t) => t.trim()).filter((t) => t.length > 0))];
}

/**
 * A result the user opens and keeps reading this long (still in that regulation's reader) counts
 * as a confirmed hit: "adapt to my library" learns from such question -> passage pairs.
 */
const CONFIRM_AFTER_MS = 15_000;
let confirmTimer: ReturnType<typeof setTimeout> | null = null;

function confirmIfKept(hit: Hit, query: string): void {
  if (confirmTimer) clearTimeout(confirmTimer);
  const readerOf = `#/reader/${encodeURIComponent(hit.reg_id)}`;
  confirmTimer = setTimeout(() => {
    confirmTimer = null;
    const still = location.hash === readerOf || location.hash.startsWith(`${readerOf}?`);
    // best effort: a failed record must never disturb reading
    if (still) void api('search.confirm_hit', { query, unit_id: hit.unit_id }).catch(() => undefined);
  }, CONFIRM_AFTER_MS);
}

/** Opens a hit in the reader at its page, marked; `replace` when already reading (split view). */
export function openHit(hit: Hit, query: string, options: { replace?: boolean } = {}): void {
  confirmIfKept(hit, query);
  searchSession.openedUnit = String(hit.unit_id);
  if (!options.replace) searchSession.scrollTop = document.getElementById('main')?.scrollTop ?? 0;
  const at = hit.locate;
  navigate(
    'reader',
    [hit.reg_id],
    {
      // a table row may be printed on a later page than its chunk starts
      page: hitPage(hit),
      hl: hitTerms(hit).join('|') || undefined,
      ...hitTargetParams({
        label: hit.article,
        block: at?.block ?? null,
        lead: at?.lead || null,
        tail: at?.tail || null,
        end: at && at.page_end > at.page_num ? at.page_end : null,
        table: at?.table_id ?? null,
        row: at?.row ?? null,
      }),
      q: query,
    },
    options.replace,
  );
}

/** Hits of a regulation, in list order, grouped for display (first appearance decides the order). */
export function groupHits(hits: Hit[]): { reg_id: string; title: string; hits: Hit[] }[] {
  const map = new Map<string, { reg_id: string; title: string; hits: Hit[] }>();
  for (const h of hits) {
    let g = map.get(h.reg_id);
    if (!g) map.set(h.reg_id, (g = { reg_id: h.reg_id, title: h.title, hits: [] }));
    g.hits.push(h);
  }
  return [...map.values()];
}


/** Appends hits not in the list yet (a later page or a regulation's "more" may repeat some). */
export function mergeHits(list: Hit[], more: Hit[]): Hit[] {
  const seen = new Set(list.map((h) => h.unit_id));
  return [...list, ...more.filter((h) => !seen.has(h.unit_id) && (seen.add(h.unit_id), true))];
}

/** The one count of a result list, everywhere it is shown: 共 N 条 (and how many are loaded). */
export function resultCount(shown: number, total: number): string {
  return shown < total ? `共 ${total} 条，已显示 ${shown} 条` : `共 ${total} 条`;
}

/** The page a hit opens on: where it is printed (a table row may be on a later page than its chunk starts). */
export function hitPage(hit: Hit): number {
  return hit.locate?.page_num ?? hit.page_num;
}

/** 第 7 页, or 第 4–5 页 for a hit printed over two pages. */
export function hitPages(hit: Hit): string {
  const from = hitPage(hit);
  const to = hit.locate?.page_end ?? from;
  return to > from ? `第 ${from}–${to} 页` : `第 ${from} 页`;
}
