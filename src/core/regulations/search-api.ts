import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import { GridError } from '../common/errors';
import { confirmedPairs, recordConfirmedHit } from '../search/confirmed';
import { REG_CORPUS } from './search-index';
import { smartSearch } from './search';
import { smartSearchInput, smartSearchOutput } from './search-contract';

/** Regulation search operations (names kept from when they lived in the search engine; see src/core/api/table.ts). */
export const searchOperations = defineOperations({
  'search.smart_search': defineOperation({
    summary:
      "跨规程智能检索：reg_id 为单个/列表/null(自动选择)/'all'，返回带规程、页码、条款、片段与依据的结果 / Cross-regulation search with auto selection",
    input: smartSearchInput,
    output: smartSearchOutput,
    mcp: 'smart_search',
    handler: (ctx, input) => smartSearch(ctx, input),
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
