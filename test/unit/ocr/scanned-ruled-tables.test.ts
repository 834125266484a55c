import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { levelPage } from '../../../src/core/ocr/read-image';
import { clipAtRulings, isDashBar } from '../../../src/core/ocr/cells';
import { parseCaption, sameRow } from '../../../src/core/regulations/tables';
import { tempContext, tempDir } from '../../helpers';
import { expectedRows, writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';
import { rasterize, scanOf } from '../../fixtures/scans';

/**
 * Scanned ruled tables in a thin-stroked font, through the real pipeline (pdfkit print → 200 dpi scan with
 * blur, skew, speckle and JPEG → import with the ONNX OCR → `regulations.table`): 楷体 prints its dash and the
 * underline of "≤" one pixel thick, grey after the scanner's blur; before, such cells came back empty or "<6".
 */
const KAI_TABLE: DocSpec = {
  name: 'kaijian',
  title: '电容器组检查管理规定',
  producer: 'pdfkit-ruled',
  heldOut: false,
  font: 'kai',
  intro: ['第一章 总则', '第一条 电容器组检查周期见表2-5。'],
  tables: [
    {
      caption: '表2-5 电容器组检查周期',
      header: [['变电站{r2}', '检查项目{r2}', '周期 月{c2}', '备注{r2}'], ['正常', '迎峰']],
      rows: [
        ['东湖变电站', '外观', '≤6', '3', '—'],
        ['^', '熔断器', '≤12', '—', '含备品'],
        ['^', '避雷器', '—', '6', '—'],
        ['西岭变电站', '外观', '≤3', '1', '含备品'],
        ['^', '熔断器', '—', '2', '—'],
        ['^', '避雷器', '≤9', '—', '含备品'],
      ],
      widths: [110, 110, 70, 70, 100],
      families: ['merged', 'multirow', 'symbols'],
      valign: 'middle',
    },
  ],
};

let ctx: ReturnType<typeof tempContext>;
let dir: string;
let printed: string;

beforeAll(async () => {
  ctx = tempContext();
  dir = tempDir('gridcode-scanned-ruled-');
  [{ file: printed }] = await writeStructureDocs(dir, { docs: [KAI_TABLE] });
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('scanned ruled tables', { timeout: 120_000 }, () => {
  it('a 楷体 table scanned at 200 dpi reads every row exactly: lone dashes and "≤" from their faint ink, merged cells filled', async () => {
    const scan = path.join(dir, 'kaijian-scan.pdf');
    fs.writeFileSync(scan, await scanOf(fs.readFileSync(printed), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 11 }));
    const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
    expect(r.status).toBe('imported');
    expect(r.ocr_pages).toBe(1);
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表2-5' });
    expect(t.rows.map((x) => x.cells)).toEqual(expectedRows(KAI_TABLE.tables[0]));
  });

  it('a 明体 table: a faint first stroke the detector left out of its box ("一号主变" read "号主变") is taken back from the ink it cut', async () => {
    const ming: DocSpec = {
      ...KAI_TABLE,
      name: 'mingjian',
      font: 'ming',
      tables: [
        {
          ...KAI_TABLE.tables[0],
          caption: '表2-7 主变压器检查周期',
          rows: KAI_TABLE.tables[0].rows.map((r, i) => [r[0] === '^' ? '^' : ['一号主变', '二号主变'][i ? 1 : 0], ...r.slice(1)]),
        },
      ],
    };
    const [{ file }] = await writeStructureDocs(dir, { docs: [ming] });
    const scan = path.join(dir, 'mingjian-scan.pdf');
    fs.writeFileSync(scan, await scanOf(fs.readFileSync(file), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 }));
    const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表2-7' });
    expect(t.rows.map((x) => x.cells[0])).toEqual(expectedRows(ming.tables[0]).map((x) => x[0]));
  });

  it('a 续表 caption ending in a speck read as "，" still continues its table, and its repeated header is dropped', () => {
    expect(parseCaption('续表6-3 避雷器试验周期，')).toEqual({ id: '表6-3', title: '避雷器试验周期', continued: true });
    expect(parseCaption('表中数值为最小值，')).toBeNull();
    // its repeated header read with the gap of "泄漏电流 mA" as a middle dot is still the header
    expect(sameRow(['变电站', '泄漏电流·mA'], ['变电站', '泄漏电流 mA'])).toBe(true);
  });

  it('at 150 dpi the blurred strokes of a caption and of station names chain into no ruling: only the table\'s borders are found', async () => {
    // 黑体, as the tuning document where this happened: "—" between two names and the strokes beside it
    // run together into 0.4–1 inch "lines" once blurred and levelled
    const names = ['东郊—北岭一线', '西山—青龙二线', '南湖—白石三线', '金川—玉泉一线', '龙门—桃园二线', '北岭—东郊三线'];
    const hei: DocSpec = {
      ...KAI_TABLE,
      name: 'heijian',
      font: undefined,
      tables: [{ ...KAI_TABLE.tables[0], caption: '表2-6 主要输电通道检查周期', rows: KAI_TABLE.tables[0].rows.map((r, i) => [names[i], ...r.slice(1)]) }],
    };
    const [{ file }] = await writeStructureDocs(dir, { docs: [hei] });
    const [page] = await rasterize(await scanOf(fs.readFileSync(file), 150, { skew: -1, speckle: 0.003, blur: 1, jpegQuality: 70, seed: 6 }), 150);
    const { rulings } = levelPage(page, 150);
    const hs = rulings.filter((x) => x.y0 === x.y1);
    const vs = rulings.filter((x) => x.x0 === x.x1);
    // 9 row borders (top, the group's lower line, header bottom, 6 rows) and 6 column borders (the sub-column
    // border counted once), nothing above the table (title, caption) nor inside its cells
    const rows = [...new Set(hs.map((x) => Math.round(x.y0)))].sort((a, b) => a - b);
    expect(rows.filter((y, i) => i === 0 || y - rows[i - 1] > 3)).toHaveLength(9);
    expect(vs).toHaveLength(6);
    expect(vs.every((v) => v.y0 >= rows[0] - 3)).toBe(true);
  });
});

describe('marks in cells, on their own ink', () => {
  const white = (w: number, h: number) => ({ width: w, height: h, data: new Uint8Array(w * h).fill(255) });
  const paint = (img: { width: number; data: Uint8Array }, x0: number, y0: number, x1: number, y1: number, v: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) img.data[y * img.width + x] = v;
  };
  it('a grey one-pixel dash among darker specks, in a box reaching over the row border, is a dash; a grey "二" is not', () => {
    const textH = 30;
    const img = white(60, 48);
    paint(img, 0, 44, 60, 47, 120); // the row border the box reaches over
    paint(img, 12, 20, 30, 21, 195); // the dash: one grey row and its blur
    paint(img, 12, 19, 30, 20, 218);
    paint(img, 12, 21, 30, 22, 212);
    for (const [x, y] of [[5, 6], [40, 12], [33, 30], [8, 36]]) paint(img, x, y, x + 1, y + 1, 40); // specks
    const box = { x0: 0, y0: 0, x1: 60, y1: 48, score: 1 };
    const cell = clipAtRulings(box, [{ x0: 0, x1: 60, y0: 45, y1: 45 }]);
    expect(cell.y1).toBe(42);
    expect(isDashBar(img, cell, textH)).toBe(true);
    const two = white(60, 42);
    paint(two, 12, 12, 30, 13, 195);
    paint(two, 10, 28, 32, 29, 195);
    expect(isDashBar(two, { x0: 0, y0: 0, x1: 60, y1: 42, score: 1 }, textH)).toBe(false);
  });
});
