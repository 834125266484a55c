import { z } from 'zod';
import { GridError } from '../common/errors';
import unitsRaw from './vocab/units.json' with { type: 'json' };

/**
 * The unit vocabulary of regulation tables (src/core/regulations/vocab/units.json), validated when the module loads
 * (a broken file stops with a Chinese message naming the field, never a silently empty list), and the matchers the
 * table reader (tables.ts, table-grid.ts) and the OCR cell clean-up (pdf.ts) use. A new unit is a data change.
 */
const unitList = z.array(z.string().min(1, '单位不能为空').max(12, '单位过长')).min(1);
const unitsSchema = z
  .object({
    $comment: z.string().optional(),
    /** domain -> units a header cell may name alone */
    header: z.record(z.string().regex(/^[a-z_]+$/, '领域名应为小写英文'), unitList),
    columnAlias: unitList,
    decimalColon: unitList,
    kilo: unitList,
  })
  .strict();

export type UnitVocabulary = z.output<typeof unitsSchema>;

/** Parses a unit vocabulary (the shipped file or one a test writes). */
export function parseUnits(raw: unknown, file = 'units.json'): UnitVocabulary {
  const parsed = unitsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const i = parsed.error.issues[0];
  throw new GridError('BAD_FILE', `词表 ${file} 无效 — ${i.path.join('.') || '(根)'}: ${i.message}`);
}

const escape = (u: string) => u.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** the units as one alternation, longest first */
const alternation = (units: string[]) => [...new Set(units)].sort((a, b) => b.length - a.length || a.localeCompare(b)).map(escape).join('|');

/** The matchers a vocabulary makes. */
export function unitMatchers(v: UnitVocabulary) {
  return {
    /** a header cell that only names a unit: "kV", "MW", "(%)", "单位：A" */
    cell: new RegExp(`^[（(]?\\s*(?:单位\\s*[:：]?\\s*)?(?:${alternation(Object.values(v.header).flat())})\\s*[)）]?$`),
    /** the unit a group label ends in, after a space ("额定电压 kV") */
    tail: new RegExp(`\\s(${alternation(v.columnAlias)})$`),
    /** a colon read for the decimal point of a number followed by its unit ("0:38kV") */
    decimalColon: new RegExp(`(?<=\\d)[:：](?=\\d+(?:${alternation(v.decimalColon)})(?![A-Za-z]))`, 'g'),
    /** a kilo unit alone with its prefix read as a capital ("KV") */
    kilo: new RegExp(`^K(${alternation(v.kilo)})$`),
  };
}

export const UNITS = parseUnits(unitsRaw);
export const UNIT_MATCHERS = unitMatchers(UNITS);
