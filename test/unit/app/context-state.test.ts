import { afterEach, describe, expect, it } from 'vitest';
import { ContextState, ContextValue, KeyedCache } from '../../../src/core/common/cache';
import { configureLlm, currentLlmSettings, resolveLlmSettings } from '../../../src/core/llm/client';
import { tempContext } from '../../helpers';

const contexts: ReturnType<typeof tempContext>[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.cleanup();
});

describe('typed per-context state', () => {
  it('keeps each slot per context: one context never sees another context’s values', () => {
    const a = new ContextState();
    const b = new ContextState();
    const value = new ContextValue<{ n: number }>('test.value');
    const keyed = new KeyedCache<number[]>('test.keyed');
    value.set(a, { n: 1 });
    keyed.in(a).set('x', [1, 2]);
    expect(value.get(a)).toEqual({ n: 1 });
    expect(value.get(b)).toBeUndefined();
    expect(keyed.in(a).get('x')).toEqual([1, 2]);
    expect(keyed.in(b).size).toBe(0);
    expect(keyed.in(a)).toBe(keyed.in(a));
  });

  it('holds LLM settings per app context (a key set in one context is not sent from another)', () => {
    const one = tempContext();
    const two = tempContext();
    contexts.push(one, two);
    configureLlm(one, { apiKey: 'sk-test-one', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(currentLlmSettings(one).apiKey).toBe('sk-test-one');
    expect(resolveLlmSettings(one)).toMatchObject({ apiKey: 'sk-test-one', keySource: 'app', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(currentLlmSettings(two).apiKey).toBeUndefined();
    expect(resolveLlmSettings(two).keySource).not.toBe('app');
  });
});
