/**
 * Models wrap JSON in ```json fences or chatty prose. These helpers find the JSON value in a
 * reply without ever evaluating anything; callers validate the result with zod.
 */

/** Every balanced {...} / [...] span, in order of appearance (strings and escapes respected). */
function balancedSpans(text: string, open: '{' | '['): string[] {
  const close = open === '{' ? '}' : ']';
  const spans: string[] = [];
  for (let start = text.indexOf(open); start >= 0; start = text.indexOf(open, start + 1)) {
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) {
          if (ch === close) spans.push(text.slice(start, i + 1));
          break;
        }
      }
    }
    if (spans.length >= 20) break;
  }
  return spans;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The first JSON value of the wanted shape in a model reply: the whole reply, then fenced
 * blocks, then balanced spans inside prose. Returns undefined when there is none.
 */
export function extractJson(text: string | null | undefined, want: 'array' | 'object' | 'any' = 'any'): unknown {
  if (!text) return undefined;
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const fits = (v: unknown) =>
    want === 'any' ? v !== null && typeof v === 'object' : want === 'array' ? Array.isArray(v) : v !== null && typeof v === 'object' && !Array.isArray(v);

  const candidates: string[] = [trimmed];
  for (const m of trimmed.matchAll(/```(?:json|JSON)?\s*([\s\S]*?)```/g)) candidates.push(m[1].trim());
  const opens: ('{' | '[')[] = want === 'array' ? ['['] : want === 'object' ? ['{'] : ['[', '{'];
  for (const open of opens) candidates.push(...balancedSpans(trimmed, open));

  for (const candidate of candidates) {
    const parsed = tryParse(candidate);
    if (parsed.ok && fits(parsed.value)) return parsed.value;
  }
  // A lone object where an array was wanted: models sometimes drop the brackets for one command.
  if (want === 'array') {
    for (const span of balancedSpans(trimmed, '{')) {
      const parsed = tryParse(span);
      if (parsed.ok && parsed.value && typeof parsed.value === 'object') return [parsed.value];
    }
  }
  return undefined;
}
