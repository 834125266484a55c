import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers';
import { RawMcp } from '../../fixtures/raw-mcp';

let mcp: RawMcp;
let data: string;
let outside: string;
let granted: string;
const SECRET = 'TOP-SECRET-LINE-42';

beforeAll(async () => {
  data = tempDir('gridcode-mcp-attack-');
  outside = tempDir('gridcode-outside-');
  granted = tempDir('gridcode-granted-');
  fs.writeFileSync(path.join(outside, 'secret.json'), `${SECRET} not json`);
  fs.writeFileSync(path.join(outside, 'secret.yaml'), `cases:\n  - ${SECRET}: [\n`);
  fs.writeFileSync(path.join(granted, 'broken.json'), `{"devices": [${SECRET}`);
  mcp = RawMcp.spawn(['--data-dir', data, '--allow-path', granted]);
  const init = await mcp.initialize();
  expect(init.result.serverInfo.name).toBe('gridcode');
}, 90_000);

afterAll(() => {
  mcp?.close();
  for (const d of [data, outside, granted]) fs.rmSync(d, { recursive: true, force: true });
});

describe('MCP server under attack', () => {
  it('answers a malformed line with -32700 and a non-JSON-RPC value with -32600, then keeps serving', async () => {
    mcp.write('{this is not json\n');
    expect(await mcp.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    mcp.write('{"hello": "world", "id": 7}\n');
    expect(await mcp.next()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
    mcp.write('[1,2,3]\n');
    expect((await mcp.next()).error.code).toBe(-32600);
    const list = await mcp.call(1, 'list_regulations', {});
    expect(list.id).toBe(1);
    expect(list.result).toBeDefined();
  });

  it('survives a message over 10 MB with an error, logs to stderr, and keeps serving', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 0x61);
    mcp.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"'), big, Buffer.from('"}}\n')]));
    const err = await mcp.next();
    expect(err.error.code).toBe(-32600);
    expect(mcp.exitCode).toBeNull();
    const ok = await mcp.call(2, 'list_regulations', {});
    expect(ok.id).toBe(2);
    expect(mcp.stderr.join('')).toMatch(/消息过大/);
  }, 60_000);

  it('reads no file outside the data dir / resources / granted folders, and says the same whether it exists or not', async () => {
    const existing = await mcp.call(3, 'devices_lint', { devices: path.join(outside, 'secret.json') });
    const missing = await mcp.call(4, 'devices_lint', { devices: path.join(outside, 'nope.json') });
    const system = await mcp.call(5, 'devices_retrieve', { utterance: '开灯', devices: '/etc/passwd' });
    for (const r of [existing, missing, system]) {
      expect(r.result.isError).toBe(true);
      const text = r.result.content[0].text as string;
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('root:');
      expect(text).toMatch(/不可访问/);
    }
    expect(existing.result.content[0].text.replace(/secret|nope/g, '')).toBe(missing.result.content[0].text.replace(/secret|nope/g, ''));
    // a symlink inside a granted folder pointing outside is still outside
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(granted, 'link.json'));
    const linked = await mcp.call(6, 'devices_lint', { devices: path.join(granted, 'link.json') });
    expect(linked.result.content[0].text).toMatch(/不可访问/);
  });

  it('a granted file that is broken gets a clean error without quoting its content', async () => {
    const r = await mcp.call(8, 'devices_lint', { devices: path.join(granted, 'broken.json') });
    const text = r.result.content[0].text as string;
    expect(r.result.isError).toBe(true);
    expect(text).toMatch(/不是有效的 JSON/);
    expect(text).not.toContain(SECRET);
  });

  it('wrong-type arguments answer readable Chinese and English, not raw zod issue JSON', async () => {
    const r = await mcp.call(10, 'read_page_range', { reg_id: 42, start: '一' });
    expect(r.result.isError).toBe(true);
    const text = r.result.content[0].text as string;
    const { error } = JSON.parse(text) as { error: { code: string; message: string; message_en: string; details?: unknown } };
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(/reg_id.*期望 string/);
    expect(error.message_en).toMatch(/reg_id: Invalid input: expected string, received number/);
    expect(error.details).toBeUndefined();
    expect(text).not.toMatch(/"expected":|"code": "invalid_type"|Input validation error/);
    const unknown = await mcp.call(11, 'no_such_tool', {});
    expect(unknown.result.isError).toBe(true);
    expect(unknown.result.content[0].text).toMatch(/没有这个工具/);
  });
});
