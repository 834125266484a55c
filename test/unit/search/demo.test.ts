import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { resourcesDir } from '../../../src/core/common/paths';
import { shippedExpansion } from '../../../src/core/search/expansion';
import { shippedKnownQuestions } from '../../../src/core/regulations/known-questions';
import { REG_CORPUS } from '../../../src/core/regulations/search-index';
import { tempContext, tempDir } from '../../helpers';

// The bundled demo regulations, imported through the real importer (regulations.demo_load).
const demo = (id: string, file: string) => path.join(resourcesDir(), 'regulations', id, file);
const ready = fs.existsSync(demo('angui_2024', 'angui_2024.pdf')) && fs.existsSync(demo('wengui_2024', 'wengui_2024.md'));
if (!ready) console.warn('[skip] demo regulations not found in resources/regulations');

describe.skipIf(!ready)('demo regulations through the real importer', () => {
  const ctx = tempContext({ modelsDir: tempDir() });
  afterAll(() => ctx.cleanup());

  it('母线失压 lands in angui_2024 and 特高压稳定限额 in wengui_2024 (auto selection)', async () => {
    const res = await invokeOperation(ctx, 'regulations.demo_load', {});
    expect(res.every((r) => r.status !== 'failed')).toBe(true);

    const a = await invokeOperation(ctx, 'search.smart_search', { query: '母线失压' });
    expect(a.selected_regs).toContain('angui_2024');
    expect(a.results.length).toBeGreaterThan(0);
    expect(a.results[0].reg_id).toBe('angui_2024');
    expect(a.results[0].reasons.matched_terms).toEqual(expect.arrayContaining(['母线', '失压']));

    const w = await invokeOperation(ctx, 'search.smart_search', { query: '特高压稳定限额' });
    expect(w.selected_regs).toContain('wengui_2024');
    expect(w.results[0].reg_id).toBe('wengui_2024');

    // the shipped law-question expansion table stays off on a grid library (vocabulary not covered)
    expect(shippedExpansion(ctx, REG_CORPUS)).toBeNull();
    // and so do the shipped known law questions (their articles are not in this library)
    expect(shippedKnownQuestions(ctx)).toBeNull();

    // explicit single regulation stays inside it
    const only = await invokeOperation(ctx, 'search.smart_search', { query: '天中直流安控', reg_id: 'angui_2024' });
    for (const r of only.results) expect(r.reg_id).toBe('angui_2024');
  });
});
