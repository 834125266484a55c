import { parseChineseNumber } from '../text/chinese-numbers';
import { allEntities } from './home';
import { TYPE_LABELS, TYPES } from './lexicon';
import { PROTOCOL } from './vocab';
import { commandSchema, UNKNOWN_ACTION, type Command, type Home } from './types';

/**
 * The command protocol an LLM speaks (seed 000): the system prompt asking for a JSON command
 * array {a,s,n,t,q,c,v,cond,ref}, and the tolerant reader of its reply. No network here: the
 * call itself is in llm-commands.ts with the client passed in.
 */

export function unknownCommand(reason: string): Command {
  return { a: UNKNOWN_ACTION, s: null, n: null, t: null, q: 'one', c: null, reason };
}

/**
 * Parses an LLM reply that should be a JSON array of command objects. Tolerates code fences,
 * prose around the array, a single object or {commands:[...]}; anything else becomes one
 * UNKNOWN command carrying the reason (never throws).
 */
export function parseCommandArray(text: string): Command[] {
  if (typeof text !== 'string' || !text.trim()) return [unknownCommand('模型回复为空')];
  let body = text.trim();
  const fence = body.match(/```(?:json|JSON)?\s*([\s\S]*?)```/);
  if (fence) body = fence[1].trim();
  let data: unknown;
  const candidates = [body];
  const a = body.indexOf('[');
  const b = body.lastIndexOf(']');
  if (a >= 0 && b > a) candidates.push(body.slice(a, b + 1));
  const o = body.indexOf('{');
  const ob = body.lastIndexOf('}');
  if (o >= 0 && ob > o) candidates.push(body.slice(o, ob + 1));
  let lastError = '';
  for (const c of candidates) {
    try {
      data = JSON.parse(c);
      break;
    } catch (e) {
      lastError = (e as Error).message;
    }
  }
  if (data === undefined) return [unknownCommand(`模型回复不是有效的 JSON 数组：${lastError}`)];
  if (!Array.isArray(data) && typeof data === 'object' && data !== null && Array.isArray((data as { commands?: unknown }).commands)) {
    data = (data as { commands: unknown[] }).commands;
  }
  if (!Array.isArray(data)) data = [data];
  const arr = data as unknown[];
  if (arr.length === 0) return [unknownCommand('模型回复是空数组')];
  const out: Command[] = [];
  for (let i = 0; i < arr.length; i++) {
    const item = arr[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return [unknownCommand(`第 ${i + 1} 个元素不是对象（收到 ${Array.isArray(item) ? '数组' : typeof item}）`)];
    }
    // models write "" for "none" and numbers as strings; normalise before validating
    const o: Record<string, unknown> = { ...(item as Record<string, unknown>) };
    for (const k of ['s', 'n', 't']) if (o[k] === '' || o[k] === undefined) o[k] = null;
    if (o.v === '' || o.v === undefined) delete o.v;
    if (o.q === '' || o.q === null || o.q === undefined) o.q = 'one';
    if (typeof o.c === 'string') o.c = o.c.trim() ? (parseChineseNumber(o.c) ?? o.c) : null;
    if (o.c === 0 || o.c === undefined) o.c = null;
    if (o.cond === undefined) delete o.cond;
    if (o.ref === '' || o.ref === null) delete o.ref;
    if (typeof o.d === 'string') o.d = Number(o.d);
    if (o.d === '' || o.d === 0 || o.d === undefined || (typeof o.d === 'number' && !Number.isFinite(o.d))) delete o.d;
    const parsed = commandSchema.safeParse(o);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return [unknownCommand(`第 ${i + 1} 个命令字段 ${issue.path.join('.') || '(对象)'} 无效：${issue.message}`)];
    }
    if (!parsed.data.a.trim()) return [unknownCommand(`第 ${i + 1} 个命令缺少动作 a`)];
    out.push(parsed.data);
  }
  return out;
}

/**
 * The system prompt that asks an LLM for the command array (the call itself lives in the llm engine): the
 * words around it from vocab/protocol.json, the field list from the command schema's descriptions (each
 * field described once, types.ts).
 */
export function buildCommandPrompt(rooms: string[], types: string[]): string {
  const typeList = types.map((t) => `${t}（${TYPE_LABELS[t] ?? t}）`).join('、');
  const shape = commandSchema.shape as Record<string, { description?: string }>;
  const fill = (line: string) => line.replace('{types}', typeList).replace('{rooms}', rooms.join('、') || PROTOCOL.no_rooms);
  return [
    ...PROTOCOL.prompt_before,
    ...PROTOCOL.prompt_fields.map((k) => `- ${k}：${fill(shape[k].description ?? '')}`),
    ...PROTOCOL.prompt_after.map(fill),
  ].join('\n');
}


/** Rooms the prompt may use: declared rooms plus rooms devices are in. */
export function homeRooms(home: Home): string[] {
  const rooms = new Set(home.rooms);
  for (const e of allEntities(home)) if (e.room) rooms.add(e.room);
  return [...rooms];
}

/** The system prompt for one home. */
export function commandSystemPrompt(home: Home): string {
  return buildCommandPrompt(homeRooms(home), Object.keys(TYPES));
}
