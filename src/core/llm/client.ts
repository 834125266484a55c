import type { AppContext } from '../context';
import { GridError } from '../common/errors';
import { redactSecrets } from './redact';
import { ContextValue } from '../common/cache';

/**
 * The one LLM client: OpenAI-compatible chat completions (DashScope compatible mode).
 * Optional by design — with no key every caller falls back to offline behaviour.
 */

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: ChatRole;
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  temperature?: number;
  maxTokens?: number;
  /** Asks for a JSON object reply (DashScope/OpenAI `response_format`). */
  jsonMode?: boolean;
  signal?: AbortSignal;
  /** Overrides the client's timeout; for streams this is the idle time between chunks. */
  timeoutMs?: number;
}

export interface ChatResult {
  message: ChatMessage;
  finishReason: string | null;
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  /** HTTP attempts made (1 = no retry). */
  attempts: number;
}

export type LlmFailureKind = 'no_key' | 'http' | 'timeout' | 'network' | 'bad_response';

export interface LlmErrorDetails {
  kind: LlmFailureKind;
  status?: number;
  attempts?: number;
}

export interface LlmClientOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface LlmSettings {
  /** Key handed over by the Electron shell (decrypted from safeStorage); wins over the env. */
  apiKey?: string | null;
  baseUrl?: string | null;
  /**
   * The base URL the app key was entered for. The key is only ever sent there: changing the
   * endpoint without re-entering the key sends no key. Defaults to the endpoint in effect when
   * the key is set.
   */
  keyBaseUrl?: string | null;
}

/** The settings the shell (or `llm.configure`) handed to this context. */
const llmSettings = new ContextValue<LlmSettings>('llm.settings');

type SettingsListener = (ctx: AppContext, settings: LlmSettings) => void;
const settingsListeners = new Set<SettingsListener>();

/**
 * The Electron main process subscribes here to persist a key set through `llm.configure`
 * with safeStorage (core never touches Electron). Returns the unsubscribe function.
 */
export function onLlmSettingsChanged(listener: SettingsListener): () => void {
  settingsListeners.add(listener);
  return () => settingsListeners.delete(listener);
}

export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The endpoint an environment key belongs to: DASHSCOPE_BASE_URL, else the configured default. */
function envEndpoint(ctx: AppContext): string {
  return normaliseBaseUrl(process.env.DASHSCOPE_BASE_URL?.trim() || ctx.config.llm.baseUrl);
}

function effectiveBaseUrl(ctx: AppContext, app: LlmSettings): string {
  return normaliseBaseUrl(app.baseUrl?.trim() || envEndpoint(ctx));
}

