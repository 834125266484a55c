import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { matterNouns } from '../../../src/core/collections/subject';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir, writeStatuteFile } from '../../helpers';

/**
 * A statute question naming a matter other statutes of the corpus are about (collections/subject.ts
 * matterElsewhere, resources/collections/statute-topics.tsv), on a real SQLite file and jieba.
 */

const POWER = [
  '为了保障电力设施的安全，制定本条例。',
  '架空电力线路保护区的范围：导线边线向外侧水平延伸并垂直于地面所形成的两平行面内的区域。',
  '任何单位或个人不得在架空电力线路保护区内放风筝、兴建建筑物。',
  '电力设施的保护范围包括发电厂、变电站和电力线路的杆塔、基础、拉线。',
  '电力管理部门应当对电力设施保护区设立标志。',
];

describe('a statute question about a matter a statute outside the collection is about', () => {
  const ctx = tempContext();
  const dir = tempDir();
  const ask = (question: string) => invokeOperation(ctx, 'collections.ask', { collection: 'power', question });
  beforeAll(async () => {
    writeStatuteFile(dir, '电力设施保护示范条例', POWER);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'power' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads how much the corpus and the collection are about each noun', () => {
    const coll = requireCollection(ctx.db, 'power');
    const nouns = matterNouns(ctx, coll, '石油管道的保护范围有多大')!;
    const oil = nouns.find((n) => n.word === '石油')!;
    // the learned list: statutes on petroleum are about 石油 hundreds of times per 10,000 tokens; this collection never says it
    expect(oil.outside).toBeGreaterThan(ctx.config.collections.elsewhereTopicRate);
    expect(oil.inside).toBe(0);
    expect(oil.outsideTitle).toContain('石油');
    // a word the collection uses is inside it
    expect(nouns.find((n) => n.word === '范围')!.inside).toBeGreaterThan(0);
  });

  it('answers not_found naming the matter, and still answers the matters the collection governs', async () => {
    const a = await ask('石油管道的保护范围有多大');
    expect(a).toMatchObject({ state: 'not_found', decision: 'not_found', code: 'NOT_FOUND' });
    expect(a.answer!.split('\n')[0]).toMatch(/^集合中的法规没有关于「石油.*」的规定。$/);
    expect(a.retrieval?.reason).toContain('集合外法规');
    const own = await ask('架空电力线路保护区的范围有多大');
    expect(own).toMatchObject({ decision: 'locked', lock: { title: '电力设施保护示范条例' } });
    // an everyday word thinly spread over unrelated statutes (高压线) is no matter of its own
    const everyday = await ask('高压线下面能放风筝吗');
    expect(everyday.retrieval?.reason ?? '').not.toContain('集合外法规');
  });
});

describe('a statute question whose every noun the collection mentions only in passing', () => {
  const ctx = tempContext();
  const dir = tempDir();
  // a long criminal statute naming 商标 once (a trademark crime), as the criminal code does
  const crimes = ['盗窃', '抢劫', '诈骗', '抢夺', '敲诈勒索', '故意毁坏财物', '侵占', '挪用资金'];
  const articles = ['为了惩罚犯罪，保护人民，制定本法。'];
  for (let i = 0; i < 60; i++) {
    const c = crimes[i % crimes.length];
    articles.push(`${c}公私财物，数额较大的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；数额巨大或者有其他严重情节的，处三年以上十年以下有期徒刑，并处罚金；数额特别巨大或者有其他特别严重情节的，处十年以上有期徒刑或者无期徒刑，并处罚金或者没收财产。`);
  }
  articles.push('未经注册商标所有人许可，在同一种商品上使用与其注册商标相同的商标，情节严重的，处三年以下有期徒刑，并处或者单处罚金。');
  beforeAll(async () => {
    writeStatuteFile(dir, '刑事示范法', articles);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'criminal' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is about a matter statutes outside the collection govern (a trademark question asked to the criminal code)', async () => {
    const coll = requireCollection(ctx.db, 'criminal');
    const nouns = matterNouns(ctx, coll, '商标使用许可合同怎么签')!;
    const mark = nouns.find((n) => n.word === '商标')!;
    // mentioned, but far less than a statute outside is about it
    expect(mark.inside).toBeGreaterThan(0);
    expect(mark.inside).toBeLessThan(ctx.config.collections.elsewhereMentionRatio * mark.outside);
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'criminal', question: '商标使用许可合同怎么签' });
    expect(a).toMatchObject({ state: 'not_found', decision: 'not_found' });
    expect(a.answer!.split('\n')[0]).toContain('「商标');
    // its own matter still locks
    const own = await invokeOperation(ctx, 'collections.ask', { collection: 'criminal', question: '盗窃公私财物数额较大怎么判' });
    expect(own.decision).not.toBe('not_found');
  });
});

