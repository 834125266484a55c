import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { hasShared, sharedPath, tempContext } from '../../helpers';

// The shared statute corpus (../shared/data/laws); skipped with a message when it is absent.
const available = hasShared('data', 'laws', '刑法');
type Ctx = ReturnType<typeof tempContext>;
let ctx: Ctx;

describe.skipIf(!available)('shared statutes (data/laws/刑法)', () => {
  beforeAll(() => {
    ctx = tempContext();
  });
  afterAll(async () => {
    await ctx?.cleanup();
  });

  it('imports the folder: titles from #, nested 编/章/节 TOC, every 第X条 line becomes an article', async () => {
    const dir = sharedPath('data', 'laws', '刑法');
    const results = await invokeOperation(ctx, 'regulations.import', { paths: [dir] });
    const mdFiles = fs.readdirSync(dir).filter((f) => f.endsWith('.md'));
    expect(results).toHaveLength(mdFiles.length);
    // _index.md holds only Hugo front matter: reported, not stored
    expect(results.filter((r) => r.status === 'failed').map((r) => path.basename(r.file))).toEqual(['_index.md']);

    const xingfa = results.find((r) => path.basename(r.file) === '刑法.md')!;
    expect(xingfa).toMatchObject({ reg_id: 'xingfa', title: '中华人民共和国刑法' });
    const source = fs.readFileSync(path.join(dir, '刑法.md'), 'utf8');
    const rawLabels = [...source.matchAll(/^第([零〇一二两三四五六七八九十百千]+)条(之[一二三四五六七八九十]+)?[\s\u3000]/gm)].map((m) => m[0].trim());
    const labels = (ctx.db.prepare("SELECT label FROM reg_units WHERE reg_id = 'xingfa' AND kind = 'article' ORDER BY ord").all() as { label: string }[]).map((u) => u.label);
    expect(labels).toEqual(rawLabels);
    expect(labels).toContain('第一百二十条之一');

    const art102 = ctx.db.prepare("SELECT section_path, text, page_num FROM reg_units WHERE reg_id = 'xingfa' AND label = '第一百零二条'").get() as {
      section_path: string;
      text: string;
      page_num: number;
    };
    expect(art102.section_path).toBe('第二编 分则 > 第一章 危害国家安全罪 > 第一百零二条');
    const page = await invokeOperation(ctx, 'regulations.read', { reg_id: 'xingfa', start: art102.page_num });
    // the whole article (all its paragraphs) is on the page where it starts
    for (const para of art102.text.split('\n')) expect(page.pages[0].text).toContain(para);
    expect(art102.text.split('\n').length).toBeGreaterThan(1);

    const toc = await invokeOperation(ctx, 'regulations.toc', { reg_id: 'xingfa' });
    const top = toc.toc.filter((t) => t.level === 1).map((t) => t.title);
    expect(top.slice(0, 2)).toEqual(['第一编 总则', '第二编 分则']);
    const chapter = toc.toc.find((t) => t.title.startsWith('第二章 犯罪'))!;
    expect(toc.toc.find((t) => t.id === chapter.parent_id)!.title).toBe('第一编 总则');
  });
});
