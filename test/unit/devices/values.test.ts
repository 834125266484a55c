import { describe, expect, it } from 'vitest';
import { commandForValue, findValue, parseNumber, resolveExtreme, valueFromCommand } from '../../../src/core/devices/values';

describe('value grammar', () => {
  it.each([
    ['把客厅空调调到26度', 26, '℃'],
    ['亮度调到百分之五十', 50, '%'],
    ['打开一半', 50, '%'],
    ['开到七成', 70, '%'],
    ['温度设为二十六点五度', 26.5, '℃'],
    ['风速调到3档', 3, '档'],
    ['色温调到4000K', 4000, 'K'],
    ['音量调到30', 30, null],
  ])('%s -> %s %s', (text, number, unit) => {
    const v = findValue(text);
    expect(v).not.toBeNull();
    expect(v!.number).toBe(number);
    expect(v!.unit).toBe(unit);
  });

  it('does not read counts or names as values', () => {
    expect(findValue('打开两盏灯')).toBeNull();
    expect(findValue('打开客厅筒灯2')).toBeNull();
  });

  it('reads a command v in the light of its action', () => {
    expect(valueFromCommand('26℃', '调温度')).toMatchObject({ number: 26, unit: '℃', attribute: 'temperature' });
    expect(valueFromCommand(30, '调音量')).toMatchObject({ number: 30, attribute: 'volume' });
    expect(valueFromCommand('+', '调亮度')).toMatchObject({ number: 10, relative: 'up', unit: '%' });
    expect(valueFromCommand('-2度', '调温度')).toMatchObject({ number: 2, relative: 'down' });
    expect(valueFromCommand('最亮', '调亮度')).toMatchObject({ extreme: 'max', number: null });
    expect(valueFromCommand('红色', '调颜色')).toMatchObject({ number: null, text: '红色' });
    expect(parseNumber('二十六')).toBe(26);
  });

  it('resolves an extreme from the command range', () => {
    const cmds = [
      { id: 'on', description: '打开' },
      { id: 'temp', description: '设置温度', value_range: { minimum: 16, maximum: 30, unit: '℃' } },
    ];
    const v = valueFromCommand('最低', '调温度')!;
    const cmd = commandForValue(cmds, v);
    expect(cmd?.id).toBe('temp');
    expect(resolveExtreme(v, cmd)).toBe(16);
    expect(resolveExtreme(valueFromCommand('最亮', '调亮度')!, null)).toBe(100);
  });
});
