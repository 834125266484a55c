import { gainedFrom, type SimilarityIndex } from './similarity';
import type { EditionUnit } from './types';

/**
 * Stage 3: which old unit became which new unit. Numbers, text and order are used together:
 * 1. exact text (label aside): the same article, kept or renumbered — found wherever it moved;
 * 2. the exact matches that keep their order are anchors; between two anchors the unmatched old and
 *    new units are aligned in order (a weighted alignment over text similarity with a small bonus for
 *    the same number), so an insertion that shifts every later number changes nothing;
 * 3. what is left is paired across the document by similarity alone (an article moved and edited),
 *    with a stricter threshold;
 * 4. an unpaired unit that is mostly contained in another edition's unit is a part of a split
 *    (one old article → several new) or of a merge (several old → one new).
 */

export interface AlignThresholds {
  /** least similarity for two units between the same anchors to be one article, edited */
  inOrder: number;
  /** the same when the gap holds exactly one old and one new unit (the same place in both editions) */
  samePlace: number;
  /** least similarity for an article paired out of order (moved and edited) */
  anywhere: number;
  /** least share of a unit found in another for it to be part of a split / merge */
  contained: number;
  /** bonus for the same article number (a tie-breaker, never enough alone) */
  sameNumber: number;
  /**
   * a split part / merged article must bring text the other side's own counterpart lacks: this share
   * of it is found in the split source / merge target and not in its pair (boilerplate is shared by all)
   */
  gained: number;
  /**
   * two texts are related (editions of one regulation) when at least this share of the smaller one
   * pairs exactly or clearly (similarity >= anywhere). Related texts may pair what is left between two
   * anchors at a lower similarity when the two units are each other's best match there (a rewritten
   * article in its old place); unrelated texts keep only their clearly similar pairs
   */
  related: number;
  /** the lower similarity for such mutual best matches */
  mutualInGap: number;
  /**
   * a rewritten part of a split / merge next to its source's counterpart: this share of the source
   * (split) / of the merged article (merge) is found in the part and not in the counterpart
   */
  neighbourPart: number;
}

export const DEFAULT_THRESHOLDS: AlignThresholds = { inOrder: 0.3, samePlace: 0.18, anywhere: 0.45, contained: 0.6, sameNumber: 0.05, gained: 0.35, related: 0.2, mutualInGap: 0.2, neighbourPart: 0.15 };

export interface Alignment {
  /** old index -> new index */
  pairs: { i: number; j: number; exact: boolean; similarity: number }[];
  /** new units that are a further part of a split old unit: new index -> old index */
  splitFrom: Map<number, number>;
  /** old units merged into a new unit: old index -> new index */
  mergedInto: Map<number, number>;
}

/** Longest increasing subsequence of `seq` (indexes into it). */
function lis(seq: number[]): number[] {
  const tails: number[] = [];
  const prev = new Array<number>(seq.length).fill(-1);
  for (let k = 0; k < seq.length; k++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < seq[k]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1];
    tails[lo] = k;
  }
  const out: number[] = [];
  for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = prev[k]) out.push(k);
  return out.reverse();
}

/** Exact body matches: for each new unit, an unused old unit with the same text (same label first, then nearest in order). */
function exactMatches(oldUnits: EditionUnit[], newUnits: EditionUnit[]): Map<number, number> {
  const byBody = new Map<string, number[]>();
  for (const u of oldUnits) {
    if (!u.body) continue;
    const list = byBody.get(u.body);
    if (list) list.push(u.index);
    else byBody.set(u.body, [u.index]);
  }
  const used = new Set<number>();
  const match = new Map<number, number>(); // new -> old
  for (const u of newUnits) {
    const list = byBody.get(u.body);
    if (!list) continue;
    const free = list.filter((i) => !used.has(i));
    if (!free.length) continue;
    const expected = (u.index / Math.max(1, newUnits.length)) * oldUnits.length;
    const pick =
      free.find((i) => oldUnits[i].label === u.label) ??
      free.reduce((best, i) => (Math.abs(i - expected) < Math.abs(best - expected) ? i : best), free[0]);
    used.add(pick);
    match.set(u.index, pick);
  }
  return match;
}

