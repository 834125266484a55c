/**
 * `npm run bench [-- name...]` runs every bench/*.bench.ts (or the named ones). Each module's
 * default export prints its own numbers and target ratios; one failing bench does not stop the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== bench: ${f.replace('.bench.ts', '')} ===`);
  try {
    const mod = (await import(pathToFileURL(path.join(here, f)).href)) as { default: () => Promise<void> };
    await mod.default();
  } catch (e) {
    failed++;
    console.error(`bench ${f} failed:`, e);
  }
}
process.exit(failed ? 1 : 0);
