import { z } from 'zod';
import { COMMAND_FIELDS } from './vocab';

/** Seed 004 data contract: one executable command of a device. */
export const commandSpecSchema = z.object({
  id: z.string().min(1),
  description: z.string(),
  type: z.string().optional(),
  // real exports write null for "none" and sometimes min/max: read both, keep one shape
  value_range: z
    .preprocess(
      (v) => {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return v ?? undefined;
        const o = v as Record<string, unknown>;
        const pick = (...keys: string[]) => keys.map((k) => o[k]).find((x) => x !== undefined && x !== null) ?? undefined;
        return { minimum: pick('minimum', 'min'), maximum: pick('maximum', 'max'), unit: pick('unit') };
      },
      z.object({
        minimum: z.number().optional(),
        maximum: z.number().optional(),
        unit: z.string().optional(),
      }),
    )
    .optional(),
});
export type CommandSpec = z.infer<typeof commandSpecSchema>;

const attributeValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);

/** Seed 004 device plus optional extras (nicknames, category, sensor readings). */
export const deviceSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  room: z.string().nullable().optional(),
  type: z.string().default('device'),
  commands: z.array(commandSpecSchema).default([]),
  /** Other names people use for it: 老伙计, 大白. */
  nicknames: z.array(z.string().min(1)).optional(),
  /** The installer's other names for it (Home Assistant's aliases); read like nicknames. */
  aliases: z.array(z.string().min(1)).optional(),
  /** Canonical kind (light, curtain, airConditioner, temperatureSensor…); inferred when absent. */
  category: z.string().optional(),
  description: z.string().optional(),
  /** Current readings/state, e.g. {temperature: 27.5}; conditions are evaluated against these. */
  attributes: z.record(z.string(), attributeValue).optional(),
});
export type DeviceInput = z.input<typeof deviceSchema>;

export const groupSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  room: z.string().nullable().optional(),
  members: z.array(z.string().min(1)).min(1),
  nicknames: z.array(z.string().min(1)).optional(),
  aliases: z.array(z.string().min(1)).optional(),
  commands: z.array(commandSpecSchema).optional(),
});

export const sceneSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  room: z.string().nullable().optional(),
  nicknames: z.array(z.string().min(1)).optional(),
  aliases: z.array(z.string().min(1)).optional(),
  description: z.string().optional(),
});

/** A floor of the home (一楼, 二楼, 地下室): its rooms, so 楼上的灯 / 关掉一楼所有的灯 scope by floor. */
export const floorSchema = z.object({
  name: z.string().min(1),
  /** 1 for the ground floor, 2 above it, -1 a basement; read from the name (二楼, 3F) when absent */
  level: z.number().int().optional(),
  rooms: z.array(z.string().min(1)).default([]),
  /** Other words for it (首层, 楼上) */
  aliases: z.array(z.string().min(1)).optional(),
});
export type Floor = z.output<typeof floorSchema>;

/** A room (or a Home Assistant area) with the installer's other words for it: {name: 主卧, aliases: [大房间]}. */
export const roomEntrySchema = z.object({ name: z.string().min(1), aliases: z.array(z.string().min(1)).default([]) });

/**
 * The installer's own words (the data dir's devices-vocabulary.json, merged over the shipped
 * vocabulary): more words for a kind (light: [灯泡]), for an action (打开: [整开]) and for a room.
 */
export const userVocabularySchema = z
  .object({
    kinds: z.record(z.string(), z.array(z.string().min(1))).default({}),
    actions: z.record(z.string(), z.array(z.string().min(1))).default({}),
    rooms: z.record(z.string(), z.array(z.string().min(1))).default({}),
  })
  .strict();
export type UserVocabulary = z.output<typeof userVocabularySchema>;

export const homeFileSchema = z.union([
  z.array(deviceSchema),
  z.object({
    name: z.string().optional(),
    rooms: z.array(z.union([z.string(), roomEntrySchema])).optional(),
    /** Home Assistant's word for rooms: read the same way */
    areas: z.array(z.union([z.string(), roomEntrySchema])).optional(),
    floors: z.array(floorSchema).optional(),
    devices: z.array(deviceSchema),
    groups: z.array(groupSchema).default([]),
    scenes: z.array(sceneSchema).default([]),
  }),
]);

export type EntityKind = 'device' | 'group' | 'scene';

/** A normalised entity: devices, groups and scenes are all first-class (seed 004). */
export interface Entity {
  id: string;
  kind: EntityKind;
  name: string;
  nicknames: string[];
  /** The installer's aliases among the nicknames (the lint checks that they name nothing else). */
  aliases?: string[];
  /** Room field as given (null when missing). */
  room: string | null;
  type: string;
  category: string;
  commands: CommandSpec[];
  description?: string;
  attributes?: Record<string, number | string | boolean | null>;
  members?: string[];
}

