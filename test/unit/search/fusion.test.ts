import { describe, expect, it } from 'vitest';
import { aggregateParents, decide, keyOrder, rrfFuse, type ChunkScore } from '../../../src/core/search/fusion';

const K = 60;
const base = { rrfK: K, rrfWeight: 0.7, coverageThreshold: 0.5 };
/** the regulations' absolute normalisation (see fusion.ts Normalisation) */
const ideal = (lists: number, coverageCap = 2) => ({ ...base, normalise: { kind: 'ideal' as const, lists, coverageCap } });
const dec = { tMin: 0.4, ambiguityRatio: 0.92, minEvidence: 0.3 };

describe('rrfFuse', () => {
  it('sums 1/(k+rank) over lists', () => {
    const fused = rrfFuse(
      {
        lexical: [
          { key: 'a', parent: 'A', rank: 1 },
          { key: 'b', parent: 'B', rank: 2 },
        ],
        vector: [
          { key: 'b', parent: 'B', rank: 1 },
          { key: 'c', parent: 'C', rank: 2 },
        ],
      },
      K,
    );
    const b = fused.find((f) => f.key === 'b')!;
    expect(b.rrf).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(b.ranks).toEqual({ lexical: 2, vector: 1 });
    expect(fused[0].key).toBe('b');
  });

  it('weighs a list by its weight; lists without one count 1', () => {
    const lists = {
      lexical: [
        { key: 'a', parent: 'A', rank: 1 },
        { key: 'b', parent: 'B', rank: 3 },
      ],
      known: [
        { key: 'b', parent: 'B', rank: 1 },
        { key: 'c', parent: 'C', rank: 2 },
      ],
    };
    // plain RRF: a (1/61) beats c (1/62); b holds both lists
    expect(rrfFuse(lists, K).map((f) => f.key)).toEqual(['b', 'a', 'c']);
    const weighted = rrfFuse(lists, K, { known: 1.5 });
    expect(weighted.map((f) => f.key)).toEqual(['b', 'c', 'a']);
    expect(weighted.find((f) => f.key === 'b')!.rrf).toBeCloseTo(1 / 63 + 1.5 / 61, 12);
    expect(weighted.find((f) => f.key === 'a')!.rrf).toBeCloseTo(1 / 61, 12);
  });
});

describe('aggregateParents', () => {
  it('computes rrf_sum, max score, coverage, ratio and overall on a hand-computed case', () => {
    const chunks: ChunkScore[] = [
      { key: 'a1', parent: 'A', rrf: 1 / 61, ranks: { lexical: 1 }, score: 0.9 },
      { key: 'b1', parent: 'B', rrf: 1 / 62, ranks: { lexical: 2 }, score: 0.6 },
      { key: 'b2', parent: 'B', rrf: 1 / 63, ranks: { lexical: 3 }, score: 0.5 },
      { key: 'b3', parent: 'B', rrf: 1 / 64, ranks: { lexical: 4 }, score: 0.4 },
      { key: 'c1', parent: 'C', rrf: 1 / 65, ranks: { lexical: 5 }, score: 0.8 },
    ];
    const totals: Record<string, number> = { A: 1, B: 10, C: 4 };
    const ps = aggregateParents(chunks, (p) => totals[p], ideal(1));
    const A = ps.find((p) => p.parent === 'A')!;
    const B = ps.find((p) => p.parent === 'B')!;
    const C = ps.find((p) => p.parent === 'C')!;
    // A: one chunk, ranked first: ratio 1, rrf_norm 1, overall 0.7 + 0.3*0.9
    expect(A.coverage).toBe(1);
    expect(A.coverage_ratio).toBe(1);
    expect(A.rrf_norm).toBeCloseTo(1, 12);
    expect(A.overall_score).toBeCloseTo(0.7 + 0.27, 12);
    // B: 3 of 10 chunks hit; cap 2 -> ratio min(1, 3/2) = 1; rrf_sum counts all three
    expect(B.coverage).toBe(3);
    expect(B.coverage_ratio).toBe(1);
    expect(B.rrf_sum).toBeCloseTo(1 / 62 + 1 / 63 + 1 / 64, 12);
    const bMean = (1 / 62 + 1 / 63) / 2;
    expect(B.rrf_norm).toBeCloseTo(bMean / (1 / 61), 12);
    expect(B.max_chunk_score).toBe(0.6);
    expect(B.overall_score).toBeCloseTo(0.7 * (bMean * 61) + 0.3 * 0.6, 12);
    // C: 1 of 4 chunks: ratio 1/min(4,2) = 0.5 -> passes the 0.5 threshold, rank part halved
    expect(C.coverage_ratio).toBe(0.5);
    expect(C.passes_coverage).toBe(true);
    expect(C.rrf_norm).toBeCloseTo((0.5 * (1 / 65)) / (1 / 61), 12);
    expect(ps.map((p) => p.parent)).toEqual(['A', 'B', 'C']);
  });

  it('does not reward size: a long parent with many weak hits does not beat a short exact one', () => {
    const chunks: ChunkScore[] = [{ key: 's', parent: 'short', rrf: 1 / 61, ranks: { lexical: 1 }, score: 0.8 }];
    for (let i = 0; i < 8; i++) chunks.push({ key: `l${i}`, parent: 'long', rrf: 1 / (62 + i), ranks: { lexical: 2 + i }, score: 0.8 });
    const ps = aggregateParents(chunks, (p) => (p === 'long' ? 20 : 1), ideal(1));
    expect(ps[0].parent).toBe('short');
    const long = ps.find((p) => p.parent === 'long')!;
    // only the 2 best chunks count for rank; 6 more hits change nothing
    const two = aggregateParents(chunks.slice(0, 3), (p) => (p === 'long' ? 20 : 1), ideal(1)).find((p) => p.parent === 'long')!;
    expect(long.overall_score).toBeCloseTo(two.overall_score, 12);
    // and a long parent with one exact hit is not wiped out by its size (ratio 1/2, not 1/20)
    const one = aggregateParents([chunks[1]], () => 20, ideal(1))[0];
    expect(one.coverage_ratio).toBe(0.5);
  });
});

