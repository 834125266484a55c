import type { Db } from '../store/db';
import { documentFrequencies, idfOf, termEvidence } from '../search/lexical';
import { itemTokens } from '../search/tokens';
import { withLayEquivalents, type LayExpansion } from './lay-terms';

/**
 * How well one chunk (an article, a section piece) answers a question, shared by the choice of
 * the document to lock (retrieve.ts, focus rule) and of the section to quote (sections.ts):
 *
 *   score = w · evidence + (1 − w) · rrf / max rrf + form bonus
 *
 * evidence = idf-weighted share of the question's terms in the chunk's title + text (the title
 * field carries the document title and the chapter path, so a statute's distinctive words count);
 * rrf = the chunk's fused BM25 + vector rank; form bonus = the chunk states a quantity when the
 * question asks 多少/几天/最长, enumerates (下列, （一）) when it asks 哪些/什么情形, states a rule
 * (不得, 禁止, 未经…批准) when it asks whether something is allowed (可以…吗, 违法吗).
 */

const ASKS_QUANTITY = /多少|多久|多长|(?<!哪)几[天日年月个次级倍周条]|(?<!哪)几个|几小时|最长|最多|最少|最高|最低|期限|比例|多大|几岁|标准是/;
const ASKS_LIST = /哪些|哪几|什么情形|什么情况|什么行为|包括什么|包括哪|有什么/;
const STATES_QUANTITY = /[\d一二三四五六七八九十百千两半]+\s*(?:个)?(?:米|千伏|伏|天|日|小时|周岁|岁|年|个月|月|周|%|％|‰|倍|元|万元|级|人|次)/;
const ENUMERATES = /下列|[(（][一二三四五六七八九十]+[)）]/;
// `可以在…吗`, `能不能`, `违法吗`, `禁止哪些`: asks whether something is allowed; the answer is a rule
const ASKS_PERMISSION = /可以.{0,16}吗|能.{0,16}吗|能不能|能否|可不可以|行不行|允许|违法|合法|禁止|不得|不准/;
const STATES_RULE = /不得|禁止|严禁|不准|未经.{0,24}(?:批准|许可|同意)|必须经/;

export interface QuestionForm {
  quantity: boolean;
  list: boolean;
  permission: boolean;
}

export function questionForm(question: string): QuestionForm {
  const q = question.replace(/\s+/g, '');
  return { quantity: ASKS_QUANTITY.test(q), list: ASKS_LIST.test(q), permission: ASKS_PERMISSION.test(q) };
}

/** Bonus for a chunk text that has what the question's form asks for (a bonus per cue met). */
export function formBonus(form: QuestionForm, text: string, bonus: number): number {
  return (
    (form.quantity && STATES_QUANTITY.test(text) ? bonus : 0) +
    (form.list && ENUMERATES.test(text) ? bonus : 0) +
    (form.permission && STATES_RULE.test(text) ? bonus : 0)
  );
}

/**
 * Words statutes use interchangeably for one modality: a question asking what is 禁止 is answered
 * by an article saying 不得 (and the reverse), so a chunk holding one of a group holds them all.
 */
const MODAL_GROUPS: string[][] = [
  ['禁止', '不得', '严禁', '不准', '不许'],
  ['应当', '必须'],
];

function withModalEquivalents(present: Set<string>): Set<string> {
  for (const group of MODAL_GROUPS) if (group.some((w) => present.has(w))) for (const w of group) present.add(w);
  return present;
}

export interface ChunkEvidence {
  evidence: number;
  text: string;
}

/** Evidence of chunks of a corpus (all chunks of a scope, or the given keys) for the query tokens. */
export function chunkEvidence(
  db: Db,
  corpus: string,
  tokens: string[],
  which: { scope: string } | { keys: string[] },
  lay: LayExpansion['equivalents'] = [],
): Map<string, ChunkEvidence> {
  const out = new Map<string, ChunkEvidence>();
  if (!tokens.length) return out;
  const total = (db.prepare('SELECT COUNT(*) AS n FROM search_items').get() as { n: number }).n;
  const df = documentFrequencies(db, tokens);
  const queryIdf = new Map(tokens.map((t) => [t, idfOf(df.get(t) ?? 0, Math.max(total, 1))]));
  const select = 'SELECT id, key, title, text FROM search_items WHERE corpus = ? AND ';
  type Row = { id: number; key: string; title: string | null; text: string | null };
  const rows: Row[] =
    'scope' in which
      ? (db.prepare(`${select} scope = ?`).all(corpus, which.scope) as Row[])
      : which.keys.flatMap((k) => (db.prepare(`${select} key = ?`).all(corpus, k) as Row[]));
  const rowTokens = itemTokens(db, rows, { remember: true });
  rows.forEach((r, i) => {
    const present = new Set(`${rowTokens[i].title} ${rowTokens[i].body}`.split(' '));
    out.set(r.key, { evidence: termEvidence(queryIdf, withLayEquivalents(withModalEquivalents(present), lay)).evidence, text: r.text ?? '' });
  });
  return out;
}

export function articleScore(evidence: number, rrfNorm: number, bonus: number, evidenceWeight: number): number {
  return evidenceWeight * evidence + (1 - evidenceWeight) * rrfNorm + bonus;
}
