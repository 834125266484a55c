import { parseNumber } from './values';
import { commandSchema, TIMER_ACTION, type Command, type OtherIntent, type Schedule } from './types';
import { INTENTS, TIME } from './data';
import { A } from './actions';

/**
 * Time in an utterance, read before the device grammar: delays (十分钟后…), clock times and days
 * (明天早上七点…, 每天7:30…), timers (设一个十分钟的定时器), and the table of requests that are not
 * device commands (现在几点, 天气, 提醒我…). The parser takes these off the clause first.
 */
// (一分半钟 / 一小时半: 半 after the unit is half of it too)
export const DURATION = TIME.re.duration;
/** 1小时30分钟 / 一个小时零五分: a duration said in two units (longest first). */
export const DURATIONS = TIME.src.durations;
// 一刻钟 / 三刻钟: quarters of an hour
export const SECONDS = TIME.maps.seconds as Record<string, number>;

/** 十分钟 / 半小时 / 一个半小时 / 90秒 -> seconds (null when the text holds no duration). */
export function durationSeconds(m: RegExpMatchArray): number | null {
  const unit = SECONDS[m[3]] ?? null;
  if (!unit) return null;
  const n = m[1] ? parseNumber(m[1]) : m[2] ? 0 : null;
  if (n === null) return null;
  const total = (n + (m[2] || m[4] ? 0.5 : 0)) * unit;
  return total > 0 ? Math.round(total) : null;
}

/** The sum of every duration inside a span (1小时30分钟 -> 5400), null when one is not a duration. */
export function spanSeconds(text: string): number | null {
  let total = 0;
  for (const m of text.matchAll(new RegExp(DURATION.source, 'g'))) {
    const s = durationSeconds(m);
    if (s === null) return null;
    total += s;
  }
  return total > 0 ? total : null;
}

/** 十分钟后 / 过五分钟 / 等半小时再…: a delay phrase (the suffix may go unsaid after 过 / 等). */
export const DELAY = TIME.re.delay;

/** 十分钟后 / 半小时以后 / 过一个小时: the delay said before (or inside) a command. */
export function takeDelay(body: string): { body: string; seconds: number; before: string; after: string } | null {
  const m = body.match(DELAY);
  if (!m) return null;
  const seconds = spanSeconds(m[0]);
  if (!seconds) return null;
  const before = body.slice(0, m.index);
  const after = body.slice(m.index! + m[0].length);
  return { body: before + after, seconds, before, after };
}

export const CLOCK_DAY = TIME.maps.clock_day as Record<string, number>;
/** (每天|明天)(早上|下午…)七点(半|一刻|二十分|:30): a clock time; with neither day nor part of day only at the start. */
export const CLOCK = TIME.re.clock;

/** 明天关灯 / 今晚把窗帘拉上: a day said first without a clock time. */
export const DAY_ONLY = TIME.re.day_only;

/** 明天早上七点 / 晚上十点半 / 每天7:30 / 明天: when a command is for, and the body without it. */
export function takeClockTime(body: string): { body: string; at: Schedule } | null {
  const m = body.match(CLOCK);
  if (!m) {
    const d = body.match(DAY_ONLY);
    if (!d) return null;
    return { body: body.slice(d[0].length), at: { day: CLOCK_DAY[d[1]], time: null, text: d[0].replace(TIME.re.day_tail, '') } };
  }
  const [, daily, day, part, hourText, half, quarter, threeQuarters, minuteText] = m;
  if (!daily && !day && !part && body.slice(0, m.index).replace(TIME.re.clock_lead, '') !== '') return null;
  let hour = parseNumber(hourText);
  const minute = half ? 30 : quarter ? 15 : threeQuarters ? 45 : minuteText ? parseNumber(minuteText) : 0;
  if (hour === null || minute === null || hour > 24 || minute > 59) return null;
  const evening = TIME.re.evening.test(part ?? '') || TIME.re.evening_day.test(day ?? '');
  if (evening && hour < 12) hour += 12;
  if (part === '中午' && hour < 3) hour += 12;
  const at: Schedule = {
    day: daily ? null : day ? CLOCK_DAY[day] : null,
    time: `${String(hour % 24).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
    ...(daily ? { repeat: 'daily' as const } : {}),
    text: m[0].replace(TIME.re.clock_prefix, '').replace(TIME.re.clock_tail, ''),
  };
  return { body: body.slice(0, m.index) + body.slice(m.index! + m[0].length), at };
}

/** 设一个十分钟的定时器 / 取消计时器 / 计时器还剩多久: a timer request, no device. */
export function timerCommand(body: string): Command | null {
  if (!TIME.re.timer.test(body)) return null;
  const m = body.match(DURATION);
  const seconds = m ? durationSeconds(m) : null;
  const a: string = TIME.re.timer_cancel.test(body)
    ? A.timer_cancel
    : TIME.re.timer_status.test(body)
      ? A.timer_status
      : TIME.re.timer_pause.test(body)
        ? A.timer_pause
        : TIME.re.timer_resume.test(body)
          ? A.timer_resume
          : TIMER_ACTION;
  if (a === TIMER_ACTION && !seconds) return null;
  return commandSchema.parse({ a, v: m && seconds ? m[0].replace(/\s+/g, '') : undefined, d: seconds ?? undefined });
}

/** Utterances a voice assistant hears that are not about devices; each answered without a device. */
export const OTHER_INTENTS = INTENTS.tables.other as [RegExp, OtherIntent][];

