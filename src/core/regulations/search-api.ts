import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import { GridError } from '../common/errors';
import { confirmedPairs, recordConfirmedHit } from '../search/confirmed';
import { REG_CORPUS } from './search-index';
import { smartSearch, type SmartSearchInput } from './search';
import { findReferences } from './refs';
import { inChapterScope } from './blocks';

const regIdSchema = z
  .union([z.string().min(1), z.array(z.string().min(1)), z.null()])
  .optional()
  .describe("规程ID：单个ID、ID列表、null（自动选择）或 'all'（全部规程）");

export const smartSearchInput = z
  .object({
    query: z.string().trim().min(1, '检索词不能为空').max(2000),
    reg_id: regIdSchema,
    top_k: z.number().int().min(1).max(200).optional(),
    offset: z.number().int().min(0).max(10000).optional(),
    mode: z.enum(['hybrid', 'lexical', 'vector']).optional(),
    chapter_scope: z.string().max(80).optional().describe('只在该章节内检索，如“第六章”“附录C” / only inside this chapter'),
    block_types: z
      .array(z.enum(['article', 'text', 'table', 'note']))
      .optional()
      .describe('只返回这些块类型：article 条款 / text 段落 / table 表格 / note 注释'),
    limit: z.number().int().min(1).max(200).optional().describe('同 top_k（RegReader 参数名） / alias of top_k (RegReader)'),
    section_number: z
      .string()
      .max(80)
      .optional()
      .describe('只在该章节号/条款内检索，如 2.1.4、第二十条、第三章（RegReader 参数） / only inside this section number (RegReader)'),
    edition: z
      .enum(['current', 'all'])
      .optional()
      .describe('版本：current（默认）只检索现行版；all 也检索旧版，旧版结果标注“旧版”并指向现行条文 / editions: in force only (default) or all, old ones marked'),
  })
  .strict();

/**
 * RegReader's names folded onto ours: limit = top_k; section_number narrows like chapter_scope (an
 * article label or a clause number is one more part of a unit's section path).
 */
export function searchArgs(input: z.output<typeof smartSearchInput>): { search: SmartSearchInput; sectionFilter: string | null } {
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

const selectionReason = z.object({
  reg_id: z.string(),
  title: z.string(),
  score: z.number(),
  profile_score: z.number(),
  first_pass_share: z.number(),
  why: z.string(),
});

export const smartSearchResult = z.object({
  reg_id: z.string(),
  title: z.string(),
  unit_id: z.number().int(),
  page_num: z.number().int(),
  section: z.string(),
  article: z.string().nullable(),
  kind: z.string(),
  shape: z.enum(['provision', 'row']),
  snippet: z.string(),
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  score: z.number(),
  reasons: z.object({
    lexical_rank: z.number().int().nullable(),
    vector_rank: z.number().int().nullable(),
    expansion_rank: z.number().int().nullable(),
    matched_terms: z.array(z.string()),
    coverage_ratio: z.number(),
    evidence: z.number(),
    article_ref: z.boolean(),
  }),
  similar: z.object({ count: z.number().int(), units: z.array(z.object({ unit_id: z.number().int(), page_num: z.number().int() })) }),
  block_type: z.enum(['article', 'text', 'table', 'note']).optional(),
  locate: z
    .object({
      block: z.enum(['article', 'text', 'table', 'note']),
      label: z.string().nullable(),
      page_num: z.number().int(),
      page_end: z.number().int(),
      lead: z.string(),
      tail: z.string(),
      table_id: z.string().optional(),
      row: z.array(z.string()).optional(),
    })
    .describe('命中在原文中的确切位置（块类型、编号、起止页、表格行） / where exactly the hit is printed'),
  why: z
    .object({
      summary: z.string(),
      terms: z.array(z.object({ term: z.string(), where: z.enum(['label', 'section', 'body', 'table_header', 'table_row', 'table_title']) })),
      missing: z.array(z.string()),
      related: z.array(z.string()),
      semantic: z.boolean(),
      known_question: z.boolean(),
      regulation: z.string().nullable(),
    })
    .describe('为什么找到这一条（用词说明；原始分数在 reasons 中） / why, in words'),
  /** an article as statutes cite it: the code's name (not its part) + the article, 中华人民共和国民法典第七百六十一条 */
  citation: z.string().optional(),
  table: z
    .object({
      table_id: z.string(),
      title: z.string(),
      columns: z.array(z.string()),
      row: z.object({ cells: z.array(z.string()), page_num: z.number().int() }).nullable(),
    })
    .optional(),
  edition: z
    .object({
      status: z.enum(['current', 'superseded', 'upcoming']),
      effective_date: z.string().nullable(),
      label: z.string(),
      current: z.object({
        reg_id: z.string(),
        title: z.string(),
        effective_date: z.string().nullable(),
        article: z.string().nullable(),
        page_num: z.number().int().nullable(),
        unit_id: z.number().int().nullable(),
      }),
    })
    .optional()
    .describe('该结果来自非现行版本：版本说明与现行版中对应的条文 / the hit is from an edition not in force'),
});

const decisionAction = z.object({ kind: z.enum(['choose_reg', 'refine', 'search_all']), label: z.string(), reg_id: z.string().optional() });

export const smartSearchOutput = z.object({
  query: z.string(),
  mode: z.enum(['hybrid', 'lexical', 'vector']),
  lexical_only: z.boolean(),
  note: z.string().nullable(),
  selected_regs: z.array(z.string()),
  selection: z.object({
    mode: z.enum(['one', 'list', 'all', 'auto']),
    /** number of regulations searched (the ids are in selected_regs) */
    count: z.number().int(),
    fallback_all: z.boolean(),
    reasons: z.array(selectionReason),
    summary: z.string(),
  }),
  decision: z.object({
    state: z.enum(['locked', 'ambiguous', 'low_evidence']),
    clarify: z.string().optional(),
    reason: z.string(),
    banner: z.object({ message: z.string(), actions: z.array(decisionAction) }).nullable(),
  }),
  tokens: z.array(z.string()),
  article_refs: z.array(
    z.object({ text: z.string(), law: z.string().nullable(), label: z.string(), paragraph: z.number().int().nullable(), unit_ids: z.array(z.number().int()) }),
  ),
  offset: z.number().int(),
  total: z.number().int(),
  has_more: z.boolean(),
  groups: z.array(z.object({ reg_id: z.string(), title: z.string(), shown: z.number().int(), total: z.number().int(), more: z.number().int(), rows: z.number().int() })),
  results: z.array(smartSearchResult),
  elapsed_ms: z.number(),
});

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
