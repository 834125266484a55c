import { defaultConfig } from '../config';
import type { SimilarityFn } from './capability';
import { capabilityScore, confidentAction } from './capability';
import { norm } from './home';
import { indexHome, type HomeIndex } from './index';
import { TYPE_LABELS } from './lexicon';
import { commandToIR } from './parser';
import { clarifyAmong, clarifyNothingFound, clarifyNothingUnderstood, clarifyReference, ordinalAnswer, pendingAnswer } from './stages/clarify';
import { gateStage } from './stages/gate';
import { checkValue, evaluateConditions } from './stages/inject';
import { parseStage } from './stages/parse';
import { isSubtype, preferKin, recallStage, type DevicesConfig } from './stages/recall';
import { roomAliasPool, scopeStage, unexcluded } from './stages/scope';
import { scoreStage } from './stages/score';
import { COMMON } from './data';
import {
  NOT_DEVICE_ACTION,
  TIMER_OPS,
  UNKNOWN_ACTION,
  type Clarification,
  type Command,
  type ConversationState,
  type Entity,
  type Home,
  type RetrievalMeta,
  type RetrievalResult,
  type Scored,
  type Selected,
} from './types';

/**
 * The device-context pipeline, read in order (seeds 000/001/004):
 *   parse (stages/parse) -> scope (stages/scope) -> recall (stages/recall) -> score (stages/score)
 *   -> gate (stages/gate) -> clarify (stages/clarify) -> inject (stages/inject).
 * This file only sequences the stages; each stage imports the shared types, never another stage.
 */

export type { DevicesConfig } from './stages/recall';
export { selectedEntities } from './stages/inject';

export interface RetrieveOptions {
  config?: DevicesConfig;
  /** Commands already parsed (e.g. by a caller's own LLM call); skips parsing. */
  commands?: Command[];
  /** An LLM-backed parser (see llm-commands.ts); on failure the rule grammar is used. */
  parseCommands?: (text: string, home: Home) => Promise<Command[]>;
  /** Embedding function (ctx.embedder().embed) — enables vector recall and embedding capability match. */
  embed?: (texts: string[], kind: 'query' | 'passage') => Promise<Float32Array[]>;
}

