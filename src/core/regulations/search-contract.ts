import { z } from 'zod';

/**
 * The contract of regulation search (`search.smart_search`, CLI `gridcode search --json`, MCP
 * `smart_search`), declared once: the operation validates with these schemas and the engine's
 * types are inferred from them (regulations/search.ts, hit-explain.ts).
 */

const blockType = z.enum(['article', 'text', 'table', 'note']);

export const matchPlace = z.enum(['label', 'section', 'body', 'table_header', 'table_row', 'table_title']);

/** Where a hit is printed: the reader opens and marks exactly this block. */
export const hitLocation = z.object({
  block: blockType,
  /** 第二十条 / 5.3.2 / 表A.1 / 注1, null for a plain paragraph */
  label: z.string().nullable(),
  /** page the hit is printed on (a table hit: the page of its row) */
  page_num: z.number().int(),
  /** last page the unit's text runs onto (= page_num unless it continues on the next page) */
  page_end: z.number().int(),
  /** the unit's first characters (no label, no spaces): finds its block on the page and in the original page's text layer */
  lead: z.string(),
  /** the unit's last characters (no spaces): where a block that runs on ends */
  tail: z.string(),
  table_id: z.string().optional(),
  /** the matched row's cells (a table hit) */
  row: z.array(z.string()).optional(),
});

/** Why a hit was found, in words a field engineer reads; the numbers stay in `reasons`. */
export const hitExplanation = z.object({
  /** one or two plain sentences */
  summary: z.string(),
  /** query words found in the hit, and where */
  terms: z.array(z.object({ term: z.string(), where: matchPlace })),
  /** meaningful query words the hit does not contain */
  missing: z.array(z.string()),
  /** learned related words (question word → statute word) the hit contains */
  related: z.array(z.string()),
  /** found by meaning (the embedding model), not only by words */
  semantic: z.boolean(),
  /** similar questions answered before cite this passage */
  known_question: z.boolean(),
  /** why this regulation was chosen, when the scope was chosen automatically */
  regulation: z.string().nullable(),
});

export const regIdSchema = z
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
      .array(blockType)
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

export const selectionReason = z.object({
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
  /** block type of the hit: article | text | table | note */
  block_type: blockType.optional(),
  locate: hitLocation.describe('命中在原文中的确切位置（块类型、编号、起止页、表格行） / where exactly the hit is printed'),
  why: hitExplanation.describe('为什么找到这一条（用词说明；原始分数在 reasons 中） / why, in words'),
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

export const decisionAction = z.object({ kind: z.enum(['choose_reg', 'refine', 'search_all']), label: z.string(), reg_id: z.string().optional() });

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

export type SmartSearchInput = z.input<typeof smartSearchInput>;
export type SmartSearchOutput = z.infer<typeof smartSearchOutput>;
export type SmartResult = SmartSearchOutput['results'][number];
export type SelectionReason = z.infer<typeof selectionReason>;
export type DecisionAction = z.infer<typeof decisionAction>;
export type HitLocation = z.infer<typeof hitLocation>;
export type HitExplanation = z.infer<typeof hitExplanation>;
export type MatchPlace = z.infer<typeof matchPlace>;
