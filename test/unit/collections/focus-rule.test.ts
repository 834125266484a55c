import { describe, expect, it } from 'vitest';
import { collectionEvidenceRule } from '../../../src/core/collections/retrieve';
import { defaultConfig } from '../../../src/core/config';
import type { ParentHit } from '../../../src/core/search/fusion';
import type { PipelineChunk, PipelineResult } from '../../../src/core/search/pipeline';

/**
 * The focus rule's choice between statutes (collections/retrieve.ts), on the fused result of three
 * long statutes: a law, its implementing rules (whose title names the law) and an unrelated law.
 * The rule is a pure function of the fused chunks and their article scores, so the cases are given
 * as scores: a near tie between the rules and the law asks back (the law first); a clear lead of the rules
 * locks the rules; a near tie between unrelated statutes asks which one is meant.
 */

const TITLES: Record<string, string> = { '1': '中华人民共和国示范法', '2': '中华人民共和国示范法实施条例', '3': '中华人民共和国另一法' };

function run(best: Record<string, number>, totalChunks = 40, cfg = defaultConfig().collections) {
  const chunks: PipelineChunk[] = Object.entries(best)
    .sort((a, b) => b[1] - a[1])
    .map(([p, s], i) => ({ key: `${p}#${i}`, parent: p, rrf: 1 / (61 + i), score: s, ranks: { lexical: i + 1 } }));
  const parents: ParentHit[] = chunks.map((c) => ({
    parent: c.parent, rrf_sum: c.rrf, max_chunk_score: c.score, coverage: 1, total_chunks: totalChunks, coverage_ratio: 1 / totalChunks,
    passes_coverage: false, rrf_norm: 1, max_norm: 1, overall_score: c.score, chunks: [c.key],
  }));
  const r: Omit<PipelineResult, 'decision'> = { lists: {}, chunks, parents, generic: { state: 'low_evidence', parents: [], reason: '没有候选的覆盖率达到阈值' } };
  const names = (a: string, b: string) => TITLES[a] !== TITLES[b] && TITLES[a].includes(TITLES[b].replace(/^中华人民共和国/, ''));
  return collectionEvidenceRule(r, {
    titleScores: new Map(),
    cosines: new Map(),
    named: [],
    titleOf: (p) => TITLES[p],
    family: (a, b) => TITLES[a] === TITLES[b] || names(a, b) || names(b, a),
    names,
    articleScores: (cs) => new Map(cs.map((c) => [c.key, { score: c.score, evidence: c.score }])),
    cfg,
    ambiguityRatio: 0.92,
  });
}

describe('focus rule between a law, its rules and another law', () => {
  it('a near tie between the rules and the law they name asks back, the law first (close statutes: a question beats a wrong lock)', () => {
    expect(run({ '2': 0.8, '1': 0.78, '3': 0.4 })).toMatchObject({ state: 'ambiguous', parents: ['1', '2'], rule: 'focus' });
    expect(run({ '1': 0.8, '2': 0.77, '3': 0.4 })).toMatchObject({ state: 'ambiguous', parents: ['1', '2'] });
  });

  it('the law clearly ahead of its rules is locked', () => {
    expect(run({ '1': 0.8, '2': 0.7, '3': 0.4 })).toMatchObject({ state: 'locked', parents: ['1'], rule: 'focus' });
  });

  it('rules clearly ahead of their law keep the lock', () => {
    expect(run({ '2': 0.8, '1': 0.6, '3': 0.4 })).toMatchObject({ state: 'locked', parents: ['2'] });
  });

  it('a near tie with an unrelated statute asks which one is meant', () => {
    const d = run({ '2': 0.8, '3': 0.78, '1': 0.4 });
    expect(d?.state).toBe('ambiguous');
    expect(d?.parents).toEqual(['2', '3']);
  });
});

describe('evidence needed to answer from a long statute (focusLongEvidence)', () => {
  // calibrated on the tuning parts (config.ts): weaker best articles are mostly questions the
  // collection cannot answer (STARD cross-domain), and a lower value added no right answer
  it('a best article below the calibrated evidence leaves the question low evidence', () => {
    const cfg = defaultConfig().collections;
    expect(cfg.focusLongEvidence).toBeGreaterThan(cfg.minEvidence);
    const weak = (cfg.minEvidence + cfg.focusLongEvidence) / 2;
    expect(run({ '1': weak, '3': weak / 2 })).toBeNull();
    // the same article with the old bar (minEvidence) would have been locked
    expect(run({ '1': weak, '3': weak / 2 }, 40, { ...cfg, focusLongEvidence: cfg.minEvidence })).toMatchObject({ state: 'locked', parents: ['1'] });
  });

  it('an article at the bar locks; shorter documents keep their own bar (focusEvidence)', () => {
    const cfg = defaultConfig().collections;
    expect(run({ '1': cfg.focusLongEvidence, '3': 0.1 })).toMatchObject({ state: 'locked', parents: ['1'], rule: 'focus' });
    expect(run({ '1': (cfg.focusLongEvidence + cfg.focusEvidence) / 2, '3': 0.1 }, cfg.focusMinChunks - 1)).toBeNull();
    expect(run({ '1': cfg.focusEvidence, '3': 0.1 }, cfg.focusMinChunks - 1)).toMatchObject({ state: 'locked', parents: ['1'] });
  });
});
