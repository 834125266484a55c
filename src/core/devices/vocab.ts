import { z } from 'zod';
import { GridError } from '../common/errors';
import actionsRaw from './vocab/actions.json' with { type: 'json' };
import canonicalRaw from './vocab/canonical.json' with { type: 'json' };
import categoriesRaw from './vocab/categories.json' with { type: 'json' };
import kindsRaw from './vocab/kinds.json' with { type: 'json' };
import protocolRaw from './vocab/protocol.json' with { type: 'json' };
import roomsRaw from './vocab/rooms.json' with { type: 'json' };

/**
 * The engine's vocabulary files (src/core/devices/vocab/*.json), each validated by a zod schema when
 * the module loads: a broken file stops with a Chinese message naming the file and the field, never
 * a silently empty table. docs/devices-vocabulary.md says what each file holds and how to add a word.
 */
export function loadVocab<T extends z.ZodTypeAny>(file: string, schema: T, raw: unknown): z.output<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const i = parsed.error.issues[0];
  throw new GridError('BAD_FILE', `词表 ${file} 无效 — ${i.path.join('.') || '(根)'}: ${i.message}`);
}

const categoriesSchema = z
  .object({
    $comment: z.string().optional(),
    /** GridCode kind -> its Chinese label */
    kinds: z.record(z.string().regex(/^[a-z][A-Za-z]*$/, '种类代码应为小驼峰英文'), z.string().min(1)),
    /** ecosystem -> its category name -> GridCode kind */
    ecosystems: z.record(z.string(), z.record(z.string().min(1), z.string().min(1))),
  })
  .superRefine((v, ctx) => {
    for (const [eco, table] of Object.entries(v.ecosystems))
      for (const [name, kind] of Object.entries(table))
        if (!(kind in v.kinds)) ctx.addIssue({ code: 'custom', path: ['ecosystems', eco, name], message: `未知的种类「${kind}」（应为 kinds 中的一个）` });
  });

export const CATEGORIES = loadVocab('categories.json', categoriesSchema, categoriesRaw);

/** Names an installer may write before the colon: homeassistant:climate, 涂鸦:kt. */
const ECOSYSTEM_NAMES: Record<string, string> = {
  homeassistant: 'homeassistant', ha: 'homeassistant', hass: 'homeassistant',
  mihome: 'mihome', miot: 'mihome', mijia: 'mihome', xiaomi: 'mihome', 米家: 'mihome',
  smartthings: 'smartthings', st: 'smartthings',
  tuya: 'tuya', 涂鸦: 'tuya',
  homekit: 'homekit', hk: 'homekit',
};

const lower = (s: string) => s.trim().toLowerCase();
const kindByLower = new Map(Object.keys(CATEGORIES.kinds).map((k) => [k.toLowerCase(), k]));
const kindByLabel = new Map(Object.entries(CATEGORIES.kinds).map(([k, label]) => [label, k]));
const byEcosystem = new Map(Object.entries(CATEGORIES.ecosystems).map(([eco, t]) => [eco, new Map(Object.entries(t).map(([n, k]) => [n.toLowerCase(), k]))]));

/**
 * The GridCode kind of a category as an ecosystem writes it (climate, homeassistant:cover.garage,
 * tuya:kt, HeaterCooler, urn:miot-spec-v2:device:air-conditioner:0000A004:…), or null when no table knows it.
 */
export function kindOfCategory(value: string): string | null {
  const v = lower(value);
  if (!v) return null;
  const own = kindByLower.get(v) ?? kindByLabel.get(value.trim());
  if (own) return own;
  const miot = v.match(/^urn:miot-spec(?:-v2)?:device:([a-z0-9-]+)/);
  if (miot) return byEcosystem.get('mihome')!.get(miot[1]) ?? null;
  const prefixed = v.match(/^([^:]+):(.+)$/);
  if (prefixed && ECOSYSTEM_NAMES[prefixed[1]]) {
    const table = byEcosystem.get(ECOSYSTEM_NAMES[prefixed[1]])!;
    const name = prefixed[2].trim();
    // homeassistant:cover.garage, else the domain alone
    return table.get(name) ?? table.get(name.split('.')[0]) ?? kindByLower.get(name) ?? null;
  }
  for (const table of byEcosystem.values()) {
    const hit = table.get(v);
    if (hit) return hit;
  }
  return null;
}

