import { parseRules } from '../parser';
import type { HomeIndex } from '../index';
import type { Command, Home } from '../types';

/**
 * Stage 1 — parse: utterance -> ordered command array (seed 000). Commands given by the caller
 * are used as they are; an LLM parser is tried when given; the rule grammar answers otherwise
 * and is the one fallback for every LLM failure (no key, error, slow, empty or invalid reply).
 */

export interface ParseOutcome {
  commands: Command[];
  parser: 'llm' | 'rules-fallback';
  /** Why the model's reply was not used (Chinese); null when it was. */
  error: string | null;
  elapsed_ms: number;
}

/** Runs `viaModel`; on any failure the rule grammar parses instead and the reason is kept. */
export async function withRulesFallback(text: string, home: Home | HomeIndex, viaModel: () => Promise<Command[]>): Promise<ParseOutcome> {
  const started = Date.now();
  try {
    const commands = await viaModel();
    if (!commands.length) throw new Error('模型没有返回命令');
    return { commands, parser: 'llm', error: null, elapsed_ms: Date.now() - started };
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code === 'CANCELLED') throw e;
    return { commands: parseRules(text, home), parser: 'rules-fallback', error: err.message || '大模型解析失败', elapsed_ms: Date.now() - started };
  }
}

export interface ParseStageOptions {
  commands?: Command[];
  parseCommands?: (text: string, home: Home) => Promise<Command[]>;
}

export async function parseStage(
  text: string,
  home: Home,
  index: HomeIndex,
  options: ParseStageOptions,
): Promise<{ commands: Command[]; parser: 'rules' | 'llm' | 'rules-fallback' | 'commands'; error?: string }> {
  if (options.commands) return { commands: options.commands, parser: 'commands' };
  if (options.parseCommands) {
    const out = await withRulesFallback(text, index, () => options.parseCommands!(text, home));
    return { commands: out.commands, parser: out.parser, ...(out.error ? { error: out.error } : {}) };
  }
  return { commands: parseRules(text, index), parser: 'rules' };
}
