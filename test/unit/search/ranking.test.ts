import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { resourcesDir } from '../../../src/core/common/paths';
import { tempContext, tempDir } from '../../helpers';

// Issue #13 on the real demo library (imported through the real importer) plus a short imported
// regulation whose only matching article is about 母线失压, and a statute with article labels.
const demo = (id: string, file: string) => path.join(resourcesDir(), 'regulations', id, file);
const ready = fs.existsSync(demo('angui_2024', 'angui_2024.pdf')) && fs.existsSync(demo('wengui_2024', 'wengui_2024.md'));
if (!ready) console.warn('[skip] demo regulations not found in resources/regulations');

describe.skipIf(!ready)('regulation-aware ranking', () => {
  const ctx = tempContext({ modelsDir: tempDir() });
  let shortId = '';
  let lawId = '';
  afterAll(() => ctx.cleanup());
  beforeAll(async () => {
    await invokeOperation(ctx, 'regulations.demo_load', {});
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, '变电站运行规程.md'),
      '# 某变电站运行规程\n\n## 第一章 总则\n\n第一条 为规范本站运行值班工作，制定本规程。\n\n第二条 本规程适用于本站运行值班人员。\n\n' +
        '第三条 母线失压时，值班人员应立即检查母线保护及失灵保护动作情况，断开失压母线上全部断路器，并向值班调度员汇报。\n\n第四条 交接班时应核对设备运行方式。\n',
    );
    fs.writeFileSync(
      path.join(dir, '电力设施保护条例.md'),
      '# 电力设施保护条例\n\n第一条 为保障电力生产和建设的顺利进行，特制定本条例。\n\n第十条 电力线路保护区：架空电力线路保护区，导线边线向外侧水平延伸的区域。\n\n' +
        '第十二条 任何单位或个人在电力设施周围进行爆破作业，必须确保电力设施的安全。\n\n第四十二条 本条例第十二条的规定同样适用于在建电力设施。\n',
    );
    const res = await invokeOperation(ctx, 'regulations.import', { paths: [dir] });
    shortId = res.find((r) => r.file.includes('变电站'))!.reg_id!;
    lawId = res.find((r) => r.file.includes('保护条例'))!.reg_id!;
  }, 120_000);

  it('a short regulation’s only matching article is in the top 10 with --all; ledger rows fold into one hit', async () => {
    const out = await invokeOperation(ctx, 'search.smart_search', { query: '母线失压', reg_id: 'all', top_k: 10 });
    const ids = out.results.map((r) => `${r.reg_id}:${r.article}`);
    expect(ids).toContain(`${shortId}:第三条`);
    // provisions first: the two articles about 母线失压 outrank every ledger row
    expect(out.results.slice(0, 2).every((r) => r.shape === 'provision')).toBe(true);
    const ledger = out.results.filter((r) => r.section.includes('附录D'));
    expect(ledger.length).toBe(1);
    expect(ledger[0].shape).toBe('row');
    expect(ledger[0].similar.count).toBeGreaterThanOrEqual(5);
    expect(out.groups.map((g) => g.reg_id)).toEqual(expect.arrayContaining(['angui_2024', shortId]));
  });

  it('a query about a ledger (dates, 动作记录) keeps its rows on top', async () => {
    const out = await invokeOperation(ctx, 'search.smart_search', { query: '2023年母线失压动作记录', reg_id: 'angui_2024', top_k: 5 });
    expect(out.results[0].shape).toBe('row');
  });

  it('the cross-regulation question draws on both demo regulations (auto and --all) and says why', async () => {
    for (const reg_id of [null, 'all'] as const) {
      const out = await invokeOperation(ctx, 'search.smart_search', { query: '天中直流的稳定限额和安控措施', reg_id, top_k: 10 });
      const regs = new Set(out.results.map((r) => r.reg_id));
      expect(regs.has('angui_2024') && regs.has('wengui_2024')).toBe(true);
      if (reg_id === null) {
        expect(out.selected_regs).toEqual(expect.arrayContaining(['angui_2024', 'wengui_2024']));
        expect(out.selection.reasons.find((r) => r.reg_id === 'angui_2024')?.why).toMatch(/安控/);
      }
    }
  });

  it('an article reference lands on that article first, highlighted whole', async () => {
    const out = await invokeOperation(ctx, 'search.smart_search', { query: '电力设施保护条例第十条' });
    // an article carries the form statutes cite it in
    expect(out.results[0].citation).toBe(`${out.results[0].title}第十条`);
    expect(out.results[0]).toMatchObject({ reg_id: lawId, article: '第十条' });
    expect(out.results[0].reasons.article_ref).toBe(true);
    expect(out.decision.state).toBe('locked');
    const twelve = await invokeOperation(ctx, 'search.smart_search', { query: '第十二条', reg_id: lawId });
    expect(twelve.results[0].article).toBe('第十二条');
    for (const r of twelve.results) {
      for (const [s, e] of r.highlights) {
        const before = r.snippet[s - 1] ?? '';
        expect(before).not.toMatch(/[一二三四五六七八九十百千第]/);
        expect(r.snippet.slice(s, e)).not.toBe('十二条');
      }
    }
    const arabic = await invokeOperation(ctx, 'search.smart_search', { query: '保护条例第12条', reg_id: 'all' });
    expect(arabic.results[0]).toMatchObject({ reg_id: lawId, article: '第十二条' });
  });

  it('pages with offset: the second page continues the first', async () => {
    const first = await invokeOperation(ctx, 'search.smart_search', { query: '安控装置', reg_id: 'angui_2024', top_k: 5 });
    const second = await invokeOperation(ctx, 'search.smart_search', { query: '安控装置', reg_id: 'angui_2024', top_k: 5, offset: 5 });
    const both = await invokeOperation(ctx, 'search.smart_search', { query: '安控装置', reg_id: 'angui_2024', top_k: 10 });
    expect(first.has_more).toBe(true);
    expect([...first.results, ...second.results].map((r) => r.unit_id)).toEqual(both.results.map((r) => r.unit_id));
    expect(second.offset).toBe(5);
  });
});

