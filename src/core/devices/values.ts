import { parseChineseNumber } from '../text/chinese-numbers';
import type { CommandSpec, IRValue, ValueAttribute } from './types';
import { COVERS, LIGHTS, NUMBERS, SETTINGS } from './data';

/**
 * Values as people say them (26度, 百分之五十, 一半, 七成, 最亮, 调高两度, 红色, 制冷模式) ->
 * {text, number, unit}. Shared by the rule grammar (which writes the command's `v`), the IR
 * mapping and the check against a device command's value_range.
 */

/** Action (canonical) -> the attribute its value is about. */
export const ACTION_ATTRIBUTE: Record<string, ValueAttribute> = {
  调亮度: 'brightness',
  调温度: 'temperature',
  调音量: 'volume',
  调位置: 'position',
  调风速: 'fanSpeed',
  调湿度: 'humidity',
  调色温: 'colorTemp',
  调颜色: 'color',
  设置模式: 'mode',
  换台: 'channel',
  切换信号源: 'source',
  // 播放周杰伦的歌: what to play
  播放: 'content',
};

/** Unit people mean when they give none (音量调到30 -> 30, 亮度50 -> 50%). */
const DEFAULT_UNIT: Record<ValueAttribute, string | null> = {
  brightness: '%',
  temperature: '℃',
  volume: null,
  position: '%',
  fanSpeed: '档',
  humidity: '%',
  colorTemp: 'K',
  color: null,
  mode: null,
  channel: null,
  source: null,
  content: null,
  generic: null,
};

/** Step of 调高/亮一点 when no amount is said. */
export const DEFAULT_STEP: Record<ValueAttribute, number> = {
  brightness: 10,
  temperature: 1,
  volume: 10,
  position: 10,
  fanSpeed: 1,
  humidity: 5,
  colorTemp: 500,
  color: 0,
  mode: 0,
  channel: 1,
  source: 0,
  content: 0,
  generic: 10,
};

/** Extremes without a value_range: percent-like attributes go 0..100. */
const PERCENT_LIKE = new Set<ValueAttribute>(['brightness', 'volume', 'position', 'humidity']);


/** 二十六点五 -> 26.5; 26 -> 26; null when not a number. */
export function parseNumber(text: string): number | null {
  const t = text.trim();
  if (/^-?\d+(?:\.\d+)?$/.test(t)) return Number(t);
  const [int, frac] = t.split('点');
  // 两千七 = 2700, 一百五 = 150: a digit after the last unit counts one place lower (两千零七 stays 2007)
  const elided = int.match(NUMBERS.re.elided);
  if (elided && frac === undefined) {
    const head = parseChineseNumber(elided[1] + elided[2]);
    const tail = parseChineseNumber(elided[3]);
    if (head !== null && tail !== null) return head + tail * (elided[2] === '千' ? 100 : 10);
  }
  const i = parseChineseNumber(int);
  if (i === null) return null;
  if (frac === undefined) return i;
  const digits = Array.from(frac).map((c) => parseChineseNumber(c));
  if (digits.some((d) => d === null)) return null;
  return Number(`${i}.${digits.join('')}`);
}

const UNIT_ALIASES = NUMBERS.tables.units as [RegExp, string][];

function canonicalUnit(u: string | undefined | null): string | null {
  if (!u) return null;
  for (const [re, c] of UNIT_ALIASES) if (re.test(u)) return c;
  return u;
}

/** A value inside an utterance: its span and what it says (the grammar decides the action). */
export interface FoundValue {
  /** text to store as the command's v */
  v: string;
  start: number;
  end: number;
  number: number | null;
  unit: string | null;
  relative?: 'up' | 'down';
  extreme?: 'max' | 'min';
}

const PERCENT_WORD = NUMBERS.re.percent_word;
const TENTHS = NUMBERS.re.tenths;
// 三分之一 / 四分之三: a fraction of the way (a percent, rounded)
const FRACTION = NUMBERS.re.fraction;
const HALF = COVERS.re.half;
const NUM_UNIT = NUMBERS.re.number_unit;
const BARE_NUM = NUMBERS.re.bare_number;
const TRAILING_NUM = NUMBERS.re.trailing_number;

