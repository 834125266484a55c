import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import { GridError } from '../common/errors';
import { confirmedPairs, recordConfirmedHit } from '../search/confirmed';
import { REG_CORPUS } from './search-index';
import { smartSearch } from './search';
import { smartSearchInput, smartSearchOutput, type SmartSearchInput } from './search-contract';
import { findReferences } from './refs';
import { inChapterScope } from './blocks';

/**
 * RegReader's names folded onto ours: limit = top_k; section_number narrows like chapter_scope (an
 * article label or a clause number is one more part of a unit's section path).
 */
export function searchArgs(input: SmartSearchInput): { search: SmartSearchInput; sectionFilter: string | null } {
  const { limit, section_number, ...rest } = input;
  const section = section_number?.trim() ? sectionKey(section_number) : null;
  const search: SmartSearchInput = { ...rest, top_k: rest.top_k ?? limit };
  if (section && !search.chapter_scope) return { search: { ...search, chapter_scope: section }, sectionFilter: null };
  return { search, sectionFilter: section };
}

function sectionKey(raw: string): string {
  const ref = findReferences(raw.trim())[0];
  return ref && (ref.type === 'article' || ref.type === 'clause' || ref.type === 'chapter' || ref.type === 'section' || ref.type === 'appendix') ? ref.target : raw.trim();
}

/** Regulation search operations (names kept from when they lived in the search engine; see src/core/api/table.ts). */
export const searchOperations = defineOperations({
  'search.smart_search': defineOperation({
    summary:
      "跨规程智能检索：reg_id 为单个/列表/null(自动选择)/'all'，返回带规程、页码、条款、片段与依据的结果（unit_id 即 get_block_with_context 的 block_id）。也接受 RegReader 的 limit（=top_k）与 section_number / Cross-regulation search with auto selection; also accepts RegReader's limit and section_number",
    input: smartSearchInput,
    output: smartSearchOutput,
    mcp: 'smart_search',
    handler: async (ctx, input) => {
      const { search, sectionFilter } = searchArgs(input);
      const out = await smartSearch(ctx, search);
      // both a chapter and a section number given: the chapter scoped the search, the section narrows it
      return sectionFilter ? { ...out, results: out.results.filter((r) => inChapterScope(r.section, sectionFilter)) } : out;
    },
  }),

  'search.confirm_hit': defineOperation({
    summary: '记录“确认命中”：用户打开某条检索结果并留下阅读（用于按资料库调整模型）/ Record a kept search result',
    input: z
      .object({
        query: z.string().trim().min(1, '检索词不能为空').max(2000),
        unit_id: z.number().int().positive(),
      })
      .strict(),
    output: z.object({ unit_id: z.number().int(), times: z.number().int(), total: z.number().int() }),
    handler: (ctx, input) => {
      const unit = ctx.db.prepare('SELECT id FROM reg_units WHERE id = ?').get(input.unit_id);
      if (!unit) throw new GridError('NOT_FOUND', '该条检索结果已不在资料库中（规程可能已被删除），未记录');
      const times = recordConfirmedHit(ctx.db, REG_CORPUS, String(input.unit_id), input.query);
      return { unit_id: input.unit_id, times, total: confirmedPairs(ctx.db, (c) => c === REG_CORPUS).length };
    },
  }),
});
