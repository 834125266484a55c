import type { Db } from '../store/db';
import { documentFrequencies, idfOf, termEvidence } from '../search/lexical';
import { itemTokens } from '../search/tokens';
import { withLayEquivalents, type LayExpansion } from './lay-terms';
import { parseChineseNumber, toChineseNumber } from '../text/chinese-numbers';

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
 * when it asks who or where (由谁, 向哪里, 哪个部门).
 */

const ASKS_QUANTITY = /多少|多久|多长|(?<!哪)几[天日年月个次级倍周条]|(?<!哪)几个|几小时|最长|最多|最少|最高|最低|期限|比例|多大|几岁|标准是/;
// `怎么算`, `几成`: asks how an amount is computed, answered by the rule with its numbers (section choice)
const ASKS_COMPUTATION = /怎么算|如何算|怎样算|怎么计算|如何计算|按什么标准|什么标准|几成|几倍/;
const ASKS_LIST = /哪些|哪几|什么情形|什么情况|什么行为|包括什么|包括哪|有什么/;
const ENUMERATES = /下列|[(（][一二三四五六七八九十]+[)）]/;
const NUMERAL = '[\\d一二三四五六七八九十百千两半]';
const STATES_QUANTITY = /[\d一二三四五六七八九十百千两半]+\s*(?:个)?(?:米|千伏|伏|天|日|小时|周岁|岁|年|个月|月|周|%|％|‰|倍|元|万元|级|人|次)/;
const STATES_AMOUNT = new RegExp(`${STATES_QUANTITY.source}|百分之${NUMERAL}+`);
// `可以在…吗`, `能不能`, `违法吗`, `禁止哪些`: asks whether something is allowed; the answer is a rule
const ASKS_PERMISSION = /可以.{0,16}吗|能.{0,16}吗|能不能|能否|可不可以|行不行|允许|违法|合法|禁止|不得|不准/;
const STATES_RULE = /不得|禁止|严禁|不准|未经.{0,24}(?:批准|许可|同意)|必须经/;
// `由谁批准`, `向哪里申请`, `找哪个部门`: asks who acts or where to turn; the answer names a body and what it does
const ASKS_AGENT = /谁|哪个部门|哪个单位|哪个机构|哪一级|哪里|哪儿|什么部门|什么机构|什么单位|找哪/;
const STATES_AGENT = /由[^，。；：]{1,40}(?:负责|决定|批准|规定|组织|制定|颁发|认定|查处|处理|审批|核准|确定|支付|承担|协调)|向[^，。；：]{1,40}(?:申请|报告|提出|投诉|举报|备案|申报|报送)/;

/**
 * The unit a quantity question asks in (`几个小时` → 小时, `多少天` → 日): an article stating a number in
 * that unit answers it; one stating a number in another unit (`十五日` for `几个小时`) much less.
 */
const UNIT_ASKED: [RegExp, string][] = [
  [/(?:几|多少)个?(?:小时|钟头)/, '小时'],
  [/(?:几|多少)(?:天|日)|多少天/, '日'],
  [/(?:几|多少)个?月/, '月'],
  [/(?:几|多少)(?:年|周年)/, '年'],
  [/(?:几|多少)(?:周|星期)/, '周'],
  [/(?:几|多少)岁/, '岁'],
  [/(?:几|多少)(?:米|公尺)|多远|多宽/, '米'],
  [/几倍|多少倍/, '倍'],
  [/多少钱|罚多少|赔多少|多少元/, '元'],
  [/几成|多少比例|比例是|百分之几/, '%'],
];
const UNIT_STATED: Record<string, RegExp> = {
  小时: new RegExp(`${NUMERAL}+\\s*(?:个)?小时`),
  日: new RegExp(`${NUMERAL}+\\s*(?:天|日)`),
  月: new RegExp(`${NUMERAL}+\\s*个?月`),
  年: new RegExp(`${NUMERAL}+\\s*(?:周)?年(?!龄)`),
  周: new RegExp(`${NUMERAL}+\\s*(?:周|星期)|每周`),
  岁: new RegExp(`${NUMERAL}+\\s*(?:周)?岁`),
  米: new RegExp(`${NUMERAL}+\\s*(?:米|公里)`),
  倍: new RegExp(`${NUMERAL}+\\s*倍`),
  元: new RegExp(`${NUMERAL}+\\s*(?:万)?元|${NUMERAL}+\\s*倍|罚款`),
  '%': new RegExp(`百分之${NUMERAL}+|${NUMERAL}+\\s*[%％]|${NUMERAL}成`),
};

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
  const unit = UNIT_ASKED.find(([re]) => re.test(q))?.[1] ?? null;
  return { quantity: ASKS_QUANTITY.test(q), computation: ASKS_COMPUTATION.test(q), unit, list: ASKS_LIST.test(q), permission: ASKS_PERMISSION.test(q), agent: ASKS_AGENT.test(q) };
}

/**
 * Bonus for a chunk text that has what the question's form asks for (a bonus per cue met): a quantity,
 * an enumeration, a rule. `detailed` (the article to quote inside a locked document, sections.ts) adds
 * the finer cues: the quantity in the asked unit, a computed amount (百分之八十), a body that acts. The
 * choice between documents (retrieve.ts focus rule) keeps the coarse cues: the finer ones widened the
 * lead of a document holding the asked form but not the asked subject (`铁路线路两侧多远以内不能盖房子`
 * locked 电力设施保护条例's distances article instead of asking back; eval/collections-absent.eval.ts).
 */
export function formBonus(form: QuestionForm, text: string, bonus: number, detailed = false): number {
  if (!detailed) {
    return (form.quantity && STATES_QUANTITY.test(text) ? bonus : 0) + (form.list && ENUMERATES.test(text) ? bonus : 0) + (form.permission && STATES_RULE.test(text) ? bonus : 0);
  }
  const quantity = form.unit ? UNIT_STATED[form.unit].test(text) : STATES_AMOUNT.test(text);
  return (
    ((form.quantity || form.computation || form.unit !== null) && quantity ? bonus : 0) +
    (form.list && ENUMERATES.test(text) ? bonus : 0) +
    (form.permission && STATES_RULE.test(text) ? bonus : 0) +
    (form.agent && STATES_AGENT.test(text) ? bonus : 0)
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
