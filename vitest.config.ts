import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Tests (and the CLI processes they spawn) see no bundled model unless they pass a models dir:
    // otherwise every import would embed with the shipped gridcode-zh-v1 and the suite would slow
    // down. test/unit/embed/shipped-model.test.ts uses the real models/ folder explicitly.
    env: { GRIDCODE_MODELS_DIR: path.join(path.dirname(fileURLToPath(import.meta.url)), 'test', 'fixtures', 'no-bundled-models') },
  },
});
