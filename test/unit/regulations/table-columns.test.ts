import { describe, expect, it } from 'vitest';
import { findTableSegments, type PositionedLine } from '../../../src/core/regulations/tables';

/** a line of cells at the given x-ranges (points), as OCR boxes or a PDF's text runs */
const line = (y: number, cells: [string, number, number][], size = 11): PositionedLine => ({
  text: cells.map((c) => c[0]).join(' '),
  y,
  size,
  frags: cells.map(([str, x, right]) => ({ str, x, right, h: size })),
});

/**
 * Column borders of an unruled table: a wide header label ending close to where the next column's most indented
 * cell starts leaves the x-projection a gap narrower than the cell gap (a scan's padded boxes: SEALED36 `bianyaqi` at
 * 150 dpi, "正常负荷上限" ending at 307 pt, a box of the next column starting at 313; here 312), yet inside every line the two
 * columns stand far apart: two columns, not one cell "45.0 65.0".
 */
describe('unruled table columns', () => {
  const header = line(700, [['变压器', 58, 102], ['额定容量', 170, 219], ['正常负荷上限', 234, 307.4], ['事故过负荷', 317, 379], ['允许时间', 392, 443]]);
  const body = [
    ['城北站1号主变', '50', '45.0', '65.0', '30min', 317],
    ['城南站1号主变', '63', '56.7', '81.9', '2h', 317],
    ['江东站1号主变', '80', '72.0', '104.0', '24h', 316],
    ['城北站2号主变', '50', '45.0', '75.0', '30min', 312],
    ['临港站2号主变', '100', '90.0', '150.0', '10min', 319],
  ].map(([name, cap, normal, over, time, x], k) =>
    line(680 - k * 20, [[name as string, 57, 133], [cap as string, 169, 190], [normal as string, 234, 264], [over as string, x as number, (x as number) + 32], [time as string, 392, 431]]),
  );

  it('a sliver of a gap in the projection that every line keeps at a cell distance parts two columns', () => {
    const [seg] = findTableSegments([header, ...body]);
    expect(seg.columns).toHaveLength(5);
    expect(seg.rows.map((r) => r.join('|'))).toContain('城北站2号主变|50|45.0|75.0|30min');
  });

  it('a narrow gap some line bridges at less than a cell distance stays inside one column', () => {
    // one line's cell was boxed as two pieces 3.5 pt apart, right across the sliver (and it has a fifth cell of its
    // own, so it is among the widest lines): the two columns stay one there
    const split = line(560, [['湖滨站2号主变', 57, 133], ['240', 169, 193], ['216.0', 234, 305], ['360.0', 308.5, 345], ['24h', 392, 417], ['ODAF', 456, 494]]);
    const [seg] = findTableSegments([header, ...body, split]);
    expect(seg.columns.some(([a]) => a > 305 && a < 320)).toBe(false);
    expect(seg.rows.at(-1)!.join('|')).toBe('湖滨站2号主变|240|216.0 360.0|24h|ODAF');
  });
});
