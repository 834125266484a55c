import path from 'node:path';
import { z } from 'zod';
import { parentScoreSchema } from './retrieval-contract';
import { pathArg } from '../common/file-access';
import { defineOperation, defineOperations } from '../common/operation';
import { deleteCollection, importCollection, importUploadedFiles } from './import';
import { askCollection, sessionInfo } from './session';
import { embedCollectionVectors } from './vectors';
import { demoCollections } from './demo';
import crypto from 'node:crypto';
import { getDoc, requireCollection } from './store';
import { sectionsOf } from './sections';
import { GridError } from '../common/errors';
import { retrieveState } from './retrieve';
import { writeLog } from './logs';
import { detectCollectionProfile, parseProfile, profileOf } from './profile';

const lockSchema = z.object({
  state: z.enum(['locked', 'pending', 'none']),
  doc_id: z.number().int().nullable(),
  title: z.string().nullable(),
});

const candidateSchema = z.object({
  option_id: z.string(),
  doc_id: z.number().int(),
  title: z.string(),
  rel_path: z.string(),
  overall_score: z.number(),
});

/** Recipe intents (原料/步骤/时间/工具) and section intents of statutes / generic documents. */
const intentSchema = z.enum(['ingredients', 'steps', 'time', 'tools', 'general', 'article', 'next', 'previous', 'penalty', 'scope', 'definition', 'outline']);

const profileSchema = z.enum(['recipes', 'regulations', 'generic']);

const citationSchema = z.object({
  doc_id: z.number().int(),
  title: z.string(),
  rel_path: z.string(),
  label: z.string(),
  path: z.string(),
  page: z.number().int().nullable(),
  text: z.string(),
  index: z.number().int(),
  regulation: z.object({ reg_id: z.string(), title: z.string(), page: z.number().int() }).nullable(),
});

export const askOutput = z.object({
  trace_id: z.string(),
  session_id: z.string(),
  turn: z.number().int(),
  collection: z.string(),
  question: z.string(),
  kind: z.enum(['answer', 'candidates', 'low_evidence', 'follow_up', 'not_found']),
  /**
   * What this turn is, in one word: answered from a newly locked document (locked), a follow-up on the
   * lock (follow_up), a choice to make (ambiguous), too little evidence (low_evidence), or the
   * collection does not hold what the question names (not_found).
   */
  state: z.enum(['locked', 'follow_up', 'ambiguous', 'low_evidence', 'not_found']),
  decision: z.enum(['locked', 'ambiguous', 'low_evidence', 'not_found']).nullable(),
  code: z.enum(['LOW_EVIDENCE', 'NOT_FOUND']).nullable(),
  /** not_found: the named thing the collection does not hold (红烧排骨); null otherwise. */
  subject: z.string().nullable(),
  lock: lockSchema,
  answer: z.string().nullable(),
  clarify_question: z.string().nullable(),
  candidates: z.array(candidateSchema),
  route: z
    .object({
      intent: intentSchema,
      layer: z.enum(['layer1', 'layer2']),
      blocks: z.array(z.string()),
      found: z.boolean(),
      escalated: z.boolean(),
      step: z.number().int().nullable(),
    })
    .nullable(),
  evidence: z.array(z.object({ block: z.string(), heading: z.string(), text: z.string() })),
  retrieval: z
    .object({
      core: z.string(),
      tokens: z.array(z.string()),
      lists: z.array(z.string()),
      reason: z.string(),
      rule: z.string().nullable(),
      parents: z.array(parentScoreSchema),
    })
    .nullable(),
  selected: z.boolean(),
  switched: z.boolean(),
  session_expired: z.boolean(),
  profile: profileSchema,
  citations: z.array(citationSchema),
  suggestions: z.array(z.string()),
});

const topK = z.number().int().min(1).max(500).optional();
const topParents = z.number().int().min(1).max(50).optional();

const collectionName = z.string().min(1, '集合名称不能为空').max(64);

/** what a folder import and an uploaded-folder import both report */
const importOutput = z.object({
  collection: z.string(),
  source_dir: z.string(),
  files: z.number().int(),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  documents: z.number().int(),
  chunks: z.number().int(),
  vectors: z.number().int(),
  profile: profileSchema,
});

