import { ACTION_VOCAB, type ActionKey } from './vocab';

/**
 * The action enum (vocab.ts ACTION_KEYS) with its wire codes and Chinese labels from the one table,
 * vocab/actions.json `codes`: code names an action as `A.set_temperature`, a command carries its code
 * (`a: "调温度"`, the protocol's contract) and people see its label (actionLabel), in the CLI, the YAML
 * preview and the renderer (which reads the same JSON).
 */
export const A = Object.fromEntries(Object.entries(ACTION_VOCAB.codes).map(([key, c]) => [key, c.code])) as Record<ActionKey, string>;

const LABELS = new Map(Object.values(ACTION_VOCAB.codes).map((c) => [c.code, c.label]));

/** 调温度 -> 调温度, 计时 -> 开始计时, UNKNOWN -> 未识别的动作; a code the table lacks is shown as given. */
export function actionLabel(code: string | null | undefined): string {
  if (!code) return LABELS.get(A.unknown)!;
  return LABELS.get(code) ?? code;
}

export const UNKNOWN_ACTION = A.unknown;
/** A timer request (设一个十分钟的定时器): no device acts; the IR carries `timer`. */
export const TIMER_ACTION = A.timer_start;
/** Not a device command at all (现在几点, 天气怎么样, 算了): nothing is selected and nothing asked. */
export const NOT_DEVICE_ACTION = A.not_device;
export type TimerOp = 'start' | 'cancel' | 'status' | 'pause' | 'resume';
/** The timer actions and what each does: start, cancel, how long is left, pause, resume. */
export const TIMER_OPS: Record<string, TimerOp> = {
  [A.timer_start]: 'start',
  [A.timer_cancel]: 'cancel',
  [A.timer_status]: 'status',
  [A.timer_pause]: 'pause',
  [A.timer_resume]: 'resume',
};