/** Loopback hosts may speak plain http (a local gateway, the test server); anything else must be https. */
export function isAllowedEndpoint(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (parsed.protocol === 'https:') return true;
  if (parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The Electron shell (or a test) passes the stored key in; core never reads safeStorage itself. */
export function configureLlm(ctx: AppContext, settings: LlmSettings, options: { notify?: boolean } = {}): void {
  const next: LlmSettings = { ...settings };
  const key = next.apiKey?.trim() || null;
  // bind the key to the endpoint it is entered for (unless the caller says where it was stored)
  next.keyBaseUrl = key ? normaliseBaseUrl(next.keyBaseUrl?.trim() || effectiveBaseUrl(ctx, next)) : null;
  llmSettings.set(ctx.state, next);
  if (options.notify) for (const listener of settingsListeners) listener(ctx, { ...next });
}

export function currentLlmSettings(ctx: AppContext): LlmSettings {
  return { ...(llmSettings.get(ctx.state) ?? {}) };
}

export interface ResolvedLlmSettings {
  apiKey: string | null;
  keySource: 'app' | 'env' | null;
  baseUrl: string;
  /** Why a configured key is withheld from this endpoint (null when nothing is withheld). */
  withheld: 'endpoint_changed' | 'insecure_endpoint' | null;
}

/**
 * The key to send and where: an app key only to the endpoint it was entered for, an env key only
 * to DASHSCOPE_BASE_URL (or the default endpoint), and never over plain http to another machine.
 */
export function resolveLlmSettings(ctx: AppContext): ResolvedLlmSettings {
  const app = llmSettings.get(ctx.state) ?? {};
  const baseUrl = effectiveBaseUrl(ctx, app);
  const appKey = app.apiKey?.trim() || null;
  const envKey = process.env.DASHSCOPE_API_KEY?.trim() || null;
  let withheld: ResolvedLlmSettings['withheld'] = null;
  let apiKey: string | null = null;
  let keySource: ResolvedLlmSettings['keySource'] = null;
  if (appKey && normaliseBaseUrl(app.keyBaseUrl || baseUrl) === baseUrl) {
    apiKey = appKey;
    keySource = 'app';
  } else if (envKey && envEndpoint(ctx) === baseUrl) {
    apiKey = envKey;
    keySource = 'env';
  } else if (appKey || envKey) withheld = 'endpoint_changed';
  if (apiKey && !isAllowedEndpoint(baseUrl)) {
    apiKey = null;
    keySource = null;
    withheld = 'insecure_endpoint';
  }
  return { apiKey, keySource, baseUrl, withheld };
}

/** False with no key: every LLM feature then behaves exactly as offline. */
export function llmAvailable(ctx: AppContext): boolean {
  return resolveLlmSettings(ctx).apiKey !== null;
}

export function noKeyError(withheld: ResolvedLlmSettings['withheld'] = null): GridError {
  return new GridError('LLM_UNAVAILABLE', withheldMessage(withheld) ?? '未配置大模型密钥（环境变量 DASHSCOPE_API_KEY 或应用设置），无法使用大模型功能', {
    kind: 'no_key',
  } satisfies LlmErrorDetails);
}

export function withheldMessage(withheld: ResolvedLlmSettings['withheld']): string | null {
  if (withheld === 'endpoint_changed') return '大模型接口地址已更改，密钥只发往它保存时的地址：请为新地址重新输入密钥（未发送密钥）';
  if (withheld === 'insecure_endpoint') return '大模型接口地址不是 https（本机地址除外），为保护密钥未发送请求';
  return null;
}

/** A client for this context; throws LLM_UNAVAILABLE (no key) so callers can fall back. */
export function createLlmClient(ctx: AppContext, overrides: Partial<LlmClientOptions> = {}): LlmClient {
  const settings = resolveLlmSettings(ctx);
  const apiKey = overrides.apiKey ?? settings.apiKey;
  if (!apiKey) throw noKeyError(settings.withheld);
  const baseUrl = overrides.baseUrl ?? settings.baseUrl;
  if (!isAllowedEndpoint(baseUrl)) throw noKeyError('insecure_endpoint');
  const c = ctx.config.llm;
  return new LlmClient({
    apiKey,
    baseUrl,
    timeoutMs: overrides.timeoutMs ?? c.timeoutMs,
    maxRetries: overrides.maxRetries ?? c.maxRetries,
    retryBaseMs: overrides.retryBaseMs ?? c.retryBaseMs,
    retryMaxMs: overrides.retryMaxMs ?? c.retryMaxMs,
  });
}

export function isLlmFailure(e: unknown): e is GridError {
  return e instanceof GridError && e.code === 'LLM_UNAVAILABLE';
}

function cancelledError(): GridError {
  return new GridError('CANCELLED', '已取消大模型请求');
}

/** Resolves after ms, or rejects with CANCELLED when the signal fires first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelledError());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After is seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * One attempt's abort plumbing: the caller's signal (cancel) plus a timer (timeout). `touch()`
 * restarts the timer — streams use it so only an idle stream times out, not a long answer.
 */
class AttemptControl {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onOuterAbort = () => this.controller.abort();
  constructor(
    private readonly timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.touch();
  }
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }
  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

interface WireChoice {
  message?: { role?: string; content?: string | null; tool_calls?: ToolCall[] };
  delta?: {
    content?: string | null;
    tool_calls?: { index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
  };
  finish_reason?: string | null;
}

interface WireCompletion {
  choices?: WireChoice[];
  usage?: ChatResult['usage'];
}

export class LlmClient {
  constructor(private readonly options: LlmClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Every message leaving this client goes through here: no key, ever. */
  private redact(text: string): string {
    return redactSecrets(text, [this.options.apiKey]);
  }

  private fail(kind: LlmFailureKind, message: string, extra: Omit<LlmErrorDetails, 'kind'> = {}): GridError {
    return new GridError('LLM_UNAVAILABLE', this.redact(message), { kind, ...extra } satisfies LlmErrorDetails);
  }

  private body(req: ChatRequest, stream: boolean): string {
    const payload: Record<string, unknown> = { model: req.model, messages: req.messages.map(toWireMessage), stream };
    if (req.tools?.length) payload.tools = req.tools;
    if (req.temperature !== undefined) payload.temperature = req.temperature;
    if (req.maxTokens !== undefined) payload.max_tokens = req.maxTokens;
    if (req.jsonMode) payload.response_format = { type: 'json_object' };
    if (stream) payload.stream_options = { include_usage: true };
    return JSON.stringify(payload);
  }

  /**
   * POSTs with timeout, cancellation and bounded retries (429/408/5xx/network, exponential
   * backoff, Retry-After honoured up to retryMaxMs). Returns the open response and its control;
   * the caller reads the body and disposes the control.
   */
  private async post(
    path: string,
    body: string,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<{ response: Response; control: AttemptControl; attempts: number }> {
    const url = `${this.options.baseUrl}${path}`;
    let lastError: GridError | null = null;
    for (let attempt = 0; attempt <= this.options.maxRetries; attempt++) {
      if (signal?.aborted) throw cancelledError();
      const control = new AttemptControl(timeoutMs, signal);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.options.apiKey}` },
          body,
          signal: control.controller.signal,
        });
      } catch (e) {
        control.dispose();
        if (signal?.aborted) throw cancelledError();
        if (control.timedOut) {
          // A timeout is not retried: a slow service stays slow and callers have offline fallbacks.
          throw this.fail('timeout', `大模型请求超时（${timeoutMs} ms 无响应）：${url}`, { attempts: attempt + 1 });
        }
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        lastError = this.fail('network', `无法连接大模型服务 ${url}：${cause?.code ?? cause?.message ?? (e as Error).message}`, {
          attempts: attempt + 1,
        });
        if (attempt < this.options.maxRetries) await sleep(this.backoff(attempt, null), signal);
        continue;
      }
      if (response.ok) return { response, control, attempts: attempt + 1 };

      const text = await response.text().catch(() => '');
      control.dispose();
      const detail = describeErrorBody(text);
      lastError = this.fail(
        'http',
        `大模型服务返回 HTTP ${response.status}${attempt > 0 ? `（已重试 ${attempt} 次）` : ''}${detail ? `：${detail}` : ''}`,
        { status: response.status, attempts: attempt + 1 },
      );
      if (!isRetryableStatus(response.status) || attempt >= this.options.maxRetries) throw lastError;
      await sleep(this.backoff(attempt, parseRetryAfter(response.headers.get('retry-after'))), signal);
    }
    throw lastError ?? this.fail('network', '大模型请求失败');
  }

  private backoff(attempt: number, retryAfterMs: number | null): number {
    const exponential = this.options.retryBaseMs * 2 ** attempt;
    return Math.min(this.options.retryMaxMs, retryAfterMs ?? exponential);
  }

  /** Non-streaming chat completion (parsing, metadata, agent steps without a terminal). */
  async chat(req: ChatRequest): Promise<ChatResult> {
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    const { response, control, attempts } = await this.post('/chat/completions', this.body(req, false), req.signal, timeoutMs);
    let text: string;
    try {
      text = await response.text();
    } catch {
      if (req.signal?.aborted) throw cancelledError();
      if (control.timedOut) throw this.fail('timeout', `大模型请求超时（${timeoutMs} ms 内未读完回复）`, { attempts });
      throw this.fail('network', '读取大模型回复时连接中断', { attempts });
    } finally {
      control.dispose();
    }
    let data: WireCompletion;
    try {
      data = JSON.parse(text) as WireCompletion;
    } catch {
      throw this.fail('bad_response', `大模型服务返回的不是 JSON：${truncate(text, 200)}`, { attempts });
    }
    const choice = data.choices?.[0];
    if (!choice?.message) throw this.fail('bad_response', '大模型回复缺少 choices[0].message', { attempts });
    const message: ChatMessage = { role: 'assistant', content: choice.message.content ?? null };
    if (choice.message.tool_calls?.length) message.tool_calls = choice.message.tool_calls.map(normaliseToolCall);
    return { message: this.redactMessage(message), finishReason: choice.finish_reason ?? null, usage: data.usage ?? null, attempts };
  }

  /** A reply may echo the key (a prompt-injected document, a hostile gateway): it never leaves unredacted. */
  private redactMessage(message: ChatMessage): ChatMessage {
    const out: ChatMessage = { ...message, content: message.content === null ? null : this.redact(message.content) };
    if (message.tool_calls) {
      out.tool_calls = message.tool_calls.map((c) => ({ ...c, function: { name: this.redact(c.function.name), arguments: this.redact(c.function.arguments) } }));
    }
    return out;
  }

  /**
   * Streaming chat completion (SSE). `onDelta` receives answer text as it arrives; tool-call
   * fragments are assembled and returned in the final message like chat().
   */
  async chatStream(req: ChatRequest, onDelta: (text: string) => void): Promise<ChatResult> {
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    const { response, control, attempts } = await this.post('/chat/completions', this.body(req, true), req.signal, timeoutMs);
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.includes('text/event-stream')) {
      // Some gateways ignore stream=true; accept a plain completion.
      let data: WireCompletion;
      try {
        data = JSON.parse(await response.text()) as WireCompletion;
      } catch {
        if (req.signal?.aborted) throw cancelledError();
        throw this.fail('bad_response', '大模型服务返回的既不是流式数据也不是 JSON', { attempts });
      } finally {
        control.dispose();
      }
      const choice = data.choices?.[0];
      if (!choice?.message) throw this.fail('bad_response', '大模型回复缺少 choices[0].message', { attempts });
      const message = this.redactMessage({ role: 'assistant', content: choice.message.content ?? null });
      if (message.content) onDelta(message.content);
      if (choice.message.tool_calls?.length) message.tool_calls = this.redactMessage({ ...message, tool_calls: choice.message.tool_calls.map(normaliseToolCall) }).tool_calls;
      return { message, finishReason: choice.finish_reason ?? null, usage: data.usage ?? null, attempts };
    }

    let content = '';
    // deltas pass through a redactor that holds back a possible key prefix until it is decided
    const redactor = new StreamRedactor((text) => this.redact(text), this.options.apiKey, onDelta);
    const calls: { id: string; name: string; arguments: string }[] = [];
    let finishReason: string | null = null;
    let usage: ChatResult['usage'] = null;
    let sawDone = false;
    const handleEvent = (data: string) => {
      if (data === '[DONE]') {
        sawDone = true;
        return;
      }
      let chunk: WireCompletion;
      try {
        chunk = JSON.parse(data) as WireCompletion;
      } catch {
        throw this.fail('bad_response', `大模型流式回复中有无法解析的数据：${truncate(data, 120)}`, { attempts });
      }
      const streamError = (chunk as { error?: { message?: string; code?: string } }).error;
      if (streamError) {
        // Some gateways report failures inside the stream after HTTP 200.
        throw this.fail('http', `大模型流式回复报错：${describeErrorBody(JSON.stringify({ error: streamError }))}`, { attempts });
      }
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) return;
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const delta = choice.delta ?? {};
      if (delta.content) {
        content += delta.content;
        redactor.push(delta.content);
      }
      for (const part of delta.tool_calls ?? []) {
        const index = part.index ?? calls.length;
        calls[index] ??= { id: '', name: '', arguments: '' };
        if (part.id) calls[index].id = part.id;
        if (part.function?.name) calls[index].name += part.function.name;
        if (part.function?.arguments) calls[index].arguments += part.function.arguments;
      }
    };

    try {
      const reader = response.body?.getReader();
      if (!reader) throw this.fail('bad_response', '大模型流式回复没有内容', { attempts });
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        control.touch();
        buffer += decoder.decode(value, { stream: true });
        // SSE events are separated by a blank line; keep an unfinished tail for the next chunk.
        let boundary: number;
        while ((boundary = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const rawEvent = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
          const data = rawEvent
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''))
            .join('\n');
          if (data) handleEvent(data);
        }
      }
      const tail = buffer.trim();
      if (tail.startsWith('data:')) handleEvent(tail.slice(5).trim());
    } catch (e) {
      if (e instanceof GridError) throw e;
      if (req.signal?.aborted) throw cancelledError();
      if (control.timedOut) throw this.fail('timeout', `大模型流式回复中断：${timeoutMs} ms 内没有新数据`, { attempts });
      throw this.fail('network', `大模型流式回复中断：${(e as Error).message}`, { attempts });
    } finally {
      control.dispose();
    }
    redactor.flush();
    if (!sawDone && finishReason === null && !content && !calls.length) {
      throw this.fail('bad_response', '大模型流式回复为空', { attempts });
    }
    const message: ChatMessage = { role: 'assistant', content: content ? this.redact(content) : null };
    const toolCalls = calls.filter(Boolean).map((c, i) => ({
      id: c.id || `call_${i}`,
      type: 'function' as const,
      function: { name: c.name, arguments: c.arguments },
    }));
    if (toolCalls.length) message.tool_calls = this.redactMessage({ ...message, tool_calls: toolCalls }).tool_calls;
    return { message, finishReason, usage, attempts };
  }

  /** OpenAI-compatible embeddings (DashScope text-embedding-v4 takes at most 10 texts per call). */
  async embed(texts: string[], options: { model: string; dimensions?: number; signal?: AbortSignal }): Promise<number[][]> {
    const body = JSON.stringify({ model: options.model, input: texts, dimensions: options.dimensions, encoding_format: 'float' });
    const { response, control, attempts } = await this.post('/embeddings', body, options.signal, this.options.timeoutMs);
    let data: { data?: { index?: number; embedding?: number[] }[] };
    try {
      data = JSON.parse(await response.text()) as typeof data;
    } catch {
      throw this.fail('bad_response', '嵌入服务返回的不是 JSON', { attempts });
    } finally {
      control.dispose();
    }
    const rows = data.data ?? [];
    if (rows.length !== texts.length || rows.some((r) => !Array.isArray(r.embedding))) {
      throw this.fail('bad_response', `嵌入服务返回 ${rows.length} 个向量，期望 ${texts.length} 个`, { attempts });
    }
    return [...rows].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((r) => r.embedding as number[]);
  }
}

/**
 * Redacts streamed text without letting a secret through split across two deltas: text is emitted
 * at once, except a tail that could still become the key (a prefix of it, or an `sk-…`/`Bearer …`
 * run), which waits for the next delta or flush().
 */
class StreamRedactor {
  private pending = '';
  constructor(
    private readonly redact: (text: string) => string,
    private readonly secret: string,
    private readonly emit: (text: string) => void,
  ) {}
  private holdBack(buf: string): number {
    let hold = 0;
    for (let n = Math.min(buf.length, this.secret.length - 1); n > 0; n--) {
      if (this.secret.startsWith(buf.slice(buf.length - n))) {
        hold = n;
        break;
      }
    }
    const run = /(?:\bsk?-?[A-Za-z0-9_-]*|\bBearer\s*[A-Za-z0-9._~+/=-]*|\bBeare?r?)$/i.exec(buf);
    return Math.max(hold, run ? run[0].length : 0);
  }
  push(text: string): void {
    const buf = this.pending + text;
    const cut = buf.length - this.holdBack(buf);
    if (cut > 0) this.emit(this.redact(buf.slice(0, cut)));
    this.pending = buf.slice(cut);
  }
  flush(): void {
    if (this.pending) this.emit(this.redact(this.pending));
    this.pending = '';
  }
}

/**
 * The wire shape: `content` is never null (some compatible gateways reject null next to
 * tool_calls) and tool messages carry only tool_call_id (`name` stays in our transcript).
 */
function toWireMessage(m: ChatMessage): Record<string, unknown> {
  const wire: Record<string, unknown> = { role: m.role, content: m.content ?? '' };
  if (m.tool_calls?.length) wire.tool_calls = m.tool_calls;
  if (m.role === 'tool') wire.tool_call_id = m.tool_call_id;
  return wire;
}

function normaliseToolCall(call: ToolCall, index: number): ToolCall {
  return {
    id: call.id || `call_${index}`,
    type: 'function',
    function: {
      name: call.function?.name ?? '',
      arguments: typeof call.function?.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function?.arguments ?? {}),
    },
  };
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** OpenAI `{error:{message}}` and DashScope `{code,message}` bodies -> one short line. */
function describeErrorBody(text: string): string {
  if (!text) return '';
  try {
    const data = JSON.parse(text) as { error?: { message?: string; code?: string } | string; message?: string; code?: string };
    if (typeof data.error === 'string') return truncate(data.error, 300);
    const message = data.error?.message ?? data.message;
    const code = (typeof data.error === 'object' ? data.error?.code : undefined) ?? data.code;
    if (message) return truncate(code ? `${code}: ${message}` : message, 300);
  } catch {
    // not JSON: show the start of the body
  }
  return truncate(text, 300);
}
