import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editionsMigrations } from '../../../src/core/editions/schema';
import { DB_FILE_NAME } from '../../../src/core/store/db';
import { runCli, tempDir } from '../../helpers';
import { generateEditions } from '../../fixtures/edition-pair';

/** The issue-25 contracts as agents and scripts see them: the real CLI binary and the stdio MCP server. */
const root = path.resolve(__dirname, '../../..');
const bin = path.join(root, 'bin', 'gridcode.mjs');

const cli = (args: string[]) => runCli([...args, '--data-dir', data]);

let data: string;
let docs: string;
const g = generateEditions(30, 5);
beforeAll(() => {
  data = tempDir('gridcode-editions-cli-');
  docs = tempDir('gridcode-editions-docs-');
  fs.writeFileSync(path.join(docs, '运行规程(2018-05-01).md'), g.oldText);
  fs.writeFileSync(path.join(docs, '运行规程(2023-05-01).md'), g.newText);
});
afterAll(() => {
  fs.rmSync(data, { recursive: true, force: true });
  fs.rmSync(docs, { recursive: true, force: true });
});

describe('editions contracts', () => {
  it('gridcode import → versions --json → diff --json; bad ids fail in Chinese; MCP list_editions / compare_editions', async () => {
    const imp = await cli(['import', docs, '--json']);
    expect(imp.code).toBe(0);
    const [a, b] = (JSON.parse(imp.stdout) as { reg_id: string; edition?: { edition_of: string } }[]).sort((x, y) => x.reg_id.localeCompare(y.reg_id));
    expect(b.edition?.edition_of).toBe(a.reg_id);

    const versions = JSON.parse((await cli(['versions', a.reg_id, '--json'])).stdout) as { editions: { reg_id: string; title: string; effective_date: string; in_force: boolean }[] };
    expect(versions.editions.map((e) => ({ reg_id: e.reg_id, effective_date: e.effective_date, in_force: e.in_force }))).toEqual([
      { reg_id: a.reg_id, effective_date: '2018-05-01', in_force: false },
      { reg_id: b.reg_id, effective_date: '2023-05-01', in_force: true },
    ]);
    expect(versions.editions[0].title).toBe('电网调度运行规程（生成）');

    const diffRun = await cli(['diff', a.reg_id, b.reg_id, '--json']);
    expect(diffRun.code).toBe(0);
    const diff = JSON.parse(diffRun.stdout) as {
      old: { reg_id: string; title: string };
      new: { reg_id: string; title: string };
      summary: Record<'same' | 'moved' | 'modified' | 'added' | 'deleted', number>;
      pairs: { change: string; old: { article: string; text: string } | null; new: { article: string; text: string } | null }[];
    };
    expect(diff.old).toMatchObject({ reg_id: a.reg_id, title: '电网调度运行规程（生成）' });
    expect(diff.new.reg_id).toBe(b.reg_id);
    for (const p of diff.pairs) {
      expect(['same', 'moved', 'modified', 'added', 'deleted']).toContain(p.change);
      if (p.change === 'added') expect(p.old).toBeNull();
      if (p.change === 'deleted') expect(p.new).toBeNull();
    }
    const olds = diff.pairs.flatMap((p) => (p.old ? [p.old.article] : []));
    const news = diff.pairs.flatMap((p) => (p.new ? [p.new.article] : []));
    expect(olds).toHaveLength(30);
    expect(new Set(olds).size).toBe(30);
    expect(new Set(news).size).toBe(news.length);
    expect(news).toHaveLength(g.truth.size + g.added.size);
    for (const k of Object.keys(diff.summary) as (keyof typeof diff.summary)[]) expect(diff.summary[k]).toBe(diff.pairs.filter((p) => p.change === k).length);

    const self = JSON.parse((await cli(['diff', a.reg_id, a.reg_id, '--json'])).stdout) as typeof diff;
    expect(self.summary).toEqual({ same: 30, moved: 0, modified: 0, added: 0, deleted: 0 });

    const missing = await cli(['diff', a.reg_id, 'no-such-reg', '--json']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('未找到规程「no-such-reg」');

    // agents: the same operations over MCP
    const client = new Client({ name: 'gridcode-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: 'node', args: [bin, 'mcp', '--data-dir', data], cwd: root, stderr: 'pipe' }));
    try {
      const text = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text);
      const listed = text(await client.callTool({ name: 'list_editions', arguments: {} }));
      expect(listed.families).toHaveLength(1);
      const one = text(await client.callTool({ name: 'compare_editions', arguments: { reg_id: b.reg_id } }));
      expect(one.old.reg_id).toBe(a.reg_id);
      expect(one.summary).toEqual(diff.summary);
      const modified = diff.pairs.find((p) => p.change === 'modified')!;
      const art = text(await client.callTool({ name: 'compare_editions', arguments: { reg_id: b.reg_id, article: modified.new!.article } }));
      expect(art.history.map((h: { reg_id: string }) => h.reg_id)).toEqual([a.reg_id, b.reg_id]);
      expect(art.pairs.some((p: { change: string }) => p.change === 'modified')).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('gridcode editions group: lists editions imported before editions existed, joins them with --yes', async () => {
    // the data dir as the editions migration leaves a library that predates it
    const db = new Database(path.join(data, DB_FILE_NAME));
    try {
      db.exec('DROP TABLE reg_editions');
      editionsMigrations[0].up(db);
    } finally {
      db.close();
    }
    const versions = await cli(['versions']);
    expect(versions.stdout).toContain('另有 1 组同名规程尚未归为版本');
    const dry = await cli(['editions', 'group']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('电网调度运行规程（生成）（2 个版本，同名）');
    expect(dry.stdout).toContain('gridcode editions group --yes');
    const done = await cli(['editions', 'group', '--yes', '--json']);
    const out = JSON.parse(done.stdout) as { applied: boolean; groups: { editions: { effective_date: string; in_force: boolean }[] }[] };
    expect(out.applied).toBe(true);
    expect(out.groups[0].editions.map((e) => [e.effective_date, e.in_force])).toEqual([
      ['2018-05-01', false],
      ['2023-05-01', true],
    ]);
    expect((await cli(['editions', 'group'])).stdout).toContain('没有待归并的版本');
    const bad = await cli(['editions', 'group', '--keep-apart']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--keep-apart 需与 --yes 一起使用');
  }, 120_000);
});
