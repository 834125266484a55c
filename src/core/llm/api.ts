import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import type { AppContext } from '../context';
import { GridError, toErrorPayload } from '../common/errors';
import { configureLlm, createLlmClient, currentLlmSettings, isAllowedEndpoint, llmAvailable, noKeyError, resolveLlmSettings, withheldMessage } from './client';
import { describeKeySource, redactSecrets } from './redact';
import { runChatAgent } from './agent';
import { enrichMetadataWithLlm } from './metadata';

const citationSchema = z.object({
  reg_id: z.string(),
  title: z.string(),
  page_num: z.number().int(),
  label: z.string().nullable(),
  section_path: z.string().nullable(),
  snippet: z.string().nullable(),
});

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().nullable(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});

export const chatTranscriptSchema = z.object({
  question: z.string(),
  answer: z.string(),
  model: z.string(),
  stop_reason: z.enum(['answered', 'max_steps']),
  steps: z.number().int(),
  max_steps: z.number().int(),
  messages: z.array(messageSchema),
  tool_calls: z.array(
    z.object({
      step: z.number().int(),
      id: z.string(),
      name: z.string(),
      operation: z.string().nullable(),
      arguments: z.unknown(),
      ok: z.boolean(),
      error: z.string().nullable(),
      sources: z.number().int(),
      cached: z.boolean(),
    }),
  ),
  citations: z.array(citationSchema),
  sources: z.array(citationSchema),
  regulations: z.array(z.string()),
});

const enrichOutcomeSchema = z.object({
  reg_id: z.string(),
  title: z.string(),
  source: z.enum(['llm', 'offline']),
  description: z.string().nullable(),
  keywords: z.array(z.string()),
  scope: z.string().nullable(),
  attempts: z.number().int(),
  message: z.string().nullable(),
});

const llmStatusSchema = z.object({
  available: z.boolean(),
  key_source: z.enum(['app', 'env']).nullable(),
  base_url: z.string(),
  parse_model: z.string(),
  chat_model: z.string(),
  embed_model: z.string(),
  message: z.string(),
  /** Present when the caller asked to test the connection. */
  check: z
    .object({ ok: z.boolean(), latency_ms: z.number().int(), error: z.string().nullable() })
    .optional(),
});

function llmStatus(ctx: AppContext): z.input<typeof llmStatusSchema> {
  const settings = resolveLlmSettings(ctx);
  return {
    available: settings.apiKey !== null,
    key_source: settings.keySource,
    base_url: redactSecrets(settings.baseUrl, [settings.apiKey]),
    parse_model: ctx.config.llm.parseModel,
    chat_model: ctx.config.llm.chatModel,
    embed_model: ctx.config.llm.embedModel,
    message: withheldMessage(settings.withheld) ?? describeKeySource(settings.keySource),
  };
}

/** One tiny completion: proves key, endpoint and model work (settings screen "测试连接"). */
async function checkConnection(ctx: AppContext, signal: AbortSignal): Promise<{ ok: boolean; latency_ms: number; error: string | null }> {
  const started = Date.now();
  try {
    const client = createLlmClient(ctx, { maxRetries: 0 });
    await client.chat({ model: ctx.config.llm.parseModel, messages: [{ role: 'user', content: '你好' }], maxTokens: 1, signal });
    return { ok: true, latency_ms: Date.now() - started, error: null };
  } catch (e) {
    return { ok: false, latency_ms: Date.now() - started, error: toErrorPayload(e).message };
  }
}

