/**
 * `npm run eval -- <name>` runs eval/<name>.eval.ts (all when no name). Each prints its metrics.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const wanted = args.filter((a) => !a.startsWith('-'));
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.eval.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace('.eval.ts', '')))
  .sort();
if (files.length === 0) {
  console.error(`no evaluation named ${wanted.join(', ')}`);
  process.exit(2);
}
for (const f of files) {
  console.log(`\n=== eval: ${f.replace('.eval.ts', '')} ===`);
  const mod = (await import(pathToFileURL(path.join(here, f)).href)) as { default: (args: string[]) => Promise<void> };
  await mod.default(args);
}
