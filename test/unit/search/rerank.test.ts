import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { smartSearch } from '../../../src/core/regulations/search';
import { REG_FEATURES, SHIPPED_RERANKER_ID, shippedReranker } from '../../../src/core/regulations/rerank';
import { fitLinearReranker, rerankScore, rerankerApplies, type LinearReranker, type RerankGroup } from '../../../src/core/search/rerank';
import { sha256FileSync, writeManifest } from '../../../src/core/embed/manifest';
import { createAppContext } from '../../../src/core/context';
import { tempDir } from '../../helpers';
import { hybridLibrary } from './fixtures';

/** Groups where feature 0 tells the relevant candidate apart (plus noise), feature 1 is noise. */
function synthetic(seed: number, groups: number): RerankGroup[] {
  let x = seed;
  const rand = () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return Array.from({ length: groups }, () => {
    const n = 30;
    const gold = Math.floor(rand() * n);
    return {
      x: Array.from({ length: n }, (_, i) => [(i === gold ? 1.5 : 0) + rand(), rand()]),
      y: Array.from({ length: n }, (_, i) => (i === gold ? 1 : 0)),
    };
  });
}

function top1(model: LinearReranker, groups: RerankGroup[]): number {
  let right = 0;
  for (const g of groups) {
    const scores = g.x.map((x) => rerankScore(model, x));
    if (g.y[scores.indexOf(Math.max(...scores))] === 1) right++;
  }
  return right / groups.length;
}

describe('learned reranker fit', () => {
  it('learns which feature marks the relevant candidate, generalises to new groups, and is deterministic', () => {
    const train = synthetic(1, 60);
    const test = synthetic(2, 60);
    for (const listwise of [0, 1]) {
      const m = fitLinearReranker(train, ['signal', 'noise'], { pool: 30, candidates: 100, embedding_model: 'm' }, { l2: 1, listwise });
      expect(m.weights[0]).toBeGreaterThan(0.5);
      expect(Math.abs(m.weights[1])).toBeLessThan(m.weights[0] / 3);
      // chance is 1/30; the signal alone puts the right candidate first most of the time
      expect(top1(m, test)).toBeGreaterThan(0.6);
      const again = fitLinearReranker(train, ['signal', 'noise'], { pool: 30, candidates: 100, embedding_model: 'm' }, { l2: 1, listwise });
      expect(again).toEqual(m);
    }
  });

  it('applies only to its own features and embedding model (and the library-adapted versions of it)', () => {
    const m = fitLinearReranker(synthetic(3, 10), [...REG_FEATURES].slice(0, 2), { pool: 10, candidates: 100, embedding_model: 'gridcode-zh-v1' });
    const full = { ...m, features: [...REG_FEATURES], weights: REG_FEATURES.map(() => 0), mean: REG_FEATURES.map(() => 0), scale: REG_FEATURES.map(() => 1) };
    expect(rerankerApplies(full, REG_FEATURES, 'gridcode-zh-v1')).toBe(true);
    expect(rerankerApplies(full, REG_FEATURES, 'gridcode-zh-v1-lib2')).toBe(true);
    expect(rerankerApplies(full, REG_FEATURES, 'bge-small-zh-v1.5')).toBe(false);
    expect(rerankerApplies(full, REG_FEATURES, null)).toBe(false);
    expect(rerankerApplies(m, REG_FEATURES, 'gridcode-zh-v1')).toBe(false);
  });
});

describe('the shipped reranker file', () => {
  it('is used only when listed in the manifest with a matching sha256', () => {
    const dir = tempDir();
    const folder = path.join(dir, SHIPPED_RERANKER_ID);
    fs.mkdirSync(folder, { recursive: true });
    const model: LinearReranker = { kind: 'linear', features: [...REG_FEATURES], mean: REG_FEATURES.map(() => 0), scale: REG_FEATURES.map(() => 1), weights: REG_FEATURES.map(() => 0.1), bias: 0, pool: 50, candidates: 100, embedding_model: 'x' };
    const file = path.join(folder, 'reranker.json');
    fs.writeFileSync(file, JSON.stringify(model));
    const open = () => createAppContext({ dataDir: tempDir(), modelsDir: dir });
    const entry = (sha256: string) => ({ models: [], rerankers: [{ id: SHIPPED_RERANKER_ID, folder: SHIPPED_RERANKER_ID, file: 'reranker.json', sha256 }] });
    writeManifest(dir, entry(sha256FileSync(file)));
    const ok = open();
    expect(shippedReranker(ok)?.weights).toEqual(model.weights);
    void ok.close();
    writeManifest(dir, entry('0'.repeat(64)));
    const altered = open();
    expect(shippedReranker(altered)).toBeNull();
    void altered.close();
  });
});

describe('rerank stage in a hybrid regulation search (generated test model: mechanics, not quality)', () => {
  const ctx = hybridLibrary();

  /** A reranker that orders by one feature only (standardised weight `w`). */
  const byFeature = (name: string, w: number, embedding: string): LinearReranker => ({
    kind: 'linear',
    features: [...REG_FEATURES],
    mean: REG_FEATURES.map(() => 0),
    scale: REG_FEATURES.map(() => 1),
    weights: REG_FEATURES.map((f) => (f === name ? w : 0)),
    bias: 0,
    pool: 50,
    candidates: 100,
    embedding_model: embedding,
  });

  it('re-orders the candidates by the learned score, and leaves other models and lexical searches alone', async () => {
    const modelId = ctx.embedder().status().model_id!;
    const query = '母线失压 处置';
    const plain = await smartSearch(ctx, { query, reg_id: 'all', top_k: 50 }, { rerank: null });
    expect(plain.results.length).toBeGreaterThan(3);
    // ordering by term evidence alone, either way: the hit holding the most (least) of the query comes first
    const evidence = plain.results.map((r) => r.reasons.evidence);
    const most = await smartSearch(ctx, { query, reg_id: 'all', top_k: 50 }, { rerank: byFeature('evidence', 5, modelId) });
    expect(most.results[0].reasons.evidence).toBe(Math.max(...evidence));
    expect(most.results.map((r) => r.unit_id).sort()).toEqual(plain.results.map((r) => r.unit_id).sort());
    const least = await smartSearch(ctx, { query, reg_id: 'all', top_k: 50 }, { rerank: byFeature('evidence', -5, modelId) });
    expect(least.results[0].reasons.evidence).toBe(Math.min(...evidence));
    expect(Math.min(...evidence)).toBeLessThan(Math.max(...evidence));
    // a reranker trained with another embedding model, or a lexical search: the fused order
    const other = await smartSearch(ctx, { query, reg_id: 'all', top_k: 50 }, { rerank: byFeature('evidence', -5, 'another-model') });
    expect(other.results.map((r) => r.unit_id)).toEqual(plain.results.map((r) => r.unit_id));
    const lexPlain = await smartSearch(ctx, { query, reg_id: 'all', top_k: 50, mode: 'lexical' }, { rerank: null });
    const lexRerank = await smartSearch(ctx, { query, reg_id: 'all', top_k: 50, mode: 'lexical' }, { rerank: byFeature('evidence', -5, modelId) });
    expect(lexRerank.results.map((r) => r.unit_id)).toEqual(lexPlain.results.map((r) => r.unit_id));
  });
});
