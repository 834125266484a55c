import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded on first use instead of at start-up: the CLI answers `gridcode info` without
 * parsing pinyin tables, YAML or OpenCC dictionaries it does not need (the compiled CLI keeps
 * such packages in node_modules; see scripts/build-cli.mjs).
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
