import fs from 'node:fs';
import { GridError } from '../common/errors';
import { ACTIONS } from './lexicon';
import { CATEGORIES } from './vocab';
import { userVocabularySchema, type Home, type UserVocabulary } from './types';

/** The installer's vocabulary file in the data dir, merged over the shipped words (docs/devices-vocabulary.md). */
export const USER_VOCABULARY_FILE = 'devices-vocabulary.json';

/** Reads and checks the installer's vocabulary: unknown kinds or actions are named in Chinese, never ignored. */
export function readUserVocabulary(file: string): UserVocabulary | null {
  if (!fs.existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\ufeff/, ''));
  } catch {
    throw new GridError('BAD_FILE', `词表文件 ${file} 不是有效的 JSON`);
  }
  const parsed = userVocabularySchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new GridError('BAD_FILE', `词表文件 ${file} 无效 — ${i.path.join('.') || '(根)'}: ${i.message}（可写 kinds、actions、rooms 三项）`);
  }
  const v = parsed.data;
  const badKind = Object.keys(v.kinds).find((k) => !(k in CATEGORIES.kinds));
  if (badKind) throw new GridError('BAD_FILE', `词表文件 ${file} 的 kinds 中「${badKind}」不是已知种类；可用：${Object.keys(CATEGORIES.kinds).join('、')}`);
  const badAction = Object.keys(v.actions).find((a) => !(a in ACTIONS));
  if (badAction) throw new GridError('BAD_FILE', `词表文件 ${file} 的 actions 中「${badAction}」不是已知动作；可用：${Object.keys(ACTIONS).join('、')}`);
  return v;
}

/** The home with the installer's vocabulary attached (the index reads it: kind words, verbs, room words). */
export function withVocabulary(home: Home, vocabulary: UserVocabulary | null): Home {
  return vocabulary ? { ...home, vocabulary } : home;
}
