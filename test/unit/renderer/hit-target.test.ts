import { describe, expect, it } from 'vitest';
import { continuationBlocks, hitBlockIndex, hitTargetParams, parseHitTarget } from '../../../src/renderer/src/components/reader-logic';
import { splitBlocks } from '../../../src/renderer/src/components/PageText';

describe('reader: the block a search hit opens', () => {
  const page = splitBlocks(
    '附录A 安全自动装置台账\n本附录列出直调安全自动装置台账。\n\u0000table:0\n注：调度管辖栏中“国调”指国调中心直调装置。\n第三条 本规定所称安全自动装置，是指……\n第三十二条 母线失压时，按照下列原则处理：',
  );
  const blocks = page.map((b) => ({ ...b, tableId: b.kind === 'table' ? '表A.1' : null }));
  const target = (t: Record<string, string | null>) => ({ block: null, label: null, lead: null, tail: null, end: null, table: null, row: null, ...t });

  it('a table hit is its table, not the paragraph before it that shares its words', () => {
    const i = hitBlockIndex(blocks, target({ block: 'table', label: '表A.1', table: '表A.1', lead: '1天山换流站稳控装置主站A套' }));
    expect(blocks[i].kind).toBe('table');
  });

  it('a note and an article are found by their first words and label', () => {
    expect(blocks[hitBlockIndex(blocks, target({ block: 'note', label: '注', lead: '：调度管辖栏中“国调”指国调中心' }))].text).toContain('调度管辖栏');
    expect(blocks[hitBlockIndex(blocks, target({ block: 'article', label: '第三十二条', lead: '母线失压时，按照下列原则处理：（一）厂站运行值班' }))].label).toBe('第三十二条');
    // a label that is not on the page and words that are not either: nothing (the caller falls back to the marked term)
    expect(hitBlockIndex(blocks, target({ label: '第九十九条', lead: '完全不同的内容在别处' }))).toBe(-1);
  });

  it('a note printed under its table opens in that table', () => {
    const withNotes = blocks.map((b) => (b.kind === 'table' ? { ...b, text: '注1：控制量为演示数值，实际以调控中心下达的控制策略表为准。' } : b));
    const i = hitBlockIndex(withNotes, target({ block: 'note', label: '注1', lead: '：控制量为演示数值，实际以调控中心下达' }));
    expect(withNotes[i].kind).toBe('table');
    // an article never opens a table because of its notes
    expect(hitBlockIndex(withNotes, target({ block: 'article', label: '第九十九条', lead: '：控制量为演示数值，实际以调控中心下达' }))).toBe(-1);
  });

  it('the next page continues the article up to its last words, and never into the next article', () => {
    const next = splitBlocks('（一）厂站运行值班人员应当立即检查母线；\n（二）应当立即申请退出出口压板；\n第三十三条 站用电全部失去时……');
    const run = continuationBlocks(next, '申请退出出口压板；');
    expect(run.map((b) => b.label)).toEqual(['（一）', '（二）']);
    expect(continuationBlocks(next, '这几个字不在这一页')).toEqual([]);
    expect(continuationBlocks(next, null)).toEqual([]);
  });

  it('the target survives the reader URL', () => {
    const t = { block: 'table', label: '表A.1', lead: '1天山', tail: '2016-04', end: 8, table: '表A.1', row: ['1', '天山换流站', ''] };
    const q = new URLSearchParams(Object.entries(hitTargetParams(t)).filter((e): e is [string, string] => !!e[1]));
    expect(parseHitTarget(q)).toEqual(t);
  });
});
