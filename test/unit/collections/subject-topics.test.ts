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
