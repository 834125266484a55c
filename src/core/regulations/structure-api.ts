import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import { GridError } from '../common/errors';
import { queryTokens } from '../text/segment';
import { smartSearch } from './search';
import {
  chapterStructure,
  getTable,
  listTables,
  pageStructure,
  lookupNotes,
  pageReferences,
  readChapter,
  resolveReference,
  searchTables,
  sectionText,
  inChapterScope,
} from './blocks';
import { getRegulation, ocrLines } from './store';
import { figurePng, findFigure, listFigures } from './figures';
import { blockWithContext, findBlock, pageChapterInfo } from './navigation';
import { eitherArg } from './aliases';
import { normalizeNoteLabel } from './refs';

/**
 * Regulations as structure (tables, notes, references, chapters): the operations behind
 * `gridcode tables / table / resolve` and the MCP tools of the original system (search_tables,
 * get_table_by_id, lookup_annotation, resolve_reference, get_chapter_structure, read_chapter_content,
 * find_similar_content, compare_sections).
 */

const regIdField = z.string().min(1).max(64).describe('规程标识 reg_id，如 angui_2024 / regulation id');
const tableSummary = z.object({
  table_id: z.string(),
  title: z.string(),
  page_start: z.number().int(),
  page_end: z.number().int(),
  row_count: z.number().int(),
  columns: z.array(z.string()),
  section_path: z.string(),
  header_rows: z.array(z.array(z.string())).describe('表头各行（两行表头时为两行；跨列单元格的文字在其首列） / the header lines as printed'),
  merged_cells: z
    .array(z.object({ row: z.number().int(), col: z.number().int(), rowspan: z.number().int(), colspan: z.number().int() }))
    .describe('合并单元格（row 为 rows 中的行号，其文字已填入所覆盖的每一行） / merged body cells; their text fills every row they cover'),
  layout: z.enum(['ruled', 'aligned', 'markup']).describe('ruled：按表格框线；aligned：按文字对齐；markup：Markdown/DOCX 结构 / how rows and columns were found'),
});
const tableRow = z.object({ cells: z.array(z.string()), page_num: z.number().int() });
const note = z.object({ label: z.string(), text: z.string(), page_num: z.number().int(), target_type: z.string(), target: z.string(), section_path: z.string() });
const resolution = z.object({
  resolved: z.boolean(),
  reference_type: z.string(),
  target: z.string().nullable(),
  page_num: z.number().int().nullable(),
  preview: z.string().nullable(),
  reg_id: z.string().nullable(),
  regulation: z.string().nullable(),
  reference_text: z.string().nullable(),
  page_end: z.number().int().optional(),
  table_id: z.string().optional(),
  figure_id: z.string().optional(),
  message: z.string().optional(),
});
const figureOut = z.object({
  figure_id: z.string().describe('图号，如 图3-1 / figure number as printed'),
  caption: z.string(),
  page_num: z.number().int(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).describe('[x0, y0, x1, y1]，PDF 点，页面左上角起 / PDF points from the top-left'),
  page_width: z.number(),
  page_height: z.number(),
  citing: z.array(z.object({ page_num: z.number().int(), label: z.string().nullable(), text: z.string() })).describe('引用此图的句子 / sentences citing it'),
});
const chapterNode = z.object({
  id: z.number().int(),
  level: z.number().int(),
  title: z.string(),
  parent_id: z.number().int().nullable(),
  page_start: z.number().int(),
  page_end: z.number().int(),
  article_count: z.number().int(),
  table_ids: z.array(z.string()),
  first_article: z.string().nullable(),
  last_article: z.string().nullable(),
});

const block = z.object({
  block_id: z.string(),
  block_type: z.enum(['article', 'text', 'table', 'note']),
  label: z.string().nullable(),
  page_num: z.number().int(),
  section_path: z.string(),
  text: z.string(),
});
const activeChapter = z.object({
  id: z.number().int(),
  title: z.string(),
  level: z.number().int(),
  page_start: z.number().int(),
  page_end: z.number().int(),
  starts_here: z.boolean(),
});

function overlap(a: string, b: string) {
  const ta = new Set(queryTokens(a));
  const tb = new Set(queryTokens(b));
  const common = [...ta].filter((t) => tb.has(t));
  const union = new Set([...ta, ...tb]).size;
  return {
    similarity: union ? Math.round((common.length / union) * 1000) / 1000 : 0,
    common_terms: common.slice(0, 40),
    only_a: [...ta].filter((t) => !tb.has(t)).slice(0, 40),
    only_b: [...tb].filter((t) => !ta.has(t)).slice(0, 40),
  };
}

