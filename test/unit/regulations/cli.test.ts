import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers';
import { lawMarkdown, writeFile } from './fixtures';

const cli = runCli;

let data: string;
let docs: string;
beforeAll(() => {
  data = tempDir('gridcode-cli-data-');
  docs = tempDir('gridcode-cli-docs-');
  writeFile(docs, '电力法.md', lawMarkdown('中华人民共和国电力法', 3, 8));
  writeFile(docs, 'sub/调度规程.txt', '调度规程\n第一章 总则\n第一条 为了规范调度，制定本规程。\n第二条 本规程适用于调度机构。');
  writeFile(docs, 'sub/bad.md', Buffer.from([0, 1, 2, 3, 0xff, 0xfe]));
});
afterAll(() => {
  fs.rmSync(data, { recursive: true, force: true });
  fs.rmSync(docs, { recursive: true, force: true });
});

describe('CLI contracts (--json)', () => {
  it('list on a fresh data dir is an empty array (the CLI never seeds demo content)', async () => {
    const r = await cli(['list', '--data-dir', data, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('import DIR imports recursively and reports per-file results; list/toc/read follow the contracts', async () => {
    const imp = await cli(['import', docs, '--data-dir', data, '--json']);
    expect(imp.code).toBe(0);
    const results = JSON.parse(imp.stdout) as { file: string; reg_id: string; status: string; error?: string }[];
    expect(results.map((r) => r.status).sort()).toEqual(['failed', 'imported', 'imported']);
    expect(results.find((r) => r.status === 'failed')!.error).toContain('bad.md');

    const list = JSON.parse((await cli(['list', '--data-dir', data, '--json'])).stdout) as Record<string, unknown>[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((r) => r.reg_id).sort()).toEqual(['dianlifa', 'diaoduguicheng']);
    for (const r of list) {
      for (const k of ['reg_id', 'title', 'source_file', 'total_pages', 'indexed_at', 'description', 'keywords', 'scope']) expect(r).toHaveProperty(k);
      expect(Array.isArray(r.keywords)).toBe(true);
    }

    const toc = JSON.parse((await cli(['toc', 'dianlifa', '--data-dir', data, '--json'])).stdout);
    expect(toc.toc.map((t: { title: string }) => t.title)).toEqual(['第一章 第1部分', '第二章 第2部分', '第三章 第3部分']);

    const read = JSON.parse((await cli(['read', 'dianlifa', '1', '2', '--data-dir', data, '--json'])).stdout);
    const total = list.find((r) => r.reg_id === 'dianlifa')!.total_pages as number;
    expect(read.pages.map((p: { page_num: number }) => p.page_num)).toEqual(total >= 2 ? [1, 2] : [1]);
    expect(read.pages[0].text).toContain('第一条');

    const past = await cli(['read', 'dianlifa', String(total + 5), '--data-dir', data, '--json']);
    expect(past.code).not.toBe(0);
    expect(JSON.parse(past.stdout).error.message).toContain(`共 ${total} 页`);

    const human = await cli(['list', '--data-dir', data]);
    expect(human.stdout).toContain('中华人民共和国电力法');
    expect(human.stdout).toMatch(/reg_id\s+标题/);

    const again = JSON.parse((await cli(['import', path.join(docs, '电力法.md'), '--data-dir', data, '--json'])).stdout);
    expect(again[0]).toMatchObject({ reg_id: 'dianlifa', status: 'unchanged' });

    const del = await cli(['delete', 'diaoduguicheng', '--data-dir', data, '--json']);
    expect(JSON.parse(del.stdout)).toEqual({ reg_id: 'diaoduguicheng', deleted: true });
    const show = await cli(['show', 'diaoduguicheng', '--data-dir', data, '--json']);
    expect(show.code).toBe(1);
    expect(JSON.parse(show.stdout).error.code).toBe('NOT_FOUND');
  }, 180_000); // many CLI processes in a row: slow on a loaded 2-core machine

  it('a single bad file fails with a non-zero exit code; --id is validated', async () => {
    const bad = await cli(['import', path.join(docs, 'sub', 'bad.md'), '--data-dir', data, '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)[0].status).toBe('failed');
    const id = await cli(['import', path.join(docs, '电力法.md'), '--id', '../x', '--data-dir', data, '--json']);
    expect(id.code).toBe(2);
    expect(JSON.parse(id.stdout).error.code).toBe('INVALID_INPUT');
  });
});
