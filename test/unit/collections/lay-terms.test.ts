import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { contractions, definitions, layExpansion, namedGroups, setLayVocabulary, withLayEquivalents } from '../../../src/core/collections/lay-terms';
import { learnLayVocabulary } from '../../../src/core/collections/lay-vocabulary';
import { collectionTerms } from '../../../src/core/collections/subject';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir, writeStatuteFile } from '../../helpers';

/**
 * Learned everyday vocabulary (collections/lay-vocabulary.ts, lay-terms.ts) on a real SQLite file
 * and jieba: rows learned from (question, article) pairs, kept per collection only where its text
 * holds the statute word; contractions read from the collection's own text.
 */

function writeStatutes(dir: string): void {
  const articles = [
    '用人单位应当依法为劳动者缴纳社会保险费。',
    '用人单位未依法缴纳社会保险费的，由社会保险费征收机构责令限期缴纳。',
    '职工连续工作满一年的，享受带薪年休假。',
    '职工累计工作已满一年不满十年的，年休假五天。',
    '用人单位解除劳动合同，应当提前三十日以书面形式通知劳动者本人。',
    '劳动者在试用期间被证明不符合录用条件的，用人单位可以解除劳动合同。',
    '供电企业因故需要停止供电时，应当提前通知用户。',
    '用户逾期未交付电费的，供电企业可以依法停止供电。',
    '国家建立基本养老保险、基本医疗保险、工伤保险等社会保险制度。',
    '劳动者依法享受社会保险待遇。',
    '中华人民共和国境内的企业、个体经济组织、民办非企业单位等组织（以下称用人单位）与劳动者订立劳动合同，适用本法。',
  ];
  writeStatuteFile(dir, '劳动示范法', articles);
}

