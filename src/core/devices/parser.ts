import { canonical } from './canonical';
import { unknownCommand } from './command-protocol';
import { norm } from './home';
import { indexHome, type HomeIndex } from './index';
import { valueFromCommand } from './values';
import { splitCondition } from './conditions';
import { DELAY, takeDelay, takeClockTime, timerCommand } from './timing';
import { commandSchema, NOT_DEVICE_ACTION, TIMER_OPS, UNKNOWN_ACTION, type Command, type Condition, type Home, type QueryIR } from './types';
import { COMMON, TIME } from './data';
import { A } from './actions';
import { hasVerb, negationToVerb, COURTESY_END, WAKE, CHAT, REMINDER, POLITE_REQUEST, otherIntent, maskNames, distributeSharedTail } from './parse-utterance';
import { joinClauses, readClauses } from './parse-clauses';
import { hasTarget } from './parse-slots';

/**
 * Offline rule grammar: utterance -> ordered command array (seed 000 protocol {a,s,n,t,q,c,v,x}).
 * The utterance is first put in canonical form (simplified, Cantonese/Taiwan words, English
 * words; see canonical.ts). Names are masked next (longest match) so separators and room/type
 * words inside a name (卧室灯, 和风扇) never split or re-interpret it. Each clause is then read
 * as slots: condition, exception, reference, count, value, verb, attribute, rooms, type, name.
 * This module only sequences the parse: utterance level (parse-utterance.ts), clauses
 * (parse-clauses.ts), slots (parse-slots.ts); commandToIR turns a command into the query IR.
 */

export function parseRules(text: string, home: Home | HomeIndex): Command[] {
  const index = 'entities' in home && 'info' in home ? (home as HomeIndex) : indexHome(home as Home);
  let body = canonical(text).replace(/\s+/g, '');
  // (before the wake word and the courtesy are taken off: 你好 / 谢谢 said alone are all there is)
  if (CHAT.test(body)) return [commandSchema.parse({ a: NOT_DEVICE_ACTION, i: 'chat', reason: '不是设备指令' })];
  // 半小时后提醒我关火 / 明早叫醒我: a reminder is a note for the user, whatever it mentions (even with a delay)
  if (REMINDER.test(body)) return [commandSchema.parse({ a: NOT_DEVICE_ACTION, i: 'list', reason: '不是设备指令' })];
  // 小爱同学，… is a wake word, but 小爱音箱 / 天猫精灵 may be this home's device names
  const wake = body.match(WAKE);
  if (wake && (/[，,、]$/.test(wake[0]) || !index.namesLongestFirst.some((n) => n.startsWith(norm(wake[0]).slice(0, 2))))) body = body.slice(wake[0].length);
  // trailing sentence particles (锁咗未呀 / 开了没啊) say nothing
  body = negationToVerb(body.replace(COURTESY_END, '').replace(COMMON.re.sentence_particles, ''));
  body = distributeSharedTail(body, index).replace(POLITE_REQUEST, '$1');
  // 十分钟后关灯带，二十分钟后关电视: each clause with its own delay is read on its own
  const delays = [...body.matchAll(new RegExp(DELAY.source, 'g'))];
  if (delays.length >= 2) {
    const cuts = delays.slice(1).map((d) => body.slice(0, d.index).search(COMMON.re.clause_end));
    if (cuts.every((c) => c > 0)) {
      const pieces = [0, ...cuts, body.length].slice(0, -1).map((start, i, all) => body.slice(start, i + 1 < all.length ? all[i + 1] : body.length).replace(/^[，,；;]+/, ''));
      if (pieces.every((p) => hasVerb(p))) return pieces.flatMap((p) => parseRules(p, index));
    }
  }
  const delay = takeDelay(body);
  // 玄关灯打开五分钟后关掉: a delay between two commands delays only the second (it acts on the same device)
  if (delay && hasVerb(delay.before.replace(/[，,]+$/, '')) && hasVerb(delay.after)) {
    const now = parseRules(delay.before, index);
    const all = parseRules(`${delay.before.replace(/[，,]+$/, '')}，然后${delay.after.replace(COMMON.re.then_lead, '')}`, index);
    if (all.length > now.length) return all.map((c, i) => (i >= now.length ? { ...c, d: delay.seconds } : c));
  }
  if (delay) body = delay.body;
  else {
    const other = timerCommand(body) ?? otherIntent(body.replace(/[，,。！!？?]+$/, ''), index);
    if (other) return [other];
  }
  // 明天早上七点打开窗帘: the clock time is when, not what (never act on it now); read after the
  // non-device intents, so 明天天气怎么样 / 明天几号 stay questions about the day
  const clock = delay ? null : takeClockTime(body);
  if (clock) body = clock.body;
  // 明天早上七点的闹钟: an alarm at a time is a note for the user, like a reminder
  if (clock && TIME.re.alarm.test(body)) return [commandSchema.parse({ a: NOT_DEVICE_ACTION, i: 'list', reason: '不是设备指令' })];
  let cond: Condition | null = null;
  const split = splitCondition(body, index);
  if (split) {
    cond = split.cond;
    body = split.rest;
  }
  const { text: maskedText, masked } = maskNames(body, index);
  const clauses = readClauses(maskedText, masked, index);
  const out = joinClauses(clauses, index);
  // the condition's room is where the command acts when the command names none (客厅温度高于27度就把空调…)
  const commands = out
    .filter((p) => p.a || hasTarget(p))
    .filter((p) => !(out.length > 1 && !p.a && p.residual && !p.t && !p.s.length))
    .filter((p) => !(out.length > 1 && p.complaint && (!p.n || p.residual) && !p.t && !p.s.length))
    .map((p) =>
      commandSchema.parse({
        a: p.a ?? UNKNOWN_ACTION,
        s: p.s.length ? p.s.join('、') : cond?.room && !p.n && p.t ? cond.room : null,
        n: p.n,
        t: p.t ?? (p.air ? 'climate' : null),
        q: p.q,
        c: p.c,
        cond: cond ?? undefined,
        ref: p.ref ? 'last-mentioned' : undefined,
        v: p.v ?? undefined,
        w: p.w.length && p.v !== null ? p.w : undefined,
        x: p.x.length ? p.x.join('、') : undefined,
        d: delay?.seconds,
        at: clock?.at,
        reason: p.a ? undefined : '未识别出动作',
      }),
    );
  if (!commands.length) return [unknownCommand('未识别出任何设备命令')];
  // 我要出门了，开启离家模式: the same scene said twice in a row runs once (a repeated step, 调高一度 twice, stays)
  return commands.filter((c, i) => i === 0 || c.a !== A.run_scene || commands[i - 1].a !== A.run_scene || c.n !== commands[i - 1].n);
}

