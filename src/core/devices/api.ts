import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineOperation, defineOperations } from '../common/operation';
import { GridError } from '../common/errors';
import { confineFile, pathArg } from '../common/file-access';
import type { AppContext } from '../context';
import { loadCaseFile, MAX_UTTERANCE, runCases } from './cases';
import { loadHomeFile, type HomeFormat } from './home';
import { lintHome } from './lint';
import { buildCommandPrompt, commandSystemPrompt, parseCommandArray } from './command-protocol';
import { parseRules } from './parser';
import { retrieve, type RetrieveOptions } from './retrieve';
import { injectStage } from './stages/inject';
import { readUserVocabulary, USER_VOCABULARY_FILE, withVocabulary } from './user-vocabulary';
import { userVocabularySchema, commandSpecSchema, conditionSchema, conversationStateSchema, emptyState, floorSchema, otherIntentSchema, scheduleSchema, type Home } from './types';
import { TYPES } from './lexicon';
import { createLlmCommandParser, parseCommandsWithLlm } from './llm-commands';
import { llmAvailable } from '../llm/client';
import { KeyedCache } from '../common/cache';

/** The bundled demo home (resources/homes/demo-home.json): used when --devices is omitted. */
export function demoHomePath(ctx: AppContext): string {
  return path.join(ctx.resourcesDir, 'homes', 'demo-home.json');
}

/** Loaded home files, keyed by path + mtime + size. */
const loadedHomes = new KeyedCache<ReturnType<typeof loadHomeFile>>('devices.homes');

/** Loads (and caches per process, keyed by path + mtime) a home file. */
export function loadHome(ctx: AppContext, file?: string): { home: Home; format: HomeFormat; warnings: string[]; file: string; demo: boolean } {
  const f = file === undefined ? path.resolve(demoHomePath(ctx)) : confineFile(ctx.fileAccess, file, '设备文件');
  const stat = fs.existsSync(f) ? fs.statSync(f) : null;
  // the installer's vocabulary in the data dir is merged over the shipped words for every home
  const vocabFile = path.join(ctx.dataDir, USER_VOCABULARY_FILE);
  const vstat = fs.existsSync(vocabFile) ? fs.statSync(vocabFile) : null;
  const key = `${f}\u0000${stat?.mtimeMs ?? 0}:${stat?.size ?? 0}\u0000${vstat?.mtimeMs ?? 0}:${vstat?.size ?? 0}`;
  const homes = loadedHomes.in(ctx.state);
  let hit = homes.get(key);
  if (!hit) {
    const loaded = loadHomeFile(f, { maxBytes: ctx.config.import.maxFileBytes });
    hit = { ...loaded, home: withVocabulary(loaded.home, readUserVocabulary(vocabFile)) };
    homes.set(key, hit);
  }
  return { ...hit, file: f, demo: !file };
}

/** Embedding hook only when a model is installed: the engine itself never needs one. */
function embedOf(ctx: AppContext): RetrieveOptions['embed'] {
  try {
    const e = ctx.embedder();
    return e.available() ? (texts, kind) => e.embed(texts, kind) : undefined;
  } catch {
    return undefined;
  }
}