/** The Chinese list of accepted kinds, for the warning about a category no table knows. */
export function acceptedKindsText(): string {
  return Object.entries(CATEGORIES.kinds)
    .filter(([k]) => k !== 'other' && k !== 'scene')
    .map(([k, label]) => `${k}（${label}）`)
    .join('、');
}

export function kindLabel(kind: string): string | undefined {
  return CATEGORIES.kinds[kind];
}

/** A regular expression written in a data file: {re, flags}; one that does not compile is a load error. */
const regexRule = z
  .object({ re: z.string().min(1), flags: z.string().regex(/^[gimsuy]*$/, '只能是 g i m s u y').default(''), to: z.string(), note: z.string().optional() })
  .superRefine((r, ctx) => {
    try {
      new RegExp(r.re, r.flags);
    } catch {
      ctx.addIssue({ code: 'custom', path: ['re'], message: `不是有效的正则表达式：${r.re}` });
    }
  })
  .transform((r): [RegExp, string] => [new RegExp(r.re, r.flags), r.to]);

const canonicalSchema = z.object({ $comment: z.string().optional(), english: z.array(regexRule), dialect: z.array(regexRule) });

/** [pattern, replacement] rewrites of canonical.ts: English words first, then dialect words. */
export const CANONICAL_RULES = loadVocab('canonical.json', canonicalSchema, canonicalRaw);

/** "/source/flags" -> RegExp, or null when it does not compile. */
function compile(v: string): RegExp | null {
  const m = v.match(/^\/(.*)\/([gimsuy]*)$/s);
  try {
    return new RegExp(m ? m[1] : v, m ? m[2] : '');
  } catch {
    return null;
  }
}
/** "/source/flags" in a data file is a regular expression; one that does not compile is a load error. */
const regexString = z.string().transform((v, ctx) => {
  const re = compile(v);
  if (re) return re;
  ctx.addIssue({ code: 'custom', message: `不是有效的正则表达式：${v}` });
  return z.NEVER;
});
/** A word, or a regular expression written /source/flags. */
const wordOrRegex = z
  .string()
  .min(1)
  .transform((v, ctx): string | RegExp => {
    if (!v.startsWith('/')) return v;
    const re = compile(v);
    if (re) return re;
    ctx.addIssue({ code: 'custom', message: `不是有效的正则表达式：${v}` });
    return z.NEVER;
  });
const words = z.array(z.string().min(1));

/**
 * The action enum: the name code uses (A.on, A.set_temperature …). Each one's wire code (the `a` of a command,
 * Chinese by design: 打开, 调温度) and its Chinese label come from the one table, vocab/actions.json `codes`,
 * read by the CLI, the YAML preview and the renderer alike.
 */
export const ACTION_KEYS = [
  'on', 'off', 'set_brightness', 'set_temperature', 'set_fan_speed', 'set_mode', 'set_volume', 'set_position', 'set_humidity',
  'set_color_temp', 'set_color', 'play', 'resume', 'pause', 'stop', 'next', 'previous', 'set_source', 'unmute', 'mute', 'lock',
  'unlock', 'start_cleaning', 'dock', 'raise', 'lower', 'run_scene', 'query', 'adjust', 'timer_start', 'timer_cancel',
  'timer_status', 'timer_pause', 'timer_resume', 'not_device', 'unknown',
] as const;
export const actionKeySchema = z.enum(ACTION_KEYS);
export type ActionKey = z.output<typeof actionKeySchema>;
const actionCode = z.object({ code: z.string().min(1), label: z.string().min(1) }).strict();

const actionsSchema = z
  .object({
    $comment: z.string().optional(),
    codes: z.record(actionKeySchema, actionCode).superRefine((codes, ctx) => {
      const seen = new Map<string, string>();
      for (const key of ACTION_KEYS) if (!codes[key]) ctx.addIssue({ code: 'custom', path: [key], message: `缺少动作「${key}」` });
      for (const [key, c] of Object.entries(codes)) {
        if (seen.has(c.code)) ctx.addIssue({ code: 'custom', path: [key, 'code'], message: `动作代码「${c.code}」与 ${seen.get(c.code)} 重复` });
        seen.set(c.code, key);
      }
    }),
    phrases: z.record(z.string(), words),
    served_by: z.record(z.string(), words),
    opposites: z.record(z.string(), words),
    description_words: z.record(z.string(), z.array(wordOrRegex)),
    exact: words,
  })
  .superRefine((v, ctx) => {
    // every action named anywhere must be one of the phrase table's actions
    const known = new Set(Object.values(v.codes).map((c) => c.code));
    const check = (path: (string | number)[], a: string) => {
      if (!known.has(a)) ctx.addIssue({ code: 'custom', path, message: `未知的动作「${a}」（应为 codes 中的一个）` });
    };
    for (const key of ['served_by', 'opposites'] as const) for (const [a, list] of Object.entries(v[key])) [a, ...list].forEach((x) => check([key, a], x));
    for (const a of Object.keys(v.phrases)) check(['phrases', a], a);
    for (const a of Object.keys(v.description_words)) check(['description_words', a], a);
    v.exact.forEach((a, i) => check(['exact', i], a));
  });

