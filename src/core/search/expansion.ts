import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { EXPANSION_MAX_TERMS, tableExpander } from './learn';
import { corpusVersion, documentFrequencies } from './lexical';
import { ContextValue, KeyedCache } from '../common/cache';

interface LoadedExpansion {
  expand: (tokens: string[]) => string[];
  targets: string[];
}
/** The shipped table (null when absent or broken). */
const expansionTable = new ContextValue<LoadedExpansion | null>('search.expansion');
/** Whether the table applies to a corpus, per corpus, re-checked when the corpus changes. */
const expansionGates = new KeyedCache<{ version: number; on: boolean }>('search.expansion-gate');

/**
 * The shipped expansion table (scripts/learn-expansion.ts), loaded once per process. Words it
 * proposes that the library does not contain are ignored, so it is inert on unrelated corpora.
 * `corpus` only keys the cache: the vocabulary check is re-done when that corpus changes.
 */
export function shippedExpansion(ctx: AppContext, corpus: string): ((tokens: string[]) => string[]) | null {
  let loaded = expansionTable.get(ctx.state);
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
    expansionTable.set(ctx.state, loaded);
  }
  if (!loaded) return null;
  // the table applies only to libraries whose vocabulary it covers (laws), not to e.g. grid
  // regulations that share a few generic words with it; re-checked when the library changes
  const version = corpusVersion(ctx.db, corpus);
  const gates = expansionGates.in(ctx.state);
  let gate = gates.get(corpus);
  if (!gate || gate.version !== version) {
    const df = documentFrequencies(ctx.db, loaded.targets);
    const present = [...df.values()].filter((n) => n > 0).length;
    gate = { version, on: loaded.targets.length > 0 && present / loaded.targets.length >= ctx.config.search.expansionCoverage };
    gates.set(corpus, gate);
  }
  if (!gate.on) return null;
  return loaded.expand;
}

