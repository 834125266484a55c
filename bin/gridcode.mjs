#!/usr/bin/env node
// Runs the compiled CLI (out/cli/gridcode.mjs, built by scripts/build-cli.mjs at `npm install` and
// `npm run build`) when it is present and no source is newer than it; otherwise runs the TypeScript
// sources through tsx, so `npx gridcode` works on a fresh clone and while editing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'out', 'cli', 'gridcode.mjs');

function compiledIsFresh() {
  if (process.env.GRIDCODE_FROM_SOURCE === '1') return false;
  try {
    const { built_at: builtAt, inputs } = JSON.parse(fs.readFileSync(path.join(root, 'out', 'cli', 'inputs.json'), 'utf8'));
    for (const file of inputs) if (fs.statSync(path.join(root, file)).mtimeMs > builtAt) return false;
    return fs.existsSync(compiled);
  } catch {
    return false; // not built, or a source was removed
  }
}

if (compiledIsFresh()) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'src', 'cli', 'entry.ts')).href);
}
