import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';

const demo = path.resolve(__dirname, '../../../resources/recipes');

function recipe(title: string, ingredient: string, sauce: string): string {
  return [`# ${title}的做法`, '', `${title}是一道家常下饭菜，${ingredient}滑嫩。`, '', '## 必备原料和工具', '', `- ${ingredient}`, `- ${sauce}`, '- 生抽', '', '## 操作', '', `- ${ingredient}切丝上浆`, `- 热锅下${sauce}炒香，放${ingredient}翻炒 2 分钟`, ''].join('\n');
}

// a dish named by a modifier the segmenter does not know (京酱, tag x) before a head word the
// collection's titles hold (肉丝): real SQLite, FTS5 and jieba over the demo recipes plus three 肉丝 dishes
describe('a name whose modifier no recipe writes is another dish, however heavy the shared head', () => {
  const ctx = tempContext();
  const ask = (question: string, session_id?: string) => invokeOperation(ctx, 'collections.ask', { collection: 'shreds', question, session_id });
  beforeAll(async () => {
    const dir = tempDir();
    fs.cpSync(demo, dir, { recursive: true });
    for (const [t, i, s] of [
      ['鱼香肉丝', '猪里脊', '泡椒'],
      ['香干肉丝', '香干', '干辣椒'],
      ['青椒肉丝', '青椒', '蒜末'],
      ['红烧猪蹄', '猪蹄', '冰糖'],
      ['照烧鸡腿', '鸡腿', '照烧汁'],
      ['香煎五花肉', '五花肉', '黑胡椒'],
      ['香煎带鱼', '带鱼', '料酒'],
      ['烤茄子', '茄子', '蒜蓉'],
      ['香辣鸡爪煲', '鸡爪', '干辣椒'],
      ['麻辣香锅', '藕片', '花椒'],
      ['麻辣拌面', '面条', '花椒'],
      ['尖椒炒牛肉', '牛肉', '尖椒'],
      ['番茄红酱', '番茄', '洋葱'],
      ['烤鸡翅', '鸡翅', '孜然'],
      // 麻辣 in many recipes' text: a taste, no dish word of its own (as in HowToCook)
      ...['拍黄瓜', '炝炒包菜', '干锅花菜', '酸辣粉', '口水鸡', '毛血旺', '麻婆豆腐', '辣子鸡', '水煮肉片', '夫妻肺片', '冷吃兔', '钵钵鸡'].map((t) => [t, '主料', '麻辣酱']),
    ])
      fs.writeFileSync(path.join(dir, `${t}.md`), recipe(t, i, s));
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'shreds' });
  });
  afterAll(() => ctx.cleanup());

  it('京酱肉丝 is not in the collection (not a lock on 鱼香肉丝), and is named whole', async () => {
    const a = await ask('京酱肉丝的酱怎么调');
    expect(a).toMatchObject({ state: 'not_found', subject: '京酱肉丝' });
    expect(a.answer!.split('\n')[0]).toBe('文集中没有「京酱肉丝」的菜谱。');
    expect(a.lock.state).not.toBe('locked');
  });

  it('a switch to it inside a session is a new question, not a follow-up of the locked 肉丝 dish', async () => {
    const first = await ask('鱼香肉丝怎么做');
    expect(first.lock.title).toBe('鱼香肉丝');
    const next = await ask('换个问题，京酱肉丝怎么做', first.session_id);
    expect(next.state).toBe('not_found');
    expect(next.kind).not.toBe('follow_up');
  });

  it('the question’s own made-up words before a dish it holds are no modifier (炒个 = 炒 + 个)', async () => {
    const a = await ask('中午炒个鱼香肉丝');
    expect(a.decision).toBe('locked');
    expect(a.lock.title).toBe('鱼香肉丝');
    const b = await ask('青椒肉丝怎么做');
    expect(b.lock.title).toBe('青椒肉丝');
  });

  it('a modifier the recipe only uses as an ingredient is not its dish: 蒜蓉茄子 is not 烤茄子 (whose text says 蒜蓉)', async () => {
    const a = await ask('蒜蓉茄子怎么蒸');
    expect(a).toMatchObject({ state: 'not_found', subject: '蒜蓉茄子' });
    expect(a.answer!.split('\n')[0]).toBe('文集中没有「蒜蓉茄子」的菜谱。');
    expect((await ask('烤茄子怎么做')).lock.title).toBe('烤茄子');
  });

  it('a word two titles begin with names a family of dishes: 麻辣鸡爪 is not 香辣鸡爪煲', async () => {
    const a = await ask('麻辣鸡爪怎么做');
    expect(a).toMatchObject({ state: 'not_found', subject: '麻辣鸡爪' });
    expect((await ask('香辣鸡爪煲怎么做')).lock.title).toBe('香辣鸡爪煲');
  });

  it('a one-character noun before the head is a modifier too: 卤猪蹄 is not 红烧猪蹄', async () => {
    const a = await ask('卤猪蹄怎么做才软烂');
    expect(a).toMatchObject({ state: 'not_found', subject: '卤猪蹄' });
    expect((await ask('红烧猪蹄怎么做')).lock.title).toBe('红烧猪蹄');
  });

  it('two characters the segmenter split that two titles write together are one name word: 香煎鸡腿 is not 照烧鸡腿', async () => {
    const a = await ask('香煎鸡腿怎么煎');
    expect(a).toMatchObject({ state: 'not_found', subject: '香煎鸡腿' });
    expect((await ask('香煎五花肉怎么做')).lock.title).toBe('香煎五花肉');
    expect((await ask('照烧鸡腿怎么做')).lock.title).toBe('照烧鸡腿');
  });

  it('a one-character noun right after the dish words is the head of the name: 干锅鸡 is not 干锅花菜', async () => {
    const a = await ask('干锅鸡怎么做');
    expect(a).toMatchObject({ state: 'not_found', subject: '干锅鸡' });
    expect(a.lock.state).not.toBe('locked');
    expect((await ask('干锅花菜怎么做')).lock.title).toBe('干锅花菜');
  });

  it('a name the segmenter split into a one-character noun and a made-up word is one name: 椒麻鸡 (椒 / 麻鸡)', async () => {
    const a = await ask('椒麻鸡怎么做');
    expect(a).toMatchObject({ state: 'not_found', subject: '椒麻鸡' });
    expect(a.answer!.split('\n')[0]).toBe('文集中没有「椒麻鸡」的菜谱。');
  });

  it('a status word no recipe writes is part of the name, and a last one-character noun its head (葱爆牛肉, 酸辣鸡杂, 番茄鱼)', async () => {
    for (const [q, name] of [
      ['葱爆牛肉怎么炒', '葱爆牛肉'],
      ['酸辣鸡杂怎么炒', '酸辣鸡杂'],
      ['番茄鱼怎么做', '番茄鱼'],
      // 烤 begins two titles (烤茄子, 烤鸡翅): a method of the name, which 香煎五花肉 lacks
      ['烤五花肉怎么烤', '烤五花肉'],
    ]) {
      const a = await ask(q);
      expect(a, q).toMatchObject({ state: 'not_found', subject: name });
    }
    expect((await ask('酸辣粉怎么做')).lock.title).toBe('酸辣粉');
  });

  it('inside a session, 那葱爆牛肉呢 after 尖椒炒牛肉 is a new question about an absent dish, not a follow-up', async () => {
    const first = await ask('尖椒炒牛肉怎么做');
    expect(first.lock.title).toBe('尖椒炒牛肉');
    const next = await ask('那葱爆牛肉呢', first.session_id);
    expect(next.kind).not.toBe('follow_up');
    expect(next).toMatchObject({ state: 'not_found', subject: '葱爆牛肉' });
  });
});

