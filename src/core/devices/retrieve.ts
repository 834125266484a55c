import { defaultConfig, type AppConfig } from '../config';
import { homophoneKey } from '../text/pinyin';
import { parseChineseNumber } from '../text/chinese-numbers';
import { capabilityScore, confidentAction, type SimilarityFn } from './capability';
import { norm } from './home';
import { indexHome, roomMatches, type HomeIndex } from './index';
import { ROOM_ALIASES, SENSOR_FOR, SUBTYPES, TYPE_LABELS } from './lexicon';
import { commandToIR, parseRules } from './parser';
import {
  UNKNOWN_ACTION,
  type Clarification,
  type Command,
  type ConditionResult,
  type ConversationState,
  type Entity,
  type Home,
  type QueryIR,
  type RetrievalMeta,
  type RetrievalResult,
  type Selected,
} from './types';

export type DevicesConfig = AppConfig['devices'];

export interface RetrieveOptions {
  config?: DevicesConfig;
  /** Commands already parsed (e.g. by a caller's own LLM call); skips parsing. */
  commands?: Command[];
  /** An LLM-backed parser (DashScope lives in the llm engine); on failure the rule parser is used. */
  parseCommands?: (text: string, home: Home) => Promise<Command[]>;
  /** Embedding function (ctx.embedder().embed) — enables vector recall and embedding capability match. */
  embed?: (texts: string[], kind: 'query' | 'passage') => Promise<Float32Array[]>;
}

interface Scored {
  entity: Entity;
  score: number;
  nameScore: number;
  reasons: string[];
  cap: number;
}

