import fs from 'node:fs';
import path from 'node:path';
import { GridError } from './errors';

/**
 * Files under `root` whose extension is in `extensions` (lower-case, with dot), recursively and
 * sorted by name so imports are deterministic. Hidden files and folders are skipped.
 */
export function listFilesRecursive(root: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && extensions.includes(path.extname(e.name).toLowerCase())) out.push(full);
    }
  };
  walk(root);
  return out;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A text file the engines parse (home files, case files, info.json, model manifests): it must be
 * UTF-8. Reading it as UTF-8 regardless would turn GBK names into U+FFFD silently, so it is refused
 * with a clear message instead. A leading BOM is dropped.
 */
export function readUtf8File(file: string, label: string): string {
  const bytes = fs.readFileSync(file);
  try {
    return strictUtf8.decode(bytes).replace(/^\ufeff/, '');
  } catch {
    throw new GridError('BAD_FILE', `${label}不是 UTF-8 编码的文本（可能是 GBK 等其他编码），请另存为 UTF-8 后重试`);
  }
}

/**
 * JSON.parse that never echoes the text: V8's SyntaxError quotes the content around the error
 * (`"root:x:0:0:"... is not valid JSON`), so a hostile or private file would leak through the
 * message. The error names the line and column only.
 */
export function parseJsonText(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    let where = '';
    if (at !== undefined) {
      const before = text.slice(0, Number(at));
      const line = before.split('\n').length;
      where = `（第 ${line} 行第 ${Number(at) - before.lastIndexOf('\n')} 列附近）`;
    }
    throw new GridError('BAD_FILE', `${label}不是有效的 JSON${where}`);
  }
}
