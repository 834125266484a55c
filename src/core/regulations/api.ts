import { z } from 'zod';
import { pathArg } from '../common/file-access';
import { defineOperation, defineOperations } from '../common/operation';
import { GridError } from '../common/errors';
import { importPaths } from './importer';
import { enrichRegulations, exportInfo, importInfo } from './metadata';
import { loadDemoRegulations } from './demo';
import { deleteRegulation, getRegulation, getToc, listRegulations, readPageWindow, updateInfo } from './store';
import { pageSchema, regulationInfoSchema, tocEntrySchema, tocNodeSchema } from './types';
import { validateRegId } from './slug';
import { readSource, removeSourceCopy } from './sources';
import { tocTree } from './navigation';
import { eitherArg } from './aliases';

const regIdField = z.string().min(1).max(64).describe('规程标识 reg_id，如 angui_2024 / regulation id');

const importResultSchema = z.object({
  file: z.string(),
  reg_id: z.string().nullable(),
  status: z.enum(['imported', 'unchanged', 'replaced', 'failed']),
  title: z.string().optional(),
  total_pages: z.number().int().optional(),
  ocr_pages: z.number().int().optional().describe('由文字识别（OCR）读出的页数 / pages read by OCR'),
  ocr_confidence: z.number().nullable().optional().describe('OCR 行的平均置信度 0–1 / mean confidence of the OCR lines'),
  notes: z.array(z.string()).optional().describe('跳过的页面说明 / pages left out'),
  error: z.string().optional(),
  error_code: z.string().optional(),
  warning: z.string().optional(),
  edition: z
    .object({
      edition_of: z.string().nullable(),
      reason: z.enum(['title', 'doc_number', 'asked', 'separate', 'alone']),
      effective_date: z.string().nullable(),
      in_force: z.boolean(),
      editions: z.array(z.object({ reg_id: z.string(), effective_date: z.string().nullable(), in_force: z.boolean() })),
      message: z.string(),
    })
    .optional()
    .describe('版本：与已有同名规程合为版本时的说明 / editions this import joined'),
});

const infoUpdateFields = {
  title: z.string().min(1).max(200).optional().describe('标题 / title'),
  description: z.string().max(500).nullable().optional().describe('简介 / description'),
  keywords: z.array(z.string().min(1).max(40)).max(20).optional().describe('主题关键词 / keywords'),
  scope: z.string().max(500).nullable().optional().describe('适用范围 / scope'),
};

