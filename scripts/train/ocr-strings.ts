/**
 * Text for fine-tuning the OCR recogniser (`npm run train:ocr`, docs/ocr.md "Fine-tuning the recogniser"): table
 * cells from a grammar weighted like real regulation tables, and running lines from statutes of ../shared/data/laws
 * (every folder but 行政法规, the one the OCR eval prints its statute pages from). Nothing is taken from the eval's
 * table fixtures' strings.
 *
 * v3 (stop 37): the weights were measured, not guessed. The kinds of cells of the tuning table fixtures' generator
 * (6,177 cells): plain numbers 41 %, Han labels 23 %, lone short cells ("—", "/", "0", "Ⅱ", "A", "s"…) 9 %, Han
 * with digits 7 %, Han with signs/units/Roman numerals 5 %, a sign before a number 5 % (≤ 230, ≥ 172, ± 135 of
 * the signs), codes 4 %, number + unit 2 %, ranges 0.6 %; units kV 258, % 66, V 66, A 48, kA 21, Ω 11, ms 10, MW
 * 10, ℃ 10, s 8, min 8, h 8 and never ‰. The statutes (4.9 M characters) print % 99 times and ‰ never, "—" 5
 * times and "×" 233. v1/v2's grammar taught ‰ as often as %, Roman numerals in 4 % of cells and dashes read 一;
 * here ‰ is 1 in 60 of the percent signs, Roman numerals stand where tables print them (after a Han label:
 * "Ⅱ段", "Ⅲ类", or alone), "—" is the lone cell's and the between-names dash and 一 appears only inside Han text.
 *
 * Cells are returned as {text, label}: what is printed and what the recogniser should read (its dictionary has
 * no Ⅰ, ⩽, ⩾: printed "Ⅰ" is read "I" — NFKC-equal — "⩽" is read "≤"). Only labels of dictionary characters are
 * produced (the caller checks).
 */
import fs from 'node:fs';
import path from 'node:path';

export type Rand = () => number;
export interface Cell {
  text: string;
  label: string;
}

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
/** one of `xs` by weight: [value, weight][] */
function weighted<T>(r: Rand, xs: readonly (readonly [T, number])[]): T {
  const total = xs.reduce((a, [, w]) => a + w, 0);
  let k = r() * total;
  for (const [v, w] of xs) if ((k -= w) < 0) return v;
  return xs[xs.length - 1][0];
}

/** units by how often regulation tables print them (tuning fixtures' counts, rarer units of real tables added) */
const UNITS: [string, number][] = [
  ['kV', 60], ['%', 25], ['V', 15], ['A', 12], ['kA', 6], ['Ω', 4], ['MΩ', 3], ['ms', 4], ['s', 4], ['MW', 3], ['℃', 4], ['min', 3], ['h', 3],
  ['m', 3], ['km', 2], ['kW', 2], ['kVA', 2], ['MVA', 2], ['kvar', 1], ['mA', 1], ['mm', 2], ['mm²', 2], ['Hz', 2], ['kg', 1], ['MPa', 1],
  ['m/s', 1], ['d', 1], ['°', 1], ['μF', 0.5], ['kWh', 1], ['t', 0.5], ['dB', 0.5], ['‰', 0.4],
];
/** comparison and other signs before a number, by their counts in the tuning fixtures */
const SIGNS: [string, number][] = [['≤', 23], ['≥', 17], ['±', 13], ['>', 2], ['<', 2], ['＞', 1], ['＜', 1]];
/** the voltage levels, ratings and settings power tables are full of */
const SERIES = ['0.4', '0.38', '6', '6.3', '10', '10.5', '20', '35', '38.5', '66', '110', '121', '220', '242', '330', '500', '750', '1000', '100', '200', '400', '630', '800', '1250', '1600', '2000', '2500', '3150', '4000', '0.5', '0.2', '0.1', '1.0', '1.5', '2.5', '5', '15', '25', '50', '60', '80', '90', '95', '120', '150', '240', '300'];
/** lone short cells (a table's "not applicable", units of a unit row, a class, a letter) */
const LONE: [string, number][] = [
  ['—', 24], ['/', 8], ['-', 4], ['0', 12], ['1', 4], ['2', 3], ['3', 3], ['4', 2], ['5', 2], ['6', 1], ['7', 1], ['8', 1], ['9', 1],
  ['±3', 1], ['±5', 1], ['±1', 0.5], ['+1', 0.5], ['-1', 0.5], ['0.5', 1], ['±0.5', 0.5], ['<1', 0.3], ['≤1', 0.5], ['≥3', 0.5],
  ['Ⅱ', 3], ['Ⅰ', 0.7], ['Ⅲ', 2], ['Ⅳ', 1], ['A', 4], ['B', 2], ['C', 2], ['s', 4], ['V', 3], ['kV', 5],
  ['%', 4], ['Hz', 2], ['ms', 2], ['min', 2], ['h', 2], ['Ω', 2], ['MΩ', 1], ['℃', 2], ['kA', 2], ['mm²', 1], ['mm', 1], ['MW', 1], ['kVA', 1], ['m', 1],
  ['√', 2], ['×', 2], ['无', 2], ['是', 1], ['否', 1], ['有', 1], ['‰', 0.3],
];
/** Roman numerals by weight: Ⅰ is read "I" (the dictionary has no Ⅰ), and v3's Ⅰ→I labels taught the head to read
 * "1" as "I" in codes (Y10W → YI0W) and Ⅱ as I at 150 dpi: Ⅰ is rare (stop 38) */
