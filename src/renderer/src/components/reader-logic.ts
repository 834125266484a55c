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


/**
 * The block a search hit opens (from the hit's `locate`, carried in the reader's URL): its kind,
 * label, first and last characters, the pages it runs over, and for a table the row.
 */
export interface HitTarget {
  block: string | null;
  label: string | null;
  lead: string | null;
  tail: string | null;
  /** last page the hit's text runs onto */
  end: number | null;
  table: string | null;
  row: string[] | null;
}

const ROW_SEP = '\u001f';

export function parseHitTarget(q: URLSearchParams): HitTarget {
  const end = Number(q.get('end'));
  const row = q.get('row');
  return {
    block: q.get('block'),
    label: q.get('article'),
    lead: q.get('lead'),
    tail: q.get('tail'),
    end: end > 0 ? end : null,
    table: q.get('table'),
    row: row ? row.split(ROW_SEP) : null,
  };
}

/** URL parameters of a hit target (the inverse of parseHitTarget; empty fields left out). */
export function hitTargetParams(t: Partial<HitTarget>): Record<string, string | undefined> {
  return {
    article: t.label ?? undefined,
    block: t.block ?? undefined,
    lead: t.lead ?? undefined,
    tail: t.tail ?? undefined,
    end: t.end ? String(t.end) : undefined,
    table: t.table ?? undefined,
    row: t.row?.length ? t.row.join(ROW_SEP) : undefined,
  };
}

/** Compared without whitespace, table pipes and Markdown marks (as the search's `locate` is written). */
export function squashText(s: string): string {
  return s.replace(/[\s\u3000|#*`>]+/g, '');
}

/**
 * Which of a page's blocks a hit opens: for a table its table; else the block whose label is the
 * hit's and whose text holds the hit's first characters, else the one holding them, else the
 * labelled one; -1 when the page holds none of it (the caller falls back to the first marked term).
 */
export function hitBlockIndex(
  blocks: { kind: string; label: string | null; text: string; tableId?: string | null }[],
  t: HitTarget,
): number {
  if (t.table) {
    const i = blocks.findIndex((b) => b.kind === 'table' && b.tableId === t.table);
    if (i >= 0) return i;
  }
  const lead = t.lead ? squashText(t.lead).slice(0, 12) : '';
  const holds = (b: { label: string | null; text: string }) => !!lead && squashText(`${b.label ?? ''}${b.text}`).includes(lead);
  if (t.label) {
    const labelled = blocks.map((b, i) => [b, i] as const).filter(([b]) => b.label === t.label);
    const both = labelled.find(([b]) => holds(b));
    if (both) return both[1];
    if (labelled.length && !lead) return labelled[0][1];
  }
  const i = blocks.findIndex((b) => b.kind !== 'table' && b.kind !== 'heading' && holds(b));
  if (i >= 0) return i;
  // a table's note renders under its table (a table block's text is its notes)
  if (t.block === 'note') {
    const inTable = blocks.findIndex((b) => b.kind === 'table' && holds({ label: null, text: b.text }));
    if (inTable >= 0) return inTable;
  }
  if (t.label) return blocks.findIndex((b) => b.label === t.label);
  return -1;
}

/**
 * The part of a later page that still belongs to the hit (an article continued on the next page):
 * the page's blocks from its top up to the one holding the hit's last characters. Empty when the
 * page does not hold them before another article, clause or heading starts.
 */
export function continuationBlocks<B extends { kind: string; label: string | null; text: string }>(blocks: B[], tail: string | null): B[] {
  const end = tail ? squashText(tail) : '';
  if (!end) return [];
  const out: B[] = [];
  let acc = '';
  for (const b of blocks) {
    if (out.length && (b.kind === 'heading' || b.kind === 'article')) return [];
    out.push(b);
    // the last characters may straddle two short blocks
    acc += squashText(`${b.label ?? ''}${b.text}`);
    if (acc.includes(end)) return out;
    if (out.length > 20) return [];
  }
  return [];
}
