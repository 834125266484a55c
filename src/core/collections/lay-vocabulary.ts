import { queryTokens, segmentForSearch, tagged } from '../text/segment';
import { isQuestionWord } from './question-words';

/**
 * Everyday words → statute words, learned (replaces the hand-written lay-terms table). Two sources:
 *
 * 1. Training questions (scripts/learn-lay-vocabulary.ts → resources/collections/lay-vocabulary.json,
 *    from STARD train.jsonl and the articles its questions cite): a question word w is associated
 *    with an article word v when they co-occur across (question, answering article) pairs far more
 *    than chance (pointwise mutual information) and v follows w often (P(v | w)); only everyday
 *    words are kept, ones the answering articles themselves rarely use (`公司` → 用人单位,
 *    `老公` → 配偶, `社保` → 社会保险).
 * 2. The collection's own text, at import (collectionVocabulary in lay-terms.ts): a question word
 *    the collection never uses is read as a contraction of the collection's words that hold its
 *    characters in order, first and last alike (`年假` → 年休假, `停电` → 停止供电, `社保` → 社会保险).
 *
 * Rows are filtered per collection: the statute word must occur in it, the everyday word must be
 * rarer there than its statute word.
 */

export interface LayExpansion {
  /** Statute-word tokens added to the lexical query. */
  extra: string[];
  /** [everyday-word tokens, statute-word tokens]: a chunk with any statute token has the everyday tokens. */
  equivalents: [string[], string[]][];
}

export interface LayPair {
  question: string;
  /** texts of the articles answering it */
  texts: string[];
}

/** Article numbers and numerals name positions, not topics. */
const NUMBERING = /^(第?[零〇一二三四五六七八九十百千万两\d]+[条款项章节编]?|\d+(\.\d+)*)$/;

export interface LayLearnOptions {
  /** pairs a (w, v) association needs */
  minCo: number;
  /** P(v | w) needed */
  minCond: number;
  /** PMI (natural log) needed */
  minPmi: number;
  /** w counts as everyday when answering articles hold it in at most this share of its questions */
  maxSelf: number;
  /** statute words kept per everyday word */
  maxPerWord: number;
}

export const LAY_LEARN_DEFAULTS: LayLearnOptions = { minCo: 4, minCond: 0.3, minPmi: 1.8, maxSelf: 0.34, maxPerWord: 4 };

/** Pronouns, adverbs, conjunctions, prepositions, particles, numerals, measure, time and place words: how a question is put, not what it names. */
const NOT_EVERYDAY_TAG = /^(?:r|d|ad|c|p|u|m|q|y|e|f|t|z)/;

/** Whether a question word can be an everyday word for something a statute names. */
function everydayCandidate(w: string): boolean {
  if (isQuestionWord(w)) return false;
  const tags = tagged(w);
  return tags.length === 1 && !NOT_EVERYDAY_TAG.test(tags[0].tag);
}

/** everyday word -> [statute word, score (P(v|w), rounded)] best first */
export type LayTable = Record<string, [string, number][]>;

function words(tokens: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) if ([...t].length >= 2 && !NUMBERING.test(t)) out.add(t);
  return out;
}

export function learnLayVocabulary(pairs: LayPair[], o: Partial<LayLearnOptions> = {}): LayTable {
  const opt = { ...LAY_LEARN_DEFAULTS, ...o };
  const n = pairs.length;
  const qc = new Map<string, number>();
  const ac = new Map<string, number>();
  const self = new Map<string, number>();
  const co = new Map<string, Map<string, number>>();
  for (const p of pairs) {
    const q = words(queryTokens(p.question));
    const a = words(p.texts.flatMap((t) => segmentForSearch(t)));
    for (const v of a) ac.set(v, (ac.get(v) ?? 0) + 1);
    for (const w of q) {
      qc.set(w, (qc.get(w) ?? 0) + 1);
      if (a.has(w)) self.set(w, (self.get(w) ?? 0) + 1);
      let row = co.get(w);
      if (!row) co.set(w, (row = new Map()));
      for (const v of a) if (v !== w && !v.includes(w) && !w.includes(v)) row.set(v, (row.get(v) ?? 0) + 1);
    }
  }
  const table: LayTable = {};
  for (const [w, row] of [...co].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))) {
    const cw = qc.get(w) ?? 0;
    if (cw < opt.minCo || (self.get(w) ?? 0) / cw > opt.maxSelf || !everydayCandidate(w)) continue;
    const kept: [string, number][] = [];
    for (const [v, c] of row) {
      if (c < opt.minCo) continue;
      const cond = c / cw;
      const pmi = Math.log((c * n) / (cw * (ac.get(v) ?? 1)));
      if (cond >= opt.minCond && pmi >= opt.minPmi) kept.push([v, Math.round(cond * pmi * 1000) / 1000]);
    }
    kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (kept.length) table[w] = kept.slice(0, opt.maxPerWord);
  }
  return table;
}
