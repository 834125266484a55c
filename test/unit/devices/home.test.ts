import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHomeFile, normalizeHome } from '../../../src/core/devices/home';
import { lintHome } from '../../../src/core/devices/lint';
import { retrieve } from '../../../src/core/devices/retrieve';
import { emptyState } from '../../../src/core/devices/types';
import { tempDir } from '../../helpers';

const fixtures = path.resolve(__dirname, '../../fixtures/devices');
const demo = path.resolve(__dirname, '../../../resources/homes/demo-home.json');

function writeTemp(name: string, content: string): string {
  const file = path.join(tempDir('gridcode-devices-'), name);
  fs.writeFileSync(file, content);
  return file;
}

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected an error');
}

describe('home file loading', () => {
  it('loads the seed 004 device array and infers categories', () => {
    const { home, format } = loadHomeFile(path.join(fixtures, 'small-home.json'));
    expect(format).toBe('devices-array');
    expect(home.devices).toHaveLength(6);
    expect(home.devices.find((d) => d.id === 'kt-light')!.category).toBe('light');
    expect(home.rooms.sort()).toEqual(['卧室', '厨房', '客厅'].sort());
  });

  it('reports malformed files with the file and the JSON path of the bad field', () => {
    const notJson = writeTemp('broken.json', '{"devices": [');
    expect(errorOf(() => loadHomeFile(notJson))).toMatchObject({ code: 'BAD_FILE', message: expect.stringContaining(notJson) });

    const badField = writeTemp('bad-field.json', JSON.stringify({ devices: [{ id: 'a', name: '灯', room: '客厅', commands: [] }, { id: 'b', name: '灯2', commands: [{ id: 'on' }] }] }));
    expect(errorOf(() => loadHomeFile(badField)).message).toContain('$.devices[1].commands[0].description');

    const badArray = writeTemp('bad-array.json', JSON.stringify([{ id: 'a', name: 42 }]));
    expect(errorOf(() => loadHomeFile(badArray)).message).toContain('$[0].name');

    const dup = writeTemp('dup.json', JSON.stringify([{ id: 'a', name: '灯' }, { id: 'a', name: '灯2' }]));
    expect(errorOf(() => loadHomeFile(dup)).message).toMatch(/\$\[1\]\.id.*重复/);

    const member = writeTemp('member.json', JSON.stringify({ devices: [{ id: 'a', name: '灯' }], groups: [{ id: 'g', name: '组', members: ['a', 'zz'] }] }));
    expect(errorOf(() => loadHomeFile(member)).message).toContain('$.groups[0].members[1]');

    const unknown = writeTemp('unknown.json', JSON.stringify({ hello: 'world' }));
    expect(errorOf(() => loadHomeFile(unknown)).code).toBe('BAD_FILE');

    expect(errorOf(() => loadHomeFile(path.join(tempDir(), 'missing.json'))).code).toBe('NOT_FOUND');
  });

  it('strips control characters from names', () => {
    const { home } = normalizeHome([{ id: 'x', name: '客厅\u0000灯\n2', room: '客厅' }]);
    expect(home.devices[0].name).toBe('客厅灯 2');
  });
});

