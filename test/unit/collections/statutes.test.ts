import fs from 'node:fs';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { parseDocument } from '../../../src/core/collections/parse';
import { classifySectionQuery } from '../../../src/core/collections/sections';
import { detectProfile } from '../../../src/core/collections/profile';
import { hasShared, sharedPath, tempContext, tempDir } from '../../helpers';

const root = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

/** Two small rule books written for this test (article numbering, chapters, a 罚则 chapter). */
function writeRuleBooks(dir: string): void {
  fs.writeFileSync(
    path.join(dir, '配电室安全管理规定.md'),
    [
      '# 配电室安全管理规定',
      '',
      '## 第一章 总则',
      '',
      '第一条 为了加强配电室安全管理，制定本规定。',
      '',
      '第二条 本规定适用于本单位所有低压配电室和高压配电室。',
      '',
      '第三条 本规定所称配电室，是指安装配电柜、变压器等设备的房间。',
      '',
      '## 第二章 运行管理',
      '',
      '第四条 配电室应当配备干粉灭火器和绝缘垫，禁止存放易燃物品。',
      '',
      '第五条 进入配电室巡视应当两人进行，一人监护，一人操作。',
      '',
      '第六条 停电检修前应当验电、挂接地线并悬挂标示牌。',
      '',
      '第七条 配电室门窗应当加装防小动物网，电缆沟应当封堵。',
      '',
      '第八条 值班人员每班巡视不少于两次，并填写巡视记录。',
      '',
      '第九条 雷雨天气禁止在室外进行倒闸操作。',
      '',
      '第十条 配电室钥匙由值班人员统一保管，借用应当登记。',
      '',
      '## 第三章 罚则',
      '',
      '第十一条 违反本规定第五条单人巡视的，给予警告并扣发当月奖金。',
      '',
      '第十二条 违反本规定第四条在配电室存放易燃物品的，处以罚款并责令清除。',
      '',
      '第十三条 本规定自发布之日起施行。',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, '电动汽车充电桩使用办法.md'),
    [
      '# 电动汽车充电桩使用办法',
      '',
      '## 第一章 总则',
      '',
      '第一条 为了规范小区充电桩的使用，制定本办法。',
      '',
      '第二条 本办法适用于小区公共充电桩。',
      '',
      '## 第二章 使用',
      '',
      '第三条 充电结束后应当在三十分钟内挪车，不得长期占用车位。',
      '',
      '第四条 充电桩故障应当拨打物业电话报修，不得私自拆卸。',
      '',
      '第五条 收费标准按每千瓦时电价加服务费计算。',
      '',
      '## 第三章 罚则',
      '',
      '第六条 超时占用车位的，每小时收取占位费十元。',
      '',
      '第七条 本办法自公布之日起施行。',
    ].join('\n'),
  );
}

