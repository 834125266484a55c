import { alignUnits, DEFAULT_THRESHOLDS, type AlignThresholds } from './align';
import { buildSimilarity } from './similarity';
import { chapterSummaries, summarise } from './summary';
import { editionUnits, unitLevel } from './units';
import { wordDiff } from './words';
import type { EditionComparison, EditionPair, EditionUnit, PairSide, StoredUnit, UnitLevel } from './types';

/**
 * The editions pipeline in order: units → similarity → align → words → summary. Pure: the caller
 * hands in both editions' stored units. Every comparable unit of both editions is in exactly one
 * pair; pairs follow the new edition's order, a deleted unit after the pair of its old predecessor.
 */

export interface CompareOptions {
  thresholds?: AlignThresholds;
  /** word-level diffs of modified pairs (default true) */
  words?: boolean;
  /**
   * the two are known editions of one regulation (same family in the library): a text rewritten from
   * end to end still pairs its articles in order; unset, relatedness is judged from the texts
   */
  editions?: boolean;
}

const LEVEL_RANK: Record<UnitLevel, number> = { article: 0, clause: 1, section: 2, paragraph: 3 };

/** Both sides are compared at the same level: the finer structure both editions have. */
export function commonLevel(a: StoredUnit[], b: StoredUnit[]): UnitLevel {
  const la = unitLevel(a);
  const lb = unitLevel(b);
  return LEVEL_RANK[la] >= LEVEL_RANK[lb] ? la : lb;
}

function side(u: EditionUnit): PairSide {
  const s: PairSide = { article: u.label, text: u.text, chapter: u.chapter };
  if (u.unit_id !== undefined) s.unit_id = u.unit_id;
  if (u.page_num !== undefined) s.page_num = u.page_num;
  return s;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function compareUnits(oldRows: StoredUnit[], newRows: StoredUnit[], options: CompareOptions = {}): EditionComparison {
  const level = commonLevel(oldRows, newRows);
  const oldUnits = editionUnits(oldRows, level);
  const newUnits = editionUnits(newRows, level);
  return compareEditionUnits(oldUnits, newUnits, level, options);
}

export function compareEditionUnits(oldUnits: EditionUnit[], newUnits: EditionUnit[], level: UnitLevel, options: CompareOptions = {}): EditionComparison {
  const sim = buildSimilarity(oldUnits, newUnits);
  const alignment = alignUnits(oldUnits, newUnits, sim, options.thresholds ?? DEFAULT_THRESHOLDS, options.editions);
  const withWords = options.words !== false;

  const oldOf = new Map<number, { i: number; exact: boolean; similarity: number }>();
  const newOfOld = new Map<number, number>();
  for (const p of alignment.pairs) {
    oldOf.set(p.j, { i: p.i, exact: p.exact, similarity: p.similarity });
    newOfOld.set(p.i, p.j);
  }
  // parts of a split / merge, by the unit they came from / went into
  const splitParts = new Map<number, number[]>();
  for (const [j, i] of alignment.splitFrom) splitParts.set(i, [...(splitParts.get(i) ?? []), j]);
  const mergedParts = new Map<number, number[]>();
  for (const [i, j] of alignment.mergedInto) mergedParts.set(j, [...(mergedParts.get(j) ?? []), i]);

  const placed: { key: number; pair: EditionPair }[] = [];
  for (const u of newUnits) {
    const m = oldOf.get(u.index);
    let pair: EditionPair;
    if (!m) {
      pair = { change: 'added', old: null, new: side(u) };
      const from = alignment.splitFrom.get(u.index);
      if (from !== undefined) {
        pair.relation = 'split';
        pair.related = [oldUnits[from].label];
      }
    } else {
      const o = oldUnits[m.i];
      const renumbered = o.label !== u.label;
      if (m.exact) pair = { change: renumbered ? 'moved' : 'same', old: side(o), new: side(u), similarity: 1 };
      else {
        pair = { change: 'modified', old: side(o), new: side(u), similarity: round(m.similarity) };
        if (withWords) pair.words = wordDiff(o.text, u.text);
      }
      if (renumbered) pair.renumbered = true;
      const parts = splitParts.get(m.i);
      const merged = mergedParts.get(u.index);
      if (parts) {
        pair.relation = 'split';
        pair.related = parts.map((j) => newUnits[j].label);
      } else if (merged) {
        pair.relation = 'merged';
        pair.related = merged.map((i) => oldUnits[i].label);
      }
    }
    placed.push({ key: u.index, pair });
  }
  // a deleted unit goes right after the pair of the nearest paired unit before it in the old edition
  let anchor = -0.5;
  for (const o of oldUnits) {
    const j = newOfOld.get(o.index);
    if (j !== undefined) {
      anchor = j;
      continue;
    }
    const pair: EditionPair = { change: 'deleted', old: side(o), new: null };
    const into = alignment.mergedInto.get(o.index);
    if (into !== undefined) {
      pair.relation = 'merged';
      pair.related = [newUnits[into].label];
    }
    placed.push({ key: anchor + 0.5 - 1e-6 * (oldUnits.length - o.index), pair });
  }
  placed.sort((a, b) => a.key - b.key);
  const pairs = placed.map((p) => p.pair);
  const unit = level === 'article' ? '条' : '处';
  return { level, summary: summarise(pairs), chapters: chapterSummaries(pairs, unit), pairs };
}