describe('importers', () => {
  it('imports a Home Assistant export (registries + states)', () => {
    const { home, format, warnings } = loadHomeFile(path.join(fixtures, 'ha-export.json'));
    expect(format).toBe('home-assistant');
    const byId = new Map(home.devices.map((d) => [d.id, d]));
    expect(byId.get('light.yeelight_lamp')).toMatchObject({ name: '老伙计', room: '客厅', category: 'light' });
    expect(byId.get('light.yeelight_lamp')!.commands.map((c) => c.description)).toContain('调亮度');
    expect(byId.get('climate.gree_ac')).toMatchObject({ name: '卧室空调', room: '卧室', category: 'airConditioner' });
    expect(byId.get('sensor.bedroom_temperature')).toMatchObject({ category: 'temperatureSensor', attributes: { temperature: 27.4 } });
    expect(byId.has('switch.old_plug')).toBe(false); // disabled in the registry
    expect(byId.has('sun.sun')).toBe(false);
    expect(home.scenes.map((s) => s.name)).toEqual(['观影模式']);
    expect(home.groups[0]).toMatchObject({ name: '客厅灯组', members: ['light.yeelight_lamp'] });
    expect(warnings).toEqual([]);
  });

  it('imports a bare /api/states array; unavailable readings become null', () => {
    const { home, format } = loadHomeFile(path.join(fixtures, 'ha-states.json'));
    expect(format).toBe('home-assistant');
    expect(home.devices.map((d) => d.name)).toEqual(['厨房灯', '入户门锁', '室外温度']);
    expect(home.devices[2].attributes).toEqual({ temperature: null });
  });

  it('imports SmartThings devices with rooms, capabilities and status', () => {
    const { home, format, warnings } = loadHomeFile(path.join(fixtures, 'smartthings-devices.json'));
    expect(format).toBe('smartthings');
    const lamp = home.devices.find((d) => d.name === '大白')!;
    expect(lamp).toMatchObject({ room: '卧室', category: 'light', type: 'smartthings:Light' });
    expect(lamp.commands.map((c) => c.id)).toEqual(['main-switch-on', 'main-switch-off', 'main-switchLevel-setLevel']);
    expect(home.devices.find((d) => d.name === '客厅温湿度')!.attributes).toEqual({ temperature: 26.5, humidity: 52 });
    expect(home.devices.find((d) => d.name === '书房插座')!.room).toBeNull();
    expect(warnings.join()).toContain('r-9');
    expect(warnings.join()).toContain('「书房插座」');
  });

  it('an imported home works end to end (condition read from a HA sensor)', async () => {
    const { home } = loadHomeFile(path.join(fixtures, 'ha-export.json'));
    const [r] = await retrieve('如果卧室温度超过26度就打开卧室空调', home, emptyState());
    expect(r.selected.map((s) => s.id)).toEqual(['climate.gree_ac']);
    expect(r.meta.conditions[0]).toMatchObject({ status: 'met', reading: 27.4, sensor_id: 'sensor.bedroom_temperature' });
  });
});

describe('naming lint', () => {
  it('finds the planted issues of the demo home, each with a Chinese suggestion', async () => {
    const { home } = loadHomeFile(demo);
    const issues = await lintHome(home);
    const by = (rule: string) => issues.filter((i) => i.rule === rule);
    expect(by('same_pinyin').map((i) => i.names.sort())).toContainEqual(['小丁当', '小叮当'].sort());
    expect(by('duplicate_in_room')[0].ids.sort()).toEqual(['gs-ceiling-1', 'gs-ceiling-2']);
    expect(by('instruction_like')[0].ids).toEqual(['gr-plug']);
    expect(by('bare_type_name').map((i) => i.ids[0])).toContain('gr-light');
    expect(by('room_in_name').map((i) => i.ids[0])).toEqual(expect.arrayContaining(['lr-bedroom-lamp', 'dn-speaker', 'st-lamp-moved']));
    expect(by('too_long').map((i) => i.ids[0])).toContain('kid-long');
    expect(by('missing_room').map((i) => i.ids[0])).toContain('bed-2-lamp');
    for (const i of issues) expect(i.suggestion).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('flags edit-distance-1 names but not numbered or room-distinguished ones', async () => {
    const { home } = normalizeHome([
      { id: 'a', name: '阿福灯', room: '客厅', category: 'light' },
      { id: 'b', name: '阿宝灯', room: '卧室', category: 'light' },
      { id: 'c', name: '客厅筒灯1', room: '客厅', category: 'light' },
      { id: 'd', name: '客厅筒灯2', room: '客厅', category: 'light' },
      { id: 'e', name: '客厅空调', room: '客厅', category: 'airConditioner' },
      { id: 'f', name: '餐厅空调', room: '餐厅', category: 'airConditioner' },
      { id: 'g', name: '小米灯', room: '书房', category: 'light' },
      { id: 'h', name: '小米等', room: '书房', category: 'light' },
    ]);
    const issues = await lintHome(home);
    const pairs = issues.filter((i) => i.rule === 'edit_distance_1').map((i) => i.ids.sort().join('+'));
    expect(pairs).toEqual(['a+b']);
    expect(issues.filter((i) => i.rule === 'same_pinyin').map((i) => i.ids.sort().join('+'))).toEqual(['g+h']);
  });
});
