import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { cosineToScore, distanceToScore, runPipeline, type RetrievedChunk } from '../../../src/core/search/pipeline';
import { titleScore } from '../../../src/core/collections/retrieve';
import { hasShared, sharedPath, tempContext, tempDir } from '../../helpers';

const demo = path.resolve(__dirname, '../../../resources/recipes');

describe('seed 003 formulas in the shared pipeline (hand-computed)', () => {
  const k = 60;
  // the shape collections feed in: a lexical list and a title list of chunk keys `<doc>#<ord>`
  const lexical: RetrievedChunk[] = [
    { key: '1#1', parent: '1', score: 0.8 },
    { key: '2#3', parent: '2', score: 0.6 },
    { key: '1#2', parent: '1', score: 0.5 },
    { key: '3#0', parent: '3', score: 0.4 },
  ];
  const title: RetrievedChunk[] = [{ key: '1#0', parent: '1', score: 1 }];
  const totals: Record<string, number> = { '1': 6, '2': 20, '3': 2 };
  const options = { rrfK: k, topK: 25, coverageThreshold: 0.5, tMin: 0.4, ambiguityRatio: 0.92, rrfWeight: 0.7, normalise: { kind: 'best' as const }, totalChunks: (p: string) => totals[p] };
  const run = () =>
    runPipeline('q', [
      { name: 'lexical', retrieve: () => lexical },
      { name: 'title', retrieve: () => title },
    ], options);

  it('rrf_sum = Σ 1/(k+rank), coverage_ratio = coverage / total_chunks, norms over eligible parents, overall = 0.7·rrf_sum_norm + 0.3·max_chunk_norm', async () => {
    const r = await run();
    const p1 = r.parents.find((p) => p.parent === '1')!;
    // chunks 1#1 (lexical rank 1) 1/61, 1#0 (title rank 1) 1/61, 1#2 (lexical rank 3) 1/63
    expect(p1.rrf_sum).toBeCloseTo(1 / 61 + 1 / 61 + 1 / 63, 10);
    expect(p1.max_chunk_score).toBe(1);
    expect(p1.coverage).toBe(3);
    expect(p1.total_chunks).toBe(6);
    expect(p1.coverage_ratio).toBe(3 / 6);
    expect(p1.passes_coverage).toBe(true);
    const p3 = r.parents.find((p) => p.parent === '3')!;
    // 1 of 2 chunks: eligible at exactly 0.5
    expect(p3.coverage_ratio).toBe(0.5);
    expect(p3.passes_coverage).toBe(true);
    // normalised by the best eligible parent
    expect(p1.rrf_norm).toBe(1);
    expect(p1.max_norm).toBe(1);
    expect(p1.overall_score).toBeCloseTo(1, 10);
    expect(p3.rrf_norm).toBeCloseTo(1 / 64 / (2 / 61 + 1 / 63), 10);
    expect(p3.max_norm).toBeCloseTo(0.4, 10);
    expect(p3.overall_score).toBeCloseTo(0.7 * (1 / 64 / (2 / 61 + 1 / 63)) + 0.3 * 0.4, 10);
    expect(r.decision).toMatchObject({ state: 'locked', parents: ['1'] });
  });

  it('a long document with one hit chunk is not eligible (1/20 < 0.5) and gets no overall score', async () => {
    const r = await run();
    const p2 = r.parents.find((p) => p.parent === '2')!;
    expect(p2.coverage_ratio).toBeCloseTo(1 / 20, 10);
    expect(p2.passes_coverage).toBe(false);
    expect(p2.overall_score).toBe(0);
    expect(r.parents.at(-1)!.parent).toBe('2');
  });

  it('maps cosine distance by 1/(1+d); ambiguity above 0.92; low evidence when nothing is eligible', async () => {
    expect(distanceToScore(0)).toBe(1);
    expect(distanceToScore(1)).toBe(0.5);
    expect(cosineToScore(0.8)).toBeCloseTo(1 / 1.2, 10);
    const tie = await runPipeline('q', [{ name: 'lexical', retrieve: () => [{ key: 'a#1', parent: 'a', score: 0.9 }, { key: 'b#1', parent: 'b', score: 0.9 }] }], { ...options, totalChunks: () => 1 });
    expect(tie.decision.state).toBe('ambiguous');
    const none = await runPipeline('q', [{ name: 'lexical', retrieve: () => [{ key: 'a#1', parent: 'a', score: 0.9 }] }], { ...options, totalChunks: () => 10 });
    expect(none.decision).toMatchObject({ state: 'low_evidence', parents: [] });
    const ruled = await runPipeline('q', [{ name: 'lexical', retrieve: () => [{ key: 'a#1', parent: 'a', score: 0.9 }] }], { ...options, totalChunks: () => 10 }, () => ({ state: 'locked', parents: ['a'], reason: 'rule', rule: 'test' }));
    expect(ruled.generic.state).toBe('low_evidence');
    expect(ruled.decision).toMatchObject({ state: 'locked', rule: 'test' });
  });

  it('scores title matches: exact 1, contained in a longer title by share, description mentions weakly', () => {
    expect(titleScore('红烧肉', '红烧肉')).toBe(1);
    expect(titleScore('红烧肉', '南派红烧肉')).toBeCloseTo(0.5 + 0.4 * (3 / 5), 10);
    expect(titleScore('鸡', '口水鸡')).toBeCloseTo(0.5 + 0.4 / 3, 10);
    expect(titleScore('鸡', '黄焖鸡')).toBe(titleScore('鸡', '口水鸡'));
    expect(titleScore('南派红烧肉配料表', '南派红烧肉')).toBeCloseTo(0.1 + 0.8 * (5 / 8), 10);
    expect(titleScore('今天股市行情', '红烧肉')).toBe(0);
  });
});

