import { describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { REG_CORPUS } from '../../../src/core/regulations/search-index';
import { loadMatrix } from '../../../src/core/search/vector-index';
import { TEST_MODEL_DIMS } from '../../fixtures/model';
import { ANGUI, WENGUI, hybridLibrary } from './fixtures';

// The generated test model (random weights, real ONNX + tokenizer): checks the hybrid mechanics, not quality.
const ctx = hybridLibrary();

describe('hybrid search with an installed model', () => {
  it('stores one vector per unit chunk and loads them as one matrix', () => {
    expect(ctx.embedder().available()).toBe(true);
    const modelId = ctx.embedder().status().model_id!;
    const m = loadMatrix(ctx.db, ctx.state, REG_CORPUS, modelId)!;
    expect(m.dims).toBe(TEST_MODEL_DIMS);
    expect(m.ids.length).toBe(ANGUI.units.length + WENGUI.units.length);
  });

  it('fuses lexical and vector ranks (hybrid) and can run vector-only', async () => {
    const h = await invokeOperation(ctx, 'search.smart_search', { query: '母线失压', reg_id: 'all', top_k: 8 });
    expect(h.mode).toBe('hybrid');
    expect(h.lexical_only).toBe(false);
    const top = h.results.find((r) => r.article === '第九条' && r.reg_id === 'angui_2024')!;
    expect(top.reasons.lexical_rank).toBe(1);
    expect(top.reasons.vector_rank).not.toBeNull();
    expect(h.results.some((r) => r.reasons.lexical_rank === null && r.reasons.vector_rank !== null)).toBe(true);
    const v = await invokeOperation(ctx, 'search.smart_search', { query: '母线失压', reg_id: 'all', mode: 'vector', top_k: 8 });
    expect(v.mode).toBe('vector');
    expect(v.results.length).toBe(8);
    for (const r of v.results) expect(r.reasons.lexical_rank).toBeNull();
  });
});

describe('metadata edits', () => {
  it('refresh the selection profile without rebuilding unit chunks or dropping their vectors', async () => {
    const modelId = ctx.embedder().status().model_id!;
    const itemIds = () =>
      (ctx.db.prepare("SELECT id FROM search_items WHERE corpus = ? AND scope = 'wengui_2024' ORDER BY id").all(REG_CORPUS) as { id: number }[]).map((r) => r.id);
    const vectorCount = () =>
      (ctx.db.prepare('SELECT COUNT(*) AS n FROM search_vectors WHERE model_id = ?').get(modelId) as { n: number }).n;
    const before = { ids: itemIds(), vectors: vectorCount() };
    await invokeOperation(ctx, 'regulations.update_info', { reg_id: 'wengui_2024', keywords: ['换流站', '特高压', '稳定限额', '无功电压', '断面'] });
    expect(itemIds()).toEqual(before.ids);
    expect(vectorCount()).toBe(before.vectors);
    // the new keyword reaches smart selection through the profile index
    const auto = await invokeOperation(ctx, 'search.smart_search', { query: '换流站', reg_id: null });
    expect(auto.selection.reasons.map((r: { reg_id: string }) => r.reg_id)).toContain('wengui_2024');
  });
});