const kindPair = z.tuple([regexString, z.string().min(1)]);
const kindsSchema = z.object({
  $comment: z.string().optional(),
  words: z.record(z.string(), words),
  subtypes: z.record(z.string(), z.string().min(1)),
  media: words,
  door: words,
  bare_words: words,
  sensor_for: z.record(z.string(), z.string()),
  type_hints: z.array(kindPair),
  generic_types: regexString,
  command_hints: z.array(kindPair),
  refines: z.record(z.string(), words),
  umbrella_labels: z.record(z.string(), z.string().min(1)),
  main_setting: z.record(z.string(), z.enum(['brightness', 'temperature', 'volume', 'position', 'fanSpeed', 'humidity', 'colorTemp', 'color', 'mode', 'channel', 'source', 'content', 'generic'])),
  no_percent: words,
  power_only: words,
  families: z.record(z.string(), words),
});

const roomsSchema = z.object({
  $comment: z.string().optional(),
  words,
  aliases: z.record(z.string(), words),
  similar: z.record(z.string(), words),
  unknown: regexString,
});

/** vocab/actions.json: the action codes, what users say for them and what command descriptions say. */
export const ACTION_VOCAB = loadVocab('actions.json', actionsSchema, actionsRaw);
/** vocab/kinds.json: device kinds, their words and subtypes, and the hints that infer a kind. */
export const KIND_VOCAB = loadVocab('kinds.json', kindsSchema, kindsRaw);
/** vocab/rooms.json: room words, what a room word also covers, rooms of one kind. */
export const ROOM_VOCAB = loadVocab('rooms.json', roomsSchema, roomsRaw);

const SCHEMAS: Record<string, z.ZodTypeAny> = { 'actions.json': actionsSchema, 'kinds.json': kindsSchema, 'rooms.json': roomsSchema, 'canonical.json': canonicalSchema, 'categories.json': categoriesSchema };

/** Checks an edited copy of a vocabulary file against its schema (tests and tools): the same errors as at load. */
export function checkVocabFile(file: keyof typeof SCHEMAS, raw: unknown): void {
  loadVocab(file, SCHEMAS[file], raw);
}

/**
 * The grammar's word files (vocab/common.json, lights.json, climate.json …): named regular expressions
 * (`patterns`, written as the source or as /source/flags), ordered pattern → value tables (`tables`), word
 * lists (`words`) and maps (`maps`). A pattern may use `{name}` for a fragment (`fragments` of its own file,
 * else of any grammar file) or a word list (as an alternation). The files are checked when they load: an
 * unknown reference or a pattern that does not compile stops with the file and the field named, and a name
 * the code asks for that the file lacks is a Chinese error naming both, never an undefined pattern.
 */
const tableRow = z.object({ re: z.string().min(1), to: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]) }).strict();
export const grammarFileSchema = z
  .object({
    $comment: z.string().optional(),
    fragments: z.record(z.string(), z.string().min(1)).default({}),
    patterns: z.record(z.string(), z.string().min(1)).default({}),
    tables: z.record(z.string(), z.array(tableRow).min(1)).default({}),
    words: z.record(z.string(), words).default({}),
    maps: z.record(z.string(), z.record(z.string(), z.union([z.string(), z.number()]))).default({}),
  })
  .strict();
type GrammarFile = z.output<typeof grammarFileSchema>;

export interface GrammarVocab {
  /** named patterns */
  re: Record<string, RegExp>;
  /** fragments expanded to regular-expression source (for patterns built at run time) */
  src: Record<string, string>;
  /** ordered [pattern, value] rows: the first that matches wins */
  tables: Record<string, [RegExp, string | string[]][]>;
  words: Record<string, string[]>;
  maps: Record<string, Record<string, string | number>>;
}

