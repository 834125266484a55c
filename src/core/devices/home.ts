import fs from 'node:fs';
import { z } from 'zod';
import { parseJsonText, readUtf8File } from '../common/files';
import { GridError } from '../common/errors';
import { stripControlChars } from '../text/normalize';
import { canonical } from './canonical';
import { UNKNOWN_ROOM, inferCategory } from './lexicon';
import { homeFileSchema, type CommandSpec, type Entity, type Home } from './types';
import { acceptedKindsText, kindOfCategory } from './vocab';
import { importHomeAssistant, importSmartThings, isHomeAssistantExport, isSmartThingsExport, typicalCommands } from './importers';

export type HomeFormat = 'devices-array' | 'home-object' | 'home-assistant' | 'smartthings';

/** "$.devices[3].commands[0].description" — the JSON path installers can find in their file. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

function zodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${jsonPath(i.path)}: ${i.message}`)
    .join('; ');
}

const SCENE_COMMANDS: CommandSpec[] = [{ id: 'scene-activate', description: '执行场景' }];

function clean(s: string): string {
  return stripControlChars(s).replace(/[\r\n\t]+/g, ' ').trim();
}

/**
 * Validates raw JSON (any supported format) and returns a normalised home. Errors are
 * GridError BAD_FILE naming the source and the JSON path of the first bad fields.
 */
export function normalizeHome(raw: unknown, source = '设备数据'): { home: Home; format: HomeFormat; warnings: string[] } {
  let format: HomeFormat;
  let data: unknown = raw;
  const warnings: string[] = [];
  if (isHomeAssistantExport(raw)) {
    format = 'home-assistant';
    data = importHomeAssistant(raw, warnings);
  } else if (isSmartThingsExport(raw)) {
    format = 'smartthings';
    data = importSmartThings(raw, warnings);
  } else {
    format = Array.isArray(raw) ? 'devices-array' : 'home-object';
    if (!Array.isArray(raw) && (typeof raw !== 'object' || raw === null || !('devices' in raw))) {
      throw new GridError(
        'BAD_FILE',
        `${source} 格式无法识别：应为设备数组、{devices, groups, scenes} 对象、Home Assistant 导出或 SmartThings 设备 JSON`,
      );
    }
  }
  const parsed = homeFileSchema.safeParse(data);
  if (!parsed.success) {
    // the union hides the useful branch's issues: re-validate against the branch the shape suggests
    const branch = Array.isArray(data) ? homeFileSchema.options[0] : homeFileSchema.options[1];
    const again = branch.safeParse(data);
    const detail = again.success ? zodIssues(parsed.error) : zodIssues(again.error);
    throw new GridError('BAD_FILE', `${source} 无效 — ${detail}`, { issues: (again.success ? parsed.error : again.error).issues });
  }
  const file = Array.isArray(parsed.data) ? { devices: parsed.data, groups: [], scenes: [], rooms: undefined, areas: undefined, floors: undefined, name: undefined } : parsed.data;

  const ids = new Map<string, string>();
  const claim = (id: string, where: string) => {
    const prev = ids.get(id);
    if (prev) throw new GridError('BAD_FILE', `${source} 无效 — ${where}.id: 重复的 id「${id}」（已用于 ${prev}）`);
    ids.set(id, where);
  };
  let inferred = 0;
  const unknownCategories: string[] = [];
  const devices: Entity[] = file.devices.map((d, i) => {
    const base = Array.isArray(parsed.data) ? `$[${i}]` : `$.devices[${i}]`;
    claim(d.id, base);
    const name = clean(d.name);
    // a category as any ecosystem writes it (climate, tuya:kt, HeaterCooler) is read through the one table;
    // one no table knows is reported and the kind inferred from type, name and commands instead
    const given = d.category ? kindOfCategory(d.category) : null;
    if (d.category && !given) unknownCategories.push(`${d.name}（${d.category}）`);
    const category = given ?? inferCategory(d.type, canonical(name), d.commands);
    // a device listed without commands gets its kind's usual ones, not "can do nothing"
    const commands = d.commands.length ? d.commands : typicalCommands(category);
    if (!d.commands.length) inferred++;
    return {
      id: d.id,
      kind: 'device' as const,
      name,
      nicknames: [...new Set([...(d.nicknames ?? []), ...(d.aliases ?? [])].map(clean).filter(Boolean))],
      ...(d.aliases?.length ? { aliases: d.aliases.map(clean).filter(Boolean) } : {}),
      room: d.room ? clean(d.room) || null : null,
      type: d.type,
      category,
      commands,
      description: d.description,
      attributes: d.attributes,
    };
  });
  const byId = new Map(devices.map((d) => [d.id, d]));
  const groups: Entity[] = file.groups.map((g, i) => {
    claim(g.id, `$.groups[${i}]`);
    const members = g.members.map((m, j) => {
      if (!byId.has(m)) throw new GridError('BAD_FILE', `${source} 无效 — $.groups[${i}].members[${j}]: 未知设备 id「${m}」`);
      return byId.get(m)!;
    });
    const cats = new Set(members.map((m) => m.category));
    return {
      id: g.id,
      kind: 'group' as const,
      name: clean(g.name),
      nicknames: [...new Set([...(g.nicknames ?? []), ...(g.aliases ?? [])].map(clean).filter(Boolean))],
      ...(g.aliases?.length ? { aliases: g.aliases.map(clean).filter(Boolean) } : {}),
      room: g.room ?? (new Set(members.map((m) => m.room)).size === 1 ? members[0].room : null),
      type: 'group',
      category: cats.size === 1 ? [...cats][0] : 'mixed',
      // a group can do what all its members can (matched by description)
      commands: g.commands ?? members[0].commands.filter((c) => members.every((m) => m.commands.some((x) => x.description === c.description))),
      members: g.members,
    };
  });
  const scenes: Entity[] = file.scenes.map((s, i) => {
    claim(s.id, `$.scenes[${i}]`);
    return {
      id: s.id,
      kind: 'scene' as const,
      name: clean(s.name),
      nicknames: [...new Set([...(s.nicknames ?? []), ...(s.aliases ?? [])].map(clean).filter(Boolean))],
      ...(s.aliases?.length ? { aliases: s.aliases.map(clean).filter(Boolean) } : {}),
      room: s.room ?? null,
      type: 'scene',
      category: 'scene',
      commands: SCENE_COMMANDS,
      description: s.description,
    };
  });
  // rooms (and HA areas) may be written with the installer's other words for them
  const roomEntries = [...(file.rooms ?? []), ...(file.areas ?? [])].map((r) => (typeof r === 'string' ? { name: r, aliases: [] as string[] } : r));
  const roomAliases: Record<string, string[]> = {};
  for (const r of roomEntries) if (r.aliases.length) roomAliases[clean(r.name)] = [...new Set([...(roomAliases[clean(r.name)] ?? []), ...r.aliases.map(clean)])];
  const rooms = [...new Set([...roomEntries.map((r) => clean(r.name)), ...devices.map((d) => d.room).filter((r): r is string => !!r)])].filter((r) => !UNKNOWN_ROOM.test(r));
  if (devices.length === 0) warnings.push(`${source} 中没有设备`);
  if (unknownCategories.length) {
    const list = unknownCategories.slice(0, 5).join('、') + (unknownCategories.length > 5 ? ` 等 ${unknownCategories.length} 个` : '');
    warnings.push(`无法识别的设备类别：${list}，已按类型、名称和命令推断。可用的类别：${acceptedKindsText()}；也可写各平台的类别名（如 homeassistant:climate、tuya:kt、homekit:HeaterCooler、mihome:air-conditioner）`);
  }
  if (inferred) warnings.push(`${inferred} 个设备没有列出可用命令，已按设备类型推断常用命令（开关、亮度、温度等）`);
  const floors = (file.floors ?? []).map((f) => ({ ...f, name: clean(f.name), rooms: f.rooms.map(clean) }));
  for (const f of floors) for (const r of f.rooms) if (!rooms.includes(r)) rooms.push(r);
  return { home: { name: file.name, rooms, ...(Object.keys(roomAliases).length ? { roomAliases } : {}), ...(floors.length ? { floors } : {}), devices, groups, scenes }, format, warnings };
}

