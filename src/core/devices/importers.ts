/**
 * Importers from real platforms into the seed 004 contract (validated afterwards by home.ts):
 * - Home Assistant: a bundle {area_registry, device_registry, entity_registry, states} (the
 *   `.storage/core.*` files and/or `GET /api/states`), any subset, or a bare /api/states array.
 * - SmartThings: `GET /v1/devices` JSON ({items:[...]}) optionally with {rooms} and per-device status.
 */
import { CATEGORIES } from './vocab';
import type { CommandSpec } from './types';

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() ? x : undefined);

interface RawDevice {
  id: string;
  name: string;
  room: string | null;
  /** the entity registry's aliases (other names the installer gave it) */
  aliases?: string[];
  type: string;
  category?: string;
  commands: CommandSpec[];
  attributes?: Record<string, number | string | boolean | null>;
}

function isStatesArray(x: unknown): x is Json[] {
  return Array.isArray(x) && x.length > 0 && x.every((s) => isObj(s) && typeof s.entity_id === 'string');
}

export function isHomeAssistantExport(raw: unknown): boolean {
  if (isStatesArray(raw)) return true;
  return isObj(raw) && ('entity_registry' in raw || 'states' in raw || 'area_registry' in raw || 'floor_registry' in raw) && !('devices' in raw && Array.isArray(raw.devices));
}

export function isSmartThingsExport(raw: unknown): boolean {
  return isObj(raw) && Array.isArray(raw.items) && raw.items.some((i) => isObj(i) && typeof i.deviceId === 'string');
}

/** Registry files wrap their list as {data: {areas: [...]}}; accept the bare list too. */
function registryList(x: unknown, key: string): Json[] {
  if (Array.isArray(x)) return x.filter(isObj);
  if (isObj(x) && isObj(x.data) && Array.isArray(x.data[key])) return (x.data[key] as unknown[]).filter(isObj);
  if (isObj(x) && Array.isArray(x[key])) return (x[key] as unknown[]).filter(isObj);
  return [];
}

const ON_OFF: CommandSpec[] = [
  { id: 'turn_on', description: '打开设备' },
  { id: 'turn_off', description: '关闭设备' },
];

