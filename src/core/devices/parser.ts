import { parseChineseNumber } from '../text/chinese-numbers';
import { normalizeText } from '../text/normalize';
import { syllableKeys } from '../text/pinyin';
import { norm } from './home';
import { findWords, indexHome, type HomeIndex } from './index';
import { ACTIONS, SUBTYPES, TYPE_LABELS, longestFirst } from './lexicon';
import { unknownCommand } from './command-protocol';
import { findValue, valueFromCommand } from './values';
import { commandSchema, UNKNOWN_ACTION, type Command, type Condition, type Home, type QueryIR } from './types';

/**
 * Offline rule parser: utterance -> ordered command array (seed 000 protocol {a,s,n,t,q,c}).
 * Names are masked first (longest match) so separators and room/type words inside a name
 * (卧室灯, 和风扇) never split or re-interpret it.
 */

const ACTION_PHRASES: [string, string][] = longestFirst(Object.values(ACTIONS).flat()).map((p) => [
  p,
  Object.entries(ACTIONS).find(([, list]) => list.includes(p))![0],
]);
// 调到/设为 need the value's unit to know which setting is meant
const SET_PHRASES = ['调到', '调成', '调至', '设为', '设置为', '设置成', '设成', '调节', '调'];

const SEPARATORS = /然后|接着|随后|之后|再把|再|并且|同时|以及|顺便|[，,；;。！!？?\n]/;
const JOINERS = /和|跟|与|及|还有/;
const QUANT_ALL = /所有的|所有|全部的|全部|全屋的|全屋|全家的|全家|一切|统统|全都|都/;
const EXCEPT = /除了|除去|除/;
const EXCEPT_END = /以外的|之外的|以外|之外|外的|外/;
const REFERENCE = /它们|它|那个|这个|那盏|这盏|那台|这台|那些|这些|刚才那个|刚才的|刚刚那个|上一个|那一个|这一个|那两个|那俩/;
const COUNT = /(\d+|[一两二三四五六七八九十俩]+)\s*(个|盏|台|只|把|扇|部|组|路|块)/;
const PARTICLES = /请|帮我|帮忙|给我|麻烦|一下|一点|了|吧|呢|啊|呀|哦|嘛|我想|我要|想|要|能不能|可以|你|把|将|给|的|让|现在|马上|立刻|赶紧|稍微|都|下/g;
const CONDITION = /^(?:如果|要是|假如|假设|若是|若|当|一旦)(.+?)(?:的时候|的话|时)?(?:就|则|那么|那就|，|,)(.+)$/;
const SENSOR_WORDS: [RegExp, Condition['sensor']][] = [
  [/室温|温度|气温|屋里温度|天气/, 'temperature'],
  [/湿度|潮湿/, 'humidity'],
  [/光照|光线|亮度|照度/, 'illuminance'],
];
const OPS: [RegExp, Condition['op']][] = [
  [/超过|高于|大于|多于|以上|>/, '>'],
  [/低于|小于|少于|不到|以下|</, '<'],
  [/不低于|至少/, '>='],
  [/等于|达到|到了|到/, '>='],
];

function parseCondition(text: string, index: HomeIndex): Condition | null {
  const t = norm(text);
  const sensor = SENSOR_WORDS.find(([re]) => re.test(t))?.[1];
  if (!sensor) return null;
  let op: Condition['op'] | undefined;
  // 不低于 before 低于
  if (/不低于|至少/.test(t)) op = '>=';
  else if (/不高于|最多/.test(t)) op = '<=';
  else op = OPS.find(([re]) => re.test(t))?.[1];
  const num = t.match(/(-?\d+(?:\.\d+)?)|([零一两二三四五六七八九十百]+)/);
  if (!op || !num) return null;
  const value = num[1] !== undefined ? Number(num[1]) : parseChineseNumber(num[2]);
  if (value === null || !Number.isFinite(value)) return null;
  const room = findWords(t, index.roomWords)[0]?.word ?? null;
  return { sensor, op, value, room };
}

interface Clause {
  text: string;
  masked: Map<string, string>;
}

