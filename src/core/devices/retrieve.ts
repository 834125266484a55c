import { defaultConfig } from '../config';
import { indexHome, type HomeIndex } from './index';
import { commandToIR } from './parser';
import { clarifyAmong, clarifyNothingFound, clarifyNothingUnderstood, clarifyReference, ordinalAnswer, pendingAnswer } from './stages/clarify';
import { gateStage, roomAndKind } from './stages/gate';
import { checkValue, evaluateConditions } from './stages/inject';
import { parseStage } from './stages/parse';
import { groupForMembers, recallStage, recallWithFallbacks, type DevicesConfig } from './stages/recall';
import { exceptedIds, referenceScope, roomAliasPool, scopeStage, unexcluded, withoutExcepted } from './stages/scope';
import { scoreStage } from './stages/score';
import { vectorSignals, type Embed, type VectorSignals } from './vector-signals';
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
 * This file only sequences the stages (and keeps the conversation state: what was last mentioned, an open
 * question); stages import the shared modules and types, never this orchestrator.
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
  embed?: Embed;
}

export type { VectorSignals } from './vector-signals';

const round = (x: number) => Math.round(x * 1000) / 1000;

function toSelected(s: Scored): Selected {
  return { id: s.entity.id, kind: s.entity.kind, name: s.entity.name, room: s.entity.room, score: round(s.score), reasons: s.reasons };
}

function newMeta(parser: RetrievalMeta['parser'], vector: boolean): RetrievalMeta {
  return { parser, scope_fallback: null, name_room_fallback: [], uncertain_room_names: [], capability_filtered: [], mode: 'none', conditions: [], groups_collapsed: [], vector };
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
  const reference = referenceScope(index, ir, state, action, cfg, sim);
  if (reference) {
    meta.mode = reference.mode;
    meta.capability_filtered = reference.filtered;
    return result(reference.kept, reference.scored, reference.mode === 'clarify' ? clarifyReference(action) : null);
  }

  if (action === UNKNOWN_ACTION && !ir.name_hint && !ir.type_hint && !ir.scope_include.length && !ir.scope_exclude.length && ir.quantifier === 'one') {
    meta.mode = 'none';
    return result([], [], clarifyNothingUnderstood());
  }

  // scope
  const scope = scopeStage(index, ir, meta);
  // an exception naming devices (除了床头灯) removes them from this same command
  const except = exceptedIds(index, ir);
  if (except.size) meta.excluded_ids = [...except];

  // recall, with its fallbacks: the kind when the name matches nothing, the broader room, the whole home
  const wholeHome = () => unexcluded(index, ir);
  const vector = options.vector?.entity;
  let cands = recallWithFallbacks(index, ir, { ...scope, aliasPool: () => roomAliasPool(wholeHome(), ir.scope_include), wholeHome }, except, meta, cfg, vector);
  // 客厅灯光调到50%: a group named outright that cannot do the action stands for its members that can
  cands = groupForMembers(index, cands, ir, except, cfg, sim);

  // score
  cands = scoreStage(cands, action, cfg, meta, sim);

  // gate
  // 阳台灯光调成蓝色: a name that is only a room and a kind (阳台灯) whose device cannot do the action
  // is read as the room and the kind (the 阳台 light that can)
  if (!cands.length && ir.name_hint && !ir.type_hint && !ir.scope_include.length) {
    const split = roomAndKind(index, ir.name_hint);
    if (split) return retrieveCommand({ ...cmd, s: split.room, n: null, t: split.kind }, index, state, options);
  }

  if (!cands.length) {
    meta.mode = 'none';
    // seed 000: when the engine must ask, the question lists real options (what can do the action)
    const offerOf = (type: string | null) =>
      scoreStage(recallStage(index, withoutExcepted(wholeHome(), except), { hint: null, type, roomHit: new Map() }, cfg), action, cfg, newMeta(meta.parser, false), sim);
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
