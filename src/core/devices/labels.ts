import { z } from 'zod';
import { actionLabel, TIMER_OPS } from './actions';
import { loadVocab } from './vocab';
import labelsRaw from './vocab/labels.json' with { type: 'json' };

const table = z.record(z.string(), z.string().min(1));
const labelsSchema = z
  .object({ $comment: z.string().optional(), reasons: table, kinds: table, value_checks: table, sensors: table, comparisons: table, intents: table })
  .strict();
/**
 * Chinese words for the engine's codes, for the CLI's human output and the YAML preview, from
 * vocab/labels.json (the renderer has its own catalogue in i18n/messages.ts; JSON keeps the codes).
 */
const labels = loadVocab('labels.json', labelsSchema, labelsRaw);

export const REASON_LABELS: Record<string, string> = labels.reasons;
export const KIND_LABELS: Record<string, string> = labels.kinds;
export const VALUE_CHECK_LABELS: Record<string, string> = labels.value_checks;
export const SENSOR_LABELS: Record<string, string> = labels.sensors;
export const OP_LABELS: Record<string, string> = labels.comparisons;
const INTENT_LABELS: Record<string, string> = labels.intents;
/** A timer's words are its action's label (actions.json codes): 开始计时, 取消计时器 … */
const TIMER_LABELS: Record<string, string> = Object.fromEntries(Object.entries(TIMER_OPS).map(([code, op]) => [op, actionLabel(code)]));

/** 600 -> 10分钟, 5400 -> 1小时30分钟, 45 -> 45秒. */
export function durationLabel(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}小时` : ''}${m ? `${m}分钟` : ''}${s ? `${s}秒` : ''}` || '0秒';
}

/** When and what beyond devices: 延时 10分钟后执行 / 开始计时 10分钟 / 不是设备指令（问时间）; null when nothing to say. */
export function timingLabel(ir: { delay_seconds?: number; timer?: { op: string; seconds: number | null }; intent?: string; schedule?: { day: number | null; time: string | null; repeat?: string } }): string | null {
  if (ir.intent) return `不是设备指令（${INTENT_LABELS[ir.intent] ?? ir.intent}）`;
  if (ir.timer) return `${TIMER_LABELS[ir.timer.op] ?? '计时器'}${ir.timer.seconds ? ` ${durationLabel(ir.timer.seconds)}` : ''}`;
  if (ir.delay_seconds) return `延时 ${durationLabel(ir.delay_seconds)}后执行`;
  if (ir.schedule) return scheduleLabel(ir.schedule);
  return null;
}

const DAYS = ['今天', '明天', '后天'];

/** 定时 明天 07:00 执行 / 每天 07:30 执行 / 定时 22:30 执行 (the next such time). */
export function scheduleLabel(at: { day: number | null; time: string | null; repeat?: string }): string {
  if (at.repeat === 'daily') return `每天 ${at.time ?? ''} 执行`.replace(/\s+/g, ' ');
  return ['定时', at.day === null ? null : DAYS[at.day], at.time, '执行'].filter(Boolean).join(' ');
}

export function reasonLabels(codes: string[]): string {
  return [...new Set(codes.map((c) => REASON_LABELS[c] ?? REASON_LABELS.other))].join('、');
}
