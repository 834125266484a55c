import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';
import { expectedRows, HELD34_DOCS, SEALED35_DOCS, TUNING35_DOCS, writeStructureDocs } from '../../fixtures/regulation-tables';
import { scanOf } from '../../fixtures/scans';

/**
 * Stop 36, through the real pipeline (pdfkit → scan → ONNX OCR → tables), on the stop-35 slice that is tuning now:
 * - `baohu` (Zen Hei Sharp 8 pt, Liberation Sans Narrow digits, unit row, 续表) at 150 dpi: a speck beside the
 *   unit row's "%" read "%6" made the unit row a body row (every row shifted by one), and the first page's
 *   "≥1.5" cells, all read "21.5", had no signed cell on their page to go by (the second page reads "≥");
 * - Liberation Serif digits: a "2" whose flat base the blur parts from its arc looked like "≥" to the ink test
 *   ("200" read "≥00", "2000" "≥000").
 */
const baohu = SEALED35_DOCS.find((d) => d.name === 'baohu')!;
const peidian = SEALED35_DOCS.find((d) => d.name === 'peidian')!;
/** UKai TW with DejaVu Serif Condensed digits: a lone "2" with a speck, "2.", was made "≥." */
const jiliang = TUNING35_DOCS.find((d) => d.name === 'jiliang')!;
/** Zen Hei Mono, unruled: a speck after "一般缺陷" read "—" */
const wendu = HELD34_DOCS.find((d) => d.name === 'wendu')!;

let ctx: ReturnType<typeof tempContext>;
let dir: string;
let files: Record<string, string>;

beforeAll(async () => {
  ctx = tempContext();
  dir = tempDir('gridcode-scanned-columns-');
  files = Object.fromEntries((await writeStructureDocs(dir, { docs: [baohu, peidian, jiliang, wendu] })).map(({ doc, file }) => [doc.name, file]));
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function scannedTable(name: string, tableId: string, dpi: number, d: Parameters<typeof scanOf>[2]) {
  const scan = path.join(dir, `${name}-scan.pdf`);
  fs.writeFileSync(scan, await scanOf(fs.readFileSync(files[name]), dpi, d));
  const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
  expect(r.status).toBe('imported');
  return invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: tableId });
}

describe('scanned table columns', { timeout: 240_000 }, () => {
  it('a unit row with a speck read beside a unit is the header; a column’s signs are read over all its pages', async () => {
    const t = await scannedTable('baohu', '表2-4', 150, { skew: -1, speckle: 0.003, blur: 1, jpegQuality: 70, seed: 6 });
    const want = expectedRows(baohu.tables[0]);
    expect(t.header_rows?.[1]).toEqual(['', 'A', 's', '', '', '%', '', '']);
    expect(t.rows).toHaveLength(want.length);
    // rows in place: the names column (one in five misread at most: Ⅰ/Ⅱ the recogniser cannot read)
    expect(t.rows.filter((r, i) => r.cells[0] === want[i][0]).length).toBeGreaterThanOrEqual(18);
    // 灵敏系数: ≥ on both pages (one cell misread at most)
    expect(t.rows.filter((r, i) => r.cells[3] === want[i][3]).length).toBeGreaterThanOrEqual(want.length - 1);
  });

  it('a serif "2" opening "200" is a digit, not "≥"', async () => {
    const t = await scannedTable('peidian', '表6-2', 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 });
    const want = expectedRows(peidian.tables[0]);
    expect(t.rows.map((r) => r.cells[3])).toEqual(want.map((r) => r[3]));
  });

  it('no sign without a digit after it, and no dash ending one name of a column', async () => {
    const mild = { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 };
    const t = await scannedTable('jiliang', '表4-2', 200, mild);
    expect(t.rows.filter((r) => /^[≥≤]\D*$/.test(r.cells[4]))).toEqual([]);
    const w = await scannedTable('wendu', '表3', 200, mild);
    expect(w.rows.map((r) => r.cells[4]).filter((c) => /[\u4e00-\u9fff]—$/.test(c))).toEqual([]);
  });
});