describe('decisions on the demo recipe collection (real SQLite, jieba, FTS5)', () => {
  const ctx = tempContext();
  beforeAll(async () => {
    await invokeOperation(ctx, 'collections.import', { folder: demo, name: 'recipes' });
  });
  afterAll(() => ctx.cleanup());

  it('红烧肉怎么做 -> locked on 红烧肉 with the structured answer', async () => {
    const out = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '红烧肉怎么做' });
    expect(out.decision).toBe('locked');
    expect(out.kind).toBe('answer');
    expect(out.lock).toMatchObject({ state: 'locked', title: '红烧肉' });
    expect(out.answer).toContain('## 原料和用量');
    expect(out.answer).toContain('- 五花肉：800g');
    expect(out.answer).toMatch(/## 步骤\n\n1\. 五花肉切成 3cm 见方的块/);
    const top = out.retrieval!.parents[0];
    expect(top).toMatchObject({ title: '红烧肉', title_score: 1, passes_coverage: true });
    expect(top.overall_score).toBeGreaterThanOrEqual(ctx.config.search.tMin);
    expect(out.retrieval!.lists).toEqual(expect.arrayContaining(['lexical', 'title']));
  });

  it('a first question that names the dish and asks one thing gets that part first', async () => {
    const step = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '红烧肉第三步是什么' });
    expect(step.lock.title).toBe('红烧肉');
    expect(step.route).toMatchObject({ intent: 'steps', step: 3 });
    expect(step.answer).toMatch(/^\*\*《红烧肉》第 3 步\*\*/);
    expect(step.answer).toContain('## 步骤');
    const pot = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '可乐鸡翅需要什么锅' });
    expect(pot.lock.title).toBe('可乐鸡翅');
    expect(pot.route?.intent).toBe('tools');
  });

  it('鸡怎么做 -> ambiguous with numbered candidates, all chicken dishes', async () => {
    const out = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '鸡怎么做' });
    expect(out.decision).toBe('ambiguous');
    expect(out.kind).toBe('candidates');
    expect(out.lock.state).toBe('pending');
    expect(out.candidates.length).toBeGreaterThanOrEqual(3);
    expect(out.candidates.map((c) => c.option_id)).toEqual(out.candidates.map((_, i) => String(i + 1)));
    for (const c of out.candidates) expect(c.title).toContain('鸡');
    expect(out.clarify_question).toMatch(/哪一个/);
  });

  it('an unrelated question -> LOW_EVIDENCE with a clarify question', async () => {
    const out = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '今天股市行情如何？' });
    expect(out.decision).toBe('low_evidence');
    expect(out.code).toBe('LOW_EVIDENCE');
    expect(out.lock.state).toBe('none');
    expect(out.clarify_question).toBeTruthy();
    expect(out.answer).toMatch(/^LOW_EVIDENCE/);
  });

  it('FTS syntax and odd characters in a question are just text', async () => {
    const out = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '"红烧肉"*:(-' });
    expect(out.lock.title).toBe('红烧肉');
    const ops = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: 'AND( NEAR * -: OR "' });
    expect(ops.code).toBe('LOW_EVIDENCE');
  });
});

