import { describe, expect, it } from 'vitest';
import { parseFlowText, headingRank, ARTICLE_RE } from '../../../src/core/regulations/structure';
import { lawMarkdown } from './fixtures';

const md = (text: string, pageChars = 1800) => parseFlowText(text, { format: 'markdown', markdown: true, pageChars, fallbackTitle: 'x' });
const txt = (text: string, pageChars = 1800) => parseFlowText(text, { format: 'text', markdown: false, pageChars, fallbackTitle: 'fallback' });

describe('article detection', () => {
  it('labels 第一百零二条 and 第十条之一 and keeps their paragraphs together', () => {
    const doc = txt(['第三章 调度计划', '第十条 调度计划应当按日编制。', '第十条之一 临时计划应当报备。', '（一）说明原因；', '（二）说明影响。', '第一百零二条 本规定自发布之日起施行。'].join('\n'));
    expect(doc.units.map((u) => u.label)).toEqual(['第十条', '第十条之一', '第一百零二条']);
    expect(doc.units[1].text).toContain('（二）说明影响。');
    expect(doc.units[1].section_path).toBe('第三章 调度计划 > 第十条之一');
    expect(doc.units.every((u) => u.kind === 'article')).toBe(true);
  });

  it('does not take running text that merely starts with an article reference as a new article', () => {
    expect(ARTICLE_RE.test('第五条规定的情形')).toBe(false);
    expect(ARTICLE_RE.test('第五条 规定的情形')).toBe(true);
    expect(ARTICLE_RE.test('第二十条之二 内容')).toBe(true);
  });

  it('numbered clauses 5.3.2 become clause units; short numbered lines are headings', () => {
    const doc = txt(['5 运行管理', '5.3 压板', '5.3.2 装置投入运行时，应当先投入功能压板，再投入出口压板。', '后续说明文字。'].join('\n'));
    expect(doc.toc.map((t) => [t.level, t.title])).toEqual([
      [1, '5 运行管理'],
      [2, '5.3 压板'],
    ]);
    expect(doc.units[0]).toMatchObject({ kind: 'clause', label: '5.3.2', section_path: '5 运行管理 > 5.3 压板 > 5.3.2' });
    expect(doc.units[0].text).toContain('后续说明文字');
  });
});

describe('headings and TOC', () => {
  it('recognises # headings, 第X章/节, 一、 and nests them', () => {
    expect(headingRank('## 第一章 总则', true, false)?.title).toBe('第一章 总则');
    expect(headingRank('第二节 例行巡视', false, false)?.title).toBe('第二节 例行巡视');
    expect(headingRank('一、总体要求', false, false)?.title).toBe('一、总体要求');
    expect(headingRank('一、运行人员应当立即汇报。', false, false)).toBeNull();
    expect(headingRank('第一章 总则 ........ 3', false, false)).toBeNull();
    const doc = txt(['第一章 总则', '第一节 目的', '第一条 目的。', '第二节 范围', '第二条 范围。', '第二章 管理', '第三条 管理。'].join('\n'));
    expect(doc.toc.map((t) => `${t.level}:${t.title}`)).toEqual(['1:第一章 总则', '2:第一节 目的', '2:第二节 范围', '1:第二章 管理']);
    expect(doc.units[1].section_path).toBe('第一章 总则 > 第二节 范围 > 第二条');
  });

  it('parses the shared statute layout: title from #, INFO END comment dropped, ## chapters', () => {
    const doc = md(lawMarkdown('中华人民共和国演示法', 3, 4));
    expect(doc.title).toBe('中华人民共和国演示法');
    expect(doc.toc).toHaveLength(3);
    expect(doc.toc[0]).toMatchObject({ level: 1, title: '第一章 第1部分' });
    expect(doc.units.filter((u) => u.kind === 'article')).toHaveLength(12);
    expect(doc.pages.map((p) => p.text).join('\n')).not.toContain('INFO END');
    expect(doc.units.find((u) => u.label === '第十二条')?.section_path).toBe('第三章 第3部分 > 第十二条');
  });

  it('takes a TXT title from a short first line', () => {
    const doc = txt('电网调度规程\n第一章 总则\n第一条 为了规范调度，制定本规程。');
    expect(doc.title).toBe('电网调度规程');
    expect(doc.toc[0].title).toBe('第一章 总则');
  });
});

describe('virtual pages', () => {
  it('stay near the size limit and never split an article', () => {
    const doc = md(lawMarkdown('分页测试', 6, 30), 800);
    expect(doc.pages.length).toBeGreaterThan(10);
    for (const p of doc.pages) expect(p.text.length).toBeLessThanOrEqual(800 + 200);
    // every article's text appears whole on the page the unit says it starts on
    for (const u of doc.units.filter((x) => x.kind === 'article')) {
      const page = doc.pages[u.page_num - 1].text;
      expect(page).toContain(u.text);
    }
    // TOC page numbers point at pages that contain the heading
    for (const t of doc.toc) expect(doc.pages[t.page_num - 1].text).toContain(t.title.split(' ')[0]);
  });

  it('gives an overlong article its own page instead of cutting it (up to the page ceiling, 4 pages)', () => {
    const long = '第一条 ' + '很长的条文内容，'.repeat(200);
    const doc = txt(['第一章 总则', long, '第二条 短条文。'].join('\n'), 500);
    const a1 = doc.units.find((u) => u.label === '第一条')!;
    expect(doc.pages[a1.page_num - 1].text).toContain(a1.text);
    expect(doc.units.find((u) => u.label === '第二条')!.page_num).toBe(a1.page_num + 1);
  });
});

describe('Markdown tables', () => {
  it('repeat their header when a long table is split into several units/pages', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| 站点${i} | 稳控装置A套 | 投入 |`);
    const doc = md(['# 表格', '', '## 附录A 台账', '', '| 厂站 | 装置 | 状态 |', '| --- | --- | --- |', ...rows].join('\n'), 800);
    const tableUnits = doc.units.filter((u) => u.text.includes('站点'));
    expect(tableUnits.length).toBeGreaterThan(1);
    for (const u of tableUnits) expect(u.text.startsWith('| 厂站 | 装置 | 状态 |')).toBe(true);
    for (const p of doc.pages.filter((pg) => pg.text.includes('站点'))) expect(p.text).toMatch(/\| 厂站 \| 装置 \| 状态 \|\n\| --- \| --- \| --- \|/);
    expect(doc.units.map((u) => u.text).join('\n').match(/站点\d+ /g)).toHaveLength(60);
  });
});
