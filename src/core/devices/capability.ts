import { norm } from './home';
import { ACTIONS, DESCRIPTION_WORDS, OPPOSITES, SERVED_BY } from './lexicon';
import type { CommandSpec, Entity } from './types';
import { COMMON, SETTINGS } from './data';
import { A } from './actions';

/** Similarity of an action ("打开") to one command description ("打开设备"), 0..1. */
export type SimilarityFn = (action: string, description: string) => number;

function bigrams(s: string): Set<string> {
  const out = new Set<string>();
  const chars = Array.from(s);
  if (chars.length === 1) out.add(chars[0]);
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
  return out;
}

function dice(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  if (!x.size || !y.size) return 0;
  let inter = 0;
  for (const g of x) if (y.has(g)) inter++;
  return (2 * inter) / (x.size + y.size);
}

const actsCache = new Map<string, string[]>();

/**
 * Which canonical actions a command text expresses (打开设备 -> 打开; "Turn on" -> 打开;
 * media_next_track -> 下一首). Ids are read too: underscores and camelCase become words.
 */
export function descriptionActions(description: string): string[] {
  let hit = actsCache.get(description);
  if (hit) return hit;
  const d = norm(description);
  const spaced = description
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[._\-:/]+/g, ' ')
    .toLowerCase();
  hit = Object.entries(DESCRIPTION_WORDS)
    .filter(([, words]) => words.some((w) => (typeof w === 'string' ? d.includes(w) : w.test(spaced))))
    .map(([a]) => a);
  // "Unlock" also reads as lock+open, "Turn off" as off; the more specific word wins
  if (hit.includes(A.unlock)) hit = hit.filter((a) => a !== A.lock && a !== A.on);
  if (hit.includes(A.next) || hit.includes(A.previous)) hit = hit.filter((a) => a !== A.on);
  // 暂停播放 / 停止播放 pause or stop; 读取温度 reads and sets nothing
  if (hit.includes(A.pause) || hit.includes(A.stop)) hit = hit.filter((a) => a !== A.play);
  if (hit.includes(A.query)) hit = [A.query];
  if (actsCache.size > 20_000) actsCache.clear();
  actsCache.set(description, hit);
  return hit;
}

/** What one command can do, from its description and (for English exports) its id. */
export function commandActions(c: CommandSpec): string[] {
  const fromDescription = descriptionActions(c.description);
  return fromDescription.length ? fromDescription : descriptionActions(c.id);
}

const cache = new Map<string, number>();

/**
 * Offline lexical + action-synonym similarity. Opposites are forced to 0 so that 打开
 * never matches 关闭设备 whatever the character overlap.
 */
export function actionSimilarity(action: string, description: string): number {
  const key = action + '\u0001' + description;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const a = norm(action);
  const d = norm(description);
  const acts = descriptionActions(description);
  let sim: number;
  if (acts.includes(a) || (ACTIONS[a] ?? []).some((p) => p.length >= 2 && d.includes(p))) sim = 1;
  else if ((OPPOSITES[a] ?? []).some((o) => acts.includes(o))) sim = 0;
  else if ((SERVED_BY[a] ?? []).some((o) => acts.includes(o))) sim = 0.8;
  else if (a === A.adjust) sim = SETTINGS.re.set_words.test(description) ? 0.8 : 0;
  else {
    const phrases = [a, ...(ACTIONS[a] ?? []).filter((p) => p.length >= 2)];
    sim = Math.max(...phrases.map((p) => dice(p, d)));
  }
  if (cache.size > 50_000) cache.clear();
  cache.set(key, sim);
  return sim;
}

/** Actions a scene accepts: 打开/执行/切换到 观影模式 all mean "run it". */
const SCENE_ACTIONS = new Set([A.on, A.run_scene, A.set_mode, A.adjust]);

/** Neutral score for an entity whose commands our vocabulary cannot read at all: neither kept nor killed by them. */
const UNREADABLE = 0.6;

/** Best similarity of the action to any of the entity's commands. */
export function capabilityScore(entity: Entity, action: string, similarity: SimilarityFn = actionSimilarity): number {
  if (similarity !== actionSimilarity) return capabilityOf(entity, action, similarity);
  // the lexical score depends only on the entity's commands: kept per entity (a large home asks it of thousands)
  let memo = capMemo.get(entity);
  if (!memo) capMemo.set(entity, (memo = new Map()));
  let v = memo.get(action);
  if (v === undefined) memo.set(action, (v = capabilityOf(entity, action, similarity)));
  return v;
}

const capMemo = new WeakMap<Entity, Map<string, number>>();

function capabilityOf(entity: Entity, action: string, similarity: SimilarityFn): number {
  if (entity.kind === 'scene' || entity.category === 'scene') return SCENE_ACTIONS.has(action) ? 1 : 0;
  // a state question can be asked of anything
  if (action === A.query) return 1;
  let best = 0;
  let readable = false;
  for (const c of entity.commands) {
    const acts = commandActions(c);
    if (acts.length) readable = true;
    // the antonym rule holds even when an embedding model says 打开≈关闭
    const lexical = Math.max(actionSimilarity(action, c.description), descriptionActions(c.description).length ? 0 : actionSimilarity(action, c.id));
    if (lexical === 0 && (OPPOSITES[action] ?? []).some((o) => acts.includes(o))) continue;
    // embeddings only speak for descriptions our vocabulary cannot read: 读取温度 is known to be
    // 查询, so a close vector must not turn it into 打开
    const s = similarity === actionSimilarity || acts.length ? lexical : Math.max(lexical, similarity(action, c.description));
    if (s > best) best = s;
  }
  if (!readable && best < UNREADABLE && entity.commands.length) return UNREADABLE;
  return best;
}

/** True when the action is one we know well enough to filter on (seed 004: hard filter only when confident). */
export function confidentAction(action: string): boolean {
  return (action in ACTIONS && action !== A.query) || action === A.adjust;
}

/**
 * Seed 001 capability filter: keeps entities with a command whose similarity reaches `min`;
 * the rest are returned separately so callers can report them.
 */
export function capabilityFilter<T extends Entity>(
  entities: T[],
  action: string,
  options: { similarity?: SimilarityFn; min?: number } = {},
): { kept: T[]; filtered: T[] } {
  const min = options.min ?? 0.5;
  const kept: T[] = [];
  const filtered: T[] = [];
  for (const e of entities) (capabilityScore(e, action, options.similarity) >= min ? kept : filtered).push(e);
  return { kept, filtered };
}

/** Words of a command that runs a programme (开始洗涤, 停止清扫, cancel) rather than switching power. */
const PROGRAMME = COMMON.re.programme_words;

/**
 * The entity switches on/off itself (a power or light command), as opposed to starting or
 * stopping a programme (a washer's 开始洗衣) or opening a cover: what 关掉厨房 reaches.
 */
export function hasPowerCommand(entity: Entity, action: string): boolean {
  if (/^(?:curtain|window|garageDoor|valve|lock|scene)$/.test(entity.category)) return false;
  return entity.commands.some((c) => commandActions(c).includes(action) && !PROGRAMME.test(`${c.description} ${c.id}`));
}