export interface Home {
  name?: string;
  rooms: string[];
  /** room -> the installer's other words for it (home file aliases and the user vocabulary) */
  roomAliases?: Record<string, string[]>;
  /** the installer's vocabulary merged over the shipped one (words for kinds and actions) */
  vocabulary?: UserVocabulary;
  /** Floors and their rooms (optional in the file; [] when not given). */
  floors?: Floor[];
  devices: Entity[];
  groups: Entity[];
  scenes: Entity[];
}

/** Seed 000 command protocol: one object per action in the utterance, in order. */
export const conditionSchema = z.object({
  sensor: z.enum(['temperature', 'humidity', 'illuminance']),
  op: z.enum(['>', '>=', '<', '<=', '=']),
  value: z.number(),
  room: z.string().nullable().optional(),
  /** Unit as said (℃, %, lux); optional so older command arrays stay valid. */
  unit: z.string().nullable().optional(),
  /** The condition as the user said it (温度高于28度), for previews. */
  text: z.string().optional(),
});
export type Condition = z.infer<typeof conditionSchema>;

export const scheduleSchema = z.object({ day: z.number().int().min(0).max(2).nullable(), time: z.string().nullable(), repeat: z.enum(['daily']).optional(), text: z.string() });
export type Schedule = z.output<typeof scheduleSchema>;
/** What an utterance is when it is not a device command. */
export const otherIntentSchema = z.enum(['time', 'date', 'weather', 'nevermind', 'list', 'chat', 'other']);

/**
 * The command fields, declared once: each field's meaning is its description (vocab/protocol.json, the
 * same words the LLM prompt lists), its type is this schema's; Command is inferred from it.
 */
const F = COMMAND_FIELDS;
export const commandSchema = z.object({
  /** the action code (A.on … in actions.ts; Chinese on the wire: 打开, 调温度) */
  a: z.string().describe(F.a),
  /** rooms said (、-joined); with x the include scope */
  s: z.string().nullable().default(null).describe(F.s),
  /** a device, group or scene name as said */
  n: z.string().nullable().default(null).describe(F.n),
  /** the kind asked for (light, airConditioner …) */
  t: z.string().nullable().default(null).describe(F.t),
  /** quantifier */
  q: z.enum(['one', 'all', 'any', 'except']).default('one').describe(F.q),
  /** how many (两盏 -> 2) */
  c: z.number().int().positive().nullable().default(null).describe(F.c),
  cond: conditionSchema.nullable().optional().describe(F.cond),
  ref: z.literal('last-mentioned').nullable().optional().describe(F.ref),
  /** The value as said: 26度, 50%, 一半, 最亮, +10%, 红色, 睡眠模式 (a bare number is read as said). */
  v: z.union([z.string(), z.number()]).nullable().optional().describe(F.v),
  /** Further settings said in the same clause (制热 beside 26度): each its own action and value as said. */
  w: z.array(z.object({ a: z.string(), v: z.union([z.string(), z.number()]) })).optional().describe(F.w),
  /** Exceptions (除了床头灯 / 除卧室以外): rooms or names excluded; with x, s is the include scope. */
  x: z.string().nullable().optional().describe(F.x),
  /** Delay in seconds (十分钟后关掉空调); with a = 计时 the length of a timer (设一个十分钟的定时器). */
  d: z.number().positive().nullable().optional().describe(F.d),
  /** A clock time (明天早上七点打开窗帘): day 0 today / 1 tomorrow / 2 the day after (null: the next such time), HH:MM, daily when 每天. */
  at: scheduleSchema.optional().describe(F.at),
  /** With a = 非设备指令: what the utterance is instead (time, date, weather, nevermind, list). */
  i: otherIntentSchema.optional().describe(F.i),
  /** Why a command is UNKNOWN (malformed LLM reply, nothing understood). */
  reason: z.string().optional().describe(F.reason),
});
export type Command = z.output<typeof commandSchema>;
export const commandArraySchema = z.array(commandSchema);

export { UNKNOWN_ACTION, TIMER_ACTION, TIMER_OPS, NOT_DEVICE_ACTION, type TimerOp } from './actions';
import type { TimerOp } from './actions';
export type OtherIntent = z.output<typeof otherIntentSchema>;

/** What a value is about; decides the default unit and the relative step. */
export type ValueAttribute = 'brightness' | 'temperature' | 'volume' | 'position' | 'fanSpeed' | 'humidity' | 'colorTemp' | 'color' | 'mode' | 'channel' | 'source' | 'content' | 'generic';

