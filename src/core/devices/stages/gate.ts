import { capabilityScore, hasPowerCommand } from '../capability';
import { COMMON } from '../data';
import { norm } from '../home';
import type { HomeIndex } from '../index';
import { MEDIA_KINDS } from '../lexicon';
import { UNKNOWN_ACTION, type QueryIR, type RetrievalMeta, type Scored } from '../types';
import { isSubtype, type DevicesConfig } from './recall';
import { A } from '../actions';

/**
 * Stage 5 — gate: decide between selecting (one, every match, a count) and asking. The rules:
 * all/except select every match; an exact name selects itself; room + type selects every match
 * in the room; a clear winner (top1 - top2 >= epsilon) is selected; otherwise ask.
 */

export type GateDecision = { kind: 'select'; chosen: Scored[]; mode: RetrievalMeta['mode'] } | { kind: 'clarify'; among: Scored[] };

/** Replaces members by a group that is wholly selected (seed 004: a Group is returned as itself). */
export function collapseGroups(index: HomeIndex, chosen: Scored[], action: string, meta: RetrievalMeta): Scored[] {
  const ids = new Set(chosen.map((s) => s.entity.id));
  const groups = index.home.groups
    .filter((g) => (g.members?.length ?? 0) >= 2 && g.members!.every((m) => ids.has(m)) && (action === UNKNOWN_ACTION || capabilityScore(g, action) >= 0.5))
    .sort((a, b) => b.members!.length - a.members!.length);
  const used = new Set<string>();
  const out: Scored[] = [];
  for (const g of groups) {
    if (g.members!.some((m) => used.has(m))) continue;
    g.members!.forEach((m) => used.add(m));
    const members = chosen.filter((s) => g.members!.includes(s.entity.id));
    const score = Math.max(...members.map((m) => m.score));
    out.push({ entity: g, score, nameScore: 0, cap: 1, reasons: ['group_covers', ...new Set(members.flatMap((m) => m.reasons))] });
    meta.groups_collapsed.push(g.id);
  }
  return [...out, ...chosen.filter((s) => !used.has(s.entity.id))];
}

