import { norm } from './home';
import { findWords, type HomeIndex } from './index';
import { parseNumber } from './values';
import type { Condition } from './types';
import { CONDITIONS } from './data';

/** Conditions said before a command (温度高于28度就打开空调): the sensor, the comparison, the value. */
const COND_PREFIX = CONDITIONS.re.prefix;
const COND_SPLIT = CONDITIONS.re.split;
const SENSOR_WORDS = CONDITIONS.tables.sensor_words as [RegExp, Condition['sensor']][];
const OPS = CONDITIONS.tables.comparisons as [RegExp, Condition['op']][];
const SENSOR_UNIT: Record<Condition['sensor'], string> = { temperature: '℃', humidity: '%', illuminance: 'lux' };

/** 温度高于28度 / 湿度低于40% / 光照低于100: one condition, or null when the text is not one. */
export function parseCondition(text: string, index: HomeIndex): Condition | null {
  const t = norm(text).replace(COND_PREFIX, '');
  let sensor = SENSOR_WORDS.find(([re]) => re.test(t))?.[1];
  // 超过30度就… says temperature by its unit
  if (!sensor && CONDITIONS.re.temperature_unit.test(t)) sensor = 'temperature';
  if (!sensor) return null;
  let op: Condition['op'] | undefined;
  if (CONDITIONS.re.at_least.test(t)) op = '>=';
  else if (CONDITIONS.re.at_most.test(t)) op = '<=';
  else {
    // 降到20度以下: the later word (以下) decides
    const hits = OPS.map(([re, o]) => ({ o, i: t.search(re) })).filter((h) => h.i >= 0);
    const below = hits.find((h) => h.o === '<');
    const above = hits.find((h) => h.o === '>');
    op = below && above ? (below.i > above.i ? '<' : '>') : (above?.o ?? below?.o ?? hits[0]?.o);
  }
  const num = t.match(CONDITIONS.re.number);
  if (!op || !num) return null;
  const value = parseNumber(num[0]);
  if (value === null || !Number.isFinite(value)) return null;
  const room = findWords(t, index.roomWords)[0]?.word ?? null;
  return { sensor, op, value, room, unit: SENSOR_UNIT[sensor], text: text.replace(COND_PREFIX, '') };
}

/** Splits "condition + command": the first split point whose left side reads as a condition. */
export function splitCondition(body: string, index: HomeIndex): { cond: Condition; rest: string } | null {
  if (!CONDITIONS.re.comparison.test(body)) return null;
  for (const m of body.matchAll(COND_SPLIT)) {
    const left = body.slice(0, m.index);
    const rest = body.slice(m.index! + m[0].length).replace(CONDITIONS.re.split_lead, '');
    if (!rest || !left) continue;
    const cond = parseCondition(left, index);
    if (cond) return { cond, rest };
  }
  return null;
}

