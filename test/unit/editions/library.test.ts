import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';
import { generateEditions } from '../../fixtures/edition-pair';
import { editionsMigrations } from '../../../src/core/editions/schema';

type Ctx = ReturnType<typeof tempContext>;
let ctx: Ctx;
let dir: string;
beforeEach(() => {
  ctx = tempContext();
  dir = tempDir('gridcode-editions-');
});
afterEach(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const g = generateEditions(40, 11);

describe('editions in the library', () => {
  it('a same-titled document with another date becomes an edition; versions, diff and the in-force edition follow', async () => {
    const [a] = await invokeOperation(ctx, 'regulations.import', { paths: [write('调度规程(2019-03-01).md', g.oldText)] });
    expect(a.edition).toBeUndefined();
    const [b] = await invokeOperation(ctx, 'regulations.import', { paths: [write('调度规程(2024-07-01).md', g.newText)] });
    expect(b.status).toBe('imported');
    expect(b.edition).toMatchObject({ edition_of: a.reg_id, reason: 'title', in_force: true, effective_date: '2024-07-01' });
    expect(b.edition!.message).toContain('旧版保留');

    const v = await invokeOperation(ctx, 'editions.versions', { reg_id: a.reg_id! });
    expect(v.editions.map((e) => [e.reg_id, e.effective_date, e.in_force])).toEqual([
      [a.reg_id, '2019-03-01', false],
      [b.reg_id, '2024-07-01', true],
    ]);
    expect(v.editions[0].label).toBe('旧版（2019-03-01 施行）');

    // contract: every article of both editions in exactly one pair
    const d = await invokeOperation(ctx, 'editions.diff', { old_reg_id: a.reg_id!, new_reg_id: b.reg_id! });
    expect(d.old).toMatchObject({ reg_id: a.reg_id, title: '电网调度运行规程（生成）' });
    expect(Object.keys(d.summary).sort()).toEqual(['added', 'deleted', 'modified', 'moved', 'same']);
    const oldArticles = d.pairs.filter((p) => p.old).map((p) => p.old!.article);
    const newArticles = d.pairs.filter((p) => p.new).map((p) => p.new!.article);
    expect(new Set(oldArticles).size).toBe(oldArticles.length);
    expect(oldArticles).toHaveLength(40);
    expect(newArticles).toHaveLength(g.truth.size + g.added.size);
    expect(d.summary.same + d.summary.moved + d.summary.modified + d.summary.deleted).toBe(40);
    const modified = d.pairs.find((p) => p.change === 'modified')!;
    expect(modified.words!.some((w) => w.op === '+')).toBe(true);

    // one regulation: compared with its previous edition; one article: its history
    const prev = await invokeOperation(ctx, 'editions.diff', { reg_id: b.reg_id! });
    expect(prev.old.reg_id).toBe(a.reg_id);
    const label = modified.new!.article;
    const art = await invokeOperation(ctx, 'editions.article', { reg_id: b.reg_id!, article: label });
    expect(art.history.map((h) => [h.reg_id, h.change])).toEqual([
      [a.reg_id, null],
      [b.reg_id, 'modified'],
    ]);
    expect(art.history[0].article).toBe(modified.old!.article);
  });

  it('--separate keeps them apart, --as-edition-of joins regardless of title; unknown ids fail in Chinese', async () => {
    const [a] = await invokeOperation(ctx, 'regulations.import', { paths: [write('规程(2019-03-01).md', g.oldText)] });
    const [b] = await invokeOperation(ctx, 'regulations.import', { paths: [write('规程(2024-07-01).md', g.newText)], separate: true });
    expect(b.edition).toMatchObject({ reason: 'separate', edition_of: null });
    expect((await invokeOperation(ctx, 'editions.versions', { reg_id: b.reg_id! })).editions).toHaveLength(1);
    // joined afterwards (the import screen's 作为新版本)
    const joined = await invokeOperation(ctx, 'editions.set', { reg_id: b.reg_id!, edition_of: a.reg_id! });
    expect(joined.editions.map((e) => e.reg_id)).toEqual([a.reg_id, b.reg_id]);

    const [c] = await invokeOperation(ctx, 'regulations.import', {
      paths: [write('别名文件.md', g.newText.replace('# 电网调度运行规程（生成）', '# 调度运行规定'))],
      edition_of: a.reg_id!,
    });
    expect(c.edition).toMatchObject({ reason: 'asked', edition_of: a.reg_id });
    await expect(invokeOperation(ctx, 'regulations.import', { paths: [write('x.md', g.oldText)], edition_of: 'nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('未找到规程「nope」'),
    });
    await expect(invokeOperation(ctx, 'editions.diff', { old_reg_id: a.reg_id!, new_reg_id: 'nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/^未找到规程「nope」/),
    });
  });

  it('the same file saved over with a new edition keeps the old one (never replaced silently)', async () => {
    const file = write('安规.md', `# 电力安全工作规程\n\n2019年3月1日发布\n\n${g.oldText.split('\n').slice(1).join('\n')}`);
    const [a] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    fs.writeFileSync(file, `# 电力安全工作规程\n\n2024年7月1日发布\n\n${g.newText.split('\n').slice(1).join('\n')}`);
    const [b] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(b.status).toBe('imported');
    expect(b.reg_id).not.toBe(a.reg_id);
    expect(b.edition).toMatchObject({ edition_of: a.reg_id, in_force: true });
    const list = await invokeOperation(ctx, 'regulations.list', {});
    expect(list.map((r) => r.reg_id).sort()).toEqual([a.reg_id, b.reg_id].sort());
    // importing the same bytes again changes nothing
    const [again] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(again).toMatchObject({ reg_id: b.reg_id, status: 'unchanged' });
  });
});

describe('diff of editions in the library', () => {
  it('two editions of one regulation pair a text rewritten throughout; the same texts kept apart are judged on their own', async () => {
    const topics = ['调度值班人员交接班', '继电保护定值管理', '倒闸操作票填写', '设备缺陷处理流程', '事故应急预案演练', '新能源并网技术条件'];
    const oldText = ['# 调度规程', ...topics.map((t, k) => `第${k + 1}条 ${t}应当执行本规程的规定，由调度机构负责监督检查，具体办法另行制定。`)].join('\n\n');
    const newText = ['# 调度规程', ...topics.map((t, k) => `第${k + 1}条 各单位开展${t}工作，须遵守国家和行业标准并建立台账，每年向电网企业书面报告执行情况。`)].join('\n\n');
    const [a] = await invokeOperation(ctx, 'regulations.import', { paths: [write('调度规程(2015-01-01).md', oldText)] });
    const [b] = await invokeOperation(ctx, 'regulations.import', { paths: [write('调度规程(2024-01-01).md', newText)] });
    expect(b.edition?.edition_of).toBe(a.reg_id);
    const family = await invokeOperation(ctx, 'editions.diff', { old_reg_id: a.reg_id!, new_reg_id: b.reg_id!, words: false });
    expect(family.summary).toMatchObject({ modified: topics.length, added: 0, deleted: 0 });
    await invokeOperation(ctx, 'editions.set', { reg_id: b.reg_id!, edition_of: null });
    const apart = await invokeOperation(ctx, 'editions.diff', { old_reg_id: a.reg_id!, new_reg_id: b.reg_id!, words: false });
    expect(apart.summary.modified).toBeLessThan(topics.length / 2);
  });
});

describe('search knows editions', () => {
  it('returns the edition in force by default; with edition all, old hits are marked and point to the current article', async () => {
    const oldText = ['# 电网调度规程', '', '2015年1月1日发布', '', '## 第一章 总则', '', '第一条 为了规范调度，制定本规程。', '', '第二条 调度值班员应当每两小时巡视一次继电保护屏。', '', '第三条 本规程自发布之日起施行。'].join('\n');
    const newText = ['# 电网调度规程', '', '2024年1月1日发布', '', '## 第一章 总则', '', '第一条 为了规范调度，制定本规程。', '', '第二条 调度值班员应当执行调度纪律。', '', '第三条 调度值班员应当每小时巡视一次继电保护屏，并做好记录。', '', '第四条 本规程自发布之日起施行。'].join('\n');
    const [a] = await invokeOperation(ctx, 'regulations.import', { paths: [write('old/调度规程.md', oldText)] });
    const [b] = await invokeOperation(ctx, 'regulations.import', { paths: [write('new/调度规程.md', newText)] });
    expect(b.edition).toMatchObject({ edition_of: a.reg_id, in_force: true });

    const current = await invokeOperation(ctx, 'search.smart_search', { query: '巡视继电保护屏', reg_id: 'all', mode: 'lexical' });
    expect(current.results.length).toBeGreaterThan(0);
    expect(current.results.every((r) => r.reg_id === b.reg_id && !r.edition)).toBe(true);

    const all = await invokeOperation(ctx, 'search.smart_search', { query: '巡视继电保护屏', reg_id: 'all', mode: 'lexical', edition: 'all' });
    const old = all.results.find((r) => r.reg_id === a.reg_id)!;
    expect(old.article).toBe('第二条');
    expect(old.edition).toMatchObject({ status: 'superseded', effective_date: '2015-01-01', label: '旧版（2015-01-01 施行）' });
    expect(old.edition!.current).toMatchObject({ reg_id: b.reg_id, article: '第三条', effective_date: '2024-01-01' });
    // naming the old edition searches it, marked
    const named = await invokeOperation(ctx, 'search.smart_search', { query: '巡视继电保护屏', reg_id: a.reg_id!, mode: 'lexical' });
    expect(named.results[0].edition?.status).toBe('superseded');
  });
});

describe('editions imported before editions existed', () => {
  it('are proposed, grouped on confirmation (then search uses the one in force), or kept apart and not proposed again', async () => {
    const oldText = ['# 电网调度规程', '', '2015年1月1日发布', '', '第一条 为了规范调度，制定本规程。', '', '第二条 调度值班员应当每两小时巡视一次继电保护屏。', '', '第三条 本规程自发布之日起施行。'].join('\n');
    const newText = ['# 电网调度规程', '', '2024年1月1日发布', '', '第一条 为了规范调度，制定本规程。', '', '第二条 调度值班员应当每小时巡视一次继电保护屏，并做好记录。', '', '第三条 本规程自发布之日起施行。'].join('\n');
    const [a] = await invokeOperation(ctx, 'regulations.import', { paths: [write('old/调度规程.md', oldText)] });
    const [b] = await invokeOperation(ctx, 'regulations.import', { paths: [write('new/调度规程.md', newText)] });
    const [other] = await invokeOperation(ctx, 'regulations.import', { paths: [write('安规.md', g.oldText)] });
    // the library as the editions migration leaves one that predates it: every regulation its own family
    ctx.db.exec('DROP TABLE reg_editions');
    editionsMigrations[0].up(ctx.db);
    expect((await invokeOperation(ctx, 'editions.versions', { reg_id: b.reg_id! })).editions).toHaveLength(1);
    const before = await invokeOperation(ctx, 'search.smart_search', { query: '巡视继电保护屏', reg_id: 'all', mode: 'lexical' });
    expect(before.results.map((r) => r.reg_id)).toEqual(expect.arrayContaining([a.reg_id, b.reg_id]));

    // proposed (versions says so too), nothing changed by a dry run
    const v = await invokeOperation(ctx, 'editions.versions', { reg_id: a.reg_id! });
    expect(v.ungrouped.map((u) => u.editions.map((e) => [e.reg_id, e.effective_date, e.status]))).toEqual([
      [
        [a.reg_id, '2015-01-01', 'superseded'],
        [b.reg_id, '2024-01-01', 'current'],
      ],
    ]);
    const dry = await invokeOperation(ctx, 'editions.group', {});
    expect(dry).toMatchObject({ applied: false, groups: [{ title: '电网调度规程', reason: 'title' }] });
    expect(dry.groups[0].editions.map((e) => e.reg_id)).not.toContain(other.reg_id);
    expect((await invokeOperation(ctx, 'editions.versions', { reg_id: b.reg_id! })).editions).toHaveLength(1);

    // confirmed: one regulation, the newer in force; search no longer presents the old article as current
    const done = await invokeOperation(ctx, 'editions.group', { apply: true });
    expect(done.applied).toBe(true);
    const fam = await invokeOperation(ctx, 'editions.versions', { reg_id: b.reg_id! });
    expect(fam.editions.map((e) => [e.reg_id, e.in_force])).toEqual([
      [a.reg_id, false],
      [b.reg_id, true],
    ]);
    expect(fam.ungrouped).toEqual([]);
    const after = await invokeOperation(ctx, 'search.smart_search', { query: '巡视继电保护屏', reg_id: 'all', mode: 'lexical' });
    expect(after.results.length).toBeGreaterThan(0);
    expect(after.results.map((r) => r.reg_id)).toContain(b.reg_id);
    expect(after.results.map((r) => r.reg_id)).not.toContain(a.reg_id);
    expect((await invokeOperation(ctx, 'editions.group', {})).groups).toEqual([]);

    // kept apart instead: not proposed again, and a later import of the title does not join them either
    ctx.db.exec('DROP TABLE reg_editions');
    editionsMigrations[0].up(ctx.db);
    const apart = await invokeOperation(ctx, 'editions.group', { apply: true, keep_apart: true, reg_ids: [a.reg_id!] });
    expect(apart.groups).toHaveLength(1);
    expect((await invokeOperation(ctx, 'editions.group', {})).groups).toEqual([]);
    expect((await invokeOperation(ctx, 'editions.versions', { reg_id: a.reg_id! })).editions).toHaveLength(1);
    await expect(invokeOperation(ctx, 'editions.group', { apply: true, reg_ids: ['nope'] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/^未找到规程「nope」/),
    });
  });
});