export const collectionOperations = defineOperations({
  'collections.import': defineOperation({
    summary: '导入文件夹为文档集合（递归 .md/.txt，幂等，单事务） / Import a folder as a document collection',
    input: z.object({ folder: pathArg(z.string().min(1, '文件夹路径不能为空'), '集合文件夹'), name: collectionName }).strict(),
    output: importOutput,
    offLoop: true,
    handler: async (ctx, input, run) => {
      const result = importCollection(ctx, input, run.progress, run.signal);
      // vectors after the commit (slow, off the main thread); without a model this is a no-op
      const vectors = await embedCollectionVectors(ctx, result.collection, run.progress);
      const coll = requireCollection(ctx.db, result.collection);
      return { ...result, vectors, profile: profileOf(ctx.db, coll) };
    },
  }),
  'collections.import_files': defineOperation({
    summary: '导入浏览器上传的文件夹（已上传的文件 + 相对路径） / Import an uploaded folder as a collection',
    input: z
      .object({
        name: collectionName,
        files: z.array(z.object({ path: pathArg(z.string().min(1), '上传的文件'), rel_path: z.string().min(1).max(1000) }).strict()).min(1, '没有文件').max(20000),
      })
      .strict(),
    output: importOutput,
    consumesFiles: true,
    offLoop: true,
    handler: async (ctx, input, run) => {
      const result = importUploadedFiles(ctx, input, run.progress, run.signal);
      const vectors = await embedCollectionVectors(ctx, result.collection, run.progress);
      return { ...result, vectors, profile: profileOf(ctx.db, requireCollection(ctx.db, result.collection)) };
    },
  }),
  'collections.list': defineOperation({
    summary: '列出文档集合 / List document collections',
    input: z.object({}).strict(),
    output: z.object({
      collections: z.array(
        z.object({
          name: z.string(),
          source_dir: z.string(),
          documents: z.number().int(),
          recipes: z.number().int(),
          profile: profileSchema,
          chunks: z.number().int(),
          sessions: z.number().int(),
          created_at: z.string(),
          updated_at: z.string(),
          /** a shipped demo collection: the questions it offers to try (empty otherwise) */
          example_questions: z.array(z.string()),
        }),
      ),
    }),
    handler: (ctx) => ({
      collections: (
        ctx.db
        .prepare(
          `SELECT c.id, c.name, c.source_dir, c.profile, c.created_at, c.updated_at,
                  (SELECT COUNT(*) FROM coll_docs d WHERE d.collection_id = c.id) AS documents,
                  (SELECT COUNT(*) FROM coll_docs d WHERE d.collection_id = c.id AND d.kind = 'recipe') AS recipes,
                  (SELECT COALESCE(SUM(total_chunks), 0) FROM coll_docs d WHERE d.collection_id = c.id) AS chunks,
                  (SELECT COUNT(*) FROM coll_sessions s WHERE s.collection_id = c.id) AS sessions
             FROM collections c ORDER BY c.name`,
        )
        .all() as {
        id: number;
        name: string;
        source_dir: string;
        profile: string | null;
        documents: number;
        recipes: number;
        chunks: number;
        sessions: number;
        created_at: string;
        updated_at: string;
      }[]
      ).map(({ id: _id, ...c }) => ({
        ...c,
        profile: profileOf(ctx.db, { id: _id, ...c } as never),
        example_questions: demoCollections(ctx).find((d) => d.name === c.name && path.resolve(ctx.resourcesDir, d.folder) === path.resolve(c.source_dir))?.questions ?? [],
      })),
    }),
  }),
  'collections.delete': defineOperation({
    summary: '删除文档集合（含索引与会话） / Delete a collection with its index and sessions',
    input: z.object({ name: collectionName }).strict(),
    output: z.object({ collection: z.string(), documents: z.number().int() }),
    handler: (ctx, input) => deleteCollection(ctx, input.name),
  }),
  'collections.ask': defineOperation({
    summary:
      '向文档集合提问（自动锁定文档/歧义候选/证据不足/集合中没有；会话内追问原料、步骤、时间、工具） / Ask a collection: lock, candidates, LOW_EVIDENCE or NOT_FOUND (state not_found: the collection does not hold what the question names); session follow-ups',
    mcp: 'ask_collection',
    input: z
      .object({
        collection: collectionName,
        question: z.string().min(1, '问题不能为空').max(2000, '问题过长（最多 2000 个字符）'),
        session_id: z.string().min(1).max(128).optional(),
        top_k: topK.describe('每个检索列表及融合后保留的片段数（seed 003 --top-k）'),
        top_parents: topParents.describe('歧义时列出的候选文档数（seed 003 --top-parents）'),
        trace_id: z.string().min(1).max(128).optional().describe('追踪 ID（写入日志）'),
        turn: z.number().int().min(1).max(100000).optional().describe('对话轮次（默认为会话的下一轮）'),
      })
      .strict(),
    output: askOutput,
    handler: (ctx, input) => askCollection(ctx, input),
  }),
  'collections.search': defineOperation({
    summary: '只检索不锁定：返回集合中排序后的候选文档及其得分（seed 003 retrieve） / Ranked parent candidates with scores, no lock',
    mcp: 'search_collection',
    input: z
      .object({
        collection: collectionName,
        query: z.string().trim().min(1, '检索词不能为空').max(2000, '检索词过长（最多 2000 个字符）'),
        top_k: topK,
        top_parents: topParents,
      })
      .strict(),
    output: z.object({
      collection: z.string(),
      query: z.string(),
      profile: profileSchema,
      decision: z.enum(['locked', 'ambiguous', 'low_evidence', 'not_found']),
      reason: z.string(),
      rule: z.string().nullable(),
      generic: z.object({ state: z.enum(['locked', 'ambiguous', 'low_evidence']), reason: z.string() }),
      core: z.string(),
      tokens: z.array(z.string()),
      lists: z.array(z.string()),
      candidates: z.array(parentScoreSchema),
      elapsed_ms: z.number(),
    }),
    handler: async (ctx, input) => {
      const t0 = performance.now();
      const coll = requireCollection(ctx.db, input.collection);
      const topParentsN = input.top_parents ?? ctx.config.collections.topParents;
      const r = await retrieveState(ctx, coll, input.query, { topK: input.top_k, topParents: topParentsN });
      writeLog(ctx, 'retrieval', { trace_id: crypto.randomUUID(), session_id: '', turn: 0, collection: coll.name }, {
        query: input.query,
        core: r.core,
        decision: r.decision,
        reason: r.reason,
        rule: r.rule,
        parents: r.parents.slice(0, topParentsN),
        lock: false,
      });
      return {
        collection: coll.name,
        query: input.query,
        profile: profileOf(ctx.db, coll),
        decision: r.decision,
        reason: r.reason,
        rule: r.rule,
        generic: r.generic,
        core: r.core,
        tokens: r.tokens,
        lists: r.lists,
        candidates: r.parents.slice(0, topParentsN),
        elapsed_ms: Math.round(performance.now() - t0),
      };
    },
  }),
  'collections.profile': defineOperation({
    summary: '查看或修改集合类型（recipes 菜谱 / regulations 法规条款 / generic 通用；auto 重新识别） / Show or set a collection profile',
    input: z.object({ name: collectionName, profile: z.string().min(1).max(32).optional() }).strict(),
    output: z.object({ collection: z.string(), profile: profileSchema, detected: profileSchema, stored: z.boolean() }),
    handler: (ctx, input) => {
      const coll = requireCollection(ctx.db, input.name);
      const detected = detectCollectionProfile(ctx.db, coll.id);
      if (input.profile !== undefined) {
        const auto = input.profile.trim().toLowerCase() === 'auto';
        const value = auto ? detected : parseProfile(input.profile);
        ctx.db.prepare('UPDATE collections SET profile = ? WHERE id = ?').run(value, coll.id);
      }
      const fresh = requireCollection(ctx.db, input.name) as typeof coll & { profile?: string | null };
      return { collection: fresh.name, profile: profileOf(ctx.db, fresh), detected, stored: !!fresh.profile };
    },
  }),
  'collections.document': defineOperation({
    summary: '查看集合中的一篇文档（按条款/章节列出），供引用跳转 / One collection document as its sections (citation viewer)',
    input: z.object({ collection: collectionName, doc_id: z.number().int().min(1) }).strict(),
    output: z.object({
      collection: z.string(),
      doc_id: z.number().int(),
      title: z.string(),
      rel_path: z.string(),
      sections: z.array(z.object({ index: z.number().int(), label: z.string(), path: z.string(), text: z.string() })),
    }),
    handler: (ctx, input) => {
      const coll = requireCollection(ctx.db, input.collection);
      const doc = getDoc(ctx.db, input.doc_id);
      if (!doc || doc.collection_id !== coll.id) throw new GridError('NOT_FOUND', `文集「${coll.name}」中没有这篇文档（可能已重新导入），请重新提问`);
      return { collection: coll.name, doc_id: doc.id, title: doc.title, rel_path: doc.rel_path, sections: sectionsOf(doc) };
    },
  }),
  'collections.session': defineOperation({
    summary: '查看或重置问答会话（锁定状态、候选、轮次、过期时间） / Inspect or reset an ask session',
    input: z.object({ session_id: z.string().min(1).max(128), reset: z.boolean().optional() }).strict(),
    output: z.object({
      session_id: z.string(),
      collection: z.string(),
      turn: z.number().int(),
      expired: z.boolean(),
      lock: lockSchema,
      candidates: z.array(candidateSchema),
      created_at: z.string(),
      updated_at: z.string(),
      expires_at: z.string(),
    }),
    handler: (ctx, input) => sessionInfo(ctx, input.session_id, input.reset ?? false),
  }),
});