/** Reads and normalises a home file (JSON). Never throws a raw SyntaxError. */
export function loadHomeFile(file: string, options: { maxBytes?: number } = {}): { home: Home; format: HomeFormat; warnings: string[] } {
  if (!fs.existsSync(file)) throw new GridError('NOT_FOUND', `设备文件不存在：${file}`);
  const size = fs.statSync(file).size;
  if (options.maxBytes && size > options.maxBytes) {
    throw new GridError('TOO_LARGE', `设备文件 ${file} 太大（${size} 字节，上限 ${options.maxBytes} 字节）`);
  }
  // not UTF-8 (a GBK export) is refused, never read with U+FFFD names; the JSON error never echoes the content
  const raw = parseJsonText(readUtf8File(file, `设备文件 ${file} `), `设备文件 ${file} `);
  return normalizeHome(raw, `设备文件 ${file}`);
}

export function allEntities(home: Home): Entity[] {
  return [...home.devices, ...home.groups, ...home.scenes];
}

export function entityNames(e: Entity): string[] {
  return [e.name, ...e.nicknames];
}

const normCache = new Map<string, string>();
/** Matching key: normalised, no whitespace. Memoised: called per entity per command on hot paths. */
export function norm(s: string): string {
  let v = normCache.get(s);
  if (v === undefined) {
    v = canonical(s).replace(/\s+/g, '');
    if (normCache.size > 400_000) normCache.clear();
    normCache.set(s, v);
  }
  return v;
}
