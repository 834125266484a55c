import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Node's ESM loader and Playwright's transform refuse a JSON import without its attribute (the e2e shell then cannot start). */
describe('JSON modules', () => {
  it('every import of a .json file in src/ says with { type: "json" }', () => {
    const root = path.resolve(__dirname, '../../../src');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|tsx|mts)$/.test(e.name)) {
          for (const line of fs.readFileSync(p, 'utf8').split('\n')) {
            if (/^\s*import\s[^;]*from\s+['"][^'"]+\.json['"]/.test(line) && !/with\s*\{\s*type:\s*['"]json['"]\s*\}/.test(line)) offenders.push(`${path.relative(root, p)}: ${line.trim()}`);
          }
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
