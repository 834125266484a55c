import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { statuteWordFiles, subjectVerdict } from '../../../src/core/collections/subject';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir, writeStatuteFile } from '../../helpers';

/**
 * A statute collection asked with a noun it never mentions (collections/subject.ts): a word the statutes
 * of the whole corpus use (驾驶证) names a matter regulated elsewhere, a word no statute uses (电饭锅)
 * names a thing the statutes call by its kind (商品) — real SQLite file, jieba and the shipped word list.
 */

const CONSUMER = [
  '为了保护消费者的合法权益，制定本法。',
  '经营者提供的商品不符合质量要求的，消费者可以要求退货、更换或者修理。',
  '经营者采用网络方式销售商品，消费者有权自收到商品之日起七日内退货。',
  '经营者提供商品有欺诈行为的，应当按照消费者的要求增加赔偿其受到的损失。',
];

describe('a statute question naming a thing the collection never mentions', () => {
  const ctx = tempContext();
  const dir = tempDir();
  beforeAll(async () => {
    writeStatuteFile(dir, '消费者权益示范法', CONSUMER);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'consumer' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('knows which words the statutes use (learned from the statute corpus)', () => {
    expect(statuteWordFiles(ctx, '驾驶证')).toBeGreaterThanOrEqual(ctx.config.collections.statuteWordMinFiles);
    expect(statuteWordFiles(ctx, '商标')).toBeGreaterThanOrEqual(ctx.config.collections.statuteWordMinFiles);
    for (const everyday of ['电饭锅', '老板', '肚子']) expect(statuteWordFiles(ctx, everyday), everyday).toBe(0);
  });

  it('does not refuse an everyday thing the statute calls by its kind, and still refuses a matter regulated elsewhere', () => {
    const coll = requireCollection(ctx.db, 'consumer');
    const doc = String((ctx.db.prepare('SELECT id FROM coll_docs WHERE collection_id = ?').get(coll.id) as { id: number }).id);
    const verdict = (core: string, state: 'locked' | 'ambiguous' | 'low_evidence') => subjectVerdict(ctx, coll, { recipes: false, core, state, rule: 'focus', candidates: [doc], lay: [] });
    // 电饭锅: no statute uses the word; the retrieval was unsure, so the unsure answer stands
    expect(verdict('新买的电饭锅用了三天就坏了', 'low_evidence')).toBeNull();
    expect(verdict('新买的电饭锅用了三天就坏了', 'ambiguous')).toBeNull();
    // 衣服: statutes use the word (a ship-safety rule, a detention-house rule) but none is about it: an
    // everyday thing too (statute-topics.tsv), the unsure answer stands
    expect(verdict('买的衣服洗了一次就褪色', 'ambiguous')).toBeNull();
    expect(verdict('买的衣服洗了一次就褪色', 'locked')?.subject).toBe('衣服');
    // a lock on a statute mentioning none of the nouns is still overruled
    expect(verdict('新买的电饭锅用了三天就坏了', 'locked')?.subject).toBe('电饭锅');
    // 驾驶证 is a statute word this collection never uses: another matter, whatever the retrieval decided
    for (const state of ['low_evidence', 'ambiguous', 'locked'] as const) expect(verdict('驾驶证被扣分', state)?.subject, state).toBe('驾驶证');
    // the answer names the noun phrase as written, not the segmenter's pieces (燃气管 + 道, 电动 + 自行车)
    expect(verdict('燃气管道上方可以种树', 'locked')?.subject).toBe('燃气管道');
    // (the matter statutes of the corpus are about: 电动自行车 has regulations of its own, 牌照 is only mentioned)
    expect(verdict('电动自行车要不要上牌照', 'ambiguous')?.subject).toBe('电动自行车');
    // named in the statute's own words: held, no verdict
    expect(verdict('网上买的商品能退货', 'locked')).toBeNull();
  });
});

const LABOUR = [
  '为了保护劳动者的合法权益，制定本法。',
  '劳动合同期限三个月以上不满一年的，试用期不得超过一个月；劳动合同期限三年以上的，试用期不得超过六个月。',
  '用人单位安排劳动者延长工作时间的，应当支付加班费。',
  '劳动者在试用期的工资不得低于本单位相同岗位最低档工资的百分之八十。',
];

describe('a session locked on a statute, asked about a thing the collection never mentions', () => {
  const ctx = tempContext();
  const dir = tempDir();
  const ask = (question: string, session_id?: string) => invokeOperation(ctx, 'collections.ask', { collection: 'labour', question, session_id });
  beforeAll(async () => {
    writeStatuteFile(dir, '劳动示范法', LABOUR);
    writeStatuteFile(dir, '安全示范条例', ['为了加强安全生产工作，制定本条例。', '生产经营单位应当对从业人员进行安全生产教育和培训。', '发生生产安全事故的，应当立即报告。']);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'labour' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('does not answer the new matter from the locked statute, and still follows up on its own matters', async () => {
    const first = await ask('劳动合同的试用期不得超过多久');
    expect(first.lock.state).toBe('locked');
    const drunk = await ask('那醉驾会被判几年', first.session_id);
    expect(drunk.kind).not.toBe('follow_up');
    expect(drunk.state).not.toBe('locked');
    const wage = await ask('那试用期的工资呢', first.session_id);
    expect(wage.lock.title).toBe('劳动示范法');
    expect(['follow_up', 'answer']).toContain(wage.kind);
  });
});