function haCommands(domain: string, attrs: Json): { commands: CommandSpec[]; category?: string; reading?: [string, number] } {
  switch (domain) {
    case 'light': {
      const modes = Array.isArray(attrs.supported_color_modes) ? attrs.supported_color_modes : [];
      const dimmable = modes.some((m) => m !== 'onoff') || 'brightness' in attrs;
      // a colour only where the light has a colour mode, a white tone only where it has color_temp
      const coloured = modes.some((m) => /^(?:hs|xy|rgb|rgbw|rgbww)$/.test(String(m)));
      const tunable = modes.includes('color_temp');
      return {
        category: 'light',
        commands: [
          ...ON_OFF,
          ...(dimmable ? [{ id: 'brightness', description: '调亮度', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } }] : []),
          ...(coloured ? [{ id: 'set_color', description: '调颜色', type: 'string' }] : []),
          ...(tunable
            ? [{ id: 'set_color_temp', description: '调色温', type: 'integer', value_range: { minimum: Number(attrs.min_color_temp_kelvin ?? 2700), maximum: Number(attrs.max_color_temp_kelvin ?? 6500), unit: 'K' } }]
            : []),
        ],
      };
    }
    case 'switch':
    case 'input_boolean':
      return { commands: ON_OFF };
    case 'fan':
      return { category: 'fan', commands: [...ON_OFF, { id: 'set_percentage', description: '调风速', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } }] };
    case 'humidifier':
      return {
        category: str(attrs.device_class) === 'dehumidifier' ? 'dehumidifier' : 'humidifier',
        commands: [...ON_OFF, { id: 'set_humidity', description: '调湿度', type: 'integer', value_range: { minimum: Number(attrs.min_humidity ?? 0), maximum: Number(attrs.max_humidity ?? 100), unit: '%' } }, { id: 'set_mode', description: '设置模式', type: 'string' }],
      };
    case 'lawn_mower':
      return { category: 'lawnMower', commands: [{ id: 'start_mowing', description: '开始割草' }, { id: 'pause', description: '暂停' }, { id: 'dock', description: '回充' }] };
    case 'valve':
      return {
        category: 'valve',
        commands: [
          { id: 'open_valve', description: '打开阀门' },
          { id: 'close_valve', description: '关闭阀门' },
          ...('current_position' in attrs ? [{ id: 'set_valve_position', description: '调节开度', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } }] : []),
        ],
      };
    case 'cover':
      return {
        category: 'curtain',
        commands: [
          { id: 'open_cover', description: '打开窗帘' },
          { id: 'close_cover', description: '关闭窗帘' },
          { id: 'stop_cover', description: '停止' },
          { id: 'set_cover_position', description: '调节开合度', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } },
        ],
      };
    case 'climate':
      return {
        category: 'airConditioner',
        commands: [
          ...ON_OFF,
          {
            id: 'set_temperature',
            description: '调温度',
            type: 'number',
            value_range: { minimum: Number(attrs.min_temp ?? 16), maximum: Number(attrs.max_temp ?? 30), unit: '°C' },
          },
          { id: 'set_hvac_mode', description: '设置模式', type: 'string' },
          { id: 'set_fan_mode', description: '调风速', type: 'string' },
        ],
      };
    case 'media_player': {
      // supported_features says which of these the player really has (HA MediaPlayerEntityFeature bits)
      const all: [number, CommandSpec][] = [
        [128, ON_OFF[0]],
        [256, ON_OFF[1]],
        [4, { id: 'volume_set', description: '调音量', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } }],
        [8, { id: 'volume_mute', description: '静音' }],
        [16384, { id: 'media_play', description: '播放' }],
        [1, { id: 'media_pause', description: '暂停' }],
        [4096, { id: 'media_stop', description: '停止播放' }],
        [32, { id: 'media_next_track', description: '下一首' }],
        [16, { id: 'media_previous_track', description: '上一首' }],
        [512, { id: 'play_media', description: '播放指定内容', type: 'string' }],
        [2048, { id: 'select_source', description: '切换信号源', type: 'string' }],
      ];
      const bits = typeof attrs.supported_features === 'number' ? attrs.supported_features : null;
      return { category: 'tv', commands: all.filter(([bit]) => bits === null || (bits & bit) !== 0).map(([, c]) => c) };
    }
    case 'lock':
      return { category: 'lock', commands: [{ id: 'lock', description: '锁上门锁' }, { id: 'unlock', description: '解锁门锁' }] };
    case 'vacuum':
      return { category: 'robotVacuum', commands: [{ id: 'start', description: '启动清扫' }, { id: 'pause', description: '暂停清扫' }, { id: 'stop', description: '停止清扫' }, { id: 'return_to_base', description: '回充' }] };
    case 'sensor': {
      const dc = str(attrs.device_class);
      if (dc === 'temperature') return { category: 'temperatureSensor', commands: [{ id: 'read', description: '读取温度' }], reading: ['temperature', 0] };
      if (dc === 'humidity') return { category: 'humiditySensor', commands: [{ id: 'read', description: '读取湿度' }], reading: ['humidity', 0] };
      if (dc === 'illuminance') return { category: 'lightSensor', commands: [{ id: 'read', description: '读取光照' }], reading: ['illuminance', 0] };
      return { commands: [{ id: 'read', description: '读取数值' }] };
    }
    case 'binary_sensor':
      return { category: str(attrs.device_class) === 'motion' ? 'motionSensor' : 'doorSensor', commands: [{ id: 'read', description: '读取状态' }] };
    default:
      return { commands: [] };
  }
}