/** API operations of the regulations engine (see src/core/api/table.ts). */
export const regulationOperations = defineOperations({
  'regulations.import': defineOperation({
    summary: '导入规程文件或文件夹（PDF/Markdown/TXT/DOCX，递归） / Import regulation files or folders (recursive)',
    input: z
      .object({
        paths: z.array(pathArg(z.string().min(1), '导入的文件或文件夹')).min(1).describe('文件或文件夹路径 / files or folders'),
        id: z.string().optional().describe('指定 reg_id（仅单个文件） / explicit reg_id (single file only)'),
        title: z.string().min(1).max(200).optional().describe('指定标题，覆盖文件中的标题（仅单个文件） / title overriding the one in the file (single file only)'),
        edition_of: z.string().min(1).max(64).optional().describe('作为这部规程的新版本导入（仅单个文件） / import as an edition of this regulation'),
        separate: z.boolean().optional().describe('不与同名规程合为版本 / never join a same-titled regulation as an edition'),
      })
      .strict(),
    output: z.array(importResultSchema),
    consumesFiles: true,
    offLoop: true,
    handler: (ctx, input, run) => {
      if (input.edition_of && input.separate) throw new GridError('INVALID_INPUT', '--as-edition-of 与 --separate 不能同时使用');
      const edition = input.edition_of ? { mode: 'of' as const, reg_id: input.edition_of } : input.separate ? { mode: 'separate' as const } : { mode: 'auto' as const };
      return importPaths(ctx, input.paths, { id: input.id, title: input.title, edition }, run);
    },
  }),
  'regulations.list': defineOperation({
    summary: '列出已导入的规程及其元数据（标题、页数、简介、关键词、适用范围） / List imported regulations with metadata',
    input: z.object({}).strict(),
    output: z.array(regulationInfoSchema),
    mcp: 'list_regulations',
    handler: (ctx) => listRegulations(ctx.db),
  }),
  'regulations.get': defineOperation({
    summary: '获取一部规程的信息 / Get one regulation\'s info',
    input: z.object({ reg_id: regIdField }).strict(),
    output: regulationInfoSchema,
    mcp: 'get_regulation',
    handler: (ctx, input) => getRegulation(ctx.db, input.reg_id),
  }),
  'regulations.toc': defineOperation({
    summary:
      '获取规程目录：toc 为平铺列表（章节标题与页码），tree 为目录树（max_depth 层，expand_section 指定的章节完全展开） / Table of contents: flat `toc` and a `tree` cut at max_depth with expand_section opened (RegReader get_toc)',
    input: z
      .object({
        reg_id: regIdField,
        max_depth: z.number().int().min(1).max(10).optional().describe('目录树显示的层数（缺省 3） / tree depth (default 3)'),
        expand_section: z.string().max(80).optional().describe('完全展开的章节，如 第二章、附录A 或目录 id / section to open fully'),
      })
      .strict(),
    output: z.object({
      reg_id: z.string(),
      title: z.string(),
      total_pages: z.number().int(),
      toc: z.array(tocEntrySchema),
      max_depth: z.number().int(),
      expanded: z.string().nullable(),
      tree: z.array(tocNodeSchema),
    }),
    mcp: 'get_toc',
    handler: (ctx, input) => {
      const info = getRegulation(ctx.db, input.reg_id);
      const maxDepth = input.max_depth ?? 3;
      const { nodes, expanded } = tocTree(ctx.db, input.reg_id, maxDepth, input.expand_section);
      return { reg_id: info.reg_id, title: info.title, total_pages: info.total_pages, toc: getToc(ctx.db, input.reg_id), max_depth: maxDepth, expanded, tree: nodes };
    },
  }),
  'regulations.read': defineOperation({
    summary:
      '按页码范围阅读规程原文（一次最多 20 页、约 10 万字；超出时 truncated=true，用 next 中的 start/end/offset 继续）。页码参数也接受 RegReader 的写法 start_page/end_page / Read a page range (at most 20 pages and a character budget per call; continue with `next` when truncated). Also accepts RegReader\'s start_page/end_page',
    input: z
      .object({
        reg_id: regIdField,
        start: z.number().int().min(1).optional().describe('起始页（从 1 开始；与 start_page 二选一） / first page, 1-based (or start_page)'),
        end: z.number().int().min(1).optional().describe('结束页（含，缺省=起始页） / last page, inclusive (default: start)'),
        start_page: z.number().int().min(1).optional().describe('同 start（RegReader 参数名） / alias of start (RegReader)'),
        end_page: z.number().int().min(1).optional().describe('同 end（RegReader 参数名） / alias of end (RegReader)'),
        offset: z.number().int().min(0).optional().describe('从起始页的第几个字开始（续读超长页，取自 next.offset） / character offset into the first page (from next.offset)'),
      })
      .strict(),
    output: z.object({
      reg_id: z.string(),
      title: z.string(),
      total_pages: z.number().int(),
      start: z.number().int(),
      end: z.number().int(),
      pages: z.array(pageSchema),
      truncated: z.boolean().describe('未读完请求的范围 / the requested range goes on'),
      next: z
        .object({ reg_id: z.string(), start: z.number().int(), end: z.number().int(), offset: z.number().int().optional() })
        .nullable()
        .describe('继续阅读的参数 / the input that continues this read'),
    }),
    mcp: 'read_page_range',
    handler: (ctx, input) => {
      const start = eitherArg(input.start, input.start_page, 'start / start_page', '起始页');
      const end = input.end ?? input.end_page ?? start;
      const { maxPages, maxResponseChars } = ctx.config.reader;
      const window = readPageWindow(ctx.db, input.reg_id, { from: start, to: end, offset: input.offset }, { maxPages, maxChars: maxResponseChars });
      const info = getRegulation(ctx.db, input.reg_id);
      return {
        reg_id: info.reg_id,
        title: info.title,
        total_pages: info.total_pages,
        start,
        end: window.pages.at(-1)?.page_num ?? end,
        pages: window.pages,
        truncated: window.truncated,
        next: window.next && { reg_id: info.reg_id, ...window.next },
      };
    },
  }),
  // The reader renders PDF pages with pdf.js from the original bytes; text pages stay the fallback.
  'regulations.source': defineOperation({
    summary: '读取规程原始文件（供阅读器用 pdf.js 显示原版页面） / The original file bytes of a regulation (base64), for the reader',
    input: z.object({ reg_id: regIdField }).strict(),
    output: z.object({ reg_id: z.string(), format: z.string(), file_name: z.string(), bytes: z.number().int(), data_base64: z.string() }),
    handler: (ctx, input) => readSource(ctx, input.reg_id),
  }),
  'regulations.delete': defineOperation({
    summary: '删除一部规程（含页面、目录与检索索引） / Delete a regulation with its pages, TOC and search index',
    input: z.object({ reg_id: regIdField }).strict(),
    output: z.object({ reg_id: z.string(), deleted: z.boolean() }),
    handler: (ctx, input) => {
      if (!deleteRegulation(ctx.db, input.reg_id)) throw new GridError('NOT_FOUND', `未找到规程「${input.reg_id}」`);
      removeSourceCopy(ctx, input.reg_id);
      return { reg_id: input.reg_id, deleted: true };
    },
  }),
  'regulations.update_info': defineOperation({
    summary: '更新规程元数据（标题、简介、关键词、适用范围） / Update regulation metadata',
    input: z
      .object({
        reg_id: regIdField,
        ...infoUpdateFields,
        source: z.enum(['manual', 'auto', 'llm', 'info.json']).default('manual').describe('元数据来源 / where the metadata came from'),
      })
      .strict(),
    output: regulationInfoSchema,
    handler: (ctx, input) => {
      const { reg_id, source, ...update } = input;
      return updateInfo(ctx.db, reg_id, update, source);
    },
  }),
  'regulations.enrich': defineOperation({
    summary: '离线生成规程元数据（简介、5–8 个关键词、适用范围） / Generate metadata offline from TOC and first pages',
    input: z
      .object({
        reg_id: regIdField.optional(),
        all: z.boolean().optional().describe('处理全部规程 / all regulations'),
      })
      .strict(),
    output: z.array(regulationInfoSchema),
    handler: (ctx, input, run) => {
      // The LLM path is llm.enrich_metadata (it falls back to this offline path).
      if (!input.all && !input.reg_id) throw new GridError('INVALID_INPUT', '请指定 reg_id 或 --all');
      return enrichRegulations(ctx, input.all ? 'all' : [validateRegId(input.reg_id!)], (done, total, regId) =>
        run.progress({ stage: '生成元数据', done, total, item: regId }),
      );
    },
  }),
  'regulations.export_info': defineOperation({
    summary: '导出规程元数据为 <目录>/<reg_id>/info.json / Export metadata as info.json files',
    input: z.object({ dir: pathArg(z.string().min(1), '导出目录', 'write'), reg_id: regIdField.optional() }).strict(),
    output: z.object({ files: z.array(z.string()) }),
    handler: (ctx, input) => ({ files: exportInfo(ctx, input.dir, input.reg_id) }),
  }),
  'regulations.import_info': defineOperation({
    summary: '从 info.json（文件或目录）导入规程元数据 / Import metadata from info.json files',
    input: z.object({ path: pathArg(z.string().min(1), 'info.json 文件或目录') }).strict(),
    output: z.array(
      z.object({ file: z.string(), reg_id: z.string().nullable(), status: z.enum(['updated', 'failed']), error: z.string().optional() }),
    ),
    handler: (ctx, input) => importInfo(ctx, input.path),
  }),
  'regulations.demo_load': defineOperation({
    summary: '导入内置演示规程（安全自动装置、特高压稳定与无功电压、变电站电气工作安全三部，均为演示材料） / Load the bundled demo regulations',
    input: z.object({}).strict(),
    output: z.array(importResultSchema),
    handler: (ctx, _input, run) => loadDemoRegulations(ctx, run),
  }),
});
