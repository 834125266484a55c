import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { knownAnswers, setKnownQuestions } from '../../../src/core/collections/known-answers';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir } from '../../helpers';

/**
 * Known questions in statute collections (collections/known-answers.ts) on a real SQLite file and
 * jieba: a lay question sharing no word with the statute finds its article through a close known
 * question; loose neighbours and collections without the known articles get nothing.
 */

function writeStatutes(dir: string): void {
  fs.writeFileSync(
    path.join(dir, '家庭关系示范法.md'),
    [
      '# 中华人民共和国家庭关系示范法',
      '',
      '## 第一章 总则',
      '',
      '第一条 为了规范家庭关系，制定本法。',
      '',
      '第二条 本法适用于婚姻、收养和扶养关系。',
      '',
      '## 第二章 婚姻',
      '',
      '第三条 有配偶者与他人同居导致婚姻关系解除的，无过错方有权请求损害赔偿。',
      '',
      '第四条 分割夫妻共同财产时，应当照顾子女、女方和无过错方的权益。',
      '',
      '第五条 收养人应当具备抚养被收养人的能力。',
      '',
      '第六条 被收养人的生父母应当向收养人说明被收养人的健康状况。',
      '',
      '第七条 父母对未成年子女负有抚养、教育和保护的义务。',
      '',
      '第八条 成年子女对父母负有赡养、扶助和保护的义务。',
      '',
      '第九条 祖父母、外祖父母对于父母已经死亡的未成年孙子女，有负担能力的，有抚养的义务。',
      '',
      '第十条 兄、姐对于父母已经死亡的未成年弟、妹，有负担能力的，有扶养的义务。',
      '',
      '第十一条 婚姻登记机关应当为当事人保守个人信息。',
      '',
      '第十二条 结婚应当男女双方完全自愿。',
      '',
      '第十三条 禁止包办、买卖婚姻和其他干涉婚姻自由的行为。',
      '',
      '第十四条 本法自公布之日起施行。',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, '道路通行示范条例.md'),
    [
      '# 道路通行示范条例',
      '',
      '第一条 为了维护道路通行秩序，制定本条例。',
      '',
      '第二条 机动车驾驶人应当遵守通行信号。',
      '',
      '第三条 饮酒后不得驾驶机动车。',
      '',
      '第四条 机动车在高速公路上行驶，最高时速不得超过一百二十公里。',
      '',
      '第五条 本条例自公布之日起施行。',
    ].join('\n'),
  );
}

const KNOWN = [
  { question: '老公出轨跟小三住在一起，离婚的时候我能要求他赔偿吗', relevant: ['中华人民共和国家庭关系示范法第三条'] },
  { question: '老公出轨离婚，家里的钱能多分一些吗', relevant: ['家庭关系示范法第四条'] },
  { question: '公司不交社保怎么办', relevant: ['中华人民共和国社会保险示范法第十条'] },
];

describe('known questions in statute collections', () => {
  const ctx = tempContext();
  const dir = tempDir();
  beforeAll(async () => {
    writeStatutes(dir);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'family' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a lay question sharing no statute word locks the statute and quotes the article a close known question cites', async () => {
    const q = '我老公出轨了还和小三住一起，离婚能让他赔偿我吗';
    setKnownQuestions(ctx, []);
    const without = await invokeOperation(ctx, 'collections.ask', { collection: 'family', question: q });
    expect(without.decision === 'locked' && without.citations[0]?.label === '第三条').toBe(false);
    setKnownQuestions(ctx, KNOWN);
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'family', question: q });
    expect(a.decision).toBe('locked');
    expect(a.lock.title).toBe('中华人民共和国家庭关系示范法');
    expect(a.citations[0].label).toBe('第三条');
    expect(a.answer).toContain('第三条');
  });

  it('titles with and without 中华人民共和国 resolve; references to statutes the collection lacks are dropped', () => {
    setKnownQuestions(ctx, KNOWN);
    const coll = requireCollection(ctx.db, 'family');
    const hits = knownAnswers(ctx, coll, '老公出轨离婚时家里的钱能多分吗');
    const docs = new Set(hits.map((h) => h.parent));
    expect(docs.size).toBe(1);
    expect(hits.length).toBeGreaterThanOrEqual(1);
    for (const h of hits) expect(h.sim).toBeGreaterThanOrEqual(ctx.config.collections.knownMinSim);
    expect(knownAnswers(ctx, coll, '公司不交社保怎么办')).toEqual([]);
  });

  it('loose neighbours below the similarity floor give no list, and out-of-domain questions stay low evidence', async () => {
    setKnownQuestions(ctx, KNOWN);
    const coll = requireCollection(ctx.db, 'family');
    expect(knownAnswers(ctx, coll, '高速公路上最快能开多少')).toEqual([]);
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'family', question: '今天天气怎么样' });
    expect(a.decision).toBe('low_evidence');
  });

  it('the similarity floor is the configured one: raising it above every neighbour removes the list', () => {
    setKnownQuestions(ctx, KNOWN);
    const coll = requireCollection(ctx.db, 'family');
    const q = '老公出轨离婚，家里的钱我能多分吗';
    expect(knownAnswers(ctx, coll, q).length).toBeGreaterThan(0);
    const floor = ctx.config.collections.knownMinSim;
    ctx.config.collections.knownMinSim = 0.999;
    try {
      expect(knownAnswers(ctx, coll, q)).toEqual([]);
    } finally {
      ctx.config.collections.knownMinSim = floor;
    }
  });
});
