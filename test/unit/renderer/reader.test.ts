import { describe, expect, it } from 'vitest';
import { activeEntry, pageProblem } from '../../../src/renderer/src/components/reader-logic';
import { splitBlocks } from '../../../src/renderer/src/components/PageText';

const e = (id: number, title: string, page_num: number, parent_id: number | null = null) => ({ id, title, page_num, parent_id, level: parent_id ? 2 : 1 }) as never;

describe('reader logic', () => {
  const toc = [e(1, '第一章 总则', 1), e(2, '第二章', 2), e(3, '第三章', 2), e(4, '第四章', 3), e(5, '第五章', 3), e(6, '第六章', 3), e(7, '第七章', 5)];

  it('highlights the section the reader jumped to, even when several start on its page', () => {
    expect(activeEntry(toc, 3, 5)?.title).toBe('第五章');
    expect(activeEntry(toc, 3, 6)?.title).toBe('第六章');
    // flipping to the page: the first section starting on it
    expect(activeEntry(toc, 3)?.title).toBe('第四章');
    // a jump to another page no longer applies once the page changed
    expect(activeEntry(toc, 4, 5)?.title).toBe('第六章');
    expect(activeEntry(toc, 6)?.title).toBe('第七章');
  });

  it('refuses page numbers outside the regulation, saying why', () => {
    expect(pageProblem('-3', 37)).toMatch(/从 1 开始/);
    expect(pageProblem('999', 37)).toBe('本规程共 37 页，没有第 999 页');
    expect(pageProblem('abc', 37)).toMatch(/只能是数字/);
    expect(pageProblem('', 37)).toMatch(/请输入页码/);
    expect(pageProblem('12', 37)).toBeNull();
  });

  it('keeps Markdown tables, quotes and lists together as GFM blocks', () => {
    const blocks = splitBlocks('第一条 总则\n\n| 序号 | 厂站 |\n| --- | --- |\n| 1 | 天山 |\n\n> 演示材料\n\n- 一项\n- 二项\n  续行\n\n第二条 其他', true);
    expect(blocks.map((b) => b.kind)).toEqual(['article', 'markdown', 'markdown', 'markdown', 'article']);
    expect(blocks[1].text).toBe('| 序号 | 厂站 |\n| --- | --- |\n| 1 | 天山 |');
    expect(blocks[3].text).toBe('- 一项\n- 二项\n  续行');
    // plain text sources keep clause numbering as clauses, not lists
    expect(splitBlocks('1. 一项内容', false)[0].kind).toBe('para');
  });
});
