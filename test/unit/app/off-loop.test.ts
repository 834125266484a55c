import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../src/web/server';
import { tempDir } from '../../helpers';
import { testModelsDir } from '../../fixtures/model';

/**
 * Issue 28: imports run in the bridge's operation thread (src/web/off-loop.ts), so a cheap request
 * is answered while a heavy import runs. Asserted by order, not by time: the cheap request is sent
 * once the import has shown progress (it is inside its parse / transaction) and must answer before
 * the import does. On the event loop (offLoop: false) the import's synchronous transaction holds
 * the loop until it ends, and the cheap request answers after it.
 */

let web: WebServer;
const headers = () => ({ 'X-GridCode-Token': web.token });
type Line = { type: string; data?: any; stage?: string; error?: { code: string; message: string } };

beforeAll(async () => {
  const staticDir = tempDir('gridcode-static-');
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  // no embedding model: the vectors are not what is measured here
  process.env.GRIDCODE_MODELS_DIR = tempDir('gridcode-no-models-');
  // a cancelled job's thread is ended at once (by default it has 3 s to notice), so the cancel below lands mid-transaction
  web = await startWebServer({ port: 0, dataDir: tempDir(), staticDir, skipStartup: true, offLoop: { cancelGraceMs: 0 } });
});
afterAll(async () => {
  await web?.close();
  delete process.env.GRIDCODE_MODELS_DIR;
});

function bigMarkdown(articles: number, tag: string): string {
  let md = `# ${tag}运行规程\n\n`;
  for (let a = 1; a <= articles; a++) {
    if (a % 40 === 1) md += `## 第${Math.ceil(a / 40)}章 第${Math.ceil(a / 40)}部分\n\n`;
    md += `第${a}条 运行人员应当按规定巡视${['母线', '变压器', '断路器', '隔离开关'][a % 4]}，发现异常及时报告值班负责人并做好记录，编号${tag}-${a}。\n\n`;
  }
  return md;
}

async function upload(name: string, body: string): Promise<string> {
  const res = await fetch(new URL(`/api/upload?name=${encodeURIComponent(name)}`, web.url), { method: 'POST', body, headers: headers() });
  return ((await res.json()) as { path: string }).path;
}

async function invoke(name: string, input: unknown): Promise<Line[]> {
  const res = await fetch(new URL(`/api/invoke/${name}`, web.url), { method: 'POST', body: JSON.stringify(input), headers: headers() });
  return (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

/** Starts an operation and streams its lines; `firstProgress` resolves at its first progress line. */
function streamInvoke(name: string, input: unknown, signal?: AbortSignal) {
  let seen!: () => void;
  const firstProgress = new Promise<void>((r) => (seen = r));
  const lines: Line[] = [];
  const done = (async () => {
    const res = await fetch(new URL(`/api/invoke/${name}`, web.url), { method: 'POST', body: JSON.stringify(input), headers: headers(), signal });
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = JSON.parse(buf.slice(0, nl)) as Line;
        buf = buf.slice(nl + 1);
        lines.push(line);
        if (line.type === 'progress') seen();
      }
    }
    seen();
    return lines;
  })();
  return { firstProgress, done };
}