/** Per-command signals computed asynchronously (embeddings) before the synchronous core runs. */
export interface VectorSignals {
  /** entity id -> cosine(query, entity text) */
  entity: Map<string, number>;
  similarity?: SimilarityFn;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function isSubtype(n: string | null): boolean {
  return !!n && n in SUBTYPES;
}

/** 台灯 inside 阳台灯 starts in the middle of the room word 阳台: not a real partial match. */
function splitsRoomWord(rooms: string[], key: string, hint: string): boolean {
  const at = key.indexOf(hint);
  for (const r of rooms) {
    const rs = key.indexOf(r);
    if (rs >= 0 && at > rs && at < rs + r.length) return true;
  }
  return false;
}

/** Name evidence for one entity: exact, homophone, partial. */
function nameEvidence(index: HomeIndex, e: Entity, hint: string, hintKey: string, hintPinyin: string): { score: number; reason: string | null } {
  const info = index.info.get(e.id)!;
  let best = 0;
  let reason: string | null = null;
  info.keys.forEach((k, i) => {
    let s = 0;
    let r: string | null = null;
    if (k === hintKey) [s, r] = [1, 'name_hit'];
    else if (hintPinyin && info.pinyin[i] === hintPinyin && hintKey.length >= 2) [s, r] = [0.9, 'pinyin_hit'];
    else if (hintKey.length >= 2 && k.includes(hintKey) && !splitsRoomWord(info.nameRooms, k, hintKey)) [s, r] = [0.5 + 0.3 * (hintKey.length / k.length), 'name_partial'];
    else if (k.length >= 2 && hintKey.includes(k) && !(k in SUBTYPES)) [s, r] = [0.6, 'name_partial'];
    else if (Array.from(hintKey).length >= 3 && !isSubtype(hint) && info.pinyin[i].includes(hintPinyin)) [s, r] = [0.55, 'pinyin_hit'];
    if (s > best) [best, reason] = [s, r];
  });
  return { score: best, reason };
}

/** The asked room is not one of the home's rooms (次卧 in a home with only 卧室). */
function roomsUnknown(index: HomeIndex, rooms: string[]): boolean {
  return rooms.every((r) => !index.homeRooms.has(norm(r)) && ![...index.homeRooms].some((h) => roomMatches(h, r)));
}

/** Entities whose room is the broader room an unknown word belongs to (主卧/次卧 -> 卧室). */
function roomAliasPool(index: HomeIndex, pool: Entity[], rooms: string[]): Entity[] {
  const broader = Object.entries(ROOM_ALIASES)
    .filter(([, list]) => rooms.some((r) => list.includes(norm(r))))
    .map(([room]) => room);
  if (!broader.length) return [];
  return pool.filter((e) => broader.some((b) => roomMatches(e.room, b) && norm(e.room!) === b));
}

function roomInclude(index: HomeIndex, e: Entity, rooms: string[], meta: RetrievalMeta, askedUnknown: boolean): { hit: boolean; viaName: boolean } {
  if (!rooms.length) return { hit: false, viaName: false };
  if (rooms.some((r) => roomMatches(e.room, r))) return { hit: true, viaName: false };
  const info = index.info.get(e.id)!;
  // seed 000: the name's room word counts only when the room field can't be trusted or the asked room is unknown
  if (info.trust === 'ok' && !askedUnknown) return { hit: false, viaName: false };
  if (info.nameRooms.length > 1) {
    if (info.nameRooms.some((nr) => rooms.some((r) => roomMatches(nr, r)))) meta.uncertain_room_names.push(e.id);
    return { hit: false, viaName: false };
  }
  if (info.nameRooms.length === 1 && rooms.some((r) => roomMatches(info.nameRooms[0], r) || norm(info.nameRooms[0]) === norm(r))) {
    return { hit: true, viaName: true };
  }
  return { hit: false, viaName: false };
}

function excluded(index: HomeIndex, e: Entity, rooms: string[]): boolean {
  if (!rooms.length) return false;
  if (rooms.some((r) => roomMatches(e.room, r))) return true;
  const info = index.info.get(e.id)!;
  // an excluded name (除了老伙计以外) or a room word in an untrusted name
  if (rooms.some((r) => info.keys.includes(norm(r)))) return true;
  if (info.trust !== 'ok' && info.nameRooms.length === 1 && rooms.some((r) => roomMatches(info.nameRooms[0], r))) return true;
  if (e.kind === 'group' && e.members?.some((m) => excluded(index, index.byId.get(m)!, rooms))) return true;
  return false;
}

function toSelected(s: Scored): Selected {
  return { id: s.entity.id, kind: s.entity.kind, name: s.entity.name, room: s.entity.room, score: round(s.score), reasons: s.reasons };
}

function optionLabel(e: Entity): string {
  return e.room ? `${e.name}（${e.room}）` : e.name;
}

function clarify(cmd: Command, ir: QueryIR, list: Scored[], max: number): Clarification {
  const label = ir.name_hint ?? (ir.type_hint ? (TYPE_LABELS[ir.type_hint] ?? ir.type_hint) : '设备');
  const rooms = new Set(list.map((s) => s.entity.room).filter(Boolean));
  const action = cmd.a === UNKNOWN_ACTION ? '操作' : cmd.a;
  const question =
    rooms.size > 1
      ? `您要${action}哪个房间的${label}？`
      : `您要${action}哪一个${label}？`;
  // one option per room first, so 打开灯 offers 客厅/卧室/书房… rather than six lamps of one room
  const seen = new Set<string | null>();
  const firstPerRoom = list.filter((s) => (seen.has(s.entity.room) ? false : (seen.add(s.entity.room), true)));
  const ordered = [...firstPerRoom, ...list.filter((s) => !firstPerRoom.includes(s))];
  return {
    question,
    options: ordered.slice(0, max).map((s) => ({ id: s.entity.id, kind: s.entity.kind, name: s.entity.name, room: s.entity.room, label: optionLabel(s.entity) })),
  };
}

/** Replaces members by a group that is wholly selected (seed 004: a Group is returned as itself). */
function collapseGroups(index: HomeIndex, chosen: Scored[], action: string, meta: RetrievalMeta): Scored[] {
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

function evaluateConditions(index: HomeIndex, ir: QueryIR, chosen: Scored[]): ConditionResult[] {
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

function newMeta(parser: RetrievalMeta['parser'], vector: boolean): RetrievalMeta {
  return {
    parser,
    scope_fallback: null,
    name_room_fallback: [],
    uncertain_room_names: [],
    capability_filtered: [],
    mode: 'none',
    conditions: [],
    groups_collapsed: [],
    vector,
  };
}

/**
 * One command -> one result (synchronous core; vector signals, when any, are precomputed).
 * Order: references, scope (exclude hard; include hard with fallback; name-room only when
 * untrusted), recall (name/pinyin/type/vector), capability, scoring, gating.
 */
export function retrieveCommand(
  cmd: Command,
  home: Home | HomeIndex,
  state: ConversationState,
  options: { config?: DevicesConfig; parser?: RetrievalMeta['parser']; vector?: VectorSignals } = {},
): RetrievalResult {
  const index = 'info' in home ? (home as HomeIndex) : indexHome(home as Home);
  const cfg = options.config ?? defaultConfig().devices;
  const w = cfg.weights;
  const ir = commandToIR(cmd);
  const meta = newMeta(options.parser ?? 'commands', !!options.vector);
  const result = (selected: Scored[], candidates: Scored[], clarification: Clarification | null): RetrievalResult => {
    meta.conditions = evaluateConditions(index, ir, selected);
    return {
      command: cmd,
      ir,
      selected: selected.map(toSelected),
      candidates: candidates.slice(0, cfg.maxCandidates).map(toSelected),
      clarification,
      meta,
    };
  };
  const action = cmd.a;
  const confident = confidentAction(action);
  const sim = options.vector?.similarity;

  // references resolve through the conversation state (seed 004)
  let last = ir.references.length ? state.last_mentioned.map((m) => index.byId.get(m.id)).filter((e): e is Entity => !!e) : [];
  if (last.length && (ir.name_hint || ir.type_hint)) {
    // 关掉那个台灯: the reference narrows to what fits; if nothing fits it is a fresh request
    const nk = ir.name_hint ? norm(ir.name_hint) : null;
    last = last.filter((e) => (!ir.type_hint || e.category === ir.type_hint) && (!nk || index.info.get(e.id)!.keys.some((k) => k.includes(nk))));
    if (!last.length) ir.references = [];
  }
  if (ir.references.length) {
    if (!last.length) {
      meta.mode = 'clarify';
      return result([], [], { question: `您要${action === UNKNOWN_ACTION ? '操作' : action}的是哪个设备？`, options: [] });
    }
    const scored = last.map((e) => ({ entity: e, score: 1, nameScore: 0, cap: action === UNKNOWN_ACTION ? 1 : capabilityScore(e, action, sim), reasons: ['reference'] }));
    const kept = scored.filter((s) => !confident || s.cap >= cfg.capabilityMin);
    meta.capability_filtered = scored.filter((s) => !kept.includes(s)).map((s) => s.entity.id);
    meta.mode = 'reference';
    return result(kept, scored, null);
  }

  if (action === UNKNOWN_ACTION && !ir.name_hint && !ir.type_hint && !ir.scope_include.length && !ir.scope_exclude.length && ir.quantifier === 'one') {
    meta.mode = 'none';
    return result([], [], { question: '没有听懂要控制哪个设备，请换个说法（例如“打开客厅的灯”）。', options: [] });
  }

  // 1. scope
  let pool = index.entities.filter((e) => !excluded(index, e, ir.scope_exclude));
  const roomHit = new Map<string, boolean>();
  let aliasPool: Entity[] | null = null;
  let scopeAskedUnknown = false;
  if (ir.scope_include.length) {
    const askedUnknown = roomsUnknown(index, ir.scope_include);
    const inScope = pool.filter((e) => {
      const r = roomInclude(index, e, ir.scope_include, meta, askedUnknown);
      if (r.hit) {
        roomHit.set(e.id, r.viaName);
        if (r.viaName) meta.name_room_fallback.push(e.id);
      }
      return r.hit;
    });
    if (inScope.length) pool = inScope;
    else if (askedUnknown && (aliasPool = roomAliasPool(index, pool, ir.scope_include)).length) {
      // 主卧 in a home that only has 卧室: the room the word is a kind of
      pool = aliasPool;
      aliasPool = null;
      for (const e of pool) roomHit.set(e.id, false);
      meta.room_alias = true;
    } else meta.scope_fallback = 'include_empty';
    scopeAskedUnknown = askedUnknown;
  }

  // 2. recall
  const hint = ir.name_hint;
  const hintKey = hint ? norm(hint) : '';
  const hintPinyin = hint ? homophoneKey(hint) : '';
  const recall = (entities: Entity[]): Scored[] => {
    const out: Scored[] = [];
    for (const e of entities) {
      const reasons: string[] = [];
      let nameScore = 0;
      if (hint) {
        const ev = nameEvidence(index, e, hint, hintKey, hintPinyin);
        nameScore = ev.score;
        if (ev.reason) reasons.push(ev.reason);
      }
      const typeHit = !!ir.type_hint && e.category === ir.type_hint;
      const vec = options.vector?.entity.get(e.id) ?? 0;
      const vecHit = vec >= cfg.vectorMin;
      // a real name must be hit by name (or embedding); 台灯 by name; no name: the type, or anything in scope
      const matched = hint ? nameScore > 0 || (!isSubtype(hint) && vecHit) : ir.type_hint ? typeHit : true;
      if (!matched) continue;
      // groups and scenes come in by name only; otherwise they return via collapse
      if (e.kind !== 'device' && nameScore === 0) continue;
      if (typeHit) reasons.push('type_hit');
      if (roomHit.has(e.id)) reasons.push(roomHit.get(e.id) ? 'room_from_name' : 'room_hit');
      if (vecHit) reasons.push('vector_hit');
      out.push({
        entity: e,
        nameScore,
        reasons,
        cap: 0,
        // the vector channel recalls names lexical matching missed; it does not re-rank lexical name/type matches
        score: w.name * nameScore + w.type * (typeHit ? 1 : 0) + w.room * (roomHit.has(e.id) ? 1 : 0) + (hint && nameScore === 0 ? w.vector * Math.max(0, vec) : 0),
      });
    }
    return out;
  };
  let cands = recall(pool);
  // a name that was heard beats anything an embedding thinks is similar
  if (hint && cands.some((c) => c.nameScore > 0)) cands = cands.filter((c) => c.nameScore > 0);
  if (!cands.length && hint && ir.type_hint) {
    // a name hint that matches nothing (小米灯) still says the type
    const saved = ir.name_hint;
    ir.name_hint = null;
    cands = recall(pool);
    ir.name_hint = saved;
  }
  if (!cands.length && scopeAskedUnknown && !meta.room_alias) {
    // 次卧 matched a name (次卧台灯) but not what was asked (空调): try the room 次卧 is a kind of
    const alias = roomAliasPool(index, index.entities.filter((e) => !excluded(index, e, ir.scope_exclude)), ir.scope_include);
    if (alias.length) {
      roomHit.clear();
      for (const e of alias) roomHit.set(e.id, false);
      const again = recall(alias);
      if (again.length) {
        cands = again;
        meta.room_alias = true;
        meta.name_room_fallback = [];
      }
    }
  }
  if (!cands.length && ir.scope_include.length && meta.scope_fallback === null) {
    // the room exists but nothing in it fits: never return empty because of include alone
    pool = index.entities.filter((e) => !excluded(index, e, ir.scope_exclude));
    roomHit.clear();
    cands = recall(pool);
    if (cands.length) meta.scope_fallback = 'no_match_in_scope';
  }

  // 3. capability
  if (action !== UNKNOWN_ACTION) {
    for (const c of cands) {
      c.cap = capabilityScore(c.entity, action, sim);
      c.score += w.capability * c.cap;
      if (c.cap >= cfg.capabilityMin) c.reasons.push('command_match');
    }
    if (confident) {
      meta.capability_filtered = cands.filter((c) => c.cap < cfg.capabilityMin).map((c) => c.entity.id);
      cands = cands.filter((c) => c.cap >= cfg.capabilityMin);
    } else {
      for (const c of cands) if (c.cap < cfg.capabilityMin) c.score *= 0.5;
    }
  }
  cands.sort((a, b) => b.score - a.score || (a.entity.id < b.entity.id ? -1 : a.entity.id > b.entity.id ? 1 : 0));

  // 4. gating
  if (!cands.length) {
    meta.mode = 'none';
    const what = hint ?? (ir.type_hint ? (TYPE_LABELS[ir.type_hint] ?? ir.type_hint) : null);
    return result([], [], what ? { question: `没有找到可以${action === UNKNOWN_ACTION ? '操作' : action}的“${what}”，您指的是哪个设备？`, options: [] } : null);
  }
  const pick = (chosen: Scored[], mode: RetrievalMeta['mode'], collapse: boolean) => {
    meta.mode = mode;
    return result(collapse ? collapseGroups(index, chosen, action, meta) : chosen, cands, null);
  };
  const exact = cands.filter((c) => c.nameScore === 1);
  if (ir.quantifier === 'all' || ir.quantifier === 'except' || ir.quantifier === 'any') {
    if (ir.quantifier === 'any') return pick(cands.slice(0, 1), 'best', false);
    const chosen = exact.length ? exact : cands;
    return pick(ir.count ? chosen.slice(0, ir.count) : chosen, ir.count ? 'count' : 'all', !ir.count);
  }
  if (ir.count) return pick(cands.slice(0, ir.count), 'count', false);
  if (exact.length === 1) return pick(exact, 'exact_name', false);
  if (exact.length > 1) {
    meta.mode = 'clarify';
    return result([], cands, clarify(cmd, ir, exact, cfg.maxOptions));
  }
  const typeOnly = !hint || isSubtype(hint);
  // 打开客厅的窗帘 / 把卧室的灯打开: room + type, no name, no count -> every match in the room
  if (typeOnly && ir.type_hint && ir.scope_include.length && meta.scope_fallback === null && !hint) {
    return pick(cands, 'room_type_all', true);
  }
  if (cands.length === 1) return pick(cands, 'best', false);
  const top = cands[0].score;
  const close = cands.filter((c) => top - c.score < cfg.epsilon);
  if (close.length === 1) return pick([cands[0]], 'best', false);
  // several equally good type matches in one room (筒灯 x4 in 客厅) act as one fixture
  if (typeOnly && ir.scope_include.length && meta.scope_fallback === null && new Set(close.map((c) => c.entity.room)).size === 1) {
    return pick(close, 'room_type_all', true);
  }
  meta.mode = 'clarify';
  return result([], cands, clarify(cmd, ir, close, cfg.maxOptions));
}

function remember(state: ConversationState, r: RetrievalResult): void {
  if (r.selected.length) {
    state.last_mentioned = r.selected.map((s) => ({ id: s.id, kind: s.kind, name: s.name, room: s.room }));
    state.pending = null;
  } else if (r.clarification && r.clarification.options.length) {
    state.pending = { command: r.command, options: r.clarification.options.map((o) => o.id) };
  }
}

/** 书房的 / 卧室那个: an answer to an open clarification picks one of its options. */
function resolvePending(index: HomeIndex, state: ConversationState, cmd: Command, cfg: DevicesConfig): RetrievalResult | null {
  const pending = state.pending;
  if (!pending || (cmd.a !== UNKNOWN_ACTION && cmd.a !== pending.command.a) || (!cmd.s && !cmd.n)) return null;
  // 打开卧室的灯 is a new request, not an answer (an answer has no verb, or no type of its own)
  if (cmd.a !== UNKNOWN_ACTION && cmd.t) return null;
  const asked = pending.command;
  if (cmd.s && !asked.s && asked.t && !asked.n && !cmd.n) {
    // 打开灯 -> 哪个房间？ -> 卧室的: the original request, now with the room (every match in it)
    const r = retrieveCommand({ ...asked, s: cmd.s }, index, state, { config: cfg, parser: 'rules' });
    r.meta.resolved_pending = true;
    return r;
  }
  const options = pending.options.map((id) => index.byId.get(id)).filter((e): e is Entity => !!e);
  const rooms = cmd.s ? cmd.s.split('、') : [];
  const picked = options.filter((e) => {
    if (rooms.length && !rooms.some((r) => roomMatches(e.room, r))) return false;
    if (cmd.n && !index.info.get(e.id)!.keys.some((k) => k.includes(norm(cmd.n!)))) return false;
    return true;
  });
  if (picked.length !== 1) return null;
  const command = pending.command;
  const meta = newMeta('rules', false);
  meta.mode = 'pending';
  meta.resolved_pending = true;
  const s: Scored = { entity: picked[0], score: 1, nameScore: 0, cap: 1, reasons: ['clarification_answer'] };
  return { command, ir: commandToIR(command), selected: [toSelected(s)], candidates: [toSelected(s)], clarification: null, meta };
}

async function vectorSignals(
  index: HomeIndex,
  cmd: Command,
  text: string,
  embed: NonNullable<RetrieveOptions['embed']>,
): Promise<VectorSignals> {
  const texts = index.entities.map((e) => `${e.name} ${e.room ?? ''} ${TYPE_LABELS[e.category] ?? ''}`.trim());
  const key = 'vectors';
  const store = vectorCache.get(index) ?? new Map<string, Float32Array[]>();
  vectorCache.set(index, store);
  let passages = store.get(key);
  if (!passages) {
    passages = await embed(texts, 'passage');
    store.set(key, passages);
  }
  const query = [cmd.n, cmd.s, cmd.t ? TYPE_LABELS[cmd.t] : null].filter(Boolean).join(' ') || text;
  const [q] = await embed([query], 'query');
  const entity = new Map<string, number>();
  index.entities.forEach((e, i) => entity.set(e.id, cosine(q, passages![i])));
  // embedding capability similarity: action vs each distinct description
  const descs = [...new Set(index.entities.flatMap((e) => e.commands.map((c) => c.description)))];
  let descVecs = store.get('descs');
  if (!descVecs) {
    descVecs = await embed(descs, 'passage');
    store.set('descs', descVecs);
  }
  const [av] = await embed([cmd.a], 'query');
  const bySim = new Map(descs.map((d, i) => [d, cosine(av, descVecs![i])]));
  return { entity, similarity: (_a, d) => bySim.get(d) ?? 0 };
}
const vectorCache = new WeakMap<HomeIndex, Map<string, Float32Array[]>>();

/**
 * The one entry point (seed 000): utterance -> commands (LLM parser when given, rules otherwise)
 * -> one RetrievalResult per command, in order. `state` is updated in place (last-mentioned,
 * pending clarification) and stays plain JSON.
 */
export async function retrieve(text: string, home: Home, state: ConversationState, options: RetrieveOptions = {}): Promise<RetrievalResult[]> {
  const index = indexHome(home);
  const cfg = options.config ?? defaultConfig().devices;
  let parser: RetrievalMeta['parser'] = 'rules';
  let parserError: string | undefined;
  let commands: Command[];
  if (options.commands) {
    commands = options.commands;
    parser = 'commands';
  } else if (options.parseCommands) {
    try {
      commands = await options.parseCommands(text, home);
      parser = 'llm';
      if (!commands.length) throw new Error('模型没有返回命令');
    } catch (e) {
      parserError = (e as Error).message;
      commands = parseRules(text, index);
      parser = 'rules-fallback';
    }
  } else {
    commands = parseRules(text, index);
  }
  state.turn += 1;
  // 第二个 / 最后一个: an ordinal answer to the open clarification
  const ordinal = state.pending ? text.match(/^\s*(?:就|要)?(?:第\s*([一二两三四五六七八九十\d]+)\s*[个盏台只项]?|(最后)一?[个盏台只项]?)/) : null;
  if (ordinal && state.pending) {
    const k = ordinal[2] ? state.pending.options.length : parseChineseNumber(ordinal[1]) ?? 0;
    const id = state.pending.options[k - 1];
    const e = id ? index.byId.get(id) : undefined;
    if (e) {
      const command = state.pending.command;
      const meta = newMeta(parser, false);
      meta.mode = 'pending';
      meta.resolved_pending = true;
      const s: Scored = { entity: e, score: 1, nameScore: 0, cap: 1, reasons: ['clarification_answer'] };
      const r: RetrievalResult = { command, ir: commandToIR(command), selected: [toSelected(s)], candidates: [toSelected(s)], clarification: null, meta };
      remember(state, r);
      return [r];
    }
  }
  const results: RetrievalResult[] = [];
  for (const cmd of commands) {
    const pending = commands.length === 1 ? resolvePending(index, state, cmd, cfg) : null;
    let r: RetrievalResult;
    if (pending) r = pending;
    else {
      let vector: VectorSignals | undefined;
      if (options.embed && cmd.a !== UNKNOWN_ACTION) {
        try {
          vector = await vectorSignals(index, cmd, text, options.embed);
        } catch {
          vector = undefined; // model missing or failed: lexical behaviour
        }
      }
      r = retrieveCommand(cmd, index, state, { config: cfg, parser, vector });
    }
    r.meta.parser = pending ? r.meta.parser : parser;
    if (parserError) r.meta.parser_error = parserError;
    remember(state, r);
    results.push(r);
  }
  return results;
}

/** Entities to inject for a result set (devices, groups and scenes selected). */
export function selectedEntities(home: Home, results: RetrievalResult[]): Entity[] {
  const index = indexHome(home);
  const ids = new Set<string>();
  for (const r of results) {
    for (const s of r.selected) ids.add(s.id);
    for (const c of r.meta.conditions) if (c.sensor_id) ids.add(c.sensor_id);
  }
  return [...ids].map((id) => index.byId.get(id)!).filter(Boolean);
}
