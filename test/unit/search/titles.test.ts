import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { hasShared, sharedPath, tempContext, tempDir } from '../../helpers';

// A document's own title wins over its file name; the parts of a multi-file code are titled
// "<code> · <part>" and found by either name.
describe('regulation titles', () => {
  const ctx = tempContext({ modelsDir: tempDir() });
  afterAll(() => ctx.cleanup());

  it('a code part file gets "<code> · <part>"; a single # heading is the title; the file name is the last resort', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, '合同编.md'), '# 中华人民共和国示范法典\n\n# 合同编\n\n<!-- INFO END -->\n\n## 第一章 通则\n\n第四百六十三条 本编调整因合同产生的民事关系。\n');
    fs.writeFileSync(path.join(dir, 'a.md'), '# 变电站运行规程\n\n第一条 为规范运行值班，制定本规程。\n');
    fs.writeFileSync(path.join(dir, '无标题文件.md'), '第一条 母线失压时立即汇报。\n');
    const res = await invokeOperation(ctx, 'regulations.import', { paths: [dir] });
    const title = (f: string) => res.find((r) => r.file.endsWith(f))!.title;
    expect(title('合同编.md')).toBe('中华人民共和国示范法典 · 合同编');
    expect(title('a.md')).toBe('变电站运行规程');
    expect(title('无标题文件.md')).toBe('无标题文件');
    const id = res.find((r) => r.file.endsWith('合同编.md'))!.reg_id!;
    const toc = await invokeOperation(ctx, 'regulations.toc', { reg_id: id });
    expect(toc.toc.map((t) => t.title)).not.toContain('合同编');
    // by the code's name (auto selection reads titles) and by an article reference with it
    const byCode = await invokeOperation(ctx, 'search.smart_search', { query: '示范法典第四百六十三条' });
    expect(byCode.results[0]).toMatchObject({ reg_id: id, article: '第四百六十三条' });
    expect(byCode.results[0].title).toContain('示范法典');
  });

  it.skipIf(!hasShared('data', 'laws', '民法典'))('Civil Code hits carry 民法典 in their title', async () => {
    const res = await invokeOperation(ctx, 'regulations.import', { paths: [sharedPath('data', 'laws', '民法典', '合同编.md'), sharedPath('data', 'laws', '民法典', '婚姻家庭编.md')] });
    expect(res.every((r) => r.status !== 'failed')).toBe(true);
    for (const r of res) expect(r.title).toMatch(/^中华人民共和国民法典 · /);
    const out = await invokeOperation(ctx, 'search.smart_search', { query: '借款合同的利息可以预先在本金中扣除吗', reg_id: 'all' });
    const civil = out.results.filter((r) => r.title.includes('合同编'));
    expect(civil.length).toBeGreaterThan(0);
    for (const r of civil) expect(r.title).toContain('民法典');
    const ref = await invokeOperation(ctx, 'search.smart_search', { query: '民法典第六百七十条' });
    expect(ref.results[0]).toMatchObject({ article: '第六百七十条', title: '中华人民共和国民法典 · 合同编' });
  }, 120_000);
});
