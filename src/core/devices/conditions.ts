import { norm } from './home';
import { findWords, type HomeIndex } from './index';
import { parseNumber } from './values';
import type { Condition } from './types';

/** Conditions said before a command (温度高于28度就打开空调): the sensor, the comparison, the value. */
const COND_PREFIX = /^(?:如果|要是|假如|假设|若是|若|当|一旦|等到|等)/;
const COND_SPLIT = /的时候|的话|时候|时|就|则|那么|那就|，|,/g;
const SENSOR_WORDS: [RegExp, Condition['sensor']][] = [
  [/室温(?!度)|温度|气温|屋里温度|天气|热|冷/, 'temperature'],
  [/湿度|潮湿|干燥/, 'humidity'],
  [/光照|光线|亮度|照度|光强/, 'illuminance'],
];
const OPS: [RegExp, Condition['op']][] = [
  [/超过|高于|大于|多于|以上|超出|>/, '>'],
  [/低于|小于|少于|不到|以下|不足|</, '<'],
  [/等于|达到|到了|到/, '>='],
];
const SENSOR_UNIT: Record<Condition['sensor'], string> = { temperature: '℃', humidity: '%', illuminance: 'lux' };

/** 温度高于28度 / 湿度低于40% / 光照低于100: one condition, or null when the text is not one. */
export function parseCondition(text: string, index: HomeIndex): Condition | null {
  const t = norm(text).replace(COND_PREFIX, '');
  let sensor = SENSOR_WORDS.find(([re]) => re.test(t))?.[1];
  // 超过30度就… says temperature by its unit
  if (!sensor && /\d\s*(?:度|℃)|[十百]度/.test(t)) sensor = 'temperature';
  if (!sensor) return null;
  let op: Condition['op'] | undefined;
  if (/不低于|至少|不少于/.test(t)) op = '>=';
  else if (/不高于|最多|不超过/.test(t)) op = '<=';
  else {
    // 降到20度以下: the later word (以下) decides
    const hits = OPS.map(([re, o]) => ({ o, i: t.search(re) })).filter((h) => h.i >= 0);
    const below = hits.find((h) => h.o === '<');
    const above = hits.find((h) => h.o === '>');
    op = below && above ? (below.i > above.i ? '<' : '>') : (above?.o ?? below?.o ?? hits[0]?.o);
  }
  const num = t.match(/-?\d+(?:\.\d+)?|[零一两二三四五六七八九十百]+(?:点[零一二三四五六七八九])?/);
  if (!op || !num) return null;
  const value = parseNumber(num[0]);
  if (value === null || !Number.isFinite(value)) return null;
  const room = findWords(t, index.roomWords)[0]?.word ?? null;
  return { sensor, op, value, room, unit: SENSOR_UNIT[sensor], text: text.replace(COND_PREFIX, '') };
}

/** Splits "condition + command": the first split point whose left side reads as a condition. */
export function splitCondition(body: string, index: HomeIndex): { cond: Condition; rest: string } | null {
  if (!/超过|高于|大于|多于|以上|低于|小于|少于|不到|以下|等于|达到|不足|超出/.test(body)) return null;
  for (const m of body.matchAll(COND_SPLIT)) {
    const left = body.slice(0, m.index);
    const rest = body.slice(m.index! + m[0].length).replace(/^(?:就|则|那么|那就|，|,)+/, '');
    if (!rest || !left) continue;
    const cond = parseCondition(left, index);
    if (cond) return { cond, rest };
  }
  return null;
}