const ROMAN: [string, number][] = [['Ⅰ', 0.5], ['Ⅱ', 3], ['Ⅲ', 2], ['Ⅳ', 1]];
const ROMAN_AFTER = ['段', '类', '级', '区', '母', '回', '型', '期', '号'];
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
/** Han characters the recogniser confuses with a neighbour in unseen faces: offered more often in labels */
const CONFUSABLE = '土士一二三工干千于十七己已巳日曰未末午牛人入八大太天夫'.split('');
const CODE_HEADS = ['Y10W', 'HY10WZ', 'Y5WZ', 'YJV', 'YJV22', 'VV', 'VV22', 'LGJ', 'JKLYJ', 'BV', 'BVR', 'RVV', 'KVV', 'ZR-YJV', 'GW', 'GN', 'ZW', 'LW', 'SF', 'FZN', 'JDZ', 'LZZB', 'S11-M', 'SCB10', 'HXGN', 'KYN', 'XGN', 'DW', 'CJ', 'QL', 'MOA', 'HY5WZ', 'ZSW', 'PT', 'CT', 'SVG', 'SVC', 'GIS', 'HGIS', 'UPS', 'DC', 'AC', 'TV', 'TA'];
const ORDINALS = ['号', '#', '段', '组', '台', '回', '条', '处', '级', '类', '次', '项', '只', '根', '基', '个', '年', '月', '天', '小时'];
const PLACES = ['变电站', '线路', '母线', '开关站', '换流站', '配电室', '间隔', '主变', '出线', '馈线'];
const NTH = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/** A number as tables print them: the 0 of an empty reading, small counts, series values, decimals, signed deviations. */
function num(r: Rand): string {
  const k = r();
  if (k < 0.1) return String(int(r, 0, 9));
  if (k < 0.13) return '0';
  if (k < 0.38) return pick(r, SERIES);
  if (k < 0.58) return String(r() < 0.5 ? int(r, 1, 20) * 5 : int(r, 10, 999));
  if (k < 0.65) return String(int(r, 1000, 99999));
  if (k < 0.93) {
    const whole = pick(r, [0, 0, int(r, 0, 9), int(r, 10, 99), int(r, 100, 999)]);
    const places = pick(r, [1, 1, 1, 2, 2, 3]);
    return `${whole}.${String(int(r, 0, 10 ** places - 1)).padStart(places, '0')}`;
  }
  return `${pick(r, ['+', '-', '+', '-'])}${pick(r, [int(r, 1, 15), pick(r, ['0.5', '1.5', '2.5', '7', '10'])])}`;
}

const unit = (r: Rand) => weighted(r, UNITS);

function date(r: Rand): string {
  const y = int(r, 1990, 2030);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const p = (n: number) => String(n).padStart(2, '0');
  return weighted(r, [[`${y}-${p(m)}-${p(d)}`, 4], [`${y}.${m}.${d}`, 1], [`${y}年${m}月${d}日`, 3], [`${y}年${m}月`, 2], [`${y}/${p(m)}/${p(d)}`, 1]]);
}

