import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { importCollection } from '../../../src/core/collections/import';
import { lexicalSearch } from '../../../src/core/search/lexical';
import { tempContext, tempDir } from '../../helpers';

const root = path.resolve(__dirname, '../../..');
const demo = path.join(root, 'resources/recipes');

type Ctx = ReturnType<typeof tempContext>;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function setup(): { ctx: Ctx; folder: string } {
  const ctx = tempContext();
  const folder = tempDir('gridcode-coll-');
  fs.cpSync(demo, folder, { recursive: true });
  cleanups.push(() => ctx.cleanup(), () => fs.rmSync(folder, { recursive: true, force: true }));
  return { ctx, folder };
}

function counts(ctx: Ctx) {
  const one = (sql: string) => (ctx.db.prepare(sql).get() as { n: number }).n;
  return {
    docs: one('SELECT COUNT(*) AS n FROM coll_docs'),
    chunks: one('SELECT COUNT(*) AS n FROM coll_chunks'),
    items: one("SELECT COUNT(*) AS n FROM search_items WHERE corpus LIKE 'col:%'"),
  };
}

describe('collection import', () => {
  it('imports recursively, stores total_chunks per parent and chunks with parent ids in the shared index', async () => {
    const { ctx, folder } = setup();
    const out = await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    expect(out).toMatchObject({ files: 10, added: 10, documents: 10, skipped: [] });
    const c = counts(ctx);
    expect(c.chunks).toBe(out.chunks);
    expect(c.items).toBe(out.chunks);
    const doc = ctx.db.prepare("SELECT id, total_chunks FROM coll_docs WHERE title = '红烧肉'").get() as { id: number; total_chunks: number };
    const items = ctx.db.prepare("SELECT key, parent FROM search_items WHERE corpus = 'col:r' AND parent = ?").all(String(doc.id)) as { key: string }[];
    expect(items).toHaveLength(doc.total_chunks);
    expect(items.map((i) => i.key)).toContain(`${doc.id}#0`);
    const hits = lexicalSearch(ctx.db, { corpus: 'col:r', query: '炒糖色', k: 5 });
    expect(hits.hits[0].parent).toBe(String(doc.id));
  });

  it('is idempotent and mirrors the folder: unchanged untouched, changed replaced, missing removed', async () => {
    const { ctx, folder } = setup();
    const first = await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    const before = counts(ctx);
    const again = await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 10, removed: 0, documents: 10, chunks: first.chunks });
    expect(counts(ctx)).toEqual(before);

    fs.appendFileSync(path.join(folder, 'dishes/meat/红烧肉.md'), '\n- 新增一条提示：出锅前撒葱花。\n');
    fs.rmSync(path.join(folder, 'dishes/drink/酸梅汤.md'));
    const third = await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    expect(third).toMatchObject({ added: 0, updated: 1, unchanged: 8, removed: 1, documents: 9 });
    const ask = await invokeOperation(ctx, 'collections.ask', { collection: 'r', question: '酸梅汤怎么做' });
    expect(ask.lock.title).not.toBe('酸梅汤');
    expect(counts(ctx).items).toBe(third.chunks);
  });

  it('keeps a session locked on a document whose file changed and was re-imported', async () => {
    const { ctx, folder } = setup();
    await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    const first = await invokeOperation(ctx, 'collections.ask', { collection: 'r', question: '红烧肉怎么做' });
    fs.writeFileSync(path.join(folder, 'dishes/meat/红烧肉.md'), fs.readFileSync(path.join(folder, 'dishes/meat/红烧肉.md'), 'utf8').replace('冰糖：30g', '冰糖：35g'));
    expect((await invokeOperation(ctx, 'collections.import', { folder, name: 'r' })).updated).toBe(1);
    const next = await invokeOperation(ctx, 'collections.ask', { collection: 'r', question: '冰糖放多少', session_id: first.session_id });
    expect(next.kind).toBe('follow_up');
    expect(next.answer).toContain('35g');
    expect(next.lock.doc_id).not.toBe(first.lock.doc_id);
  });

  it('is one transaction: a failure while writing leaves the previous collection intact', async () => {
    const { ctx, folder } = setup();
    await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    const before = counts(ctx);
    for (const f of ['dishes/meat/红烧肉.md', 'dishes/meat/可乐鸡翅.md', 'dishes/meat/黄焖鸡.md']) fs.appendFileSync(path.join(folder, f), '\n补充。\n');
    const controller = new AbortController();
    expect(() =>
      importCollection(ctx, { folder, name: 'r' }, (ev) => {
        // abort in the middle of the write phase, after the first changed document was written
        if (ev.stage === '写入索引' && ev.done === 1) controller.abort();
      }, controller.signal),
    ).toThrow(/取消/);
    expect(counts(ctx)).toEqual(before);
    const out = await invokeOperation(ctx, 'collections.ask', { collection: 'r', question: '红烧肉怎么做' });
    expect(out.lock.title).toBe('红烧肉');
  });

  it('skips empty, binary and non-UTF-8 files with reasons and imports the rest', async () => {
    const { ctx, folder } = setup();
    fs.writeFileSync(path.join(folder, '空.md'), '');
    fs.writeFileSync(path.join(folder, '只有注释.md'), '<!-- 草稿 -->\n\n   \n');
    fs.writeFileSync(path.join(folder, '图片.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48]));
    fs.writeFileSync(path.join(folder, 'gbk.txt'), Buffer.from([0xba, 0xec, 0xc9, 0xd5, 0xc8, 0xe2, 0xff, 0xfe]));
    fs.writeFileSync(path.join(folder, 'ignored.pdf'), 'not a text document');
    const out = await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    expect(out.documents).toBe(10);
    const reasons = Object.fromEntries(out.skipped.map((s) => [s.path, s.reason]));
    expect(reasons['空.md']).toMatch(/空文件/);
    expect(reasons['只有注释.md']).toMatch(/空文件/);
    expect(reasons['图片.md']).toMatch(/二进制/);
    expect(reasons['gbk.txt']).toMatch(/UTF-8/);
    expect(Object.keys(reasons)).toHaveLength(4);
  });

  it('imports a 10 MB Markdown file, finds it, and keeps the answer bounded', async () => {
    const { ctx } = setup();
    const folder = tempDir('gridcode-big-');
    cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }));
    const parts: string[] = ['# 设备巡检大全\n\n巡检手册的合订本。\n'];
    let size = 0;
    for (let sec = 1; size < 10 * 1024 * 1024; sec++) {
      const body = `## 第${sec}节 巡检记录\n\n${`- 变压器油温${sec % 90}度，声音正常，无渗漏。\n`.repeat(40)}\n`;
      parts.push(body);
      size += Buffer.byteLength(body);
    }
    parts.push('## 末节\n\n特别记录：避雷器计数器读数为七十七。\n');
    fs.writeFileSync(path.join(folder, 'big.md'), parts.join(''));
    fs.writeFileSync(path.join(folder, 'small.md'), '# 小文档\n\n普通的一段话。\n');
    const out = await invokeOperation(ctx, 'collections.import', { folder, name: 'big' });
    expect(out.documents).toBe(2);
    expect(out.chunks).toBeGreaterThan(1000);
    const ask = await invokeOperation(ctx, 'collections.ask', { collection: 'big', question: '设备巡检大全' });
    expect(ask.lock.title).toBe('设备巡检大全');
    expect(ask.answer!.length).toBeLessThan(ctx.config.collections.maxAnswerChars + 500);
    const follow = await invokeOperation(ctx, 'collections.ask', { collection: 'big', question: '避雷器计数器读数是多少', session_id: ask.session_id });
    expect(follow.answer).toContain('七十七');
  }, 120_000);

  it('rejects bad folders and names with errors naming the field', async () => {
    const { ctx, folder } = setup();
    await expect(invokeOperation(ctx, 'collections.import', { folder: path.join(folder, 'nope'), name: 'r' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('folder'),
    });
    await expect(invokeOperation(ctx, 'collections.import', { folder, name: 'a b' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('name') });
    await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    const other = tempDir('gridcode-other-');
    cleanups.push(() => fs.rmSync(other, { recursive: true, force: true }));
    fs.writeFileSync(path.join(other, 'a.md'), '# 另一个\n\n内容。\n');
    await expect(invokeOperation(ctx, 'collections.import', { folder: other, name: 'r' })).rejects.toMatchObject({ code: 'CONFLICT' });
    const empty = tempDir('gridcode-empty-');
    cleanups.push(() => fs.rmSync(empty, { recursive: true, force: true }));
    await expect(invokeOperation(ctx, 'collections.import', { folder: empty, name: 'e' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('没有可导入'),
    });
    expect((await invokeOperation(ctx, 'collections.list', {})).collections.map((c) => c.name)).toEqual(['r']);
  });

  it('lists and deletes a collection with its index and sessions', async () => {
    const { ctx, folder } = setup();
    await invokeOperation(ctx, 'collections.import', { folder, name: 'r' });
    await invokeOperation(ctx, 'collections.ask', { collection: 'r', question: '红烧肉怎么做' });
    const listed = await invokeOperation(ctx, 'collections.list', {});
    expect(listed.collections).toEqual([expect.objectContaining({ name: 'r', documents: 10, recipes: 9, sessions: 1 })]);
    const del = await invokeOperation(ctx, 'collections.delete', { name: 'r' });
    expect(del).toEqual({ collection: 'r', documents: 10 });
    expect(counts(ctx)).toEqual({ docs: 0, chunks: 0, items: 0 });
    expect((ctx.db.prepare('SELECT COUNT(*) AS n FROM coll_sessions').get() as { n: number }).n).toBe(0);
    await expect(invokeOperation(ctx, 'collections.delete', { name: 'r' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
