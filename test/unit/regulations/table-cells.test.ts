import { describe, expect, it } from 'vitest';
import { cleanOcrColumns } from '../../../src/core/regulations/table-cells';
import { cleanOcrCell } from '../../../src/core/regulations/pdf';
import { repeatedHeaderLine } from '../../../src/core/regulations/tables';

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

  it('between two names a doubled dash is one and a speck touching the dash goes, when the column reads one dash twice', () => {
    const names = ['东郊—北岭断面', '龙门——西山断面', '北岭:一玉泉断面', '玉泉—西山断面', '青龙一龙门断面'];
    expect(col(names.map((n) => [n]), 0)).toEqual(['东郊—北岭断面', '龙门—西山断面', '北岭—玉泉断面', '玉泉—西山断面', '青龙—龙门断面']);
    // without a column of dashed names nothing changes (a list "甲、乙" or a sentence keeps its marks)
    expect(col([['说明:一般'], ['巡视——检查'], ['正常']], 0)).toEqual(['说明:一般', '巡视——检查', '正常']);
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

  it('signs read as "$" or "<" count as the column printing signs: "2" before a number of their size is ≥', () => {
    // 功率因数 thresholds at 150 dpi: not one ≥ read right, "$0.98" and "<0.98" — no number opens with "$" or "<"
    const pf = [['20.95'], ['20.95'], ['20.92'], ['0.95~1'], ['0.92'], ['<0.98'], ['$0.98'], ['20.90']];
    expect(col(pf, 0)).toEqual(['≥0.95', '≥0.95', '≥0.92', '0.95~1', '0.92', '≤0.98', '≤0.98', '≥0.90']);
    // one such mark is no evidence; real numbers with a leading 2 of the column's size stay
    expect(col([['20.95'], ['$0.98'], ['0.92']], 0)).toEqual(['20.95', '$0.98', '0.92']);
    expect(col([['<20'], ['$30'], ['25'], ['27']], 0)).toEqual(['≤20', '≤30', '25', '27']);
  });

  it('"+" before a number is "±" in a column printing ± where no cell has a minus or a slash', () => {
    expect(col([['±0.5'], ['+1'], ['+2'], ['±1']], 0)).toEqual(['±0.5', '±1', '±2', '±1']);
    // a one-sided limit beside asymmetric ones stays
    expect(col([['+7/-3'], ['±7'], ['+10'], ['±10']], 0)).toEqual(['+7/-3', '±7', '+10', '±10']);
    // one ± is no evidence
    expect(col([['±0.5'], ['+1'], ['+2']], 0)).toEqual(['±0.5', '+1', '+2']);
  });

  it('units named after people are capitals after a number, and alone in a unit row', () => {
    expect(['500kv', '10kva', '35kw', '220V', 'kv', 'Kw', 'v', 'kva用户'].map(cleanOcrCell)).toEqual(['500kV', '10kVA', '35kW', '220V', 'kV', 'kW', 'v', 'kva用户']);
  });

  it('a multiplication sign, a degree ring, a decimal point before a unit and a leading "一" as OCR misreads them', () => {
    expect(['3x120', 'YJV22-3X185', '2 x 50MVA', 'x120', 'GW4x'].map(cleanOcrCell)).toEqual(['3×120', 'YJV22-3×185', '2×50MVA', 'x120', 'GW4x']);
    expect(['偏差±2"C内运行', "40'C", '±2°°C', '90°℃', '3C认证'].map(cleanOcrCell)).toEqual(['偏差±2℃内运行', '40℃', '±2℃', '90℃', '3C认证']);
    expect(['0:38kV用户侧', '10:00—12:00', '0:4'].map(cleanOcrCell)).toEqual(['0.38kV用户侧', '10:00—12:00', '0:4']);
    expect(['—遥', '—般缺陷', '—', '东郊—西山线', '—10'].map(cleanOcrCell)).toEqual(['一遥', '一般缺陷', '—', '东郊—西山线', '—10']);
  });

  it('a header line repeated on a continuation page is known with one label misread; body rows are not', () => {
    const header = ['监测点', '标称电压', '允许偏差', '合格率', '不平衡度', '统计周期'];
    expect(repeatedHeaderLine(['监测点', '标称电压', '允许偏差', '合格率', '不平街度', '统计周期'], header)).toBe(true);
    expect(repeatedHeaderLine(['', 'kv', '%', '%', '%', ''], ['', 'kV', '%', '%', '%', ''])).toBe(true);
    // a label that lost a character, most labels misread, a body row, another column count
    expect(repeatedHeaderLine(['监测点', '标称电', '允许偏差', '合格率', '不平衡度', '统计周期'], header)).toBe(false);
    expect(repeatedHeaderLine(['监测占', '标称电庄', '允许偏羞', '合格季', '不平衡度', '统计周期'], header)).toBe(false);
    expect(repeatedHeaderLine(['一段母线', '10.5', '±7', '≥98', '≤2', '每日'], header)).toBe(false);
    expect(repeatedHeaderLine(header.slice(1), header)).toBe(false);
    // one filled cell is no evidence
    expect(repeatedHeaderLine(['', '%'], ['', '%'])).toBe(false);
  });

  it('"=" or a letter before a number is the sign of a column printing only one of ≥ / ≤', () => {
    expect(col([['≥98'], ['=99'], ['≥97']], 0)).toEqual(['≥98', '≥99', '≥97']);
    expect(col([['≥98'], ['=99'], ['≤97']], 0)).toEqual(['≥98', '=99', '≤97']);
    // a letter read for the sign ("W40", "K3") in such a column; model names opening with letters stay
    expect(col([['≥45'], ['W40'], ['≥50'], ['≥60']], 0)).toEqual(['≥45', '≥40', '≥50', '≥60']);
    expect(col([['≤2'], ['K3'], ['≤4']], 0)).toEqual(['≤2', '≤3', '≤4']);
    expect(col([['≥45'], ['T11'], ['T13'], ['≥60']], 0)).toEqual(['≥45', 'T11', 'T13', '≥60']);
    expect(col([['≥45'], ['W40'], ['≤50']], 0)).toEqual(['≥45', 'W40', '≤50']);
  });
  it('a sign read as nothing in a column whose numbers all carry it (one bare number for six signed at most)', () => {
    const sens = ['≥2.0', '≥1.5', '≥1.3', '—', '≥1.5', '≥1.3', '≥1.2'];
    expect(col([...sens.map((x) => [x]), ['2.0']], 0)).toEqual([...sens, '≥2.0']);
    // a column that prints both bare and signed numbers, or both signs, stays
    expect(col([['≥2.0'], ['≥1.5'], ['≥1.3'], ['≥1.5'], ['1.0'], ['1.2']], 0)).toEqual(['≥2.0', '≥1.5', '≥1.3', '≥1.5', '1.0', '1.2']);
    expect(col([['≥2.0'], ['≤1.5'], ['≥1.3'], ['≥1.5'], ['≥1.1'], ['≥1.2'], ['≥1.4'], ['1.0']], 0)).toEqual(['≥2.0', '≤1.5', '≥1.3', '≥1.5', '≥1.1', '≥1.2', '≥1.4', '1.0']);
    // "±" alike; a column with other numbers keeps its bare ones
    expect(col([['±3'], ['±5'], ['±5'], ['±5'], ['±3'], ['±2'], ['3']], 0)).toEqual(['±3', '±5', '±5', '±5', '±3', '±2', '±3']);
    expect(col([['±3'], ['±5'], ['±5'], ['±5'], ['±3'], ['±2'], ['3'], ['0.5%']], 0)).toEqual(['±3', '±5', '±5', '±5', '±3', '±2', '3', '0.5%']);
  });

  it('decimal points read ":" (one for five points at most) and a Cyrillic "З" read for 3 in a column of numbers', () => {
    const pts = ['0.3', '0.6', '0.5', '1.0', '6', '0.5', '1.0', '0.3', '0.6', '0.5', '1.0'];
    expect(col([...pts.map((x) => [x]), ['0:5'], ['1:0']], 0)).toEqual([...pts, '0.5', '1.0']);
    expect(col([['10:00'], ['11:30'], ['12:00'], ['0.5']], 0)).toEqual(['10:00', '11:30', '12:00', '0.5']);
    expect(col([['≤3'], ['З'], ['≤2'], ['≤3']], 0)).toEqual(['≤3', '3', '≤2', '≤3']);
    expect(col([['甲З'], ['乙'], ['丙']], 0)).toEqual(['甲З', '乙', '丙']);
  });

  it('a point read "," in model numbers, a lost "%" and a stray ring, each from its column', () => {
    expect(col([['ZR-YJV-8.7/15'], ['ZR-YJV-8,7/15'], ['YJLV22-8.7/15']], 0)).toEqual(['ZR-YJV-8.7/15', 'ZR-YJV-8.7/15', 'YJLV22-8.7/15']);
    expect(col([['1,2'], ['3,4'], ['0.5']], 0)).toEqual(['1,2', '3,4', '0.5']);
    const pct = ['≥97%', '≥95%', '≥97%', '—', '≥96%', '≥95%', '≥97%'];
    expect(col([...pct.map((x) => [x]), ['≥97']], 0)).toEqual([...pct, '≥97%']);
    expect(col([['≥97%'], ['≥95%'], ['≥97%'], ['≥96%'], ['≥95%'], ['≥97'], ['3'], ['4']], 0)).toEqual(['≥97%', '≥95%', '≥97%', '≥96%', '≥95%', '≥97', '3', '4']);
    expect(col([['-30～+40°'], ['-20～+40'], ['-10～+45'], ['-20～+40']], 0)).toEqual(['-30～+40', '-20～+40', '-10～+45', '-20～+40']);
    expect(col([['30°'], ['45°'], ['60'], ['90°']], 0)).toEqual(['30°', '45°', '60', '90°']);
  });

  it('a speck read as a point between a number and its bracket', () => {
    expect(['UP2000-115.(高原型)', 'GW121-2500（常温型）', '3.(2)'].map(cleanOcrCell)).toEqual(['UP2000-115(高原型)', 'GW121-2500（常温型）', '3(2)']);
  });

  it('a dash ending one name of a column is a speck; a column of such names keeps them', () => {
    expect(col([['一般缺陷—'], ['严重缺陷'], ['危急缺陷'], ['—']], 0)).toEqual(['一般缺陷', '严重缺陷', '危急缺陷', '—']);
    expect(col([['东郊—'], ['西山—'], ['南湖'], ['北岭']], 0)).toEqual(['东郊—', '西山—', '南湖', '北岭']);
  });

  it('a lone dash read twice is one dash where the column prints "—"', () => {
    expect(col([['—'], ['——'], ['0.85'], ['—'], ['— —']], 0)).toEqual(['—', '—', '0.85', '—', '—']);
    expect(col([['——'], ['甲'], ['乙']], 0)).toEqual(['——', '甲', '乙']);
  });

  it('a speck read as a point inside a whole number goes when the number without it is of the column\'s size', () => {
    const one = (cells: string[]) => col(cells.map((c) => [c]), 0);
    // 150 dpi reads of the tuning scans: "48.00" among 4800/6000…, "40.1" among 334/284…, "N1.15" among N103…
    expect(one(['4800', '6000', '3600', '48.00', '5400', '7200'])).toEqual(['4800', '6000', '3600', '4800', '5400', '7200']);
    expect(one(['334', '284', '40.1', '296', '318', '350'])).toEqual(['334', '284', '401', '296', '318', '350']);
    expect(one(['N103', 'N107', 'N111', 'N1.15', 'N119', 'N123'])).toEqual(['N103', 'N107', 'N111', 'N115', 'N119', 'N123']);
    // a real decimal of the column's size, a leading 0, too few whole numbers, or points in many cells stay
    expect(one(['40', '50', '63', '31.5', '80', '100'])).toEqual(['40', '50', '63', '31.5', '80', '100']);
    expect(one(['15', '20', '0.5', '25', '30', '35'])).toEqual(['15', '20', '0.5', '25', '30', '35']);
    expect(one(['4800', '6000', '48.00', '5400'])).toEqual(['4800', '6000', '48.00', '5400']);
    expect(one(['220', '2.23', '230', '110', '2.23', '48', '220'])).toEqual(['220', '2.23', '230', '110', '2.23', '48', '220']);
  });

  it('Ω read "Q" after a number where the column reads Ω after a number elsewhere; no such cell, no change', () => {
    expect(col([['a', '≤0.5Q'], ['b', '≤0.5Ω'], ['c', '≤200mQ'], ['d', '≤1000Q·m'], ['e', '2QF']], 1)).toEqual(['≤0.5Ω', '≤0.5Ω', '≤200mΩ', '≤1000Ω·m', '2QF']);
    expect(col([['a', '≤0.5Q'], ['b', '≤10Q'], ['c', '4QF']], 1)).toEqual(['≤0.5Q', '≤10Q', '4QF']);
  });

  it('a unit re-spelled as the unit vocabulary spells it: case, Ω read Q or twice, the interpunct read as a point or hyphen', () => {
    // a column of units: "PC" is pC, "dBmv" dBmV, "w" W; a column of names keeps its capitals
    expect(col([['a', 'pC'], ['b', 'dB'], ['c', 'PC'], ['d', 'dBmv'], ['e', 'w']], 1)).toEqual(['pC', 'dB', 'pC', 'dBmV', 'W']);
    expect(col([['a', 'PC'], ['b', '主变'], ['c', 'w']], 1)).toEqual(['PC', '主变', 'w']);
    // after a number: two characters at least, and exactly one unit folding to the reading ("MQ" is mΩ or MΩ)
    expect(col([['≤500Q·m'], ['≤750QΩ·m'], ['≤1000Ω-m'], ['≤500Ω.m']], 0)).toEqual(['≤500Ω·m', '≤750Ω·m', '≤1000Ω·m', '≤500Ω·m']);
    expect(col([['≤0.5Q'], ['≤3MQ'], ['2QF'], ['2.5lx·']], 0)).toEqual(['≤0.5Q', '≤3MQ', '2QF', '2.5lx·']);
    // one character of the unit lost where the column prints that one unit after its numbers; another unit there: stays
    expect(col([['≤500Ω·m'], ['≤1000-m'], ['≤750Ω·m']], 0)).toEqual(['≤500Ω·m', '≤1000Ω·m', '≤750Ω·m']);
    expect(col([['≤500Ω·m'], ['≤1000-m'], ['≤750Ω·m'], ['20kV']], 0)).toEqual(['≤500Ω·m', '≤1000-m', '≤750Ω·m', '20kV']);
    expect(col([['≤500Ω·m'], ['≤1000-m']], 0)).toEqual(['≤500Ω·m', '≤1000-m']);
  });

  it('letters read for the sign before numbers of the column\'s size, their digits\' lookalikes too; "3OO" counts as a number', () => {
    const read = ['≤50', 'Sso', 'Kso', '≤50', 'K50', 'K40', 'K40', '≤30', '≤30', 'K30'];
    expect(col(read.map((x) => [x]), 0)).toEqual(['≤50', '≤50', '≤50', '≤50', '≤50', '≤40', '≤40', '≤30', '≤30', '≤30']);
    // a number with its unit after the letter; "5" for the sign where the number without it is of the column's size
    expect(col([['≤500Ω·m'], ['K500Ω·m'], ['≤1000Ω·m'], ['≤750Ω·m']], 0)).toEqual(['≤500Ω·m', '≤500Ω·m', '≤1000Ω·m', '≤750Ω·m']);
    expect(col([['≤5'], ['53'], ['≤10'], ['≤5'], ['53']], 0)).toEqual(['≤5', '≤3', '≤10', '≤5', '≤3']);
    // the column's median at its top (≤10, ≤10, ≤5, ≤5, ≤10): "53" is within its range without the 5, not with it
    expect(col([['≤10'], ['≤10'], ['≤5'], ['53'], ['≤5'], ['≤10']], 0)).toEqual(['≤10', '≤10', '≤5', '≤3', '≤5', '≤10']);
    expect(col([['≥20'], ['≥35'], ['26'], ['≥30']], 0)).toEqual(['≥20', '≥35', '26', '≥30']);
    // names of another size stay ("T11" among ≥45, ≥60), a trailing "s" is a unit, two signs in the column: no sign to give
    expect(col([['≥45'], ['T11'], ['T13'], ['T12'], ['≥60']], 0)).toEqual(['≥45', 'T11', 'T13', 'T12', '≥60']);
    expect(col([['≤5'], ['Ks'], ['≤3'], ['K2s']], 0)).toEqual(['≤5', 'Ks', '≤3', '≤2s']);
    expect(col([['≤5'], ['K4'], ['≥3'], ['K2']], 0)).toEqual(['≤5', 'K4', '≥3', 'K2']);
    // 0 read "O" in a third of a column of numbers
    expect(col([['500'], ['3OO'], ['3OO'], ['200'], ['100'], ['8o']], 0)).toEqual(['500', '300', '300', '200', '100', '80']);
    expect(col([['主变'], ['3OO'], ['线路'], ['母线']], 0)).toEqual(['主变', '3OO', '线路', '母线']);
  });

  it('in a column of codes an "I" between a capital and a digit is a one ("SI3-M" for S13-M); other columns keep it', () => {
    expect(col([['SI3-M-100/10'], ['SBH15-M-400/10'], ['SCBI3-100/10'], ['S20-M-315/10'], ['YI0W-200/496'], ['GIS'], ['Ⅱ母']], 0)).toEqual([
      'S13-M-100/10',
      'SBH15-M-400/10',
      'SCB13-100/10',
      'S20-M-315/10',
      'Y10W-200/496',
      'GIS',
      'Ⅱ母',
    ]);
    // no cell shows a capital before a digit: no evidence the column prints codes
    expect(col([['SI3'], ['AI2'], ['GIS']], 0)).toEqual(['SI3', 'AI2', 'GIS']);
  });

  it('"0.5le" after a number is the rated current 0.5Ie (capital I read "l"); "le" in a name stays', () => {
    expect(col([['a', '0.5le'], ['b', '6lle'], ['c', '0.4ln'], ['d', 'Cable'], ['e', '1200']], 1)).toEqual(['0.5Ie', '6Ie', '0.4In', 'Cable', '1200']);
  });
});