export const structureOperations = defineOperations({
  'regulations.tables': defineOperation({
    summary: '列出规程中的表格（编号、标题、起止页、行数、表头） / List the tables of a regulation',
    input: z.object({ reg_id: regIdField }).strict(),
    output: z.object({ reg_id: z.string(), title: z.string(), tables: z.array(tableSummary) }),
    handler: (ctx, input) => ({ reg_id: input.reg_id, title: getRegulation(ctx.db, input.reg_id).title, tables: listTables(ctx.db, input.reg_id) }),
  }),
  'regulations.table': defineOperation({
    summary:
      '按编号获取完整表格（跨页续表已合并，表头一次，每行带页码，附注释）；include_merged=false 只返回起始页上的部分（RegReader 参数） / Get a whole table by id (cross-page parts merged; include_merged=false: the first page\'s part only)',
    input: z
      .object({
        reg_id: regIdField,
        table_id: z.string().min(1).max(40).describe('表格编号，如 表A.1、表6-2 / table id'),
        include_merged: z.boolean().optional().describe('合并跨页续表（缺省 true） / merge continuations on later pages (default true)'),
      })
      .strict(),
    output: tableSummary.extend({
      reg_id: z.string(),
      regulation: z.string(),
      rows: z.array(tableRow),
      notes: z.array(note),
      merged: z.boolean().describe('rows 含续页的行 / rows include continuation pages'),
      page_range: z.tuple([z.number().int(), z.number().int()]),
    }),
    mcp: 'get_table_by_id',
    handler: (ctx, input) => {
      const t = getTable(ctx.db, input.reg_id, input.table_id);
      const merged = input.include_merged !== false;
      const rows = merged ? t.rows : t.rows.filter((r) => r.page_num === t.page_start);
      return { ...t, rows, merged, page_range: [t.page_start, merged ? t.page_end : t.page_start] as [number, number] };
    },
  }),
  'regulations.search_tables': defineOperation({
    summary:
      '在表格中检索（标题、表头、单元格的词），返回表格及最匹配的行；也接受 RegReader 的 limit（=top_k）、chapter_scope 与 search_mode（表格总是按词匹配，search_mode 不改变结果） / Search tables by title, header and cells (also RegReader\'s limit, chapter_scope, search_mode)',
    input: z
      .object({
        query: z.string().trim().min(1, '检索词不能为空').max(500),
        reg_id: z.union([regIdField, z.array(regIdField)]).optional().describe('限定规程（缺省=全部） / regulation(s), default all'),
        top_k: z.number().int().min(1).max(50).optional(),
        limit: z.number().int().min(1).max(50).optional().describe('同 top_k（RegReader 参数名） / alias of top_k'),
        chapter_scope: z.string().max(80).optional().describe('只要该章节内的表格，如 第三章、附录A / only tables in this chapter'),
        search_mode: z
          .enum(['hybrid', 'keyword', 'semantic', 'exact'])
          .optional()
          .describe('RegReader 的检索方式；表格按标题、表头和单元格的词匹配，各方式结果相同 / accepted for RegReader; tables are matched by words'),
      })
      .strict(),
    output: z.object({
      query: z.string(),
      results: z.array(z.object({ reg_id: z.string(), regulation: z.string(), table: tableSummary, score: z.number(), rows: z.array(tableRow) })),
    }),
    mcp: 'search_tables',
    handler: (ctx, input) => {
      const ids = input.reg_id === undefined ? null : Array.isArray(input.reg_id) ? input.reg_id : [input.reg_id];
      for (const id of ids ?? []) getRegulation(ctx.db, id);
      const limit = input.top_k ?? input.limit ?? 10;
      const scope = input.chapter_scope?.trim();
      const found = searchTables(ctx.db, input.query, ids, scope ? 200 : limit);
      return { query: input.query, results: (scope ? found.filter((r) => inChapterScope(r.table.section_path, scope) || inChapterScope(r.table.title, scope)) : found).slice(0, limit) };
    },
  }),
  'regulations.notes': defineOperation({
    summary:
      '查找注释（注 / 注1 / 说明 / 方案A），编号的各种写法等同：注1=注一=注①，方案A=方案甲；可限定表格或条款。也接受 RegReader 的 annotation_id（=note）与 page_hint（离该页最近的排在前面） / Look up notes in any written form (注1=注一=注①, 方案A=方案甲); RegReader\'s annotation_id and page_hint accepted',
    input: z
      .object({
        reg_id: regIdField,
        note: z.string().max(20).optional().describe('注释编号，如 注1、注一、注①、方案甲、说明 / note label'),
        annotation_id: z.string().max(20).optional().describe('同 note（RegReader 参数名） / alias of note (RegReader)'),
        page_hint: z.number().int().min(1).optional().describe('注释大约在第几页（同名注释取最近的） / page the note is near'),
        table_id: z.string().max(40).optional().describe('只看这张表的注释 / only notes of this table'),
        article: z.string().max(40).optional().describe('只看这一条的注释，如 第二十条 / only notes of this article'),
      })
      .strict(),
    output: z.object({
      reg_id: z.string(),
      notes: z.array(note),
      annotation_id: z.string().nullable().describe('所查编号的规范写法 / the label asked, in stored form'),
      found: z.boolean(),
      content: z.string().nullable().describe('最匹配的注释正文 / text of the best match'),
      page_num: z.number().int().nullable(),
      source: z.string().nullable(),
    }),
    mcp: 'lookup_annotation',
    handler: (ctx, input) => {
      const label = input.note ?? input.annotation_id;
      const notes = lookupNotes(ctx.db, input.reg_id, { label, table_id: input.table_id, article: input.article, page_hint: input.page_hint });
      const best = notes[0];
      return {
        reg_id: input.reg_id,
        notes,
        annotation_id: label?.trim() ? normalizeNoteLabel(label) : null,
        found: notes.length > 0,
        content: best?.text ?? null,
        page_num: best?.page_num ?? null,
        source: best ? `${getRegulation(ctx.db, input.reg_id).title} 第 ${best.page_num} 页 ${best.label}（${best.target}）` : null,
      };
    },
  }),
  'regulations.resolve': defineOperation({
    summary: '解析引用（见附录D、按本规程第三十二条执行、见表6-2、详见第六章、注1、《规程名》第十条）到目标页；引用文字参数 reference 或 RegReader 的 reference_text / Resolve a cross-reference to its target page (reference or RegReader\'s reference_text)',
    input: z
      .object({
        reg_id: regIdField,
        reference: z.string().trim().min(1, '引用文字不能为空').max(500).optional().describe('引用文字（与 reference_text 二选一） / the reference text'),
        reference_text: z.string().trim().min(1, '引用文字不能为空').max(500).optional().describe('同 reference（RegReader 参数名） / alias of reference (RegReader)'),
      })
      .strict(),
    output: resolution.extend({
      others: z.array(z.object({ text: z.string(), type: z.string(), target: z.string(), regulation: z.string().nullable(), index: z.number().int() })),
    }),
    mcp: 'resolve_reference',
    handler: (ctx, input) => resolveReference(ctx.db, input.reg_id, eitherArg(input.reference, input.reference_text, 'reference / reference_text', '引用文字')),
  }),
  'regulations.references': defineOperation({
    summary: '列出页面中的引用及其解析结果（阅读器用于生成链接） / References written on pages, resolved (reader links)',
    input: z.object({ reg_id: regIdField, start: z.number().int().min(1), end: z.number().int().min(1).optional() }).strict(),
    output: z.object({ reg_id: z.string(), references: z.array(resolution.extend({ source_page: z.number().int(), source: z.string() })) }),
    handler: (ctx, input) => {
      getRegulation(ctx.db, input.reg_id);
      return { reg_id: input.reg_id, references: pageReferences(ctx.db, input.reg_id, input.start, input.end ?? input.start) };
    },
  }),
  'regulations.page_structure': defineOperation({
    summary: '一页的结构（本页表格的行与表头、续表标记、本页注释、已解析的引用），阅读器用于渲染表格和链接 / One page\'s tables, notes and resolved references (reader)',
    input: z.object({ reg_id: regIdField, page: z.number().int().min(1) }).strict(),
    output: z.object({
      reg_id: z.string(),
      page_num: z.number().int(),
      tables: z.array(tableSummary.extend({ rows: z.array(tableRow), continued: z.boolean(), continues: z.boolean(), notes: z.array(note) })),
      notes: z.array(note),
      references: z.array(resolution.extend({ source_page: z.number().int(), source: z.string() })),
      figures: z.array(figureOut),
      ocr_lines: z
        .array(
          z.object({
            text: z.string(),
            confidence: z.number().describe('字符平均置信度 / mean character probability'),
            min_confidence: z.number().describe('最不确定的一个字的置信度 / probability of the least sure character'),
            low_confidence: z.boolean().describe('min_confidence 低于 ocr.lowConfidence：可能有错字 / below ocr.lowConfidence: possibly misread'),
            x0: z.number(),
            y0: z.number(),
            x1: z.number(),
            y1: z.number(),
          }),
        )
        .describe('扫描页由 OCR 识别的行（框为页面宽高的比例，左上角起） / lines OCR read on a scanned page, boxes as fractions of the page'),
    }),
    handler: (ctx, input) => ({
      ...pageStructure(ctx.db, input.reg_id, input.page),
      figures: listFigures(ctx.db, input.reg_id, input.page),
      ocr_lines: ocrLines(ctx.db, input.reg_id, input.page).map((l) => ({ ...l, low_confidence: l.min_confidence < ctx.config.ocr.lowConfidence })),
    }),
  }),
  'regulations.figures': defineOperation({
    summary: '列出规程中的图（图号、图题、页码、位置、引用句） / List a regulation\'s figures (number, caption, page, box, citing sentences)',
    input: z.object({ reg_id: regIdField }).strict(),
    output: z.object({ reg_id: z.string(), figures: z.array(figureOut) }),
    mcp: 'list_figures',
    handler: (ctx, input) => {
      getRegulation(ctx.db, input.reg_id);
      return { reg_id: input.reg_id, figures: listFigures(ctx.db, input.reg_id) };
    },
  }),
  'regulations.figure': defineOperation({
    summary: '获取一幅图：图题、页码、位置、引用句和裁剪出的图片（PNG，base64） / One figure with its caption, page and the cropped image as base64 PNG',
    input: z
      .object({
        reg_id: regIdField,
        figure_id: z.string().min(1).max(40).describe('图号，如 图3-1 或 3-1 / figure number'),
      })
      .strict(),
    output: figureOut.extend({ reg_id: z.string(), image_png_base64: z.string().describe('图片 PNG 的 base64 / the cropped figure, PNG as base64') }),
    mcp: 'get_figure',
    handler: async (ctx, input) => {
      const reg = getRegulation(ctx.db, input.reg_id);
      const f = findFigure(ctx.db, input.reg_id, input.figure_id);
      if (!f) {
        const all = listFigures(ctx.db, input.reg_id).map((x) => x.figure_id);
        throw new GridError('NOT_FOUND', `「${reg.title}」中没有${/^\s*图/.test(input.figure_id) ? input.figure_id.trim() : `图${input.figure_id.trim()}`}${all.length ? `（有：${all.slice(0, 12).join('、')}）` : '（这部规程没有识别出图）'}`);
      }
      const png = await figurePng(ctx, input.reg_id, f);
      return { reg_id: input.reg_id, ...f, image_png_base64: png.toString('base64') };
    },
  }),
  'regulations.chapters': defineOperation({
    summary: '章节结构（每章起止页、条款数、所含表格） / Chapter structure with page spans, article counts and tables',
    input: z.object({ reg_id: regIdField }).strict(),
    output: z.object({ reg_id: z.string(), title: z.string(), total_pages: z.number().int(), chapters: z.array(chapterNode) }),
    mcp: 'get_chapter_structure',
    handler: (ctx, input) => chapterStructure(ctx.db, input.reg_id),
  }),
  'regulations.chapter': defineOperation({
    summary: '阅读一章的内容（条款、段落、表格摘要、注释，按顺序） / Read one chapter as ordered blocks',
    input: z
      .object({
        reg_id: regIdField,
        chapter: z.union([z.string().min(1).max(80), z.number().int()]).describe('章节：目录 id、标题或“第六章”“附录D” / TOC id, title or 第六章'),
        max_chars: z.number().int().min(200).max(50000).optional().describe('最多返回字数（缺省 8000） / character budget'),
      })
      .strict(),
    output: z.object({
      reg_id: z.string(),
      chapter: chapterNode,
      blocks: z.array(
        z.object({ type: z.enum(['article', 'text', 'table', 'note']), label: z.string().nullable(), page_num: z.number().int(), section_path: z.string(), text: z.string(), table: tableSummary.optional() }),
      ),
      truncated: z.boolean(),
    }),
    mcp: 'read_chapter_content',
    handler: (ctx, input) => readChapter(ctx.db, input.reg_id, input.chapter, input.max_chars ?? 8000),
  }),
  'regulations.similar': defineOperation({
    summary:
      '查找与一段文字、某一条或某个内容块相似的内容。参考：text（或 RegReader 的 query_text）、reg_id+section、或 source_block_id（smart_search 的 unit_id）；范围 scope（缺省：给了 section 时为全部规程，否则为 reg_id）；exclude_same_page 排除与参考同页的内容 / Content similar to a text, an article or a block (RegReader query_text / source_block_id / exclude_same_page accepted)',
    input: z
      .object({
        text: z.string().max(2000).optional().describe('参考文字 / reference text'),
        query_text: z.string().max(2000).optional().describe('同 text（RegReader 参数名） / alias of text (RegReader)'),
        reg_id: regIdField.optional().describe('与 section / source_block_id 一起：参考所在的规程；只给文字时：检索范围 / the reference\'s regulation, or with a text alone the scope'),
        section: z.string().max(80).optional().describe('条款或章节，如 第二十条 / article or chapter'),
        source_block_id: z.union([z.string().max(40), z.number().int()]).optional().describe('以该内容块为参考（smart_search 结果的 unit_id） / a block id from smart_search'),
        scope: z.union([z.string(), z.array(z.string())]).optional().describe("检索范围 reg_id 或 'all' / where to look"),
        exclude_same_page: z.boolean().optional().describe('排除与参考同一页的内容（缺省：给了块或条款时为 true） / skip hits on the reference\'s page'),
        top_k: z.number().int().min(1).max(30).optional(),
        limit: z.number().int().min(1).max(30).optional().describe('同 top_k（RegReader 参数名） / alias of top_k'),
      })
      .strict(),
    output: z.object({
      reference: z.object({ reg_id: z.string().nullable(), label: z.string().nullable(), page_num: z.number().int().nullable(), text: z.string() }),
      results: z.array(
        z.object({ reg_id: z.string(), title: z.string(), unit_id: z.number().int(), page_num: z.number().int(), article: z.string().nullable(), kind: z.string(), section: z.string(), snippet: z.string(), score: z.number() }),
      ),
    }),
    mcp: 'find_similar_content',
    handler: async (ctx, input) => {
      let ref: { reg_id: string | null; label: string | null; page_num: number | null; text: string; unit_id: number | null };
      const words = (input.text ?? input.query_text)?.trim();
      if (input.reg_id && input.source_block_id !== undefined) {
        const u = findBlock(ctx.db, input.reg_id, input.source_block_id);
        ref = { reg_id: input.reg_id, label: u.label, page_num: u.page_num, text: u.text, unit_id: u.id };
      } else if (input.reg_id && input.section) {
        const sec = sectionText(ctx.db, input.reg_id, input.section);
        ref = { reg_id: input.reg_id, label: sec.label, page_num: sec.page_num, text: sec.text, unit_id: null };
      } else if (words) ref = { reg_id: null, label: null, page_num: null, text: words, unit_id: null };
      else if (input.source_block_id !== undefined) throw new GridError('INVALID_INPUT', 'reg_id: 使用 source_block_id 时请同时提供 reg_id');
      else throw new GridError('INVALID_INPUT', 'text / query_text: 请提供参考文字，或提供 reg_id 与 section / source_block_id');
      const limit = input.top_k ?? input.limit ?? 8;
      // a text alone searches in reg_id (RegReader's meaning); a section or block of one regulation is compared across all
      const scope = input.scope ?? (ref.reg_id === null && input.reg_id ? input.reg_id : 'all');
      const excludePage = input.exclude_same_page ?? ref.page_num !== null;
      const out = await smartSearch(ctx, { query: ref.text.slice(0, 400), reg_id: scope, top_k: limit + 12 });
      const results = out.results
        .filter((r) => !(r.reg_id === ref.reg_id && (r.unit_id === ref.unit_id || (ref.label !== null && (r.article === ref.label || r.section.endsWith(ref.label))))))
        .filter((r) => !(excludePage && r.reg_id === ref.reg_id && r.page_num === ref.page_num))
        .slice(0, limit)
        .map((r) => ({ reg_id: r.reg_id, title: r.title, unit_id: r.unit_id, page_num: r.page_num, article: r.article, kind: r.kind, section: r.section, snippet: r.snippet, score: r.score }));
      const { unit_id: _unit, ...shown } = ref;
      return { reference: { ...shown, text: shown.text.slice(0, 300) }, results };
    },
  }),
  'regulations.compare': defineOperation({
    summary:
      '对比两处条文（条款、章节或表格）：共同词、差异词与相似度。同一规程内比较时可只给 reg_id（RegReader 写法：reg_id + section_a + section_b）；include_tables=false 时章节不计表格 / Compare two sections; one reg_id + section_a/section_b (RegReader) or reg_id_a/reg_id_b',
    input: z
      .object({
        reg_id: regIdField.optional().describe('两处都在这部规程里（RegReader 参数） / both sections in this regulation'),
        reg_id_a: regIdField.optional().describe('第一处所在规程（缺省=reg_id） / regulation of the first section'),
        section_a: z.string().min(1).max(80).describe('第一处：条款/章节/表格，如 第二十条、第六章、表A.1'),
        reg_id_b: regIdField.optional().describe('第二处所在规程（缺省=reg_id） / regulation of the second section'),
        section_b: z.string().min(1).max(80).describe('第二处 / the second section'),
        include_tables: z.boolean().optional().describe('比较章节时包含其中的表格（缺省 true） / count a chapter\'s tables'),
      })
      .strict(),
    output: z.object({
      a: z.object({ reg_id: z.string(), regulation: z.string(), label: z.string(), page_num: z.number().int(), text: z.string() }),
      b: z.object({ reg_id: z.string(), regulation: z.string(), label: z.string(), page_num: z.number().int(), text: z.string() }),
      similarity: z.number(),
      common_terms: z.array(z.string()),
      only_a: z.array(z.string()),
      only_b: z.array(z.string()),
    }),
    mcp: 'compare_sections',
    handler: (ctx, input) => {
      const regA = eitherArg(input.reg_id_a, input.reg_id, 'reg_id / reg_id_a', '第一处所在的规程');
      const regB = eitherArg(input.reg_id_b, input.reg_id, 'reg_id / reg_id_b', '第二处所在的规程');
      const opts = { includeTables: input.include_tables };
      const a = sectionText(ctx.db, regA, input.section_a, opts);
      const b = sectionText(ctx.db, regB, input.section_b, opts);
      const clip = (t: string) => (t.length > 3000 ? `${t.slice(0, 3000)}…` : t);
      return {
        a: { reg_id: regA, regulation: getRegulation(ctx.db, regA).title, label: a.label, page_num: a.page_num, text: clip(a.text) },
        b: { reg_id: regB, regulation: getRegulation(ctx.db, regB).title, label: b.label, page_num: b.page_num, text: clip(b.text) },
        ...overlap(a.text, b.text),
      };
    },
  }),
  'regulations.block_context': defineOperation({
    summary:
      '读取一个内容块及其前后各 context_blocks 块（block_id 即 smart_search 结果的 unit_id），附本页注释与所在章节 / A block with its neighbours, the notes on its page and its chapters (RegReader get_block_with_context)',
    input: z
      .object({
        reg_id: regIdField,
        block_id: z.union([z.string().min(1).max(40), z.number().int()]).describe('内容块标识（smart_search 的 unit_id） / block id'),
        context_blocks: z.number().int().min(0).max(20).optional().describe('前后各取几块（缺省 2） / blocks before and after (default 2)'),
      })
      .strict(),
    output: z.object({
      reg_id: z.string(),
      regulation: z.string(),
      page_num: z.number().int(),
      target_block: block,
      before_blocks: z.array(block),
      after_blocks: z.array(block),
      page_annotations: z.array(note),
      active_chapters: z.array(activeChapter),
      source: z.string(),
    }),
    mcp: 'get_block_with_context',
    handler: (ctx, input) => blockWithContext(ctx.db, input.reg_id, input.block_id, input.context_blocks ?? 2),
  }),
  'regulations.page_chapters': defineOperation({
    summary:
      '一页所属的章节：从前页延续的章节与本页开始的章节 / The chapters a page lies in: continued from earlier pages and starting on it (RegReader get_page_chapter_info)',
    input: z.object({ reg_id: regIdField, page_num: z.number().int().min(1).describe('页码 / page number') }).strict(),
    output: z.object({
      reg_id: z.string(),
      page_num: z.number().int(),
      total_pages: z.number().int(),
      active_chapters: z.array(activeChapter),
      new_chapters: z.array(z.string()),
      continued_chapters: z.array(z.string()),
    }),
    mcp: 'get_page_chapter_info',
    handler: (ctx, input) => pageChapterInfo(ctx.db, input.reg_id, input.page_num),
  }),
});
