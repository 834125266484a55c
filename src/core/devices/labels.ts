/**
 * Chinese words for the engine's codes, for the CLI's human output (the renderer has its own
 * catalogue in i18n/messages.ts; JSON keeps the codes).
 */
export const REASON_LABELS: Record<string, string> = {
  name_hit: '名称',
  name_partial: '名称部分',
  name_alias: '名称简称',
  pinyin_hit: '读音',
  type_hit: '种类',
  room_hit: '房间',
  room_from_name: '名称含房间',
  vector_hit: '语义相近',
  command_match: '支持该操作',
  group_covers: '分组覆盖',
  reference: '指代',
  clarification_answer: '澄清回答',
};

export const KIND_LABELS: Record<string, string> = { device: '设备', group: '分组', scene: '场景' };

export const VALUE_CHECK_LABELS: Record<string, string> = {
  in_range: '在范围内',
  out_of_range: '超出范围',
  no_range: '未声明范围',
  no_command: '设备没有对应命令',
};

export const SENSOR_LABELS: Record<string, string> = { temperature: '温度', humidity: '湿度', illuminance: '光照' };
export const OP_LABELS: Record<string, string> = { '>': '高于', '>=': '不低于', '<': '低于', '<=': '不高于', '=': '等于' };

const INTENT_LABELS: Record<string, string> = { time: '问时间', date: '问日期', weather: '问天气', nevermind: '不用了', list: '清单/备忘', chat: '闲聊', other: '其他问题' };
const TIMER_LABELS: Record<string, string> = { start: '开始计时', cancel: '取消计时器', status: '查询计时器剩余时间', pause: '暂停计时器', resume: '继续计时器' };

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
  return [...new Set(codes.map((c) => REASON_LABELS[c] ?? '其他依据'))].join('、');
}
