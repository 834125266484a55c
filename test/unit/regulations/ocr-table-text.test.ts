import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { dropTrailingSpeck } from '../../../src/core/ocr/read-image';
import { fillMergedDown } from '../../../src/core/regulations/tables';
import { tempContext, tempDir } from '../../helpers';
import { SCAN_TABLE_DOCS, TABTEXT_TUNING_DOCS, expectedRows, tableId, writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';
import { scanOf } from '../../fixtures/scans';

/**
 * Cell text of scanned tables through the real pipeline (pdfkit document -> 200 dpi scan, +0.4°, speckle,
 * JPEG 80 -> OCR in the ONNX worker -> table): comparison signs decided from their ink, lone dashes printed
 * thin (明体) or boxed off-centre by the detector, long dashes between digits, specks at a cell's end, and no
 * blank number cell filled from the cell above.
 */
let ctx: ReturnType<typeof tempContext>;
let dir: string;
beforeAll(() => {
  ctx = tempContext();
  dir = tempDir('gridcode-tabtext-');
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const squash = (s: string) => s.replace(/[\s\u3000]+/g, '').normalize('NFKC');

async function scannedRows(doc: DocSpec): Promise<{ got: string[][]; want: string[][] }> {
  const [{ file }] = await writeStructureDocs(dir, { docs: [doc] });
  const scan = path.join(dir, `${doc.name}-scan.pdf`);
  fs.writeFileSync(scan, await scanOf(fs.readFileSync(file), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 }));
  const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
  expect(r.status).toBe('imported');
  const spec = doc.tables[0];
  const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: tableId(spec) });
  return { got: t.rows.map((x) => x.cells.map(squash)), want: expectedRows(spec).map((row) => row.map(squash)) };
}

describe('scanned table cells', { timeout: 180_000 }, () => {
  it('a 明体 three-line table: faint lone dashes, "⩽" read "<" and made "≤" by its ink, "—" between times', async () => {
    // before these rules the scan read 0 of 20 rows (dashes blank and filled from above, ≤ as "<", 00:00-01:00)
    const { got, want } = await scannedRows(SCAN_TABLE_DOCS.find((d) => d.name === 'fuhe')!);
    expect(got).toHaveLength(want.length);
    const exact = got.filter((row, i) => row.join('|') === want[i].join('|')).length;
    expect(exact).toBeGreaterThanOrEqual(17);
    // no cell is another row's value: a blank stays blank rather than taking the number above it
    for (let c = 1; c < want[0].length; c++) got.forEach((row, i) => expect(row[c] !== want[i][c] && want.some((w) => w[c] === row[c])).toBe(false));
    expect(got.map((r) => r[0])).toEqual(want.map((r) => r[0]));
  });

  it('a 楷体 three-line table: a "2" whose base stands apart stays 2, ± in a column of ±; an unruled table in a monospaced face: its short lone dashes', async () => {
    // before: the 楷体 220 read "≥20" and ±1 "+1" (1 of 18 rows); the monospaced "—" was too short for a dash (11 of 16)
    for (const name of ['zhiliu', 'fengsu']) {
      const { got, want } = await scannedRows(TABTEXT_TUNING_DOCS.find((d) => d.name === name)!);
      expect(got.filter((row, i) => row.join('|') === want[i].join('|')).length).toBeGreaterThanOrEqual(want.length - 1);
    }
  });

  it('a "≥" in a column with no other sign is read from its ink, not as "2"', async () => {
    const doc: DocSpec = {
      name: 'qiyong',
      title: '设备启用条件规定',
      producer: 'pdfkit-ruled',
      heldOut: false,
      intro: ['第一章 总则', '第一条 设备启用条件见表1。'],
      tables: [
        {
          caption: '表1 设备启用条件',
          header: [['设备', '绝缘电阻 MΩ', '试验电压 kV', '持续时间 min']],
          rows: ['主变压器', '断路器', '隔离开关', '电流互感器', '电压互感器', '避雷器'].map((kind, i) => [
            kind,
            i === 2 ? '≥52' : `${[2500, 1000, 300, 500, 1500, 1000][i]}`,
            i === 4 ? '≤28' : `${[85, 42, 95, 68, 55, 76][i]}`,
            `${[1, 5, 1, 1, 3, 1][i]}`,
          ]),
          widths: [120, 90, 90, 90],
          families: ['symbols'],
        },
      ],
    };
    const { got, want } = await scannedRows(doc);
    expect(got[2][1]).toBe('≥52');
    expect(got[4][2]).toBe('≤28');
    expect(got.map((r) => r.join('|'))).toEqual(want.map((r) => r.join('|')));
  });
});

describe('cell clean-up helpers', () => {
  it('a mark read unsure at a line\'s end after a digit or Han is a speck; a sure one, or a lone mark, stays', () => {
    const line = (text: string, conf: number[]) => ({ text, confidence: 0.9, charConfidence: conf, charX: conf.map((_, i) => i / conf.length) });
    expect(dropTrailingSpeck(line('11:00—12:00°', [...Array(11).fill(1), 0.25])).text).toBe('11:00—12:00');
    expect(dropTrailingSpeck(line('30°', [1, 1, 0.97])).text).toBe('30°');
    expect(dropTrailingSpeck(line('-', [0.3])).text).toBe('-');
    expect(dropTrailingSpeck(line('N-', [1, 0.3])).text).toBe('N-');
  });
  it('a scanned table fills no blank number cell from above; names merged over rows still fill', () => {
    const rows = () => [
      ['东郊', '主变', '12'],
      ['', '线路', ''],
      ['西山', '主变', '14'],
    ];
    const printed = rows();
    fillMergedDown(printed);
    expect(printed.map((r) => r.join('|'))).toEqual(['东郊|主变|12', '东郊|线路|', '西山|主变|14']);
    const numbers = [
      ['东郊', '12', '3'],
      ['西山', '', '4'],
      ['南湖', '14', '5'],
    ];
    const scanned = numbers.map((r) => [...r]);
    fillMergedDown(scanned, true);
    expect(scanned[1][1]).toBe('');
    fillMergedDown(numbers);
    expect(numbers[1][1]).toBe('12');
  });
});
