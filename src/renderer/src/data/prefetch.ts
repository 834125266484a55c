/**
 * Calls the first screen needs, sent before React loads: the entry module is tiny and starts
 * them, so the server answers while the browser is still compiling React (first paint waits for
 * max(script, data) instead of script + data). Each answer is handed out once, to the first
 * screen that asks; later reads go to the API as usual.
 */
import { api, type ApiInput, type ApiName, type ApiOutput, type CallOptions } from '../api/client';

const early = new Map<ApiName, Promise<unknown>>();

function prefetch<N extends ApiName>(name: N, input: ApiInput<N>, options?: CallOptions): void {
  const p = api(name, input, options);
  // nobody may ever take it (the user navigates away first): never an unhandled rejection
  p.catch(() => {});
  early.set(name, p);
}

/** The prefetched answer for `name`, once; undefined when none is waiting. */
export function takePrefetched<N extends ApiName>(name: N): Promise<ApiOutput<N>> | undefined {
  const p = early.get(name);
  early.delete(name);
  return p as Promise<ApiOutput<N>> | undefined;
}

/** What the screen at `hash` reads first (the app info for the sidebar, plus its own list). */
export function prefetchForRoute(hash: string): void {
  // the same time limit as the shell's own call, so a dead backend shows its retry
  prefetch('app.info', {}, { timeoutMs: 15_000 });
  const screen = hash.replace(/^#\/?/, '').split(/[/?]/)[0] || 'library';
  if (screen === 'library') prefetch('regulations.list', {});
}