const PUA = 0xe000;

function maskNames(text: string, index: HomeIndex): { text: string; masked: Map<string, string> } {
  const masked = new Map<string, string>();
  const hits = findWords(text, index.namesLongestFirst.filter((n) => n.length >= 2));
  if (!hits.length) return { text, masked };
  let out = '';
  let pos = 0;
  hits.forEach((h, i) => {
    const ch = String.fromCharCode(PUA + i);
    masked.set(ch, h.word);
    out += text.slice(pos, h.start) + ch;
    pos = h.start + h.word.length;
  });
  return { text: out + text.slice(pos), masked };
}

/** Spoken homophones of a known name (大柏 for 大白): windows whose reading equals a name's. */
function findHomophone(text: string, index: HomeIndex): string | null {
  const chars = Array.from(text);
  if (chars.length < 2 || index.byPinyin.size === 0) return null;
  const keys = syllableKeys(text);
  if (keys.length !== chars.length) return null;
  for (let len = Math.min(8, chars.length); len >= 2; len--) {
    for (let i = 0; i + len <= chars.length; i++) {
      const key = keys.slice(i, i + len).join('');
      if (index.byPinyin.has(key)) return chars.slice(i, i + len).join('');
    }
  }
  return null;
}

function takeAll(s: string, re: RegExp): { rest: string; found: string[] } {
  const g = new RegExp(re.source, 'g');
  const found: string[] = [];
  const rest = s.replace(g, (m) => {
    found.push(m);
    return ' ';
  });
  return { rest, found };
}

interface Partial {
  a: string | null;
  s: string[];
  n: string | null;
  t: string | null;
  q: Command['q'];
  c: number | null;
  ref: boolean;
  setValue: string | null;
  v: string | null;
  /** n came from leftover text, not from a known name/subtype (有点暗) */
  residual: boolean;
}

