import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { summarizeForPrompt } from '../../../src/core/devices/injection';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
import { tempDir } from '../../helpers';

/** Names a YAML 1.1 reader (PyYAML, many agent stacks) would turn into booleans, null or numbers when plain. */
const TRICKY = ['on', 'off', 'yes', 'no', 'y', 'n', 'Y', 'NO', 'On', 'true', 'False', '~', 'null', '12:30', '1_000', '0x1F', '010', '.inf', '1e3'];

describe('injected YAML reads back as strings in YAML 1.1 and 1.2 readers', () => {
  const home = normalizeHome(
    TRICKY.map((name, i) => ({ id: `d${i}`, name, room: TRICKY[(i + 3) % TRICKY.length], type: 'light', commands: [{ id: 'on', description: 'yes' }] })),
  ).home;
  const yaml = summarizeForPrompt(home.devices);

  it.each(['1.1', '1.2'] as const)('YAML %s: every name, room and command stays the string it was', (version) => {
    const parsed = parseYaml(yaml, { version }) as { devices: { id: string; name: unknown; room: unknown; commands: { id: unknown; description: unknown }[] }[] };
    expect(parsed.devices.map((d) => d.name)).toEqual(TRICKY);
    expect(parsed.devices.map((d) => d.room)).toEqual(TRICKY.map((_, i) => TRICKY[(i + 3) % TRICKY.length]));
    for (const d of parsed.devices) expect(d.commands[0]).toEqual({ id: 'on', description: 'yes' });
  });

  it('ordinary Chinese names stay unquoted (the seed shape is unchanged)', () => {
    const plain = summarizeForPrompt(normalizeHome([{ id: 'lamp-1', name: '老伙计', room: '客厅', type: 'smartthings:switch', commands: [] }]).home.devices);
    expect(plain).toContain('name: 老伙计\n');
    expect(plain).toContain('room: 客厅\n');
  });
});

describe('a home file that is not UTF-8', () => {
  it('is refused with a clear Chinese error instead of U+FFFD names', () => {
    const dir = tempDir();
    const file = path.join(dir, 'gbk-home.json');
    // "客厅灯" in GBK: valid JSON bytes around it, invalid UTF-8 inside the string
    const gbk = Buffer.from([0xbf, 0xcd, 0xcc, 0xfc, 0xb5, 0xc6]);
    fs.writeFileSync(file, Buffer.concat([Buffer.from('[{"id":"l1","name":"'), gbk, Buffer.from('","room":"x","type":"light"}]')]));
    expect(() => loadHomeFile(file)).toThrow(/不是 UTF-8 编码/);
    // the same file in UTF-8 loads
    fs.writeFileSync(file, '\ufeff[{"id":"l1","name":"客厅灯","room":"客厅","type":"light"}]');
    expect(loadHomeFile(file).home.devices[0].name).toBe('客厅灯');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a broken JSON home names the line, never quotes the content', () => {
    const dir = tempDir();
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '[{"id":"l1",\n "name": SECRET-NAME-42 }]');
    let message = '';
    try {
      loadHomeFile(file);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/不是有效的 JSON/);
    expect(message).not.toContain('SECRET');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('JSON errors name the place, never the text', () => {
  it('a position V8 reports becomes a line and column', async () => {
    const { parseJsonText } = await import('../../../src/core/common/files');
    expect(() => parseJsonText('[1,\n2', '文件 x ')).toThrow(/第 2 行第 2 列附近/);
    expect(() => parseJsonText('root:x:0:0:root:/root:/bin/bash', '文件 x ')).toThrow(/^文件 x 不是有效的 JSON$/);
  });
});