/** Maximum-weight order-keeping alignment of old[ois] to new[njs] (weights <= 0 never pair). */
function alignInOrder(ois: number[], njs: number[], weight: (i: number, j: number) => number): [number, number][] {
  const p = ois.length;
  const q = njs.length;
  if (!p || !q) return [];
  const w = new Float64Array(p * q);
  let any = false;
  for (let a = 0; a < p; a++) {
    for (let b = 0; b < q; b++) {
      const v = weight(ois[a], njs[b]);
      w[a * q + b] = v;
      if (v > 0) any = true;
    }
  }
  if (!any) return [];
  // score[a][b]: best over old[0..a) and new[0..b)
  const score = new Float64Array((p + 1) * (q + 1));
  const W = q + 1;
  for (let a = 1; a <= p; a++) {
    for (let b = 1; b <= q; b++) {
      let best = Math.max(score[(a - 1) * W + b], score[a * W + b - 1]);
      const v = w[(a - 1) * q + b - 1];
      if (v > 0) best = Math.max(best, score[(a - 1) * W + b - 1] + v);
      score[a * W + b] = best;
    }
  }
  const out: [number, number][] = [];
  let a = p;
  let b = q;
  while (a > 0 && b > 0) {
    const here = score[a * W + b];
    const v = w[(a - 1) * q + b - 1];
    if (v > 0 && Math.abs(here - (score[(a - 1) * W + b - 1] + v)) < 1e-12) {
      out.push([ois[a - 1], njs[b - 1]]);
      a--;
      b--;
    } else if (here === score[(a - 1) * W + b]) a--;
    else b--;
  }
  return out.reverse();
}

/** For each of `from`, its best-scoring partner among `to` (none when nothing scores above 0). */
function bestMatches(from: number[], to: number[], score: (a: number, b: number) => number): Map<number, number> {
  const best = new Map<number, number>();
  for (const a of from) {
    let top = 0;
    for (const b of to) {
      const v = score(a, b);
      if (v > top) {
        top = v;
        best.set(a, b);
      }
    }
  }
  return best;
}

// gaps larger than this (two long unrelated texts) are paired greedily instead of by the quadratic alignment
const MAX_ALIGN_CELLS = 4_000_000;

