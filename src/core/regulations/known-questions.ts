import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { QaMemory } from '../search/learn';
import { corpusVersion, documentFrequencies, idfOf, stats } from '../search/lexical';
import { REG_CORPUS } from './search-index';
import { normLawTitle } from './article-ref';
import { ContextValue, KeyedCache } from '../common/cache';

/** The shipped file's questions (null when absent or broken). */
const shippedFile = new ContextValue<KnownQuestion[] | null>('regulations.known-questions');
/** Memories per question set, rebuilt when the library changes (null = library lacks their articles). */
const memories = new KeyedCache<{ version: number; memory: KnownMemory | null }>('regulations.known-memory');

/** Known questions over one library: their nearest-question memory, and how often each article and regulation is cited. */
interface KnownMemory {
  qa: QaMemory;
  /** the nearest known questions' articles for the last query (the list and the rerank features ask for one query in turn) */
  last?: { query: string; near: { id: number; score: number; best: number }[] };
  /** known questions citing each unit */
  units: Map<number, number>;
  /** known questions citing each regulation */
  regs: Map<string, number>;
}

/**
 * Rerank features from the known questions: how often they cite a unit and its regulation (log
 * scale), and how close the known questions citing the unit are to this query (the nearest
 * questions' summed squared similarity, and the best one's; 0 when none of them cites it).
 */
export type KnownPriors = (unitId: number, regId: string, query: string) => [unit: number, reg: number, near: number, nearBest: number];

/**
 * Known questions: lay questions with the articles that answer them (resources/search/
 * known-questions.json, written by scripts/learn-expansion.ts from STARD train.jsonl). A new
 * question close to known ones (tf-idf cosine, search/learn.ts QaMemory) gets their articles as one
 * more ranked list in the fusion. Articles are named as the questions name them (law title + 第N条),
 * resolved against whatever regulations the library holds; a library that holds too few of them
 * (anything but the statutes) does not use the list at all.
 */

export interface KnownQuestion {
  question: string;
  /** articles as law title + article label: 中华人民共和国民法典第五十四条 */
  relevant: string[];
  /**
   * the question's tokens weighed by idf in the library the file was made on (QaMemory.weigh);
   * saves segmenting and looking up ~3k words at a process's first search
   */
  tokens?: [string, number][];
}

const ARTICLE_REF = /^(.*?)(第[零〇一二三四五六七八九十百千万]+条(?:之[一二三四五六七八九十]+)?)$/;

// law titles are compared in the one form article references use
export { normLawTitle };

/** `中华人民共和国民法典第五十四条` -> [title, label], or null. */
export function splitArticleRef(ref: string): [string, string] | null {
  const m = ARTICLE_REF.exec(ref.trim());
  return m ? [m[1], m[2]] : null;
}

/** Known questions' share of article references the library must resolve before the list is used. */
const MIN_RESOLVED = 0.5;
/**
 * known questions looked at per query, and articles the list proposes. Chosen on the tuning half of
 * STARD's held-out fifth with the reranker (round 9): 40 neighbours instead of 20 put more of the
 * cited articles among the reranked candidates (R@100 0.871 → 0.875 there; 80: no further gain, R@10 lower);
 * the list never reaches 200 with 40 neighbours.
 */
const NEIGHBOURS = 40;
const LIST_LENGTH = 200;

/**
 * The "known" ranked list for `known` questions over this library, or null when the library does
 * not hold their articles. Cached per `cacheKey` and library version.
 */
export function knownQuestionLists(ctx: AppContext, known: KnownQuestion[], cacheKey: string): ((query: string) => Record<string, string[]>) | null {
  const memory = knownMemory(ctx, known, cacheKey);
  if (!memory) return null;
  return (query) => ({ known: nearestOf(memory, query).slice(0, LIST_LENGTH).map((x) => String(x.id)) });
}

/** Articles of the known questions nearest to `query`, best first (computed once per query). */
function nearestOf(memory: KnownMemory, query: string): { id: number; score: number; best: number }[] {
  if (memory.last?.query !== query) memory.last = { query, near: memory.qa.nearest(query, Infinity, NEIGHBOURS) };
  return memory.last.near;
}

