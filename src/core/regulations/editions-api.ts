import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import { GridError } from '../common/errors';
import { writeTransaction } from '../store/transaction';
import { allFamilies, editionLabel, editionsOf, groupEditions, setEditionOf, ungroupedEditions, type EditionInfo, type UngroupedEditions } from './editions';
import { articleHistory, compareRegulations, sameArticle } from './edition-compare';
import { getRegulation } from './store';
import type { EditionPair } from '../editions/types';

/**
 * Operations on editions (issue 25): `editions.diff` (CLI `gridcode diff`, MCP compare_editions),
 * `editions.versions` (CLI `gridcode versions`, MCP list_editions), `editions.set` (join / keep apart),
 * `editions.article` (one article across editions: "查看旧版/新版", its change history).
 */

const regIdField = z.string().min(1).max(64).describe('规程标识 reg_id');
const changeKind = z.enum(['same', 'moved', 'modified', 'added', 'deleted']);
const side = z
  .object({
    article: z.string().describe('条号或位置 / article label'),
    text: z.string(),
    chapter: z.string().optional(),
    unit_id: z.number().int().optional(),
    page_num: z.number().int().optional(),
  })
  .nullable();
const wordRun = z.object({ op: z.enum(['=', '-', '+']), text: z.string() });
const pairSchema = z.object({
  change: changeKind,
  old: side,
  new: side,
  similarity: z.number().optional(),
  renumbered: z.boolean().optional(),
  relation: z.enum(['split', 'merged']).optional().describe('拆分 / 合并'),
  related: z.array(z.string()).optional(),
  words: z.array(wordRun).optional().describe('词级差异 / word-level diff'),
});
const summarySchema = z.object({ same: z.number().int(), moved: z.number().int(), modified: z.number().int(), added: z.number().int(), deleted: z.number().int() });
const editionSchema = z.object({
  reg_id: z.string(),
  title: z.string(),
  effective_date: z.string().nullable(),
  in_force: z.boolean(),
  status: z.enum(['current', 'superseded', 'upcoming']).describe('现行 / 旧版 / 即将施行'),
  label: z.string().describe('现行（2023-12-11 施行） / 旧版（…）'),
  source_file: z.string(),
  indexed_at: z.string(),
  doc_number: z.string().nullable(),
});
const regSide = z.object({ reg_id: z.string(), title: z.string(), effective_date: z.string().nullable().optional(), in_force: z.boolean().optional() });

function editionOut(e: EditionInfo) {
  return {
    reg_id: e.reg_id,
    title: e.title,
    effective_date: e.effective_date,
    in_force: e.in_force,
    status: e.status,
    label: editionLabel(e),
    source_file: e.source_file,
    indexed_at: e.indexed_at,
    doc_number: e.doc_number,
  };
}

const ungroupedSchema = z.object({
  title: z.string(),
  reason: z.enum(['title', 'doc_number']).describe('同名 / 同一标准号'),
  editions: z.array(editionSchema).describe('各版本，旧→新；状态为归并后的状态 / members, oldest first, status once grouped'),
});

function ungroupedOut(g: UngroupedEditions) {
  return { title: g.title, reason: g.reason, editions: g.editions.map(editionOut) };
}

const stepSchema = z.object({
  reg_id: z.string(),
  title: z.string(),
  effective_date: z.string().nullable(),
  in_force: z.boolean(),
  status: z.enum(['current', 'superseded', 'upcoming']),
  article: z.string().nullable(),
  text: z.string().nullable(),
  unit_id: z.number().int().nullable(),
  page_num: z.number().int().nullable(),
  change: changeKind.nullable().describe('与上一版相比 / against the previous edition'),
  relation: z.enum(['split', 'merged']).optional(),
  words: z.array(wordRun).optional(),
});

/** The edition just before `regId` in its family (the one it revised), or null. */
function previousEdition(regId: string, editions: EditionInfo[]): EditionInfo | null {
  const k = editions.findIndex((e) => e.reg_id === regId);
  return k > 0 ? editions[k - 1] : null;
}