/** API operations of the llm engine (see src/core/api/table.ts). */
export const llmOperations = defineOperations({
  'llm.status': defineOperation({
    summary: '大模型状态：是否已配置密钥、接口地址与模型（不返回密钥），可测试连接 / LLM status (never the key), optional connection check',
    input: z.object({ check: z.boolean().default(false).describe('实际调用一次模型测试连接 / make one tiny call') }).strict(),
    output: llmStatusSchema,
    handler: async (ctx, input, run) => {
      const status = llmStatus(ctx);
      if (input.check && status.available) status.check = await checkConnection(ctx, run.signal);
      return status;
    },
  }),

  'llm.configure': defineOperation({
    summary: '设置大模型密钥/接口地址（本进程生效，由应用外壳安全保存；null 清除） / Set the LLM key or endpoint for this process',
    input: z
      .object({
        api_key: z.string().trim().min(8, '密钥过短').max(400).nullable().optional(),
        base_url: z
          .string()
          .trim()
          .regex(/^https?:\/\/\S+$/, '接口地址应以 http:// 或 https:// 开头')
          .refine(isAllowedEndpoint, '接口地址必须使用 https（仅本机地址可用 http），且不能含用户名或密码')
          .nullable()
          .optional(),
      })
      .strict(),
    output: llmStatusSchema,
    handler: (ctx, input) => {
      const next = currentLlmSettings(ctx);
      // a key entered now belongs to the endpoint in effect after this call; a base_url changed
      // without re-entering the key leaves the key bound to its old endpoint (so it is not sent)
      if (input.api_key !== undefined) {
        next.apiKey = input.api_key;
        next.keyBaseUrl = null;
      }
      if (input.base_url !== undefined) next.baseUrl = input.base_url;
      configureLlm(ctx, next, { notify: true });
      return llmStatus(ctx);
    },
  }),

  'llm.chat': defineOperation({
    summary: '规程问答助手：自动选择规程检索并引用条款作答（需大模型密钥） / Regulation assistant with cited answers (needs an LLM key)',
    input: z
      .object({
        question: z.string().trim().min(1, '问题不能为空').max(4000),
        history: z
          .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }))
          .max(40)
          .default([]),
        max_steps: z.number().int().min(1).max(20).optional(),
        reg_ids: z.array(z.string().min(1)).max(50).optional().describe('只在这些规程中检索 / restrict to these regulations'),
        /** Emit answer text as progress events {stage:'delta', message} while it streams. */
        stream: z.boolean().default(false),
      })
      .strict(),
    output: chatTranscriptSchema,
    handler: async (ctx, input, run) => {
      if (!llmAvailable(ctx)) {
        const e = noKeyError();
        throw new GridError(e.code, `${e.message}。离线可使用 gridcode search 检索规程`, e.details);
      }
      return runChatAgent(ctx, {
        question: input.question,
        history: input.history,
        maxSteps: input.max_steps,
        regIds: input.reg_ids,
        stream: input.stream,
        signal: run.signal,
        invoke: run.invoke,
        operations: await run.operations(),
        onEvent: (event) => {
          if (event.type === 'delta') run.progress({ stage: 'delta', done: event.step, total: 0, message: event.text });
          else if (event.type === 'tool_call')
            run.progress({ stage: 'tool', done: event.step, total: 0, item: event.name, message: JSON.stringify(event.arguments) });
          else if (!event.ok) run.progress({ stage: 'tool_error', done: event.step, total: 0, item: event.name, message: event.error ?? '' });
        },
      });
    },
  }),

  'llm.enrich_metadata': defineOperation({
    summary: '用大模型生成规程元数据（简介、关键词、适用范围），失败时改用离线生成 / LLM regulation metadata with offline fallback',
    input: z
      .object({
        reg_id: z.string().trim().min(1).optional(),
        all: z.boolean().default(false),
      })
      .strict()
      .refine((v) => v.all !== !!v.reg_id, { message: '请指定 reg_id 或 all（二选一）', path: ['reg_id'] }),
    output: z.object({ results: z.array(enrichOutcomeSchema) }),
    handler: async (ctx, input, run) => ({
      results: await enrichMetadataWithLlm(ctx, input, {
        signal: run.signal,
        progress: (done, total, item) => run.progress({ stage: 'enrich', done, total, item }),
      }),
    }),
  }),
});
