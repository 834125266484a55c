import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../context';
import { GridError } from '../common/errors';
import { ContextValue } from '../common/cache';

/**
 * Everyday words an installer writes for a domain (docs/collections-vocabulary.md): JSON files that
 * say which words of the documents a word people ask with stands for (`铁塔` → 杆塔, `偷电` → 窃电).
 * Learned vocabulary (lay-vocabulary.ts) cannot know a domain its training questions never asked
 * about; these files are the place for such words, added without code:
 *
 * - shipped starter files: resources/collections/lay-vocabulary/*.json (power-grid.json: the words
 *   field staff use for power-grid statutes and rules);
 * - the installer's own: <data dir>/lay-vocabulary/*.json, read after the shipped ones (a word in both
 *   gets the document words of both).
 *
 * Every file is checked by zod when read: a broken file is a Chinese error naming the file and the
 * field, never a silently empty table. A row applies to a collection when the collection's text holds
 * the document word (and, when the file names `collections`, only to those collections), so one file
 * serves every collection of its domain and does nothing elsewhere.
 */

/** Folder of the installer's files under the data dir (and of the shipped ones under resources/collections). */
export const LAY_VOCABULARY_DIR = 'lay-vocabulary';

const word = z
  .string()
  .trim()
  .min(1, '词不能为空')
  .max(24, '词太长（最多 24 个字）')
  .refine((w) => !/[\s，,。；;、]/.test(w), '一个词里不能有空格或标点（多个词请分开写成列表）');

export const layVocabularyFileSchema = z
  .object({
    $comment: z.string().optional(),
    /** What the words are about (shown in traces and the docs). */
    domain: z.string().trim().min(1, '请写明这些词属于哪个领域（如「电网现场用语」）'),
    /** Only these collections (by name); absent: every collection whose text holds the document word. */
    collections: z.array(z.string().trim().min(1, '集合名不能为空')).optional(),
    /** everyday word -> the documents' words for it (best first) */
    words: z.record(word, z.array(word).min(1, '至少写一个文档用词').max(8, '最多写 8 个文档用词')),
  })
  .strict()
  .superRefine((v, ctx) => {
    for (const [lay, doc] of Object.entries(v.words)) {
      if (doc.includes(lay.trim())) ctx.addIssue({ code: 'custom', path: ['words', lay], message: `文档用词里不应再写日常用词「${lay}」本身` });
    }
  });

export type LayVocabularyFile = z.output<typeof layVocabularyFileSchema>;

/** One everyday word's document words from one file. */
export interface InstalledRow {
  words: string[];
  /** null: any collection */
  collections: string[] | null;
  file: string;
  domain: string;
}

/** Checks one vocabulary file's parsed JSON (tests, tools and the loader): the file is named in the error. */
export function checkLayVocabularyFile(file: string, raw: unknown): LayVocabularyFile {
  const parsed = layVocabularyFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const i = parsed.error.issues[0];
  const field = i.path.join('.') || '(根)';
  const hint = i.code === 'unrecognized_keys' ? `（可写的字段：domain、collections、words、$comment）` : '';
  throw new GridError('BAD_FILE', `日常用词表 ${file} 无效 — ${field}: ${i.code === 'unrecognized_keys' ? `多余的字段 ${i.keys.join('、')}` : i.message}${hint}`);
}

function readFile(file: string): LayVocabularyFile {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\ufeff/, ''));
  } catch {
    throw new GridError('BAD_FILE', `日常用词表 ${path.basename(file)} 不是有效的 JSON（${path.dirname(file)}）`);
  }
  return checkLayVocabularyFile(path.basename(file), raw);
}

function jsonFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The shipped folder and the installer's folder, in reading order. */
export function layVocabularyDirs(ctx: AppContext): string[] {
  return [path.join(ctx.resourcesDir, 'collections', LAY_VOCABULARY_DIR), path.join(ctx.dataDir, LAY_VOCABULARY_DIR)];
}

interface Loaded {
  stamp: string;
  rows: Map<string, InstalledRow[]>;
}

const loaded = new ContextValue<Loaded>('collections.lay-vocabulary-files');

/**
 * Every vocabulary file's rows by everyday word, re-read when a file is added, removed or changed
 * (`stamp`: names, sizes, modification times). Throws BAD_FILE (Chinese, file and field named).
 */
export function installedLayVocabulary(ctx: AppContext): Loaded {
  const files = layVocabularyDirs(ctx).flatMap(jsonFiles);
  const stamp = files
    .map((f) => {
      const s = fs.statSync(f);
      return `${f}:${s.size}:${s.mtimeMs}`;
    })
    .join('|');
  const cur = loaded.get(ctx.state);
  if (cur && cur.stamp === stamp) return cur;
  const rows = new Map<string, InstalledRow[]>();
  for (const f of files) {
    const v = readFile(f);
    for (const [lay, words] of Object.entries(v.words)) {
      const key = lay.trim();
      const list = rows.get(key) ?? [];
      list.push({ words: [...new Set(words.map((w) => w.trim()))], collections: v.collections ?? null, file: path.basename(f), domain: v.domain });
      rows.set(key, list);
    }
  }
  const fresh = { stamp, rows };
  loaded.set(ctx.state, fresh);
  return fresh;
}

/**
 * The document words the installed files give `word` in collection `collection`: rows limited to other
 * collections are skipped, and a document word is kept only when `holds` says the collection has it.
 */
export function installedWords(ctx: AppContext, collection: string, word: string, holds: (w: string) => boolean): string[] {
  const out: string[] = [];
  for (const r of installedLayVocabulary(ctx).rows.get(word) ?? []) {
    if (r.collections && !r.collections.includes(collection)) continue;
    for (const w of r.words) if (!out.includes(w) && holds(w)) out.push(w);
  }
  return out;
}
