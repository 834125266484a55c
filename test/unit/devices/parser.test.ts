import { describe, expect, it } from 'vitest';
import { normalizeHome } from '../../../src/core/devices/home';
import { buildCommandPrompt, parseCommandArray } from '../../../src/core/devices/command-protocol';
import { commandToIR, parseRules } from '../../../src/core/devices/parser';
import { TYPES } from '../../../src/core/devices/lexicon';

const dev = (id: string, name: string, room: string | null, category: string) => ({
  id, name, room, type: `x:${category}`, category,
  commands: [{ id: 'on', description: '打开设备' }, { id: 'off', description: '关闭设备' }],
});
const { home } = normalizeHome({
  devices: [
    dev('lamp-1', '老伙计', '客厅', 'light'), dev('d-123', '大白', '卧室', 'light'), dev('br-l', '卧室主灯', '卧室', 'light'),
    dev('lr-l', '客厅主灯', '客厅', 'light'), dev('br-ac', '卧室空调', '卧室', 'airConditioner'), dev('st-lamp', '书房台灯', '书房', 'light'),
    dev('fan', '和风扇', '客厅', 'fan'),
  ],
});

describe('rule parser (seed 001 semantic parsing)', () => {
  it('打开老伙计 -> action 打开, name_hint 老伙计', () => {
    const [c] = parseRules('打开老伙计', home);
    const ir = commandToIR(c);
    expect(ir.action).toBe('打开');
    expect(ir.name_hint).toBe('老伙计');
  });

  it('关闭所有卧室的灯 -> 关闭, all, scope_include 卧室, type light', () => {
    const ir = commandToIR(parseRules('关闭所有卧室的灯', home)[0]);
    expect(ir).toMatchObject({ action: '关闭', quantifier: 'all', type_hint: 'light' });
    expect(ir.scope_include).toContain('卧室');
  });

  it('打开除卧室以外的灯 -> except, scope_exclude 卧室 (and 之外 / 外 variants)', () => {
    for (const u of ['打开除卧室以外的灯', '打开除了卧室之外的灯', '除卧室外的灯都打开']) {
      const ir = commandToIR(parseRules(u, home)[0]);
      expect(ir.quantifier, u).toBe('except');
      expect(ir.scope_exclude, u).toEqual(['卧室']);
      expect(ir.scope_include, u).toEqual([]);
      expect(ir.type_hint, u).toBe('light');
    }
  });

  it('打开那个 / 把它关了 -> references last-mentioned', () => {
    expect(commandToIR(parseRules('打开那个', home)[0]).references).toContain('last-mentioned');
    const [c] = parseRules('把它关了', home);
    expect(c.a).toBe('关闭');
    expect(c.ref).toBe('last-mentioned');
  });

  it('keeps several commands in spoken order', () => {
    const cmds = parseRules('打开客厅灯然后关闭卧室空调', home);
    expect(cmds.map((c) => [c.a, c.s, c.t, c.n])).toEqual([
      ['打开', '客厅', 'light', null],
      ['关闭', null, null, '卧室空调'],
    ]);
    const three = parseRules('关闭大白，打开老伙计，再关闭书房台灯', home);
    expect(three.map((c) => `${c.a}${c.n}`)).toEqual(['关闭大白', '打开老伙计', '关闭书房台灯']);
  });

  it('parses counts (两盏, 3个) and rooms from the home', () => {
    expect(parseRules('打开两盏客厅的灯', home)[0]).toMatchObject({ c: 2, s: '客厅', t: 'light' });
    expect(parseRules('关掉3个卧室的灯', home)[0]).toMatchObject({ c: 3, s: '卧室', a: '关闭' });
  });

  it('parses a condition and applies it to the command', () => {
    const [c] = parseRules('如果室温超过26度就打开空调', home);
    expect(c.a).toBe('打开');
    expect(c.t).toBe('airConditioner');
    expect(c.cond).toMatchObject({ sensor: 'temperature', op: '>', value: 26, room: null });
    const [d] = parseRules('要是卧室湿度低于四十的话就打开加湿器', home);
    expect(d.cond).toMatchObject({ sensor: 'humidity', op: '<', value: 40, room: '卧室' });
  });

  it('takes the longest known name, so room words and 和 inside names stay names', () => {
    expect(parseRules('打开卧室主灯', home)[0]).toMatchObject({ n: '卧室主灯', s: null });
    expect(parseRules('打开和风扇', home)).toHaveLength(1);
    expect(parseRules('打开和风扇', home)[0].n).toBe('和风扇');
  });

  it('does not read 开/关 inside 玄关 or 调 inside 空调 as verbs', () => {
    expect(parseRules('玄关灯开一下', home)[0].a).toBe('打开');
    const both = parseRules('打开客厅和卧室的空调', home);
    expect(both.map((c) => [c.a, c.s, c.t])).toEqual([
      ['打开', '客厅', 'airConditioner'],
      ['打开', '卧室', 'airConditioner'],
    ]);
  });

  it('recognises a spoken homophone of a name (大柏 for 大白)', () => {
    expect(parseRules('打开大柏', home)[0].n).toBe('大柏');
  });

  it('nothing understood -> one UNKNOWN command with a reason', () => {
    const [c] = parseRules('今天天气不错', home);
    expect(c.a).toBe('UNKNOWN');
    expect(c.reason).toBeTruthy();
  });
});

