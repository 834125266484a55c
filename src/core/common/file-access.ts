import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { GridError } from './errors';

/**
 * Which files an adapter's callers may make the engines read or write (every path-like argument of
 * every operation: imported files and folders, device and case files, info.json exports). The CLI
 * run by a person has none (the person can read their own files anyway); the MCP server and the
 * browser-shell bridge confine reads to the data dir, the bundled resources and folders the user
 * granted (`gridcode mcp --allow-path DIR`, env GRIDCODE_ALLOW_PATHS).
 */
export interface FileAccess {
  roots: readonly string[];
}

function real(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

export function fileAccessFor(roots: readonly (string | undefined)[]): FileAccess {
  const fromEnv = (process.env.GRIDCODE_ALLOW_PATHS ?? '').split(path.delimiter).filter(Boolean);
  const resolved = [...roots, ...fromEnv]
    .filter((r): r is string => !!r)
    .map((r) => real(path.resolve(r)))
    .filter((r): r is string => r !== null);
  return { roots: [...new Set(resolved)] };
}

/**
 * Resolves `file` (symlinks too) and returns it only when it lies under an allowed root. Outside
 * the roots the answer is the same whether the file exists or not, and never quotes it.
 */
export function confineFile(access: FileAccess | undefined, file: string, what: string, mode: PathMode = 'read'): string {
  const abs = path.resolve(file);
  if (!access) return abs;
  const denied = () =>
    new GridError(
      'NOT_FOUND',
      `${what}不可访问：只能${mode === 'write' ? '写入' : '读取'}数据目录、上传文件、内置资源或已授权文件夹中的文件（MCP 用 gridcode mcp --allow-path <文件夹> 授权）`,
    );
  const resolved = real(abs);
  const within = (p: string) => access.roots.some((r) => p === r || p.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
  if (mode === 'write') {
    // a folder to write into may not exist yet: its nearest existing ancestor decides
    let ancestor = abs;
    while (real(ancestor) === null && path.dirname(ancestor) !== ancestor) ancestor = path.dirname(ancestor);
    const base = real(ancestor);
    if (!base || !within(base)) throw denied();
    return path.join(base, path.relative(ancestor, abs));
  }
  if (resolved === null) {
    // a missing file inside an allowed root is an ordinary "not found"; elsewhere, the same denial
    const parent = real(path.dirname(abs));
    if (parent && within(parent)) throw new GridError('NOT_FOUND', `${what}不存在：${path.basename(abs)}`);
    throw denied();
  }
  if (!within(resolved)) throw denied();
  return resolved;
}

export type PathMode = 'read' | 'write';

/** The string schemas that name a file or folder, with what they name (for messages) and how it is used. */
const pathSchemas = new WeakMap<z.ZodType, { what: string; mode: PathMode }>();

/**
 * Marks an operation input field as a path. Every adapter that confines its callers (the bridge, MCP)
 * resolves such fields under the allowed roots before the handler runs (src/core/api/invoke.ts), so
 * an operation cannot forget to: declare paths with this and they are confined.
 */
export function pathArg<S extends z.ZodType>(schema: S, what: string, mode: PathMode = 'read'): S {
  pathSchemas.set(schema, { what, mode });
  return schema;
}

interface ZodDefLike {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
}

const defOf = (schema: z.ZodType): ZodDefLike => (schema as unknown as { _zod: { def: ZodDefLike } })._zod.def;

/** Every path field of a schema, as dotted keys (`paths[]`, `files[].path`): for the guard test. */
export function pathFieldsOf(schema: z.ZodType, prefix = ''): string[] {
  if (pathSchemas.has(schema)) return [prefix || '(input)'];
  const def = defOf(schema);
  if (def.type === 'object') return Object.entries(def.shape ?? {}).flatMap(([k, v]) => pathFieldsOf(v, prefix ? `${prefix}.${k}` : k));
  if (def.type === 'array' && def.element) return pathFieldsOf(def.element, `${prefix}[]`);
  if (def.innerType) return pathFieldsOf(def.innerType, prefix);
  if (def.type === 'pipe' && def.in) return pathFieldsOf(def.in, prefix);
  if (def.type === 'union') return (def.options ?? []).flatMap((o) => pathFieldsOf(o, prefix));
  return [];
}

/** Every string leaf of a schema with its dotted key (to find path-like names that are not marked). */
export function stringFieldsOf(schema: z.ZodType, prefix = ''): string[] {
  const def = defOf(schema);
  if (def.type === 'string') return [prefix || '(input)'];
  if (def.type === 'object') return Object.entries(def.shape ?? {}).flatMap(([k, v]) => stringFieldsOf(v, prefix ? `${prefix}.${k}` : k));
  if (def.type === 'array' && def.element) return stringFieldsOf(def.element, `${prefix}[]`);
  if (def.innerType) return stringFieldsOf(def.innerType, prefix);
  if (def.type === 'pipe' && def.in) return stringFieldsOf(def.in, prefix);
  if (def.type === 'union') return [...new Set((def.options ?? []).flatMap((o) => stringFieldsOf(o, prefix)))];
  return [];
}

/**
 * The parsed input with every path field resolved under the allowed roots (symlinks followed);
 * throws the same denial for outside paths whether they exist or not. No access = unchanged (CLI).
 */
export function confineInput(access: FileAccess | undefined, schema: z.ZodType, value: unknown): unknown {
  if (!access || value === undefined || value === null) return value;
  const marked = pathSchemas.get(schema);
  if (marked) return typeof value === 'string' ? confineFile(access, value, marked.what, marked.mode) : value;
  const def = defOf(schema);
  if (def.type === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [k, v] of Object.entries(def.shape ?? {})) if (k in out) out[k] = confineInput(access, v, out[k]);
    return out;
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) return value.map((v) => confineInput(access, def.element!, v));
  if (def.innerType) return confineInput(access, def.innerType, value);
  if (def.type === 'pipe' && def.in) return confineInput(access, def.in, value);
  if (def.type === 'union') {
    // a union holding a path in one branch: confine with each branch that has one (paths are strings either way)
    let out: unknown = value;
    for (const o of def.options ?? []) if (pathFieldsOf(o).length) out = confineInput(access, o, out);
    return out;
  }
  return value;
}
