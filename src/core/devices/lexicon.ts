/**
 * Chinese smart-home vocabulary: actions and their synonyms, device kinds, room words — read from
 * the data files vocab/actions.json, vocab/kinds.json and vocab/rooms.json (checked by zod when
 * this module loads, see vocab.ts), so the rule parser, the capability check and the lint share one
 * source and a new word is a data edit (docs/devices-vocabulary.md).
 */
import { ACTION_VOCAB, CATEGORIES, KIND_VOCAB, ROOM_VOCAB, kindOfCategory } from './vocab';

/** Canonical action -> phrases that express it (longest phrases are matched first). */
export const ACTIONS: Record<string, string[]> = ACTION_VOCAB.phrases;

/** Another action whose command serves this one (继续 can use 播放; a curtain with only 打开 can open to a value). */
export const SERVED_BY: Record<string, string[]> = ACTION_VOCAB.served_by;

/** Settings a device either has or not: another command that serves them (brightness for a colour) is a last resort. */
export const EXACT_CAPABILITY = new Set(ACTION_VOCAB.exact);

/** Pairs that must never match each other (seed 001: 打开 must never match 关闭设备). */
export const OPPOSITES: Record<string, string[]> = ACTION_VOCAB.opposites;

/** Words in command descriptions/ids that express an action (Chinese substrings or English word patterns). */
export const DESCRIPTION_WORDS: Record<string, (string | RegExp)[]> = ACTION_VOCAB.description_words;

/** Canonical type hint -> words naming it. Generic words first; subtypes in SUBTYPES. */
export const TYPES: Record<string, string[]> = KIND_VOCAB.words;

/** Kinds that play media: what 暂停 / 下一首 / 音量 said to no device address. */
export const MEDIA_KINDS = KIND_VOCAB.media;
/** What 门 can be in a home. */
export const DOOR_KINDS = KIND_VOCAB.door;

/** Words that name a specific kind of a type (台灯 is a light but sounds like one device). */
export const SUBTYPES: Record<string, string> = KIND_VOCAB.subtypes;

/** Words that are nothing but a type: a device named just 灯 is unfindable (lint). */
export const BARE_TYPE_WORDS = new Set<string>([...Object.values(TYPES).flat(), ...KIND_VOCAB.bare_words]);

/** Type hints that are read-only sensors (conditions look for these). */
export const SENSOR_FOR: Record<string, string> = KIND_VOCAB.sensor_for;

/** Room words people say; the home's own rooms are merged in at run time. */
export const ROOM_WORDS = ROOM_VOCAB.words;

/** Room aliases: saying 卧室 covers 主卧/次卧 when a home splits them. */
export const ROOM_ALIASES: Record<string, string[]> = ROOM_VOCAB.aliases;

/**
 * Rooms of one kind: 所有卧室 means every room people sleep in (主卧, 次卧, 儿童房…), while a plain
 * 卧室 covers only the rooms ROOM_ALIASES gives it and asks which when those are several.
 */
export const SIMILAR_ROOMS: Record<string, string[]> = ROOM_VOCAB.similar;

/** Type -> words used to infer a category from a device's name or type string. */
const TYPE_STRING_HINTS: [RegExp, string][] = KIND_VOCAB.type_hints;

/** Type strings that say little about what the device is (a relay, a player, a sensor): the name decides first. */
const GENERIC_TYPE = KIND_VOCAB.generic_types;

/** Category from the commands when type and name say nothing (set_cover_position -> curtain). */
const COMMAND_HINTS: [RegExp, string][] = KIND_VOCAB.command_hints;

/** A kind inside a broader one: a climate entity named 地暖 is a heater, a cover named 车库门 a garage door. */
const REFINES: Record<string, string[]> = KIND_VOCAB.refines;

export function inferCategory(type: string | undefined, name: string, commands: { id: string; description: string }[] = []): string {
  const byType = inferFromType(type, name, commands);
  for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(name)) return REFINES[byType]?.includes(cat) ? cat : byType;
  return byType;
}
function inferFromType(type: string | undefined, name: string, commands: { id: string; description: string }[]): string {
  const t = (type ?? '').trim();
  // a type written as an ecosystem's category (tuya:kt, HeaterCooler, homeassistant:climate) says the kind
  const listed = t && !GENERIC_TYPE.test(t) ? kindOfCategory(t) : null;
  if (listed && listed !== 'other') return listed;
  const byName = (): string | null => {
    // the longest subtype inside the name (车库卷帘门 is a garage door, not a 卷帘 blind)
    const sub = longestFirst(Object.keys(SUBTYPES)).find((w) => name.includes(w));
    if (sub) return SUBTYPES[sub];
    for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(name)) return cat;
    return null;
  };
  if (t && !GENERIC_TYPE.test(t)) for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(t)) return cat;
  const named = byName();
  if (named) return named;
  for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(t)) return cat;
  const text = commands.map((c) => `${c.id} ${c.description}`).join(' ');
  for (const [re, cat] of COMMAND_HINTS) if (re.test(text)) return cat;
  return 'other';
}

/** Kind -> Chinese label (the kinds of vocab/categories.json, plus the umbrella kinds a command may ask for). */
export const TYPE_LABELS: Record<string, string> = { ...CATEGORIES.kinds, ...KIND_VOCAB.umbrella_labels };

/** Longest-first word list for a lexicon map, computed once. */
export function longestFirst(words: Iterable<string>): string[] {
  return [...new Set(words)].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** Room fields that mean "no room" (HA/SmartThings defaults): never a real room. */
export const UNKNOWN_ROOM = ROOM_VOCAB.unknown;
