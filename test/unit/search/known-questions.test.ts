import { afterAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { knownQuestionLists, knownQuestionPriors, normLawTitle, splitArticleRef } from '../../../src/core/regulations/known-questions';
import { hasShared, sharedPath, tempContext, tempDir } from '../../helpers';

const LAW = ['data', 'laws', '经济法', '电力法(2018-12-29).md'];
const ready = hasShared(...LAW);
if (!ready) console.warn('[skip] ../shared/data/laws not found');

describe('article references as questions name them', () => {
  it('splits law title and article, and compares titles without the state prefix or date', () => {
    expect(splitArticleRef('中华人民共和国民法典第五十四条')).toEqual(['中华人民共和国民法典', '第五十四条']);
    expect(splitArticleRef('刑法第一百三十三条之一')).toEqual(['刑法', '第一百三十三条之一']);
    expect(splitArticleRef('民法典')).toBeNull();
    expect(normLawTitle('中华人民共和国电力法(2018-12-29)')).toBe(normLawTitle('电力法'));
  });
});

describe.skipIf(!ready)('known questions over a real statute library', () => {
  const ctx = tempContext({ modelsDir: tempDir() });
  afterAll(() => ctx.cleanup());

  it('points a new question close to a known one at its articles, and stays off where the articles are missing', async () => {
    await invokeOperation(ctx, 'regulations.import', { paths: [sharedPath(...LAW)] });
    const unit = (label: string) => (ctx.db.prepare('SELECT id FROM reg_units WHERE label = ?').get(label) as { id: number }).id;
    const known = [
      { question: '供电公司不打招呼就停电合法吗', relevant: ['中华人民共和国电力法第二十九条'] },
      { question: '电网运行要遵循什么原则', relevant: ['电力法第十八条'] },
    ];
    const lists = knownQuestionLists(ctx, known, 'test');
    expect(lists).not.toBeNull();
    const near = lists!('小区突然停电，供电公司没有打招呼，这样合法吗？').known;
    expect(near[0]).toBe(String(unit('第二十九条')));
    expect(lists!('电网运行的原则').known[0]).toBe(String(unit('第十八条')));
    expect(lists!('完全无关的问题 zzqqxx').known).toEqual([]);

    // rerank features: citations, and how close the known questions citing an article are to this query
    const priors = knownQuestionPriors(ctx, known, 'test')!;
    const regId = (ctx.db.prepare('SELECT reg_id FROM reg_units WHERE id = ?').get(unit('第二十九条')) as { reg_id: string }).reg_id;
    const asked = '小区突然停电，供电公司没有打招呼，这样合法吗？';
    const [cited, citedReg, closeness, best] = priors(unit('第二十九条'), regId, asked);
    expect(cited).toBeCloseTo(Math.log1p(1));
    expect(citedReg).toBeCloseTo(Math.log1p(2));
    expect(best).toBeGreaterThan(0.3);
    expect(closeness).toBeCloseTo(best * best);
    const other = priors(unit('第十八条'), regId, asked);
    expect(other[0]).toBeCloseTo(Math.log1p(1));
    expect(other[3]).toBeLessThan(best);
    expect(priors(unit('第二条'), regId, asked)).toEqual([0, Math.log1p(2), 0, 0]);

    // the fused search carries the list: the known question's article is found for the new wording
    const out = await invokeOperation(ctx, 'search.smart_search', { query: '小区突然停电，供电公司没有打招呼，这样合法吗？', reg_id: 'all', top_k: 5 });
    expect(out.results.map((r) => r.article)).toContain('第二十九条');

    // questions whose articles this library does not hold: no list at all
    const elsewhere = [{ question: '谁可以成为个体工商户', relevant: ['中华人民共和国民法典第五十四条', '个体工商户条例第二条'] }];
    expect(knownQuestionLists(ctx, elsewhere, 'elsewhere')).toBeNull();
  });
});
