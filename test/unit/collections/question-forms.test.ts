import { describe, expect, it } from 'vitest';
import raw from '../../../src/core/collections/data/question-forms.json' with { type: 'json' };
import { compileQuestionForms } from '../../../src/core/collections/question-forms';
import { formBonus, questionForm } from '../../../src/core/collections/article-score';

describe('question forms are data (collections/data/question-forms.json)', () => {
  it('the shipped file compiles; a question is read for its form and unit', () => {
    expect(questionForm('加班最多几个小时')).toMatchObject({ quantity: true, unit: '小时' });
    expect(questionForm('经济补偿怎么算')).toMatchObject({ computation: true });
    expect(questionForm('由谁批准')).toMatchObject({ agent: true });
    expect(questionForm('红烧肉好吃吗')).toMatchObject({ quantity: false, computation: false, list: false, agent: false, unit: null });
    // the unit asked decides which stated quantity answers: 四小时 answers 几个小时, 十五日 does not
    const form = questionForm('每天加班不得超过几个小时');
    expect(formBonus(form, '每日不得超过三小时。', 1, true)).toBeGreaterThan(formBonus(form, '应当提前十五日通知。', 1, true));
  });

  it('a broken entry stops with a Chinese message naming the field, never a silent empty rule', () => {
    const broken = structuredClone(raw) as { units: { asked: string }[]; asks: Record<string, unknown> };
    broken.units[1].asked = '(?:几|多少';
    expect(() => compileQuestionForms(broken)).toThrow(/question-forms\.json 无效 — units\.1\.asked: 不是有效的正则表达式/);
    const missing = structuredClone(raw) as { asks: Record<string, unknown> };
    delete missing.asks.agent;
    expect(() => compileQuestionForms(missing)).toThrow(/无效 — asks\.agent/);
  });
});
