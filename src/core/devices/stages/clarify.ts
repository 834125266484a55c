import { parseChineseNumber } from '../../text/chinese-numbers';
import { norm } from '../home';
import { roomMatches, type HomeIndex } from '../index';
import { TYPE_LABELS } from '../lexicon';
import { UNKNOWN_ACTION, type Clarification, type Command, type ConversationState, type Entity, type QueryIR, type Scored } from '../types';
import { QUESTIONS, SETTINGS } from '../data';

/**
 * Stage 6 — clarify: the question (with real options) when the engine must ask, and reading the
 * answer to an open question on the next turn (书房的 / 第二个).
 */

function optionLabel(e: Entity): string {
  return e.room ? `${e.name}（${e.room}）` : e.name;
}

function actionWord(action: string): string {
  return action === UNKNOWN_ACTION ? '操作' : action;
}

/** `outsideScope`: the rooms said hold nothing that fits, so the options lie elsewhere — the question says so. */
export function clarifyAmong(cmd: Command, ir: QueryIR, list: Scored[], max: number, outsideScope = false): Clarification {
  const label = ir.name_hint ?? (ir.type_hint ? (TYPE_LABELS[ir.type_hint] ?? '设备') : '设备');
  const rooms = new Set(list.map((s) => s.entity.room).filter(Boolean));
  // 您要调哪个房间的空调？ (a setting is asked with its plain verb, not 调温度哪个)
  const action = SETTINGS.re.set_lead.test(cmd.a) ? '调' : actionWord(cmd.a);
  const ask = rooms.size > 1 ? `您要${action}哪个房间的${label}？` : `您要${action}哪一个${label}？`;
  const question = outsideScope && ir.scope_include.length ? `${ir.scope_include.join('、')}没有找到${label}。${ask}` : ask;
  // one option per room first, so 打开灯 offers 客厅/卧室/书房… rather than six lamps of one room
  const seen = new Set<string | null>();
  const firstPerRoom = list.filter((s) => (seen.has(s.entity.room) ? false : (seen.add(s.entity.room), true)));
  const ordered = [...firstPerRoom, ...list.filter((s) => !firstPerRoom.includes(s))];
  return {
    question,
    options: ordered.slice(0, max).map((s) => ({ id: s.entity.id, kind: s.entity.kind, name: s.entity.name, room: s.entity.room, label: optionLabel(s.entity) })),
  };
}

export function clarifyReference(action: string): Clarification {
  return { question: `您要${actionWord(action)}的是哪个设备？`, options: [] };
}

export function clarifyNothingUnderstood(): Clarification {
  return { question: '没有听懂要控制哪个设备，请换个说法（例如“打开客厅的灯”）。', options: [] };
}

/**
 * Nothing fits: never a question with no options when the home has devices that could be
 * meant (seed 000) — offer the entities that can do the action, nearest type first.
 */
export function clarifyNothingFound(ir: QueryIR, action: string, offer: Scored[], max: number): Clarification | null {
  const what = ir.name_hint ?? (ir.type_hint ? (TYPE_LABELS[ir.type_hint] ?? '设备') : null);
  if (!what && !offer.length) {
    // 卧室好干 in a home whose humidifiers cannot set humidity: say so rather than return nothing silently
    if (action === UNKNOWN_ACTION) return null;
    const where = ir.scope_include.length ? ir.scope_include.join('、') : '家里';
    return { question: `${where}没有可以${actionWord(action)}的设备。`, options: [] };
  }
  const options = offer.slice(0, max).map((s) => ({ id: s.entity.id, kind: s.entity.kind, name: s.entity.name, room: s.entity.room, label: optionLabel(s.entity) }));
  return { question: `没有找到可以${actionWord(action)}的“${what ?? '设备'}”，您指的是哪个设备？`, options };
}

/** 第二个 / 最后一个: an ordinal answer to the open clarification -> the option's entity. */
export function ordinalAnswer(index: HomeIndex, state: ConversationState, text: string): Entity | null {
  if (!state.pending) return null;
  const m = text.match(QUESTIONS.re.ordinal_answer);
  if (!m) return null;
  const k = m[2] ? state.pending.options.length : (parseChineseNumber(m[1]) ?? 0);
  const id = state.pending.options[k - 1];
  return (id && index.byId.get(id)) || null;
}

/**
 * 书房的 / 卧室那个: which pending option a short answer picks. Returns the entity, or a
 * command to re-run (打开灯 -> 哪个房间？ -> 卧室的), or null when this is a new request.
 */
export function pendingAnswer(index: HomeIndex, state: ConversationState, cmd: Command): { entity: Entity } | { rerun: Command } | null {
  const pending = state.pending;
  if (!pending || (cmd.a !== UNKNOWN_ACTION && cmd.a !== pending.command.a) || (!cmd.s && !cmd.n)) return null;
  // 打开卧室的灯 is a new request, not an answer (an answer has no verb, or no type of its own)
  if (cmd.a !== UNKNOWN_ACTION && cmd.t) return null;
  const asked = pending.command;
  if (cmd.s && !asked.s && asked.t && !asked.n && !cmd.n) return { rerun: { ...asked, s: cmd.s } };
  const options = pending.options.map((id) => index.byId.get(id)).filter((e): e is Entity => !!e);
  const rooms = cmd.s ? cmd.s.split('、') : [];
  const picked = options.filter((e) => {
    if (rooms.length && !rooms.some((r) => roomMatches(e.room, r))) return false;
    if (cmd.n && !index.info.get(e.id)!.keys.some((k) => k.includes(norm(cmd.n!)))) return false;
    return true;
  });
  return picked.length === 1 ? { entity: picked[0] } : null;
}