export const editionOperations = defineOperations({
  'editions.diff': defineOperation({
    summary:
      '对比两个版本（或任意两部规程）的条款：相同、移动（改号）、修改（词级差异）、新增、删除，含拆分/合并与按章汇总；只给 reg_id 时与其上一版对比；给 article 时只看该条 / Compare two editions article by article',
    input: z
      .object({
        old_reg_id: regIdField.optional().describe('旧版 reg_id / the older edition'),
        new_reg_id: regIdField.optional().describe('新版 reg_id / the newer edition'),
        reg_id: regIdField.optional().describe('只给一部规程：与它的上一版对比 / one regulation: compare with its previous edition'),
        article: z.string().min(1).max(40).optional().describe('只看这一条（如 第十条）及其历次变化 / only this article, with its history'),
        changes: z.array(changeKind).optional().describe('只返回这些变化类型 / only these kinds of change'),
        words: z.boolean().optional().describe('修改条款附词级差异（默认是） / word-level diffs of modified articles (default true)'),
      })
      .strict(),
    output: z.object({
      old: regSide,
      new: regSide,
      level: z.enum(['article', 'clause', 'section', 'paragraph']).describe('对比单位 / what was aligned'),
      summary: summarySchema,
      chapters: z.array(summarySchema.extend({ chapter: z.string(), text: z.string() })).describe('按章汇总 / per chapter'),
      pairs: z.array(pairSchema),
      history: z.array(stepSchema).optional().describe('给 article 时：该条在各版本中的样子 / the article across editions'),
    }),
    mcp: 'compare_editions',
    handler: (ctx, input) => {
      let oldId = input.old_reg_id;
      let newId = input.new_reg_id;
      if (!oldId || !newId) {
        const one = input.reg_id ?? oldId ?? newId;
        if (!one) throw new GridError('INVALID_INPUT', '请指定两部规程（old_reg_id 与 new_reg_id），或一部规程的 reg_id（与其上一版对比）');
        const editions = editionsOf(ctx.db, one);
        const prev = previousEdition(one, editions);
        if (prev) [oldId, newId] = [prev.reg_id, one];
        else {
          const next = editions[editions.findIndex((e) => e.reg_id === one) + 1];
          if (!next) throw new GridError('NOT_FOUND', `规程「${one}」只有一个版本，没有可对比的其他版本（可用 gridcode diff 旧ID 新ID 对比任意两部规程）`);
          [oldId, newId] = [one, next.reg_id];
        }
      }
      const cmp = compareRegulations(ctx, oldId, newId);
      const info = (id: string) => {
        const r = getRegulation(ctx.db, id);
        const e = editionsOf(ctx.db, id).find((x) => x.reg_id === id);
        return { reg_id: r.reg_id, title: r.title, effective_date: e?.effective_date ?? null, in_force: e?.in_force ?? true };
      };
      let pairs: EditionPair[] = cmp.pairs;
      let history;
      if (input.article) {
        const wanted = input.article;
        pairs = pairs.filter((p) => sameArticle(p.old?.article, wanted) || sameArticle(p.new?.article, wanted));
        if (!pairs.length) throw new GridError('NOT_FOUND', `两个版本中都没有「${wanted}」`);
        const anchor = pairs.find((p) => sameArticle(p.new?.article, wanted)) ? newId : oldId;
        history = articleHistory(ctx, anchor, wanted).steps;
      }
      if (input.changes?.length) pairs = pairs.filter((p) => input.changes!.includes(p.change));
      if (input.words === false) pairs = pairs.map(({ words: _w, ...rest }) => rest);
      return { old: info(oldId), new: info(newId), level: cmp.level, summary: cmp.summary, chapters: cmp.chapters, pairs, ...(history ? { history } : {}) };
    },
  }),
  'editions.versions': defineOperation({
    summary: '列出一部规程的各个版本（施行日期、是否现行）；不给 reg_id 时列出所有有多个版本的规程 / List the editions of a regulation',
    input: z.object({ reg_id: regIdField.optional() }).strict(),
    output: z.object({
      editions: z.array(editionSchema),
      families: z.array(z.array(editionSchema)).optional().describe('不给 reg_id 时：每部多版本规程的版本 / every regulation with several editions'),
      ungrouped: z
        .array(ungroupedSchema)
        .describe('同名（或同一标准号）、施行日期不同却尚未归为版本的规程（如版本功能之前导入的），可用 editions.group 归并 / same-titled regulations not yet grouped as editions'),
    }),
    mcp: 'list_editions',
    handler: (ctx, input) => {
      if (input.reg_id) {
        const editions = editionsOf(ctx.db, input.reg_id).map(editionOut);
        return { editions, ungrouped: ungroupedEditions(ctx.db, input.reg_id).map(ungroupedOut) };
      }
      const families = allFamilies(ctx.db).map((f) => f.map(editionOut));
      return { editions: families.flat(), families, ungrouped: ungroupedEditions(ctx.db).map(ungroupedOut) };
    },
  }),
  'editions.set': defineOperation({
    summary: '把一部规程设为另一部的版本（edition_of），或设为单独的规程（edition_of 为 null） / Join a regulation to another\'s editions, or keep it apart',
    input: z.object({ reg_id: regIdField, edition_of: regIdField.nullable() }).strict(),
    output: z.object({ editions: z.array(editionSchema) }),
    handler: (ctx, input) => ({ editions: writeTransaction(ctx.db, () => setEditionOf(ctx.db, input.reg_id, input.edition_of)).map(editionOut) }),
  }),
  'editions.group': defineOperation({
    summary:
      '把同名（或同一标准号）、施行日期不同却尚未归为版本的规程（如版本功能之前导入的）归为一部规程的各个版本；apply 为 false 时只列出建议；keep_apart 则标记为分开保存、不再建议 / Group already-imported editions (dry run unless apply)',
    input: z
      .object({
        apply: z.boolean().optional().describe('执行归并（默认只列出建议） / do it (default: only list)'),
        reg_ids: z.array(regIdField).max(200).optional().describe('只处理含这些规程的建议 / only the groups holding these'),
        keep_apart: z.boolean().optional().describe('与 apply 同用：保持分开，不再建议 / with apply: keep them apart'),
      })
      .strict(),
    output: z.object({ applied: z.boolean(), kept_apart: z.boolean(), groups: z.array(ungroupedSchema) }),
    handler: (ctx, input) => {
      if (!input.apply) {
        const groups = ungroupedEditions(ctx.db).filter((g) => !input.reg_ids?.length || g.editions.some((e) => input.reg_ids!.includes(e.reg_id)));
        return { applied: false, kept_apart: false, groups: groups.map(ungroupedOut) };
      }
      const groups = writeTransaction(ctx.db, () => groupEditions(ctx.db, { regIds: input.reg_ids, keepApart: input.keep_apart }));
      return { applied: true, kept_apart: !!input.keep_apart, groups: groups.map(ungroupedOut) };
    },
  }),
  'editions.article': defineOperation({
    summary: '一条条款在各版本中的样子与变化（查看旧版/新版、修改历史） / One article across the editions of its regulation',
    input: z.object({ reg_id: regIdField, article: z.string().min(1).max(40).describe('条号，如 第十条') }).strict(),
    output: z.object({ reg_id: z.string(), article: z.string(), found: z.boolean(), editions: z.array(editionSchema), history: z.array(stepSchema) }),
    handler: (ctx, input) => {
      const h = articleHistory(ctx, input.reg_id, input.article);
      if (!h.found) throw new GridError('NOT_FOUND', `规程「${input.reg_id}」中没有「${input.article}」`);
      return { reg_id: input.reg_id, article: input.article, found: h.found, editions: h.editions.map(editionOut), history: h.steps };
    },
  }),
});
