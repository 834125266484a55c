/**
 * API keys must never reach logs, errors, the renderer or test snapshots. Every string the
 * LLM layer lets out (error messages, server error bodies, transcripts) passes through here.
 */
const KEY_PATTERNS: RegExp[] = [
  // DashScope / OpenAI style keys
  /\bsk-[A-Za-z0-9_-]{6,}/g,
  // Authorization headers echoed back by proxies or servers
  /(Bearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi,
  // api_key=…, "api_key": "…" — a value after : or =, not the next word of a sentence ("API-key settings")
  /(api[_-]?key["']?\s*[:=]\s*["']?)[A-Za-z0-9._-]{6,}/gi,
];

export function redactSecrets(text: string, secrets: ReadonlyArray<string | null | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Short values would redact ordinary words; real keys are long.
    if (secret && secret.length >= 6) out = out.split(secret).join('***');
  }
  for (const pattern of KEY_PATTERNS) {
    out = out.replace(pattern, (match, prefix?: string) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}***` : 'sk-***'));
  }
  return out;
}

/** "sk-…abcd"-free description for status screens: only whether a key exists and where it came from. */
export function describeKeySource(source: 'app' | 'env' | null): string {
  if (source === 'app') return '已在应用设置中配置大模型密钥';
  if (source === 'env') return '已通过环境变量 DASHSCOPE_API_KEY 配置大模型密钥';
  return '未配置大模型密钥（DASHSCOPE_API_KEY），大模型功能不可用，使用离线功能';
}
