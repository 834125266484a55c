import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../src/web/server';
import { loadApiTable } from '../../../src/core/api/table';
import { pathFieldsOf, stringFieldsOf } from '../../../src/core/common/file-access';
import { tempDir } from '../../helpers';
import { RawMcp } from '../../fixtures/raw-mcp';

const SECRET = 'TOP-SECRET-LINE-42';
/** Input field names that name a file or folder (an operation added later with such a field must declare it with pathArg). */
const PATH_LIKE = /(^|\.)(paths?|files?(\[\]\.path)?|folder|dir|devices|cases|source|target|output)(\[\])?$/;

describe('every path-like argument of every operation is declared (and so confined)', () => {
  it('no operation input has an undeclared path-like string field', async () => {
    const undeclared: string[] = [];
    const declared: string[] = [];
    for (const [name, op] of Object.entries(await loadApiTable())) {
      const paths = pathFieldsOf(op.input);
      declared.push(...paths.map((p) => `${name}:${p}`));
      for (const field of stringFieldsOf(op.input)) if (PATH_LIKE.test(field) && !paths.includes(field)) undeclared.push(`${name}:${field}`);
    }
    expect(undeclared).toEqual([]);
    // the ones the attack found are among them
    expect(declared).toEqual(expect.arrayContaining(['regulations.import:paths[]', 'regulations.import_info:path', 'regulations.export_info:dir', 'collections.import:folder', 'collections.import_files:files[].path', 'devices.lint:devices', 'models.import:folder']));
  });
});

describe('the bridge confines paths to the data dir, uploads, resources and granted folders', () => {
  let web: WebServer;
  const outside = tempDir('gridcode-outside-');
  beforeAll(async () => {
    fs.writeFileSync(path.join(outside, 'info.json'), `${SECRET} not json`);
    fs.writeFileSync(path.join(outside, '规程.md'), `# 外部规程\n\n第一条 ${SECRET}\n`);
    const staticDir = tempDir('gridcode-static-');
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    web = await startWebServer({ port: 0, dataDir: tempDir(), staticDir, skipStartup: true });
  });
  afterAll(async () => {
    await web?.close();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  async function invoke(name: string, input: unknown): Promise<{ text: string; last: { type: string; data?: any; error?: { code: string; message: string } } }> {
    const res = await fetch(new URL(`/api/invoke/${name}`, web.url), { method: 'POST', body: JSON.stringify(input), headers: { 'X-GridCode-Token': web.token } });
    const text = await res.text();
    return { text, last: JSON.parse(text.trim().split('\n').at(-1)!) };
  }

  it.each([
    ['regulations.import_info', { path: '/etc/passwd' }],
    ['regulations.import_info', { path: path.join(outside, 'info.json') }],
    ['regulations.import', { paths: [path.join(outside, '规程.md')] }],
    ['regulations.import', { paths: ['/etc'] }],
    ['collections.import', { folder: '/etc', name: 'etc' }],
    ['collections.import', { folder: outside, name: 'outside' }],
    ['regulations.export_info', { dir: path.join(outside, 'exported') }],
    ['models.import', { folder: outside }],
  ])('%s %j is refused without reading, writing or quoting anything', async (name, input) => {
    const { text, last } = await invoke(name, input);
    expect(last.type).toBe('error');
    expect(last.error!.message).toMatch(/不可访问/);
    expect(text).not.toMatch(/root:|daemon:/);
    expect(text).not.toContain(SECRET);
    expect(fs.existsSync(path.join(outside, 'exported'))).toBe(false);
  });

  it('a relative path climbing out of the working folder is refused too, and a symlink in the data dir to outside', async () => {
    const climb = await invoke('regulations.import_info', { path: '../'.repeat(20) + 'etc/passwd' });
    expect(climb.last.error?.message).toMatch(/不可访问/);
    fs.symlinkSync(outside, path.join(web.ctx.dataDir, 'link-out'));
    const linked = await invoke('regulations.import', { paths: [path.join(web.ctx.dataDir, 'link-out', '规程.md')] });
    expect(linked.last.error?.message).toMatch(/不可访问/);
    expect(linked.text).not.toContain(SECRET);
  });

  it('inside the data dir the same operations work: export then import info.json', async () => {
    const up = await fetch(new URL('/api/upload?name=r.md', web.url), { method: 'POST', body: '# 安全规程\n\n第一条 为保证安全，制定本规程。\n', headers: { 'X-GridCode-Token': web.token } });
    const { path: uploaded } = (await up.json()) as { path: string };
    const imported = await invoke('regulations.import', { paths: [uploaded], id: 'anquan' });
    expect(imported.last.data[0].status).toBe('imported');
    const exported = await invoke('regulations.export_info', { dir: path.join(web.ctx.dataDir, 'exports', 'new-folder') });
    expect(exported.last.type).toBe('result');
    expect(exported.last.data.files[0]).toContain(path.join('exports', 'new-folder', 'anquan', 'info.json'));
    const back = await invoke('regulations.import_info', { path: path.join(web.ctx.dataDir, 'exports') });
    expect(back.last.data[0]).toMatchObject({ reg_id: 'anquan', status: 'updated' });
  });

  it('an info.json inside the data dir that is not JSON is reported without quoting it', async () => {
    fs.writeFileSync(path.join(web.ctx.dataDir, 'bad-info.json'), `${SECRET} not json`);
    const r = await invoke('regulations.import_info', { path: path.join(web.ctx.dataDir, 'bad-info.json') });
    expect(r.last.data[0]).toMatchObject({ status: 'failed' });
    expect(r.last.data[0].error).toMatch(/不是有效的 JSON/);
    expect(r.text).not.toContain(SECRET);
  });
});

describe('the CLI (a context without file access) stays free for its local user', () => {
  it('reads a file anywhere', async () => {
    const { tempContext } = await import('../../helpers');
    const { invokeOperation } = await import('../../../src/core/api/invoke');
    const ctx = tempContext();
    const outside = tempDir('gridcode-outside-');
    fs.writeFileSync(path.join(outside, 'info.json'), '{"reg_id": "missing-reg"}');
    try {
      const out = (await invokeOperation(ctx, 'regulations.import_info', { path: outside })) as { status: string; error?: string }[];
      expect(out[0].status).toBe('failed');
      expect(out[0].error).toMatch(/尚未导入/);
    } finally {
      await ctx.cleanup();
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('MCP confines the same way (one call path)', () => {
  it('a tool with a path outside is refused', async () => {
    const data = tempDir('gridcode-mcp-');
    const outside = tempDir('gridcode-outside-');
    fs.writeFileSync(path.join(outside, 'home.json'), `${SECRET}`);
    const mcp = RawMcp.spawn(['--data-dir', data]);
    try {
      await mcp.initialize();
      const r = await mcp.call(1, 'devices_lint', { devices: path.join(outside, 'home.json') });
      expect(r.result.isError).toBe(true);
      expect(r.result.content[0].text).toMatch(/不可访问/);
      expect(r.result.content[0].text).not.toContain(SECRET);
    } finally {
      mcp.close();
      fs.rmSync(data, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  }, 60_000);
});
