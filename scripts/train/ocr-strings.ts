/**
 * Text for fine-tuning the OCR recogniser (`npm run train:ocr`, docs/ocr.md "Fine-tuned recogniser"): table
 * cells from a grammar (numbers with units, ranges, signs, dates, times, equipment codes, Roman numerals, short
 * Han labels cut from statutes) and running lines from statutes of ../shared/data/laws (every folder but
 * 行政法规, the one the OCR eval prints its statute pages from). Nothing is taken from the eval's table fixtures.
 * Only characters of the recogniser's dictionary are produced (its charset has no Ⅰ, Ⅴ–Ⅻ, φ, ³).
 */
import fs from 'node:fs';
import path from 'node:path';

export type Rand = () => number;

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

const UNITS = ['kV', 'V', 'kW', 'MW', 'kVA', 'MVA', 'kvar', 'A', 'kA', 'mA', 'mm', 'mm²', 'm', 'km', 'cm', 'm/s', 'Ω', 'MΩ', 'kΩ', '℃', '%', 's', 'ms', 'min', 'h', 'Hz', 'kg', 't', 'N', 'kN', 'MPa', 'kPa', 'm²', 'L', 'dB', '°', 'μF', 'kWh', 'd', '‰'];
const SIGNS = ['≥', '≤', '>', '<', '±', '～', '~', '×', '＞', '＜', '≈'];
const ROMAN = ['Ⅱ', 'Ⅲ', 'Ⅳ'];
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
/** Han characters the recogniser confuses with a neighbour in unseen faces: offered more often in labels */
const CONFUSABLE = '土士一二三工干千于十七己已巳日曰未末午牛人入八大太天夫'.split('');
const CODE_HEADS = ['YJV', 'YJV22', 'VV', 'VV22', 'LGJ', 'JKLYJ', 'BV', 'BVR', 'RVV', 'KVV', 'ZR-YJV', 'GW', 'GN', 'ZW', 'LW', 'SF', 'FZN', 'JDZ', 'LZZB', 'S11-M', 'SCB10', 'HXGN', 'KYN', 'XGN', 'DW', 'CJ', 'QL', 'MOA', 'HY5WZ', 'ZSW', 'PT', 'CT'];
const ORDINALS = ['号', '#', '段', '组', '台', '回', '条', '处', '级', '类', '次', '项', '只', '根', '基'];

function num(r: Rand): string {
  const k = r();
  if (k < 0.3) return String(int(r, 0, 9));
  if (k < 0.55) return String(int(r, 10, 999));
  if (k < 0.7) return String(int(r, 1000, 99999));
  const whole = pick(r, [int(r, 0, 9), int(r, 10, 99), int(r, 100, 999)]);
  const places = pick(r, [1, 1, 2, 2, 3]);
  return `${whole}.${String(int(r, 0, 10 ** places - 1)).padStart(places, '0')}`;
}

function date(r: Rand): string {
  const y = int(r, 1990, 2030);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const p = (n: number) => String(n).padStart(2, '0');
  return pick(r, [`${y}-${p(m)}-${p(d)}`, `${y}.${m}.${d}`, `${y}年${m}月${d}日`, `${y}年${m}月`, `${y}/${p(m)}/${p(d)}`]);
}

function time(r: Rand): string {
  const h = int(r, 0, 23);
  const p = (n: number) => String(n).padStart(2, '0');
  const t1 = `${p(h)}:${p(pick(r, [0, 0, 15, 30, 45, int(r, 0, 59)]))}`;
  const t2 = `${p((h + int(r, 1, 3)) % 24)}:${p(pick(r, [0, 0, 30, int(r, 0, 59)]))}`;
  return pick(r, [t1, `${t1}—${t2}`, `${t1}-${t2}`, `${t1}～${t2}`]);
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
    // half the time the span starts at a confusable character when the sentence has one
    const at = r() < 0.5 ? [...s].findIndex((c, i) => i <= s.length - n && CONFUSABLE.includes(c)) : -1;
    const start = at >= 0 ? at : int(r, 0, s.length - n);
    return s.slice(start, start + n);
  }
  return pick(r, CONFUSABLE);
}

/** One table cell's text. */
export function cellText(r: Rand, sentences: string[]): string {
  const k = r();
  const u = () => pick(r, UNITS);
  if (k < 0.12) return num(r);
  if (k < 0.26) return `${num(r)}${u()}`;
  if (k < 0.36) {
    const s = pick(r, SIGNS);
    if (s === '×') return `${num(r)}×${num(r)}${r() < 0.5 ? u() : ''}`;
    if (s === '～' || s === '~') return `${num(r)}${s}${num(r)}${r() < 0.5 ? u() : ''}`;
    return `${s}${num(r)}${r() < 0.6 ? u() : ''}`;
  }
  if (k < 0.42) return `${num(r)}${pick(r, ['-', '～', '~', '—'])}${num(r)}`;
  if (k < 0.47) return date(r);
  if (k < 0.52) return time(r);
  if (k < 0.6) return code(r);
  if (k < 0.64) return `${pick(r, ROMAN)}${pick(r, ['', '类', '级', '段', '区', '母', '回'])}`;
  if (k < 0.7) return `${int(r, 1, 12)}${pick(r, ORDINALS)}${hanSpan(r, sentences, int(r, 1, 4))}`;
  if (k < 0.76) return `${num(r)}${u()}${hanSpan(r, sentences, int(r, 2, 5))}`;
  if (k < 0.8) return `${hanSpan(r, sentences, int(r, 2, 4))}${pick(r, SIGNS.slice(0, 4))}${num(r)}${u()}`;
  if (k < 0.83) return `${hanSpan(r, sentences, int(r, 2, 5))}(${pick(r, [u(), hanSpan(r, sentences, 2)])})`;
  if (k < 0.85) return pick(r, ['—', '-', '/', '无', '是', '否', '√', '/']);
  return hanSpan(r, sentences, int(r, 1, 8));
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
