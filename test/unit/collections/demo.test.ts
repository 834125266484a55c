/**
 * The demo recipe collection seeded on the app's first start (resources/collections/demo.json): imported once,
 * listed with the questions it offers; the dish questions lock their recipe and the one about a dish the
 * collection does not hold locks none.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { demoCollections, seedDemoCollections } from '../../../src/core/collections/demo';
import { tempContext } from '../../helpers';

const ctx = tempContext();
afterAll(() => ctx.cleanup());

describe('demo recipe collection', () => {
  it('is seeded once with its example questions; a deleted demo does not come back', async () => {
    const [demo] = demoCollections(ctx);
    expect(demo.name).toBe('示例菜谱');
    expect(await seedDemoCollections(ctx)).toEqual([demo.name]);
    const listed = (await invokeOperation(ctx, 'collections.list', {})).collections;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: '示例菜谱', profile: 'recipes', example_questions: demo.questions });
    expect(listed[0].documents).toBeGreaterThanOrEqual(10);

    for (const [q, dish] of [['红烧肉怎么做', '红烧肉'], ['宫保鸡丁要多久', '宫保鸡丁'], ['麻婆豆腐需要哪些调料', '麻婆豆腐']]) {
      const out = await invokeOperation(ctx, 'collections.ask', { collection: demo.name, question: q });
      expect(out.lock, q).toMatchObject({ state: 'locked', title: dish });
    }
    const missing = demo.questions.at(-1)!;
    expect(missing).toBe('佛跳墙怎么做');
    const out = await invokeOperation(ctx, 'collections.ask', { collection: demo.name, question: missing });
    expect(out.lock.state).not.toBe('locked');

    await invokeOperation(ctx, 'collections.delete', { name: demo.name });
    expect(await seedDemoCollections(ctx)).toEqual([]);
    expect((await invokeOperation(ctx, 'collections.list', {})).collections).toEqual([]);
  });
});
