import { describe, expect, it } from 'vitest';
import { addUserWords, cleanToken, queryTokens, resetUserWords, segment, segmentForSearch } from '../../../src/core/text/segment';

describe('segment', () => {
  it('keeps 2-character domain words whole', () => {
    const t = segment('母线失压后投退压板');
    expect(t).toEqual(expect.arrayContaining(['母线', '失压', '投退', '压板']));
  });

  it('keeps mixed Chinese/ASCII/number terms as one normalised token', () => {
    expect(segment('500kV母线')).toEqual(['500kv', '母线']);
    expect(segment('N-1故障')).toContain('n-1');
    // full-width input is NFKC-normalised first
    expect(segment('２２０ＫＶ线路')).toEqual(['220kv', '线路']);
  });

  it('search mode adds sub-words of long words so queries and documents meet', () => {
    const t = segmentForSearch('特高压稳定限额');
    expect(t).toEqual(expect.arrayContaining(['特高压', '高压', '稳定', '限额']));
    expect(segment('特高压稳定限额')).not.toContain('高压');
  });

  it('drops stop words and punctuation', () => {
    const t = segment('请问，母线失压的时候怎么办？');
    expect(t).toEqual(['母线', '失压']);
    expect(cleanToken('，')).toBeNull();
    expect(cleanToken('的')).toBeNull();
  });

  it('query tokens are distinct and FTS-safe', () => {
    const t = queryTokens('"母线" AND( 母线 * - NEAR: x');
    expect(new Set(t).size).toBe(t.length);
    for (const tok of t) expect(tok).toMatch(/^[\p{L}\p{N}][\p{L}\p{N}\-._+]*$/u);
  });

  it('accepts user words at run time', () => {
    expect(segment('鄂渝背靠背工程')).not.toContain('鄂渝背靠背');
    try {
      addUserWords(['鄂渝背靠背']);
      expect(segment('鄂渝背靠背工程')).toContain('鄂渝背靠背');
    } finally {
      // the dictionary is process-global: leave it as the other tests expect it
      resetUserWords();
    }
    expect(segment('鄂渝背靠背工程')).not.toContain('鄂渝背靠背');
  });
});
