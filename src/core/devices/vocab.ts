import { z } from 'zod';
import { GridError } from '../common/errors';
import actionsRaw from './vocab/actions.json' with { type: 'json' };
import canonicalRaw from './vocab/canonical.json' with { type: 'json' };
import categoriesRaw from './vocab/categories.json' with { type: 'json' };
import kindsRaw from './vocab/kinds.json' with { type: 'json' };
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

const actionsSchema = z
  .object({
    $comment: z.string().optional(),
    phrases: z.record(z.string(), words),
    served_by: z.record(z.string(), words),
    opposites: z.record(z.string(), words),
    description_words: z.record(z.string(), z.array(wordOrRegex)),
    exact: words,
  })
  .superRefine((v, ctx) => {
    // every action named anywhere must be one of the phrase table's actions
    const known = new Set(Object.keys(v.phrases));
    const check = (path: (string | number)[], a: string) => {
      if (!known.has(a)) ctx.addIssue({ code: 'custom', path, message: `未知的动作「${a}」（应为 phrases 中的一个）` });
    };
    for (const key of ['served_by', 'opposites'] as const) for (const [a, list] of Object.entries(v[key])) [a, ...list].forEach((x) => check([key, a], x));
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
