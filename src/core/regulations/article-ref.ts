import { parseChineseNumber, toChineseNumber } from '../text/chinese-numbers';

/**
 * Article references in a query: `电力设施保护条例第十条`, `《电力法》第 3 条`, `第十条之一`,
 * `第十二条第二款`. A reference names one unit, so search resolves it directly instead of
 * hoping the words 第/十/条 rank it.
 */
export interface ArticleRef {
  /** the law / regulation named before the article, normalised (no 《》, no 中华人民共和国), or null */
  law: string | null;
  /** the article label as regulations write it: 第十条, 第十条之一 */
  label: string;
  /** 第N款 of that article (1-based), when given */
  paragraph: number | null;
  /** the reference as written in the query */
  text: string;
}

const NUM = '[零〇一二两三四五六七八九十百千万0-9０-９]+';
const REF = new RegExp(`(《[^》]{2,40}》|[\\p{Script=Han}A-Za-z0-9（）()]{2,40}?)?\\s*第\\s*(${NUM})\\s*条(?:\\s*之\\s*(${NUM}))?(?:\\s*第\\s*(${NUM})\\s*款)?`, 'gu');

/** Title form used to compare a named law with regulation titles. */
export function normLawTitle(t: string): string {
  return t
    .normalize('NFKC')
    // 关于《中华人民共和国刑法》… names the same law as 关于《刑法》…
    .replace(/《中华人民共和国/g, '《')
    .replace(/[《》〈〉"“”\s]/g, '')
    .replace(/[（(]\d{4}[-年.]\d{1,2}[-月.]\d{1,2}日?[)）]$/, '')
    .replace(/^中华人民共和国/, '');
}

function numeral(s: string): string | null {
  const n = parseChineseNumber(s);
  return n === null || n <= 0 || n > 9999 ? null : toChineseNumber(n);
}

/** Words a query puts before a law name that are not part of it (查询/请问/根据…). */
const LEAD = /^(请问|查询|查找|查看|根据|按照|依据|关于|参照|看看|看一下|看下|找|查|按)+/;

export function parseArticleRefs(query: string): ArticleRef[] {
  const out: ArticleRef[] = [];
  for (const m of query.normalize('NFKC').matchAll(REF)) {
    const n = numeral(m[2]);
    if (!n) continue;
    const sub = m[3] ? numeral(m[3]) : null;
    if (m[3] && !sub) continue;
    const para = m[4] ? parseChineseNumber(m[4]) : null;
    let law: string | null = m[1] ? normLawTitle(m[1].replace(LEAD, '')) : null;
    // "本规定第十条" / "该条例第三条" name no particular law
    if (law && (/^(本|该|此|上述|前述)/.test(law) || law.length < 2)) law = null;
    out.push({ law, label: `第${n}条${sub ? `之${sub}` : ''}`, paragraph: para && para > 0 ? para : null, text: m[0].trim() });
  }
  return out;
}

/**
 * Does a regulation title match the law named in a reference? Exact match after normalising,
 * or one contains the other (条例 named without its 实施细则 etc. must not match a longer title
 * only by accident: the shorter side must cover most of the longer one).
 */
export function titleMatchesLaw(title: string, law: string): boolean {
  // a part of a multi-file code ("中华人民共和国民法典 · 合同编") answers to the code's name too
  const parts = title.split(/\s*[·・]\s*/);
  if (parts.length > 1 && normLawTitle(parts[0]) === law) return true;
  const t = normLawTitle(title);
  if (t === law) return true;
  if (t.includes(law)) return law.length >= Math.min(4, t.length) && law.length / t.length >= 0.5;
  if (law.includes(t)) return t.length >= 4;
  return false;
}
