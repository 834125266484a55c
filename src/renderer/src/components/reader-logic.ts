/** Reader rules without DOM or React, so unit tests run them under Node. */
import type { TocEntry } from '../../../core/regulations/types';

/**
 * The section being read on a page. A section the reader jumped to (TOC click) wins while its
 * page is shown; otherwise the first section starting on the page (several chapters may share
 * one page, and the page opens with the first), else the last one started before it.
 */
export function activeEntry(toc: TocEntry[], page: number, pickedId?: number | null): TocEntry | undefined {
  if (pickedId != null) {
    const picked = toc.find((e) => e.id === pickedId);
    if (picked && picked.page_num === page) return picked;
  }
  const onPage = toc.find((e) => e.page_num === page);
  if (onPage) return onPage;
  let best: TocEntry | undefined;
  for (const e of toc) if (e.page_num <= page && (!best || e.page_num >= best.page_num)) best = e;
  return best;
}

/** Why a typed page number is refused, or null when it is fine. */
export function pageProblem(raw: string, total: number): string | null {
  const t = raw.trim();
  if (!t) return `请输入页码（1–${total}）`;
  if (!/^[+-]?\d+$/.test(t)) return `页码只能是数字（1–${total}）`;
  const n = Number(t);
  if (n < 1) return `页码从 1 开始，没有第 ${t} 页`;
  if (n > total) return `本规程共 ${total} 页，没有第 ${n} 页`;
  return null;
}

