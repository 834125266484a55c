/**
 * Re-reading unsure characters with the recogniser's runners-up (the fused model's top-k per CTC step).
 *
 * On fonts it was not trained on the recogniser confuses look-alike glyphs, and its best class is then
 * often only a little ahead of the right one: 微米黑 "砂土" read "砂士" (士 0.52–0.73, 土 0.26–0.44 as the
 * runner-up), "Y10W" read "YI0W" (I 0.72, 1 0.28), "Ⅰ母" read "1母" (1 0.31–0.50, I 0.23–0.45 — the
 * dictionary has no Ⅰ; the page prints it "I母" elsewhere). The context tells which reading is text: a
 * character read below `UNSURE` is replaced by a runner-up at its step (at least `MIN_ALT` probable) when
 * the line's text around it then forms something known and did not before. Known, for a window of 2–4
 * characters of the line holding the character (not only digits and marks: numbers carry no such evidence,
 * "35" and "36" are both numbers):
 *  - the same window read in another line of the page (a table repeats its vocabulary: station names,
 *    model numbers, soil kinds; a page of text its terms), or
 *  - a Han word of the segmentation dictionary (jieba's, plus resources/dict).
 * Generic: no character pair, font or column is named; thresholds calibrated on the tuning scans
 * (`npm run eval -- ocr`, see docs/ocr.md "Re-reading with the runners-up").
 */
import fs from 'node:fs';
import path from 'node:path';
import { lazyModule } from '../common/lazy';
import { resourcesDir } from '../common/paths';
import type { RecognizedLine } from './recognize';

/** A character read below this probability may be re-read (tuning: the misreads 0.31–0.73, see the doc). */
export const UNSURE = 0.8;
/** A runner-up below this probability is not considered (tuning: the right readings 0.23–0.45). */
export const MIN_ALT = 0.15;

/** A character passed over is put back only from this probability at its step … */
export const MIN_INSERT = 0.1;
/** … and when the text it makes is this well supported (see `support`). */
export const INSERT_SUPPORT = 6;
/**
 * Only lines this short are re-read: table cells, labels, headings. In running text the recogniser's own
 * sequence context is stronger than a page's word counts — re-reading every line changed one character of
 * the statute scans for the worse for one it mended (`npm run eval -- ocr`, 200 dpi families and held-out).
 */
export const MAX_CHARS = 16;
/** A dictionary word counts as this many readings elsewhere on the page. */
export const LEXICON_WEIGHT = 3;
/** A runner-up is taken when the text it makes is this many times better supported than the text read … */
export const SUPPORT_RATIO = 2;
/** … and supported at all. */
const MIN_SUPPORT = 1;

