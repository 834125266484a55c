import { z } from 'zod';
import { GridError } from '../common/errors';
import categoriesRaw from './vocab/categories.json' with { type: 'json' };

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
