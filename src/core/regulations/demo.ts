import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import type { OperationRun } from '../common/operation';
import { getSetting, setSetting } from '../store/db';
import { importPaths, type ImportFileResult } from './importer';
import { applyInfoFile } from './metadata';

/** Demo regulations shipped in resources/regulations/<reg_id>/ (document + info.json), written by us. */
export const DEMO_REGULATIONS = [
  { reg_id: 'angui_2024', file: 'angui_2024.pdf' },
  { reg_id: 'wengui_2024', file: 'wengui_2024.md' },
  { reg_id: 'biandian_2024', file: 'biandian_2024.docx' },
];

const SEEDED_KEY = 'regulations.demo_seeded';

export function demoDir(ctx: AppContext): string {
  return path.join(ctx.resourcesDir, 'regulations');
}

/** Imports the demo regulations (explicit: `gridcode demo load`, or first app start via seedDemoLibrary). */
export async function loadDemoRegulations(ctx: AppContext, run: Partial<Pick<OperationRun, 'progress' | 'signal'>> = {}): Promise<ImportFileResult[]> {
  const results: ImportFileResult[] = [];
  for (const demo of DEMO_REGULATIONS) {
    const file = path.join(demoDir(ctx), demo.reg_id, demo.file);
    if (!fs.existsSync(file)) {
      results.push({ file, reg_id: demo.reg_id, status: 'failed', error: `演示文件「${file}」不存在`, error_code: 'NOT_FOUND' });
      continue;
    }
    const [res] = await importPaths(ctx, [file], { id: demo.reg_id, isDemo: true }, {
      progress: run.progress ?? (() => {}),
      signal: run.signal ?? new AbortController().signal,
    });
    const info = path.join(path.dirname(file), 'info.json');
    if (res.status !== 'failed' && fs.existsSync(info)) applyInfoFile(ctx, info, demo.reg_id);
    results.push(res);
  }
  return results;
}

/**
 * App shells (web server, Electron main) call this at start: the library gets the demo regulations
 * once; a user who deletes them does not see them come back.
 */
export async function seedDemoLibrary(ctx: AppContext): Promise<ImportFileResult[]> {
  if (getSetting<boolean>(ctx.db, SEEDED_KEY)) return [];
  const results = await loadDemoRegulations(ctx);
  if (results.some((r) => r.status !== 'failed')) setSetting(ctx.db, SEEDED_KEY, true);
  return results;
}
