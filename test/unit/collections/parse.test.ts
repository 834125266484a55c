import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/core/collections/parse';
import { chunkDocument, splitText } from '../../../src/core/collections/chunk';
import { classifyQuery, formatAutoAnswer } from '../../../src/core/collections/answer';
import { questionCore, questionTerms } from '../../../src/core/collections/retrieve';
import { hasShared, sharedPath } from '../../helpers';

const fixtures = path.resolve(__dirname, '../../fixtures/collections');
const demo = path.resolve(__dirname, '../../../resources/recipes');

describe('recipe parsing', () => {
  it('turns a howtocook-shaped recipe into blocks, ingredients with quantities, tools and ordered steps', () => {
    const doc = parseDocument(fs.readFileSync(path.join(demo, 'dishes/meat/红烧肉.md'), 'utf8'), '红烧肉.md');
    expect(doc.title).toBe('红烧肉');
    expect(doc.heading).toBe('红烧肉的做法');
    expect(doc.kind).toBe('recipe');
    expect(doc.difficulty).toBe(3);
    expect(doc.blocks.map((b) => b.kind)).toEqual(['intro', 'ingredients', 'calculation', 'steps', 'extras']);
    expect(doc.ingredients.find((i) => i.name === '五花肉')?.quantity).toBe('800g（带皮，肥瘦相间）');
    expect(doc.ingredients.find((i) => i.name === '冰糖')?.quantity).toBe('30g');
    expect(doc.tools).toEqual(['砂锅（或厚底铁锅）', '炒锅']);
    expect(doc.steps).toHaveLength(8);
    expect(doc.steps[2]).toMatchObject({ n: 3, group: null });
    expect(doc.steps[2].text).toContain('炒糖色');
  });

  it('numbers steps continuously across ### groups and keeps alternatives and indented notes inside their step', () => {
    const doc = parseDocument(fs.readFileSync(path.join(fixtures, 'mixed/分组蒸蛋.md'), 'utf8'), '分组蒸蛋.md');
    expect(doc.steps.map((s) => [s.n, s.group])).toEqual([
      [1, '准备'],
      [2, '准备'],
      [3, '蒸制'],
      [4, '蒸制'],
      [5, '蒸制'],
    ]);
    expect(doc.steps[1].notes).toEqual(['水温约 40 度，太烫会把蛋液烫熟']);
    // "2. 蒸制方式（二选一）" followed by 1./2. alternatives: one step with two notes, then 3. continues as step 5
    expect(doc.steps[3].notes).toEqual(['1. 中火蒸 10 分钟', '2. 大火蒸 6 分钟，每 2 分钟开一次盖']);
    expect(doc.steps[4].text).toBe('出锅淋香油');
    expect(doc.tools).toEqual(['蒸锅', '碗']);
    // quantities from 计算 in both "名 量" and "名：量" forms
    expect(doc.ingredients.slice(0, 3)).toEqual([
      { name: '鸡蛋', quantity: '2 个' },
      { name: '盐', quantity: '2g' },
      { name: '温水', quantity: '150ml' },
    ]);
    // comments and images never reach the text
    expect(doc.blocks.map((b) => b.text).join('\n')).not.toMatch(/测试夹具|x\.jpg/);
  });

  it('splits a non-recipe document into sections by heading', () => {
    const doc = parseDocument(fs.readFileSync(path.join(fixtures, 'mixed/sub/值班交接规程.txt'), 'utf8'), '值班交接规程.txt');
    expect(doc.kind).toBe('document');
    expect(doc.title).toBe('值班交接规程');
    expect(doc.blocks.map((b) => [b.kind, b.heading])).toEqual([
      ['intro', '简介'],
      ['section', '交接内容'],
      ['steps', '交接步骤'],
      ['extras', '注意事项'],
    ]);
    expect(doc.steps.map((s) => s.text)).toEqual(['接班人员提前 15 分钟到岗', '双方共同查看运行日志', '核对工作票与操作票', '双方签字确认后交接完成']);
  });

  it('uses the file name as title when a text has no heading', () => {
    const doc = parseDocument('只有一段文字，没有标题。', '无标题笔记.txt');
    expect(doc.title).toBe('无标题笔记');
    expect(doc.blocks).toHaveLength(1);
  });

  it.skipIf(!hasShared('data', 'howtocook'))('parses every shared howtocook recipe with steps', () => {
    const root = sharedPath('data', 'howtocook', 'dishes');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (f.endsWith('.md')) files.push(f);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(300);
    const withoutSteps = files.filter((f) => parseDocument(fs.readFileSync(f, 'utf8'), path.basename(f)).steps.length === 0);
    expect(withoutSteps).toEqual([]);
  });
});

describe('chunks', () => {
  it('starts with a title card and cuts sections into pieces no longer than the limit (hard cut for one huge line)', () => {
    const doc = parseDocument(fs.readFileSync(path.join(demo, 'dishes/meat/红烧肉.md'), 'utf8'), '红烧肉.md');
    const chunks = chunkDocument(doc, 120);
    expect(chunks[0]).toMatchObject({ ord: 0, blockKind: 'title' });
    expect(chunks[0].text.split('\n')[0]).toBe('红烧肉');
    expect(chunks.every((c) => c.text.length <= 120)).toBe(true);
    expect(new Set(chunks.map((c) => c.blockKind))).toEqual(new Set(['title', 'intro', 'ingredients', 'calculation', 'steps', 'extras']));
    const pieces = splitText('字'.repeat(1000), 300);
    expect(pieces.map((p) => p.length)).toEqual([300, 300, 300, 100]);
  });
});

