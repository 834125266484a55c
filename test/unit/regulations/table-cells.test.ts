import { describe, expect, it } from 'vitest';
import { cleanOcrColumns } from '../../../src/core/regulations/table-cells';
import { cleanOcrCell } from '../../../src/core/regulations/pdf';

/** Column-wise clean-up of scanned tables: each rule fires on the column's evidence and leaves real text alone. */
describe('OCR table columns', () => {
  const col = (rows: string[][], c: number) => cleanOcrColumns(rows).map((r) => r[c]);

  it('a dash between two names is a dash in every cell once the column reads it so twice; "一线" stays', () => {
    const names = ['东郊—北岭一线', '西山一青龙二线', '南湖-白石三线', '北岭一金川一线', '青龙一玉泉二线'];
    expect(col(names.map((n) => [n]), 0)).toEqual(['东郊—北岭一线', '西山—青龙二线', '南湖—白石三线', '北岭—金川一线', '青龙—玉泉二线']);
    // one dash read is no evidence
    expect(col([['东郊—北岭一线'], ['西山一青龙二线'], ['南湖一白石三线']], 0)).toEqual(['东郊—北岭一线', '西山一青龙二线', '南湖一白石三线']);
    // "一" at a position no cell reads as a dash
    expect(col([['东郊一线'], ['西山二线'], ['南湖一线'], ['统一调度']], 0)).toEqual(['东郊一线', '西山二线', '南湖一线', '统一调度']);
  });

  it('in a column of numbers: digit lookalikes and lone dash marks; a text column keeps them', () => {
    expect(col([['a', '12'], ['b', 'o'], ['c', '1o5'], ['d', '-'], ['e', '一'], ['f', '3']], 1)).toEqual(['12', '0', '105', '—', '—', '3']);
    expect(col([['a', '主变'], ['b', 'o'], ['c', '一'], ['d', '线路']], 1)).toEqual(['主变', 'o', '一', '线路']);
    // model names with hyphens are left alone
    expect(col([['GW4-126'], ['GW5-252'], ['GW6-40.5']], 0)).toEqual(['GW4-126', 'GW5-252', 'GW6-40.5']);
  });

  it('comparison signs misread before a number, when the column prints them; a real leading 2 stays', () => {
    expect(col([['≤2400'], ['s3000'], ['<2600'], ['≤2800'], ['2450']], 0)).toEqual(['≤2400', '≤3000', '≤2600', '≤2800', '2450']);
    expect(col([['≥154'], ['2159'], ['≥164'], ['—']], 0)).toEqual(['≥154', '≥159', '≥164', '—']);
    expect(col([['≥20'], ['26'], ['≥35'], ['22']], 0)).toEqual(['≥20', '26', '≥35', '22']);
    // no signs in the column: nothing to go by
    expect(col([['s3000'], ['<2600'], ['2159']], 0)).toEqual(['s3000', '<2600', '2159']);
  });

  it('"+" before a number is "±" in a column printing ± where no cell has a minus or a slash', () => {
    expect(col([['±0.5'], ['+1'], ['+2'], ['±1']], 0)).toEqual(['±0.5', '±1', '±2', '±1']);
    // a one-sided limit beside asymmetric ones stays
    expect(col([['+7/-3'], ['±7'], ['+10'], ['±10']], 0)).toEqual(['+7/-3', '±7', '+10', '±10']);
    // one ± is no evidence
    expect(col([['±0.5'], ['+1'], ['+2']], 0)).toEqual(['±0.5', '+1', '+2']);
  });

  it('units named after people are capitals after a number', () => {
    expect(['500kv', '10kva', '35kw', '220V', 'kv'].map(cleanOcrCell)).toEqual(['500kV', '10kVA', '35kW', '220V', 'kv']);
  });
});