/** The Home Assistant domain whose usual commands a device of this category has. */
const DOMAIN_OF_CATEGORY: Record<string, [string, Json]> = {
  light: ['light', { brightness: null }],
  airConditioner: ['climate', {}],
  heater: ['climate', {}],
  thermostat: ['climate', {}],
  curtain: ['cover', {}],
  fan: ['fan', {}],
  humidifier: ['humidifier', {}],
  dehumidifier: ['humidifier', { device_class: 'dehumidifier' }],
  lock: ['lock', {}],
  tv: ['media_player', {}],
  speaker: ['media_player', {}],
  media: ['media_player', {}],
  projector: ['media_player', {}],
  robotVacuum: ['vacuum', {}],
  lawnMower: ['lawn_mower', {}],
  valve: ['valve', {}],
  temperatureSensor: ['sensor', { device_class: 'temperature' }],
  humiditySensor: ['sensor', { device_class: 'humidity' }],
  lightSensor: ['sensor', { device_class: 'illuminance' }],
  motionSensor: ['binary_sensor', { device_class: 'motion' }],
  doorSensor: ['binary_sensor', {}],
};

/**
 * The commands a device of this category usually has, for a home file that lists none (a light
 * switches and dims, a climate device sets temperature and mode, a player plays and sets volume);
 * anything else switches on and off. Returned with the category the commands imply.
 */
export function typicalCommands(category: string): CommandSpec[] {
  const [domain, attrs] = DOMAIN_OF_CATEGORY[category] ?? ['switch', {}];
  return haCommands(domain, attrs).commands;
}

const HA_DOMAINS = new Set(['light', 'switch', 'input_boolean', 'fan', 'humidifier', 'cover', 'climate', 'media_player', 'lock', 'vacuum', 'lawn_mower', 'valve', 'sensor', 'binary_sensor']);

