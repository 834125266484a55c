import type { AppContext } from '../context';
import type { Invoke, Operation } from '../common/operation';
import { GridError, toErrorPayload } from '../common/errors';
import { createLlmClient, type ChatMessage, type ChatResult, type ToolCall } from './client';
import { buildChatSystemPrompt, type RegulationSummary } from './prompts';
import { chatTools, type AgentTool } from './tools';
import { redactSecrets } from './redact';

/**
 * The multi-regulation assistant (seed 002 phase 3): system prompt with the library from
 * metadata, function calling over the API table, bounded tool rounds, cited answers.
 */

export interface Citation {
  reg_id: string;
  title: string;
  page_num: number;
  label: string | null;
  section_path: string | null;
  snippet: string | null;
}

export interface ToolCallRecord {
  step: number;
  id: string;
  name: string;
  operation: string | null;
  arguments: unknown;
  ok: boolean;
  error: string | null;
  /** Sources (page + article) the call returned. */
  sources: number;
  /** Same call as an earlier round: answered from that result, not run again. */
  cached: boolean;
}

export interface ChatTranscript {
  question: string;
  answer: string;
  model: string;
  stop_reason: 'answered' | 'max_steps';
  steps: number;
  max_steps: number;
  messages: ChatMessage[];
  tool_calls: ToolCallRecord[];
  /** Sources the answer actually cites (title/reg id + article or page found in the answer). */
  citations: Citation[];
  /** Every page/article the tools returned. */
  sources: Citation[];
  regulations: string[];
}

export type AgentEvent =
  | { type: 'delta'; text: string; step: number }
  | { type: 'tool_call'; name: string; arguments: unknown; step: number }
  | { type: 'tool_result'; name: string; ok: boolean; error: string | null; step: number };

export interface ChatAgentOptions {
  question: string;
  history?: { role: 'user' | 'assistant'; content: string }[];
  /** Stream answer text (SSE) and report tool activity. */
  onEvent?: (event: AgentEvent) => void;
  stream?: boolean;
  signal?: AbortSignal;
  maxSteps?: number;
  model?: string;
  /** Restrict the assistant to these regulations (CLI `-r`); tool calls are kept inside them. */
  regIds?: string[];
  /** The API table's call path and operations, handed in by the run context (never imported). */
  invoke: Invoke;
  operations: readonly Operation[];
}

/** list_regulations output, whatever its envelope ({regulations:[…]} or […]). */
export function asRegulationSummaries(value: unknown): RegulationSummary[] {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object'
      ? (Object.values(value as Record<string, unknown>).find((v) => Array.isArray(v)) as unknown[] | undefined) ?? []
      : [];
  return list.filter(
    (r): r is RegulationSummary =>
      !!r && typeof r === 'object' && typeof (r as RegulationSummary).reg_id === 'string' && typeof (r as RegulationSummary).title === 'string',
  );
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v : null;
}

/**
 * Pages/articles inside a tool result: any object with a page number and a regulation id
 * (its own or an enclosing object's), e.g. search hits or pages of read_page_range.
 */
export function collectSources(value: unknown, titles: Map<string, string>, out: Citation[] = [], regId: string | null = null, depth = 0): Citation[] {
  if (depth > 6 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) collectSources(v, titles, out, regId, depth + 1);
    return out;
  }
  const obj = value as Record<string, unknown>;
  const ownReg = str(obj.reg_id) ?? regId;
  const page = [obj.page_num, obj.page, obj.start_page, obj.page_start].find((p): p is number => typeof p === 'number' && Number.isInteger(p));
  const hasText = ['text', 'snippet', 'label', 'content', 'section_path', 'preview', 'table_id'].some((k) => str(obj[k]));
  // an unresolved reference points nowhere; a table's own `title` is the table's, not the regulation's
  const table = str(obj.table_id);
  if (ownReg && page !== undefined && hasText && obj.resolved !== false) {
    const text = str(obj.snippet) ?? str(obj.text) ?? str(obj.content) ?? str(obj.preview) ?? (table ? `${table} ${str(obj.title) ?? ''}`.trim() : null);
    out.push({
      reg_id: ownReg,
      title: str(obj.regulation) ?? (table ? null : (str(obj.title) ?? str(obj.reg_title))) ?? titles.get(ownReg) ?? ownReg,
      page_num: page,
      label: str(obj.label) ?? str(obj.article) ?? table,
      section_path: str(obj.section_path) ?? str(obj.section),
      snippet: text ? text.replace(/\s+/g, ' ').slice(0, 120) : null,
    });
  }
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object' && k !== 'meta') collectSources(v, titles, out, ownReg, depth + 1);
  }
  return out;
}

