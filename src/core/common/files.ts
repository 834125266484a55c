import fs from 'node:fs';
import path from 'node:path';

/**
 * Files under `root` whose extension is in `extensions` (lower-case, with dot), recursively and
 * sorted by name so imports are deterministic. Hidden files and folders are skipped.
 */
export function listFilesRecursive(root: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && extensions.includes(path.extname(e.name).toLowerCase())) out.push(full);
    }
  };
  walk(root);
  return out;
}