describe('hybrid retrieval with an embedding model installed', () => {
  it('embeds chunks after the import and adds a vector list without changing the title decisions', async () => {
    const { testModelsDir } = await import('../../fixtures/model');
    const ctx = tempContext({ modelsDir: testModelsDir() });
    try {
      const out = await invokeOperation(ctx, 'collections.import', { folder: demo, name: 'recipes' });
      expect(out.vectors).toBe(out.chunks);
      // a re-import embeds nothing new
      expect((await invokeOperation(ctx, 'collections.import', { folder: demo, name: 'recipes' })).vectors).toBe(0);
      const locked = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '红烧肉怎么做' });
      expect(locked.retrieval!.lists).toEqual(['title', 'lexical', 'vector']);
      expect(locked.lock.title).toBe('红烧肉');
      const amb = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '鸡怎么做' });
      expect(amb.decision).toBe('ambiguous');
      // vectors always return neighbours; below the evidence floor they must not turn noise into candidates
      const stock = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '今天股市行情如何' });
      // nothing the collection holds: low evidence or, naming a thing it never mentions (股市), not found — no lock, no noise offered
      expect(['LOW_EVIDENCE', 'NOT_FOUND']).toContain(stock.code);
      expect(stock.lock.state).not.toBe('locked');
      expect(stock.candidates).toEqual([]);
    } finally {
      await ctx.cleanup();
    }
  }, 120_000);
});

describe.skipIf(!hasShared('data', 'howtocook'))('the shared howtocook collection (369 real recipes)', () => {
  const ctx = tempContext();
  beforeAll(async () => {
    await invokeOperation(ctx, 'collections.import', { folder: sharedPath('data', 'howtocook'), name: 'howtocook' });
  }, 120_000);
  afterAll(() => ctx.cleanup());

  it('locks exact titles and lists the four 红烧肉 recipes for the bare 红烧肉', async () => {
    const wings = await invokeOperation(ctx, 'collections.ask', { collection: 'howtocook', question: '可乐鸡翅怎么做' });
    expect(wings.lock.title).toBe('可乐鸡翅');
    expect(wings.answer).toContain('- 可乐：500ml');
    const pork = await invokeOperation(ctx, 'collections.ask', { collection: 'howtocook', question: '红烧肉怎么做' });
    expect(pork.decision).toBe('ambiguous');
    expect(pork.candidates.map((c) => c.title).sort()).toEqual(['南派红烧肉', '徽派红烧肉', '湖南家常红烧肉', '简易红烧肉'].sort());
    const pick = await invokeOperation(ctx, 'collections.ask', { collection: 'howtocook', question: '第二个', session_id: pork.session_id });
    expect(pick.lock.title).toBe(pork.candidates[1].title);
  });
});

describe('natural questions that name the dish lock (no extra best-chunk gate overrules a named title)', () => {
  const ctx = tempContext();
  const dir = tempDir();
  beforeAll(async () => {
    fs.cpSync(demo, dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'dishes', '绿豆汤.md'),
      '# 绿豆汤的做法\n\n清热解暑的家常甜汤。\n\n## 必备原料和工具\n\n- 绿豆\n- 冰糖\n\n## 计算\n\n- 绿豆 100g\n- 冰糖 30g\n- 水 1500ml\n\n## 操作\n\n1. 绿豆洗净浸泡 2 小时\n2. 加水大火煮开后转小火煮 40 分钟\n3. 加冰糖搅拌至融化\n',
    );
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'recipes' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['今晚想做个可乐鸡翅', '可乐鸡翅'],
    ['家里来客人想炒个宫保鸡丁', '宫保鸡丁'],
    ['想喝绿豆汤了', '绿豆汤'],
  ])('%s -> locked on %s', async (question, title) => {
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question });
    expect(a.decision).toBe('locked');
    expect(a.lock.title).toBe(title);
    expect(a.profile).toBe('recipes');
    expect(a.suggestions).toContain('需要哪些原料？');
  });

  it('今天天气怎么样 -> low evidence in recipe wording', async () => {
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'recipes', question: '今天天气怎么样' });
    expect(a.decision).toBe('low_evidence');
    expect(a.code).toBe('LOW_EVIDENCE');
  });
});
