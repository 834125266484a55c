import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { cleanOcrCell, parsePdf } from '../../../src/core/regulations/pdf';
import { alignedColumnBorders, buildGrids, pageTableSegments, type CellGrid } from '../../../src/core/regulations/table-grid';
import { cellBoxes, isDashBar, readCellBox, splitAtRulings, strayBars } from '../../../src/core/ocr/cells';
import { rulingsFromOperators, type OperatorList } from '../../../src/core/regulations/table-rulings';
import { detectRulings } from '../../../src/core/ocr/rulings';
import { estimateSkew } from '../../../src/core/ocr/deskew';
import { resize, rotate } from '../../../src/core/ocr/image';
import { pdfjsAssets } from '../../../src/core/ocr/raster';
import { runCli, runCliJson, tempContext, tempDir } from '../../helpers';
import { SCAN_TABLE_DOCS, expectedRows, writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';
import { degrade, rasterize } from '../../fixtures/scans';

/**
 * Ruled tables read from their ruling lines, on a real generated PDF (pdfkit): a two-line header (cells
 * spanning both lines, a group cell over two sub-columns), a first column merged over three rows with its
 * text vertically centred, wrapped and centred cells, and a continuation page that repeats no header.
 * The same page rasterised and degraded like a scan gives the same cell grid from its image.
 */
const LONG = ['纵联差动保护（主一），经光纤通道与对侧交换电流量', '距离保护Ⅰ段', '零序过流保护Ⅱ段，经方向元件闭锁'];
const DOC: DocSpec = {
  name: 'dingzhi',
  title: '线路保护定值单管理规定',
  producer: 'pdfkit-ruled',
  heldOut: false,
  intro: ['第一章 总则', '第一条 线路保护定值见表3。'],
  tables: [
    {
      caption: '表3 线路保护定值',
      header: [['线路{r2}', '保护{r2}', '整定值{c2}'], ['定值 A', '时间 s']],
      rows: ['东郊—西山线', '南湖—北岭线', '青龙—白石线'].flatMap((line, g) =>
        LONG.map((p, k) => [k ? '^' : line, p, `${(0.4 + g * 0.3 + k * 0.8).toFixed(2)}`, `${k * 0.5}`]),
      ),
      widths: [90, 200, 80, 80],
      families: ['multirow', 'merged', 'continuation'],
      continuation: 'none',
      rowsPerPage: 6,
      valign: 'middle',
      wrap: true,
      align: 'center',
    },
  ],
};

let dir: string;
let file: string;

beforeAll(async () => {
  dir = tempDir('gridcode-table-grid-');
  [{ file }] = await writeStructureDocs(dir, { docs: [DOC] });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function operatorGrid(n: number): Promise<CellGrid[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(file)), ...pdfjsAssets(), cMapPacked: true, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(n);
    return buildGrids(rulingsFromOperators((await page.getOperatorList()) as unknown as OperatorList, (pdfjs as unknown as { OPS: Record<string, number> }).OPS));
  } finally {
    await doc.destroy();
  }
}

describe('ruled tables from the drawing operators', () => {
  it('the page\'s rulings make one grid: 4 columns, 2 header lines + 6 rows, merged cells where borders are missing', async () => {
    const [grid, ...more] = await operatorGrid(1);
    expect(more).toHaveLength(0);
    expect(grid.xs).toHaveLength(5);
    expect(grid.ys).toHaveLength(9);
    const spans = grid.cells.filter((c) => c.rowspan > 1 || c.colspan > 1).map(({ row, col, rowspan, colspan }) => [row, col, rowspan, colspan]);
    // 线路 and 保护 over both header lines, 整定值 over two sub-columns, two line groups of three rows
    expect(spans).toEqual([
      [0, 0, 2, 1],
      [0, 1, 2, 1],
      [0, 2, 1, 2],
      [2, 0, 3, 1],
      [5, 0, 3, 1],
    ]);
  });

  it('rows, header, merged cells and the page without a header join into one table; wrapped and centred cells read whole', async () => {
    const doc = await parsePdf(fs.readFileSync(file), 'dingzhi', { fallbackTitle: 'dingzhi' });
    expect(doc.tables!.map((t) => t.table_id)).toEqual(['表3']);
    const [t] = doc.tables!;
    expect(t.columns).toEqual(['线路', '保护', '整定值·定值 A', '整定值·时间 s']);
    expect(t.rows.map((r) => r.cells)).toEqual(expectedRows(DOC.tables[0]));
    expect(t.rows.map((r) => r.page_num)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2]);
    expect(t.header_rows).toEqual([
      ['线路', '保护', '整定值', ''],
      ['', '', '定值 A', '时间 s'],
    ]);
    expect(t.merged_cells).toEqual([
      { row: 0, col: 0, rowspan: 3, colspan: 1 },
      { row: 3, col: 0, rowspan: 3, colspan: 1 },
      { row: 6, col: 0, rowspan: 3, colspan: 1 },
    ]);
    expect(t.layout).toBe('ruled');
  });

  it('the `table` operation carries header lines, merged cells and the layout', async () => {
    const ctx = tempContext();
    try {
      const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
      expect(r.status).toBe('imported');
      const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表3' });
      expect(t.header_rows).toHaveLength(2);
      expect(t.merged_cells.map((m) => m.row)).toEqual([0, 3, 6]);
      expect(t.layout).toBe('ruled');
      expect(t.rows[7].cells).toEqual(['青龙—白石线', '距离保护Ⅰ段', '1.80', '0.5']);
      const listed = await invokeOperation(ctx, 'regulations.tables', { reg_id: r.reg_id! });
      expect(listed.tables[0]).toMatchObject({ table_id: '表3', row_count: 9, page_start: 1, page_end: 2, layout: 'ruled' });
    } finally {
      await ctx.cleanup();
    }
  }, 60_000);
});

