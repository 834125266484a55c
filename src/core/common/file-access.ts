import fs from 'node:fs';
import path from 'node:path';
import { GridError } from './errors';

/**
 * Which files an adapter's callers may make the engines read (device files, case files). The CLI
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
export function confineFile(access: FileAccess | undefined, file: string, what: string): string {
  const abs = path.resolve(file);
  if (!access) return abs;
  const denied = () =>
    new GridError('NOT_FOUND', `${what}不可访问：只能读取数据目录、内置资源或已授权文件夹中的文件（MCP 用 gridcode mcp --allow-path <文件夹> 授权）`);
  const resolved = real(abs);
  const within = (p: string) => access.roots.some((r) => p === r || p.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
  if (resolved === null) {
    // a missing file inside an allowed root is an ordinary "not found"; elsewhere, the same denial
    const parent = real(path.dirname(abs));
    if (parent && within(parent)) throw new GridError('NOT_FOUND', `${what}不存在：${path.basename(abs)}`);
    throw denied();
  }
  if (!within(resolved)) throw denied();
  return resolved;
}