/** Finds the first value phrase in `s` (already simplified Chinese, no spaces). */
export function findValue(s: string): FoundValue | null {
  const at = (m: RegExpMatchArray) => ({ start: m.index!, end: m.index! + m[0].length });
  let m = s.match(PERCENT_WORD);
  if (m) {
    const n = parseNumber(m[1]);
    if (n !== null) return { v: `${n}%`, ...at(m), number: n, unit: '%' };
  }
  m = s.match(FRACTION);
  if (m) {
    const [whole, part] = [parseNumber(m[1]), parseNumber(m[2])];
    if (whole && part !== null && part <= whole) return { v: m[0], ...at(m), number: Math.round((100 * part) / whole), unit: '%' };
  }
  m = s.match(NUM_UNIT);
  if (m) {
    // 二十六度半: half a unit more
    const n = parseNumber(m[1]) === null ? null : parseNumber(m[1])! + (m[3] ? 0.5 : 0);
    if (n !== null) return { v: `${n}${canonicalUnit(m[2])}`, ...at(m), number: n, unit: canonicalUnit(m[2]) };
  }
  m = s.match(TENTHS);
  if (m && parseNumber(m[1]) !== null && parseNumber(m[1])! <= 10) {
    const n = parseNumber(m[1])! * 10;
    return { v: `${n}%`, ...at(m), number: n, unit: '%' };
  }
  m = s.match(HALF);
  if (m) return { v: '一半', ...at(m), number: 50, unit: '%' };
  m = s.match(TRAILING_NUM) ?? s.match(BARE_NUM);
  if (m) {
    const n = parseNumber(m[1]);
    if (n !== null) {
      const start = m.index! + m[0].lastIndexOf(m[1]);
      return { v: String(n), start, end: start + m[1].length, number: n, unit: null };
    }
  }
  return null;
}

/** Reads a command's `v` (as the grammar or an LLM wrote it) in the light of its action. */
export function valueFromCommand(v: string | number | null | undefined, action: string): IRValue | null {
  if (v === null || v === undefined || v === '') return null;
  const attribute = ACTION_ATTRIBUTE[action] ?? 'generic';
  const text = String(v).trim();
  const unitOr = (u: string | null) => u ?? DEFAULT_UNIT[attribute];
  if (typeof v === 'number') return { text, number: v, unit: unitOr(null), attribute };
  if (NUMBERS.re.extreme_text.test(text) || NUMBERS.re.extreme_lead.test(text)) {
    // a white tone runs the other way: the coldest light is the highest Kelvin, the warmest the lowest
    const extreme: 'max' | 'min' = attribute === 'colorTemp' ? (LIGHTS.re.warm_end.test(text) ? 'min' : 'max') : NUMBERS.re.low_end.test(text) ? 'min' : 'max';
    return { text, number: null, unit: unitOr(null), attribute, extreme };
  }
  const rel = text.match(/^([+-])(.*)$/);
  if (rel) {
    const rest = rel[2].trim();
    const found = rest ? findValue(rest) ?? (parseNumber(rest) !== null ? { number: parseNumber(rest), unit: null } : null) : null;
    const n = found?.number ?? DEFAULT_STEP[attribute];
    return { text, number: n, unit: unitOr(found?.unit ?? null), attribute, relative: rel[1] === '+' ? 'up' : 'down' };
  }
  if (text === '一半' || text === '半') return { text, number: 50, unit: '%', attribute };
  const found = findValue(text);
  if (found && found.number !== null) return { text, number: found.number, unit: unitOr(found.unit), attribute };
  const n = parseNumber(text.replace(/[%％]$/, ''));
  if (n !== null) return { text, number: n, unit: unitOr(/[%％]$/.test(text) ? '%' : null), attribute };
  // a word: a colour, a mode, a channel name
  return { text, number: null, unit: null, attribute };
}

const ATTRIBUTE_WORDS = Object.fromEntries(SETTINGS.tables.command_words.map(([re, attribute]) => [attribute, re])) as Record<ValueAttribute, RegExp>;

/** The device command a value is for: the one whose words name the attribute (亮度 for brightness). */
export function commandForValue(commands: CommandSpec[], value: IRValue): CommandSpec | null {
  const re = ATTRIBUTE_WORDS[value.attribute];
  const named = commands.filter((c) => re.test(`${c.description} ${c.id} ${c.type ?? ''}`));
  const ranged = named.find((c) => c.value_range) ?? named[0];
  if (ranged) return ranged;
  // a single ranged command (setLevel) serves any numeric value of a simple device
  const withRange = commands.filter((c) => c.value_range);
  return value.attribute === 'generic' && withRange.length === 1 ? withRange[0] : null;
}

/** Fills an extreme (最亮) from a range, or from 0..100 for percent-like attributes. */
export function resolveExtreme(value: IRValue, command: CommandSpec | null): number | null {
  if (!value.extreme) return value.number;
  const r = command?.value_range;
  if (value.extreme === 'max' && r?.maximum !== undefined) return r.maximum;
  if (value.extreme === 'min' && r?.minimum !== undefined) return r.minimum;
  if (PERCENT_LIKE.has(value.attribute)) return value.extreme === 'max' ? 100 : 0;
  return null;
}

/** Readable value for previews and the YAML header: 26℃, 50%, 最亮（100%）, 调高 10%. */
export function describeValue(value: IRValue): string {
  const n = value.number === null ? '' : `${value.number}${value.unit ?? ''}`;
  if (value.relative) return `${value.relative === 'up' ? '调高' : '调低'} ${n}`.trim();
  if (value.extreme) return n ? `${value.text}（${n}）` : value.text;
  return n || value.text;
}