/** Per-command signals computed asynchronously (embeddings) before the synchronous core runs. */
export interface VectorSignals {
  /** entity id -> cosine(query, entity text) */
  entity: Map<string, number>;
  similarity?: SimilarityFn;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function toSelected(s: Scored): Selected {
  return { id: s.entity.id, kind: s.entity.kind, name: s.entity.name, room: s.entity.room, score: round(s.score), reasons: s.reasons };
}

function newMeta(parser: RetrievalMeta['parser'], vector: boolean): RetrievalMeta {
  return { parser, scope_fallback: null, name_room_fallback: [], uncertain_room_names: [], capability_filtered: [], mode: 'none', conditions: [], groups_collapsed: [], vector };
}

/** 关掉所有的灯，除了床头灯: names that the command excludes (exception by name or kind). */
function exceptNames(index: HomeIndex, exclude: string[]): Set<string> {
  const ids = new Set<string>();
  for (const word of exclude) {
    const key = norm(word);
    for (const e of index.entities) {
      const info = index.info.get(e.id)!;
      if (info.keys.some((k) => k === key || (Array.from(key).length >= 2 && k.includes(key)))) ids.add(e.id);
    }
  }
  return ids;
}

/** 阳台灯 -> 阳台 + light: a name made of one of the home's rooms and a kind word, nothing else. */
function roomAndKind(index: HomeIndex, name: string): { room: string; kind: string } | null {
  const key = norm(name);
  const room = [...index.homeRooms].find((r) => key.startsWith(r));
  if (!room) return null;
  const rest = key.slice(room.length).replace(COMMON.re.de_lead, '');
  const kind = index.typeWords.find(([w]) => w === rest);
  return kind ? { room, kind: kind[1] } : null;
}

/**
 * One command -> one result (synchronous core; vector signals, when any, are precomputed).
 */
export function retrieveCommand(
  cmd: Command,
  home: Home | HomeIndex,
  state: ConversationState,
  options: { config?: DevicesConfig; parser?: RetrievalMeta['parser']; vector?: VectorSignals } = {},
): RetrievalResult {
  const index = 'info' in home ? (home as HomeIndex) : indexHome(home as Home);
  const cfg = options.config ?? defaultConfig().devices;
  const ir = commandToIR(cmd);
  const meta = newMeta(options.parser ?? 'commands', !!options.vector);
  const action = cmd.a;
  const sim = options.vector?.similarity;
  const result = (selected: Scored[], candidates: Scored[], clarification: Clarification | null): RetrievalResult => {
    meta.conditions = evaluateConditions(index, ir, selected);
    const checks = checkValue(ir, selected);
    if (checks) meta.value_check = checks;
    return { command: cmd, ir, selected: selected.map(toSelected), candidates: candidates.slice(0, cfg.maxCandidates).map(toSelected), clarification, meta };
  };

  // 设一个十分钟的定时器 / 现在几点 / 算了: no device acts (the IR says what it is instead)
  if (action in TIMER_OPS || action === NOT_DEVICE_ACTION) {
    meta.mode = 'none';
    return result([], [], null);
  }

  // references resolve through the conversation state (seed 004)
  let last = ir.references.length ? state.last_mentioned.map((m) => index.byId.get(m.id)).filter((e): e is Entity => !!e) : [];
  if (last.length && (ir.name_hint || ir.type_hint)) {
    // 关掉那个台灯: the reference narrows to what fits; if nothing fits it is a fresh request
    const nk = ir.name_hint ? norm(ir.name_hint) : null;
    last = last.filter((e) => (!ir.type_hint || e.category === ir.type_hint) && (!nk || index.info.get(e.id)!.keys.some((k) => k.includes(nk))));
    if (!last.length) ir.references = [];
  }
  if (ir.references.length) {
    if (!last.length && (action === UNKNOWN_ACTION || !confidentAction(action))) {
      meta.mode = 'clarify';
      return result([], [], clarifyReference(action));
    }
    // 关掉 / 停止播放 with nothing said before: read as a fresh request for whatever can do it
    // (the gate asks with real options, seed 000) instead of a question with none
    if (!last.length) ir.references = [];
  }
  if (ir.references.length) {
    const scored = last.map((e) => ({ entity: e, score: 1, nameScore: 0, cap: action === UNKNOWN_ACTION ? 1 : capabilityScore(e, action, sim), reasons: ['reference'] }));
    const kept = scored.filter((s) => !confidentAction(action) || s.cap >= cfg.capabilityMin);
    meta.capability_filtered = scored.filter((s) => !kept.includes(s)).map((s) => s.entity.id);
    meta.mode = 'reference';
    return result(kept, scored, null);
  }

  if (action === UNKNOWN_ACTION && !ir.name_hint && !ir.type_hint && !ir.scope_include.length && !ir.scope_exclude.length && ir.quantifier === 'one') {
    meta.mode = 'none';
    return result([], [], clarifyNothingUnderstood());
  }

  // scope
  const scope = scopeStage(index, ir, meta);
  // an exception naming devices (除了床头灯) removes them from this same command
  const exceptIds = ir.quantifier === 'except' ? exceptNames(index, ir.scope_exclude) : new Set<string>();
  if (exceptIds.size) meta.excluded_ids = [...exceptIds];
  const withoutExcept = (list: Entity[]) => (exceptIds.size ? list.filter((e) => !exceptIds.has(e.id) && !(e.members ?? []).some((m) => exceptIds.has(m))) : list);

  // recall, with its fallbacks (each retry passes its own hint: nothing reads a stale copy)
  const vector = options.vector?.entity;
  const recall = (pool: Entity[], hint: string | null, roomHit = scope.roomHit) => recallStage(index, withoutExcept(pool), { hint, type: ir.type_hint, roomHit, vector }, cfg);
  let cands = recall(scope.pool, ir.name_hint);
  if (!cands.length && ir.name_hint && ir.type_hint) {
    // a name that matches nothing (小米灯) still says the type; a subtype (台灯) its kin first
    cands = recall(scope.pool, null);
    if (isSubtype(ir.name_hint)) cands = preferKin(index, ir.name_hint, cands);
  }
  if (!cands.length && scope.askedUnknown && !meta.room_alias) {
    // 次卧 matched a name (次卧台灯) but not what was asked (空调): try the room 次卧 is a kind of
    const alias = roomAliasPool(unexcluded(index, ir), ir.scope_include);
    if (alias.length) {
      const again = recall(alias, ir.name_hint, new Map(alias.map((e) => [e.id, false])));
      if (again.length) {
        cands = again;
        meta.room_alias = true;
        meta.name_room_fallback = [];
      }
    }
  }
  if (!cands.length && ir.scope_include.length && meta.scope_fallback === null) {
    // the room exists but nothing in it fits: never return empty because of include alone
    cands = recall(unexcluded(index, ir), ir.name_hint, new Map());
    if (!cands.length && ir.name_hint && ir.type_hint) cands = recall(unexcluded(index, ir), null, new Map());
    if (cands.length) meta.scope_fallback = 'no_match_in_scope';
  }

  // 客厅灯光调到50%: a group named outright whose shared commands cannot do the action stands for
  // its members that can (the dimmable lights of 客厅灯光), all of them
  const named = cands.filter((c) => c.nameScore === 1);
  const group = named.length === 1 && named[0].entity.kind === 'group' && confidentAction(action) ? named[0] : null;
  if (group && capabilityScore(group.entity, action, sim) < cfg.capabilityMin) {
    const able = (group.entity.members ?? [])
      .map((id) => index.byId.get(id))
      .filter((e): e is Entity => !!e && !exceptIds.has(e.id) && capabilityScore(e, action, sim) >= cfg.capabilityMin);
    if (able.length) {
      cands = able.map((e) => ({ entity: e, score: group.score, nameScore: 1, cap: 0, reasons: [...group.reasons, 'group_covers'] }));
      ir.quantifier = 'all';
    }
  }

  // score
  cands = scoreStage(cands, action, cfg, meta, sim);

  // 阳台灯光调成蓝色: a name that is only a room and a kind (阳台灯) whose device cannot do the action
  // is read as the room and the kind (the 阳台 light that can)
  if (!cands.length && ir.name_hint && !ir.type_hint && !ir.scope_include.length) {
    const split = roomAndKind(index, ir.name_hint);
    if (split) return retrieveCommand({ ...cmd, s: split.room, n: null, t: split.kind }, index, state, options);
  }

  // gate
  if (!cands.length) {
    meta.mode = 'none';
    // seed 000: when the engine must ask, the question lists real options (what can do the action)
    const offerOf = (type: string | null) =>
      scoreStage(recallStage(index, withoutExcept(unexcluded(index, ir)), { hint: null, type, roomHit: new Map() }, cfg), action, cfg, newMeta(meta.parser, false), sim);
    // a kind this home has none of (卷帘门 in a flat): whatever can do the action is offered instead
    let offer = offerOf(ir.type_hint);
    if (!offer.length && ir.type_hint) offer = offerOf(null);
    return result([], [], clarifyNothingFound(ir, action, offer, cfg.maxOptions));
  }
  const decision = gateStage(index, cands, ir, cfg, meta);
  if (decision.kind === 'select') {
    meta.mode = decision.mode;
    return result(decision.chosen, cands, null);
  }
  // clarify
  meta.mode = 'clarify';
  return result([], cands, clarifyAmong(cmd, ir, decision.among, cfg.maxOptions, meta.scope_fallback !== null && !meta.room_alias));
}

function remember(state: ConversationState, r: RetrievalResult): void {
  if (r.selected.length) {
    state.last_mentioned = r.selected.map((s) => ({ id: s.id, kind: s.kind, name: s.name, room: s.room }));
    state.pending = null;
  } else if (r.clarification && r.clarification.options.length) {
    state.pending = { command: r.command, options: r.clarification.options.map((o) => o.id) };
  }
}

/** The pending command applied to the entity the user picked. */
function answered(command: Command, e: Entity, parser: RetrievalMeta['parser']): RetrievalResult {
  const meta = newMeta(parser, false);
  meta.mode = 'pending';
  meta.resolved_pending = true;
  const s: Scored = { entity: e, score: 1, nameScore: 0, cap: 1, reasons: ['clarification_answer'] };
  const ir = commandToIR(command);
  const checks = checkValue(ir, [s]);
  if (checks) meta.value_check = checks;
  return { command, ir, selected: [toSelected(s)], candidates: [toSelected(s)], clarification: null, meta };
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

const vectorCache = new WeakMap<HomeIndex, Map<string, Float32Array[]>>();

async function vectorSignals(index: HomeIndex, cmd: Command, text: string, embed: NonNullable<RetrieveOptions['embed']>): Promise<VectorSignals> {
  const store = vectorCache.get(index) ?? new Map<string, Float32Array[]>();
  vectorCache.set(index, store);
  let passages = store.get('vectors');
  if (!passages) {
    passages = await embed(index.entities.map((e) => `${e.name} ${e.room ?? ''} ${TYPE_LABELS[e.category] ?? ''}`.trim()), 'passage');
    store.set('vectors', passages);
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

/**
 * The one entry point (seed 000): utterance -> commands -> one RetrievalResult per command, in
 * order. `state` is updated in place (last-mentioned, pending clarification) and stays plain JSON.
 */
export async function retrieve(text: string, home: Home, state: ConversationState, options: RetrieveOptions = {}): Promise<RetrievalResult[]> {
  const index = indexHome(home);
  const cfg = options.config ?? defaultConfig().devices;
  const parsed = await parseStage(text, home, index, options);
  const { commands, parser } = parsed;
  state.turn += 1;
  // 第二个 / 最后一个: an ordinal answer to the open clarification
  const ordinal = ordinalAnswer(index, state, text);
  if (ordinal && state.pending) {
    const r = answered(state.pending.command, ordinal, parser);
    remember(state, r);
    return [r];
  }
  const results: RetrievalResult[] = [];
  for (const cmd of commands) {
    const pending = commands.length === 1 ? pendingAnswer(index, state, cmd) : null;
    let r: RetrievalResult;
    if (pending && 'entity' in pending) r = answered(state.pending!.command, pending.entity, parser);
    else if (pending && 'rerun' in pending) {
      r = retrieveCommand(pending.rerun, index, state, { config: cfg, parser });
      r.meta.resolved_pending = true;
    } else {
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
    r.meta.parser = parser;
    if (parsed.error) r.meta.parser_error = parsed.error;
    remember(state, r);
    results.push(r);
  }
  return results;
}