describe('lay terms: everyday words learned, not written', () => {
  const ctx = tempContext();
  beforeAll(async () => {
    const dir = tempDir();
    writeStatutes(dir);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'labour' });
  });
  afterAll(() => ctx.cleanup());

  it('learns an everyday word from questions whose answering articles use another word', () => {
    const pairs = [
      { question: '员工被辞退能拿补偿吗', texts: ['用人单位解除劳动合同的，应当向劳动者支付经济补偿。'] },
      { question: '公司辞退员工要提前通知吗', texts: ['用人单位解除劳动合同，应当提前三十日通知劳动者本人。'] },
      { question: '试用期员工可以随便辞退吗', texts: ['劳动者在试用期间被证明不符合录用条件的，用人单位可以解除劳动合同。'] },
      { question: '员工生病期间能辞退吗', texts: ['劳动者患病在规定的医疗期内的，用人单位不得解除劳动合同。'] },
      { question: '借钱不还怎么办', texts: ['借款人应当按照约定的期限返还借款。'] },
      // other matters: the background that makes 解除 specific to 辞退 questions
      { question: '房东不退押金怎么办', texts: ['租赁期限届满，承租人应当返还租赁物，出租人应当返还押金。'] },
      { question: '邻居家漏水淹了我家谁负责', texts: ['不动产权利人应当为相邻权利人用水、排水提供必要的便利。'] },
      { question: '网购的东西有质量问题能退吗', texts: ['经营者提供的商品不符合质量要求的，消费者可以要求退货。'] },
      { question: '开车撞了人要负什么责任', texts: ['机动车发生交通事故造成损害的，依照道路交通安全法承担赔偿责任。'] },
      { question: '离婚时房子怎么分', texts: ['离婚时，夫妻的共同财产由双方协议处理。'] },
      { question: '商标被别人抢注了怎么办', texts: ['申请注册商标不得损害他人现有的在先权利。'] },
    ];
    const table = learnLayVocabulary(pairs, { minCo: 3, minPmi: 0.5 });
    expect(table['辞退']?.map(([v]) => v)).toEqual(expect.arrayContaining(['劳动合同']));
    expect(table['员工']?.map(([v]) => v)).toEqual(expect.arrayContaining(['劳动者']));
    // question words (怎么办) and words of time or place (期间) never are everyday words for a statute's
    expect(table['怎么办']).toBeUndefined();
    expect(table['期间']).toBeUndefined();
    // seen fewer than minCo times: nothing learned
    expect(table['借钱']).toBeUndefined();
  });

  it('keeps a learned row only where the collection holds the statute word', () => {
    const coll = requireCollection(ctx.db, 'labour');
    setLayVocabulary(ctx, { 员工: [['劳动者', 2], ['用人单位', 1.5]], 孩子: [['侵权', 2], ['损害', 1]] });
    try {
      const lay = layExpansion(ctx, coll, '员工生病了公司能不能辞退');
      expect(lay.equivalents).toContainEqual([['员工'], ['劳动者', '用人单位']]);
      expect(withLayEquivalents(new Set(['劳动者', '解除']), lay.equivalents).has('员工')).toBe(true);
      expect(withLayEquivalents(new Set(['电费']), lay.equivalents).has('员工')).toBe(false);
      // 侵权 is not in this collection: the weaker 损害 does not stand in for it either
      expect(layExpansion(ctx, coll, '孩子发烧了怎么办')).toEqual({ extra: [], equivalents: [] });
    } finally {
      setLayVocabulary(ctx, null);
    }
  });

  it('reads contractions from the collection text: 社保, 年假 (jieba splits it), 停电', () => {
    const coll = requireCollection(ctx.db, 'labour');
    setLayVocabulary(ctx, {});
    try {
      expect(layExpansion(ctx, coll, '公司不给交社保怎么办').extra).toContain('社会保险');
      expect(layExpansion(ctx, coll, '工作满十年每年有几天年假').extra).toContain('年休假');
      const terms = collectionTerms(ctx, coll);
      expect(contractions(terms, '停电')).toEqual(['停止供电']);
      // a word the collection uses itself, or nothing it contracts, gets nothing
      expect(contractions(terms, '火锅')).toEqual([]);
      expect(layExpansion(ctx, coll, '用人单位解除劳动合同要提前几天').equivalents).toEqual([]);
    } finally {
      setLayVocabulary(ctx, null);
    }
  });

  it('reads the collection\'s definitions as pairs: the defined term stands for its genus', () => {
    const defs = definitions(
      '本条例所称工资，是指农民工为用人单位提供劳动后应当获得的劳动报酬。本条所称月工资是指劳动者在劳动合同解除或者终止前十二个月的平均工资。' +
        '本法所称电价，是指电力生产企业的上网电价、电网间的互供电价、电网销售电价。本法所称劳动者是指依法工作的人。',
    );
    expect(defs.get('工资')).toEqual(['劳动报酬']);
    expect(defs.get('月工资')).toEqual(['平均工资']);
    // a list after the last 的 is no genus; a definition without 的 neither
    expect(defs.has('电价')).toBe(false);
    expect(defs.has('劳动者')).toBe(false);
  });

  it('reads the groups the collection names for short: each member stands for the short name', () => {
    // the first article of 工伤保险条例 and 电力供应与使用条例's (parentheses either width)
    const named = namedGroups(
      '中华人民共和国境内的企业、事业单位、社会团体、民办非企业单位、基金会、律师事务所、会计师事务所等组织和有雇工的个体工商户(以下称用人单位)应当参加工伤保险。' +
        '电力供应企业（以下称供电企业）和电力使用者（以下称用户）应当遵守本条例。根据电力安全事故（以下简称事故）的影响程度分级。',
    );
    expect(named).toEqual(
      expect.arrayContaining([['企业', '用人单位'], ['事业单位', '用人单位'], ['会计师事务所', '用人单位'], ['个体工商户', '用人单位'], ['电力使用者', '用户'], ['电力供应企业', '供电企业']]),
    );
    // a name inside its long form is a contraction, not a member (事故 of 电力安全事故)
    expect(named.some(([t]) => t === '电力安全事故')).toBe(false);
    expect(definitions('境内的企业、个体经济组织等组织（以下称用人单位）招用劳动者。').get('企业')).toEqual(['用人单位']);
    // in a collection: a question saying 企业 is searched with 用人单位, which the collection says throughout
    const coll = requireCollection(ctx.db, 'labour');
    setLayVocabulary(ctx, {});
    try {
      const lay = layExpansion(ctx, coll, '企业能不能随便解除劳动合同');
      expect(lay.extra).toContain('用人单位');
      expect(withLayEquivalents(new Set(['用人单位', '解除']), lay.equivalents).has('企业')).toBe(true);
    } finally {
      setLayVocabulary(ctx, null);
    }
  });
});
