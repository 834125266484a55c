import { GridError } from '../common/errors';
import labels from './vocab/labels.json' with { type: 'json' };
import type { Db } from '../store/db';
import type { CollectionRow } from './store';

/**
 * What kind of documents a collection holds decides its wording, follow-up chips and evidence
 * layers (never the retrieval formulas):
 * - recipes: 原料 / 步骤 / 时间 / 工具
 * - regulations: 条款 / 适用范围 / 罚则 / 定义 (answers are articles with their chapter path)
 * - generic: 章节
 * Detected at import from the parsed documents (majority kind) and editable afterwards.
 */
export type CollectionProfile = 'recipes' | 'regulations' | 'generic';

export const PROFILES: CollectionProfile[] = ['recipes', 'regulations', 'generic'];

/** Chinese names of the profiles, one table shared with the CLI and the renderer. */
export const PROFILE_ZH: Record<CollectionProfile, string> = labels.profiles;

export interface ProfileWording {
  /** What one document is called: 菜谱 / 法规 / 文档. */
  noun: string;
  /** Hint appended to a low-evidence clarify question. */
  clarifyHint: string;
  /** Example first question for an empty session. */
  example: string;
  /** Follow-up chips shown after an answer (the UI sends them as the next question). */
  chips: string[];
  /** not_found: the plain answer that the collection does not hold the named thing. */
  notFound: (subject: string) => string;
}

export const WORDING: Record<CollectionProfile, ProfileWording> = {
  recipes: {
    noun: '菜谱',
    clarifyHint: '例如完整的菜名或主要原料',
    example: '红烧肉怎么做',
    chips: ['需要哪些原料？', '第一步做什么？', '大概要多久？', '需要什么工具？'],
    notFound: (s) => `文集中没有「${s}」的菜谱。`,
  },
  regulations: {
    noun: '法规',
    clarifyHint: '例如法规名称、条款号（第十条）或具体场景',
    example: '电力线路保护区内禁止哪些行为',
    chips: ['罚则呢？', '适用范围是什么？', '有哪些定义？', '下一条呢？'],
    notFound: (s) => `集合中的法规没有关于「${s}」的规定。`,
  },
  generic: {
    noun: '文档',
    clarifyHint: '例如文档标题、章节名或更具体的关键词',
    example: '某个主题在哪一节',
    chips: ['有哪些章节？', '下一节呢？', '还有相关内容吗？'],
    notFound: (s) => `集合中的文档没有关于「${s}」的内容。`,
  },
};

/** Majority vote over document kinds: recipes, statutes (>= 3 articles) or anything else. */
export function detectProfile(kinds: { kind: string; n: number }[]): CollectionProfile {
  const total = kinds.reduce((s, k) => s + k.n, 0);
  if (!total) return 'generic';
  const count = (kind: string) => kinds.find((k) => k.kind === kind)?.n ?? 0;
  if (count('recipe') * 2 > total) return 'recipes';
  if (count('regulation') * 2 > total) return 'regulations';
  return 'generic';
}

export function detectCollectionProfile(db: Db, collectionId: number): CollectionProfile {
  const kinds = db.prepare('SELECT kind, COUNT(*) AS n FROM coll_docs WHERE collection_id = ? GROUP BY kind').all(collectionId) as {
    kind: string;
    n: number;
  }[];
  return detectProfile(kinds);
}

/** The stored profile, or the detected one for collections imported before profiles existed. */
export function profileOf(db: Db, coll: CollectionRow): CollectionProfile {
  const stored = (coll as CollectionRow & { profile?: string | null }).profile;
  if (stored && (PROFILES as string[]).includes(stored)) return stored as CollectionProfile;
  return detectCollectionProfile(db, coll.id);
}

export function parseProfile(value: string): CollectionProfile {
  const v = value.trim().toLowerCase();
  const alias: Record<string, CollectionProfile> = {
    recipes: 'recipes',
    recipe: 'recipes',
    菜谱: 'recipes',
    regulations: 'regulations',
    regulation: 'regulations',
    laws: 'regulations',
    法规: 'regulations',
    generic: 'generic',
    通用: 'generic',
    auto: 'generic',
  };
  const p = alias[v];
  if (!p) throw new GridError('INVALID_INPUT', `profile: 不支持的类型「${value}」，可选：recipes（菜谱）、regulations（法规条款）、generic（通用文档）`);
  return p;
}
