/**
 * Which regulation a document is an edition of, and when it took effect — read from what a document
 * says about itself: its title, its document number (GB 26860-2011 → GB 26860, the year dropped) and
 * dates (a date in the file name, 自2024年1月1日起施行, the dates of the revisions listed under the
 * title, the year of the document number).
 */

/** 2023-12-11 from 2023年12月11日 / 2023-12-11 / 2023.12.11 (null when not a real date). */
function isoDate(y: string, m: string, d: string): string | null {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const CN_DIGIT: Record<string, string> = { 〇: '0', 零: '0', 一: '1', 二: '2', 三: '3', 四: '4', 五: '5', 六: '6', 七: '7', 八: '8', 九: '9' };

/** 二〇二三年十二月十一日 → 2023年12月11日 (dates written in Chinese numerals). */
function arabicDates(text: string): string {
  return text.replace(/([〇零一二三四五六七八九]{4})年([一二三四五六七八九十]{1,3})月([一二三四五六七八九十]{1,3})日/g, (_m, y: string, mo: string, d: string) => {
    const num = (s: string) => {
      if (s === '十') return '10';
      if (s.startsWith('十')) return `1${CN_DIGIT[s[1]]}`;
      if (s.endsWith('十')) return `${CN_DIGIT[s[0]]}0`;
      if (s.includes('十')) return `${CN_DIGIT[s[0]]}${CN_DIGIT[s[2]]}`;
      return CN_DIGIT[s] ?? s;
    };
    return `${[...y].map((c) => CN_DIGIT[c] ?? c).join('')}年${num(mo)}月${num(d)}日`;
  });
}

const DATE_IN_NAME = /(?:^|[(（\s_\-])((?:19|20|21)\d{2})[-.年_]([01]?\d)[-.月_]([0-3]?\d)日?(?:[)）\s_]|$)/;
const DATE_CN = /((?:19|20|21)\d{2})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/g;

/** The date a file name carries: 专利法实施细则(2023-12-11).md → 2023-12-11. */
export function dateFromFileName(fileName: string): string | null {
  const base = fileName.replace(/\.[a-z0-9]+$/i, '');
  const m = DATE_IN_NAME.exec(base);
  return m ? isoDate(m[1], m[2], m[3]) : null;
}

/**
 * The effective date a document states: "自2024年1月1日起施行/实施" anywhere, else the latest date in
 * its opening lines (a statute lists 公布 and each 修正/修订 under its title), else the year of its
 * document number (GB/T 1234-2011 → 2011-01-01; a year only orders editions).
 */
export function dateFromText(text: string, docNumber: string | null = null): string | null {
  const t = arabicDates(text);
  const effective = /自\s*((?:19|20|21)\d{2})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日\s*起\s*(?:施行|实施|执行|生效)/.exec(t);
  const head = t.slice(0, 600);
  const headDates = [...head.matchAll(DATE_CN)].map((m) => isoDate(m[1], m[2], m[3])).filter((d): d is string => d !== null);
  const latestHead = headDates.sort().at(-1) ?? null;
  const stated = effective ? isoDate(effective[1], effective[2], effective[3]) : null;
  // an amended statute keeps its original 施行 article; the revisions under the title are later
  if (stated && latestHead && latestHead > stated) return latestHead;
  if (stated) return stated;
  if (latestHead) return latestHead;
  const year = docNumber ? /[-—－](\d{4})$/.exec(docNumber)?.[1] : undefined;
  return year ? `${year}-01-01` : null;
}

const DOC_NUMBER = /\b((?:GB|DL|Q\/GDW|Q\/CSG|NB|JB|GB\/T|DL\/T|NB\/T|JB\/T|IEC|ISO)\s*[\d.]+(?:\.\d+)*)\s*[-—－]\s*((?:19|20)\d{2})\b/i;

/** GB 26860-2011 (normalised: upper case, one space, ASCII dash) from the title or opening text. */
export function docNumberOf(title: string, text: string): string | null {
  const m = DOC_NUMBER.exec(title) ?? DOC_NUMBER.exec(text.slice(0, 800));
  if (!m) return null;
  return `${m[1].toUpperCase().replace(/\s+/g, ' ').replace(/^([A-Z/]+)\s*/, '$1 ')}-${m[2]}`;
}

/** The number without its year: what stays the same across editions of one standard. */
export function docNumberKey(docNumber: string | null): string | null {
  return docNumber ? docNumber.replace(/-\d{4}$/, '') : null;
}

/**
 * The title as editions share it: no spaces or punctuation, no edition marks ((2023年修订), 2019版,
 * 修订稿, (试行) is kept: a trial rule and the final rule are different regulations), no 中华人民共和国.
 */
export function titleKey(title: string): string {
  return title
    .normalize('NFKC')
    .replace(/[(（\[【]\s*(?:(?:19|20)\d{2}\s*年?\s*(?:修订|修正|修改|版|本)?|修订|修正|修订版|修订稿|新版)\s*[)）\]】]/g, '')
    .replace(/(?:19|20)\d{2}\s*(?:年版|版|年修订|年修正)/g, '')
    .replace(/\b(?:GB|DL|Q\/GDW|Q\/CSG|NB|JB)(?:\/T)?\s*[\d.]+\s*[-—－]\s*\d{4}\b/gi, '')
    .replace(/^中华人民共和国/, '')
    .replace(/[\s·・,，。.:：;；、"“”'‘’《》〈〉()（）[\]【】\-—_]/g, '')
    .toLowerCase();
}
