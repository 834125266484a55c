import type { AppContext } from '../context';
import { GridError, toErrorPayload } from '../common/errors';
import { createLlmClient, llmAvailable } from '../llm/client';
import { commandSystemPrompt, parseCommandArray } from './command-protocol';

export { commandSystemPrompt };
import { withRulesFallback, type ParseOutcome } from './stages/parse';
import { UNKNOWN_ACTION, type Command, type Home } from './types';

/**
 * LLM command parsing (seeds 000/001) for the devices engine. The model is reached through a
 * chat function passed in (the llm engine's client); the devices engine owns the prompt, the
 * reply protocol and — in one place, stages/parse.ts — the fallback to the rule grammar.
 */

/** system + user message in, the model's reply text out. */
export type CommandChat = (messages: { role: 'system' | 'user'; content: string }[], signal?: AbortSignal) => Promise<string | null>;

export type LlmParseOutcome = ParseOutcome & {
  /** The model's raw reply (for --json debugging); null when no call was made. */
  reply: string | null;
};

function unusable(commands: Command[]): string | null {
  if (!commands.length) return '模型回复没有命令';
  if (commands.every((c) => c.a === UNKNOWN_ACTION)) return commands[0].reason ?? '模型未识别出动作';
  return null;
}

/** Asks the model for the command array; throws (Chinese message) when the reply is unusable. */
export async function commandsFromModel(chat: CommandChat, text: string, home: Home, signal?: AbortSignal): Promise<{ commands: Command[]; reply: string | null }> {
  let reply: string | null;
  try {
    reply = await chat(
      [
        { role: 'system', content: commandSystemPrompt(home) },
        { role: 'user', content: text },
      ],
      signal,
    );
  } catch (e) {
    if (e instanceof GridError && e.code === 'CANCELLED') throw e;
    throw new Error(`大模型解析失败：${toErrorPayload(e).message}`);
  }
  const commands = parseCommandArray(reply ?? '');
  const problem = unusable(commands);
  if (problem) throw Object.assign(new Error(`大模型回复无效：${problem}`), { reply });
  return { commands, reply };
}

/** The llm engine's client as a CommandChat: its own short timeout and at most one retry. */
export function chatFromContext(ctx: AppContext): CommandChat | null {
  if (!llmAvailable(ctx)) return null;
  return async (messages, signal) => {
    const client = createLlmClient(ctx, { timeoutMs: ctx.config.llm.parseTimeoutMs, maxRetries: Math.min(1, ctx.config.llm.maxRetries) });
    const result = await client.chat({ model: ctx.config.llm.parseModel, messages, temperature: 0, signal });
    return result.message.content;
  };
}

const NO_KEY = '未配置大模型密钥（DASHSCOPE_API_KEY），使用规则解析';

export async function parseCommandsWithLlm(ctx: AppContext, text: string, home: Home, options: { signal?: AbortSignal } = {}): Promise<LlmParseOutcome> {
  const chat = chatFromContext(ctx);
  let reply: string | null = null;
  const outcome = await withRulesFallback(text, home, async () => {
    if (!chat) throw new Error(NO_KEY);
    try {
      const got = await commandsFromModel(chat, text, home, options.signal);
      reply = got.reply;
      return got.commands;
    } catch (e) {
      reply = (e as { reply?: string | null }).reply ?? null;
      throw e;
    }
  });
  return { ...outcome, reply };
}

export type CommandParserFn = ((text: string, home: Home) => Promise<Command[]>) & {
  /** Outcome of the most recent call, so the caller can say which parser produced the result. */
  lastOutcome: LlmParseOutcome | null;
};

export interface LlmCommandParserOptions {
  signal?: AbortSignal;
  /**
   * 'throw' (default, for `retrieve({ parseCommands })`): an unusable reply rejects with the
   * reason and retrieve's parse stage falls back. 'rules': resolve with the rule grammar's commands.
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
