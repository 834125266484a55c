import { describe, expect, it } from 'vitest';
import { inkShare } from '../../../src/core/ocr/read-image';
import { ocrItems } from '../../../src/core/regulations/pdf';
import { buildGrids, pageTableSegments } from '../../../src/core/regulations/table-grid';
import { fillMergedDown, findTableSegments, type Fragment, type PositionedLine } from '../../../src/core/regulations/tables';

/**
 * Three-line and unruled tables on scans (SEALED38's Chromium-printed, photocopied pages), fontless: lines of
 * OCR boxes (padded by the detector, with the print's extent inside them) and synthetic page images.
 */

/** An OCR fragment: its print from `a` to `b`, its box padded by `pad` on each side. */
const box = (str: string, a: number, b: number, y: number, pad = 6): Fragment => ({ str, x: a - pad, right: b + pad, h: 10, y, ink: [a, b] });
const line = (y: number, frags: Fragment[]): PositionedLine => ({ text: frags.map((f) => f.str).join(' '), y, size: 10, frags });

describe('three-line tables on scans', () => {
  // rules at 700 (top), 680 (under the header), 560 (bottom), x 50–490 (PDF y grows upwards)
  const rulings = [700, 680, 560].map((y) => ({ x0: 50, x1: 490, y0: y, y1: y }));
  // columns' print: 名称 60–90, 数值 150–180, 上限 250–280, 下限 286–310: the last two 6 pt apart (0.6 print
  // sizes), their padded boxes overlapping
  const cols: [number, number][] = [
    [60, 90],
    [150, 180],
    [250, 280],
    [286, 310],
  ];
  const body = [
    ['甲', '1.5', '±0.4', '±15'],
    ['乙', '2.5', '±0.2', '±8'],
    ['丙', '3.5', '±0.1', '±5'],
    ['丁', '4.5', '±0.75', '±30'],
    ['戊', '5.5', '±0.35', '±45'],
  ];
  const lines = [
    line(686, ['名称', '数值', '上限', '下限'].map((t, c) => box(t, cols[c][0], cols[c][1], 686))),
    ...body.map((cells, r) => {
      const y = 664 - r * 20;
      const frags = cells.map((t, c) => box(t, cols[c][0], cols[c][1], y));
      // a speck beyond the frame's right end on one row
      if (r === 2) frags.push(box('.', 520, 522, y, 2));
      return line(y, frags);
    }),
  ];

  it('columns whose boxes touch are split where their print leaves a gap; text beyond the rules is no column', () => {
    const segs = pageTableSegments(lines, buildGrids(rulings), { scanned: true });
    expect(segs).toHaveLength(1);
    expect(segs[0].threeLine).toBe(true);
    expect(segs[0].columns).toHaveLength(4);
    // one header line: the rows are every row, the header first
    expect(segs[0].rows).toEqual([['名称', '数值', '上限', '下限'], ...body]);
  });
});

describe('merged first column on a scan', () => {
  it('a first column of numbers printed once over its rows fills down; a blank in another number column stays', () => {
    const rows = [
      ['0.1', '5', '—', '±15'],
      ['', '20', '', '±8'],
      ['', '100', '0.3', '±5'],
      ['0.2S', '5', '0.4', '±30'],
      ['', '20', '', '±15'],
    ];
    fillMergedDown(rows, true);
    expect(rows.map((r) => r[0])).toEqual(['0.1', '0.1', '0.1', '0.2S', '0.2S']);
    expect(rows.map((r) => r[2])).toEqual(['—', '', '0.3', '0.4', '']);
  });
});

