import { describe, expect, it } from 'vitest';
import { parseArticleRefs, titleMatchesLaw } from '../../../src/core/regulations/article-ref';
import { queryTargetsRows, unitShape } from '../../../src/core/regulations/rank';

describe('article references in queries', () => {
  it('parses law + article, 之一, 款 and Arabic numbers', () => {
    expect(parseArticleRefs('电力设施保护条例第十条')).toEqual([{ law: '电力设施保护条例', label: '第十条', paragraph: null, text: '电力设施保护条例第十条' }]);
    expect(parseArticleRefs('《中华人民共和国电力法》第 59 条规定了什么')[0]).toMatchObject({ law: '电力法', label: '第五十九条' });
    expect(parseArticleRefs('第十条之一 换相失败')[0]).toMatchObject({ law: null, label: '第十条之一' });
    expect(parseArticleRefs('民法典第一千零七十九条第二款')[0]).toMatchObject({ law: '民法典', label: '第一千零七十九条', paragraph: 2 });
    expect(parseArticleRefs('本规定第三条')[0].law).toBeNull();
    expect(parseArticleRefs('母线失压怎么处理')).toEqual([]);
  });

  it('matches law names against titles, including parts of a code', () => {
    expect(titleMatchesLaw('中华人民共和国电力法', '电力法')).toBe(true);
    expect(titleMatchesLaw('中华人民共和国民法典 · 合同编', '民法典')).toBe(true);
    expect(titleMatchesLaw('电力设施保护条例实施细则', '电力设施保护条例')).toBe(true);
    expect(titleMatchesLaw('电力监管条例', '条例')).toBe(false);
    expect(titleMatchesLaw('电网调度管理条例', '电力法')).toBe(false);
  });
});

describe('unit shapes', () => {
  it('tells provisions from table and ledger rows', () => {
    expect(unitShape('article', '第三十二条 母线失压时，按照下列原则处理')).toBe('provision');
    expect(unitShape('paragraph', '2023-06-03 花园电厂 母线 失压 正确不动作 —')).toBe('row');
    expect(unitShape('paragraph', '| 断面 | 月份 | 限额(MW) |\n| 天中直流送端断面 | 6月 | 7650 |')).toBe('row');
    expect(unitShape('paragraph', 'B.1 稳定限额计算采用年度运行方式数据，负荷模型采用 40% 恒阻抗。')).toBe('provision');
  });

  it('knows when a query asks for rows', () => {
    expect(queryTargetsRows('2023年6月母线失压')).toBe(true);
    expect(queryTargetsRows('天中直流安控动作记录')).toBe(true);
    expect(queryTargetsRows('500kV 断面 3000MW')).toBe(true);
    expect(queryTargetsRows('母线失压怎么处理')).toBe(false);
  });
});

describe('snippets', () => {
  it('join Chinese split by line breaks, keep spaces around Latin words and numbers', async () => {
    const { joinCjkSpaces, makeSnippet } = await import('../../../src/core/search/snippet');
    expect(joinCjkSpaces('经值班调度 员同意； （二）母线')).toBe('经值班调度员同意；（二）母线');
    expect(joinCjkSpaces('不大于 20 毫秒，500 kV 母线')).toBe('不大于 20 毫秒，500 kV 母线');
    const s = makeSnippet('经值班调度\n员同意方可恢复', ['调度员']);
    expect(s.snippet).toBe('经值班调度员同意方可恢复');
    expect(s.snippet.slice(...s.highlights[0])).toBe('调度员');
  });
});
