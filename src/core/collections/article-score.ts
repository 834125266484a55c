import type { Db } from '../store/db';
import { corpusRows, documentFrequencies, idfOf, termEvidence } from '../search/lexical';
import { itemTokens } from '../search/tokens';
import { withLayEquivalents, type LayExpansion } from './lay-terms';
import { parseChineseNumber, toChineseNumber } from '../text/chinese-numbers';
import { ASKS, MODAL_GROUPS, STATES, UNITS } from './question-forms';

/**
 * How well one chunk (an article, a section piece) answers a question, shared by the choice of
 * the document to lock (retrieve.ts, focus rule) and of the section to quote (sections.ts):
 *
 *   score = w · evidence + (1 − w) · rrf / max rrf + form bonus
 *
 * evidence = idf-weighted share of the question's terms in the chunk's title + text (the title
 * field carries the document title and the chapter path, so a statute's distinctive words count);
 * rrf = the chunk's fused BM25 + vector rank; form bonus = the chunk states a quantity when the
 * question asks 多少/几天/最长/怎么算 (in the asked unit when it names one: `几个小时` wants 四小时, not
 * 十五日), enumerates (下列, （一）) when it asks 哪些/什么情形, states a rule (不得, 禁止, 未经…批准)
 * when it asks whether something is allowed (可以…吗, 违法吗), names a body that acts (由…批准, 向…申请)
 * when it asks who or where (由谁, 向哪里, 哪个部门). The cues are data: data/question-forms.json.
 */

export interface QuestionForm {
  quantity: boolean;
  /** asks how an amount is computed (怎么算, 几成, 按什么标准) */
  computation: boolean;
  /** the unit the quantity is asked in (小时, 日, 元 …), or null */
  unit: string | null;
  list: boolean;
  permission: boolean;
  /** asks who acts or where to turn (由谁, 向哪里, 哪个部门) */
  agent: boolean;
}

export function questionForm(question: string): QuestionForm {
  const q = question.replace(/\s+/g, '');
  const unit = UNITS.find((u) => u.asked.test(q))?.unit ?? null;
  return { quantity: ASKS.quantity.test(q), computation: ASKS.computation.test(q), unit, list: ASKS.list.test(q), permission: ASKS.permission.test(q), agent: ASKS.agent.test(q) };
}

/**
 * Bonus for a chunk text that has what the question's form asks for (a bonus per cue met): a quantity,
 * an enumeration, a rule. `detailed` (the article to quote inside a locked document, sections.ts) adds
 * the finer cues: the quantity in the asked unit, a computed amount (百分之八十). The choice between
 * documents (retrieve.ts focus rule) keeps the coarse cues: the finer ones widened the lead of a
 * document holding the asked form but not the asked subject (`铁路线路两侧多远以内不能盖房子` locked
 * 电力设施保护条例's distances article instead of asking back; eval/collections-absent.eval.ts). A body
 * that acts (由…决定, 向…申请) for a question asking who or where counts in both: at the choice
 * between documents it took the power tuning part 70 → 71/78 (`并网双方达不成协议时由谁协调`) and one
 * STARD tuning wrong lock to an ask-back, collections-absent and every held-out total unchanged.
 */
export function formBonus(form: QuestionForm, text: string, bonus: number, detailed = false): number {
  if (!detailed) {
    return (form.quantity && STATES.quantity.test(text) ? bonus : 0) + (form.list && STATES.list.test(text) ? bonus : 0) + (form.permission && STATES.rule.test(text) ? bonus : 0) + (form.agent && STATES.agent.test(text) ? bonus : 0);
  }
  const stated = form.unit ? UNITS.find((u) => u.unit === form.unit)?.stated : undefined;
  const quantity = stated ? stated.test(text) : STATES.amount.test(text);
  return (
    ((form.quantity || form.computation || form.unit !== null) && quantity ? bonus : 0) +
    (form.list && STATES.list.test(text) ? bonus : 0) +
    (form.permission && STATES.rule.test(text) ? bonus : 0) +
    (form.agent && STATES.agent.test(text) ? bonus : 0)
  );
}

/** A question asking what is 禁止 is answered by an article saying 不得: one modal group (question-forms.json) holds them all. */
function withModalEquivalents(present: Set<string>): Set<string> {
  for (const group of MODAL_GROUPS) if (group.some((w) => present.has(w))) for (const w of group) present.add(w);
  return present;
}

/**
 * The other way a number is written (`十年` ↔ `10年`, `三十日` ↔ `30日`): questions and statutes write
 * numbers either way (职工带薪年休假条例 says 满10年, people ask 满十年), so a term with a number is held by
 * a text holding its other form. null for terms without a number.
 */
export function otherNumberForm(term: string): string | null {
  const zh = /^([零〇一二三四五六七八九十百千万两]+)(.{0,3})$/u.exec(term);
  if (zh && !/[零〇一二三四五六七八九十百千万两]/u.test(zh[2])) {
    const n = parseChineseNumber(zh[1]);
    return n !== null && n >= 1 && zh[2] ? `${n}${zh[2]}` : null;
  }
  const ar = /^(\d{1,4})(.{1,3})$/u.exec(term);
  if (ar && /^\p{Script=Han}+$/u.test(ar[2])) return `${toChineseNumber(Number(ar[1]))}${ar[2]}`;
  return null;
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
  /** weight of a term only the title field holds (document title, chapter path); 1: as the text */
  titleWeight = 1,
): Map<string, ChunkEvidence> {
  const out = new Map<string, ChunkEvidence>();
  if (!tokens.length) return out;
  // idf over this collection's own chunks (lexical.ts corpusStats), as its BM25 list
  const total = corpusRows(db, [corpus]);
  const df = documentFrequencies(db, tokens, [corpus]);
  const queryIdf = new Map(tokens.map((t) => [t, idfOf(df.get(t) ?? 0, Math.max(total, 1))]));
  const select = 'SELECT id, key, title, text FROM search_items WHERE corpus = ? AND ';
  type Row = { id: number; key: string; title: string | null; text: string | null };
  const rows: Row[] =
    'scope' in which
      ? (db.prepare(`${select} scope = ?`).all(corpus, which.scope) as Row[])
      : which.keys.flatMap((k) => (db.prepare(`${select} key = ?`).all(corpus, k) as Row[]));
  const rowTokens = itemTokens(db, rows, { remember: true });
  const numbers = tokens.map((t) => [t, otherNumberForm(t)] as const).filter((x): x is readonly [string, string] => x[1] !== null);
  const held = (text: string, raw: string) => {
    const present = new Set(text.split(' '));
    for (const [t, other] of numbers) if (raw.includes(other)) present.add(t);
    return withLayEquivalents(withModalEquivalents(present), lay);
  };
  rows.forEach((r, i) => {
    const all = termEvidence(queryIdf, held(`${rowTokens[i].title} ${rowTokens[i].body}`, `${r.title ?? ''} ${r.text ?? ''}`)).evidence;
    // the chapter path names what its articles share: inside one document the text tells them apart
    const evidence = titleWeight < 1 ? titleWeight * all + (1 - titleWeight) * termEvidence(queryIdf, held(rowTokens[i].body, r.text ?? '')).evidence : all;
    out.set(r.key, { evidence, text: r.text ?? '' });
  });
  return out;
}

export function articleScore(evidence: number, rrfNorm: number, bonus: number, evidenceWeight: number): number {
  return evidenceWeight * evidence + (1 - evidenceWeight) * rrfNorm + bonus;
}
