/**
 * The CLI has the agents' structure tools (gridcode notes / chapters / similar / compare / context /
 * page-info, toc --depth/--expand), each with --json printing the operation's output; run on the shipped
 * substation safety demo (a Word document with a merged-cell table, notes and a figure).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers';

const root = path.resolve(__dirname, '../../..');
const doc = path.join(root, 'resources', 'regulations', 'biandian_2024', 'biandian_2024.docx');
let data: string;

const cli = (args: string[]) => runCli([...args, '--data-dir', data]);
const json = async (args: string[]) => {
  const r = await cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

beforeAll(async () => {
  data = tempDir('gridcode-structure-cli-');
  const imp = await cli(['import', doc, '--id', 'biandian_2024']);
  expect(imp.code, imp.stderr).toBe(0);
}, 60_000);
afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

describe('structure commands with --json', () => {
  it('notes: 注一 and 注① find 注1 of 表1; 方案甲 is 方案A', async () => {
    for (const label of ['注一', '注①']) {
      const out = await json(['notes', 'biandian_2024', label]);
      expect(out.notes.map((n: { label: string; target: string }) => `${n.label}@${n.target}`)).toEqual(['注1@表1']);
    }
    expect((await json(['notes', 'biandian_2024', '方案甲'])).annotation_id).toBe('方案A');
    const human = await cli(['notes', 'biandian_2024', '--table', '表1']);
    expect(human.stdout).toContain('共 2 条注释');
  });

  it('chapters, toc --depth/--expand and page-info agree on the chapters', async () => {
    const ch = await json(['chapters', 'biandian_2024']);
    const four = ch.chapters.find((c: { title: string }) => c.title === '第四章 保证安全的技术措施');
    expect(four.first_article).toBe('第十九条');
    expect(four.last_article).toBe('第二十三条');
    const toc = await json(['toc', 'biandian_2024', '--depth', '1']);
    expect(toc.tree.map((n: { title: string }) => n.title)).toContain('第四章 保证安全的技术措施');
    const info = await json(['page-info', 'biandian_2024', String(four.page_start)]);
    expect(info.active_chapters.map((c: { title: string }) => c.title)).toContain('第四章 保证安全的技术措施');
    const bad = await cli(['page-info', 'biandian_2024', '99']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('第 99 页不存在');
  });

  it('compare (one reg_id, two articles), similar (an article as reference) and context (a block with neighbours)', async () => {
    const cmp = await json(['compare', 'biandian_2024', '第二十一条', '第二十二条']);
    expect(cmp.a.label).toBe('第二十一条');
    expect(cmp.common_terms).toContain('接地线');
    const sim = await json(['similar', '--reg', 'biandian_2024', '--section', '第二十一条', '-k', '3']);
    expect(sim.reference.label).toBe('第二十一条');
    expect(sim.results.length).toBeGreaterThan(0);
    for (const r of sim.results) expect(r.article).not.toBe('第二十一条');
    const around = await json(['context', 'biandian_2024', String(sim.results[0].unit_id), '-n', '1']);
    expect(around.target_block.block_id).toBe(String(sim.results[0].unit_id));
    expect(around.before_blocks.length + around.after_blocks.length).toBeGreaterThan(0);
  });
});
