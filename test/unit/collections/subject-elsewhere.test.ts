import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { knownInsideOutside, setKnownQuestions } from '../../../src/core/collections/known-answers';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir, writeStatuteFile } from '../../helpers';

/**
 * A statute question about a matter the collection does not regulate (collections/subject.ts, known
 * questions split by whether they cite the collection's statutes), on a real SQLite file and jieba.
 */

const FAMILY = [
  '为了规范家庭关系，制定本法。',
  '有配偶者与他人同居导致婚姻关系解除的，无过错方有权请求损害赔偿。',
  '分割夫妻共同财产时，应当照顾子女、女方和无过错方的权益。',
  '父母对未成年子女负有抚养、教育和保护的义务。',
  '用人单位应当按时缴费；造成员工损失的，应当赔偿。',
];

const INSIDE = [
  { question: '老公出轨跟小三住在一起，离婚的时候我能要求他赔偿吗', relevant: ['家庭关系示范法第二条'] },
  { question: '离婚分财产的时候孩子跟我，能多分一些吗', relevant: ['家庭关系示范法第三条'] },
];
const OUTSIDE = [
  { question: '用人单位没给员工缴费，造成员工损失的要赔偿吗', relevant: ['社会保险示范法第五条'] },
  { question: '用人单位欠缴费用，员工退休以后领不到钱怎么办', relevant: ['社会保险示范法第六条'] },
];

describe('a statute question whose known neighbours are all about statutes the collection does not hold', () => {
  const ctx = tempContext();
  const dir = tempDir();
  const ask = (question: string) => invokeOperation(ctx, 'collections.ask', { collection: 'family', question });
  beforeAll(async () => {
    writeStatuteFile(dir, '家庭关系示范法', FAMILY);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'family' });
    setKnownQuestions(ctx, [...INSIDE, ...OUTSIDE]);
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('splits the nearest known questions by whether they cite the collection, and counts those that do', () => {
    const coll = requireCollection(ctx.db, 'family');
    const social = knownInsideOutside(ctx, coll, '用人单位没缴费造成员工损失要赔偿吗')!;
    expect(social.described).toBe(2);
    expect(social.outside).toBeGreaterThan(social.inside + ctx.config.collections.elsewhereMargin);
    const family = knownInsideOutside(ctx, coll, '老公出轨离婚能要求赔偿吗')!;
    expect(family.inside).toBeGreaterThan(family.outside);
  });

  it('answers not_found in regulation wording instead of locking the statute whose words it shares, and still locks its own matters', async () => {
    // every noun of it (用人单位, 损失) is in the statute: only the known questions tell the matter apart
    const q = '用人单位没缴费造成员工损失，要赔偿吗';
    const cfg = ctx.config.collections;
    const gate = cfg.elsewhereMinKnown;
    cfg.elsewhereMinKnown = 2;
    try {
      const a = await ask(q);
      expect(a).toMatchObject({ state: 'not_found', decision: 'not_found', code: 'NOT_FOUND' });
      expect(a.retrieval?.reason).toContain('《社会保险示范法》');
      expect(a.lock.state).not.toBe('locked');
      expect(a.answer!.split('\n')[0]).toMatch(/^集合中的法规没有关于「.+」的规定。$/);
      expect((await ask('老公出轨离婚，我能要求他赔偿吗')).lock.title).toBe('家庭关系示范法');
    } finally {
      cfg.elsewhereMinKnown = gate;
    }
    // a collection the known questions hardly describe (fewer than elsewhereMinKnown cite it) is not judged
    // by them: the question then locks the statute whose words it shares
    cfg.elsewhereMinKnown = 3;
    try {
      const without = await ask(q);
      expect(without).toMatchObject({ decision: 'locked', lock: { title: '家庭关系示范法' } });
    } finally {
      cfg.elsewhereMinKnown = gate;
    }
  });
});
