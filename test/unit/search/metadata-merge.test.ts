import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { resourcesDir } from '../../../src/core/common/paths';
import { mergeMetadata } from '../../../src/core/regulations/metadata-merge';
import { tempContext, tempDir } from '../../helpers';

const ready = fs.existsSync(path.join(resourcesDir(), 'regulations', 'angui_2024', 'info.json'));

describe('metadata merge rules', () => {
  const base = { description: '人写的简介', keywords: ['母线失压', '稳控系统'], scope: null, generated_keywords: [], generated_fields: [] as ('description' | 'scope')[] };
  it('generated keywords join curated ones, never replace them; a later enrich replaces only generated ones', () => {
    const once = mergeMetadata(base, { description: '生成的简介', keywords: ['装置', '母线失压', '压板'], scope: '生成的范围' }, 'auto');
    expect(once.keywords).toEqual(['母线失压', '稳控系统', '装置', '压板']);
    expect(once.generated_keywords).toEqual(['装置', '压板']);
    expect(once.description).toBe('人写的简介');
    expect(once.scope).toBe('生成的范围');
    const twice = mergeMetadata(once, { keywords: ['管理'], scope: '新的生成范围' }, 'llm');
    expect(twice.keywords).toEqual(['母线失压', '稳控系统', '管理']);
    expect(twice.scope).toBe('新的生成范围');
    // a person's edit makes what they keep curated
    const edited = mergeMetadata(twice, { keywords: ['母线失压', '管理'] }, 'manual');
    expect(edited.generated_keywords).toEqual([]);
    expect(mergeMetadata(edited, { keywords: ['别的'] }, 'auto').keywords).toEqual(['母线失压', '管理', '别的']);
  });
});

describe.skipIf(!ready)('offline enrich on the demo library', () => {
  const ctx = tempContext({ modelsDir: tempDir() });
  afterAll(() => ctx.cleanup());
  it('keeps info.json keywords (marked curated) and auto selection for 母线失压', async () => {
    await invokeOperation(ctx, 'regulations.demo_load', {});
    const before = await invokeOperation(ctx, 'regulations.get', { reg_id: 'angui_2024' });
    const [after] = await invokeOperation(ctx, 'regulations.enrich', { reg_id: 'angui_2024' });
    await invokeOperation(ctx, 'regulations.enrich', { reg_id: 'wengui_2024' });
    expect(after.keywords.slice(0, before.keywords.length)).toEqual(before.keywords);
    expect(after.keywords).toEqual(expect.arrayContaining(['母线失压', '稳控系统', '故障处理']));
    expect(after.generated_keywords.length).toBeGreaterThan(0);
    for (const k of before.keywords) expect(after.generated_keywords).not.toContain(k);
    expect(after.description).toBe(before.description);
    const out = await invokeOperation(ctx, 'search.smart_search', { query: '母线失压' });
    expect(out.selected_regs).toContain('angui_2024');
    expect(out.results[0].reg_id).toBe('angui_2024');
  });
});
