import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { docsOf, getDoc, requireCollection, type StoredDoc } from '../../../src/core/collections/store';
import { answerInDocument } from '../../../src/core/collections/sections';
import { tempContext, tempDir } from '../../helpers';

/**
 * Questions asking an aspect (penalty, definition) about a subject of their own are answered by the
 * article about that subject, the aspect only a bonus: `什么是保理合同` is answered by the article
 * saying what a 保理合同 is even though it says neither 是指 nor 所称, and `能否追究饲养人的责任` in
 * a code without a penalty chapter quotes the liability article instead of "no penalty articles".
 * A question naming the penalty itself (`要罚多少钱`) and a bare `罚则呢` still take the penalty
 * chapter. Real SQLite, jieba and the collection import.
 */

const CODE = [
  '# 中华人民共和国示范合同法',
  '',
  '## 第一章 一般规定',
  '',
  '第一条 为了规范合同行为，保护当事人的合法权益，制定本法。',
  '',
  '第二条 本法所称当事人，是指订立合同的自然人、法人和非法人组织。',
  '',
  '第三条 保理合同是应收账款债权人将现有的或者将有的应收账款转让给保理人，保理人提供资金融通、应收账款管理或者催收等服务的合同。',
  '',
  '第四条 保理人向应收账款债务人发出应收账款转让通知的，应当表明保理人身份并附有必要凭证。',
  '',
  '第五条 饲养的动物造成他人损害的，动物饲养人或者管理人应当承担侵权责任。',
  '',
  '第六条 当事人应当按照约定全面履行自己的义务。',
  '',
  '## 第二章 仓储',
  '',
  '第七条 存货人交付危险物品的，应当说明该物品的性质，提供有关资料。',
  '',
  '第八条 仓储物在储存期内毁损的，保管人应当赔偿损失。',
  '',
  '## 第三章 法律责任',
  '',
  '第九条 违反本法第七条隐瞒危险物品交付仓储的，处五千元以上二万元以下罚款。',
  '',
  '第十条 保管人擅自出借仓储物的，责令改正，处一万元以下罚款。',
].join('\n');

const CIVIL_PART = [
  '# 中华人民共和国示范民事法',
  '',
  '## 第一章 侵权责任',
  '',
  '第一条 行为人因过错侵害他人民事权益造成损害的，应当承担侵权责任。',
  '',
  '第二条 饲养的动物造成他人损害的，动物饲养人或者管理人应当承担侵权责任；能够证明损害是因被侵权人故意造成的，可以减轻责任。',
  '',
  '第三条 建筑物上的搁置物坠落造成他人损害的，所有人不能证明自己没有过错的，应当承担侵权责任。',
].join('\n');

describe('aspect questions with a subject of their own', () => {
  let ctx: ReturnType<typeof tempContext>;
  let dir: string;
  const docs = new Map<string, StoredDoc>();
  beforeAll(async () => {
    ctx = tempContext();
    dir = tempDir();
    fs.writeFileSync(path.join(dir, '示范合同法.md'), CODE);
    fs.writeFileSync(path.join(dir, '示范民事法.md'), CIVIL_PART);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'laws' });
    const coll = requireCollection(ctx.db, 'laws');
    for (const d of docsOf(ctx.db, coll.id)) docs.set(d.title, getDoc(ctx.db, d.id)!);
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const ask = (title: string, question: string, context?: string) =>
    answerInDocument(ctx, requireCollection(ctx.db, 'laws'), docs.get(title)!, question, { context });

  it('什么是保理合同 quotes the article saying what it is, not a 是指 article about something else', async () => {
    const a = await ask('中华人民共和国示范合同法', '什么是保理合同？');
    expect(a.intent).toBe('definition');
    expect(a.best?.label).toBe('第三条');
  });

  it('追究责任 in a code without a penalty chapter quotes the liability article', async () => {
    const a = await ask('中华人民共和国示范民事法', '被狗咬伤了，能否追究饲养人的责任？');
    expect(a.found).toBe(true);
    expect(a.best?.label).toBe('第二条');
  });

  it('a question naming the penalty itself takes the penalty chapter', async () => {
    const a = await ask('中华人民共和国示范合同法', '隐瞒危险物品交付仓储要罚多少钱？');
    expect(a.intent).toBe('penalty');
    expect(a.best?.label).toBe('第九条');
    expect(a.best?.path).toContain('法律责任');
  });

  it('a bare 罚则呢 follows the previous question into the penalty chapter', async () => {
    const a = await ask('中华人民共和国示范合同法', '罚则呢', '保管人可以出借仓储物吗');
    expect(a.intent).toBe('penalty');
    expect(a.best?.label).toBe('第十条');
  });
});
