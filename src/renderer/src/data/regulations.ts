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

/**
 * Pages from..to as far as one read returns them (reads are capped by size): `until` is the last page
 * the answer covers. A page longer than one read (stored before pages were bounded) shows its first
 * part and says so.
 */
export async function readPages(regId: string, from: number, to: number): Promise<{ pages: PageText[]; until: number }> {
  const out = await api('regulations.read', { reg_id: regId, start: from, end: to });
  const pages = out.pages.map((p) =>
    p.total_chars !== undefined && p.offset !== undefined && p.offset + p.text.length < p.total_chars
      ? { page_num: p.page_num, text: `${p.text}\n\n……（本页过长，这里只显示前 ${p.text.length} 字，共 ${p.total_chars} 字）` }
      : { page_num: p.page_num, text: p.text },
  );
  const until = out.next ? (out.next.offset !== undefined ? out.next.start : out.next.start - 1) : to;
  return { pages, until };
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
      p = readPages(this.regId, from, to).then(({ pages, until }) => {
        for (const pg of pages) this.pages.set(pg.page_num, pg);
        // a page with no stored text still exists: show it as empty rather than loading forever
        // (pages after a size-capped answer are simply read again when needed)
        for (let n = from; n <= until; n++) if (!this.pages.has(n)) this.pages.set(n, { page_num: n, text: '' });
      });
      for (let n = from; n <= to; n++) this.inflight.set(n, p);
      p.finally(() => {
        for (let n = from; n <= to; n++) if (this.inflight.get(n) === p) this.inflight.delete(n);
      }).catch(() => {});
    }
    await p;
    if (!this.pages.has(page)) {
      // the window's answer stopped before this page (size cap): read it alone
      const { pages } = await readPages(this.regId, page, page);
      this.pages.set(page, pages[0] ?? { page_num: page, text: '' });
    }
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
