/**
 * Regulation-aware ordering of search hits: the generic engine ranks chunks by words; a field
 * engineer reading a regulation expects its provisions (articles, clauses) before the rows of its
 * tables and ledgers, one line for a run of near-identical rows, and results from every
 * regulation that matches rather than one regulation's repeats.
 */

/** What a unit is to a reader: a provision (article, clause, prose) or a row of a table / ledger / list. */
export type UnitShape = 'provision' | 'row';

const SENTENCE_PUNCT = /[。；;，,：:！？]/;
const DATE = /(19|20)\d{2}\s*[-年./]\s*\d{1,2}/;
const MEASURE = /\d+(\.\d+)?\s*(kv|mw|mvar|mva|kw|kwh|hz|ms|a|s|%|千伏|兆瓦|万千瓦|千瓦|安培|赫兹|毫秒|秒)(?![a-z])/i;

/**
 * Rows: units the importer marked as tables, Markdown pipe tables, and short lines of
 * whitespace-separated fields without sentence punctuation (PDF tables come out that way:
 * "2023-06-03 花园电厂 母线 失压 正确不动作 —").
 */
export function unitShape(kind: string, text: string): UnitShape {
  if (kind === 'article' || kind === 'clause') return 'provision';
  if (kind === 'table' || kind === 'table_row' || kind === 'row') return 'row';
  const t = text.trim();
  if (/^\|.*\|\s*$/m.test(t) && (t.match(/\|/g)?.length ?? 0) >= 4) return 'row';
  if (t.length <= 160 && !SENTENCE_PUNCT.test(t)) {
    const fields = t.split(/\s+/).filter(Boolean);
    if (fields.length >= 4) return 'row';
  }
  return 'provision';
}

/** Table / ledger vocabulary: a query with these asks for rows. */
const ROW_WORDS = /(台账|记录|清单|一览|明细|统计|定值|限额表|状态表|策略表|附表|附录|表\s*[a-z]?\d)/i;

/**
 * A query targets rows when it names what only rows hold: dates, measured values (500kV, 708MW),
 * or table vocabulary (台账, 动作记录, 定值清单, 表C.1). Station names are not guessed here:
 * when only rows contain them, rows win anyway (the demotion is a factor, not a filter).
 */
export function queryTargetsRows(query: string): boolean {
  const q = query.normalize('NFKC');
  return DATE.test(q) || MEASURE.test(q) || ROW_WORDS.test(q);
}

export interface RankItem {
  reg_id: string;
  section: string;
  shape: UnitShape;
  score: number;
  matched: string[];
}

export interface Collapsed<T> {
  item: T;
  /** near-identical rows folded into this one, best first */
  similar: T[];
}

/**
 * Orders hits (already sorted by relevance) for reading: rows are demoted by `rowFactor` unless
 * the query targets them (then provisions are); rows of the same table (section) that match the same query words fold
 * into their best row ("+8 similar rows"). Returns the new order with adjusted scores.
 */
export function arrangeHits<T extends RankItem>(hits: T[], o: { rowFactor: number; targetsRows: boolean }): Collapsed<T>[] {
  // the shape the query does not ask for gives way: provisions by default, rows for ledger questions
  const demoted: UnitShape = o.targetsRows ? 'provision' : 'row';
  const adjusted = hits.map((h, i) => ({ h, i, score: h.shape === demoted ? h.score * o.rowFactor : h.score }));
  adjusted.sort((a, b) => b.score - a.score || a.i - b.i);
  const out: Collapsed<T>[] = [];
  const bySignature = new Map<string, Collapsed<T>>();
  for (const { h, score } of adjusted) {
    const item = { ...h, score };
    if (h.shape === 'row') {
      const sig = `${h.reg_id}\u0000${h.section}\u0000${[...new Set(h.matched)].sort().join(' ')}`;
      const group = bySignature.get(sig);
      if (group) {
        group.similar.push(item);
        continue;
      }
      const fresh: Collapsed<T> = { item, similar: [] };
      bySignature.set(sig, fresh);
      out.push(fresh);
    } else {
      out.push({ item, similar: [] });
    }
  }
  return out;
}

/** 广东省家政服务条例 / 深圳经济特区绿色建筑条例 / 潮州市畲族文化保护条例: a place, then a legal instrument. */
const LOCAL_REGULATION = /^([\u4e00-\u9fff]{2,7}?)(?:省|市|自治区|特别行政区|自治州|自治县|县|经济特区)(?!.*(?:公司|电网|电力|供电))[\u4e00-\u9fff（）()、·]*(?:条例|规定|办法|细则|决定|规则|实施意见)$/;

/** The place a local regulation's title names (广东, 深圳), or null for a national one or a non-legal document. */
export function localPlaceOf(title: string): string | null {
  if (title.startsWith('中华人民共和国') || title.startsWith('全国') || title.startsWith('国务院') || title.startsWith('最高人民')) return null;
  const m = LOCAL_REGULATION.exec(title.replace(/\s*[（(]\d{4}[-年].*$/, '').trim());
  return m ? m[1] : null;
}
