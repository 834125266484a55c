import { describe, expect, it } from 'vitest';
import { articleScore, formBonus, questionForm } from '../../../src/core/collections/article-score';

describe('article score: what the form of a question asks for', () => {
  it('recognises quantity, list and permission questions', () => {
    expect(questionForm('电费欠了多久供电公司可以停电')).toMatchObject({ quantity: true });
    expect(questionForm('10千伏的高压线保护区是两边各多少米').quantity).toBe(true);
    expect(questionForm('窃电行为具体包括哪些')).toMatchObject({ list: true, quantity: false });
    expect(questionForm('在高压线下面放风筝违法吗').permission).toBe(true);
    expect(questionForm('能在高压线附近种树吗').permission).toBe(true);
    expect(questionForm('电价是指什么')).toEqual({ quantity: false, list: false, permission: false });
  });

  it('gives the bonus only to an article that has what is asked', () => {
    const q = questionForm('计划检修停电要提前几天通知');
    expect(formBonus(q, '因供电设施计划检修需要停电时，供电企业应当提前7天通知用户', 0.1)).toBe(0.1);
    expect(formBonus(q, '供电企业应当按照国家有关规定实行分类电价', 0.1)).toBe(0);
    const list = questionForm('用户不得有哪些行为');
    // a list question about a prohibition: an article that enumerates rules gets both cues
    expect(formBonus(list, '用户不得有下列危害供电、用电安全的行为：（一）擅自改变用电类别', 0.1)).toBeCloseTo(0.2);
  });

  it('weights evidence against the fused rank', () => {
    // an article holding all the question's terms beats one ranked first for repeating a single word
    expect(articleScore(1, 0.5, 0, 0.6)).toBeGreaterThan(articleScore(0.5, 1, 0, 0.6));
    expect(articleScore(0.5, 1, 0.1, 0.6)).toBeCloseTo(0.3 + 0.4 + 0.1);
  });
});
