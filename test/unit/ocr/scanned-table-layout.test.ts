import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';
import { expectedColumns, expectedRows, writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';
import { scanOf } from '../../fixtures/scans';

/**
 * Scanned tables in faces the recogniser reads less surely (UKai TW at 8 pt with DejaVu Serif digits, UMing CN
 * cable sections), through the real pipeline (pdfkit print → 200 dpi scan → import with the ONNX OCR →
 * `regulations.table`). Before: the header a continuation page repeats came back as two body rows when OCR read
 * its unit row "kv" or one label otherwise (the page's own header test did not take it); "3×120" read "3x120".
 */
const continued: DocSpec = {
  name: 'dianyajc',
  title: '配电网电压监测管理规定',
  producer: 'pdfkit-ruled',
  heldOut: false,
  font: 'kaitw',
  latin: 'dejavuserif',
  intro: ['第一章 总则', '第一条 电压监测点要求见表5-1。'],
  tables: [
    {
      caption: '表5-1 电压监测点要求',
      header: [['监测点', '标称电压', '允许偏差', '合格率', '不平衡度', '统计周期'], ['', 'kV', '%', '%', '%', '']],
      rows: Array.from({ length: 8 }, (_, i) => [
        `${['一段', '二段'][Math.floor(i / 4)]}${['母线', '进线', '出线', '用户端'][i % 4]}`,
        `${[10.5, 10.4, 10.2, 10.0][i % 4].toFixed(1)}`,
        `±${[7, 7, 5, 10][i % 4]}`,
        `≥${[98, 95, 99, 97][i % 4]}`,
        `≤${[2, 3, 4][i % 3]}`,
        i % 3 === 0 ? '每日' : '每周',
      ]),
      widths: [100, 60, 60, 60, 60, 60],
      families: ['unit', 'continuation'],
      continuation: 'caption',
      rowsPerPage: 4,
      ruleWidth: 0.4,
      size: 8,
      boldHeader: true,
    },
  ],
};

const cables: DocSpec = {
  name: 'dianlanjc',
  title: '电缆线路参数管理规定',
  producer: 'pdfkit-ruled',
  heldOut: false,
  font: 'ming',
  intro: ['第一章 总则', '第一条 电缆参数见表3-1。'],
  tables: [
    {
      caption: '表3-1 电缆参数',
      header: [['线路', '截面', '电压']],
      rows: [
        ['城东甲线', '3×120', '0.38kV用户侧'],
        ['城东乙线', '3×185', '10kV'],
        ['港区甲线', '3×240', '0.38kV用户侧'],
        ['港区乙线', '3×300', '10kV'],
      ],
      widths: [90, 70, 110],
      families: ['symbols'],
      ruleWidth: 1,
    },
  ],
};

let ctx: ReturnType<typeof tempContext>;
let dir: string;
let files: Record<string, string>;

beforeAll(async () => {
  ctx = tempContext();
  dir = tempDir('gridcode-scanned-layout-');
  files = Object.fromEntries((await writeStructureDocs(dir, { docs: [continued, cables] })).map(({ doc, file }) => [doc.name, file]));
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function scannedTable(name: string, tableId: string) {
  const scan = path.join(dir, `${name}-scan.pdf`);
  fs.writeFileSync(scan, await scanOf(fs.readFileSync(files[name]), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 }));
  const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
  expect(r.status).toBe('imported');
  return invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: tableId });
}

describe('scanned table layout', { timeout: 180_000 }, () => {
  it('a header repeated on the continuation page is header, not rows, when OCR reads it slightly otherwise', async () => {
    const t = await scannedTable('dianyajc', '表5-1');
    const spec = continued.tables[0];
    expect(t.columns).toEqual(expectedColumns(spec));
    // every body row once, in order: no header line among them
    expect(t.rows.map((x) => x.cells[0])).toEqual(expectedRows(spec).map((r) => r[0]));
    expect(t.rows.map((x) => [x.cells[1], x.cells[5]])).toEqual(expectedRows(spec).map((r) => [r[1], r[5]]));
  });

  it('"×" between numbers and a decimal point before a unit read back in scanned cells', async () => {
    const t = await scannedTable('dianlanjc', '表3-1');
    expect(t.rows.map((x) => x.cells)).toEqual(expectedRows(cables.tables[0]));
  });
});
