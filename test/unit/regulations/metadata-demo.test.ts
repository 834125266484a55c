import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { seedDemoLibrary } from '../../../src/core/regulations/demo';
import { tempContext, tempDir } from '../../helpers';

type Ctx = ReturnType<typeof tempContext>;
let ctx: Ctx;
let out: string;
beforeAll(async () => {
  ctx = tempContext();
  out = tempDir('gridcode-info-');
  await seedDemoLibrary(ctx);
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(out, { recursive: true, force: true });
});

describe('demo library', () => {
  it('seeds the three demo regulations once; the two dispatch rules >= 30 pages with chapters, articles and tables', async () => {
    const list = await invokeOperation(ctx, 'regulations.list', {});
    expect(list.map((r) => r.reg_id).sort()).toEqual(['angui_2024', 'biandian_2024', 'wengui_2024']);
    for (const r of list) {
      expect(r.is_demo).toBe(true);
      expect(r.title).toContain('演示');
    }
    for (const r of list.filter((x) => x.reg_id !== 'biandian_2024')) {
      expect(r.is_demo).toBe(true);
      expect(r.title).toContain('演示');
      expect(r.total_pages).toBeGreaterThanOrEqual(30);
      expect(r.keywords.length).toBeGreaterThanOrEqual(5);
      const toc = await invokeOperation(ctx, 'regulations.toc', { reg_id: r.reg_id });
      expect(toc.toc.filter((t) => /^第.+章/.test(t.title)).length).toBeGreaterThanOrEqual(7);
      expect(toc.toc.some((t) => t.title.startsWith('附录'))).toBe(true);
    }
    const angui = list.find((r) => r.reg_id === 'angui_2024')!;
    expect(angui.format).toBe('pdf');
    const labels = (ctx.db.prepare("SELECT label FROM reg_units WHERE reg_id = 'angui_2024' AND kind = 'article'").all() as { label: string }[]).map((u) => u.label);
    expect(labels).toContain('第三十二条');
    const busLoss = ctx.db.prepare("SELECT text FROM reg_units WHERE reg_id = 'angui_2024' AND label = '第三十二条'").get() as { text: string };
    expect(busLoss.text).toContain('母线失压');
    expect(busLoss.text).toContain('（四）');
    const wengui = ctx.db.prepare("SELECT text FROM reg_units WHERE reg_id = 'wengui_2024' AND label = '第十条之一'").get() as { text: string };
    expect(wengui.text).toContain('换相失败');

    // a user-deleted demo does not come back on the next start
    expect(await seedDemoLibrary(ctx)).toEqual([]);
    await invokeOperation(ctx, 'regulations.delete', { reg_id: 'wengui_2024' });
    await seedDemoLibrary(ctx);
    expect((await invokeOperation(ctx, 'regulations.list', {})).map((r) => r.reg_id).sort()).toEqual(['angui_2024', 'biandian_2024']);
    // explicit load brings it back
    const loaded = await invokeOperation(ctx, 'regulations.demo_load', {});
    expect(loaded.map((r) => r.status).sort()).toEqual(['imported', 'unchanged', 'unchanged']);
  });
});

describe('metadata', () => {
  it('enrich derives description from the purpose article, scope from the scope article, 5-8 keywords', async () => {
    // generated metadata only fills what is not curated: clear the info.json profile first
    await invokeOperation(ctx, 'regulations.update_info', { reg_id: 'angui_2024', description: null, keywords: [], scope: null });
    const [info] = await invokeOperation(ctx, 'regulations.enrich', { reg_id: 'angui_2024' });
    expect(info.description).toContain('加强安全自动装置调度运行管理');
    expect([...(info.description ?? '')].length).toBeLessThanOrEqual(50);
    expect(info.scope).toMatch(/^适用于.*安控装置/);
    expect(info.keywords.length).toBeGreaterThanOrEqual(5);
    expect(info.keywords.length).toBeLessThanOrEqual(8);
    expect(info.keywords).toContain('安控装置');
    expect(info.generated_keywords).toEqual(info.keywords);
    // with curated keywords (wengui's info.json) they stay first and unmarked
    const curated = (await invokeOperation(ctx, 'regulations.get', { reg_id: 'wengui_2024' })).keywords;
    const [w] = await invokeOperation(ctx, 'regulations.enrich', { reg_id: 'wengui_2024' });
    expect(w.keywords.slice(0, curated.length)).toEqual(curated);
    expect(w.keywords).toEqual(expect.arrayContaining(['特高压', '稳定限额']));
    for (const k of curated) expect(w.generated_keywords).not.toContain(k);
    await expect(invokeOperation(ctx, 'regulations.enrich', {})).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('exports and imports info.json (seed 002 §1.5 shape) through update_info', async () => {
    const { files } = await invokeOperation(ctx, 'regulations.export_info', { dir: out });
    expect(files.map((f) => path.relative(out, f)).sort()).toEqual(['angui_2024/info.json', 'biandian_2024/info.json', 'wengui_2024/info.json']);
    const json = JSON.parse(fs.readFileSync(path.join(out, 'angui_2024', 'info.json'), 'utf8'));
    expect(Object.keys(json).sort()).toEqual(['description', 'indexed_at', 'keywords', 'reg_id', 'scope', 'source_file', 'title', 'total_pages']);
    json.keywords = ['压板投退', '故障处理', '母线失压', '稳控系统', '安控装置'];
    json.scope = '适用于安控装置相关问题';
    fs.writeFileSync(path.join(out, 'angui_2024', 'info.json'), JSON.stringify(json));
    fs.writeFileSync(path.join(out, 'wengui_2024', 'info.json'), JSON.stringify({ reg_id: 'wengui_2024', keywords: 'not-an-array' }));
    const results = await invokeOperation(ctx, 'regulations.import_info', { path: out });
    expect(results.find((r) => r.file.includes('angui'))).toMatchObject({ status: 'updated', reg_id: 'angui_2024' });
    expect(results.find((r) => r.file.includes('wengui'))).toMatchObject({ status: 'failed', error: expect.stringContaining('keywords') });
    const info = await invokeOperation(ctx, 'regulations.get', { reg_id: 'angui_2024' });
    expect(info.keywords).toEqual(json.keywords);
    expect(info.scope).toBe('适用于安控装置相关问题');
  });
});
