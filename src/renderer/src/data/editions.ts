/**
 * Editions of a regulation (issue 25) for the reader, the compare screen, the library and search:
 * one place that knows the editions operations.
 */
import { api, type ApiOutput } from '../api/client';

export type Diff = ApiOutput<'editions.diff'>;
export type DiffPair = Diff['pairs'][number];
export type ChangeKind = DiffPair['change'];
export type Edition = ApiOutput<'editions.versions'>['editions'][number];
export type ArticleHistory = ApiOutput<'editions.article'>;
export type UngroupedGroup = ApiOutput<'editions.versions'>['ungrouped'][number];

export const CHANGE_LABEL: Record<ChangeKind, string> = { same: '相同', moved: '移动', modified: '修改', added: '新增', deleted: '删除' };

export async function editionsOf(regId: string): Promise<Edition[]> {
  return (await api('editions.versions', { reg_id: regId })).editions;
}

/** reg_id -> its edition, for every regulation that has more than one; and the groups not yet joined. */
export async function editionIndex(): Promise<{ index: Map<string, Edition & { count: number }>; ungrouped: UngroupedGroup[] }> {
  const out = await api('editions.versions', {});
  const index = new Map<string, Edition & { count: number }>();
  for (const family of out.families ?? []) for (const e of family) index.set(e.reg_id, { ...e, count: family.length });
  return { index, ungrouped: out.ungrouped };
}

export async function diffEditions(oldId: string, newId: string): Promise<Diff> {
  return api('editions.diff', { old_reg_id: oldId, new_reg_id: newId }, { timeoutMs: 60_000 });
}

export async function articleHistory(regId: string, article: string): Promise<ArticleHistory> {
  return api('editions.article', { reg_id: regId, article });
}

export function editionStatus(e: Pick<Edition, 'status'>): string {
  return e.status === 'current' ? '现行' : e.status === 'upcoming' ? '即将施行' : '旧版';
}