function parsePart(raw: string, masked: Map<string, string>, index: HomeIndex): Partial {
  const p: Partial = { a: null, s: [], n: null, t: null, q: 'one', c: null, ref: false, setValue: null, v: null, residual: false };
  let s = raw;
  // names (already masked as single private-use characters)
  for (const [ch, name] of masked) {
    if (s.includes(ch)) {
      if (!p.n) p.n = name;
      s = s.split(ch).join(' ');
    }
  }
  const ref = takeAll(s, REFERENCE);
  if (ref.found.length) {
    p.ref = true;
    if (ref.found.some((f) => /们|些|两|俩/.test(f))) p.q = 'all';
    s = ref.rest;
  }
  const count = s.match(COUNT);
  if (count) {
    const n = parseChineseNumber(count[1]);
    // 一盏 on its own is not a count restriction worth keeping unless said with a type
    if (n && n > 0) p.c = n;
    s = s.replace(count[0], ' ');
  }
  // a value to set (50%, 26度) decides which setting 调到 means
  const value = findValue(s);
  if (value) {
    p.setValue = value.unit === '℃' ? '度' : value.unit;
    p.v = value.v;
    s = s.slice(0, value.start) + ' ' + s.slice(value.end);
  }
  // verbs are searched with room/type words blanked: 空调 holds 调, 玄关 and 开关 hold 关/开
  const blank = (text: string, words: string[]) => findWords(text, words).reduce((t, m) => t.slice(0, m.start) + '#'.repeat(m.word.length) + t.slice(m.start + m.word.length), text);
  const verbText = blank(s, [...index.roomWords, ...index.subtypeWords, ...index.typeWords.map((t) => t[0]).filter((w) => w.length >= 2)]);
  for (const [phrase, action] of ACTION_PHRASES) {
    const i = verbText.indexOf(phrase);
    if (i >= 0) {
      p.a = action;
      s = s.slice(0, i) + ' ' + s.slice(i + phrase.length);
      break;
    }
  }
  if (!p.a) {
    const set = SET_PHRASES.find((w) => verbText.includes(w));
    if (set) {
      p.a = '调节';
      const i = verbText.indexOf(set);
      s = s.slice(0, i) + ' ' + s.slice(i + set.length);
    }
  }
  // 客厅温度多少: a reading question targets the sensor, not the thermostat
  if (!p.a || p.a === '查询') {
    const reading = s.match(/温度|湿度|光照|亮度/);
    if (reading) {
      p.a = '查询';
      p.t = { 温度: 'temperatureSensor', 湿度: 'humiditySensor', 光照: 'lightSensor', 亮度: 'lightSensor' }[reading[0]]!;
      s = s.replace(reading[0], ' ').replace(/多少|几度|怎么样|如何/g, ' ');
    }
  }
  // 所有设备 / 全部电器: no type restriction at all
  s = s.replace(/设备|电器|东西/g, ' ');
  const any = takeAll(s, /随便|随意|任意|任何/);
  if (any.found.length) {
    p.q = 'any';
    s = any.rest;
  }
  const all = takeAll(s, QUANT_ALL);
  if (all.found.length) {
    p.q = 'all';
    if (all.found.some((f) => f.startsWith('全屋') || f.startsWith('全家'))) p.s = [];
    s = all.rest;
  }
  const rooms = findWords(s, index.roomWords);
  for (const r of rooms) p.s.push(r.word);
  for (const r of rooms) s = s.replace(r.word, ' ');
  const sub = findWords(s, index.subtypeWords)[0];
  if (sub) {
    p.t = SUBTYPES[sub.word];
    if (!p.n) p.n = sub.word;
    s = s.replace(sub.word, ' ');
  }
  const type = index.typeWords.find(([w]) => s.includes(w));
  if (type) {
    if (!p.t || p.t === type[1]) p.t = type[1];
    s = s.replace(type[0], ' ');
  }
  if (!p.n) {
    const homophone = findHomophone(s.replace(/\s+/g, ''), index);
    if (homophone) {
      p.n = homophone;
      s = s.replace(homophone, ' ');
    }
  }
  if (!p.n) {
    // what is left after removing everything known may still be a name hint (小米插座2号)
    const residual = s.replace(PARTICLES, ' ').replace(/[\s\d%％.]+/g, ' ').trim();
    const longest = residual.split(' ').sort((a, b) => b.length - a.length)[0] ?? '';
    if (Array.from(longest).length >= 2) {
      p.n = longest;
      p.residual = true;
    }
  }
  if (p.a === '调节') p.a = p.setValue === '%' && (p.t === 'light' || !p.t) ? '调亮度' : p.setValue === '度' ? '调温度' : '调节';
  return p;
}

function hasTarget(p: Partial): boolean {
  return !!(p.n || p.t || p.s.length || p.ref || p.q !== 'one');
}

