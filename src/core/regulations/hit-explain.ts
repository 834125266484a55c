import type { Db } from '../store/db';
import type { BlockType } from './blocks';
import type { HitExplanation, HitLocation, MatchPlace } from './search-contract';

/**
 * What a search hit needs beyond its score: where exactly it is printed (so the reader opens the
 * block itself — the table row, the note, the article, also when it runs onto the next page) and
 * why it was found, in words a field engineer reads (which words of the question matched where,
 * which related words, by meaning, because similar known questions cite it). Raw scores and ranks
 * stay in the result's `reasons` for the "详细" fold.
 */

const LEAD_CHARS = 24;
const TAIL_CHARS = 16;
/** a unit that runs on is looked for this many pages further */
const MAX_RUN_ON_PAGES = 3;

/** Text as compared across page text, text layer and units: no whitespace, table pipes, Markdown marks. */
export function squash(s: string): string {
  return s.replace(/[\s\u3000|#*`>]+/g, '');
}

function stripLabel(text: string, label: string | null): string {
  const t = text.trimStart();
  return label && t.startsWith(label) ? t.slice(label.length) : t;
}

/**
 * Pages of a regulation, read once per search (several hits share pages).
 */
export class PageTexts {
  private readonly cache = new Map<string, string | null>();
  private readonly stmt;
  constructor(db: Db) {
    this.stmt = db.prepare('SELECT text FROM reg_pages WHERE reg_id = ? AND page_num = ?');
  }
  squashed(regId: string, page: number): string | null {
    const key = `${regId}\u0000${page}`;
    if (!this.cache.has(key)) {
      const row = this.stmt.get(regId, page) as { text: string } | undefined;
      this.cache.set(key, row ? squash(row.text) : null);
    }
    return this.cache.get(key)!;
  }
}

/**
 * Where a unit is printed. `page_end`: the first page from page_num on whose text holds the unit's
 * tail (an article whose last clauses are printed on the next page); page_num when none does.
 */
export function locateHit(
  pages: PageTexts,
  u: { reg_id: string; page_num: number; kind: string; label: string | null; text: string },
  block: BlockType,
  table: { table_id: string; row: { cells: string[]; page_num: number } | null } | null,
): HitLocation {
  if (table?.row) {
    const rowText = squash(table.row.cells.join(''));
    return {
      block,
      label: u.label,
      page_num: table.row.page_num,
      page_end: table.row.page_num,
      lead: rowText.slice(0, LEAD_CHARS),
      tail: rowText.slice(-TAIL_CHARS),
      table_id: table.table_id,
      row: table.row.cells,
    };
  }
  const body = squash(stripLabel(u.text, u.label));
  const lead = body.slice(0, LEAD_CHARS);
  const tail = body.slice(-TAIL_CHARS);
  let pageEnd = u.page_num;
  const first = pages.squashed(u.reg_id, u.page_num);
  if (first !== null && tail && !first.includes(tail)) {
    for (let p = u.page_num + 1; p <= u.page_num + MAX_RUN_ON_PAGES; p++) {
      const text = pages.squashed(u.reg_id, p);
      if (text === null) break;
      if (text.includes(tail)) {
        pageEnd = p;
        break;
      }
    }
  }
  return { block, label: u.label, page_num: u.page_num, page_end: pageEnd, lead, tail, ...(table ? { table_id: table.table_id } : {}) };
}

const quote = (words: string[]) => words.map((w) => `「${w}」`).join('');

const PLACE_WORDS: Record<MatchPlace, string> = {
  label: '条文编号',
  section: '所在章节标题',
  body: '正文',
  table_header: '表头',
  table_row: '表格这一行',
  table_title: '表名',
};

/**
 * Why a hit was found, in words. `queryWords`: the question's words that carry meaning (stop words
 * and single characters without weight are left out by the caller).
 */
export function explainHit(input: {
  queryWords: string[];
  matched: string[];
  unit: { kind: string; label: string | null; section_path: string; text: string };
  table: { title: string; columns: string[]; row: { cells: string[] } | null } | null;
  expansion: string[];
  semantic: boolean;
  knownQuestion: boolean;
  articleRef: boolean;
  regulation: string | null;
}): HitExplanation {
  const { unit, table } = input;
  const lower = (s: string) => s.toLowerCase();
  const bodyText = lower(stripLabel(unit.text, unit.label));
  const inRow = table?.row ? lower(table.row.cells.join(' ')) : '';
  const inHeader = table ? lower(table.columns.join(' ')) : '';
  const inTitle = table ? lower(table.title) : '';
  const matched = [...new Set(input.matched)].filter((t) => t.trim());
  // a word inside a longer matched word (自动 in 自动装置) says nothing more
  const shown = matched.filter((t) => !matched.some((o) => o !== t && o.includes(t)));
  const terms: HitExplanation['terms'] = shown.map((term) => {
    const t = lower(term);
    let where: MatchPlace = 'body';
    if (table?.row) where = inRow.includes(t) ? 'table_row' : inHeader.includes(t) ? 'table_header' : inTitle.includes(t) ? 'table_title' : 'body';
    else if (!bodyText.includes(t)) where = unit.label && lower(unit.label).includes(t) ? 'label' : lower(unit.section_path).includes(t) ? 'section' : 'body';
    return { term, where };
  });
  const have = new Set(matched.map(lower));
  const missing = [...new Set(input.queryWords)].filter((w) => !have.has(lower(w)) && ![...have].some((h) => h.includes(lower(w)) || lower(w).includes(h)));
  const asked = new Set(input.queryWords.map(lower));
  const fullText = `${bodyText} ${inRow} ${inHeader}`;
  const related = [...new Set(input.expansion)].filter((w) => w.length >= 2 && !asked.has(lower(w)) && fullText.includes(lower(w))).slice(0, 4);

  const parts: string[] = [];
  if (input.articleRef) parts.push(`问题直接点名了${unit.label ? `「${unit.label}」` : '这一条'}`);
  const byPlace = new Map<MatchPlace, string[]>();
  for (const t of terms) byPlace.set(t.where, [...(byPlace.get(t.where) ?? []), t.term]);
  for (const [place, words] of byPlace) {
    if (place === 'section') parts.push(`${quote(words)}出现在所在章节「${unit.section_path.split(' > ').slice(-2).join(' > ')}」的标题中`);
    else parts.push(`${quote(words)}出现在${PLACE_WORDS[place]}中`);
  }
  if (related.length) parts.push(`条文使用了与问题相关的说法${quote(related)}（从已有问答中学到）`);
  if (input.knownQuestion) parts.push('以前类似的问题引用过这一条');
  if (input.semantic && !terms.length) parts.push('内容与问题意思相近（按语义找到，没有逐字相同的词）');
  else if (input.semantic && missing.length) parts.push('按语义也与问题相近');
  if (!parts.length) parts.push('与问题有少量共同用词');
  let summary = `${parts.join('；')}。`;
  if (missing.length && terms.length) summary += `未包含：${quote(missing.slice(0, 5))}。`;
  return { summary, terms, missing, related, semantic: input.semantic, known_question: input.knownQuestion, regulation: input.regulation };
}