/** A value the user asked for, as understood (contract: `number` is the numeric value, e.g. 26 for 调到26度). */
export interface IRValue {
  /** as said: 26度, 百分之五十, 一半, 最亮, 红色 */
  text: string;
  /** numeric value (absolute target; for relative changes the step); null for words (红色, 睡眠模式) or an unresolved extreme */
  number: number | null;
  unit: string | null;
  attribute: ValueAttribute;
  /** 调高/亮一点: change by `number` in this direction instead of setting it */
  relative?: 'up' | 'down';
  /** 最亮/最低: the command's value_range end (number filled in once a device is chosen) */
  extreme?: 'max' | 'min';
}

export interface QueryIR {
  action: string;
  /** The value to set (null when the command carries none). */
  value: IRValue | null;
  /** Every value of the command when it sets more than one (制热26度: 26℃ then 制热); `value` is the first. */
  values?: IRValue[];
  name_hint: string | null;
  type_hint: string | null;
  scope_include: string[];
  scope_exclude: string[];
  quantifier: 'one' | 'all' | 'any' | 'except';
  count: number | null;
  conditions: Condition[];
  references: string[];
  /** 十分钟后关掉空调: the command runs after this many seconds (absent when said for now). */
  delay_seconds?: number;
  /** 明天早上七点打开窗帘: the command runs at this clock time (absent when said for now). */
  schedule?: Schedule;
  /** 设一个十分钟的定时器: a timer request (no device); absent otherwise. */
  timer?: { op: TimerOp; seconds: number | null; text: string };
  /** Not a device command: what it is instead (asks the time, the date, the weather; 算了; a list). */
  intent?: OtherIntent;
}

export const conversationStateSchema = z.object({
  version: z.literal(1).default(1),
  turn: z.number().int().nonnegative().default(0),
  last_mentioned: z
    .array(z.object({ id: z.string(), kind: z.enum(['device', 'group', 'scene']), name: z.string(), room: z.string().nullable() }))
    .default([]),
  /** An open clarification: the next short answer (书房的) picks among these. */
  pending: z
    .object({ command: commandSchema, options: z.array(z.string()) })
    .nullable()
    .default(null),
});
export type ConversationState = z.output<typeof conversationStateSchema>;

export function emptyState(): ConversationState {
  return { version: 1, turn: 0, last_mentioned: [], pending: null };
}

export interface Selected {
  id: string;
  kind: EntityKind;
  name: string;
  room: string | null;
  score: number;
  reasons: string[];
}

export interface ClarificationOption {
  id: string;
  kind: EntityKind;
  name: string;
  room: string | null;
  label: string;
}

export interface Clarification {
  question: string;
  options: ClarificationOption[];
}

export interface ConditionResult extends Condition {
  status: 'met' | 'not_met' | 'unknown';
  sensor_id: string | null;
  reading: number | null;
}

/** Seed 004 check of a value against the chosen device's command. */
export interface ValueCheck {
  id: string;
  status: 'in_range' | 'out_of_range' | 'no_range' | 'no_command';
  command_id: string | null;
  minimum: number | null;
  maximum: number | null;
  unit: string | null;
}

export interface RetrievalMeta {
  parser: 'rules' | 'llm' | 'rules-fallback' | 'commands';
  parser_error?: string;
  scope_fallback: null | 'include_empty' | 'no_match_in_scope';
  name_room_fallback: string[];
  uncertain_room_names: string[];
  capability_filtered: string[];
  mode: 'exact_name' | 'reference' | 'room_type_all' | 'all' | 'best' | 'count' | 'clarify' | 'none' | 'pending';
  conditions: ConditionResult[];
  groups_collapsed: string[];
  vector: boolean;
  resolved_pending?: boolean;
  /** The asked room is unknown to the home and was read as the broader room (主卧 -> 卧室). */
  room_alias?: boolean;
  /** The room said is a kind of room (卧室) that the home splits into several (主卧, 次卧). */
  room_kind?: boolean;
  /** One entry per selected entity when the command carries a value. */
  value_check?: ValueCheck[];
  /** An exception named a device (除了床头灯): these ids were removed from the same command. */
  excluded_ids?: string[];
}

/** One candidate while the stages run (internal; Selected is what leaves the engine). */
export interface Scored {
  entity: Entity;
  score: number;
  nameScore: number;
  reasons: string[];
  cap: number;
}

export interface RetrievalResult {
  command: Command;
  ir: QueryIR;
  selected: Selected[];
  candidates: Selected[];
  clarification: Clarification | null;
  meta: RetrievalMeta;
}
