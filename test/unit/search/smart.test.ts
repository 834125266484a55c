import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { removeRegulationIndex } from '../../../src/core/regulations/search-index';
import { lexicalSearch } from '../../../src/core/search/lexical';
import { tempContext, tempDir } from '../../helpers';
import { ANGUI, DIAODU, WENGUI, insertRegulation } from './fixtures';

const ctx = tempContext({ modelsDir: tempDir() });
afterAll(() => ctx.cleanup());
beforeAll(() => {
  for (const r of [ANGUI, WENGUI, DIAODU]) insertRegulation(ctx.db, r);
});

const search = (input: Record<string, unknown>) => invokeOperation(ctx, 'search.smart_search', input as never);

describe('smart_search reg_id modes', () => {
  it('one id: only that regulation', async () => {
    const out = await search({ query: '稳定限额', reg_id: 'angui_2024' });
    expect(out.selected_regs).toEqual(['angui_2024']);
    expect(out.selection.mode).toBe('one');
    for (const r of out.results) expect(r.reg_id).toBe('angui_2024');
  });

  it('list of ids', async () => {
    const out = await search({ query: '值班调度员', reg_id: ['angui_2024', 'diaodu_2023'] });
    expect(out.selection.mode).toBe('list');
    expect(new Set(out.results.map((r) => r.reg_id))).toEqual(new Set(['angui_2024', 'diaodu_2023']));
  });

  it("'all' searches every regulation", async () => {
    const out = await search({ query: '值班调度员', reg_id: 'all' });
    expect(out.selected_regs.sort()).toEqual(['angui_2024', 'diaodu_2023', 'wengui_2024']);
    expect(new Set(out.results.map((r) => r.reg_id)).size).toBe(3);
  });

  it('null (auto) picks the regulation that clearly wins, and says why', async () => {
    const a = await search({ query: '母线失压', reg_id: null });
    expect(a.selection.mode).toBe('auto');
    expect(a.selected_regs).toEqual(['angui_2024']);
    expect(a.selection.summary).toContain('自动选择');
    expect(a.selection.reasons[0].why).toMatch(/标题、关键词或目录含有「.+」|出自本规程/);
    expect(a.results[0]).toMatchObject({ reg_id: 'angui_2024', article: '第九条' });

    const w = await search({ query: '特高压稳定限额' });
    expect(w.selected_regs).toEqual(['wengui_2024']);
    expect(w.results[0].reg_id).toBe('wengui_2024');
    expect(w.results[0].article).toBe('第六条');
  });

  it('auto falls back to all when evidence is spread or absent', async () => {
    const spread = await search({ query: '值班调度员' });
    expect(spread.selection.fallback_all).toBe(true);
    expect(spread.selected_regs.length).toBe(3);
    expect(spread.selection.summary).toMatch(/全部/);
    const none = await search({ query: '今天天气晴朗' });
    expect(none.selection.fallback_all).toBe(true);
    expect(none.results).toEqual([]);
    expect(none.decision.state).toBe('low_evidence');
    expect(none.decision.clarify).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('an empty library answers with a hint instead of failing', async () => {
    const empty = tempContext({ modelsDir: tempDir() });
    try {
      const out = await invokeOperation(empty, 'search.smart_search', { query: '母线失压' });
      expect(out.results).toEqual([]);
      expect(out.note).toMatch(/尚未导入任何规程/);
      expect(out.decision.state).toBe('low_evidence');
    } finally {
      await empty.cleanup();
    }
  });

  it('unknown reg_id is a clear Chinese error naming the field', async () => {
    await expect(search({ query: '母线', reg_id: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('reg_id') });
    await expect(search({ query: '   ' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('smart_search results', () => {
  it('carry reg_id, title, page, section, article, snippet with highlight offsets, score and reasons', async () => {
    const out = await search({ query: '500kV母线失压', reg_id: 'all', top_k: 3 });
    expect(out.mode).toBe('lexical');
    expect(out.lexical_only).toBe(true);
    expect(out.note).toMatch(/仅关键词/);
    const r = out.results[0];
    expect(r).toMatchObject({ reg_id: 'angui_2024', title: ANGUI.title, article: '第九条', section: '第三章 故障处理 > 第九条' });
    expect(r.page_num).toBeGreaterThanOrEqual(1);
    expect(r.reasons.lexical_rank).toBe(1);
    expect(r.reasons.vector_rank).toBeNull();
    expect(r.reasons.matched_terms).toEqual(expect.arrayContaining(['母线', '失压', '500kv']));
    const marked = r.highlights.map(([s, e]) => r.snippet.slice(s, e).toLowerCase());
    expect(marked).toEqual(expect.arrayContaining(['母线', '失压', '500kv']));
    expect(r.score).toBeGreaterThan(0);
    expect(out.results.length).toBeLessThanOrEqual(3);
  });

  it('decides locked for a precise question, ambiguous for near ties', async () => {
    const locked = await search({ query: '天中直流安控装置异常', reg_id: 'all' });
    expect(locked.decision.state).toBe('locked');
    expect(locked.results[0].article).toBe('第十条');
    expect(locked.decision.banner).toBeNull();
    // near ties from different regulations: actionable only when the scope was chosen automatically
    const amb = await search({ query: '制定本规定' });
    expect(amb.decision.state).toBe('ambiguous');
    expect(amb.decision.banner?.actions.map((a) => a.kind)).toEqual(expect.arrayContaining(['choose_reg']));
    expect(amb.decision.banner?.message).not.toMatch(/\d/);
    const explicit = await search({ query: '制定本规定', reg_id: 'all' });
    expect(explicit.decision.state).toBe('locked');
    expect(explicit.decision.banner).toBeNull();
  });

  it('hostile query text is searched as words', async () => {
    for (const q of ['"母线" AND(', '母线* NEAR(失压)', '-投退 OR', 'title:母线']) {
      const out = await search({ query: q, reg_id: 'all' });
      expect(out.results.length).toBeGreaterThan(0);
    }
  });

  it('removing a regulation index removes its hits', () => {
    ctx.db.transaction(() => removeRegulationIndex(ctx.db, 'diaodu_2023'))();
    expect(lexicalSearch(ctx.db, { corpus: 'reg', query: '调度指令', k: 10 }).hits.filter((h) => h.scope === 'diaodu_2023')).toEqual([]);
  });
});