export function importHomeAssistant(raw: unknown, warnings: string[]): unknown {
  const bundle: Json = isStatesArray(raw) ? { states: raw } : (raw as Json);
  const areas = new Map<string, string>();
  // floors (core.floor_registry) and the floor of each area: 楼上的灯 / 关掉一楼所有的灯
  const floors = new Map<string, { name: string; level?: number; rooms: string[] }>();
  for (const f of registryList(bundle.floor_registry, 'floors')) {
    const id = str(f.floor_id) ?? str(f.id);
    if (id) floors.set(id, { name: str(f.name) ?? id, ...(typeof f.level === 'number' ? { level: f.level } : {}), rooms: [] });
  }
  const roomAliases: { name: string; aliases: string[] }[] = [];
  for (const a of registryList(bundle.area_registry, 'areas')) {
    const id = str(a.area_id) ?? str(a.id);
    if (id) areas.set(id, str(a.name) ?? id);
    const areaAliases = Array.isArray(a.aliases) ? a.aliases.filter((x): x is string => typeof x === 'string' && !!x.trim()) : [];
    if (id && areaAliases.length) roomAliases.push({ name: str(a.name) ?? id, aliases: areaAliases });
    const floor = str(a.floor_id) ? floors.get(a.floor_id as string) : undefined;
    if (id && floor) floor.rooms.push(str(a.name) ?? id);
  }
  const haDevices = new Map<string, Json>();
  for (const d of registryList(bundle.device_registry, 'devices')) if (str(d.id)) haDevices.set(d.id as string, d);
  const registry = new Map<string, Json>();
  for (const e of registryList(bundle.entity_registry, 'entities')) if (str(e.entity_id)) registry.set(e.entity_id as string, e);
  const states = new Map<string, Json>();
  for (const s of Array.isArray(bundle.states) ? bundle.states.filter(isObj) : []) if (str(s.entity_id)) states.set(s.entity_id as string, s);

  const devices: RawDevice[] = [];
  const scenes: { id: string; name: string; room: string | null }[] = [];
  const groups: { id: string; name: string; members: string[] }[] = [];
  const entityIds = [...new Set([...registry.keys(), ...states.keys()])];
  for (const entityId of entityIds) {
    const reg = registry.get(entityId) ?? {};
    if (reg.disabled_by || reg.hidden_by) continue;
    const st = states.get(entityId) ?? {};
    const attrs = isObj(st.attributes) ? st.attributes : {};
    const domain = entityId.split('.')[0];
    const dev = str(reg.device_id) ? haDevices.get(reg.device_id as string) : undefined;
    const name =
      // what the user typed wins: entity rename, then device rename, then HA's generated names
      str(reg.name) ?? str(dev?.name_by_user) ?? str(attrs.friendly_name) ?? str(dev?.name) ?? str(reg.original_name) ?? entityId;
    const areaId = str(reg.area_id) ?? str(dev?.area_id);
    const room = areaId ? (areas.get(areaId) ?? areaId) : null;
    if (domain === 'scene') {
      scenes.push({ id: entityId, name, room });
      continue;
    }
    if (domain === 'group' && Array.isArray(attrs.entity_id)) {
      groups.push({ id: entityId, name, members: attrs.entity_id.filter((x): x is string => typeof x === 'string') });
      continue;
    }
    if (!HA_DOMAINS.has(domain)) continue;
    const spec = haCommands(domain, attrs);
    const d: RawDevice = { id: entityId, name, room, type: `homeassistant:${domain}`, commands: spec.commands };
    if (spec.category) d.category = spec.category;
    const aliases = Array.isArray(reg.aliases) ? reg.aliases.filter((x): x is string => typeof x === 'string' && !!x.trim()) : [];
    if (aliases.length) d.aliases = aliases;
    // the device class refines the domain (cover.garage is a garage door, media_player.speaker a speaker)
    const deviceClass = str(attrs.device_class) ?? str(reg.device_class) ?? str(reg.original_device_class);
    const refined = deviceClass ? CATEGORIES.ecosystems.homeassistant[`${domain}.${deviceClass}`] : undefined;
    if (refined) d.category = refined;
    if (spec.reading) {
      const v = Number(st.state);
      d.attributes = { [spec.reading[0]]: Number.isFinite(v) ? v : null };
    }
    devices.push(d);
  }
  const known = new Set(devices.map((d) => d.id));
  const okGroups = groups
    .map((g) => ({ ...g, members: g.members.filter((m) => known.has(m)) }))
    .filter((g) => {
      if (g.members.length === 0) warnings.push(`Home Assistant 分组「${g.name}」没有可导入的成员，已跳过`);
      return g.members.length > 0;
    });
  if (devices.length === 0) warnings.push('Home Assistant 导出中没有可控制的实体');
  return { devices, groups: okGroups, scenes, ...(roomAliases.length ? { rooms: roomAliases } : {}), ...(floors.size ? { floors: [...floors.values()] } : {}) };
}

const ST_CAPS: Record<string, CommandSpec[]> = {
  switch: [
    { id: 'main-switch-on', description: '打开设备' },
    { id: 'main-switch-off', description: '关闭设备' },
  ],
  switchLevel: [{ id: 'main-switchLevel-setLevel', description: '调亮度', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } }],
  colorTemperature: [{ id: 'main-colorTemperature-setColorTemperature', description: '调色温', type: 'integer', value_range: { minimum: 2700, maximum: 6500, unit: 'K' } }],
  windowShade: [
    { id: 'main-windowShade-open', description: '打开窗帘' },
    { id: 'main-windowShade-close', description: '关闭窗帘' },
  ],
  windowShadeLevel: [{ id: 'main-windowShadeLevel-setShadeLevel', description: '调节开合度', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } }],
  thermostatCoolingSetpoint: [{ id: 'main-thermostatCoolingSetpoint-setCoolingSetpoint', description: '调温度', type: 'number', value_range: { minimum: 16, maximum: 30, unit: '°C' } }],
  airConditionerMode: [{ id: 'main-airConditionerMode-setAirConditionerMode', description: '设置模式', type: 'string' }],
  fanSpeed: [{ id: 'main-fanSpeed-setFanSpeed', description: '调风速', type: 'integer', value_range: { minimum: 0, maximum: 4 } }],
  audioVolume: [{ id: 'main-audioVolume-setVolume', description: '调音量', type: 'integer', value_range: { minimum: 0, maximum: 100, unit: '%' } }],
  mediaPlayback: [
    { id: 'main-mediaPlayback-play', description: '播放' },
    { id: 'main-mediaPlayback-pause', description: '暂停' },
  ],
  lock: [
    { id: 'main-lock-lock', description: '锁上门锁' },
    { id: 'main-lock-unlock', description: '解锁门锁' },
  ],
  temperatureMeasurement: [{ id: 'main-temperatureMeasurement-read', description: '读取温度' }],
  relativeHumidityMeasurement: [{ id: 'main-relativeHumidityMeasurement-read', description: '读取湿度' }],
  illuminanceMeasurement: [{ id: 'main-illuminanceMeasurement-read', description: '读取光照' }],
};

