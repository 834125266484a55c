/**
 * Regulation data for the library and the reader: one place that knows the regulations
 * operations, plus a page cache so flipping pages is instant after the first read.
 */
import { api } from '../api/client';
import { takePrefetched } from './prefetch';
import type { RegulationInfo, TocEntry } from '../../../core/regulations/types';

export type { RegulationInfo, TocEntry };
export interface PageText {
  page_num: number;
  text: string;
}

export async function listRegulations(): Promise<RegulationInfo[]> {
  return takePrefetched('regulations.list') ?? api('regulations.list', {});
}

export async function getRegulation(regId: string): Promise<RegulationInfo> {
  return api('regulations.get', { reg_id: regId });
}

export async function getToc(regId: string): Promise<TocEntry[]> {
  return (await api('regulations.toc', { reg_id: regId })).toc;
}

export async function readPages(regId: string, from: number, to: number): Promise<PageText[]> {
  return (await api('regulations.read', { reg_id: regId, start: from, end: to })).pages;
}

export async function deleteRegulation(regId: string): Promise<void> {
  await api('regulations.delete', { reg_id: regId });
}

export async function enrichRegulation(regId: string): Promise<void> {
  await api('regulations.enrich', { reg_id: regId });
}

/** How many pages one read fetches around the requested page (reads are capped server-side). */
const WINDOW = 3;

/** Per-regulation page cache with de-duplicated in-flight reads. */
export class PageCache {
  private pages = new Map<number, PageText>();
  private inflight = new Map<number, Promise<void>>();
  constructor(
    readonly regId: string,
    readonly total: number,
  ) {}

  peek(page: number): PageText | undefined {
    return this.pages.get(page);
  }

  async get(page: number): Promise<PageText> {
    const hit = this.pages.get(page);
    if (hit) return hit;
    const from = Math.max(1, page - 1);
    const to = Math.min(this.total, from + WINDOW - 1);
    let p = this.inflight.get(page);
    if (!p) {
      p = readPages(this.regId, from, to).then((list) => {
        for (const pg of list) this.pages.set(pg.page_num, pg);
        // a page with no stored text still exists: show it as empty rather than loading forever
        for (let n = from; n <= to; n++) if (!this.pages.has(n)) this.pages.set(n, { page_num: n, text: '' });
      });
      for (let n = from; n <= to; n++) this.inflight.set(n, p);
      p.finally(() => {
        for (let n = from; n <= to; n++) if (this.inflight.get(n) === p) this.inflight.delete(n);
      }).catch(() => {});
    }
    await p;
    return this.pages.get(page) ?? { page_num: page, text: '' };
  }

  /** Warm the neighbours so ←/→ paint from memory. */
  prefetch(page: number): void {
    for (const n of [page + 1, page + 2, page - 1]) {
      if (n >= 1 && n <= this.total && !this.pages.has(n) && !this.inflight.has(n)) this.get(n).catch(() => {});
    }
  }
}

const LAST_POS_KEY = 'gridcode.reader.lastPage.';

export function rememberPage(regId: string, page: number): void {
  try {
    localStorage.setItem(LAST_POS_KEY + regId, String(page));
  } catch {
    /* storage full or disabled: remembering is a convenience */
  }
}

export function recallPage(regId: string): number | null {
  try {
    const v = Number(localStorage.getItem(LAST_POS_KEY + regId));
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}
