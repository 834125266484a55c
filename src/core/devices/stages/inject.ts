import { allEntities } from '../home';
import { roomMatches, type HomeIndex } from '../index';
import { summarizeForPrompt } from '../injection';
import { timingLabel } from '../labels';
import { SENSOR_FOR } from '../lexicon';
import { commandForValue, describeValue, resolveExtreme } from '../values';
import type { ConditionResult, Entity, Home, QueryIR, RetrievalResult, Scored, ValueCheck } from '../types';
import { actionLabel } from '../actions';

/**
 * Stage 7 — inject: what goes to the agent with the chosen entities: condition readings, the
 * value checked against each device's command range, and the YAML (whose header comment
 * restates each command in words, value and condition included).
 */

const SENSOR_LABEL: Record<string, string> = { temperature: '温度', humidity: '湿度', illuminance: '光照' };
const OP_LABEL: Record<string, string> = { '>': '高于', '>=': '不低于', '<': '低于', '<=': '不高于', '=': '等于' };

export function evaluateConditions(index: HomeIndex, ir: QueryIR, chosen: Scored[]): ConditionResult[] {
  return ir.conditions.map((c) => {
    const cat = SENSOR_FOR[c.sensor];
    const sensors = index.home.devices.filter(
      (d) => (d.category === cat || (d.attributes && typeof d.attributes[c.sensor] === 'number')) && typeof d.attributes?.[c.sensor] === 'number',
    );
    const roomsWanted = [c.room, ...ir.scope_include, ...chosen.map((s) => s.entity.room)].filter((r): r is string => !!r);
    let sensor = null as Entity | null;
    for (const r of roomsWanted) {
      sensor = sensors.find((s) => roomMatches(s.room, r)) ?? null;
      if (sensor) break;
    }
    // no sensor in the room: a whole-home condition (室温) may use the only/first sensor
    if (!sensor && !c.room) sensor = sensors[0] ?? null;
    if (!sensor) return { ...c, status: 'unknown' as const, sensor_id: null, reading: null };
    const reading = sensor.attributes![c.sensor] as number;
    const met =
      c.op === '>' ? reading > c.value : c.op === '>=' ? reading >= c.value : c.op === '<' ? reading < c.value : c.op === '<=' ? reading <= c.value : reading === c.value;
    return { ...c, status: met ? ('met' as const) : ('not_met' as const), sensor_id: sensor.id, reading };
  });
}

/**
 * Checks the value against each chosen entity's command (in range / out of range / no such
 * command) and fills an extreme (最亮) with the command's range end. Mutates ir.value.number.
 */
export function checkValue(ir: QueryIR, chosen: Scored[]): ValueCheck[] | undefined {
  const value = ir.value;
  // what to play has no range to check
  if (!value || value.attribute === 'content') return undefined;
  const checks: ValueCheck[] = [];
  let resolved: number | null = null;
  for (const s of chosen) {
    const cmd = commandForValue(s.entity.commands, value);
    const number = value.extreme ? resolveExtreme(value, cmd) : value.number;
    if (resolved === null && number !== null) resolved = number;
    const r = cmd?.value_range;
    let status: ValueCheck['status'];
    if (!cmd) status = 'no_command';
    else if (!r || number === null || value.relative) status = 'no_range';
    else status = (r.minimum === undefined || number >= r.minimum) && (r.maximum === undefined || number <= r.maximum) ? 'in_range' : 'out_of_range';
    checks.push({ id: s.entity.id, status, command_id: cmd?.id ?? null, minimum: r?.minimum ?? null, maximum: r?.maximum ?? null, unit: r?.unit ?? null });
  }
  if (value.extreme && value.number === null) value.number = resolved ?? resolveExtreme(value, null);
  return checks;
}

const CHECK_LABEL: Record<ValueCheck['status'], string> = {
  in_range: '在范围内',
  out_of_range: '超出范围',
  no_range: '未声明范围',
  no_command: '设备没有对应命令',
};

/** One comment line per command: 命令 1：调温度 → 客厅空调；数值 26℃（在范围内 16–30）；条件 温度高于28℃. */
export function commandSummaryLines(results: RetrievalResult[]): string[] {
  return results.map((r, i) => {
    const parts = [`# 命令 ${i + 1}：${actionLabel(r.ir.action)}`];
    const who = r.selected.map((s) => s.name).join('、');
    parts[0] += who ? ` → ${who}` : '';
    if (r.ir.value) {
      const check = r.meta.value_check?.[0];
      const range = check && check.minimum !== null && check.maximum !== null ? ` ${check.minimum}–${check.maximum}${check.unit ?? ''}` : '';
      parts.push(`数值 ${(r.ir.values ?? [r.ir.value]).map(describeValue).join('，')}${check ? `（${CHECK_LABEL[check.status]}${check.status === 'in_range' || check.status === 'out_of_range' ? range : ''}）` : ''}`);
    }
    const timing = timingLabel(r.ir);
    if (timing) parts.push(timing);
    for (const c of r.ir.conditions) {
      parts.push(`条件 ${c.room ?? ''}${SENSOR_LABEL[c.sensor] ?? c.sensor}${OP_LABEL[c.op] ?? c.op}${c.value}${c.unit ?? (c.sensor === 'temperature' ? '℃' : c.sensor === 'humidity' ? '%' : '')}`);
    }
    return parts.join('；');
  });
}

/** Entities to inject for a result set (devices, groups and scenes selected, plus condition sensors). */
export function selectedEntities(home: Home, results: RetrievalResult[]): Entity[] {
  const byId = new Map(allEntities(home).map((e) => [e.id, e]));
  const ids = new Set<string>();
  for (const r of results) {
    for (const s of r.selected) ids.add(s.id);
    for (const c of r.meta.conditions) if (c.sensor_id) ids.add(c.sensor_id);
  }
  return [...ids].map((id) => byId.get(id)!).filter(Boolean);
}

/** The YAML for the agent's system prompt, with the commands restated in the header comment. */
export function injectStage(home: Home, results: RetrievalResult[], options: { maxNameLength?: number; maxDescriptionLength?: number } = {}): string {
  return summarizeForPrompt(selectedEntities(home, results), { ...options, headerLines: commandSummaryLines(results) });
}