const HAN_ONLY = /^[\u3400-\u9fff]+$/u;
/** Windows of nothing but digits, marks and spaces say nothing about which reading is right. */
const NO_EVIDENCE = /^[\d\s.,:;\-—/+%°'"()（）]*$/u;

const kind = (ch: string) => (HAN_ONLY.test(ch) ? 'han' : /\p{L}|\p{N}/u.test(ch) ? 'alnum' : 'mark');

/**
 * A runner-up may replace a character of its own kind: Han for Han, a letter or digit for a letter or digit
 * (codes mix them: "Y10W" read "YI0W"). Not across kinds — 明体 "东郊—北岭" is read "一" for the dash in most
 * cells of a column, so the page "knows" the misreading (the column rule of table-cells.ts decides dashes) —
 * not a mark for a mark (at 150 dpi signs re-read from the page's other cells, "≥" as ">" among them, cost the
 * tuning three-line tables 11 of 136 rows: signs are decided from their ink and the column), and not a
 * letter's case alone ("kV" is no likelier than "kv" from the page's words).
 */
function lookalikeKinds(read: string, alt: string): boolean {
  return alt !== read && kind(alt) === kind(read) && kind(read) !== 'mark' && alt.toLowerCase() !== read.toLowerCase();
}

export interface Lexicon {
  has(word: string): boolean;
}

const jiebaDict = lazyModule<{ dict: Uint8Array }>('@node-rs/jieba/dict.js');
let words: Lexicon | null = null;

/** A word the lexicon can hold: 2–4 Han characters. */
const lexiconWord = (w: string) => w.length >= 2 && w.length <= 4 && HAN_ONLY.test(w);

/**
 * Words of one length packed into one sorted string, looked up by binary search: 330,000 words take
 * about 2 MB this way, against about 100 MB of peak RSS as a Set of strings (`npm run bench -- ocr`).
 */
class PackedWords implements Lexicon {
  private readonly packed = new Map<number, string>();
  constructor(list: string[]) {
    const byLength = new Map<number, string[]>();
    for (const w of list) {
      const same = byLength.get(w.length);
      if (same) same.push(w);
      else byLength.set(w.length, [w]);
    }
    for (const [n, same] of byLength) this.packed.set(n, [...new Set(same)].sort().join(''));
  }
  has(word: string): boolean {
    const n = word.length;
    const p = this.packed.get(n);
    if (!p) return false;
    let lo = 0;
    let hi = p.length / n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const w = p.slice(mid * n, mid * n + n);
      if (w === word) return true;
      if (w < word) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

const NL = 0x0a;
const SPACE = 0x20;

/** The word of the line starting at byte `at` ("word freq tag") against `key`, in byte (UTF-8: code point) order. */
function compareLineWord(bytes: Uint8Array, at: number, key: Uint8Array): number {
  for (let i = 0; ; i++) {
    const b = at + i < bytes.length ? bytes[at + i] : NL;
    const end = b === SPACE || b === NL || b === 0x0d;
    if (i === key.length) return end ? 0 : 1;
    if (end) return -1;
    if (b !== key[i]) return b - key[i];
  }
}

/** Where the word of the line starting at byte `at` ends (its first space, carriage return or newline). */
function wordEnd(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i < bytes.length && bytes[i] !== SPACE && bytes[i] !== NL && bytes[i] !== 0x0d) i++;
  return i;
}

/** Whether every line's word is non-empty and after the previous line's in byte order (jieba ships its dictionary so). */
export function sortedLines(bytes: Uint8Array): boolean {
  let prev = -1;
  let prevEnd = -1;
  for (let at = 0; at < bytes.length; ) {
    const end = wordEnd(bytes, at);
    if (end === at) return false;
    if (prev >= 0) {
      let i = 0;
      while (prev + i < prevEnd && at + i < end && bytes[prev + i] === bytes[at + i]) i++;
      // equal words, or the earlier one longer (the later its prefix), or a smaller byte later: not sorted
      if (at + i === end || (prev + i < prevEnd && bytes[prev + i] > bytes[at + i])) return false;
    }
    prev = at;
    prevEnd = end;
    const nl = bytes.indexOf(NL, end);
    at = nl < 0 ? bytes.length : nl + 1;
  }
  return true;
}

/**
 * A dictionary file of "word freq tag" lines sorted by word, searched as it is: a binary search over its bytes
 * (a probe backs up to the start of its line). Nothing is built — packing jieba's 330,000 short Han words took
 * the ONNX thread ~250 ms of CPU per import (`npm run bench -- ocr`).
 */
class SortedDictionary implements Lexicon {
  constructor(private readonly bytes: Uint8Array) {}
  has(word: string): boolean {
    const key = Buffer.from(word, 'utf8');
    const bytes = this.bytes;
    // [lo, hi): byte offsets, lo always a line's start
    let lo = 0;
    let hi = bytes.length;
    while (lo < hi) {
      let at = (lo + hi) >>> 1;
      while (at > lo && bytes[at - 1] !== NL) at--;
      const c = compareLineWord(bytes, at, key);
      if (c === 0) return true;
      if (c < 0) {
        const nl = bytes.indexOf(NL, at);
        lo = nl < 0 ? hi : nl + 1;
      } else hi = at;
    }
    return false;
  }
}

/**
 * Dictionary words of 2–4 Han characters from "word freq tag" texts: the first searched in place when its
 * lines are sorted (jieba's is), any other packed (see PackedWords).
 */
export function lexiconOf(dictionary: Uint8Array, others: string[] = []): Lexicon {
  const packedWords: string[] = [];
  const add = (text: string) => {
    for (const line of text.split('\n')) {
      const w = line.split(' ')[0].trim();
      if (lexiconWord(w)) packedWords.push(w);
    }
  };
  const sorted = sortedLines(dictionary) ? new SortedDictionary(dictionary) : null;
  if (!sorted) add(Buffer.from(dictionary).toString('utf8'));
  for (const text of others) add(text);
  const packed = new PackedWords(packedWords);
  return { has: (w: string) => lexiconWord(w) && (packed.has(w) || (sorted?.has(w) ?? false)) };
}

/** jieba's dictionary words of 2–4 Han characters, plus the domain words of resources/dict (once per thread, on first need). */
export function segmentationLexicon(): Lexicon {
  if (words) return words;
  const dir = path.join(resourcesDir(), 'dict');
  const domain = fs.existsSync(dir) ? fs.readdirSync(dir).filter((x) => x.endsWith('.txt')).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];
  words = lexiconOf(jiebaDict().dict, domain);
  return words;
}

/** Counts of every 2–4 character window of the page's lines. */
function windowCounts(texts: string[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const chars of texts)
    for (let n = 2; n <= 4; n++)
      for (let i = 0; i + n <= chars.length; i++) {
        const w = chars.slice(i, i + n).join('');
        counts.set(w, (counts.get(w) ?? 0) + 1);
      }
  return counts;
}

/**
 * How well the text `cs` is supported through position i: per window of 2–4 characters holding it, the times
 * the page reads it in another line (`self`: this line's own windows, not counted), plus `LEXICON_WEIGHT` when
 * it is a dictionary word.
 */
function support(cs: string[], i: number, page: Map<string, number>, self: Map<string, number> | null, lex: Lexicon): number {
  let n = 0;
  for (let len = 2; len <= 4; len++)
    for (let a = Math.max(0, i - len + 1); a <= i && a + len <= cs.length; a++) {
      const w = cs.slice(a, a + len).join('');
      if (NO_EVIDENCE.test(w)) continue;
      n += (page.get(w) ?? 0) - (self ? (self.get(w) ?? 0) : 0);
      if (HAN_ONLY.test(w) && lex.has(w)) n += LEXICON_WEIGHT;
    }
  return n;
}

/**
 * The lines with their unsure characters re-read where a runner-up makes the text known (see the module
 * comment). Lines without the model's runners-up (the package's model) come back as they are. `lexicon` is
 * asked only when a line has an unsure character with a runner-up.
 */
export function rereadLines(lines: RecognizedLine[], dictionary: string[], lexicon: () => Lexicon = segmentationLexicon): RecognizedLine[] {
  const texts = lines.map((l) => [...l.text]);
  let page: Map<string, number> | null = null;
  return lines.map((line, li) => {
    const top = line.top;
    const chars = texts[li];
    if (!top || top.charStep.length !== chars.length || chars.length > MAX_CHARS) return line;
    let out: { chars: string[]; conf: number[] } | null = null;
    for (let i = 0; i < chars.length; i++) {
      const s = top.charStep[i];
      if (!(top.probs[s * top.k] < UNSURE)) continue;
      const alts: { ch: string; p: number }[] = [];
      for (let j = 1; j < top.k; j++) {
        const c = top.classes[s * top.k + j];
        const p = top.probs[s * top.k + j];
        if (c === 0 || p < MIN_ALT) continue;
        const ch = dictionary[c - 1];
        if (ch && ch.trim() && lookalikeKinds(chars[i], ch)) alts.push({ ch, p });
      }
      if (!alts.length) continue;
      page ??= windowCounts(texts);
      const own = windowCounts([chars]);
      const lex = lexicon();
      const current = out?.chars ?? chars;
      const mine = support(current, i, page, own, lex);
      let best: { ch: string; p: number; n: number } | null = null;
      for (const a of alts) {
        const cand = [...current];
        cand[i] = a.ch;
        // the candidate's windows are not this line's own reading: every page occurrence is elsewhere
        const n = support(cand, i, page, null, lex);
        if (n >= MIN_SUPPORT && n >= mine * SUPPORT_RATIO && (!best || n > best.n || (n === best.n && a.p > best.p))) best = { ...a, n };
      }
      if (!best) continue;
      out ??= { chars: [...chars], conf: [...line.charConfidence] };
      out.chars[i] = best.ch;
      // the model put this much on the two readings together; the context chose between them
      out.conf[i] = Math.min(1, top.probs[s * top.k] + best.p);
    }
    const inserted = insertDropped(line, out?.chars ?? chars, out?.conf ?? line.charConfidence, dictionary, () => (page ??= windowCounts(texts)), lexicon);
    if (!out && !inserted) return line;
    const res = inserted ?? { chars: out!.chars, conf: out!.conf, charStep: top.charStep, charX: line.charX };
    const confidence = res.conf.reduce((a, b) => a + b, 0) / res.conf.length;
    return { ...line, text: res.chars.join(''), charConfidence: res.conf, confidence, charX: res.charX, top: { ...top, charStep: res.charStep } };
  });
}

/**
 * A Han character, letter or digit the recogniser passed over: at a step it read as blank, a runner-up at least
 * `MIN_INSERT` probable is put in when the text then holds windows the page reads in other lines or the
 * dictionary knows, `INSERT_SUPPORT` at least (there is no reading to compare with, so the bar is absolute:
 * twice a dictionary word's weight). 微米黑等宽 "一般缺陷" read "般缺陷": the blank step before 般 had 一 at
 * 0.13–0.23 (a hyphen 0.15–0.20 beside it, a mark, never put in). At most one character per gap between two
 * characters read.
 */
function insertDropped(
  line: RecognizedLine,
  chars: string[],
  conf: number[],
  dictionary: string[],
  pageCounts: () => Map<string, number>,
  lexicon: () => Lexicon,
): { chars: string[]; conf: number[]; charStep: number[]; charX?: number[] } | null {
  const top = line.top!;
  const steps = top.charStep;
  let best: { pos: number; step: number; ch: string; p: number; n: number } | null = null;
  let pos = 0;
  for (let s = 0; s < top.steps; s++) {
    while (pos < steps.length && steps[pos] < s) pos++;
    if (top.classes[s * top.k] !== 0 || steps[pos] === s) continue;
    for (let j = 1; j < top.k; j++) {
      const c = top.classes[s * top.k + j];
      const p = top.probs[s * top.k + j];
      if (c === 0 || p < MIN_INSERT) continue;
      const ch = dictionary[c - 1];
      // a mark is what a speck is read as; a character equal to a neighbour is the CTC's own repeat
      if (!ch || kind(ch) === 'mark' || ch === chars[pos - 1] || ch === chars[pos]) continue;
      const cand = [...chars.slice(0, pos), ch, ...chars.slice(pos)];
      const n = support(cand, pos, pageCounts(), null, lexicon());
      if (n >= INSERT_SUPPORT && (!best || n > best.n)) best = { pos, step: s, ch, p, n };
    }
  }
  if (!best) return null;
  const { pos: at, step, ch, p } = best;
  const charStep = [...steps.slice(0, at), step, ...steps.slice(at)];
  // charX: shares of the line's width at a step's middle, one step's share from the steps already placed
  let charX = line.charX;
  if (charX && charX.length === chars.length && chars.length) {
    const perStep = charX[0] / (steps[0] + 0.5);
    charX = [...charX.slice(0, at), (step + 0.5) * perStep, ...charX.slice(at)];
  }
  return { chars: [...chars.slice(0, at), ch, ...chars.slice(at)], conf: [...conf.slice(0, at), p, ...conf.slice(at)], charStep, charX };
}

/** What the recogniser reads for "Ⅰ", a class its dictionary lacks (it has Ⅱ, Ⅲ, Ⅳ). */
const ONE_READS = new Set(['1', 'I', 'l', '|', '丨', 'Ⅰ']);
const ROMAN = /(?:[Ⅱ-Ⅻ]|I{2,3}|IV|V)(?=[\u3400-\u9fff])/gu;

/**
 * "Ⅰ母" read "1母" or "I母": the dictionary has no Ⅰ, so no runner-up can give it. Where the page reads a
 * Roman numeral before a Han character ("Ⅱ母", "Ⅲ段"), a lone "1"/"I"/"l"/"|" before that same character (not
 * inside a number or a word of letters) is "Ⅰ" — the series' first member, by the page's own usage.
 */
export function romanOne(lines: RecognizedLine[]): RecognizedLine[] {
  const after = new Set<string>();
  for (const l of lines) for (const m of l.text.matchAll(ROMAN)) after.add(l.text[m.index + m[0].length]);
  if (!after.size) return lines;
  return lines.map((l) => {
    const chars = [...l.text];
    let changed = false;
    chars.forEach((ch, i) => {
      if (!ONE_READS.has(ch) || ch === 'Ⅰ' || !after.has(chars[i + 1] ?? '') || /[\p{L}\p{N}.]/u.test(chars[i - 1] ?? '') && !/[\u3400-\u9fff]/.test(chars[i - 1])) return;
      chars[i] = 'Ⅰ';
      changed = true;
    });
    return changed ? { ...l, text: chars.join('') } : l;
  });
}