describe('gridcode table', () => {
  it('prints the header lines and merged cells, and --json carries them', async () => {
    const data = tempDir('gridcode-table-grid-cli-');
    try {
      const [imported] = await runCliJson<{ reg_id: string }[]>(['import', file, '--data-dir', data]);
      const json = await runCliJson<{ header_rows: string[][]; merged_cells: unknown[]; layout: string }>(['table', imported.reg_id, '表3', '--data-dir', data]);
      expect(json).toMatchObject({ header_rows: [['线路', '保护', '整定值', ''], ['', '', '定值 A', '时间 s']], layout: 'ruled' });
      expect(json.merged_cells).toHaveLength(3);
      const text = await runCli(['table', imported.reg_id, '表3', '--data-dir', data]);
      expect(text.stdout).toContain('表头共 2 行：线路 | 保护 | 整定值 ／ 定值 A | 时间 s');
      expect(text.stdout).toContain('合并单元格 3 处');
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('ruled tables from a scanned page image', () => {
  it('a 200 dpi scan skewed by 0.8° with speckle gives the grid the operators give', async () => {
    const [fromOps] = await operatorGrid(1);
    const [page] = await rasterize(fs.readFileSync(file), 200);
    const scan = degrade(page, { skew: 0.8, speckle: 0.002, blur: 1, seed: 3 });
    // the page is levelled as the OCR pipeline levels it, then its rulings are read
    const probe = Math.min(1, 1000 / Math.max(scan.width, scan.height));
    const skew = estimateSkew(resize(scan, scan.width * probe, scan.height * probe));
    expect(Math.abs(skew - 0.8)).toBeLessThan(0.15);
    const level = rotate(scan, skew);
    const k = 72 / 200;
    const heightPt = scan.height * k;
    const rulings = detectRulings(level, 200).map((r) => ({ x0: r.x0 * k, x1: r.x1 * k, y0: heightPt - r.y1 * k, y1: heightPt - r.y0 * k }));
    const grids = buildGrids(rulings);
    expect(grids).toHaveLength(1);
    const [g] = grids;
    expect(g.xs).toHaveLength(fromOps.xs.length);
    expect(g.ys).toHaveLength(fromOps.ys.length);
    expect(g.cells.map((c) => [c.row, c.col, c.rowspan, c.colspan])).toEqual(fromOps.cells.map((c) => [c.row, c.col, c.rowspan, c.colspan]));
    // row heights as printed (the levelled page may sit a little off the printed one as a whole)
    const gaps = (v: number[]) => v.slice(1).map((x, i) => x - v[i]);
    gaps(g.ys).forEach((d, i) => expect(Math.abs(d - gaps(fromOps.ys)[i])).toBeLessThan(2));
    gaps(g.xs).forEach((d, i) => expect(Math.abs(d - gaps(fromOps.xs)[i])).toBeLessThan(2));
  }, 60_000);

  it('text strokes and speckle alone make no grid', async () => {
    const prose = path.join(dir, 'prose.pdf');
    const [{ file: plain }] = await writeStructureDocs(dir, { docs: [{ ...DOC, name: 'prose', producer: 'pdfkit-plain' }] });
    fs.renameSync(plain, prose);
    const [page] = await rasterize(fs.readFileSync(prose), 200);
    const scan = degrade(page, { speckle: 0.004, blur: 1, seed: 9 });
    expect(buildGrids(detectRulings(scan, 200))).toHaveLength(0);
  }, 60_000);

  it('a speck across one rule is no border, a streak across another breaks no frame: a three-line table stays one', () => {
    // a 200 dpi page: three rules of one width (three-line table), the outer two thickened, a short stroke crossing the top rule, as a
    // photocopy's toner speck or a glyph touching it leaves — it reaches no other rule, so it is no vertical —
    // and a copier's streak (a long vertical) crossing the bottom rule: their group makes no grid, so the rule
    // still frames the three-line table
    const width = 1000;
    const height = 900;
    const data = new Uint8Array(width * height).fill(250);
    const ink = (x0: number, y0: number, x1: number, y1: number) => {
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = 30;
    };
    // the top and bottom rules as a photocopy thickens them: 9 px, over the 0.04 inch (8 px) a rule may have where ink stands on it
    for (const [y, t] of [[200, 8], [320, 4], [800, 8]]) ink(100, y, 900, y + t);
    ink(400, 195, 402, 214);
    ink(700, 700, 702, 880);
    const rulings = detectRulings({ width, height, data }, 200);
    expect(rulings.filter((r) => r.x0 === r.x1).map((r) => [r.x0, r.y0, r.y1])).toEqual([[701, 700, 880]]);
    const grids = buildGrids(rulings.map((r) => ({ x0: r.x0, x1: r.x1, y0: height - r.y1, y1: height - r.y0 })));
    expect(grids).toHaveLength(1);
    expect(grids[0].rules).toHaveLength(3);
  });
});

describe('ruled tables on a photocopy', () => {
  it('a grid on grey, uneven paper is found: ruling ink is judged against the paper around it', () => {
    // a 200 dpi page whose paper reads 208 on the left (a copy's grey, darker than the 215 a ruling had to be
    // below) and 242 on the right, with a 3 × 3 grid of 2 px rules at 120 across both: before, the grey
    // left half was all "ink" and no rule there was thin enough to be a ruling
    const width = 1000;
    const height = 700;
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = x < 500 ? 208 : 242;
    const ink = (x0: number, y0: number, x1: number, y1: number) => {
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = 120;
    };
    for (const y of [100, 250, 400, 550]) ink(100, y, 900, y + 1);
    for (const x of [100, 350, 650, 900]) ink(x, 100, x + 1, 551);
    const rulings = detectRulings({ width, height, data }, 200);
    const grids = buildGrids(rulings.map((r) => ({ x0: r.x0, x1: r.x1, y0: height - r.y1, y1: height - r.y0 })));
    expect(grids).toHaveLength(1);
    expect(grids[0].xs.map(Math.round)).toEqual([101, 351, 651, 901]);
    expect(grids[0].ys).toHaveLength(4);
    expect(grids[0].cells).toHaveLength(9);
  });

  it('a streak beside a column border makes no column: of two borders closer than 6 pt, the one covering the table goes on', () => {
    // points, y upwards: a 3 × 3 grid, and a copier's streak 4 pt right of the second border, from the middle of
    // the table down past its bottom rule
    const rulings = [300, 250, 200, 150].map((y) => ({ x0: 50, x1: 350, y0: y, y1: y }));
    rulings.push(...[50, 150, 250, 350].map((x) => ({ x0: x, x1: x, y0: 150, y1: 300 })));
    rulings.push({ x0: 154, x1: 154, y0: 90, y1: 220 });
    const grids = buildGrids(rulings);
    expect(grids).toHaveLength(1);
    expect(grids[0].xs).toEqual([50, 150, 250, 350]);
    expect(grids[0].cells).toHaveLength(9);
  });
});

describe('OCR cell clean-up', () => {
  it('drops punctuation speckle at a cell\'s ends and lowercases the k of a unit; leaves real text alone', () => {
    expect(['4800.', 'MW:', "10'", 'KA.', '主变间隔.', 'kV .', '.35', 'KV'].map(cleanOcrCell)).toEqual(['4800', 'MW', '10', 'kA', '主变间隔', 'kV', '35', 'kV']);
    expect(['31.5', 'p.u.', '≥52*', '0.5', '东郊—西山线', '第一条。', 'K'].map(cleanOcrCell)).toEqual(['31.5', 'p.u.', '≥52*', '0.5', '东郊—西山线', '第一条。', 'K']);
  });
});

/**
 * A three-line table (三线表: thick top and bottom rules, a rule under the header, a short rule under the
 * group label "一次定值", no other lines), continued on a second page under "续表5-2" with its header again.
 */
describe('three-line tables', () => {
  it('the rules frame the table, the short rule makes the group header, the text gaps make the columns; the continuation joins', async () => {
    const docSpec = SCAN_TABLE_DOCS.find((d) => d.name === 'sanxian')!;
    const [{ file: f }] = await writeStructureDocs(dir, { docs: [docSpec] });
    const doc = await parsePdf(fs.readFileSync(f), 'sanxian', { fallbackTitle: 'sanxian' });
    expect(doc.tables!.map((t) => t.table_id)).toEqual(['表5-2']);
    const [t] = doc.tables!;
    expect(t.columns).toEqual(['保护名称', '一次定值·电流 A', '一次定值·电压 kV', '动作时间 s', '出口方式']);
    expect(t.rows.map((r) => r.cells)).toEqual(expectedRows(docSpec.tables[0]));
    expect(new Set(t.rows.map((r) => r.page_num))).toEqual(new Set([1, 2]));
    expect(t.layout).toBe('ruled');
  }, 60_000);

  it('horizontal rules of different widths, or only two of them, frame no table', () => {
    const h = (y: number, x0: number, x1: number) => ({ x0, x1, y0: y, y1: y });
    expect(buildGrids([h(700, 56, 540), h(680, 56, 540), h(400, 56, 540)]).filter((g) => g.rules)).toHaveLength(1);
    expect(buildGrids([h(700, 56, 540), h(680, 100, 300), h(400, 56, 540)]).filter((g) => g.rules)).toHaveLength(0);
    expect(buildGrids([h(700, 56, 540), h(400, 56, 540)]).filter((g) => g.rules)).toHaveLength(0);
  });

  it('column borders are the gaps no row crosses (one row in ten may)', () => {
    const rows = Array.from({ length: 10 }, (_, i) => [[0, 40 + (i % 3) * 5], [80, 100], [140, 150]] as [number, number][]);
    expect(alignedColumnBorders(rows, 0, 160, 8)).toEqual([65, 120]);
    // one row's text across the first gap (two cells read as one box) leaves the border
    rows[0] = [[0, 100], [140, 150]];
    expect(alignedColumnBorders(rows, 0, 160, 8)).toEqual([65, 120]);
    // a word space is no column gap
    expect(alignedColumnBorders([[[0, 30], [33, 60]]], 0, 60, 8)).toEqual([]);
  });
});

describe('OCR boxes in table cells', () => {
  const white = (w: number, h: number) => ({ width: w, height: h, data: new Uint8Array(w * h).fill(255) });
  const ink = (img: { width: number; data: Uint8Array }, x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) img.data[y * img.width + x] = 20;
  };
  it('a box crossing a cell border is cut there; a glyph stroke touching the line cuts nothing', () => {
    const box = { x0: 100, y0: 50, x1: 400, y1: 90, score: 0.9 };
    const border = { x0: 250, x1: 250, y0: 20, y1: 120 };
    expect(splitAtRulings(box, [border]).map((b) => [b.x0, b.x1])).toEqual([[100, 248], [252, 400]]);
    expect(splitAtRulings(box, [{ x0: 250, x1: 250, y0: 60, y1: 75 }])).toEqual([box]);
    // the box's own ends are no border through it
    expect(splitAtRulings(box, [{ ...border, x0: 105, x1: 105 }])).toEqual([box]);
  });
  it('a lone dash is read from its shape; a hyphen, "二", a digit and specks are not dashes', () => {
    const textH = 44;
    const dash = white(60, 40);
    ink(dash, 10, 19, 34, 21);
    expect(isDashBar(dash, { x0: 0, y0: 0, x1: 60, y1: 40, score: 1 }, textH)).toBe(true);
    const hyphen = white(60, 40);
    ink(hyphen, 20, 19, 28, 21);
    expect(isDashBar(hyphen, { x0: 0, y0: 0, x1: 60, y1: 40, score: 1 }, textH)).toBe(false);
    const two = white(60, 40);
    ink(two, 10, 10, 34, 12);
    ink(two, 8, 28, 36, 30);
    expect(isDashBar(two, { x0: 0, y0: 0, x1: 60, y1: 40, score: 1 }, textH)).toBe(false);
    const one = white(60, 40);
    ink(one, 28, 5, 31, 35);
    expect(isDashBar(one, { x0: 0, y0: 0, x1: 60, y1: 40, score: 1 }, textH)).toBe(false);
    const boxes = cellBoxes([{ x0: 0, y0: 0, x1: 60, y1: 40, score: 1 }, { x0: 100, y0: 0, x1: 300, y1: 44, score: 1 }, { x0: 100, y0: 50, x1: 300, y1: 94, score: 1 }], [], dash);
    expect(boxes.map((b) => !!b.bar)).toEqual([true, false, false]);
    expect(readCellBox(boxes[0], { text: '1', confidence: 0.4, charConfidence: [0.4] }).text).toBe('—');
  });
  it('a dash the detector gave no box is found between the table\'s rulings; text, rulings and specks are not', () => {
    const textH = 40;
    const page = white(800, 400);
    const rules = [50, 350].map((y) => ({ x0: 20, x1: 780, y0: y, y1: y }));
    for (const r of rules) ink(page, r.x0, r.y0, r.x1, r.y0 + 2);
    ink(page, 300, 200, 322, 202); // the lone dash
    ink(page, 500, 150, 501, 151); // a speck
    ink(page, 100, 100, 200, 130); // text, inside its box
    const bars = strayBars(page, [{ x0: 95, y0: 95, x1: 205, y1: 135, score: 1 }], rules, textH);
    expect(bars).toHaveLength(1);
    expect(bars[0].bar).toBe(true);
    expect(bars[0].x0).toBeLessThan(300);
    expect(bars[0].x1).toBeGreaterThan(322);
    // no table rulings, no search
    expect(strayBars(page, [], [], textH)).toHaveLength(0);
  });
});

describe('unit row under a ruled header', () => {
  // a 5-column grid: header, unit row, three body rows (PDF y grows upwards)
  const xs = [50, 150, 250, 330, 410, 490];
  const ys = [700, 680, 660, 640, 620, 600];
  const rulings = [
    ...xs.map((x) => ({ x0: x, y0: ys[ys.length - 1], x1: x, y1: ys[0] })),
    ...ys.map((y) => ({ x0: xs[0], y0: y, x1: xs[xs.length - 1], y1: y })),
  ];
  const table = (rows: string[][]) => {
    const lines = rows.map((cells, r) => {
      const y = (ys[r] + ys[r + 1]) / 2 - 4;
      const frags = cells.flatMap((str, c) => (str ? [{ str, x: xs[c] + 4, right: xs[c] + 4 + str.length * 9, h: 9, y }] : []));
      return { text: cells.filter(Boolean).join(' '), y, size: 9, frags };
    });
    return pageTableSegments(lines, buildGrids(rulings))[0];
  };
  const header = ['线路名称', '定值项目', '定值', '动作时间', '误差'];
  const body = [
    ['清河甲线', '相间距离Ⅱ段', '2.40', '0.3', '±3'],
    ['清河乙线', '接地距离Ⅲ段', '3.70', '0.6', '±5'],
    ['望江线', '过负荷告警', '420', '6.0', '±2'],
  ];

  it('a sparse row of units under the header is the header\'s, also with one unit read as a digit ("s" read "8")', () => {
    for (const units of [['', '', 'A', 's', '%'], ['', '', 'A', '8', '']]) {
      const seg = table([header, units, ...body]);
      expect(seg.rows).toEqual(body);
      expect(seg.header?.lines.length).toBe(2);
    }
  });

  it('a body row with its name column filled is never taken for units', () => {
    const seg = table([header, ['望江线', '', 'A', '8', ''], ...body]);
    // one header line: the rows are every row, the header first
    expect(seg.header).toBeUndefined();
    expect(seg.rows.map((r) => r[0])).toEqual(['线路名称', '望江线', ...body.map((r) => r[0])]);
  });
});