export function importSmartThings(raw: unknown, warnings: string[]): unknown {
  const obj = raw as Json;
  const rooms = new Map<string, string>();
  const roomList = Array.isArray(obj.rooms) ? obj.rooms : isObj(obj.rooms) && Array.isArray(obj.rooms.items) ? obj.rooms.items : [];
  for (const r of roomList.filter(isObj)) if (str(r.roomId)) rooms.set(r.roomId as string, str(r.name) ?? (r.roomId as string));
  const devices: RawDevice[] = [];
  for (const item of (obj.items as unknown[]).filter(isObj)) {
    const id = str(item.deviceId);
    if (!id) continue;
    const components = Array.isArray(item.components) ? item.components.filter(isObj) : [];
    const main = components.find((c) => c.id === 'main') ?? components[0] ?? {};
    const caps = (Array.isArray(main.capabilities) ? main.capabilities : []).filter(isObj).map((c) => String(c.id));
    const cats = (Array.isArray(main.categories) ? main.categories : []).filter(isObj).map((c) => String(c.name));
    const commands = caps.flatMap((c) => ST_CAPS[c] ?? []);
    let category = cats.map((c) => CATEGORIES.ecosystems.smartthings[c]).find(Boolean);
    const attributes: Record<string, number | null> = {};
    const status = isObj(item.status) && isObj(item.status.main) ? item.status.main : undefined;
    const read = (cap: string, attr: string) => {
      const c = status && isObj(status[cap]) ? status[cap] : undefined;
      const v = c && isObj(c[attr]) ? Number(c[attr].value) : NaN;
      return Number.isFinite(v) ? v : null;
    };
    if (caps.includes('temperatureMeasurement')) {
      attributes.temperature = read('temperatureMeasurement', 'temperature');
      if (!category && !caps.includes('switch')) category = 'temperatureSensor';
    }
    if (caps.includes('relativeHumidityMeasurement')) {
      attributes.humidity = read('relativeHumidityMeasurement', 'humidity');
      if (!category && !caps.includes('switch') && !caps.includes('temperatureMeasurement')) category = 'humiditySensor';
    }
    if (caps.includes('illuminanceMeasurement')) {
      attributes.illuminance = read('illuminanceMeasurement', 'illuminance');
      if (!category && !caps.includes('switch')) category = 'lightSensor';
    }
    const roomId = str(item.roomId);
    const d: RawDevice = {
      id,
      name: str(item.label) ?? str(item.name) ?? id,
      room: roomId ? (rooms.get(roomId) ?? null) : null,
      type: `smartthings:${cats[0] ?? str(item.deviceTypeName) ?? 'device'}`,
      commands,
    };
    if (roomId && !rooms.has(roomId)) warnings.push(`SmartThings 设备「${d.name}」所在的房间（文件中写作 ${roomId}）不在文件的房间列表中，房间留空`);
    if (category) d.category = category;
    if (Object.keys(attributes).length) d.attributes = attributes;
    devices.push(d);
  }
  return { devices, groups: [], scenes: [] };
}