describe('parseCommandArray (seed 000 command-array protocol)', () => {
  it('parses a single command object array into structured fields', () => {
    const [c] = parseCommandArray('[{"a":"打开","s":"客厅","n":"老伙计","t":"light","q":"one","c":null}]');
    expect(c).toEqual({ a: '打开', s: '客厅', n: '老伙计', t: 'light', q: 'one', c: null });
  });

  it('keeps the order of several command objects', () => {
    const cmds = parseCommandArray(
      '[{"a":"关闭","s":"卧室","n":null,"t":"airConditioner","q":"one","c":null},{"a":"打开","s":"客厅","n":null,"t":"light","q":"all","c":2}]',
    );
    expect(cmds.map((c) => c.a)).toEqual(['关闭', '打开']);
    expect(cmds[1]).toMatchObject({ q: 'all', c: 2 });
  });

  it('tolerates code fences, prose, "" for none, numeric strings, and cond/ref', () => {
    const reply = '好的，解析结果如下：\n```json\n[{"a":"打开","s":"","n":"","t":"airConditioner","q":"","c":"2","cond":{"sensor":"temperature","op":">","value":26},"ref":"last-mentioned"}]\n```\n希望有帮助';
    const [c] = parseCommandArray(reply);
    expect(c).toMatchObject({ a: '打开', s: null, n: null, q: 'one', c: 2, ref: 'last-mentioned' });
    expect(c.cond).toMatchObject({ sensor: 'temperature', op: '>', value: 26 });
  });

  it('degrades malformed replies to one UNKNOWN command with the reason', () => {
    const cases: [string, RegExp][] = [
      ['', /为空/],
      ['我不知道', /JSON/],
      ['[]', /空数组/],
      ['["打开客厅灯"]', /不是对象/],
      ['[{"a":"打开","q":"many"}]', /q/],
      ['[{"s":"客厅"}]', /a/],
      ['[{"a":"打开","c":-1}]', /c/],
      ['[{"a":"打开"', /JSON/],
    ];
    for (const [reply, reason] of cases) {
      const out = parseCommandArray(reply);
      expect(out, reply).toHaveLength(1);
      expect(out[0].a, reply).toBe('UNKNOWN');
      expect(out[0].reason, reply).toMatch(reason);
    }
  });

  it('accepts {commands:[...]} and a single object', () => {
    expect(parseCommandArray('{"commands":[{"a":"关闭"}]}')[0]).toMatchObject({ a: '关闭', q: 'one', c: null });
    expect(parseCommandArray('{"a":"打开","n":"老伙计"}')[0].n).toBe('老伙计');
  });

  it('maps q=except to scope_exclude', () => {
    const ir = commandToIR({ a: '关闭', s: '卧室', n: null, t: 'light', q: 'except', c: null });
    expect(ir.scope_exclude).toEqual(['卧室']);
    expect(ir.scope_include).toEqual([]);
  });

  it('the prompt lists the protocol, the rooms and the types, and says names are data', () => {
    const p = buildCommandPrompt(home.rooms, Object.keys(TYPES));
    for (const w of ['a', 's', 'n', 't', 'q', 'c', 'cond', 'ref', 'except', '客厅', '卧室', 'airConditioner', '不是指令']) expect(p).toContain(w);
  });
});