describe('imports run off the bridge loop', () => {
  it('a cheap request sent while a large import writes answers before the import does; the import is complete and seen by the shell', async () => {
    const file = await upload('大型规程.md', bigMarkdown(1500, '甲'));
    const order: string[] = [];
    const importing = streamInvoke('regulations.import', { paths: [file] });
    const finished = importing.done.then((lines) => {
      order.push('import');
      return lines;
    });
    await importing.firstProgress;
    const info = await invoke('app.info', {});
    order.push('app.info');
    const lines = await finished;
    expect(info.at(-1)!.type).toBe('result');
    expect(order).toEqual(['app.info', 'import']);
    // progress streamed from the thread, then the usual result
    expect(lines.filter((l) => l.type === 'progress').length).toBeGreaterThan(0);
    const result = lines.at(-1)!;
    expect(result.type).toBe('result');
    expect(result.data[0]).toMatchObject({ status: 'imported', reg_id: expect.any(String), total_pages: expect.any(Number) });
    // the shell's own context (another connection) sees what the thread wrote, and searches it
    const list = (await invoke('regulations.list', {})).at(-1)!.data as { reg_id: string; total_pages: number }[];
    expect(list.find((r) => r.reg_id === result.data[0].reg_id)?.total_pages).toBe(result.data[0].total_pages);
    const hits = (await invoke('search.smart_search', { query: '编号甲-1499' })).at(-1)!;
    expect(JSON.stringify(hits.data)).toContain('甲-1499');
    expect(web.uploads.pending()).toEqual([]);
  }, 120_000);

  it('collections (uploaded folder) import in the thread too; bad input still fails at once with the usual message', async () => {
    const files = [];
    for (let i = 0; i < 6; i++) files.push({ path: await upload(`菜${i}.md`, `# 红烧菜${i}\n\n## 步骤\n\n将第${i}号菜切块，下锅翻炒。\n`), rel_path: `菜谱/菜${i}.md` });
    const out = (await invoke('collections.import_files', { name: 'caipu', files })).at(-1)!;
    expect(out.type).toBe('result');
    expect(out.data).toMatchObject({ collection: 'caipu', documents: 6, added: 6 });
    const list = ((await invoke('collections.list', {})).at(-1)!.data as { collections: { name: string }[] }).collections;
    expect(list.map((c) => c.name)).toContain('caipu');
    expect(web.uploads.pending()).toEqual([]);
    const outside = (await invoke('regulations.import', { paths: ['/etc/passwd'] })).at(-1)!;
    expect(outside.type).toBe('error');
    expect(outside.error!.message).toMatch(/不可访问/);
  }, 60_000);

  it('cancelling mid-transaction ends the thread: nothing half-imported, the upload removed, the database writable, the next import runs', async () => {
    const file = await upload('取消规程.md', bigMarkdown(1500, '乙'));
    const abort = new AbortController();
    const importing = streamInvoke('regulations.import', { paths: [file] }, abort.signal);
    await importing.firstProgress;
    abort.abort();
    await importing.done.catch(() => {});
    // the thread notices at its next check or is ended; either way the job leaves
    for (let i = 0; i < 200 && web.offLoop!.busy(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(web.offLoop!.busy()).toBe(0);
    const db = new Database(path.join(web.ctx.dataDir, 'gridcode.sqlite'), { readonly: true });
    const regs = db.prepare("SELECT reg_id, total_pages, (SELECT COUNT(*) FROM reg_pages p WHERE p.reg_id = r.reg_id) AS pages FROM regulations r WHERE title LIKE '乙%'").all() as { total_pages: number; pages: number }[];
    db.close();
    // the first progress line comes from inside the file's transaction: ended there, nothing of it is kept
    expect(regs).toEqual([]);
    expect(web.uploads.pending()).toEqual([]);
    const next = await upload('之后.md', '# 之后的规程\n\n第一条 内容。\n');
    const after = (await invoke('regulations.import', { paths: [next] })).at(-1)!;
    expect(after.data?.[0]?.status).toBe('imported');
    const update = (await invoke('regulations.update_info', { reg_id: after.data[0].reg_id, keywords: ['巡视'] })).at(-1)!;
    expect(update.type).toBe('result');
  }, 120_000);

  it('a thread that dies mid-import fails that import in Chinese; the shell answers and the next import starts a fresh thread', async () => {
    const file = await upload('中断规程.md', bigMarkdown(1500, '丙'));
    const importing = streamInvoke('regulations.import', { paths: [file] });
    await importing.firstProgress;
    await web.offLoop!.worker()!.terminate();
    const last = (await importing.done).at(-1)!;
    expect(last.type).toBe('error');
    expect(last.error!.message).toMatch(/后台导入线程意外结束/);
    expect(last.error!.message).not.toMatch(/[A-Za-z]{12,}/);
    expect(web.uploads.pending()).toEqual([]);
    expect((await invoke('app.info', {})).at(-1)!.type).toBe('result');
    const next = await upload('再来.md', '# 再来的规程\n\n第一条 内容。\n');
    expect((await invoke('regulations.import', { paths: [next] })).at(-1)!.data[0].status).toBe('imported');
  }, 120_000);
});

describe('the import thread embeds through the process ONNX thread (relay)', () => {
  it('an import through the bridge with a model leaves no chunk without a vector', async () => {
    const staticDir = tempDir('gridcode-static-');
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const saved = process.env.GRIDCODE_MODELS_DIR;
    process.env.GRIDCODE_MODELS_DIR = testModelsDir();
    const shell = await startWebServer({ port: 0, dataDir: tempDir(), staticDir, skipStartup: true });
    process.env.GRIDCODE_MODELS_DIR = saved;
    try {
      const call = async (name: string, input: unknown) =>
        JSON.parse((await (await fetch(new URL(`/api/invoke/${name}`, shell.url), { method: 'POST', body: JSON.stringify(input), headers: { 'X-GridCode-Token': shell.token } })).text()).trim().split('\n').at(-1)!) as Line;
      const up = (await (await fetch(new URL('/api/upload?name=guicheng.md', shell.url), { method: 'POST', body: bigMarkdown(60, '丁'), headers: { 'X-GridCode-Token': shell.token } })).json()) as { path: string };
      const out = await call('regulations.import', { paths: [up.path] });
      expect(out.data[0]).toMatchObject({ status: 'imported' });
      expect(out.data[0].warning).toBeUndefined();
      const status = (await call('models.status', {})).data as { state: string; vectors: { items: number; missing: number } };
      expect(status.state).toBe('ready');
      expect(status.vectors.items).toBeGreaterThan(0);
      expect(status.vectors.missing).toBe(0);
    } finally {
      await shell.close();
    }
  }, 120_000);
});