/**
 * Seed 000: command -> QueryIR. With x (exceptions) s is the include scope; without it, the
 * older form q = except moves s into scope_exclude.
 */
export function commandToIR(cmd: Command): QueryIR {
  const split = (v: string | null | undefined) => (v ? v.split(/[、,，\s]+/).filter(Boolean) : []);
  const rooms = split(cmd.s);
  const except = split(cmd.x);
  const oldExcept = cmd.q === 'except' && !except.length;
  if (cmd.a in TIMER_OPS || cmd.a === NOT_DEVICE_ACTION) {
    return {
      action: cmd.a,
      value: null,
      name_hint: null,
      type_hint: null,
      scope_include: [],
      scope_exclude: [],
      quantifier: 'one',
      count: null,
      conditions: [],
      references: [],
      ...(cmd.a in TIMER_OPS ? { timer: { op: TIMER_OPS[cmd.a as keyof typeof TIMER_OPS], seconds: cmd.d ?? null, text: String(cmd.v ?? '') } } : {}),
      ...(cmd.i ? { intent: cmd.i } : {}),
    };
  }
  const value = valueFromCommand(cmd.v, cmd.a);
  const more = (cmd.w ?? []).map((x) => valueFromCommand(x.v, x.a)).filter((x): x is NonNullable<typeof x> => !!x);
  return {
    ...(cmd.d ? { delay_seconds: cmd.d } : {}),
    ...(cmd.at ? { schedule: cmd.at } : {}),
    action: cmd.a,
    value,
    ...(value && more.length ? { values: [value, ...more] } : {}),
    name_hint: cmd.n,
    type_hint: cmd.t,
    scope_include: oldExcept ? [] : rooms,
    scope_exclude: oldExcept ? rooms : except,
    quantifier: cmd.q,
    count: cmd.c,
    conditions: cmd.cond ? [cmd.cond] : [],
    references: cmd.ref ? [cmd.ref] : [],
  };
}
