import type { AppContext } from '../context';
import { GridError, toErrorPayload } from '../common/errors';
import { allEntities } from '../devices/home';
import { TYPES } from '../devices/lexicon';
import { buildCommandPrompt, parseCommandArray, parseRules } from '../devices/parser';
import { UNKNOWN_ACTION, type Command, type Home } from '../devices/types';
import { createLlmClient, llmAvailable } from './client';

/**
 * LLM command parsing (seeds 000/001): the devices engine's system prompt and reply parser,
 * with the rule parser as the fallback for no key, errors, slow, empty or invalid replies.
 */

export interface LlmParseOutcome {
  commands: Command[];
  /** 'llm' = the model's array was used; 'rules-fallback' = the rule parser answered instead. */
  parser: 'llm' | 'rules-fallback';
  /** Why the model's reply was not used (Chinese); null when it was. */
  error: string | null;
  /** The model's raw reply (for --json debugging); null when no call was made. */
  reply: string | null;
  elapsed_ms: number;
}

/** Rooms the prompt may use: declared rooms plus rooms devices are in. */
export function homeRooms(home: Home): string[] {
  const rooms = new Set(home.rooms);
  for (const e of allEntities(home)) if (e.room) rooms.add(e.room);
  return [...rooms];
}

export function commandSystemPrompt(home: Home): string {
  const types = Object.entries(TYPES)
    .filter(([, words]) => words.length)
    .map(([type]) => type);
  return buildCommandPrompt(homeRooms(home), types);
}

function unusable(commands: Command[]): string | null {
  if (!commands.length) return '模型回复没有命令';
  if (commands.every((c) => c.a === UNKNOWN_ACTION)) return commands[0].reason ?? '模型未识别出动作';
  return null;
}

export async function parseCommandsWithLlm(
  ctx: AppContext,
  text: string,
  home: Home,
  options: { signal?: AbortSignal } = {},
): Promise<LlmParseOutcome> {
  const started = Date.now();
  const fallback = (error: string, reply: string | null): LlmParseOutcome => ({
    commands: parseRules(text, home),
    parser: 'rules-fallback',
    error,
    reply,
    elapsed_ms: Date.now() - started,
  });
  if (!llmAvailable(ctx)) return fallback('未配置大模型密钥（DASHSCOPE_API_KEY），使用规则解析', null);
  let reply: string | null = null;
  try {
    // Parsing must feel instant: its own short timeout and at most one retry.
    const client = createLlmClient(ctx, { timeoutMs: ctx.config.llm.parseTimeoutMs, maxRetries: Math.min(1, ctx.config.llm.maxRetries) });
    const result = await client.chat({
      model: ctx.config.llm.parseModel,
      messages: [
        { role: 'system', content: commandSystemPrompt(home) },
        { role: 'user', content: text },
      ],
      temperature: 0,
      signal: options.signal,
    });
    reply = result.message.content;
  } catch (e) {
    if (e instanceof GridError && e.code === 'CANCELLED') throw e;
    return fallback(`大模型解析失败：${toErrorPayload(e).message}`, null);
  }
  const commands = parseCommandArray(reply ?? '');
  const problem = unusable(commands);
  if (problem) return fallback(`大模型回复无效：${problem}`, reply);
  return { commands, parser: 'llm', error: null, reply, elapsed_ms: Date.now() - started };
}

export type CommandParserFn = ((text: string, home: Home) => Promise<Command[]>) & {
  /** Outcome of the most recent call, so the caller can say which parser produced the result. */
  lastOutcome: LlmParseOutcome | null;
};

export interface LlmCommandParserOptions {
  signal?: AbortSignal;
  /**
   * 'throw' (default, for the devices engine's `retrieve({ parseCommands })`): an unusable reply
   * rejects with the reason, and retrieve runs the rule parser and records meta.parser =
   * 'rules-fallback' + meta.parser_error. 'rules': resolve with the rule parser's commands.
   */
  onFailure?: 'throw' | 'rules';
}

/** `(text, home) => Promise<Command[]>` backed by the LLM (seed 000 protocol). */
export function createLlmCommandParser(ctx: AppContext, options: LlmCommandParserOptions = {}): CommandParserFn {
  const fn = (async (text: string, home: Home) => {
    const outcome = await parseCommandsWithLlm(ctx, text, home, options);
    fn.lastOutcome = outcome;
    if (outcome.parser !== 'llm' && (options.onFailure ?? 'throw') === 'throw') throw new Error(outcome.error ?? '大模型解析失败');
    return outcome.commands;
  }) as CommandParserFn;
  fn.lastOutcome = null;
  return fn;
}