describe('statutes and rule books as a collection (real SQLite, jieba)', () => {
  const ctx = tempContext();
  const dir = tempDir();
  beforeAll(async () => {
    writeRuleBooks(dir);
    const imp = await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'rules' });
    expect(imp.profile).toBe('regulations');
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('parses articles with their chapter path and detects the profile', () => {
    const doc = parseDocument(fs.readFileSync(path.join(dir, '配电室安全管理规定.md'), 'utf8'), 'x.md');
    expect(doc.kind).toBe('regulation');
    expect(doc.articles!.map((a) => a.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(doc.articles![4]).toMatchObject({ label: '第五条', path: '第二章 运行管理' });
    expect(detectProfile([{ kind: 'regulation', n: 5 }, { kind: 'document', n: 1 }])).toBe('regulations');
    expect(detectProfile([{ kind: 'recipe', n: 3 }])).toBe('recipes');
    expect(detectProfile([{ kind: 'document', n: 3 }])).toBe('generic');
    expect(classifySectionQuery('第十条说的是什么')).toEqual({ intent: 'article', n: 10 });
    expect(classifySectionQuery('罚则呢').intent).toBe('penalty');
  });

  it('answers with the best article (label, text, chapter path, source) and see-also articles, in regulation wording', async () => {
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '进入配电室巡视可以一个人去吗' });
    expect(a.decision).toBe('locked');
    expect(a.lock.title).toBe('配电室安全管理规定');
    expect(a.profile).toBe('regulations');
    expect(a.citations[0]).toMatchObject({ label: '第五条', path: '第二章 运行管理', rel_path: '配电室安全管理规定.md' });
    expect(a.answer).toContain('第五条');
    expect(a.answer).toContain('两人进行');
    expect(a.answer).toContain('另见');
    // chips of a rule book, not of a recipe
    expect(a.suggestions).toContain('罚则呢？');
    expect(a.suggestions.join('')).not.toMatch(/原料|食材/);
    // the answer is not the document from its first line
    expect(a.answer!.indexOf('第一条')).toBe(-1);
  });

  it('follow-ups move inside the locked document: 第十条, 下一条, 罚则, 适用范围, 定义', async () => {
    const first = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '配电室里能放易燃物品吗' });
    expect(first.citations[0].label).toBe('第四条');
    const s = first.session_id;
    const tenth = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '第十条说的是什么', session_id: s });
    expect(tenth).toMatchObject({ kind: 'follow_up', lock: { title: '配电室安全管理规定' } });
    expect(tenth.citations[0].label).toBe('第十条');
    expect(tenth.answer).toContain('钥匙');
    const next = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '下一条呢', session_id: s });
    expect(next.citations[0].label).toBe('第十一条');
    const penalty = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '罚则呢', session_id: s });
    expect(penalty.route?.intent).toBe('penalty');
    // the penalty for what the session asked about (易燃物品), from the 罚则 chapter
    expect(penalty.citations[0]).toMatchObject({ label: '第十二条', path: '第三章 罚则' });
    const scope = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '适用范围是什么', session_id: s });
    expect(scope.citations[0].label).toBe('第二条');
    const def = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '配电室的定义', session_id: s });
    expect(def.citations[0].label).toBe('第三条');
    const missing = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '第九十九条', session_id: s });
    expect(missing.answer).toContain('没有第 99 条');
  });

  it('switches documents when the question names another one, and says low evidence out of domain in regulation wording', async () => {
    const first = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '配电室巡视要几个人' });
    const sw = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '电动汽车充电桩使用办法的罚则呢', session_id: first.session_id });
    expect(sw.lock.title).toBe('电动汽车充电桩使用办法');
    const low = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '今天天气怎么样' });
    expect(low.decision).toBe('low_evidence');
    expect(low.clarify_question).toMatch(/法规名称|条款号/);
    expect(low.clarify_question).not.toMatch(/原料|菜名/);
  });

  it('a matter no rule book mentions (燃气管道) is not_found in regulation wording, never a lock on a rule book that shares a verb', async () => {
    const gas = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '燃气管道漏气找谁报修' });
    expect(gas).toMatchObject({ state: 'not_found', decision: 'not_found', code: 'NOT_FOUND' });
    expect(gas.answer).toMatch(/^集合中的法规没有关于「[^」]*燃气[^」]*」的规定。/);
    expect(gas.lock.state).not.toBe('locked');
    // the matter it does hold is still answered
    const held = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '充电桩故障找谁报修' });
    expect(held).toMatchObject({ state: 'locked', lock: { title: '电动汽车充电桩使用办法' } });
  });

  it('moves the lock when another document answers a follow-up better, without its title being named', async () => {
    const first = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '进入配电室巡视可以一个人去吗' });
    expect(first.lock.title).toBe('配电室安全管理规定');
    const sw = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '充电桩故障了怎么报修', session_id: first.session_id });
    expect(sw).toMatchObject({ switched: true, lock: { title: '电动汽车充电桩使用办法' } });
    expect(sw.retrieval?.rule).toBe('switch');
    expect(sw.citations[0].label).toBe('第四条');
    // a question the locked document answers stays a follow-up
    const stay = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '超时占用车位怎么收费', session_id: sw.session_id });
    expect(stay).toMatchObject({ kind: 'follow_up', switched: false, lock: { title: '电动汽车充电桩使用办法' } });
    expect(stay.citations[0].label).toBe('第六条');
  });

  it('citations carry their section index, and open the reader when the library holds the same statute', async () => {
    const before = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '配电室里能放易燃物品吗' });
    expect(before.citations[0]).toMatchObject({ label: '第四条', index: 3, regulation: null, page: null });
    const doc = await invokeOperation(ctx, 'collections.document', { collection: 'rules', doc_id: before.citations[0].doc_id });
    expect(doc.sections[3]).toMatchObject({ index: 3, label: '第四条', path: '第二章 运行管理' });
    await expect(invokeOperation(ctx, 'collections.document', { collection: 'rules', doc_id: 99999 })).rejects.toThrow(/没有这篇文档/);
    // the same rule book imported into the regulation library: the citation now names its page
    const [imp] = await invokeOperation(ctx, 'regulations.import', { paths: [path.join(dir, '配电室安全管理规定.md')] });
    const after = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '配电室里能放易燃物品吗' });
    const page = await invokeOperation(ctx, 'regulations.resolve', { reg_id: imp.reg_id!, reference: '第四条' });
    expect(after.citations[0].regulation).toEqual({ reg_id: imp.reg_id, title: '配电室安全管理规定', page: page.page_num });
    expect(after.citations[0].page).toBe(page.page_num);
    // a document of another title stays with the collection viewer
    const other = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '充电结束后多久要挪车' });
    expect(other.citations[0].regulation).toBeNull();
    await invokeOperation(ctx, 'regulations.delete', { reg_id: imp.reg_id! });
  });

  it('collections.search returns ranked candidates with seed-003 scores without locking', async () => {
    const r = await invokeOperation(ctx, 'collections.search', { collection: 'rules', query: '充电结束后多久要挪车', top_parents: 2 });
    expect(r.candidates[0].title).toBe('电动汽车充电桩使用办法');
    const c = r.candidates[0];
    expect(c.coverage_ratio).toBeCloseTo(c.coverage / c.total_chunks, 3);
    if (c.passes_coverage) expect(c.overall_score).toBeCloseTo(0.7 * c.rrf_sum_norm + 0.3 * c.max_chunk_norm, 3);
    const sessions = ctx.db.prepare('SELECT COUNT(*) AS n FROM coll_sessions').get() as { n: number };
    const before = sessions.n;
    await invokeOperation(ctx, 'collections.search', { collection: 'rules', query: '罚则' });
    expect((ctx.db.prepare('SELECT COUNT(*) AS n FROM coll_sessions').get() as { n: number }).n).toBe(before);
  });

  it('the profile is editable and changes the wording', async () => {
    const set = await invokeOperation(ctx, 'collections.profile', { name: 'rules', profile: 'generic' });
    expect(set).toMatchObject({ profile: 'generic', detected: 'regulations', stored: true });
    const low = await invokeOperation(ctx, 'collections.ask', { collection: 'rules', question: '今天天气怎么样' });
    expect(low.clarify_question).toMatch(/文档标题|章节/);
    await expect(invokeOperation(ctx, 'collections.profile', { name: 'rules', profile: 'poems' })).rejects.toThrow(/不支持的类型/);
    expect((await invokeOperation(ctx, 'collections.profile', { name: 'rules', profile: 'auto' })).profile).toBe('regulations');
  });
});