/** How often the `known` questions cite each unit and regulation, or null when the library does not hold their articles. */
export function knownQuestionPriors(ctx: AppContext, known: KnownQuestion[], cacheKey: string): KnownPriors | null {
  const memory = knownMemory(ctx, known, cacheKey);
  if (!memory) return null;
  const { units, regs } = memory;
  // the features of one search's candidates are asked for one query after another
  let last: { query: string; near: Map<number, { score: number; best: number }> } | null = null;
  return (unitId, regId, query) => {
    if (last?.query !== query) last = { query, near: new Map(nearestOf(memory, query).map((x) => [x.id, x])) };
    const near = last.near.get(unitId);
    return [Math.log1p(units.get(unitId) ?? 0), Math.log1p(regs.get(regId) ?? 0), near?.score ?? 0, near?.best ?? 0];
  };
}

function knownMemory(ctx: AppContext, known: KnownQuestion[], cacheKey: string): KnownMemory | null {
  const version = corpusVersion(ctx.db, REG_CORPUS);
  const cache = memories.in(ctx.state);
  const cached = cache.get(cacheKey);
  let memory = cached && cached.version === version ? cached.memory : undefined;
  if (memory === undefined) {
    memory = buildMemory(ctx, known);
    cache.set(cacheKey, { version, memory });
  }
  return memory;
}

function buildMemory(ctx: AppContext, known: KnownQuestion[]): KnownMemory | null {
  // a code in parts (中华人民共和国民法典 · 合同编) answers to the code's name too
  const regsByTitle = new Map<string, string[]>();
  for (const r of ctx.db.prepare('SELECT reg_id, title FROM regulations').all() as { reg_id: string; title: string }[]) {
    for (const t of new Set([normLawTitle(r.title), normLawTitle(r.title.split(' · ')[0])])) {
      const list = regsByTitle.get(t) ?? [];
      list.push(r.reg_id);
      regsByTitle.set(t, list);
    }
  }
  const unitStmt = ctx.db.prepare('SELECT id FROM reg_units WHERE reg_id = ? AND label = ?');
  let refs = 0;
  let resolved = 0;
  const units = new Map<number, number>();
  const regs = new Map<string, number>();
  const pairs = known.map((k) => {
    const ids = new Set<number>();
    const cited = new Set<string>();
    for (const ref of k.relevant) {
      const parts = splitArticleRef(ref);
      if (!parts) continue;
      refs++;
      const before = ids.size;
      for (const regId of regsByTitle.get(normLawTitle(parts[0])) ?? []) {
        for (const u of unitStmt.all(regId, parts[1]) as { id: number }[]) {
          ids.add(u.id);
          cited.add(regId);
        }
      }
      if (ids.size > before) resolved++;
    }
    for (const id of ids) units.set(id, (units.get(id) ?? 0) + 1);
    for (const r of cited) regs.set(r, (regs.get(r) ?? 0) + 1);
    return { question: k.question, tokens: k.tokens, passages: [...ids] };
  });
  if (refs === 0 || resolved / refs < MIN_RESOLVED) return null;
  const total = stats(ctx.db).total || 1;
  const df = new Map<string, number>();
  const idf = (t: string) => {
    let d = df.get(t);
    if (d === undefined) df.set(t, (d = documentFrequencies(ctx.db, [t]).get(t) ?? 0));
    return idfOf(d, total);
  };
  const found = pairs.filter((p) => p.passages.length > 0);
  const qa = QaMemory.fromWeighed(
    found.map((p) => ({ tokens: p.tokens ?? QaMemory.weigh(p.question, idf), passages: p.passages })),
    idf,
  );
  return { qa, units, regs };
}

/** The shipped known questions (resources/search/known-questions.json), when present and the library holds their articles. */
export function shippedKnownQuestions(ctx: AppContext): ((query: string) => Record<string, string[]>) | null {
  const known = loadShippedKnownQuestions(ctx);
  return known?.length ? knownQuestionLists(ctx, known, 'shipped') : null;
}

/** Citation counts of the shipped known questions, when present and the library holds their articles. */
export function shippedKnownPriors(ctx: AppContext): KnownPriors | null {
  const known = loadShippedKnownQuestions(ctx);
  return known?.length ? knownQuestionPriors(ctx, known, 'shipped') : null;
}

/** The shipped file's questions, read once per context (null when absent or broken). */
export function loadShippedKnownQuestions(ctx: AppContext): KnownQuestion[] | null {
  let known = shippedFile.get(ctx.state);
  if (known === undefined) {
    known = null;
    try {
      const file = path.join(ctx.resourcesDir, 'search', 'known-questions.json');
      if (fs.existsSync(file)) known = (JSON.parse(fs.readFileSync(file, 'utf8')) as { questions: KnownQuestion[] }).questions;
    } catch {
      known = null; // a broken resource must not break search
    }
    shippedFile.set(ctx.state, known);
  }
  return known;
}
