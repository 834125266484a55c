import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';
import { expectedRows, writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';
import { scanOf } from '../../fixtures/scans';

/**
 * Lone marks in ruled cells through the real pipeline (pdfkit print → 150 dpi scan → import with the ONNX OCR →
 * `regulations.table`): a cell holding only "0" or "1" scores low as text with nothing beside it, and the
 * detector gave it no box, so the cell came back empty. The ink of such a cell is read by the recogniser alone.
 */
const stations = ['东湖', '西岭', '南山', '北岭', '金川', '桃园', '龙门', '青龙', '白石', '玉泉', '东郊', '城西'];
const LONE: DocSpec = {
  name: 'gudian',
  title: '开关柜缺陷统计管理规定',
  producer: 'pdfkit-plain',
  heldOut: false,
  intro: ['第一章 总则', '第一条 开关柜缺陷统计见表3-2。'],
  tables: [
    {
      caption: '表3-2 开关柜缺陷统计',
      header: [['变电站', '间隔', '台数', '危急', '严重', '一般']],
      // lone "1" and "0" beside other numbers, as in a statistics table
      rows: stations.map((s, i) => [`${s}变电站`, `${i % 2 ? 35 : 10}kV出线`, String(6 + ((i * 7) % 9)), String(i % 3 === 1 ? 1 : 2 + (i % 4)), String(i % 2), String(3 + (i % 5))]),
      widths: [150, 90, 70, 60, 60, 60],
      families: ['whitespace'],
    },
  ],
};

let ctx: ReturnType<typeof tempContext>;
let dir: string;
let printed: string;

beforeAll(async () => {
  ctx = tempContext();
  dir = tempDir('gridcode-lone-marks-');
  [{ file: printed }] = await writeStructureDocs(dir, { docs: [LONE] });
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('lone marks in scanned cells', { timeout: 120_000 }, () => {
  it('an unruled table scanned at 150 dpi: cells holding only "0" or "1" are read from their ink, every row exact', async () => {
    const scan = path.join(dir, 'gudian-scan.pdf');
    fs.writeFileSync(scan, await scanOf(fs.readFileSync(printed), 150, { skew: -1, speckle: 0.003, blur: 1, jpegQuality: 70, seed: 6 }));
    const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
    expect(r.status).toBe('imported');
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表3-2' });
    expect(t.rows.map((x) => x.cells)).toEqual(expectedRows(LONE.tables[0]));
  });
});