describe('question handling', () => {
  it('reduces questions to what they are about', () => {
    expect(questionCore('红烧肉怎么做')).toBe('红烧肉');
    expect(questionCore('做红烧肉需要什么原料')).toBe('红烧肉');
    expect(questionCore('请问宫保鸡丁的做法是什么？')).toBe('宫保鸡丁');
    expect(questionCore('红烧')).toBe('红烧');
    expect(questionCore('鸡怎么做')).toBe('鸡');
    expect(questionCore('可乐鸡翅要放什么调料？')).toBe('可乐鸡翅');
    expect(questionCore('如何做麻婆豆腐')).toBe('麻婆豆腐');
    expect(questionCore('红烧肉第三步是什么？')).toBe('红烧肉');
    expect(questionCore('红烧肉要多久')).toBe('红烧肉');
    expect(questionCore('可乐鸡翅需要什么锅')).toBe('可乐鸡翅');
  });

  it('statute questions keep 材料 and 告诉 when they are what is asked about, not how it is asked', () => {
    // recipe scaffolding drops them (需要什么材料, 告诉我…); in a statute question they carry the matter
    expect(questionCore('用假材料骗领社保待遇怎么处罚')).toBe('用假骗领社保待遇处罚');
    expect(questionCore('用假材料骗领社保待遇怎么处罚', 'statutes')).toBe('用假材料骗领社保待遇处罚');
    expect(questionCore('招聘的时候公司应该告诉我哪些情况', 'statutes')).toContain('告诉');
    // a leading request and an asked-for list of materials are still question parts
    expect(questionCore('告诉我试用期最长多久', 'statutes')).toBe('试用期最长');
    expect(questionCore('申请工伤认定需要什么材料', 'statutes')).toBe('申请工伤认定');
    expect(questionCore('受伤以后多长时间内要申请工伤认定', 'statutes')).toBe('受伤以后内要申请工伤认定');
  });

  it('statute questions are searched by the words that name, not by the ones that ask (由谁来, 几天)', () => {
    const terms = questionTerms('最低工资标准由谁来定', 'statutes');
    expect(terms).toContain('最低工资');
    expect(terms).toContain('标准');
    expect(terms.some((t) => t.includes('谁'))).toBe(false);
    expect(questionTerms('工作满十年每年有几天年假', 'statutes').some((t) => t.includes('几'))).toBe(false);
    // recipes keep their tokens as before
    expect(questionTerms('红烧肉要放几个八角')).toEqual(questionTerms('红烧肉要放几个八角', 'any'));
  });

  it('statute questions asked as A-not-A (要不要, 能不能, 有没有, 可不可以) are not searched by their pieces (不要, 不能, 没有)', () => {
    const terms = questionTerms('单位辞退员工要不要提前通知工会', 'statutes');
    expect(terms).toEqual(expect.arrayContaining(['单位', '辞退', '员工', '提前', '通知', '工会']));
    expect(terms).not.toContain('不要');
    expect(questionTerms('试用期内公司能不能随便解除合同', 'statutes')).not.toContain('不能');
    expect(questionTerms('试用期内公司能不能随便解除合同', 'statutes')).toContain('解除');
    expect(questionTerms('兼职的人有没有工伤保险', 'statutes')).not.toContain('没有');
    expect(questionTerms('可不可以拒绝加班', 'statutes')).toContain('加班');
    expect(questionTerms('可不可以拒绝加班', 'statutes').some((t) => t.includes('不可'))).toBe(false);
    // read as its verb: 包不包括 is 包括, not 包不 + 括
    expect(questionTerms('月工资包不包括奖金', 'statutes')).toContain('包括');
    // a 不 between two different characters is a word of the question (不得, 不能胜任), kept
    expect(questionTerms('不能胜任工作会被辞退吗', 'statutes')).toContain('不能');
  });

  it('classifies follow-ups into ingredients / steps / time / tools / general', () => {
    expect(classifyQuery('需要哪些原料？')).toMatchObject({ intent: 'ingredients' });
    expect(classifyQuery('冰糖放多少')).toMatchObject({ intent: 'ingredients' });
    expect(classifyQuery('第三步是什么？')).toEqual({ intent: 'steps', step: 3, relativeStep: null });
    expect(classifyQuery('第12步')).toMatchObject({ intent: 'steps', step: 12 });
    expect(classifyQuery('下一步呢')).toMatchObject({ intent: 'steps', relativeStep: 1 });
    expect(classifyQuery('要多久？')).toMatchObject({ intent: 'time' });
    expect(classifyQuery('需要什么锅')).toMatchObject({ intent: 'tools' });
    expect(classifyQuery('为什么要用开水')).toMatchObject({ intent: 'general' });
  });

  it('builds the full answer only from the document blocks', () => {
    const doc = parseDocument(fs.readFileSync(path.join(demo, 'dishes/meat/可乐鸡翅.md'), 'utf8'), '可乐鸡翅.md');
    const md = formatAutoAnswer(doc, 'dishes/meat/可乐鸡翅.md');
    expect(md).toMatch(/^# 可乐鸡翅/);
    expect(md).toContain('- 鸡翅中：10 个（约 500g）');
    expect(md).toContain('## 步骤\n\n1. 鸡翅两面各划两刀');
    expect(md).toContain('6. 开盖大火收汁');
    expect(md).not.toContain('Pull request');
    expect(md).toContain('> 来源：dishes/meat/可乐鸡翅.md');
    const cut = formatAutoAnswer(doc, undefined, 200);
    expect(cut.length).toBeLessThan(300);
    expect(cut).toContain('内容过长');
  });
});