describe.skipIf(!hasShared('data', 'laws'))('the six power statutes (../shared)', () => {
  const ctx = tempContext();
  const dir = tempDir();
  beforeAll(async () => {
    for (const rel of ['行政法规/电力设施保护条例(2011-01-08).md', '行政法规/电网调度管理条例(2011-01-08).md', '经济法/电力法(2018-12-29).md']) {
      fs.copyFileSync(sharedPath('data', 'laws', rel), path.join(dir, path.basename(rel)));
    }
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'laws' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('locks the statute a field question is about and names the article', async () => {
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'laws', question: '在架空电力线路保护区内可以堆放谷物吗' });
    expect(a.lock.title).toBe('电力设施保护条例');
    expect(a.citations[0].label).toBe('第十五条');
    const b = await invokeOperation(ctx, 'collections.ask', { collection: 'laws', question: '电网调度机构分为几级' });
    expect(b.lock.title).toBe('电网调度管理条例');
    expect(b.answer).toContain('第十条');
    const c = await invokeOperation(ctx, 'collections.ask', { collection: 'laws', question: '电力法第三条' });
    expect(c.lock.title).toBe('中华人民共和国电力法');
  });
});

describe('CLI: interactive ask and collection search', () => {
  it('`gridcode ask` without a question reads questions from stdin in one session; search --json lists candidates', async () => {
    const dir = tempDir();
    const books = tempDir();
    writeRuleBooks(books);
    const cli = (...args: string[]) => run(process.execPath, [path.join(root, 'bin/gridcode.mjs'), '--data-dir', dir, ...args], { cwd: root });
    try {
      await cli('collection', 'import', books, '--name', 'rules', '--json');
      const child = spawn(process.execPath, [path.join(root, 'bin/gridcode.mjs'), '--data-dir', dir, '--json', 'ask', '--collection', 'rules', '--log-dir', path.join(dir, 'mylogs')], { cwd: root });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stdin.end('进入配电室巡视可以一个人去吗\n第十条说的是什么\n退出\n这一行不会被问\n');
      await new Promise((resolve) => child.on('close', resolve));
      const answers = out.trim().split('\n').map((l) => JSON.parse(l));
      expect(answers).toHaveLength(2);
      expect(answers[1].session_id).toBe(answers[0].session_id);
      expect(answers[1].turn).toBe(2);
      expect(answers[1].citations[0].label).toBe('第十条');
      const logged = fs.readFileSync(path.join(dir, 'mylogs', 'generation.jsonl'), 'utf8').trim().split('\n');
      expect(logged).toHaveLength(2);
      const search = JSON.parse((await cli('--json', 'collection', 'search', '充电桩坏了找谁', '--collection', 'rules', '--top-parents', '1')).stdout);
      expect(search.candidates).toHaveLength(1);
      expect(search.candidates[0]).toMatchObject({ title: '电动汽车充电桩使用办法' });
      expect(typeof search.candidates[0].overall_score).toBe('number');
      const traced = JSON.parse((await cli('--json', 'ask', '充电桩坏了找谁', '--collection', 'rules', '--trace-id', 't-1', '--turn', '7', '--top-k', '10')).stdout);
      expect(traced).toMatchObject({ trace_id: 't-1', turn: 7 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(books, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('collections.import_files (browser folder upload)', () => {
  it('stages uploaded files with their relative paths, imports them, and refuses files outside uploads/', async () => {
    const ctx = tempContext();
    try {
      const up = path.join(ctx.dataDir, 'uploads', 'u-1');
      fs.mkdirSync(up, { recursive: true });
      fs.writeFileSync(path.join(up, 'a.md'), '# 甲规定\n\n第一条 甲。\n\n第二条 乙。\n\n第三条 丙。\n');
      fs.writeFileSync(path.join(up, 'b.txt'), '备注文件');
      const out = await invokeOperation(ctx, 'collections.import_files', {
        name: 'up',
        files: [
          { path: path.join(up, 'a.md'), rel_path: 'sub/../../a.md' },
          { path: path.join(up, 'b.txt'), rel_path: 'notes/b.txt' },
        ],
      });
      expect(out).toMatchObject({ collection: 'up', documents: 2 });
      expect(fs.existsSync(path.join(ctx.dataDir, 'collections-src', 'up', 'sub', 'a.md'))).toBe(true);
      const outside = path.join(tempDir(), 'x.md');
      fs.writeFileSync(outside, '# x');
      await expect(invokeOperation(ctx, 'collections.import_files', { name: 'up', files: [{ path: outside, rel_path: 'x.md' }] })).rejects.toThrow(/只能导入已上传的文件/);
    } finally {
      await ctx.cleanup();
    }
  });
});