function time(r: Rand): string {
  const h = int(r, 0, 23);
  const p = (n: number) => String(n).padStart(2, '0');
  const t1 = `${p(h)}:${p(pick(r, [0, 0, 15, 30, 45, int(r, 0, 59)]))}`;
  const t2 = `${p((h + int(r, 1, 3)) % 24)}:${p(pick(r, [0, 0, 30, int(r, 0, 59)]))}`;
  return weighted(r, [[t1, 3], [`${t1}—${t2}`, 1], [`${t1}-${t2}`, 2], [`${t1}～${t2}`, 0.5]]);
}

function code(r: Rand): string {
  const head = pick(r, CODE_HEADS);
  const a = pick(r, ['', `-${int(r, 1, 4)}×${pick(r, [16, 25, 35, 50, 70, 95, 120, 150, 185, 240, 300, 400])}`, `-${pick(r, [10, 12, 35, 40.5, 126, 252])}`, `-${pick(r, [10, 35, 110, 220])}/${pick(r, [240, 300, 400, 630, 1250])}`, `${int(r, 1, 9)}`]);
  const b = r() < 0.3 ? pick(r, [`+${int(r, 1, 4)}×${pick(r, [10, 16, 25, 35])}`, `/${int(r, 10, 99)}`, `-${pick(r, LETTERS.split(''))}`]) : '';
  return `${head}${a}${b}`;
}

/** `n` Han characters (or fewer) of a statute sentence, punctuation dropped. */
function hanSpan(r: Rand, sentences: string[], n: number): string {
  for (let tries = 0; tries < 20; tries++) {
    const s = pick(r, sentences).replace(/[^\u4e00-\u9fff]/g, '');
    if (s.length < n) continue;
    // a quarter of the time the span starts at a confusable character when the sentence has one
    const at = r() < 0.25 ? [...s].findIndex((c, i) => i <= s.length - n && CONFUSABLE.includes(c)) : -1;
    const start = at >= 0 ? at : int(r, 0, s.length - n);
    return s.slice(start, start + n);
  }
  return pick(r, CONFUSABLE);
}

/** Han with digits: numbered equipment, counts, places at a voltage level. */
function hanDigits(r: Rand, s: string[]): string {
  return weighted(r, [
    [`${int(r, 1, 12)}${pick(r, ORDINALS)}${hanSpan(r, s, int(r, 1, 4))}`, 3],
    [`${hanSpan(r, s, int(r, 2, 4))}${pick(r, SERIES.slice(0, 18))}kV${pick(r, PLACES)}`, 2],
    [`${hanSpan(r, s, int(r, 1, 4))}${int(r, 1, 12)}${pick(r, ORDINALS)}`, 2],
    [`${pick(r, ['每', '不少于', '不超过', '至少'])}${int(r, 1, 12)}${pick(r, ['次', '年', '个月', '天', '人', '台'])}`, 1],
    [`第${pick(r, NTH)}${pick(r, ['条', '款', '项', '章', '节'])}`, 1],
    [`${pick(r, NTH)}${pick(r, ['号', '级', '类', '次'])}${hanSpan(r, s, int(r, 1, 3))}`, 1],
    [`${num(r)}${unit(r)}${hanSpan(r, s, int(r, 2, 4))}`, 1],
    // Han text that ends a cell, as the 150 dpi rows that gained a letter printed it ("每半年", "每季度")
    [`${pick(r, ['每', '每隔', '不少于'])}${pick(r, ['半年', '季度', '月', '年', '周', '班', '天'])}`, 1],
  ]);
}

