import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { lexiconOf, rereadLines, romanOne, segmentationLexicon, sortedLines, type Lexicon } from '../../../src/core/ocr/reread';
import type { RecognizedLine } from '../../../src/core/ocr/recognize';
import { tempContext, tempDir } from '../../helpers';
import { SCAN_TABLE_DOCS, expectedRows, writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';
import { scanOf } from '../../fixtures/scans';

/**
 * Unsure characters re-read with the recogniser's runners-up (the fused model's top-5 per CTC step) where
 * the page's other lines or the segmentation dictionary know the text they make. 微米黑等宽 prints 土 so
 * that the recogniser reads it 士 in some cells (土 the runner-up at 0.26–0.44): the tuning table `jiedi`
 * of `npm run eval -- ocr`, scanned as there (200 dpi, +0.4°, mild noise, seed 5).
 */
const JIEDI = SCAN_TABLE_DOCS.find((d) => d.name === 'jiedi')!;
const FIRST_PAGE: DocSpec = { ...JIEDI, name: 'jiedi1', tables: [{ ...JIEDI.tables[0], rows: JIEDI.tables[0].rows.slice(0, 14), continuation: undefined }] };

let ctx: ReturnType<typeof tempContext>;
let dir: string;
let printed: string;

beforeAll(async () => {
  ctx = tempContext();
  dir = tempDir('gridcode-reread-');
  [{ file: printed }] = await writeStructureDocs(dir, { docs: [FIRST_PAGE] });
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('re-reading with the runners-up', { timeout: 120_000 }, () => {
  it('a 微米黑等宽 table scanned at 200 dpi reads 土, not 士, in every soil cell (real ONNX recogniser)', async () => {
    const scan = path.join(dir, 'jiedi-scan.pdf');
    fs.writeFileSync(scan, await scanOf(fs.readFileSync(printed), 200, { skew: 0.4, speckle: 0.001, blur: 1, jpegQuality: 80, seed: 5 }));
    const [r] = await invokeOperation(ctx, 'regulations.import', { paths: [scan] });
    expect(r.status).toBe('imported');
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: r.reg_id!, table_id: '表4-2' });
    const want = expectedRows(FIRST_PAGE.tables[0]);
    expect(t.rows.map((x) => x.cells[1])).toEqual(want.map((c) => c[1]));
  });
});

/** A line as the fused model gives it: per character its step's top classes (dictionary indices + 1) and probabilities. */
function line(dictionary: string[], chars: [string, number, [string, number]?][]): RecognizedLine {
  const k = 2;
  const classes = new Int32Array(chars.length * k);
  const probs = new Float32Array(chars.length * k);
  chars.forEach(([ch, p, alt], s) => {
    classes[s * k] = dictionary.indexOf(ch) + 1;
    probs[s * k] = p;
    classes[s * k + 1] = alt ? dictionary.indexOf(alt[0]) + 1 : 0;
    probs[s * k + 1] = alt ? alt[1] : 1 - p;
  });
  const conf = chars.map((c) => c[1]);
  return {
    text: chars.map((c) => c[0]).join(''),
    confidence: conf.reduce((a, b) => a + b, 0) / conf.length,
    charConfidence: conf,
    top: { k, steps: chars.length, classes, probs, charStep: chars.map((_, i) => i) },
  };
}

const plainIn = (dictionary: string[], text: string) => line(dictionary, [...text].map((c) => [c, 0.99] as [string, number]));

describe('rereadLines', () => {
  const dictionary = [...'砂士土黏岩石YI10W-/26母Ⅱ主变一—郊北岭东线'];
  const lexicon: Lexicon = new Set(['砂土', '黏土', '岩石']);
  const plain = (text: string) => line(dictionary, [...text].map((c) => [c, 0.99] as [string, number]));

  it('takes the runner-up when the dictionary or the page knows the text it makes, not otherwise', () => {
    const out = rereadLines(
      [
        line(dictionary, [['砂', 0.98], ['士', 0.6, ['土', 0.38]]]),
        line(dictionary, [['Y', 0.99], ['I', 0.72, ['1', 0.28]], ['0', 0.9], ['W', 0.95]]),
        plain('Y10W'),
        // a sure character is never re-read, a runner-up below MIN_ALT never taken
        line(dictionary, [['黏', 0.99], ['士', 0.95, ['土', 0.05]]]),
        line(dictionary, [['砂', 0.99], ['士', 0.7, ['土', 0.1]]]),
      ],
      dictionary,
      () => lexicon,
    );
    expect(out.map((l) => l.text)).toEqual(['砂土', 'Y10W', 'Y10W', '黏士', '砂士']);
    // the re-read character's probability: the two readings' together
    expect(out[0].charConfidence[1]).toBeCloseTo(0.98, 5);
  });

  it('never swaps across kinds of character (a dash the page misreads as 一 stays a dash) nor marks', () => {
    const out = rereadLines([line(dictionary, [['东', 0.99], ['郊', 0.99], ['—', 0.55, ['一', 0.44]], ['北', 0.99], ['岭', 0.99]]), plain('东郊一北岭'), plain('东郊一北岭')], dictionary, () => lexicon);
    expect(out[0].text).toBe('东郊—北岭');
    // nor a mark for a mark: signs are read from their ink and the column ("≥" re-read ">" from other cells)
    const signs = [...'≥>45'];
    const sign = rereadLines([line(signs, [['≥', 0.6, ['>', 0.4]], ['4', 0.99], ['5', 0.99]]), plainIn(signs, '>45'), plainIn(signs, '>45')], signs, () => lexicon);
    expect(sign[0].text).toBe('≥45');
  });

  it('puts back a character passed over when the page and the dictionary know the text, never a mark', () => {
    // steps: blank (一 0.2 runner-up), 般, 缺, 陷 — the line read "般缺陷"
    const dict = [...'一般缺陷-严重'];
    const idx = (ch: string) => dict.indexOf(ch) + 1;
    const k = 2;
    const steps: [number, number, number, number][] = [
      [0, 0.7, idx('一'), 0.2],
      [idx('般'), 0.99, 0, 0.01],
      [idx('缺'), 0.99, 0, 0.01],
      [idx('陷'), 0.99, 0, 0.01],
    ];
    const dropped: RecognizedLine = {
      text: '般缺陷',
      confidence: 0.99,
      charConfidence: [0.99, 0.99, 0.99],
      charX: [0.375, 0.625, 0.875],
      top: { k, steps: 4, classes: Int32Array.from(steps.flatMap((x) => [x[0], x[2]])), probs: Float32Array.from(steps.flatMap((x) => [x[1], x[3]])), charStep: [1, 2, 3] },
    };
    const lex: Lexicon = new Set(['一般', '缺陷']);
    const page = [plainIn(dict, '一般缺陷'), plainIn(dict, '严重缺陷')];
    const out = rereadLines([dropped, ...page], dict, () => lex);
    expect(out[0].text).toBe('一般缺陷');
    expect(out[0].charX).toEqual([0.125, 0.375, 0.625, 0.875]);
    expect(out[0].top!.charStep).toEqual([0, 1, 2, 3]);
    // the same blank step with a hyphen as the runner-up: a mark is never put in
    const hyphen = { ...dropped, top: { ...dropped.top!, classes: Int32Array.from(steps.flatMap((x, i) => [x[0], i ? x[2] : idx('-')])) } };
    expect(rereadLines([hyphen, ...page], dict, () => lex)[0].text).toBe('般缺陷');
    // without the page's or the dictionary's word, nothing is put in
    expect(rereadLines([dropped], dict, () => new Set<string>())[0].text).toBe('般缺陷');
  });

  it('the segmentation dictionary packed for look-up knows jieba\'s words and the domain dictionary\'s, not misreadings', () => {
    const lex = segmentationLexicon();
    for (const w of ['砂土', '黏土', '一般', '变电站', '母线']) expect(lex.has(w)).toBe(true);
    for (const w of ['砂士', '黏士', '土', '一般缺陷问题']) expect(lex.has(w)).toBe(false);
  });

  it('searches a sorted dictionary in place and packs an unsorted one, with the same answers', () => {
    // jieba's dictionary ships sorted by word (byte order), so it is searched as it is, nothing built
    const jieba = (createRequire(import.meta.url)('@node-rs/jieba/dict.js') as { dict: Uint8Array }).dict;
    expect(sortedLines(jieba)).toBe(true);
    const lines = ['一般 30 a', '一般性 8 n', '变电 5 v', '变电站 40 n', '土 9 n', '母线 12 n', '砂土 3 n', '黏土 4 n', '𠀋𠀋 1 n', 'kV 2 eng'];
    const sorted = Buffer.from([...lines].sort((a, b) => Buffer.compare(Buffer.from(a.split(' ')[0]), Buffer.from(b.split(' ')[0]))).join('\n') + '\n');
    const unsorted = Buffer.from([...lines].reverse().join('\r\n'));
    expect(sortedLines(sorted)).toBe(true);
    expect(sortedLines(unsorted)).toBe(false);
    // a repeated word, or a blank line inside, is no sorted dictionary either
    expect(sortedLines(Buffer.from('一般 1\n一般 2\n'))).toBe(false);
    expect(sortedLines(Buffer.from('一般 1\n\n变电 2\n'))).toBe(false);
    const probes = ['一般', '一般性', '变电', '变电站', '母线', '砂土', '黏土', '土', '砂士', '一', '一般性质', '电站', '变电站站', 'kV', '𠀋𠀋', '站变', ''];
    const a = lexiconOf(sorted, ['直埋 3 n\n']);
    const b = lexiconOf(unsorted, ['直埋 3 n\n']);
    const known = probes.filter((w) => a.has(w));
    // 2–4 Han characters only: not "土", not Latin, not a character outside the BMP's Han blocks
    expect(known).toEqual(['一般', '一般性', '变电', '变电站', '母线', '砂土', '黏土']);
    expect(probes.filter((w) => b.has(w))).toEqual(known);
    expect(a.has('直埋') && b.has('直埋')).toBe(true);
  });

  it('reads "1"/"I" before a character the page prints after Ⅱ as Ⅰ (the dictionary has no Ⅰ)', () => {
    const out = romanOne([plain('1母'), plain('Ⅱ母'), plain('I母'), plain('21母'), plain('1号')]);
    expect(out.map((l) => l.text)).toEqual(['Ⅰ母', 'Ⅱ母', 'Ⅰ母', '21母', '1号']);
  });
});