export function alignUnits(
  oldUnits: EditionUnit[],
  newUnits: EditionUnit[],
  sim: SimilarityIndex,
  t: AlignThresholds = DEFAULT_THRESHOLDS,
  /** known editions of one regulation (true), known apart (false), or judged from the texts (undefined) */
  editions?: boolean,
): Alignment {
  const exact = exactMatches(oldUnits, newUnits);
  const oldPaired = new Map<number, number>(); // old -> new
  const newPaired = new Map<number, number>(); // new -> old
  const pairs: Alignment['pairs'] = [];
  const pair = (i: number, j: number, exactMatch: boolean, similarity: number) => {
    oldPaired.set(i, j);
    newPaired.set(j, i);
    pairs.push({ i, j, exact: exactMatch, similarity });
  };
  for (const [j, i] of exact) pair(i, j, true, 1);

  // anchors: the exact matches that keep the order of both editions
  const byNew = [...exact.entries()].sort((a, b) => a[0] - b[0]);
  const anchors = lis(byNew.map(([, i]) => i)).map((k) => byNew[k]);
  const bounds: [number, number][] = [[-1, -1], ...anchors.map(([j, i]) => [i, j] as [number, number]), [oldUnits.length, newUnits.length]];
  const numberBonus = (i: number, j: number) => {
    const a = oldUnits[i].number;
    return a !== null && a === newUnits[j].number ? t.sameNumber : 0;
  };
  const gaps: { ois: number[]; njs: number[] }[] = [];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [i0, j0] = bounds[g];
    const [i1, j1] = bounds[g + 1];
    const ois: number[] = [];
    const njs: number[] = [];
    for (let i = i0 + 1; i < i1; i++) if (!oldPaired.has(i)) ois.push(i);
    for (let j = j0 + 1; j < j1; j++) if (!newPaired.has(j)) njs.push(j);
    if (!ois.length || !njs.length) continue;
    gaps.push({ ois, njs });
    const floor = ois.length === 1 && njs.length === 1 ? t.samePlace : t.inOrder;
    if (ois.length * njs.length > MAX_ALIGN_CELLS) continue; // left to the global pass
    const weight = (i: number, j: number) => {
      const d = sim.dice(i, j);
      return d >= floor ? d + numberBonus(i, j) : 0;
    };
    for (const [i, j] of alignInOrder(ois, njs, weight)) pair(i, j, false, sim.dice(i, j));
  }

  // related texts (editions of one regulation) hold many exact or clearly similar pairs; between two
  // unrelated regulations only boilerplate (施行 dates, 第一条 为了…) is alike: there weak pairs are dropped
  // a statute rewritten from end to end keeps few clearly similar articles: when the library knows the two
  // are editions of one regulation (same title or document number, or the user said so), that is enough
  const strong = pairs.filter((p) => p.exact || p.similarity >= t.anywhere).length;
  const related = editions ?? strong >= t.related * Math.min(oldUnits.length, newUnits.length);
  if (!related) {
    for (let k = pairs.length - 1; k >= 0; k--) {
      const p = pairs[k];
      if (p.exact || p.similarity >= t.anywhere) continue;
      oldPaired.delete(p.i);
      newPaired.delete(p.j);
      pairs.splice(k, 1);
    }
  }
  // editions of one regulation: in each gap, what is still unpaired pairs with its mutual best match
  if (related) {
    for (const { ois, njs } of gaps) {
      const freeOld = ois.filter((i) => !oldPaired.has(i));
      const freeNew = njs.filter((j) => !newPaired.has(j));
      if (!freeOld.length || !freeNew.length) continue;
      const score = (i: number, j: number) => sim.dice(i, j) + numberBonus(i, j);
      const bestNew = bestMatches(freeOld, freeNew, score);
      const bestOld = bestMatches(freeNew, freeOld, (j, i) => score(i, j));
      const mutual = freeOld.filter((i) => bestNew.has(i) && bestOld.get(bestNew.get(i)!) === i && sim.dice(i, bestNew.get(i)!) >= t.mutualInGap);
      // keep the order: mutual pairs that cross each other are left to the passes below
      const chosen = lis(mutual.map((i) => bestNew.get(i)!)).map((k) => mutual[k]);
      for (const i of chosen) pair(i, bestNew.get(i)!, false, sim.dice(i, bestNew.get(i)!));
    }
  }

  // out of order: an article moved to another place and edited there
  const loose: { i: number; j: number; d: number }[] = [];
  for (let i = 0; i < oldUnits.length; i++) {
    if (oldPaired.has(i)) continue;
    const row = sim.row(i);
    for (let j = 0; j < row.length; j++) {
      if (row[j] === 0 || newPaired.has(j)) continue;
      const d = sim.dice(i, j);
      if (d >= t.anywhere) loose.push({ i, j, d: d + numberBonus(i, j) });
    }
  }
  loose.sort((a, b) => b.d - a.d);
  for (const c of loose) if (!oldPaired.has(c.i) && !newPaired.has(c.j)) pair(c.i, c.j, false, sim.dice(c.i, c.j));

  // splits and merges: an unpaired unit mostly found inside a unit of the other edition; a unit kept
  // word for word was neither split nor merged into
  const splitFrom = new Map<number, number>();
  const mergedInto = new Map<number, number>();
  const exactOld = new Set(pairs.filter((p) => p.exact).map((p) => p.i));
  const exactNew = new Set(pairs.filter((p) => p.exact).map((p) => p.j));
  const sources = oldUnits.map((u) => u.index).filter((i) => !exactOld.has(i));
  // split: an unpaired new unit inside an old one (paired or not); an unpaired old one takes its largest part as its pair
  const partsOf = new Map<number, number[]>();
  for (let j = 0; j < newUnits.length; j++) {
    if (newPaired.has(j)) continue;
    let best = -1;
    let bestShare = 0;
    for (const i of sources) {
      if (sim.row(i)[j] === 0) continue;
      const share = sim.newInOld(i, j);
      if (share > bestShare) [best, bestShare] = [i, share];
    }
    if (best < 0 || bestShare < t.contained) continue;
    const parts = partsOf.get(best);
    if (parts) parts.push(j);
    else partsOf.set(best, [j]);
  }
  for (const [i, parts] of partsOf) {
    if (oldPaired.has(i)) {
      // a part must hold text of the old unit that the old unit's own pair lacks
      const own = sim.new[oldPaired.get(i)!];
      for (const j of parts) {
        const p = sim.new[j];
        if (p.total > 0 && gainedFrom(p, sim.old[i], own) / p.total >= t.gained) splitFrom.set(j, i);
      }
      continue;
    }
    if (parts.length === 1 && sim.oldInNew(i, parts[0]) < t.contained && sim.dice(i, parts[0]) < t.samePlace) {
      // a small new article quoting a bit of an old one that is otherwise gone: not a split
      continue;
    }
    const main = parts.reduce((a, b) => (sim.overlap(i, b) > sim.overlap(i, a) ? b : a), parts[0]);
    pair(i, main, false, sim.dice(i, main));
    for (const j of parts) if (j !== main) splitFrom.set(j, i);
  }
  // merge: an unpaired old unit inside a new one
  for (let i = 0; i < oldUnits.length; i++) {
    if (oldPaired.has(i)) continue;
    const row = sim.row(i);
    let best = -1;
    let bestShare = 0;
    for (let j = 0; j < row.length; j++) {
      if (row[j] === 0) continue;
      const share = sim.oldInNew(i, j);
      if (share > bestShare) [best, bestShare] = [j, share];
    }
    // its best container kept word for word, or not containing enough of it: not merged
    if (best < 0 || bestShare < t.contained || exactNew.has(best)) continue;
    if (!newPaired.has(best) && !splitFrom.has(best)) {
      // both unpaired: one article grown around the old one, unless they only share stock phrases
      if (sim.dice(i, best) >= t.samePlace) pair(i, best, false, sim.dice(i, best));
    }
    else if (newPaired.has(best)) {
      // merged only when the new unit holds text of it that the new unit's own old counterpart lacks
      const o = sim.old[i];
      if (o.total > 0 && gainedFrom(o, sim.new[best], sim.old[newPaired.get(best)!]) / o.total >= t.gained) mergedInto.set(i, best);
    }
  }
  // a rewritten split / merge: the part that was rewritten is not contained in its source, but it sits
  // right next to the source's own counterpart, the source is its closest unit, and it took a share of
  // the source that the counterpart does not have (old 第三十二条 → new 第四十五条 + 第四十六条)
  if (related) {
    const sides = {
      // a split part: an unpaired new unit (here), its source an old unit (there)
      split: { here: sim.new, there: sim.old, paired: newPaired, partnerOf: oldPaired, kept: exactOld, found: splitFrom, shared: (j: number) => sim.column(j) },
      // a merged article: an unpaired old unit (here), merged into a new unit (there)
      merged: { here: sim.old, there: sim.new, paired: oldPaired, partnerOf: newPaired, kept: exactNew, found: mergedInto, shared: (i: number) => sim.row(i) },
    };
    for (const s of Object.values(sides)) {
      for (let u = 0; u < s.here.length; u++) {
        if (s.paired.has(u) || s.found.has(u)) continue;
        // its closest unit over there, by dice
        const shared = s.shared(u);
        let source = -1;
        let top = 0;
        for (let k = 0; k < shared.length; k++) {
          if (shared[k] === 0) continue;
          const d = (2 * shared[k]) / (s.here[u].total + s.there[k].total);
          if (d > top) [source, top] = [k, d];
        }
        if (source < 0 || top < t.mutualInGap || s.kept.has(source)) continue;
        const partner = s.partnerOf.get(source);
        if (partner === undefined || Math.abs(partner - u) !== 1) continue;
        const from = s.there[source];
        if (from.total > 0 && gainedFrom(from, s.here[u], s.here[partner]) / from.total >= t.neighbourPart) s.found.set(u, source);
      }
    }
  }
  return { pairs, splitFrom, mergedInto };
}
