import { describe, expect, it } from 'vitest';
import { parseChineseNumber, toChineseNumber } from '../../../src/core/text/chinese-numbers';
import { normalizeText } from '../../../src/core/text/normalize';

describe('chinese numbers', () => {
  it.each([
    ['一百零二', 102], ['十', 10], ['十一', 11], ['二十', 20], ['一千二百六十', 1260], ['两', 2],
    ['三', 3], ['一万零五百', 10500], ['12', 12], ['１２', 12], ['一百', 100], ['二百零一', 201],
  ])('parses %s', (text, value) => {
    expect(parseChineseNumber(text)).toBe(value);
  });

  it('rejects non-numbers', () => {
    expect(parseChineseNumber('卧室')).toBeNull();
    expect(parseChineseNumber('')).toBeNull();
  });

  it('round-trips article numbers 1..1300', () => {
    for (let n = 0; n <= 1300; n++) expect(parseChineseNumber(toChineseNumber(n))).toBe(n);
    expect(toChineseNumber(102)).toBe('一百零二');
    expect(toChineseNumber(10)).toBe('十');
    expect(toChineseNumber(110)).toBe('一百一十');
    expect(toChineseNumber(1001)).toBe('一千零一');
  });

  it('normalises full-width text and strips control characters', () => {
    expect(normalizeText('５００ＫＶ\u0007 母线')).toBe('500kv 母线');
  });
});