const entitySchema = z.object({
  id: z.string(),
  kind: z.enum(['device', 'group', 'scene']),
  name: z.string(),
  nicknames: z.array(z.string()),
  room: z.string().nullable(),
  type: z.string(),
  category: z.string(),
  commands: z.array(commandSpecSchema),
  description: z.string().optional(),
  attributes: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])).optional(),
  members: z.array(z.string()).optional(),
});
const homeSchema = z.object({
  name: z.string().optional(),
  rooms: z.array(z.string()),
  /** room -> the installer's other words for it */
  roomAliases: z.record(z.string(), z.array(z.string())).optional(),
  /** the installer's vocabulary (data dir devices-vocabulary.json) merged over the shipped words */
  vocabulary: userVocabularySchema.optional(),
  floors: z.array(floorSchema).optional(),
  devices: z.array(entitySchema),
  groups: z.array(entitySchema),
  scenes: z.array(entitySchema),
});
const commandOut = z.object({
  a: z.string(),
  s: z.string().nullable(),
  n: z.string().nullable(),
  t: z.string().nullable(),
  q: z.enum(['one', 'all', 'any', 'except']),
  c: z.number().nullable(),
  cond: conditionSchema.nullable().optional(),
  ref: z.string().nullable().optional(),
  v: z.union([z.string(), z.number()]).nullable().optional(),
  w: z.array(z.object({ a: z.string(), v: z.union([z.string(), z.number()]) })).optional(),
  x: z.string().nullable().optional(),
  d: z.number().nullable().optional(),
  at: scheduleSchema.optional(),
  i: otherIntentSchema.optional(),
  reason: z.string().optional(),
});
const irValueSchema = z.object({
  text: z.string(),
  number: z.number().nullable(),
  unit: z.string().nullable(),
  attribute: z.string(),
  relative: z.enum(['up', 'down']).optional(),
  extreme: z.enum(['max', 'min']).optional(),
});
const metaSchema = z.object({
  parser: z.enum(['rules', 'llm', 'rules-fallback', 'commands']),
  parser_error: z.string().optional(),
  scope_fallback: z.enum(['include_empty', 'no_match_in_scope']).nullable(),
  name_room_fallback: z.array(z.string()),
  uncertain_room_names: z.array(z.string()),
  capability_filtered: z.array(z.string()),
  mode: z.string(),
  conditions: z.array(
    conditionSchema.extend({ status: z.enum(['met', 'not_met', 'unknown']), sensor_id: z.string().nullable(), reading: z.number().nullable() }),
  ),
  groups_collapsed: z.array(z.string()),
  vector: z.boolean(),
  resolved_pending: z.boolean().optional(),
  room_alias: z.boolean().optional(),
  value_check: z
    .array(
      z.object({
        id: z.string(),
        status: z.enum(['in_range', 'out_of_range', 'no_range', 'no_command']),
        command_id: z.string().nullable(),
        minimum: z.number().nullable(),
        maximum: z.number().nullable(),
        unit: z.string().nullable(),
      }),
    )
    .optional(),
  excluded_ids: z.array(z.string()).optional(),
});
const selectedSchema = z.object({
  id: z.string(),
  kind: z.enum(['device', 'group', 'scene']),
  name: z.string(),
  room: z.string().nullable(),
  score: z.number(),
  reasons: z.array(z.string()),
});
export const retrievalResultSchema = z.object({
  command: commandOut,
  ir: z.object({
    action: z.string(),
    value: irValueSchema.nullable(),
    /** every value when the command sets more than one (制热26度) */
    values: z.array(irValueSchema).optional(),
    name_hint: z.string().nullable(),
    type_hint: z.string().nullable(),
    scope_include: z.array(z.string()),
    scope_exclude: z.array(z.string()),
    quantifier: z.string(),
    count: z.number().nullable(),
    conditions: z.array(conditionSchema),
    references: z.array(z.string()),
    /** 十分钟后关掉空调: run after this many seconds */
    delay_seconds: z.number().optional(),
    /** 明天早上七点打开窗帘: run at this clock time (day 0 today, 1 tomorrow, 2 the day after, null the next such time) */
    schedule: scheduleSchema.optional(),
    /** 设一个十分钟的定时器 / 取消计时器: a timer request, no device */
    timer: z.object({ op: z.enum(['start', 'cancel', 'status', 'pause', 'resume']), seconds: z.number().nullable(), text: z.string() }).optional(),
    /** not a device command: what it is instead */
    intent: otherIntentSchema.optional(),
  }),
  selected: z.array(selectedSchema),
  candidates: z.array(selectedSchema),
  clarification: z
    .object({
      question: z.string(),
      options: z.array(z.object({ id: z.string(), kind: z.string(), name: z.string(), room: z.string().nullable(), label: z.string() })),
    })
    .nullable(),
  meta: metaSchema,
});

