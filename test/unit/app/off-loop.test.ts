import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../../src/web/server';
import { tempDir } from '../../helpers';

let web: WebServer;
beforeAll(async () => {
  const staticDir = tempDir('gridcode-static-');
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  web = await startWebServer({ port: 0, dataDir: tempDir(), staticDir, skipStartup: true });
});
afterAll(async () => web?.close());

const headers = () => ({ 'X-GridCode-Token': web.token });
const invoke = async (name: string, input: unknown) =>
  (await (await fetch(new URL(`/api/invoke/${name}`, web.url), { method: 'POST', body: JSON.stringify(input), headers: headers() })).text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; data?: any; stage?: string; error?: { message: string } });

describe('imports run off the bridge loop', () => {
  it('other requests are answered while a large import runs in the runner process, and see its result', async () => {
    let md = '# 大型运行规程\n\n';
    for (let c = 1; c <= 200; c++) {
      md += `## 第${c}章 第${c}部分\n\n`;
      for (let a = 1; a <= 40; a++) md += `第${(c - 1) * 40 + a}条 运行人员应当按规定巡视${['母线', '变压器', '断路器', '隔离开关'][a % 4]}，发现异常及时报告值班负责人并做好记录，编号${c}-${a}。\n\n`;
    }
    const up = (await (await fetch(new URL('/api/upload?name=big.md', web.url), { method: 'POST', body: md, headers: headers() })).json()) as { path: string };
    let importDone = false;
    const started = performance.now();
    const importing = invoke('regulations.import', { paths: [up.path] }).then((lines) => {
      importDone = true;
      return lines;
    });
    // light requests one after another for as long as the import runs: the slowest of them is how
    // long the bridge stalled (on the loop, the parse and the transaction each stall it for seconds)
    const waits: number[] = [];
    while (!importDone) {
      const t = performance.now();
      const info = await invoke('app.info', {});
      if (info.at(-1)!.type === 'result') waits.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const lines = await importing;
    const importMs = performance.now() - started;
    console.log(`import ${importMs.toFixed(0)} ms, ${waits.length} light requests meanwhile, slowest ${Math.max(...waits).toFixed(0)} ms`);
    expect(waits.length).toBeGreaterThan(3);
    // relative, not a time limit: the slowest light request waited a small part of the import
    expect(Math.max(...waits)).toBeLessThan(importMs / 4);
    expect(lines.some((l) => l.type === 'progress')).toBe(true);
    const result = lines.at(-1)!;
    expect(result.type).toBe('result');
    expect(result.data[0]).toMatchObject({ status: 'imported', total_pages: expect.any(Number) });
    // the shell's own context sees what the runner wrote
    const list = (await invoke('regulations.list', {})).at(-1)!.data as { reg_id: string }[];
    expect(list.map((r) => r.reg_id)).toContain(result.data[0].reg_id);
    expect(web.uploads.pending()).toEqual([]);
  }, 120_000);

  it('a runner that dies mid-import (a file exhausting its memory) fails that import clearly; the shell and the next import go on', async () => {
    const md = '# 规程\n\n' + Array.from({ length: 3000 }, (_, i) => `第${i + 1}条 值班人员应当巡视设备并记录，编号${i}。`).join('\n\n');
    const up = (await (await fetch(new URL('/api/upload?name=dies.md', web.url), { method: 'POST', body: md, headers: headers() })).json()) as { path: string };
    const importing = invoke('regulations.import', { paths: [up.path] });
    while (web.runnerPid() === null) await new Promise((r) => setTimeout(r, 10));
    process.kill(web.runnerPid()!, 'SIGKILL');
    const out = (await importing).at(-1)!;
    expect(out.type).toBe('error');
    expect(out.error!.message).toMatch(/后台导入进程意外退出/);
    expect(web.uploads.pending()).toEqual([]);
    expect((await invoke('app.info', {})).at(-1)!.type).toBe('result');
    const up2 = (await (await fetch(new URL('/api/upload?name=after.md', web.url), { method: 'POST', body: '# 之后\n\n第一条 内容。\n', headers: headers() })).json()) as { path: string };
    expect((await invoke('regulations.import', { paths: [up2.path] })).at(-1)!.data[0].status).toBe('imported');
  }, 120_000);

  it('bad input still fails at once with the usual message (validated before the runner)', async () => {
    const out = await invoke('regulations.import', { paths: ['/etc/passwd'] });
    expect(out.at(-1)!.type).toBe('error');
    expect(out.at(-1)!.error!.message).toMatch(/不可访问/);
  });
});