/** Parses one utterance into commands with the rule parser (no network). */
export function parseRules(text: string, home: Home | HomeIndex): Command[] {
  const index = 'entities' in home && 'info' in home ? (home as HomeIndex) : indexHome(home as Home);
  let body = normalizeText(text).replace(/\s+/g, '');
  let cond: Condition | null = null;
  const cm = body.match(CONDITION);
  if (cm) {
    cond = parseCondition(cm[1], index);
    if (cond) body = cm[2];
  }
  const { text: maskedText, masked } = maskNames(body, index);
  const clauses: Clause[] = maskedText
    .split(SEPARATORS)
    .map((c) => c.replace(/^再/, ''))
    .filter((c) => c.trim())
    .map((c) => ({ text: c, masked }));
  const parts: Partial[] = [];
  for (const clause of clauses) {
    let text = clause.text;
    // 除卧室和书房以外的灯: the except span owns its 和
    let except: string[] | null = null;
    const ex = text.match(EXCEPT);
    if (ex && ex.index !== undefined) {
      const after = text.slice(ex.index + ex[0].length);
      let end = after.match(EXCEPT_END);
      // 关掉所有灯除了卧室: the except span runs to the end of the clause
      if ((!end || end.index === 0) && findWords(after, index.roomWords).length) end = Object.assign([''], { index: after.length }) as RegExpMatchArray;
      if (end && end.index !== undefined && end.index > 0) {
        const inner = after.slice(0, end.index);
        except = findWords(inner, index.roomWords).map((r) => r.word);
        for (const [ch, name] of clause.masked) if (inner.includes(ch)) except.push(name);
        if (!except.length) except = [inner];
        text = text.slice(0, ex.index) + ' ' + after.slice(end.index + end[0].length);
      }
    }
    const pieces = text.split(JOINERS).filter((x) => x.trim());
    const sub = pieces.map((piece) => parsePart(piece, clause.masked, index));
    // 打开客厅和卧室的灯: parts lacking a type/name borrow from the next part that has one
    for (let i = sub.length - 2; i >= 0; i--) {
      if (!sub[i].t && !sub[i].n && !sub[i].ref) {
        sub[i].t = sub[i + 1].t;
        if (sub[i + 1].n && index.subtypeWords.includes(sub[i + 1].n!)) sub[i].n = sub[i + 1].n;
      }
      if (sub[i].q === 'one' && sub[i + 1].q === 'all') sub[i].q = 'all';
    }
    // 打开客厅的灯和窗帘: a later piece without a room stays in the room of the piece before it
    for (let i = 1; i < sub.length; i++) {
      if (!sub[i].s.length && sub[i - 1].s.length && !sub[i].ref && !(sub[i].n && !index.subtypeWords.includes(sub[i].n!))) sub[i].s = [...sub[i - 1].s];
    }
    // a joined piece that is only a room+nothing merges with its neighbour's action
    for (let i = 1; i < sub.length; i++) if (!sub[i].a) sub[i].a = sub[i - 1].a;
    for (let i = sub.length - 2; i >= 0; i--) if (!sub[i].a) sub[i].a = sub[i + 1].a;
    if (except) {
      for (const p of sub) {
        p.q = 'except';
        p.s = except;
      }
    }
    parts.push(...sub);
  }
  // 客厅有点暗，把吊灯打开: a verbless remark that only names a room sets the room of what follows
  for (let i = parts.length - 2; i >= 0; i--) {
    const p = parts[i];
    const next = parts[i + 1];
    if (!p.a && p.s.length && !p.t && !p.ref && (!p.n || p.residual) && next.a && !next.s.length) {
      next.s = p.s;
      parts.splice(i, 1);
    }
  }
  // a verb-only clause (…然后关掉) applies to the previous target; a target-only clause takes the next verb
  const merged: Partial[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const next = parts[i + 1];
    if (!p.a && next && next.a && !hasTarget(next)) {
      p.a = next.a;
      merged.push(p);
      i++;
      continue;
    }
    if (!p.a && merged.length) p.a = merged[merged.length - 1].a;
    if (p.a && !hasTarget(p) && merged.length === 0 && parts.length === 1) p.ref = true;
    merged.push(p);
  }
  const commands = merged
    .filter((p) => p.a || hasTarget(p))
    .map((p) =>
      commandSchema.parse({
        a: p.a ?? UNKNOWN_ACTION,
        s: p.s.length ? p.s.join('、') : null,
        n: p.n,
        t: p.t,
        q: p.q,
        c: p.c,
        cond: cond ?? undefined,
        ref: p.ref ? 'last-mentioned' : undefined,
        v: p.v ?? undefined,
        reason: p.a ? undefined : '未识别出动作',
      }),
    );
  if (!commands.length) return [unknownCommand('未识别出任何设备命令')];
  return commands;
}


/** Seed 000: command -> QueryIR. q = except moves s into scope_exclude. */
export function commandToIR(cmd: Command): QueryIR {
  const rooms = cmd.s ? cmd.s.split(/[、,，\s]+/).filter(Boolean) : [];
  return {
    action: cmd.a,
    value: valueFromCommand(cmd.v, cmd.a),
    name_hint: cmd.n,
    type_hint: cmd.t,
    scope_include: cmd.q === 'except' ? [] : rooms,
    scope_exclude: cmd.q === 'except' ? rooms : [],
    quantifier: cmd.q,
    count: cmd.c,
    conditions: cmd.cond ? [cmd.cond] : [],
    references: cmd.ref ? [cmd.ref] : [],
  };
}
