import { describe, expect, it } from 'vitest';
import { readDigitDashes, readRomanBars } from '../../../src/core/ocr/cells';
import type { RecognizedLine } from '../../../src/core/ocr/recognize';

/**
 * Characters of a table cell decided from their ink where the recogniser reads a lookalike: a dash between two
 * digits read as a hyphen, Roman numerals' bars read as a one. Drawn images (no font needed): what is measured
 * is the ink, the recogniser's reading is given.
 */
const white = (w: number, h: number) => ({ width: w, height: h, data: new Uint8Array(w * h).fill(255) });
const paint = (img: { width: number; data: Uint8Array }, x0: number, y0: number, x1: number, y1: number, v = 60) => {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) img.data[y * img.width + x] = v;
};
/** A "0": a ring of one-pixel... two-pixel strokes. */
const zero = (img: { width: number; data: Uint8Array }, x0: number) => {
  paint(img, x0, 8, x0 + 2, 27);
  paint(img, x0 + 8, 8, x0 + 10, 27);
  paint(img, x0, 8, x0 + 10, 10);
  paint(img, x0, 25, x0 + 10, 27);
};
/** A Han glyph's stand-in: a box crossed by horizontal and upright strokes (no column of it is a thin bar). */
const han = (img: { width: number; data: Uint8Array }, x0: number) => {
  for (const y of [5, 11, 17, 24]) paint(img, x0, y, x0 + 18, y + 2);
  for (const x of [x0, x0 + 8, x0 + 16]) paint(img, x, 5, x + 2, 26);
};
const line = (text: string, conf: number[], xs: number[], width: number): RecognizedLine => ({
  text,
  charConfidence: conf,
  confidence: conf.reduce((a, b) => a + b, 0) / conf.length,
  charX: xs.map((x) => x / width),
});

describe('cell characters from their ink', () => {
  it('a hyphen read between two digits is a dash when its bar is as long as an em dash; a short one stays', () => {
    const box = { x0: 0, y0: 0, x1: 80, y1: 35, score: 1 };
    const long = white(80, 35);
    zero(long, 6);
    paint(long, 20, 17, 42, 19, 150); // a grey em dash, 22 px of a 35 px box
    zero(long, 46);
    expect(readDigitDashes(long, box, line('0-0', [1, 0.9, 1], [11, 31, 51], 80)).text).toBe('0—0');
    const short = white(80, 35);
    zero(short, 6);
    paint(short, 21, 17, 29, 19, 150); // a hyphen, 8 px
    zero(short, 33);
    expect(readDigitDashes(short, box, line('0-0', [1, 0.9, 1], [11, 25, 38], 80)).text).toBe('0-0');
    // not between digits: left to the column rules
    expect(readDigitDashes(long, box, line('N-0', [1, 0.9, 1], [11, 31, 51], 80)).text).toBe('N-0');
  });

  it('two or three thin bars between Han glyphs read as an unsure "1" are Ⅱ / Ⅲ; one bar, 第, a sure reading stay', () => {
    const box = { x0: 0, y0: 0, x1: 90, y1: 31, score: 1 };
    const two = white(90, 31);
    han(two, 4);
    paint(two, 32, 9, 34, 22);
    paint(two, 38, 9, 40, 22);
    han(two, 50);
    expect(readRomanBars(two, box, line('流1段', [1, 0.5, 1], [13, 36, 59], 90)).text).toBe('流Ⅱ段');
    expect(readRomanBars(two, box, line('流1段', [1, 0.99, 1], [13, 36, 59], 90)).text).toBe('流1段');
    expect(readRomanBars(two, box, line('第1段', [1, 0.5, 1], [13, 36, 59], 90)).text).toBe('第1段');
    const three = white(90, 31);
    han(three, 4);
    for (const x of [30, 35, 40]) paint(three, x, 9, x + 2, 22);
    han(three, 50);
    expect(readRomanBars(three, box, line('流II段', [1, 0.6, 0.5, 1], [13, 33, 38, 59], 90)).text).toBe('流Ⅲ段');
    const one = white(90, 31);
    han(one, 4);
    paint(one, 35, 9, 37, 22);
    han(one, 50);
    expect(readRomanBars(one, box, line('器1组', [1, 0.5, 1], [13, 36, 59], 90)).text).toBe('器1组');
  });

  it('a Roman numeral read twice, or with a stroke read again as a one, is the surer numeral read', () => {
    const blank = white(90, 31);
    const box = { x0: 0, y0: 0, x1: 90, y1: 31, score: 1 };
    expect(readRomanBars(blank, box, line('离ⅡⅢ段', [1, 0.49, 0.8, 1], [13, 33, 38, 59], 90)).text).toBe('离Ⅲ段');
    expect(readRomanBars(blank, box, line('流Ⅱ1段', [1, 0.9, 0.4, 1], [13, 33, 38, 59], 90)).text).toBe('流Ⅱ段');
    expect(readRomanBars(blank, box, line('流Ⅱ段', [1, 0.9, 1], [13, 36, 59], 90)).text).toBe('流Ⅱ段');
  });
});
