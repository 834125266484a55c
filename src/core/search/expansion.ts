import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { EXPANSION_MAX_TERMS, tableExpander } from './learn';
import { corpusVersion, documentFrequencies } from './lexical';

/**
 * The shipped expansion table (scripts/learn-expansion.ts), loaded once per process. Words it
 * proposes that the library does not contain are ignored, so it is inert on unrelated corpora.
 * `corpus` only keys the cache: the vocabulary check is re-done when that corpus changes.
 */
export function shippedExpansion(ctx: AppContext, corpus: string): ((tokens: string[]) => string[]) | null {
  const key = 'search:expansion';
  let loaded = ctx.cache.get(key) as { expand: (tokens: string[]) => string[]; targets: string[] } | null | undefined;
  if (loaded === undefined) {
    loaded = null;
    const file = path.join(ctx.resourcesDir, 'search', 'expansion.json');
    try {
      if (fs.existsSync(file)) {
        const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { table: Record<string, [string, number][]>; max_terms?: number };
        const targets = [...new Set(Object.values(data.table).flatMap((row) => row.map(([v]) => v)))];
        loaded = { expand: tableExpander(data.table, data.max_terms ?? EXPANSION_MAX_TERMS), targets };
      }
    } catch {
      loaded = null; // a broken resource must not break search
    }
    ctx.cache.set(key, loaded);
  }
  if (!loaded) return null;
  // the table applies only to libraries whose vocabulary it covers (laws), not to e.g. grid
  // regulations that share a few generic words with it; re-checked when the library changes
  const version = corpusVersion(ctx.db, corpus);
  const gateKey = `search:expansion:gate:${corpus}`;
  let gate = ctx.cache.get(gateKey) as { version: number; on: boolean } | undefined;
  if (!gate || gate.version !== version) {
    const df = documentFrequencies(ctx.db, loaded.targets);
    const present = [...df.values()].filter((n) => n > 0).length;
    gate = { version, on: loaded.targets.length > 0 && present / loaded.targets.length >= ctx.config.search.expansionCoverage };
    ctx.cache.set(gateKey, gate);
  }
  if (!gate.on) return null;
  return loaded.expand;
}

