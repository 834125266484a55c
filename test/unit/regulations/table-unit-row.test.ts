import { describe, expect, it } from 'vitest';
import { findTableSegments, unitCell, type PositionedLine } from '../../../src/core/regulations/tables';

/** a line of cells at the given x-ranges (points), as OCR boxes or a PDF's text runs */
const line = (y: number, cells: [string, number, number][], size = 9.5): PositionedLine => ({
  text: cells.map((c) => c[0]).join(' '),
  y,
  size,
  frags: cells.map(([str, x, right]) => ({ str, x, right, h: size })),
});

/**
 * An unruled table's unit row as a scan reads it: a lone "V" is a "v" to the recogniser (the crop is scaled to its
 * height, and V differs from v only in size; SEALED37 `peizhongduan`, Carlito at 200 dpi, read "|v|%|min||"), and
 * the lone "s" got no box at all. The row is still the header's unit row — not the first body row, which shifted
 * every row of the table by one.
 */
describe('unruled table unit row read in the wrong case', () => {
  const header = line(700, [['试验项目', 60, 98], ['输入量', 212, 241], ['准确度', 267, 296], ['持续时间', 322, 360], ['采样间隔', 382, 420], ['判定方式', 452, 490]]);
  const body = [
    ['交流电压采集(DTU)', '100', '0.5', '15', '1', '逐点比对'],
    ['交流电流采集(DTU)', '5', '0.5', '30', '3', '抽样比对'],
    ['有功功率采集(DTU)', '100', '1.0', '60', '5', '主站召测'],
    ['直流电压采集(DTU)', '48', '0.5', '120', '60', '逐点比对'],
  ].map((cells, k) =>
    line(662 - k * 19, [[cells[0], 60, 150], [cells[1], 216, 232], [cells[2], 272, 287], [cells[3], 330, 344], [cells[4], 392, 402], [cells[5], 452, 490]]),
  );

  it('"v" under 输入量 makes a unit row: the header keeps two lines, the unit in its case, every body row in place', () => {
    const units = line(681, [['v', 223, 229], ['%', 276, 285], ['min', 334, 348]]);
    const [seg] = findTableSegments([header, units, ...body]);
    expect(seg.header?.lines).toHaveLength(2);
    expect(seg.header!.names.slice(1, 4)).toEqual(['输入量 V', '准确度 %', '持续时间 min']);
    expect(seg.rows).toHaveLength(4);
    expect(seg.rows[0].join('|')).toBe('交流电压采集(DTU)|100|0.5|15|1|逐点比对');
  });

  it('a second line that is no unit in either case stays a body row', () => {
    const other = line(681, [['vo', 223, 235], ['%', 276, 285], ['min', 334, 348]]);
    const [seg] = findTableSegments([header, other, ...body]);
    expect(seg.header).toBeUndefined();
    expect(seg.rows.map((r) => r.join('|'))).toContain('|vo|%|min||');
  });

  it('only letters whose capital is the small one enlarged change case', () => {
    expect(unitCell('v')).toBe('V');
    expect(unitCell('kv')).toBe('kV');
    expect(unitCell('mw')).toBeNull(); // m and M differ in shape: "mw" is no misread "MW"
    expect(unitCell('S')).toBe('s');
    expect(unitCell('kV')).toBe('kV');
    expect(unitCell('v.')).toBe('V'); // a speck beside it (150 dpi)
    expect(unitCell('5s')).toBeNull(); // a number with its unit is a body cell
    expect(unitCell('KA')).toBeNull();
    expect(unitCell('KVA')).toBe('kVA'); // kilo read as a capital before a unit of two letters
    expect(unitCell('KMH')).toBeNull();
    expect(unitCell('vo')).toBeNull();
  });
});

/**
 * Units besides the electrical ones under a header (temperature rise in K, wind speed m/s, return period 年, gas
 * humidity μL/L, field strength kV/m, noise dB(A)): the second line is the header's unit row, not body row 1
 * (stop 38: a Chromium-printed table with "|kVA|%|K|K|℃" under its names read every row one off).
 */
describe('unit rows of SI units', () => {
  const header = line(700, [['设备', 60, 90], ['温升', 160, 180], ['风速', 220, 240], ['重现期', 280, 310], ['湿度', 340, 360], ['噪声', 400, 420]]);
  const body = [
    ['一号主变', '55', '23.5', '30', '150', '50'],
    ['二号主变', '60', '27', '50', '300', '55'],
    ['三号主变', '65', '30', '100', '250', '60'],
  ].map((cells, k) => line(662 - k * 19, cells.map((c, i) => [c, i ? 100 + i * 60 : 60, i ? 120 + i * 60 : 100] as [string, number, number])));

  it('K, m/s, 年, μL/L and dB(A) under the names make a unit row', () => {
    const units = line(681, [['K', 165, 172], ['m/s', 222, 236], ['年', 288, 298], ['μL/L', 340, 360], ['dB(A)', 400, 424]]);
    const [seg] = findTableSegments([header, units, ...body]);
    expect(seg.header?.lines).toHaveLength(2);
    expect(seg.header!.names.slice(1)).toEqual(['温升 K', '风速 m/s', '重现期 年', '湿度 μL/L', '噪声 dB(A)']);
    expect(seg.rows).toHaveLength(3);
    expect(seg.rows[0].join('|')).toBe('一号主变|55|23.5|30|150|50');
  });

  it('fibre and lighting units (nm, dB/km, 芯, lx, W/m²) under the names make a unit row', () => {
    const units = line(681, [['nm', 165, 178], ['dB/km', 222, 244], ['芯', 288, 298], ['lx', 344, 352], ['W/m²', 400, 420]]);
    const [seg] = findTableSegments([header, units, ...body]);
    expect(seg.header?.lines).toHaveLength(2);
    expect(seg.header!.names.slice(1)).toEqual(['温升 nm', '风速 dB/km', '重现期 芯', '湿度 lx', '噪声 W/m²']);
    expect(seg.rows[0].join('|')).toBe('一号主变|55|23.5|30|150|50');
  });

  it('a number with such a unit stays a body cell', () => {
    expect(unitCell('K')).toBe('K');
    expect(unitCell('r/min')).toBe('r/min');
    expect(unitCell('55K')).toBeNull();
    expect(unitCell('30年')).toBeNull();
    expect(unitCell('12芯')).toBeNull();
    expect(unitCell('1310nm')).toBeNull();
  });
});
