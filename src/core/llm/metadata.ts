import { z } from 'zod';
import type { AppContext } from '../context';
import { GridError, toErrorPayload } from '../common/errors';
import { describeZodError } from '../common/operation';
import { enrichRegulation } from '../regulations/metadata';
import { firstPages, getRegulation, getToc, listRegulations, updateInfo } from '../regulations/store';
import { createLlmClient, llmAvailable, type ChatMessage } from './client';
import { extractJson } from './json';
import { METADATA_RETRY_PROMPT, buildMetadataPrompt } from './prompts';

/** Seed 002 §1.6: what the model must return (limits enforced, not just requested). */
export const llmMetadataSchema = z.object({
  description: z.string().trim().min(1).max(50, '简介不能超过 50 个字'),
  keywords: z
    .array(z.string().trim().min(1).max(20))
    .transform((list) => [...new Set(list)])
    .pipe(z.array(z.string()).min(5, '关键词至少 5 个').max(8, '关键词最多 8 个')),
  scope: z.string().trim().min(1).max(200),
});
export type LlmMetadata = z.output<typeof llmMetadataSchema>;

export interface EnrichOutcome {
  reg_id: string;
  title: string;
  /** Which path wrote the metadata. */
  source: 'llm' | 'offline';
  description: string | null;
  keywords: string[];
  scope: string | null;
  /** LLM attempts made (0 when no key). */
  attempts: number;
  /** Why the offline path was used, in Chinese; null when the LLM succeeded. */
  message: string | null;
}

const TOC_MAX_CHARS = 3000;
const PAGES_MAX_CHARS = 6000;

function tocText(ctx: AppContext, regId: string): string {
  const lines = getToc(ctx.db, regId).map((e) => `${'  '.repeat(Math.max(0, e.level - 1))}- ${e.title}（第${e.page_num}页）`);
  const text = lines.join('\n');
  return text.length > TOC_MAX_CHARS ? `${text.slice(0, TOC_MAX_CHARS)}\n…` : text;
}

function pagesText(ctx: AppContext, regId: string): string {
  const text = firstPages(ctx.db, regId, ctx.config.llm.metadataPages)
    .map((p) => `[第${p.page_num}页]\n${p.text}`)
    .join('\n\n');
  return text.length > PAGES_MAX_CHARS ? `${text.slice(0, PAGES_MAX_CHARS)}\n…` : text;
}

/** Parses + validates one reply; the problem text goes back to the model on the retry. */
export function parseMetadataReply(text: string | null): { ok: true; value: LlmMetadata } | { ok: false; problem: string } {
  const json = extractJson(text, 'object');
  if (json === undefined) return { ok: false, problem: text?.trim() ? '回复中没有 JSON 对象' : '回复为空' };
  const parsed = llmMetadataSchema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: describeZodError(parsed.error) };
}

/** The regulations engine's offline enrichment (same update path), used as the fallback. */
function enrichOffline(ctx: AppContext, regId: string): void {
  enrichRegulation(ctx, regId);
}

export async function enrichRegulationWithLlm(ctx: AppContext, regId: string, signal?: AbortSignal): Promise<EnrichOutcome> {
  const info = getRegulation(ctx.db, regId);
  const outcome = (source: EnrichOutcome['source'], attempts: number, message: string | null): EnrichOutcome => {
    const now = getRegulation(ctx.db, regId);
    return { reg_id: regId, title: now.title, source, description: now.description, keywords: now.keywords, scope: now.scope, attempts, message };
  };
  const fallback = async (attempts: number, reason: string) => {
    enrichOffline(ctx, regId);
    return outcome('offline', attempts, `${reason}，已改用离线方式生成元数据`);
  };

  if (!llmAvailable(ctx)) return fallback(0, '未配置大模型密钥（DASHSCOPE_API_KEY）');
  const client = createLlmClient(ctx);
  const messages: ChatMessage[] = [
    { role: 'system', content: '你是电力系统规程编目助手，只输出 JSON。' },
    { role: 'user', content: buildMetadataPrompt({ title: info.title, toc: tocText(ctx, regId), firstPages: pagesText(ctx, regId) }) },
  ];
  let attempts = 0;
  let problem = '';
  // One retry on invalid JSON (seed 002 / issue 8), then offline.
  for (let round = 0; round < 2; round++) {
    attempts++;
    let reply: string | null;
    try {
      const result = await client.chat({ model: ctx.config.llm.parseModel, messages, jsonMode: true, temperature: 0.2, signal });
      reply = result.message.content;
    } catch (e) {
      if (e instanceof GridError && e.code === 'CANCELLED') throw e;
      return fallback(attempts, `大模型调用失败：${toErrorPayload(e).message}`);
    }
    const parsed = parseMetadataReply(reply);
    if (parsed.ok) {
      updateInfo(ctx.db, regId, parsed.value, 'llm');
      return outcome('llm', attempts, null);
    }
    problem = parsed.problem;
    messages.push({ role: 'assistant', content: reply ?? '' }, { role: 'user', content: METADATA_RETRY_PROMPT.replace('{problem}', () => problem) });
  }
  return fallback(attempts, `大模型两次输出的元数据均无效（${problem}）`);
}

/** `enrich-metadata --llm <reg_id> | --all`. Reports progress per regulation. */
export async function enrichMetadataWithLlm(
  ctx: AppContext,
  target: { reg_id?: string; all?: boolean },
  run: { signal?: AbortSignal; progress?: (done: number, total: number, item: string) => void } = {},
): Promise<EnrichOutcome[]> {
  const ids = target.all ? listRegulations(ctx.db).map((r) => r.reg_id) : target.reg_id ? [getRegulation(ctx.db, target.reg_id).reg_id] : [];
  const results: EnrichOutcome[] = [];
  for (const [i, id] of ids.entries()) {
    run.progress?.(i, ids.length, id);
    results.push(await enrichRegulationWithLlm(ctx, id, run.signal));
  }
  run.progress?.(ids.length, ids.length, '');
  return results;
}