const devicesInput = pathArg(z.string().min(1), '设备文件').optional().describe('设备文件路径（省略时使用演示家庭）');

export const deviceOperations = defineOperations({
  'devices.load': defineOperation({
    summary: '校验/导入设备文件（设备数组、家庭对象、Home Assistant、SmartThings）为统一格式 / Validate or import a home file',
    input: z.object({ file: pathArg(z.string().min(1), '设备文件') }).strict(),
    output: z.object({ file: z.string(), format: z.string(), home: homeSchema, counts: z.object({ devices: z.number(), groups: z.number(), scenes: z.number(), rooms: z.number() }), warnings: z.array(z.string()) }),
    handler: (ctx, input) => {
      const { home, format, warnings, file } = loadHome(ctx, input.file);
      return { file, format, home, counts: { devices: home.devices.length, groups: home.groups.length, scenes: home.scenes.length, rooms: home.rooms.length }, warnings };
    },
  }),
  'devices.retrieve': defineOperation({
    summary: '设备上下文检索：一句话 -> 每条命令的选中设备、候选、澄清与 YAML / Device-context retrieval for one utterance',
    mcp: 'devices_retrieve',
    input: z
      .object({
        utterance: z.string().min(1).max(MAX_UTTERANCE),
        devices: devicesInput,
        state: conversationStateSchema.optional(),
        /** An LLM reply to use instead of the rule parser (JSON command array). */
        llm_reply: z.string().optional(),
        /** Parse with the LLM (DashScope) when a key is configured; default: config llm.enabled. Falls back to rules. */
        llm: z.boolean().optional(),
      })
      .strict(),
    output: z.object({ devices_file: z.string(), demo: z.boolean(), results: z.array(retrievalResultSchema), yaml: z.string(), state: conversationStateSchema }),
    handler: async (ctx, input, run) => {
      const { home, file, demo } = loadHome(ctx, input.devices);
      const state = input.state ? structuredClone(input.state) : emptyState();
      const options: RetrieveOptions = { config: ctx.config.devices, embed: embedOf(ctx) };
      const useLlm = input.llm ?? ctx.config.llm.enabled;
      if (useLlm && input.llm_reply === undefined) {
        if (llmAvailable(ctx)) options.parseCommands = createLlmCommandParser(ctx, { signal: run.signal });
        else
          options.parseCommands = async () => {
            throw new Error('未配置大模型密钥（DASHSCOPE_API_KEY），使用规则解析');
          };
      }
      if (input.llm_reply !== undefined) {
        const reply = input.llm_reply;
        options.parseCommands = async () => {
          const cmds = parseCommandArray(reply);
          if (cmds.length === 1 && cmds[0].a === 'UNKNOWN' && cmds[0].reason) throw new Error(cmds[0].reason);
          return cmds;
        };
      }
      const results = await retrieve(input.utterance, home, state, options);
      const yaml = injectStage(home, results, { maxNameLength: ctx.config.devices.maxNameLength, maxDescriptionLength: ctx.config.devices.maxDescriptionLength });
      return { devices_file: file, demo, results, yaml, state };
    },
  }),
  'devices.parse': defineOperation({
    summary: '把一句话解析为命令数组（规则解析），或校验一段 LLM 回复 / Parse an utterance (rules) or an LLM reply into commands',
    input: z
      .object({
        utterance: z.string().min(1).max(MAX_UTTERANCE).optional(),
        llm_reply: z.string().optional(),
        devices: devicesInput,
        /** Parse with the LLM (DashScope); invalid, empty or slow replies fall back to the rules. */
        llm: z.boolean().optional(),
      })
      .strict(),
    output: z.object({
      parser: z.enum(['rules', 'llm-reply', 'llm', 'rules-fallback']),
      parser_error: z.string().optional(),
      commands: z.array(commandOut),
      prompt: z.string(),
    }),
    handler: async (ctx, input, run) => {
      const { home } = loadHome(ctx, input.devices);
      const prompt = buildCommandPrompt(home.rooms, Object.keys(TYPES));
      if (input.llm_reply !== undefined) return { parser: 'llm-reply' as const, commands: parseCommandArray(input.llm_reply), prompt };
      if (!input.utterance) throw new GridError('INVALID_INPUT', '请提供 utterance 或 llm_reply');
      if (input.llm) {
        const out = await parseCommandsWithLlm(ctx, input.utterance, home, { signal: run.signal });
        return { parser: out.parser, commands: out.commands, prompt: commandSystemPrompt(home), ...(out.error ? { parser_error: out.error } : {}) };
      }
      return { parser: 'rules' as const, commands: parseRules(input.utterance, home), prompt };
    },
  }),
  'devices.lint': defineOperation({
    summary: '设备命名检查：读音相同、只差一字、名称含其他房间、裸类型词、同房间重名、过长或像指令 / Naming lint',
    mcp: 'devices_lint',
    input: z.object({ devices: devicesInput }).strict(),
    output: z.object({
      devices_file: z.string(),
      issues: z.array(z.object({ rule: z.string(), severity: z.enum(['error', 'warning']), ids: z.array(z.string()), names: z.array(z.string()), message: z.string(), suggestion: z.string() })),
      counts: z.record(z.string(), z.number()),
    }),
    handler: async (ctx, input) => {
      const { home, file } = loadHome(ctx, input.devices);
      const issues = await lintHome(home, { config: ctx.config.devices, embed: embedOf(ctx) });
      const counts: Record<string, number> = {};
      for (const i of issues) counts[i.rule] = (counts[i.rule] ?? 0) + 1;
      return { devices_file: file, issues, counts };
    },
  }),
  'devices.test': defineOperation({
    summary: '运行用例文件（话术 + 期望设备或期望澄清）并给出准确率 / Run a case file and report accuracy',
    input: z.object({ cases: pathArg(z.string().min(1), '用例文件'), devices: devicesInput }).strict(),
    output: z.object({
      devices_file: z.string(),
      total: z.number(),
      passed: z.number(),
      accuracy: z.number(),
      failures: z.array(z.object({ id: z.string(), utterance: z.string(), reason: z.string().optional(), got: z.any(), expected: z.any() })),
    }),
    handler: async (ctx, input, run) => {
      const { home, file } = loadHome(ctx, input.devices);
      const cases = loadCaseFile(confineFile(ctx.fileAccess, input.cases, '用例文件'));
      run.progress({ stage: 'cases', done: 0, total: cases.length });
      const out = await runCases(cases, home, { config: ctx.config.devices, embed: embedOf(ctx) });
      run.progress({ stage: 'cases', done: cases.length, total: cases.length });
      return { devices_file: file, total: out.total, passed: out.passed, accuracy: out.accuracy, failures: out.outcomes.filter((o) => !o.pass) };
    },
  }),
  'devices.demo_home': defineOperation({
    summary: '演示家庭：路径、房间与设备统计 / The bundled demo home',
    input: z.object({ include_home: z.boolean().default(false) }).strict(),
    output: z.object({ file: z.string(), cases_file: z.string(), name: z.string().nullable(), rooms: z.array(z.string()), counts: z.object({ devices: z.number(), groups: z.number(), scenes: z.number() }), home: homeSchema.optional() }),
    handler: (ctx, input) => {
      const { home, file } = loadHome(ctx);
      return {
        file,
        cases_file: path.join(path.dirname(file), 'demo-cases.yaml'),
        name: home.name ?? null,
        rooms: home.rooms,
        counts: { devices: home.devices.length, groups: home.groups.length, scenes: home.scenes.length },
        ...(input.include_home ? { home } : {}),
      };
    },
  }),
});
