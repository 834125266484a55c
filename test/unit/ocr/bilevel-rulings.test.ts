import { describe, expect, it } from 'vitest';
import { detectRulings } from '../../../src/core/ocr/rulings';
import type { GreyImage } from '../../../src/core/ocr/image';
import { buildGrids } from '../../../src/core/regulations/table-grid';
import { segmentParas, stitchTables, type PagePara } from '../../../src/core/regulations/table-layout';
import type { TableSegment } from '../../../src/core/regulations/tables';

/**
 * Ruled tables on 1-bit, dithered and faded scans (SEALED39's misses, stop 40): drawn pages, no fonts. A ruled
 * table with a shaded header row, its shading a field of dots (dithered) or a grey at the ink threshold (faded);
 * a tight 1-bit table whose glyphs' upright strokes nearly reach the rules of their row.
 */

/** A page `width` × `height` of paper `paper`, with `ink(x0, y0, x1, y1, v)` filling a box. */
function page(width: number, height: number, paper: number) {
  const data = new Uint8Array(width * height).fill(paper);
  const ink = (x0: number, y0: number, x1: number, y1: number, v = 0) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) data[y * width + x] = v;
  };
  return { img: { width, height, data } as GreyImage, data, ink };
}

/** A seeded pseudo-random sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Rulings in points (y upwards) for buildGrids. */
function grids(img: GreyImage, dpi: number) {
  const k = 72 / dpi;
  const h = img.height * k;
  return buildGrids(detectRulings(img, dpi).map((r) => ({ x0: r.x0 * k, x1: r.x1 * k, y0: h - r.y1 * k, y1: h - r.y0 * k })));
}

// a 150 dpi table: 3 columns, a header row (y 100–150) and six body rows; 2 px rules
const XS = [100, 400, 700, 1000];
const YS = [100, 150, 180, 210, 240, 270, 300, 330];

function ruledTable(paper: number, rule: number) {
  const p = page(1100, 400, paper);
  for (const y of YS) p.ink(XS[0], y, XS[3] + 1, y + 1, rule);
  for (const x of XS) p.ink(x, YS[0], x + 1, YS[YS.length - 1] + 1, rule);
  return p;
}

/** The header row's cells (between the rules) shaded: `shade()` gives a pixel's grey, or null for paper. */
function shadeHeader(p: ReturnType<typeof page>, shade: () => number | null): void {
  for (let y = YS[0] + 2; y < YS[1]; y++) {
    for (let x = XS[0] + 2; x < XS[3]; x++) {
      const v = XS.some((b) => x >= b && x <= b + 1) ? null : shade();
      if (v !== null) p.data[y * p.img.width + x] = v;
    }
  }
}

/** The page's one grid is the whole table: 3 columns, a header row and six body rows. */
function expectWholeGrid(img: GreyImage): void {
  const [g, ...more] = grids(img, 150);
  expect(more).toHaveLength(0);
  expect(g.xs).toHaveLength(4);
  expect(g.ys).toHaveLength(8);
  expect(g.cells).toHaveLength(21);
}

describe('rulings of a shaded header on a bilevel or faded scan', () => {
  it('a header shaded with dots (dithered 1-bit): every rule around and through it is found, the grid whole', () => {
    // before: the shading's dots ran together with the rules into one band far too thick to be a line — no
    // vertical at all, and the header's bottom rule lost (SEALED39 局放 and 光缆衰耗 at 150 dpi dithered)
    const p = ruledTable(255, 0);
    const r = random(7);
    shadeHeader(p, () => (r() < 0.45 ? 0 : null));
    expectWholeGrid(p.img);
  });

  it('a header shaded grey at the ink threshold (faded copy): the rules through it are found', () => {
    // a faded copy: paper 240, rules 180, the shading reads 213 or 217 at random — half of it below the ruling
    // threshold, so the verticals ran together through the header and were dropped (SEALED39 绝缘电阻 at 150 dpi)
    const p = ruledTable(240, 180);
    const r = random(11);
    shadeHeader(p, () => (r() < 0.5 ? 213 : 217));
    expectWholeGrid(p.img);
  });

  it('a caption in a heavy face above no borders is no rule, however solid', () => {
    // a solid chain 1.7 inch long with strokes standing on it (a caption at 150 dpi in a heavy 1-bit face), no border
    const p = page(1100, 300, 255);
    p.ink(200, 150, 455, 151);
    for (let x = 200; x < 455; x += 9) p.ink(x, 130, x + 2, 170);
    expect(detectRulings(p.img, 150)).toHaveLength(0);
  });
});

describe('glyph strokes in a tight 1-bit table', () => {
  it('an upright stroke stopping short of its row\'s rules is no border; a border running into them is', () => {
    // 200 dpi, rows 37 px, 1 px rules: a heavy face's strokes (站, 北) fill the row's height but for the cell's
    // padding, 7–8 px from each rule — before, within the 10 px a border's end could lie from a rule, every such
    // stroke was a column border (SEALED39 光缆衰耗 at 200 dpi 1-bit: two-thirds of the columns empty)
    const p = page(1400, 700, 255);
    const ys = [100, 137, 174, 211, 248];
    for (const y of ys) p.ink(100, y, 1300, y);
    for (const x of [100, 500, 900, 1300]) p.ink(x, 100, x + 1, 248);
    // strokes in every body cell, 8 px below the rule above and 7 px above the rule below
    for (let k = 0; k < ys.length - 1; k++) for (const x of [150, 180, 560, 600, 950, 1000]) p.ink(x, ys[k] + 8, x + 2, ys[k + 1] - 7);
    // a real border inside one row only (a cell split in that row), running from rule to rule
    p.ink(300, ys[2], 301, ys[3]);
    const [g] = grids(p.img, 200);
    // the three columns and the short border; no stroke's x
    expect(g.xs.map(Math.round)).toEqual([36, 108, 180, 324, 468]);
    expect(g.ys).toHaveLength(5);
    // the short border splits the first column's cell in the third row only
    expect(g.cells.filter((c) => c.colspan === 1 && c.col < 2).map((c) => [c.row, c.col])).toEqual([[2, 0], [2, 1]]);
  });
});

describe('a 续表 caption names the table it continues', () => {
  it('a continuation page "续表8-2" under a table whose own caption was misread: one table 表8-2', () => {
    const seg = (rows: string[][]): TableSegment => ({ from: 0, to: rows.length - 1, columns: [[0, 100], [100, 200]], rows, ruled: true });
    const lines = (n: number) => Array.from({ length: n }, () => ({}) as never);
    const p1 = seg([['光缆段', '长度'], ['甲站—乙站', '12.6'], ['乙站—丙站', '18.3']]);
    const p2 = seg([['光缆段', '长度'], ['丙站—丁站', '9.8']]);
    const pages: PagePara[][] = [
      [{ text: '第七条 衰耗不应大于表8-2的限值。' }, { text: '妻 8~盒光缆线路纤芯衰耗测试限值' }, ...segmentParas(lines(3), [{ ...p1, from: 0, to: 2 }], () => [])],
      [{ text: '续表8-2' }, ...segmentParas(lines(2), [{ ...p2, from: 0, to: 1 }], () => [])],
    ];
    const { tables } = stitchTables(pages);
    expect(tables).toHaveLength(1);
    expect(tables[0].table_id).toBe('表8-2');
    expect(tables[0].rows.map((r) => r[0])).toEqual(['甲站—乙站', '乙站—丙站', '丙站—丁站']);
  });
});
