/**
 * The unit vocabulary of regulation tables is data (src/core/regulations/vocab/units.json): a unit added there makes
 * a header cell read as a unit — and a line of such cells the header's unit row — with no code change.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PositionedLine } from '../../../src/core/regulations/tables';
import { parseUnits, unitMatchers, UNITS } from '../../../src/core/regulations/units';
import unitsRaw from '../../../src/core/regulations/vocab/units.json' with { type: 'json' };

const line = (y: number, cells: [string, number, number][], size = 9.5): PositionedLine => ({
  text: cells.map((c) => c[0]).join(' '),
  y,
  size,
  frags: cells.map(([str, x, right]) => ({ str, x, right, h: size })),
});

// a lighting table: 光通量 in lm (a unit the shipped file does not name), 照度 in lx
const header = line(700, [['灯具', 60, 90], ['光通量', 160, 190], ['照度', 240, 260]]);
const units = line(681, [['lm', 168, 178], ['lx', 244, 252]]);
const body = [
  ['投光灯', '12000', '200'],
  ['泛光灯', '8000', '150'],
  ['应急灯', '600', '30'],
].map((cells, k) => line(662 - k * 19, cells.map((c, i) => [c, [60, 165, 242][i], [100, 190, 258][i]] as [string, number, number])));

const withLumen = { ...unitsRaw, header: { ...unitsRaw.header, lighting: [...unitsRaw.header.lighting, 'lm'] } };

describe('unit vocabulary as data', () => {
  afterEach(() => {
    vi.doUnmock('../../../src/core/regulations/vocab/units.json');
    vi.resetModules();
  });

  it('the shipped file: lm is no unit, so the line under the names is read as a body row', async () => {
    const { findTableSegments, unitCell } = await import('../../../src/core/regulations/tables');
    expect(unitCell('lm')).toBeNull();
    const [seg] = findTableSegments([header, units, ...body]);
    expect(seg.header?.lines.length ?? 0).toBeLessThan(2);
    expect(seg.rows.map((r) => r.join('|'))).toContain('|lm|lx');
  });

  it('lm added to units.json: the same line is the unit row, every body row in place', async () => {
    vi.resetModules();
    vi.doMock('../../../src/core/regulations/vocab/units.json', () => ({ default: withLumen }));
    const { findTableSegments, unitCell } = await import('../../../src/core/regulations/tables');
    expect(unitCell('lm')).toBe('lm');
    expect(unitCell('(lm)')).toBe('(lm)');
    expect(unitCell('800lm')).toBeNull();
    const [seg] = findTableSegments([header, units, ...body]);
    expect(seg.header?.lines).toHaveLength(2);
    expect(seg.header!.names).toEqual(['灯具', '光通量 lm', '照度 lx']);
    expect(seg.rows.map((r) => r.join('|'))).toEqual(['投光灯|12000|200', '泛光灯|8000|150', '应急灯|600|30']);
  });

  it('OCR cells re-spell a unit only the data names: "LM" and "800LM" are lm once lm is added, with no code change', async () => {
    const column = [['lx'], ['dB'], ['LM'], ['800LM']];
    const shipped = await import('../../../src/core/regulations/table-cells');
    expect(shipped.cleanOcrColumns(column).map((r) => r[0])).toEqual(['lx', 'dB', 'LM', '800LM']);
    vi.resetModules();
    vi.doMock('../../../src/core/regulations/vocab/units.json', () => ({ default: withLumen }));
    const { cleanOcrColumns } = await import('../../../src/core/regulations/table-cells');
    expect(cleanOcrColumns(column).map((r) => r[0])).toEqual(['lx', 'dB', 'lm', '800lm']);
  });

  it('the matchers are built from the data alone', () => {
    const m = unitMatchers(parseUnits(withLumen));
    expect(m.cell.test('单位：lm')).toBe(true);
    expect(unitMatchers(UNITS).cell.test('单位：lm')).toBe(false);
    expect('0:38kV'.replace(unitMatchers(UNITS).decimalColon, '.')).toBe('0.38kV');
    expect('10:00'.replace(unitMatchers(UNITS).decimalColon, '.')).toBe('10:00');
    expect(unitMatchers(UNITS).tail.exec('额定电压 kV')?.[1]).toBe('kV');
  });

  it('a broken file stops with a Chinese message naming the field', () => {
    expect(() => parseUnits({ ...unitsRaw, header: { ...unitsRaw.header, lighting: [''] } })).toThrow(/词表 units\.json 无效 — header\.lighting\.0/);
    expect(() => parseUnits({ ...unitsRaw, kilos: ['V'] })).toThrow(/词表 units\.json 无效/);
  });
});
