import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { parseCaption } from '../../../src/core/regulations/tables';
import { tempContext, tempDir } from '../../helpers';
import { writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';
import { scanOf } from '../../fixtures/scans';

/**
 * A scanned table's caption as OCR reads it (stop 36: the ex-sealed `guangfu` read "·表41设备检查参数" — a speck
 * before it read "·", the hyphen of 4-1 dropped — so its 28 rows were filed under "T1" and `table 表4-1` found
 * nothing). Printed here as read, through the real pipeline (pdfkit → 200 dpi scan → ONNX OCR → tables): the
 * caption still opens the table, and its number is the one the text cites (见表4-1).
 */
const doc: DocSpec = {
  name: 'biaohao',
  title: '光伏电站设备检查规定',
  producer: 'pdfkit-ruled',
  heldOut: false,
  font: 'zenhei',
  intro: ['第一章 总则', '第一条 设备检查参数见表4-1，巡视记录见表4-2。', '第二章 检查'],
  tables: [
    {
      caption: '·表41 设备检查参数',
      header: [['设备', '额定值', '周期']],
      rows: [
        ['组件', '540', '25'],
        ['逆变器', '225', '15'],
        ['箱变', '3150', '30'],
      ],
      widths: [120, 70, 70],
      families: ['threeline'],
      rules: 'three-line',
    },
  ],
};

/** the text cites the number as OCR read it too ("见表41"): the lookup `table 表4-1` still finds the one table */
const both: DocSpec = { ...doc, name: 'biaohao2', intro: ['第一章 总则', '第一条 设备检查参数见表41。'] };

/**
 * A caption whose gap after the number OCR lost, the title opening with digits (stop 37: SEALED36 `kuixian` at 150
 * dpi read "表2-610kV馈线运行参数", its 26 rows filed under 表2-610): printed so here, the text citing 表2-6.
 */
const glued: DocSpec = {
  ...doc,
  name: 'biaohao3',
  intro: ['第一章 总则', '第一条 10kV馈线运行参数见表2-6。', '第二章 馈线'],
  tables: [{ ...doc.tables[0], caption: '表2-610kV馈线运行参数' }],
};

let ctx: ReturnType<typeof tempContext>;
let dir: string;
let file: string;
let file2: string;
let file3: string;

beforeAll(async () => {
  ctx = tempContext();
  dir = tempDir('gridcode-scanned-captions-');
  [{ file }, { file: file2 }, { file: file3 }] = await writeStructureDocs(dir, { docs: [doc, both, glued] });
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('scanned table captions', { timeout: 180_000 }, () => {
  it('a caption with a speck before it and its number run together takes the number the text cites', async () => {
    const scan = path.join(dir, 'biaohao-scan.pdf');
    fs.writeFileSync(scan, await scanOf(fs.readFileSync(file), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 }));
    const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
    expect(r.status).toBe('imported');
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表4-1' });
    expect(t.title).toBe('设备检查参数');
    expect(t.rows.map((x) => x.cells[0])).toEqual(['组件', '逆变器', '箱变']);
  });

  it('a scanned table whose number OCR read without its separator everywhere is found by the number as printed', async () => {
    const scan = path.join(dir, 'biaohao2-scan.pdf');
    fs.writeFileSync(scan, await scanOf(fs.readFileSync(file2), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 }));
    const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表4-1' });
    expect(t.table_id).toBe('表41');
    expect(t.rows).toHaveLength(3);
  });

  it('a caption number run into a title opening with digits takes the number the text cites', async () => {
    const scan = path.join(dir, 'biaohao3-scan.pdf');
    fs.writeFileSync(scan, await scanOf(fs.readFileSync(file3), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 }));
    const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表2-6' });
    expect(t.table_id).toBe('表2-6');
    expect(t.title).toBe('10kV馈线运行参数');
    expect(t.rows).toHaveLength(3);
  });

  it('only a mark right before 表 is a speck', () => {
    expect(parseCaption('·表4-1 设备检查参数')).toEqual({ id: '表4-1', title: '设备检查参数', continued: false });
    expect(parseCaption('，续表3-2')?.continued).toBe(true);
    expect(parseCaption('注：表中数值为最大值')).toBeNull();
    expect(parseCaption('·表中数值为最大值')).toBeNull();
  });

  it('a table number\'s last digit read as a letter is the digit: "续表7-I" continues 表7-1', () => {
    expect(parseCaption('续表7-I')).toEqual({ id: '表7-1', title: '', continued: true });
    expect(parseCaption('表3-l 设备参数')).toEqual({ id: '表3-1', title: '设备参数', continued: false });
    expect(parseCaption('表2-O 定值')?.id).toBe('表2-0');
    // a letter that starts a word is no digit
    expect(parseCaption('表A.1 Ice 参数')?.id).toBe('表A.1');
  });
});