const escapeRe = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Reads every grammar file at once (fragments may be shared between files); errors name file and field. */
export function loadGrammarFiles(raws: Record<string, unknown>): Record<string, GrammarVocab> {
  const files: Record<string, GrammarFile> = {};
  for (const [file, raw] of Object.entries(raws)) files[file] = loadVocab(file, grammarFileSchema, raw);
  const shared = new Map<string, string>();
  for (const [file, f] of Object.entries(files))
    for (const name of Object.keys(f.fragments)) {
      if (shared.has(name)) throw new GridError('BAD_FILE', `词表 ${file} 无效 — fragments.${name}: 片段名与 ${shared.get(name)} 中的重复`);
      shared.set(name, file);
    }
  const expanded = new Map<string, string>();
  const expand = (file: string, field: string, source: string, seen: string[] = []): string =>
    source.replace(/(?<!\\[pPk])\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => {
      const own = files[file];
      if (own.words[name]) return `(?:${own.words[name].map(escapeRe).join('|')})`;
      const home = own.fragments[name] !== undefined ? file : shared.get(name);
      if (!home) throw new GridError('BAD_FILE', `词表 ${file} 无效 — ${field}: 引用了未定义的片段「${name}」`);
      const key = `${home}:${name}`;
      if (seen.includes(key)) throw new GridError('BAD_FILE', `词表 ${file} 无效 — ${field}: 片段「${name}」循环引用`);
      if (!expanded.has(key)) expanded.set(key, expand(home, `fragments.${name}`, files[home].fragments[name], [...seen, key]));
      return expanded.get(key)!;
    });
  const compileIn = (file: string, field: string, written: string): RegExp => {
    const m = written.match(/^\/(.*)\/([gimsuy]*)$/s);
    const source = expand(file, field, m ? m[1] : written);
    try {
      return new RegExp(source, m ? m[2] : '');
    } catch {
      throw new GridError('BAD_FILE', `词表 ${file} 无效 — ${field}: 不是有效的正则表达式：${written}`);
    }
  };
  const strict = <T>(file: string, section: string, table: Record<string, T>): Record<string, T> =>
    new Proxy(table, {
      get(target, key) {
        if (typeof key !== 'string' || key in target) return target[key as string];
        throw new GridError('BAD_FILE', `词表 ${file} 缺少 ${section}.${key}`);
      },
    });
  const out: Record<string, GrammarVocab> = {};
  for (const [file, f] of Object.entries(files)) {
    out[file] = {
      re: strict(file, 'patterns', Object.fromEntries(Object.entries(f.patterns).map(([k, v]) => [k, compileIn(file, `patterns.${k}`, v)]))),
      src: strict(file, 'fragments', Object.fromEntries(Object.keys(f.fragments).map((k) => [k, expand(file, `fragments.${k}`, `{${k}}`)]))),
      tables: strict(file, 'tables', Object.fromEntries(Object.entries(f.tables).map(([k, rows]) => [k, rows.map((r, i): [RegExp, string | string[]] => [compileIn(file, `tables.${k}.${i}.re`, r.re), r.to])]))),
      words: strict(file, 'words', f.words),
      maps: strict(file, 'maps', f.maps),
    };
  }
  return out;
}

/** The command fields (seed 000 protocol), each described once here and attached to types.ts's commandSchema. */
export const COMMAND_FIELD_KEYS = ['a', 's', 'n', 't', 'q', 'c', 'v', 'w', 'x', 'd', 'i', 'cond', 'ref', 'at', 'reason'] as const;
const commandFieldKey = z.enum(COMMAND_FIELD_KEYS);
const protocolSchema = z
  .object({
    $comment: z.string().optional(),
    fields: z.record(commandFieldKey, z.string().min(1)).superRefine((f, ctx) => {
      for (const k of COMMAND_FIELD_KEYS) if (!f[k]) ctx.addIssue({ code: 'custom', path: [k], message: `缺少字段「${k}」的说明` });
    }),
    prompt_fields: z.array(commandFieldKey).min(1),
    prompt_before: words,
    prompt_after: words,
    no_rooms: z.string(),
  })
  .strict();
/** vocab/protocol.json: what each command field means and the LLM prompt around the field list. */
export const PROTOCOL = loadVocab('protocol.json', protocolSchema, protocolRaw);
export const COMMAND_FIELDS = PROTOCOL.fields as Record<(typeof COMMAND_FIELD_KEYS)[number], string>;