describe('statute consensus', () => {
  // pure re-ordering: the regulation holding most of the top evidence lifts its hits
  it('lifts a hit of the statute most top hits come from over a lone hit of another', async () => {
    const { boostByStatuteConsensus } = await import('../../../src/core/regulations/search');
    const hits = [
      { id: 'lone', reg_id: '刑法', score: 0.9 },
      { id: 'a', reg_id: '劳动合同法', score: 0.88 },
      { id: 'b', reg_id: '劳动合同法', score: 0.7 },
      { id: 'c', reg_id: '劳动合同法', score: 0.6 },
    ];
    boostByStatuteConsensus(hits, 0.2, 15);
    expect(hits.map((h) => h.id)).toEqual(['a', 'lone', 'b', 'c']);
    // the strongest statute's hits keep their scores; nothing exceeds the old maximum
    expect(hits[0].score).toBeCloseTo(0.88, 6);
    expect(Math.max(...hits.map((h) => h.score))).toBeLessThanOrEqual(0.9);
  });

  it('changes nothing when off or when every hit is from one regulation', async () => {
    const { boostByStatuteConsensus } = await import('../../../src/core/regulations/search');
    const one = [
      { reg_id: 'x', score: 0.5 },
      { reg_id: 'x', score: 0.4 },
    ];
    boostByStatuteConsensus(one, 0.2, 15);
    expect(one.map((h) => h.score)).toEqual([0.5, 0.4]);
    const off = [
      { reg_id: 'x', score: 0.5 },
      { reg_id: 'y', score: 0.45 },
      { reg_id: 'y', score: 0.4 },
    ];
    boostByStatuteConsensus(off, 0, 15);
    expect(off.map((h) => h.reg_id)).toEqual(['x', 'y', 'y']);
  });
});

describe('local regulations yield to national law', () => {
  it('reads the place of a local regulation, none of a national law or a company rule', async () => {
    const { localPlaceOf } = await import('../../../src/core/regulations/search');
    expect(localPlaceOf('广东省家政服务条例')).toBe('广东');
    expect(localPlaceOf('深圳经济特区绿色建筑条例')).toBe('深圳');
    expect(localPlaceOf('洛阳市城市房地产市场管理条例(2019-01-01)')).toBe('洛阳');
    expect(localPlaceOf('中华人民共和国民法典')).toBeNull();
    expect(localPlaceOf('物业管理条例')).toBeNull();
    expect(localPlaceOf('河南省电力公司调度规程')).toBeNull();
  });

  it('moves a local hit below national ones unless the question names its place', async () => {
    const { yieldLocalToNational } = await import('../../../src/core/regulations/search');
    const hits = () => [
      { id: 'local', title: '山东省物业管理条例', score: 0.8 },
      { id: 'national', title: '物业管理条例', score: 0.6 },
    ];
    const asked = hits();
    yieldLocalToNational(asked, '物业公司不管小区安全怎么办', 0.5);
    expect(asked.map((h) => h.id)).toEqual(['national', 'local']);
    const named = hits();
    yieldLocalToNational(named, '山东的物业公司不管小区安全怎么办', 0.5);
    expect(named.map((h) => h.id)).toEqual(['local', 'national']);
  });
});