describe('unruled table with a crammed two-line header', () => {
  // body columns' print (x): 0类 120–145, 110kV 190–226, ≤4 241–261, ≤50 316–341, 昼 392–415, 夜 432–456
  const cols: [number, number][] = [
    [120, 145],
    [190, 226],
    [241, 261],
    [316, 341],
    [392, 415],
    [432, 456],
  ];
  const rows = [
    ['0类', '110kV', '≤4', '≤50', '≤50', '≤40'],
    ['0类', '220kV', '≤4', '≤50', '≤50', '≤40'],
    ['1类', '110kV', '≤4', '≤50', '≤55', '≤45'],
    ['2类', '500kV', '≤4', '≤100', '≤60', '≤50'],
  ];
  const lines = [
    line(700, [box('表A.2 厂界噪声限值', 196, 403, 700)]),
    // three header lines 10 pt apart, rows 20 pt apart: the group label, the row-spanning labels (their padded
    // boxes touching), the sub-labels
    line(676, [box('噪声限值 dB(A)', 392, 468, 676)]),
    line(666, [box('功能区', 122, 186, 666, 8), box('电压等级', 195, 235, 666, 8), box('工频电场 kV/m', 240, 316, 666, 8), box('磁感应强度 μT', 318, 388, 666, 8)]),
    line(656, [box('昼间', 392, 419, 656, 0), box('夜间', 431, 458, 656, 0)]),
    ...rows.map((cells, r) => line(635 - r * 20, cells.map((t, c) => box(t, cols[c][0], cols[c][1], 635 - r * 20, 0)))),
  ];

  it('the lines crammed above the rows are the header: group label, spanning labels, sub-labels', () => {
    const segs = findTableSegments(lines);
    expect(segs).toHaveLength(1);
    expect(segs[0].from).toBe(1);
    expect(segs[0].header?.lines).toEqual([
      ['', '', '', '', '', '噪声限值 dB(A)'],
      ['功能区', '电压等级', '工频电场 kV/m', '磁感应强度 μT', '', ''],
      ['', '', '', '', '昼间', '夜间'],
    ]);
    expect(segs[0].header?.names.slice(4)).toEqual(['噪声限值 dB(A)·昼间', '噪声限值 dB(A)·夜间']);
    expect(segs[0].rows).toEqual(rows);
  });
});

describe('a scanned page image: the print inside a box', () => {
  const width = 1000;
  const height = 900;
  const page = () => ({ width, height, data: new Uint8Array(width * height).fill(235) });
  const ink = (img: { data: Uint8Array }, x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) img.data[y * width + x] = 40;
  };
  /** glyphs 15 px wide, 4 px apart, 28 px high, from x over `w` px */
  const word = (img: { data: Uint8Array }, x: number, w: number, y: number) => {
    for (let g = x; g + 15 <= x + w; g += 19) ink(img, g, y - 14, g + 15, y + 14);
  };

  it('a neighbour\'s glyph in the box\'s padding is left out; a faint dash and a word space inside are the box\'s', () => {
    const img = page();
    word(img, 120, 50, 300);
    ink(img, 192, 286, 210, 314);
    const share = inkShare(img, { x0: 100, y0: 278, x1: 200, y1: 323, score: 1 })!;
    expect(share[0]).toBeCloseTo(0.2, 2);
    expect(share[1]).toBeCloseTo(0.55, 2);
    // "00:00—01:00": a faint thin dash (grey 190 on paper 235) between two words, 20 px from each
    const time = page();
    word(time, 320, 70, 500);
    for (let x = 410; x <= 440; x++) for (let y = 499; y <= 501; y++) time.data[y * width + x] = 190;
    word(time, 460, 70, 500);
    const both = inkShare(time, { x0: 305, y0: 478, x1: 545, y1: 523, score: 1 })!;
    expect(both[0] * 240 + 305).toBeCloseTo(320, 0);
    expect(both[1] * 240 + 305).toBeCloseTo(514, 0);
  });
});

describe('OCR items', () => {
  it('a dash lying on a ruling is no text; a dash in a cell is', () => {
    const result = {
      page: 1,
      widthPt: 600,
      heightPt: 800,
      skew: 0,
      dpi: 200,
      ms: 0,
      rulings: [{ x0: 100, x1: 500, y0: 236, y1: 236 }],
      lines: [
        { text: '额定容量', confidence: 1, min_confidence: 1, x0: 150, y0: 245, x1: 210, y1: 262, ink: [0.1, 0.9] as [number, number] },
        { text: '—', confidence: 1, min_confidence: 1, x0: 160, y0: 228, x1: 176, y1: 244, ink: [0, 1] as [number, number] },
        { text: '—', confidence: 1, min_confidence: 1, x0: 200, y0: 280, x1: 216, y1: 296, ink: [0.1, 0.9] as [number, number] },
        { text: '300', confidence: 1, min_confidence: 1, x0: 250, y0: 280, x1: 280, y1: 296, ink: [0.1, 0.9] as [number, number] },
      ],
    };
    const items = ocrItems(result);
    expect(items.map((i) => [i.str, Math.round(i.x)])).toEqual([
      ['额定容量', 150],
      ['—', 200],
      ['300', 250],
    ]);
    expect(items[0].ink?.map(Math.round)).toEqual([156, 204]);
  });
});
