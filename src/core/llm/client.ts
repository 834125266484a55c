import type { AppContext } from '../context';
import { GridError } from '../common/errors';
import { redactSecrets } from './redact';
import { ContextValue } from '../common/cache';
import { defaultConfig } from '../config';
import type { ChatCompletion, ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/**
 * The one LLM client: the `openai` SDK on DashScope's OpenAI-compatible mode (chat completions,
 * streaming, tool calls, embeddings), with the key bound to its endpoint and redacted everywhere.
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

/** DashScope's own endpoint, as shipped (never read from a data dir's config.json). */
export const DEFAULT_BASE_URL = normaliseBaseUrl(defaultConfig().llm.baseUrl);

/**
 * The endpoint an environment key belongs to: DASHSCOPE_BASE_URL from the same environment, else
 * DashScope's default. Never a base URL written into config.json: anything that can write the data
 * dir (the bridge's config update, another tool) must not be able to send the env key elsewhere.
 */
function envEndpoint(): string {
  return normaliseBaseUrl(process.env.DASHSCOPE_BASE_URL?.trim() || DEFAULT_BASE_URL);
}

/** Where requests go: the app's endpoint, else DASHSCOPE_BASE_URL, else config.json's, else the default. */
function effectiveBaseUrl(ctx: AppContext, app: LlmSettings): string {
  return normaliseBaseUrl(app.baseUrl?.trim() || process.env.DASHSCOPE_BASE_URL?.trim() || ctx.config.llm.baseUrl || DEFAULT_BASE_URL);
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
  /**
   * Why a configured key is withheld from this endpoint (null when nothing is withheld):
   * endpoint_changed = the app key was entered for another endpoint; config_endpoint = config.json
   * names an endpoint no key was stored with (the env key only goes to its own endpoint).
   */
  withheld: 'endpoint_changed' | 'config_endpoint' | 'insecure_endpoint' | null;
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
  } else if (envKey && envEndpoint() === baseUrl) {
    apiKey = envKey;
    keySource = 'env';
  } else if (appKey) withheld = 'endpoint_changed';
  else if (envKey) withheld = 'config_endpoint';
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
  if (withheld === 'config_endpoint')
    return '配置文件（config.json）指定了另一个大模型接口地址，但没有为它保存密钥：环境变量 DASHSCOPE_API_KEY 只发往默认地址或同一环境中的 DASHSCOPE_BASE_URL（未发送密钥）';
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

/** Retry-After is seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The SDK is loaded on the first request, never at start-up (`gridcode info` must stay fast). */
type Sdk = typeof import('openai');
let sdkModule: Promise<Sdk> | null = null;
const loadSdk = (): Promise<Sdk> => (sdkModule ??= import('openai'));

/**
 * One call's timeout and cancellation, handed to the SDK as its abort signal. The timer restarts
 * with every attempt and every body chunk, so a stream only times out when it goes idle, and it
 * pauses while the SDK waits to retry. When it fires the SDK sees a cancel, so a timeout is not
 * retried: a slow service stays slow and callers have offline fallbacks.
 */
class CallControl {
  readonly controller = new AbortController();
  timedOut = false;
  /** HTTP attempts started (the SDK retries inside one call). */
  attempts = 0;
  /** The last error body, in one line: the SDK keeps only OpenAI-shaped `{error:{…}}` bodies. */
  errorDetail = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly onOuterAbort = () => this.controller.abort();
  constructor(
    readonly timeoutMs: number,
    readonly outer?: AbortSignal,
  ) {
    if (outer?.aborted) this.controller.abort();
    outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }
  pause(): void {
    clearTimeout(this.timer);
  }
  /** Settles with the SDK's promise, or at once when cancelled (the SDK's retry wait is not abortable). */
  race<T>(work: Promise<T>): Promise<T> {
    const signal = this.controller.signal;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
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

  /**
   * Runs one SDK call: the `openai` client does the requests, retries (429/408/409/5xx/connection
   * failures, Retry-After) and SSE parsing; this adds the idle timeout, our backoff settings and
   * the mapping of every failure to a redacted Chinese GridError.
   */
  private async call<T>(signal: AbortSignal | undefined, timeoutMs: number, run: (sdk: InstanceType<Sdk['OpenAI']>, signal: AbortSignal) => Promise<T>): Promise<{ value: T; attempts: number }> {
    if (signal?.aborted) throw cancelledError();
    const sdk = await loadSdk();
    const control = new CallControl(timeoutMs, signal);
    const client = new sdk.OpenAI({
      apiKey: this.options.apiKey,
      baseURL: this.options.baseUrl,
      organization: null,
      project: null,
      maxRetries: this.options.maxRetries,
      fetch: this.fetchFor(control),
      logLevel: 'off',
    });
    try {
      return { value: await control.race(run(client, control.controller.signal)), attempts: control.attempts };
    } catch (e) {
      throw this.failure(e, control, sdk);
    } finally {
      control.dispose();
    }
  }

  /**
   * The SDK's fetch: drives the call's idle timer, reads error bodies for the message, turns our
   * backoff (retryBaseMs doubling, Retry-After honoured up to retryMaxMs) into the `retry-after-ms`
   * header the SDK obeys, and sends no X-Stainless-* client fingerprint headers.
   */
  private fetchFor(control: CallControl): typeof fetch {
    return async (input, init) => {
      control.attempts++;
      control.touch();
      const headers = new Headers(init?.headers);
      for (const name of [...headers.keys()]) if (name.startsWith('x-stainless-')) headers.delete(name);
      const response = await fetch(input, { ...init, headers }).catch((e: unknown) => {
        control.pause(); // the SDK may wait before retrying a connection failure
        throw e;
      });
      control.touch();
      const out = new Headers(response.headers);
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        control.pause();
        control.errorDetail = describeErrorBody(text);
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        const wait = Math.min(this.options.retryMaxMs, retryAfter ?? this.options.retryBaseMs * 2 ** (control.attempts - 1));
        out.set('retry-after-ms', String(wait));
        return new Response(text, { status: response.status, statusText: response.statusText, headers: out });
      }
      const body = response.body?.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, next) {
            control.touch();
            next.enqueue(chunk);
          },
        }),
      );
      return new Response(body ?? null, { status: response.status, statusText: response.statusText, headers: out });
    };
  }

  /** Any failure -> CANCELLED or LLM_UNAVAILABLE with a kind and a Chinese message (no SDK text). */
  private failure(e: unknown, control: CallControl, sdk: Sdk): GridError {
    if (e instanceof GridError) return e;
    if (control.outer?.aborted) return cancelledError();
    const attempts = control.attempts;
    if (control.timedOut || e instanceof sdk.APIConnectionTimeoutError) {
      return this.fail('timeout', `大模型请求超时：${control.timeoutMs} ms 内没有收到数据`, { attempts });
    }
    if (e instanceof sdk.APIError && e.status) {
      const detail = control.errorDetail || describeErrorBody(JSON.stringify({ error: e.error }));
      const retried = attempts > 1 ? `（已重试 ${attempts - 1} 次）` : '';
      return this.fail('http', `大模型服务返回 HTTP ${e.status}${retried}${detail ? `：${detail}` : ''}`, { status: e.status, attempts });
    }
    if (e instanceof sdk.APIConnectionError || e instanceof sdk.APIUserAbortError || e instanceof TypeError) {
      const cause = (e as { cause?: { cause?: { code?: string }; code?: string } }).cause;
      const code = cause?.cause?.code ?? cause?.code;
      return this.fail('network', `无法连接大模型服务 ${this.options.baseUrl}${code ? `（${code}）` : ''}`, { attempts });
    }
    if (e instanceof sdk.APIError) {
      // Some gateways report failures inside the stream after HTTP 200.
      return this.fail('http', `大模型流式回复报错：${describeErrorBody(JSON.stringify({ error: e.error }))}`, { attempts });
    }
    if (e instanceof SyntaxError) return this.fail('bad_response', '大模型服务返回的数据不是有效的 JSON', { attempts });
    // e.g. a stream that ended without finish_reason, or a gateway that answered stream=true with plain JSON
    return this.fail('bad_response', '大模型服务的回复不完整或格式不对', { attempts });
  }

  private params(req: ChatRequest): ChatCompletionCreateParamsBase {
    const params: ChatCompletionCreateParamsBase = { model: req.model, messages: req.messages.map(toWireMessage) };
    if (req.tools?.length) params.tools = req.tools;
    if (req.temperature !== undefined) params.temperature = req.temperature;
    if (req.maxTokens !== undefined) params.max_tokens = req.maxTokens;
    if (req.jsonMode) params.response_format = { type: 'json_object' };
    return params;
  }

  /** Non-streaming chat completion (parsing, metadata, agent steps without a terminal). */
  async chat(req: ChatRequest): Promise<ChatResult> {
    const { value: data, attempts } = await this.call(req.signal, req.timeoutMs ?? this.options.timeoutMs, (sdk, signal) =>
      sdk.chat.completions.create({ ...this.params(req), stream: false }, { signal }),
    );
    return this.result(data, attempts);
  }

  /**
   * Streaming chat completion (SSE). `onDelta` receives answer text as it arrives; tool-call
   * fragments are assembled (by the SDK) and returned in the final message like chat().
   */
  async chatStream(req: ChatRequest, onDelta: (text: string) => void): Promise<ChatResult> {
    // deltas pass through a redactor that holds back a possible key prefix until it is decided
    const redactor = new StreamRedactor((text) => this.redact(text), this.options.apiKey, onDelta);
    let streamed = false;
    let data: ChatCompletion;
    let attempts: number;
    try {
      ({ value: data, attempts } = await this.call(req.signal, req.timeoutMs ?? this.options.timeoutMs, (sdk, signal) => {
        const stream = sdk.chat.completions.stream({ ...this.params(req), stream: true, stream_options: { include_usage: true } }, { signal });
        stream.on('chunk', () => (streamed = true));
        stream.on('content', (delta) => redactor.push(delta));
        return stream.finalChatCompletion();
      }));
    } catch (e) {
      // a gateway that ignores stream=true answers with one plain JSON body, which holds no SSE event:
      // ask again without streaming and hand the whole answer over as one delta
      if (streamed || (e as { details?: { kind?: string } }).details?.kind !== 'bad_response') throw e;
      const whole = await this.chat(req);
      if (whole.message.content) onDelta(whole.message.content);
      return { ...whole, attempts: whole.attempts + 1 };
    }
    redactor.flush();
    return this.result(data, attempts);
  }

  private result(data: ChatCompletion, attempts: number): ChatResult {
    // a gateway's non-JSON reply reaches here as text
    const choice = typeof data === 'object' ? data?.choices?.[0] : undefined;
    if (!choice?.message) throw this.fail('bad_response', '大模型回复缺少 choices[0].message', { attempts });
    const message: ChatMessage = { role: 'assistant', content: choice.message.content ? this.redact(choice.message.content) : null };
    // gateways vary: a call may lack `type` or `id`, or carry its arguments as an object
    const calls = (choice.message.tool_calls ?? []).flatMap((c, i): ToolCall[] => {
      if (!('function' in c) || !c.function) return [];
      const args = typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {});
      return [{ id: c.id || `call_${i}`, type: 'function', function: { name: this.redact(c.function.name ?? ''), arguments: this.redact(args) } }];
    });
    if (calls.length) message.tool_calls = calls;
    return { message, finishReason: choice.finish_reason ?? null, usage: data.usage ?? null, attempts };
  }

  /** OpenAI-compatible embeddings (DashScope text-embedding-v4 takes at most 10 texts per call). */
  async embed(texts: string[], options: { model: string; dimensions?: number; signal?: AbortSignal }): Promise<number[][]> {
    const { value: data, attempts } = await this.call(options.signal, this.options.timeoutMs, (sdk, signal) =>
      sdk.embeddings.create({ model: options.model, input: texts, dimensions: options.dimensions, encoding_format: 'float' }, { signal }),
    );
    const rows = Array.isArray(data?.data) ? data.data : [];
    if (rows.length !== texts.length || rows.some((r) => !Array.isArray(r.embedding))) {
      throw this.fail('bad_response', `嵌入服务返回 ${rows.length} 个向量，期望 ${texts.length} 个`, { attempts });
    }
    return [...rows].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((r) => r.embedding);
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
function toWireMessage(m: ChatMessage): ChatCompletionMessageParam {
  const wire: Record<string, unknown> = { role: m.role, content: m.content ?? '' };
  if (m.tool_calls?.length) wire.tool_calls = m.tool_calls;
  if (m.role === 'tool') wire.tool_call_id = m.tool_call_id;
  return wire as unknown as ChatCompletionMessageParam;
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