describe('decide', () => {
  const agg = (cs: ChunkScore[], lists = 1) => aggregateParents(cs, () => 1, ideal(lists));
  it('locks on a clear winner', () => {
    const d = decide(agg([
      { key: 'a', parent: 'A', rrf: 1 / 61, ranks: {}, score: 0.9 },
      { key: 'b', parent: 'B', rrf: 1 / 62, ranks: {}, score: 0.4 },
    ]), dec);
    // B/A = (0.7*61/62 + 0.12)/(0.7+0.27) = 0.834 < 0.92
    expect(d.state).toBe('locked');
    expect(d.parents).toEqual(['A']);
    expect(d.clarify).toBeUndefined();
  });
  it('is ambiguous when top2/top1 > 0.92 and asks which one', () => {
    const d = decide(agg([
      { key: 'a', parent: 'A', rrf: 1 / 61, ranks: {}, score: 0.9 },
      { key: 'b', parent: 'B', rrf: 1 / 62, ranks: {}, score: 0.85 },
    ]), dec, (p) => `条目${p}`);
    expect(d.state).toBe('ambiguous');
    expect(d.parents).toEqual(['A', 'B']);
    expect(d.clarify).toContain('条目A');
    expect(d.clarify).toMatch(/哪一个/);
  });
  it('reports low evidence for weak best evidence, low overall, or nothing passing coverage', () => {
    expect(decide(agg([{ key: 'a', parent: 'A', rrf: 1 / 61, ranks: {}, score: 0.1 }]), dec).state).toBe('low_evidence');
    // hybrid: found only by one list at rank 30 -> rrf_norm = (1/90)/(2/61) = 0.339, overall 0.237+0.3*0.5 < 0.40
    const weak = decide(agg([{ key: 'a', parent: 'A', rrf: 1 / 90, ranks: {}, score: 0.5 }], 2), dec);
    expect(weak.state).toBe('low_evidence');
    expect(weak.clarify).toMatch(/[\u4e00-\u9fa5]/);
    const none = decide(aggregateParents([{ key: 'a', parent: 'A', rrf: 1 / 61, ranks: {}, score: 0.9 }], () => 10, ideal(1, 10)), dec);
    expect(none.state).toBe('low_evidence');
    expect(decide([], dec).state).toBe('low_evidence');
  });
});

describe('ties: the order of tied chunks does not depend on the ids other imports took', () => {
  it('tied chunk keys <doc>#<ord> in numeric order, the same after every id shifted alike', () => {
    // a lexical rank 17 and a vector rank 17 tie on rrf; documents 7 and 276, or 17 and 286 once a
    // ten-document collection was imported first (string order flipped them: "276#5" < "7#1" but "17#1" < "286#5")
    const order = (a: number, b: number) =>
      rrfFuse({ lexical: [{ key: `${b}#5`, parent: String(b), rank: 17 }], vector: [{ key: `${a}#1`, parent: String(a), rank: 17 }] }, K).map((c) => Number(c.parent) - (a - 7));
    expect(order(7, 276)).toEqual([7, 276]);
    expect(order(17, 286)).toEqual([7, 276]);
    expect(order(1007, 1276)).toEqual([7, 276]);
  });

  it('digit runs compare as numbers, the rest by code unit, no locale', () => {
    expect(['10#2', '9#1', '9#10', '9#2', 'b', 'a10', 'a9'].sort(keyOrder)).toEqual(['9#1', '9#2', '9#10', '10#2', 'a9', 'a10', 'b']);
    expect(keyOrder('x', 'x')).toBe(0);
  });
});
