import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '../../../src/core/context';
import { projectRoot } from '../../../src/core/common/paths';
import { tempDir } from '../../helpers';
import { ANGUI, DIAODU, WENGUI, insertRegulation } from './fixtures';

const dataDir = tempDir();
const bin = path.join(projectRoot(), 'bin', 'gridcode.mjs');
const cli = (...args: string[]) =>
  execFileSync(process.execPath, [bin, '--data-dir', dataDir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GRIDCODE_MODELS_DIR: tempDir() },
  });

beforeAll(async () => {
  const ctx = createAppContext({ dataDir });
  for (const r of [ANGUI, WENGUI, DIAODU]) insertRegulation(ctx.db, r);
  await ctx.close();
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('gridcode search', () => {
  it('--json prints the contract shape', () => {
    const out = JSON.parse(cli('--json', 'search', '母线失压', '-k', '2'));
    expect(out).toMatchObject({ query: '母线失压', mode: 'lexical', selected_regs: ['angui_2024'], decision: { state: expect.any(String) } });
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.length).toBeLessThanOrEqual(2);
    expect(Object.keys(out.results[0])).toEqual(
      expect.arrayContaining(['reg_id', 'title', 'page_num', 'section', 'article', 'snippet', 'highlights', 'score', 'reasons']),
    );
    expect(Object.keys(out.results[0].reasons)).toEqual(expect.arrayContaining(['lexical_rank', 'vector_rank', 'matched_terms']));
  });

  it('-r twice and --all; human output groups by regulation', () => {
    const two = JSON.parse(cli('search', '值班调度员', '-r', 'angui_2024', '-r', 'diaodu_2023', '--json'));
    expect(two.selected_regs).toEqual(['angui_2024', 'diaodu_2023']);
    const human = cli('search', '值班调度员', '--all');
    expect(human).toContain('■ 2024年国调直调安全自动装置调度运行管理规定（angui_2024）');
    expect(human).toContain('■ 电网调度管理条例实施办法（diaodu_2023）');
    expect(human).toMatch(/仅关键词/);
  });

  it('--batch reads one query per line and writes one JSON object per line', () => {
    const file = path.join(dataDir, 'queries.txt');
    fs.writeFileSync(file, '母线失压\n\n特高压稳定限额\n"AND( *\n');
    const lines = cli('search', '--batch', file).trim().split('\n');
    expect(lines).toHaveLength(3);
    const objs = lines.map((l) => JSON.parse(l));
    expect(objs[0].results[0].reg_id).toBe('angui_2024');
    expect(objs[1].results[0].reg_id).toBe('wengui_2024');
    expect(objs[2].query).toBe('"AND( *');
  });
});