function dedupe(sources: Citation[]): Citation[] {
  const seen = new Map<string, Citation>();
  for (const s of sources) {
    const key = `${s.reg_id}|${s.page_num}|${s.label ?? ''}`;
    if (!seen.has(key)) seen.set(key, s);
  }
  return [...seen.values()];
}

function positions(text: string, pattern: RegExp): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(new RegExp(pattern.source, 'g'))) out.push(m.index ?? 0);
  return out;
}

function escapeRe(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

function pagePattern(page: number): RegExp {
  return new RegExp(`(第\\s*${page}\\s*页|[pP]\\.?\\s*${page}(?!\\d)|页码?[:：]?\\s*${page}(?!\\d)|(?<!\\d)${page}\\s*页)`);
}

/**
 * The retrieved sources the answer cites. A location (article label or page) counts for the
 * regulation named last before it in the answer (or for the only regulation retrieved), so
 * "《甲》第五条 … 《乙》第九条" does not cite 乙's 第五条. Page-only mentions cite one source per page.
 */
export function citedSources(answer: string, sources: Citation[]): Citation[] {
  const regs = [...new Map(sources.map((s) => [s.reg_id, s.title])).entries()];
  const single = regs.length === 1 ? regs[0][0] : null;
  const regBefore = (pos: number): string | null => {
    let best: string | null = null;
    let bestPos = -1;
    for (const [id, title] of regs) {
      for (const name of [title, id]) {
        const i = answer.lastIndexOf(name, pos);
        if (i > bestPos) {
          bestPos = i;
          best = id;
        }
      }
    }
    return best ?? single;
  };
  const hits = (s: Citation, pattern: RegExp) => positions(answer, pattern).some((p) => regBefore(p) === s.reg_id);

  const groups = new Map<string, Citation[]>();
  for (const s of sources) {
    const key = `${s.reg_id}|${s.page_num}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const cited: Citation[] = [];
  for (const group of groups.values()) {
    const byLabel = group.filter((s) => s.label && hits(s, escapeRe(s.label)));
    if (byLabel.length) cited.push(...byLabel);
    else if (hits(group[0], pagePattern(group[0].page_num))) cited.push(group.find((s) => !s.label) ?? group[0]);
  }
  // labelled units before whole pages, in retrieval order otherwise
  return cited.sort((a, b) => Number(!a.label) - Number(!b.label));
}

/** Scoring internals (highlight offsets, token lists, timings) cost tokens and help no answer. */
const NOISE_KEYS = new Set(['highlights', 'tokens', 'elapsed_ms', 'unit_id']);

/**
 * A search hit's snippet already reads as its table row (header=value …): the structured copy is
 * left out; so are the reader's positioning (`locate`) and the "why" prose (reasons holds the words).
 */
const HIT_DUPLICATES = new Set(['table', 'block_type', 'locate', 'why']);

export function compactForModel(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, key, v) {
    if (NOISE_KEYS.has(key)) return undefined;
    if (HIT_DUPLICATES.has(key) && this && typeof this === 'object' && 'snippet' in this) return undefined;
    return v;
  });
}

function truncateForModel(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…（结果过长，已截断，可缩小范围后再查）`;
}

export async function runChatAgent(ctx: AppContext, options: ChatAgentOptions): Promise<ChatTranscript> {
  const client = createLlmClient(ctx);
  const config = ctx.config.llm;
  const model = options.model ?? config.chatModel;
  const maxSteps = options.maxSteps ?? config.maxToolSteps;
  const tools = chatTools(options.operations);
  const emit = options.onEvent ?? (() => {});

  // Seed 002 §3.1: preload the library into the system prompt.
  const listTool = tools.find((t) => t.name === 'list_regulations');
  let regulations: RegulationSummary[] = [];
  if (listTool) regulations = asRegulationSummaries(await options.invoke(listTool.operation, {}, { signal: options.signal }));
  const titles = new Map(regulations.map((r) => [r.reg_id, r.title]));
  const allowed = options.regIds?.length ? [...new Set(options.regIds)] : null;
  if (allowed) {
    const missing = allowed.filter((id) => !titles.has(id));
    if (missing.length) throw new GridError('NOT_FOUND', `未找到规程「${missing.join('、')}」，可用：${[...titles.keys()].join('、') || '（规程库为空）'}`);
    regulations = regulations.filter((r) => allowed.includes(r.reg_id));
  }

  const messages: ChatMessage[] = [
    { role: 'system', content: buildChatSystemPrompt(regulations, { restricted: !!allowed }) },
    ...(options.history ?? []).map((m) => ({ role: m.role, content: m.content })),
    { role: 'user', content: options.question },
  ];
  const records: ToolCallRecord[] = [];
  const sources: Citation[] = [];
  let answer = '';
  let stopReason: ChatTranscript['stop_reason'] = 'max_steps';
  let steps = 0;
  const callCache = new Map<string, ToolOutcome>();

  for (let step = 1; step <= maxSteps; step++) {
    steps = step;
    const request = { model, messages, tools: tools.map((t) => t.definition), signal: options.signal };
    const result: ChatResult = options.stream
      ? await client.chatStream(request, (text) => emit({ type: 'delta', text, step }))
      : await client.chat(request);
    const reply = result.message;
    messages.push(reply);
    if (!reply.tool_calls?.length) {
      answer = reply.content?.trim() ?? '';
      stopReason = 'answered';
      if (!answer) answer = '（大模型没有给出回答）';
      if (result.finishReason === 'length') {
        const note = '\n（回答达到长度上限，已被截断）';
        answer += note;
        emit({ type: 'delta', text: note, step });
      }
      break;
    }
    for (const call of reply.tool_calls) {
      const outcome = await executeToolCall(options.invoke, tools, call, titles, { signal: options.signal, allowed, cache: callCache });
      records.push({
        step,
        id: call.id,
        name: call.function.name,
        operation: outcome.operation,
        arguments: outcome.args,
        ok: outcome.ok,
        error: outcome.error,
        sources: outcome.sources.length,
        cached: outcome.cached,
      });
      sources.push(...outcome.sources);
      emit({ type: 'tool_call', name: call.function.name, arguments: outcome.args, step });
      emit({ type: 'tool_result', name: call.function.name, ok: outcome.ok, error: outcome.error, step });
      messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content: truncateForModel(outcome.content, config.toolResultMaxChars) });
    }
  }

  const allSources = dedupe(sources);
  if (stopReason === 'max_steps') {
    const found = allSources.slice(0, 8).map((s) => `- 《${s.title}》${s.label ?? ''}（第${s.page_num}页）`);
    answer = [
      `已达到工具调用上限（${maxSteps} 轮），大模型仍在继续调用工具，已停止。请把问题问得更具体，或用 gridcode search 直接检索。`,
      found.length ? `已检索到的相关条款：\n${found.join('\n')}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    emit({ type: 'delta', text: `\n${answer}`, step: steps });
  }
  return {
    question: options.question,
    answer,
    model,
    stop_reason: stopReason,
    steps,
    max_steps: maxSteps,
    messages,
    tool_calls: records,
    citations: stopReason === 'answered' ? dedupe(citedSources(answer, allSources)) : [],
    sources: allSources,
    regulations: regulations.map((r) => r.reg_id),
  };
}

interface ToolOutcome {
  operation: string | null;
  args: unknown;
  ok: boolean;
  error: string | null;
  content: string;
  sources: Citation[];
  cached: boolean;
}

/**
 * Keeps a call inside the regulations the user restricted the chat to: searches are narrowed,
 * reads of other regulations are refused. Returns the effective arguments or an error.
 */
/** Tools that search several regulations, and the argument naming them. */
const SCOPED_SEARCH_FIELDS: Record<string, string> = { smart_search: 'reg_id', search_tables: 'reg_id', find_similar_content: 'scope' };

export function scopeToolArgs(tool: string, args: unknown, allowed: string[] | null): { args: unknown } | { error: string } {
  if (!allowed || !args || typeof args !== 'object' || Array.isArray(args)) return { args };
  const a = { ...(args as Record<string, unknown>) };
  // searches over several regulations are narrowed to the allowed ones (the whole scope when none is left)
  const narrowed = SCOPED_SEARCH_FIELDS[tool];
  if (narrowed) {
    const v = a[narrowed];
    const wanted = Array.isArray(v) ? v : typeof v === 'string' && v !== 'all' ? [v] : [];
    const inside = wanted.filter((id): id is string => typeof id === 'string' && allowed.includes(id));
    const scope = inside.length ? inside : allowed;
    a[narrowed] = scope.length === 1 ? scope[0] : scope;
  }
  // a call that reads one named regulation outside the scope is refused
  for (const field of ['reg_id', 'reg_id_a', 'reg_id_b']) {
    if (field === narrowed) continue;
    const id = a[field];
    if (typeof id === 'string' && !allowed.includes(id)) return { error: `规程 ${id} 不在本次限定的检索范围（${allowed.join('、')}）内` };
  }
  return { args: a };
}

async function executeToolCall(
  invoke: Invoke,
  tools: AgentTool[],
  call: ToolCall,
  titles: Map<string, string>,
  options: { signal?: AbortSignal; allowed: string[] | null; cache: Map<string, ToolOutcome> },
): Promise<ToolOutcome> {
  const tool = tools.find((t) => t.name === call.function.name);
  const fail = (operation: string | null, args: unknown, error: string): ToolOutcome => ({
    operation,
    args,
    ok: false,
    error,
    content: JSON.stringify({ error }),
    sources: [],
    cached: false,
  });
  if (!tool) return fail(null, call.function.arguments, `未知工具 ${call.function.name}，可用工具：${tools.map((t) => t.name).join(', ')}`);
  let raw: unknown;
  try {
    raw = call.function.arguments.trim() ? JSON.parse(call.function.arguments) : {};
  } catch {
    return fail(tool.operation, call.function.arguments, `工具参数不是合法 JSON：${call.function.arguments.slice(0, 200)}`);
  }
  const scoped = scopeToolArgs(tool.name, raw, options.allowed);
  if ('error' in scoped) return fail(tool.operation, raw, scoped.error);
  const args = scoped.args;
  // Models sometimes repeat a call verbatim; answer it from the earlier result.
  const key = `${tool.name}\u0000${JSON.stringify(args)}`;
  const earlier = options.cache.get(key);
  if (earlier) return { ...earlier, cached: true };
  try {
    const result = await invoke(tool.operation, args, { signal: options.signal });
    const found = tool.name === 'list_regulations' || tool.name === 'get_toc' || tool.name === 'get_chapter_structure' ? [] : collectSources(result, titles);
    const outcome: ToolOutcome = { operation: tool.operation, args, ok: true, error: null, content: compactForModel(result), sources: found, cached: false };
    options.cache.set(key, outcome);
    return outcome;
  } catch (e) {
    if (e instanceof GridError && e.code === 'CANCELLED') throw e;
    // The model sees the error and can correct its arguments on the next round.
    return fail(tool.operation, args, redactSecrets(toErrorPayload(e).message));
  }
}
