import { describe, expect, it } from 'vitest';
import { articleScore, formBonus, otherNumberForm, questionForm } from '../../../src/core/collections/article-score';
import { namedQuantity } from '../../../src/core/collections/sections';

describe('article score: what the form of a question asks for', () => {
  it('recognises quantity, list and permission questions', () => {
    expect(questionForm('电费欠了多久供电公司可以停电')).toMatchObject({ quantity: true });
    expect(questionForm('10千伏的高压线保护区是两边各多少米').quantity).toBe(true);
    expect(questionForm('窃电行为具体包括哪些')).toMatchObject({ list: true, quantity: false });
    expect(questionForm('在高压线下面放风筝违法吗').permission).toBe(true);
    expect(questionForm('能在高压线附近种树吗').permission).toBe(true);
    expect(questionForm('电价是指什么')).toEqual({ quantity: false, computation: false, unit: null, list: false, permission: false, agent: false });
    // how something is computed asks for the rule with the numbers
    expect(questionForm('经济补偿金是怎么算的').computation).toBe(true);
    expect(questionForm('试用期的工资最少能拿原工资的几成')).toMatchObject({ computation: true, unit: '%' });
    expect(questionForm('劳动能力鉴定向哪里申请').agent).toBe(true);
    expect(questionForm('最低工资标准由谁来定').agent).toBe(true);
  });

  it('choosing the article to quote: a quantity asked in a unit wants a number in that unit', () => {
    const hours = questionForm('非全日制用工每天最多干几个小时');
    expect(hours.unit).toBe('小时');
    expect(formBonus(hours, '劳动者在同一用人单位一般平均每日工作时间不超过四小时', 0.1, true)).toBe(0.1);
    // a number in days does not answer a question in hours (the coarse cue, choosing the document, takes any number)
    expect(formBonus(hours, '劳动报酬结算支付周期最长不得超过十五日', 0.1, true)).toBe(0);
    expect(formBonus(hours, '劳动报酬结算支付周期最长不得超过十五日', 0.1)).toBe(0.1);
    const pct = questionForm('试用期的工资最少能拿原工资的几成');
    expect(formBonus(pct, '不得低于劳动合同约定工资的百分之八十', 0.1, true)).toBe(0.1);
    const fine = questionForm('偷电被查出来要罚几倍电费');
    expect(formBonus(fine, '追缴电费并处应交电费5倍以下的罚款', 0.1, true)).toBe(0.1);
  });

  it('a question asking who or where wants an article naming the body that acts', () => {
    const who = questionForm('劳动能力鉴定向哪里申请');
    expect(formBonus(who, '劳动能力鉴定由用人单位、工伤职工或者其近亲属向设区的市级劳动能力鉴定委员会提出申请', 0.1, true)).toBe(0.1);
    expect(formBonus(who, '劳动能力鉴定委员会收到申请后，应当从专家库中随机抽取专家', 0.1, true)).toBe(0);
  });

  it('reads a number written either way', () => {
    expect(otherNumberForm('十年')).toBe('10年');
    expect(otherNumberForm('10年')).toBe('十年');
    expect(otherNumberForm('三十日')).toBe('30日');
    expect(otherNumberForm('十五岁')).toBe('15岁');
    expect(otherNumberForm('工作')).toBeNull();
    expect(otherNumberForm('一')).toBeNull();
  });

  it('gives the bonus only to an article that has what is asked', () => {
    const q = questionForm('计划检修停电要提前几天通知');
    expect(formBonus(q, '因供电设施计划检修需要停电时，供电企业应当提前7天通知用户', 0.1)).toBe(0.1);
    expect(formBonus(q, '供电企业应当按照国家有关规定实行分类电价', 0.1)).toBe(0);
    const list = questionForm('用户不得有哪些行为');
    // a list question about a prohibition: an article that enumerates rules gets both cues
    expect(formBonus(list, '用户不得有下列危害供电、用电安全的行为：（一）擅自改变用电类别', 0.1)).toBeCloseTo(0.2);
  });

  it('a question asking who acts favours an article naming the body, also when choosing between documents', () => {
    const who = questionForm('并网双方达不成协议时由谁协调');
    const body = '并网双方达不成协议，影响电网安全运行的，由省级以上电力管理部门协调，并决定应急措施。';
    const none = '并网双方应当按照统一调度、分级管理和平等互利、协商一致的原则签订并网协议。';
    // coarse cues (the choice of the document to lock) and detailed ones (the article to quote)
    expect(formBonus(who, body, 0.1)).toBeCloseTo(0.1);
    expect(formBonus(who, none, 0.1)).toBe(0);
    expect(formBonus(who, body, 0.1, true)).toBeCloseTo(0.1);
    // the detailed unit cue stays out of the choice between documents
    const far = questionForm('铁路线路两侧多远以内不能盖房子');
    expect(formBonus(far, '架空电力线路保护区为导线边线向外侧延伸10米', 0.1)).toBe(0);
    expect(formBonus(far, '架空电力线路保护区为导线边线向外侧延伸10米', 0.1, true)).toBeCloseTo(0.1);
  });

  it('a number in the asked unit next to a word of the question answers it (年休假5天, not 事假累计20天)', () => {
    const near = namedQuantity(questionForm('工作满十年每年有几天年假'), ['工作', '年休假']);
    expect(near).not.toBeNull();
    expect(near!('职工累计工作已满1年不满10年的，年休假5天；已满10年不满20年的，年休假10天')).toBe(true);
    expect(near!('职工有下列情形之一的，不享受当年的年休假：（一）职工请事假累计20天以上且单位按照规定不扣工资的')).toBe(false);
    // a question without a unit asks for no such number
    expect(namedQuantity(questionForm('年休假怎么安排'), ['年休假'])).toBeNull();
  });

  it('weights evidence against the fused rank', () => {
    // an article holding all the question's terms beats one ranked first for repeating a single word
    expect(articleScore(1, 0.5, 0, 0.6)).toBeGreaterThan(articleScore(0.5, 1, 0, 0.6));
    expect(articleScore(0.5, 1, 0.1, 0.6)).toBeCloseTo(0.3 + 0.4 + 0.1);
  });
});
