import crypto from 'node:crypto';
import path from 'node:path';
import { lazyModule } from '../common/lazy';
import { GridError } from '../common/errors';

const pinyinPro = lazyModule<typeof import('pinyin-pro')>('pinyin-pro');

export const REG_ID_MAX = 64;
const REG_ID_RE = /^[a-z0-9][a-z0-9_-]*$/;

/** Ids end up in URLs, file names (info.json export) and MCP arguments: keep them plain ASCII. */
export function validateRegId(id: string): string {
  if (!id) throw new GridError('INVALID_INPUT', 'reg_id 不能为空');
  if (/[\\/]/.test(id) || id.includes('..')) throw new GridError('INVALID_INPUT', `reg_id「${id}」不能包含路径分隔符`);
  if (id.length > REG_ID_MAX) throw new GridError('INVALID_INPUT', `reg_id「${id}」过长（${id.length} > ${REG_ID_MAX} 字符）`);
  if (!REG_ID_RE.test(id)) {
    throw new GridError('INVALID_INPUT', `reg_id「${id}」无效：只能包含小写字母、数字、下划线和连字符，且以字母或数字开头`);
  }
  return id;
}

export function isValidRegId(id: string): boolean {
  return id.length > 0 && id.length <= REG_ID_MAX && REG_ID_RE.test(id) && !id.includes('..');
}

/** Slug of a file name: 电力法.md -> dianlifa, "Grid Code v2.pdf" -> grid-code-v2. */
export function slugFromFileName(file: string): string {
  const stem = path.basename(file, path.extname(file)).normalize('NFKC');
  const parts = pinyinPro().pinyin(stem, { toneType: 'none', type: 'all', nonZh: 'consecutive', v: true }) as unknown as {
    origin: string;
    pinyin: string;
    isZh: boolean;
  }[];
  let out = '';
  let prevHan = false;
  for (const part of parts) {
    const ascii = (part.isZh ? part.pinyin : part.origin)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    if (!ascii) {
      out += '-';
      prevHan = false;
      continue;
    }
    // pinyin syllables of one Chinese run join without separators (dianlifa); other runs get '-'
    out += prevHan && part.isZh ? ascii : (out && !out.endsWith('-') ? '-' : '') + ascii;
    prevHan = part.isZh;
  }
  out = out.replace(/-+/g, '-').replace(/^-+|-+$/g, '');
  if (!out) out = 'reg';
  if (out.length > REG_ID_MAX - 8) out = out.slice(0, REG_ID_MAX - 8).replace(/-+$/, '');
  return out;
}

/** Short stable disambiguator for two different files whose names slug the same. */
export function disambiguate(base: string, key: string): string {
  const h = crypto.createHash('sha1').update(key).digest('hex').slice(0, 6);
  return `${base.slice(0, REG_ID_MAX - 7)}-${h}`;
}
