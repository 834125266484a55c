import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers';

const root = path.resolve(__dirname, '../../..');
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise');
const config = path.join(root, '.dependency-cruiser.cjs');

function cruise(cwd: string): { status: number | null; out: string } {
  const r = spawnSync(depcruise, ['src', '--config', config, '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

function plant(files: Record<string, string>): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', strict: true } }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('layering check (.dependency-cruiser.cjs, run by npm test as the "layers" suite)', () => {
  it('passes a tree laid out as docs/architecture.md says', () => {
    const dir = plant({
      'src/core/common/operation.ts': "import type { AppContext } from '../context';\nexport type Run = { ctx: AppContext };\n",
      'src/core/context.ts': "import { openDatabase } from './store/db';\nimport { migrations } from './schema';\nexport interface AppContext { db: unknown }\nexport const open = () => openDatabase(migrations);\n",
      'src/core/schema.ts': "export const migrations: string[] = [];\n",
      'src/core/store/db.ts': 'export function openDatabase(m: string[]) { return m; }\n',
      'src/core/llm/agent.ts': "import type { Run } from '../common/operation';\nexport const agent = (r: Run) => r;\n",
      'src/core/api/table.ts': "import { agent } from '../llm/agent';\nexport const table = { agent };\n",
      'src/renderer/App.tsx': "import type { Run } from '../core/common/operation';\nexport type R = Run;\n",
    });
    const r = cruise(dir);
    expect(r.out).not.toMatch(/error/);
    expect(r.status).toBe(0);
  });

  it('fails on a cycle, an engine importing the API table, store importing an engine, core importing electron, renderer value imports', () => {
    const dir = plant({
      'src/core/api/table.ts': "import { agent } from '../llm/agent';\nexport const table = { agent };\n",
      'src/core/llm/agent.ts': "import { table } from '../api/table';\nexport const agent = () => table;\n",
      'src/core/store/db.ts': "import { regs } from '../regulations/schema';\nexport const db = regs;\n",
      'src/core/regulations/schema.ts': 'export const regs = 1;\n',
      'src/core/embed/api.ts': "import { info } from '../app/api';\nexport const e = info;\n",
      'src/core/app/api.ts': 'export const info = 1;\n',
      'src/core/main-ish.ts': "import { app } from 'electron';\nexport const a = app;\n",
      'src/renderer/App.tsx': "import { regs } from '../core/regulations/schema';\nexport const r = regs;\n",
    });
    const r = cruise(dir);
    expect(r.status).not.toBe(0);
    for (const rule of ['no-cycles', 'engines-below-api-table', 'store-knows-no-engine', 'embed-not-app', 'core-never-electron', 'renderer-imports-core-types-only']) {
      expect(r.out, rule).toContain(rule);
    }
  });
});
