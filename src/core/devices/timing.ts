import { parseNumber } from './values';
import { commandSchema, TIMER_ACTION, TIMER_OPS, type Command, type OtherIntent, type Schedule } from './types';

/**
 * Time in an utterance, read before the device grammar: delays (十分钟后…), clock times and days
 * (明天早上七点…, 每天7:30…), timers (设一个十分钟的定时器), and the table of requests that are not
 * device commands (现在几点, 天气, 提醒我…). The parser takes these off the clause first.
 */
// (一分半钟 / 一小时半: 半 after the unit is half of it too)
export const DURATION = /(\d+(?:\.\d+)?|[零一二两三四五六七八九十百]+)?\s*个?\s*(半)?\s*个?\s*(秒钟?|分钟|刻钟|分|小时|钟头|个钟)(半钟?)?/;
/** 1小时30分钟 / 一个小时零五分: a duration said in two units (longest first). */
export const DURATIONS = `(?:${DURATION.source}(?:零|又)?){1,3}`;
// 一刻钟 / 三刻钟: quarters of an hour
export const SECONDS: Record<string, number> = { 秒: 1, 秒钟: 1, 分: 60, 分钟: 60, 刻钟: 900, 小时: 3600, 钟头: 3600, 个钟: 3600 };

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
export const DELAY = new RegExp(`(?:(?:过|等)${DURATIONS}(?:之后|以后|后|再)?|${DURATIONS}(?:之后|以后|后))`);

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

export const CLOCK_DAY: Record<string, number> = { 今天: 0, 今日: 0, 今早: 0, 今晚: 0, 明天: 1, 明日: 1, 明早: 1, 明晚: 1, 后天: 2 };
export const NUMERAL = '\\d{1,2}|[零一二两三四五六七八九十]{1,3}';
/** (每天|明天)(早上|下午…)七点(半|一刻|二十分|:30): a clock time; with neither day nor part of day only at the start. */
export const CLOCK = new RegExp(
  `(?:等到|到了|在)?(每天|每日)?(今天|今日|今早|今晚|明天|明日|明早|明晚|后天)?(早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|凌晨|半夜)?` +
    `(${NUMERAL})\\s*(?:点钟?|时|[:：])\\s*(?:(半)|(一刻)|(三刻)|(${NUMERAL})分?)?(?:整)?(?:的时候|的时|时|左右)?(?:的话)?(?:就|再)?`,
);

/** 明天关灯 / 今晚把窗帘拉上: a day said first without a clock time. */
export const DAY_ONLY = /^(?:等到|到了)?(明天|明日|明早|明晚|后天|今晚)(早上|上午|中午|下午|傍晚|晚上)?(?:的时候|再|就)?/;

/** 明天早上七点 / 晚上十点半 / 每天7:30 / 明天: when a command is for, and the body without it. */
export function takeClockTime(body: string): { body: string; at: Schedule } | null {
  const m = body.match(CLOCK);
  if (!m) {
    const d = body.match(DAY_ONLY);
    if (!d) return null;
    return { body: body.slice(d[0].length), at: { day: CLOCK_DAY[d[1]], time: null, text: d[0].replace(/(?:的时候|再|就)+$/, '') } };
  }
  const [, daily, day, part, hourText, half, quarter, threeQuarters, minuteText] = m;
  if (!daily && !day && !part && body.slice(0, m.index).replace(/[，,\s]|^(?:请|麻烦|帮我|在|到了?|等到)+/g, '') !== '') return null;
  let hour = parseNumber(hourText);
  const minute = half ? 30 : quarter ? 15 : threeQuarters ? 45 : minuteText ? parseNumber(minuteText) : 0;
  if (hour === null || minute === null || hour > 24 || minute > 59) return null;
  const evening = /下午|傍晚|晚上|夜里|半夜/.test(part ?? '') || /晚/.test(day ?? '');
  if (evening && hour < 12) hour += 12;
  if (part === '中午' && hour < 3) hour += 12;
  const at: Schedule = {
    day: daily ? null : day ? CLOCK_DAY[day] : null,
    time: `${String(hour % 24).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
    ...(daily ? { repeat: 'daily' as const } : {}),
    text: m[0].replace(/^(?:等到|到了|在)/, '').replace(/(?:的时候|的时|时|左右|的话|就|再)+$/, ''),
  };
  return { body: body.slice(0, m.index) + body.slice(m.index! + m[0].length), at };
}

/** 设一个十分钟的定时器 / 取消计时器 / 计时器还剩多久: a timer request, no device. */
export function timerCommand(body: string): Command | null {
  if (!/定时器|计时器|倒计时|闹钟|计时|定时$|timer/i.test(body)) return null;
  const m = body.match(DURATION);
  const seconds = m ? durationSeconds(m) : null;
  const a: keyof typeof TIMER_OPS = /取消|删除|删掉|关掉|关闭|停掉|不要了/.test(body)
    ? '取消计时'
    : /还剩|剩下|剩多少|多久|多长时间|还有多少|还有几/.test(body)
      ? '查询计时'
      : /暂停/.test(body)
        ? '暂停计时'
        : /继续|恢复/.test(body)
          ? '继续计时'
          : TIMER_ACTION;
  if (a === TIMER_ACTION && !seconds) return null;
  return commandSchema.parse({ a, v: m && seconds ? m[0].replace(/\s+/g, '') : undefined, d: seconds ?? undefined });
}

/** Utterances a voice assistant hears that are not about devices; each answered without a device. */
export const OTHER_INTENTS: [RegExp, OtherIntent][] = [
  [/^(?:现在|请问)?(?:是)?(?:几点|几点钟|几点了|什么时间|什么时候了)(?:了|啊|呀)?$|^现在(?:的)?时间$/, 'time'],
  [/^(?:今天|明天|昨天)(?:是)?(?:几号|几月几号|星期几|礼拜几|周几|什么日子)|^(?:今天的?)?日期$/, 'date'],
  // asks about the weather (今天天气不错 only remarks on it)
  [/天气(?:怎么样|怎样|如何|好吗|好不好|预报|会不会|热不热|冷不冷)|会不会下(?:雨|雪)|(?:要|会)下(?:雨|雪)吗|下(?:雨|雪)了吗|(?:外面|室外|户外)(?:多少度|几度|冷不冷|热不热|温度)/, 'weather'],
  [/^(?:算了|没事了?|不用了?|没什么|不要了|取消|取消吧|好了|不用管了?|没关系)(?:吧|啊|了|喇)?$/, 'nevermind'],
  [/购物清单|购物单|待办事项|待办清单|待办列表|备忘录/, 'list'],
  [/天气(?:预报)?$/, 'weather'],
  // about a device or the world, not an order to one: price, repair, how-to, arithmetic, calls and messages
  [/多少钱|价格|价钱|怎么修|坏了|怎么用|怎么设置|如何设置|原理|说明书|在?哪里?买|保修|等于几|等于多少|乘以|除以|有什么新闻|打电话|打个电话|发微信|发短信|发消息|翻译|讲个?笑话|推荐一/, 'other'],
];

