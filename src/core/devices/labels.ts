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

export function reasonLabels(codes: string[]): string {
  return [...new Set(codes.map((c) => REASON_LABELS[c] ?? '其他依据'))].join('、');
}