/** Han with signs, units, Roman numerals or a dash: header cells, protection stages, running text in a cell. */
function hanSymbols(r: Rand, s: string[]): Cell {
  const le = (): [string, string] => weighted(r, [[['≤', '≤'], 5], [['≥', '≥'], 4], [['⩽', '≤'], 2], [['⩾', '≥'], 1.5]] as [[string, string], number][]);
  const k = r();
  if (k < 0.25) {
    const u = unit(r);
    // no bare Latin unit right after Han (v3's "电压kV" taught a speck after Han to read as a unit letter at 150 dpi:
    // "每半年S"); tables print the unit in brackets or after a slash, a bare one only when it is not a letter
    const bare = /[A-Za-z]/.test(u) ? `（${u}）` : u;
    const t = weighted(r, [[`${hanSpan(r, s, int(r, 2, 5))}（${u}）`, 3], [`${hanSpan(r, s, int(r, 2, 5))}(${u})`, 1], [`${hanSpan(r, s, int(r, 2, 4))}/${u}`, 1], [`${hanSpan(r, s, int(r, 2, 5))}${bare}`, 2]]);
    return { text: t, label: t };
  }
  if (k < 0.45) {
    const rn = weighted(r, ROMAN);
    const t = `${r() < 0.7 ? hanSpan(r, s, int(r, 2, 4)) : ''}${rn}${pick(r, ROMAN_AFTER)}`;
    return { text: t, label: t.replace('Ⅰ', 'I') };
  }
  // the dash between two names (a line "东郊—西山"): rare, as random Han on both sides gives the dash no context
  // that 一 lacks, and 一 is the commonest character of running text
  if (k < 0.52) {
    const t = `${hanSpan(r, s, int(r, 2, 3))}—${hanSpan(r, s, int(r, 2, 3))}`;
    return { text: t, label: t };
  }
  // running text in a cell with a comparison sign inside it ("接地电阻≤4Ω", 楷体 "⩽" included)
  const [p, l] = le();
  const a = hanSpan(r, s, int(r, 2, 6));
  const n = `${num(r)}${r() < 0.7 ? unit(r) : ''}`;
  const b = r() < 0.4 ? hanSpan(r, s, int(r, 1, 4)) : '';
  return { text: `${a}${p}${n}${b}`, label: `${a}${l}${n}${b}` };
}

const same = (t: string): Cell => ({ text: t, label: t });

/** One table cell: what is printed and what should be read. */
export function cellText(r: Rand, sentences: string[]): Cell {
  const k = r();
  if (k < 0.28) return same(num(r));
  if (k < 0.46) return same(hanSpan(r, sentences, weighted(r, [[1, 1], [2, 3], [3, 3], [4, 3], [5, 2], [6, 2], [8, 1], [10, 1]])));
  if (k < 0.56) {
    const t = weighted(r, LONE);
    return { text: t, label: t === 'Ⅰ' ? 'I' : t };
  }
  if (k < 0.65) return same(hanDigits(r, sentences));
  if (k < 0.72) return hanSymbols(r, sentences);
  if (k < 0.8) {
    const sign = weighted(r, [...SIGNS, ['⩽', 3], ['⩾', 2]]);
    const label = sign === '⩽' ? '≤' : sign === '⩾' ? '≥' : sign;
    const n = `${num(r).replace(/^[+-]/, '')}${r() < 0.5 ? unit(r) : ''}`;
    return { text: `${sign}${n}`, label: `${label}${n}` };
  }
  if (k < 0.86) return same(code(r));
  if (k < 0.93) return same(`${num(r)}${unit(r)}`);
  if (k < 0.97) {
    const u = r() < 0.3 ? unit(r) : '';
    return same(`${num(r)}${weighted(r, [['～', 3], ['-', 2], ['—', 1], ['~', 1]])}${num(r)}${u}`);
  }
  if (k < 0.99) return same(date(r));
  return same(time(r));
}

/** Lines of statute text (body lines after the header block), from every folder of `laws` but 行政法规. */
export function statuteSentences(laws: string, r: Rand, maxFiles = 400): string[] {
  const files: string[] = [];
  for (const folder of fs.readdirSync(laws).sort()) {
    if (folder === '行政法规' || folder.startsWith('.')) continue;
    const dir = path.join(laws, folder);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.md') && !f.startsWith('_')) files.push(path.join(dir, f));
  }
  const chosen = files.filter(() => r() < Math.min(1, maxFiles / files.length));
  const out: string[] = [];
  for (const f of chosen) {
    const raw = fs.readFileSync(f, 'utf8');
    const body = raw.split('<!-- INFO END -->')[1] ?? raw;
    for (const l of body.split(/\r?\n/)) {
      const t = l.replace(/^#+\s*/, '').trim();
      if (t.length >= 8) out.push(t);
    }
  }
  return out;
}

/** A printed line of running text: `chars` characters of a statute sentence. */
export function statuteLine(r: Rand, sentences: string[], chars: number): string {
  const s = pick(r, sentences);
  if (s.length <= chars) return s;
  const start = int(r, 0, s.length - chars);
  return s.slice(start, start + chars);
}