export function gateStage(index: HomeIndex, cands: Scored[], ir: QueryIR, cfg: DevicesConfig, meta: RetrievalMeta): GateDecision {
  const select = (chosen: Scored[], mode: RetrievalMeta['mode'], collapse: boolean): GateDecision => ({
    kind: 'select',
    // a question (哪些灯开着, 几盏灯亮着) is answered from the members' states; a group's one state hides them
    chosen: collapse && ir.action !== A.query ? collapseGroups(index, chosen, ir.action, meta) : chosen,
    mode,
  });
  const hint = ir.name_hint;
  const exact = cands.filter((c) => c.nameScore === 1);
  if (ir.quantifier === 'any') return select(cands.slice(0, 1), 'best', false);
  // a place said that holds nothing fitting (二楼 in a one-storey home) asks; acting on every match
  // elsewhere would switch off the whole house for 关掉二楼所有的灯
  const scopeMissed = meta.scope_fallback !== null && ir.scope_include.length > 0 && !meta.room_alias;
  if (ir.quantifier === 'all' && scopeMissed) return { kind: 'clarify', among: cands };
  if (ir.quantifier === 'all' || ir.quantifier === 'except') {
    // 所有筒灯 means every 筒灯 even when one device is literally named 筒灯
    let chosen = exact.length && !isSubtype(hint) ? exact : cands;
    // 书房有哪些设备: an inventory of a place lists its devices (not the groups and scenes over them)
    if (ir.action === A.query && !hint && !ir.type_hint) chosen = chosen.filter((c) => c.entity.kind === 'device');
    // 暂停 / 下一首 said to no player: the players the home's state says are playing (paused ones for 继续)
    if (ir.type_hint === 'media') {
      const want = ir.action === A.resume || ir.action === A.play ? /^paused$/i : /^(?:playing|buffering|on)$/i;
      const active = chosen.filter((c) => typeof c.entity.attributes?.state === 'string' && want.test(c.entity.attributes.state));
      if (active.length) chosen = active;
    }
    return select(ir.count ? chosen.slice(0, ir.count) : chosen, ir.count ? 'count' : 'all', !ir.count);
  }
  if (ir.count) return select(cands.slice(0, ir.count), 'count', false);
  // 关掉厨房 / 打开书房: a room alone means everything in it that switches on/off (not a washer's
  // programme, not the curtains); only when the room holds such devices
  if (!hint && !ir.type_hint && ir.scope_include.length && meta.scope_fallback === null && (ir.action === A.on || ir.action === A.off)) {
    // (a garage's own door opens and closes with it: 把车库关了)
    const powered = cands.filter((c) => c.entity.kind === 'device' && (hasPowerCommand(c.entity, ir.action) || (c.entity.category === 'garageDoor' && c.cap >= cfg.capabilityMin)));
    if (powered.length) return select(powered, 'room_type_all', true);
  }
  // 现在几度 / 空调开着吗: a state question changes nothing, so every match of the asked kind answers it
  // (but not from other rooms: 书房的温度多少 with no thermometer in the study asks)
  if (ir.action === A.query && (!hint || isSubtype(hint)) && ir.type_hint && cands.length > 1 && !scopeMissed) return select(cands, 'all', true);
  if (exact.length === 1) return select(exact, 'exact_name', false);
  if (exact.length > 1) return { kind: 'clarify', among: exact };
  const typeOnly = !hint || isSubtype(hint);
  // the room said holds nothing that fits (车库门 in a home without one): what was found lies elsewhere,
  // so acting on it would act outside the room the user named — ask instead, however clear the winner
  if (scopeMissed) return { kind: 'clarify', among: cands };
  // 打开卧室空调 in a home of 主卧 and 次卧: the word covers several rooms that each have one, so ask which
  // (unless the installer grouped exactly these: then the group is what the word means)
  if (typeOnly && !hint && meta.room_kind && new Set(cands.map((c) => c.entity.room)).size > 1) {
    const grouped = collapseGroups(index, cands, ir.action, { ...meta, groups_collapsed: [] });
    if (grouped.length === 1) return select(cands, 'room_type_all', true);
    return { kind: 'clarify', among: cands };
  }
  // 打开客厅的窗帘 / 把卧室的灯打开: room + type, no name, no count -> every match in the room
  if (typeOnly && ir.type_hint && ir.scope_include.length && meta.scope_fallback === null && !hint) return select(cands, 'room_type_all', true);
  if (cands.length === 1) return select(cands, 'best', false);
  const top = cands[0].score;
  const close = cands.filter((c) => top - c.score < cfg.epsilon);
  if (close.length === 1) return select([cands[0]], 'best', false);
  // 音量调到30 / 下一首 among several players: the one the home's state says is playing
  if (close.every((c) => MEDIA_KINDS.includes(c.entity.category))) {
    const playing = close.filter((c) => typeof c.entity.attributes?.state === 'string' && /^playing$/i.test(c.entity.attributes.state));
    if (playing.length === 1) return select(playing, 'best', false);
  }
  // several equally good type matches in one room (筒灯 x4 in 客厅) act as one fixture
  if (typeOnly && ir.scope_include.length && meta.scope_fallback === null && new Set(close.map((c) => c.entity.room)).size === 1) {
    return select(close, 'room_type_all', true);
  }
  return { kind: 'clarify', among: close };
}

/** 阳台灯 -> 阳台 + light: a name made of one of the home's rooms and a kind word, nothing else. */
export function roomAndKind(index: HomeIndex, name: string): { room: string; kind: string } | null {
  const key = norm(name);
  const room = [...index.homeRooms].find((r) => key.startsWith(r));
  if (!room) return null;
  const rest = key.slice(room.length).replace(COMMON.re.de_lead, '');
  const kind = index.typeWords.find(([w]) => w === rest);
  return kind ? { room, kind: kind[1] } : null;
}
