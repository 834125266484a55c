/**
 * Chinese numerals as used in statute labels (第一百零二条, 第十条之一) and device counts
 * (两盏, 3个). Handles 〇一二两三四五六七八九十百千万 and full-width/ASCII digits.
 */
const DIGITS: Record<string, number> = {
  零: 0, 〇: 0, 一: 1, 壹: 1, 二: 2, 贰: 2, 两: 2, 俩: 2, 三: 3, 叁: 3, 四: 4, 肆: 4,
  五: 5, 伍: 5, 六: 6, 陆: 6, 七: 7, 柒: 7, 八: 8, 捌: 8, 九: 9, 玖: 9,
};
const UNITS: Record<string, number> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const BIG_UNITS: Record<string, number> = { 万: 10_000, 萬: 10_000, 亿: 100_000_000 };

export const CHINESE_NUMERAL_CHARS = '零〇一壹二贰两俩三叁四肆五伍六陆七柒八捌九玖十拾百佰千仟万萬亿';

/** Returns the integer value, or null when `text` is not a number. */
export function parseChineseNumber(text: string): number | null {
  const s = text.trim().replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  if (!s) return null;
  if (/^\d+$/.test(s)) return Number(s);
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const ch of s) {
    if (ch in DIGITS) {
      digit = DIGITS[ch];
    } else if (ch in UNITS) {
      // a bare 十 means 10 (十条), 一百零十 is not a thing but 一十 is
      section += (digit < 0 ? 1 : digit) * UNITS[ch];
      digit = -1;
    } else if (ch in BIG_UNITS) {
      section += Math.max(digit, 0);
      total += (section || 1) * BIG_UNITS[ch];
      section = 0;
      digit = -1;
    } else if (/\d/.test(ch)) {
      // mixed like 1百 is rare; treat as digit
      digit = Number(ch);
    } else {
      return null;
    }
  }
  return total + section + Math.max(digit, 0);
}

/** 102 -> 一百零二, 10 -> 十, 11 -> 十一, 20 -> 二十 (the way statutes label articles). */
export function toChineseNumber(n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`not a non-negative integer: ${n}`);
  const d = '零一二三四五六七八九';
  if (n < 10) return d[n];
  if (n >= 100_000_000) return toChineseNumber(Math.floor(n / 100_000_000)) + '亿' + rest(n % 100_000_000, 10_000_000);
  if (n >= 10_000) return toChineseNumber(Math.floor(n / 10_000)) + '万' + rest(n % 10_000, 1000);
  const parts: string[] = [];
  const units = [
    [1000, '千'],
    [100, '百'],
    [10, '十'],
  ] as const;
  let zero = false;
  let remaining = n;
  for (const [value, name] of units) {
    const q = Math.floor(remaining / value);
    remaining %= value;
    if (q > 0) {
      if (zero) parts.push('零');
      zero = false;
      // 十一 not 一十一 at the start
      parts.push(value === 10 && q === 1 && parts.length === 0 ? name : d[q] + name);
    } else if (parts.length > 0) {
      zero = true;
    }
  }
  if (remaining > 0) {
    if (zero) parts.push('零');
    parts.push(d[remaining]);
  }
  return parts.join('');

  function rest(r: number, highestUnit: number): string {
    if (r === 0) return '';
    const s = toChineseNumber(r);
    // 一万零五百: insert 零 when the next group does not start at its highest unit
    return r < highestUnit ? '零' + (s.startsWith('十') ? '一' + s : s) : s;
  }
}
