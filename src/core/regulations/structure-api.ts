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
} from './blocks';
import { getRegulation, ocrLines } from './store';
import { figurePng, findFigure, listFigures } from './figures';

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
    summary: '按编号获取完整表格（跨页续表已合并，表头一次，每行带页码，附注释） / Get a whole table by id (cross-page parts merged)',
    input: z
      .object({
        reg_id: regIdField,
        table_id: z.string().min(1).max(40).describe('表格编号，如 表A.1、表6-2 / table id'),
      })
      .strict(),
    output: tableSummary.extend({ reg_id: z.string(), regulation: z.string(), rows: z.array(tableRow), notes: z.array(note) }),
    mcp: 'get_table_by_id',
    handler: (ctx, input) => getTable(ctx.db, input.reg_id, input.table_id),
  }),
  'regulations.search_tables': defineOperation({
    summary: '在表格中检索（标题、表头、单元格），返回表格及最匹配的行 / Search tables by title, header and cells',
    input: z
      .object({
        query: z.string().trim().min(1, '检索词不能为空').max(500),
        reg_id: z.union([regIdField, z.array(regIdField)]).optional().describe('限定规程（缺省=全部） / regulation(s), default all'),
        top_k: z.number().int().min(1).max(50).optional(),
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
      return { query: input.query, results: searchTables(ctx.db, input.query, ids, input.top_k ?? 10) };
    },
  }),
  'regulations.notes': defineOperation({
    summary: '查找注释（注 / 注1 / 说明），可限定表格或条款 / Look up notes (注1 …) of a table or article',
    input: z
      .object({
        reg_id: regIdField,
        note: z.string().max(20).optional().describe('注释编号，如 注1、注、说明 / note label'),
        table_id: z.string().max(40).optional().describe('只看这张表的注释 / only notes of this table'),
        article: z.string().max(40).optional().describe('只看这一条的注释，如 第二十条 / only notes of this article'),
      })
      .strict(),
    output: z.object({ reg_id: z.string(), notes: z.array(note) }),
    mcp: 'lookup_annotation',
    handler: (ctx, input) => ({ reg_id: input.reg_id, notes: lookupNotes(ctx.db, input.reg_id, { label: input.note, table_id: input.table_id, article: input.article }) }),
  }),
  'regulations.resolve': defineOperation({
    summary: '解析引用（见附录D、按本规程第三十二条执行、见表6-2、详见第六章、注1、《规程名》第十条）到目标页 / Resolve a cross-reference to its target page',
    input: z
      .object({
        reg_id: regIdField,
        reference: z.string().trim().min(1, '引用文字不能为空').max(500).describe('引用文字 / the reference text'),
      })
      .strict(),
    output: resolution.extend({
      others: z.array(z.object({ text: z.string(), type: z.string(), target: z.string(), regulation: z.string().nullable(), index: z.number().int() })),
    }),
    mcp: 'resolve_reference',
    handler: (ctx, input) => resolveReference(ctx.db, input.reg_id, input.reference),
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
            confidence: z.number(),
            low_confidence: z.boolean(),
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
      ocr_lines: ocrLines(ctx.db, input.reg_id, input.page).map((l) => ({ ...l, low_confidence: l.confidence < ctx.config.ocr.lowConfidence })),
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
    summary: '查找与一段文字或某一条相似的内容（跨规程） / Find content similar to a text or to an article',
    input: z
      .object({
        text: z.string().max(2000).optional().describe('参考文字 / reference text'),
        reg_id: regIdField.optional().describe('与 section 一起：以该规程某条/章为参考 / with section: use this section as the reference'),
        section: z.string().max(80).optional().describe('条款或章节，如 第二十条 / article or chapter'),
        scope: z.union([z.string(), z.array(z.string())]).optional().describe("检索范围 reg_id（缺省 'all'） / where to look"),
        top_k: z.number().int().min(1).max(30).optional(),
      })
      .strict(),
    output: z.object({
      reference: z.object({ reg_id: z.string().nullable(), label: z.string().nullable(), page_num: z.number().int().nullable(), text: z.string() }),
      results: z.array(z.object({ reg_id: z.string(), title: z.string(), page_num: z.number().int(), article: z.string().nullable(), kind: z.string(), section: z.string(), snippet: z.string(), score: z.number() })),
    }),
    mcp: 'find_similar_content',
    handler: async (ctx, input) => {
      let ref: { reg_id: string | null; label: string | null; page_num: number | null; text: string };
      if (input.reg_id && input.section) {
        const s = sectionText(ctx.db, input.reg_id, input.section);
        ref = { reg_id: input.reg_id, label: s.label, page_num: s.page_num, text: s.text };
      } else if (input.text?.trim()) ref = { reg_id: null, label: null, page_num: null, text: input.text.trim() };
      else throw new GridError('INVALID_INPUT', '请提供 text，或同时提供 reg_id 与 section');
      const out = await smartSearch(ctx, { query: ref.text.slice(0, 400), reg_id: input.scope ?? 'all', top_k: (input.top_k ?? 8) + 3 });
      const results = out.results
        .filter((r) => !(r.reg_id === ref.reg_id && (r.article === ref.label || r.section.endsWith(ref.label ?? '\u0000'))))
        .slice(0, input.top_k ?? 8)
        .map((r) => ({ reg_id: r.reg_id, title: r.title, page_num: r.page_num, article: r.article, kind: r.kind, section: r.section, snippet: r.snippet, score: r.score }));
      return { reference: { ...ref, text: ref.text.slice(0, 300) }, results };
    },
  }),
  'regulations.compare': defineOperation({
    summary: '对比两处条文（条款、章节或表格）：共同词、差异词与相似度 / Compare two sections (articles, chapters, tables)',
    input: z
      .object({
        reg_id_a: regIdField,
        section_a: z.string().min(1).max(80).describe('第一处：条款/章节/表格，如 第二十条、第六章、表A.1'),
        reg_id_b: regIdField,
        section_b: z.string().min(1).max(80).describe('第二处 / the second section'),
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
      const a = sectionText(ctx.db, input.reg_id_a, input.section_a);
      const b = sectionText(ctx.db, input.reg_id_b, input.section_b);
      const clip = (t: string) => (t.length > 3000 ? `${t.slice(0, 3000)}…` : t);
      return {
        a: { reg_id: input.reg_id_a, regulation: getRegulation(ctx.db, input.reg_id_a).title, label: a.label, page_num: a.page_num, text: clip(a.text) },
        b: { reg_id: input.reg_id_b, regulation: getRegulation(ctx.db, input.reg_id_b).title, label: b.label, page_num: b.page_num, text: clip(b.text) },
        ...overlap(a.text, b.text),
      };
    },
  }),
});