// names the segmenter cuts into single characters (意 + 面) or follows with the question's own verb (豆豉蒸鱼 +
// 要蒸几分钟), with no dish word of the collection: real SQLite, FTS5 and jieba over the demo recipes plus these
describe('a name of content words only: single-character nouns the collection writes together, a trailing verb', () => {
  const ctx = tempContext();
  const ask = (question: string) => invokeOperation(ctx, 'collections.ask', { collection: 'noodles', question });
  beforeAll(async () => {
    const dir = tempDir();
    fs.cpSync(demo, dir, { recursive: true });
    for (const [t, i, s] of [
      ['意式肉酱面', '意面', '番茄'],
      ['半成品意面', '意面', '黄油'],
      ['番茄红酱', '番茄', '洋葱'],
      ['清蒸鲈鱼', '鲈鱼', '豆豉'],
      ['豉汁排骨', '排骨', '豆豉'],
      ['红烧鱼', '草鱼', '豆瓣酱'],
      ['菌菇炖乳鸽', '乳鸽', '鸡汤'],
      // 番茄 in many recipes' text: an ingredient, no dish word of its own (as in HowToCook)
      ...['罗宋汤', '西红柿牛腩', '茄汁大虾', '番茄炒蛋盖饭', '蔬菜沙拉', '牛肉汉堡', '肉酱披萨'].map((t) => [t, '主料', '番茄']),
    ])
      fs.writeFileSync(path.join(dir, `${t}.md`), recipe(t, i, s));
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'noodles' });
  });
  afterAll(() => ctx.cleanup());

  it('番茄意面 (番茄 + 意 + 面) is not 意式肉酱面, and is named whole', async () => {
    const a = await ask('番茄意面怎么煮');
    expect(a).toMatchObject({ state: 'not_found', subject: '番茄意面' });
    expect(a.lock.state).not.toBe('locked');
  });

  it('豆豉蒸鱼要蒸几分钟 names 豆豉蒸鱼, not 清蒸鲈鱼', async () => {
    const a = await ask('豆豉蒸鱼要蒸几分钟');
    expect(a).toMatchObject({ state: 'not_found', subject: '豆豉蒸鱼' });
  });

  it('a name read from a word the collection never writes goes on over the noun after it: 「老母鸡汤」, not 「老母」', async () => {
    expect(await ask('老母鸡汤怎么炖才香')).toMatchObject({ state: 'not_found', subject: '老母鸡汤' });
  });

  it('the dishes it holds still lock', async () => {
    expect((await ask('意式肉酱面怎么做')).lock.title).toBe('意式肉酱面');
    // a name the collection holds, followed by the question's verb, is no absent dish
    expect((await ask('清蒸鲈鱼要蒸几分钟')).state).not.toBe('not_found');
  });
});
