/**
 * STARD evaluation (`npm run eval -- stard [--model-only] [--tune] [--folds 5] [--limit N]`).
 *
 * Imports ../shared/data/laws once into a cached data dir (.cache/eval/stard, reused when present)
 * through the regulation importer's API op, then runs ../shared/data/stard/train.jsonl: each
 * question names its relevant articles as law title + article label (中华人民共和国民法典第五十四条;
 * titles match with and without the 中华人民共和国 prefix). Prints Recall@10, Recall@100 (share of the
 * cited articles found; an article of a statute with several editions is found when any edition's
 * unit is — search skips superseded editions by default), MRR@10, and the older per-unit recall.
 *
 * First block (the honest one): the held-out fifth of train.jsonl (fixed hash, the same split the
 * model trainer uses), with every learned part fitted without those questions — shipped default,
 * plain BM25, dense only, fused without expansion; under each row the same metrics on the half of
 * the held-out fifth that is never tuned on. `--tune` prints the block on the other half only (the
 * half settings may be chosen on; `--explore` adds candidate changes).
 * The remaining blocks (skipped with --model-only) are older diagnostics over all questions: the
 * "no learning" rows there use the model, which saw 4/5 of them, and the learned question->statute
 * rows are k-fold (fold i's tables fitted on the other folds).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { embedLibrary } from '../src/core/embed/library';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import { smartSearch, type SmartSearchOptions } from '../src/core/regulations/search';
import { documentFrequencies, idfOf } from '../src/core/search/lexical';
import { QaMemory, TranslationModel, fitExpansionTable, tableExpander, type TrainPair } from '../src/core/search/learn';
import { knownQuestionLists, knownQuestionPriors, normLawTitle, splitArticleRef } from '../src/core/regulations/known-questions';
import type { SearchMode } from '../src/core/search/engine';
import { crossFitted, rerankGroups, RERANK_CANDIDATES, RERANK_POOL } from './stard-rerank';

/** Fixed hash split of train.jsonl shared with the model trainer: 1 in 5 questions is held out. */
export function stardSplitOf(id: number): 'train' | 'heldout' {
  return (Math.imul(id, 2654435761) >>> 0) % 5 === 0 ? 'heldout' : 'train';
}

/**
 * Half of the held-out fifth (by an independent hash) may be used to choose settings (`--tune`);
 * the other half is never tuned on. (The train part cannot serve for tuning: the model was
 * trained on those questions, dense recall@100 there is ~1.0.)
 */
export function tuneSliceOf(id: number): boolean {
  return (Math.imul(id, 0x9e3779b1) >>> 16) % 2 === 0;
}

export interface Question {
  id: number;
  question: string;
  relevant: string[];
  /** every unit holding a cited article (all editions of its statute) */
  gold: number[];
  /**
   * per distinct cited article, the units holding it: one per edition of the statute. A citation
   * names no edition, and search skips superseded editions by default (issue 25), so an article
   * counts as found when any of its units is (the old per-unit recall counted each edition's copy
   * as one more article to find: 11 of the 248 held-out questions cite statutes with two editions).
   */
  cited: number[][];
}

/** Title normalisation shared with the shipped known questions (regulations/known-questions.ts). */
export const normTitle = normLawTitle;

function firstHeadings(root: string): Map<string, Set<string>> {
  // law files of a multi-part code (民法典/总则.md) carry the code's name in their first heading
  const out = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.md')) {
        const head = fs.readFileSync(full, 'utf8').slice(0, 400);
        const m = /^#\s+(.+)$/m.exec(head);
        if (!m) continue;
        let set = out.get(e.name);
        if (!set) out.set(e.name, (set = new Set()));
        set.add(m[1].trim());
      }
    }
  };
  walk(root);
  return out;
}

export async function ensureImported(ctx: AppContext, laws: string): Promise<void> {
  const n = (ctx.db.prepare('SELECT COUNT(*) AS n FROM regulations').get() as { n: number }).n;
  if (n > 0) {
    console.log(`复用已导入的法规库: ${n} 部 (${ctx.dataDir})`);
    return;
  }
  console.log(`导入 ${laws} -> ${ctx.dataDir} ...`);
  const t = performance.now();
  let last = 0;
  const res = await invokeOperation(ctx, 'regulations.import', { paths: [laws] }, {
    progress: (e) => {
      if (e.done - last >= 500 || e.done === e.total) {
        last = e.done;
        process.stderr.write(`  ${e.stage} ${e.done}/${e.total}\n`);
      }
    },
  });
  const ok = res.filter((r) => r.status !== 'failed').length;
  console.log(`导入完成: ${ok} 成功, ${res.length - ok} 失败, ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** train.jsonl -> questions (one JSON object per line). */
export function readStardQuestions(trainFile: string): Omit<Question, 'gold'>[] {
  return fs
    .readFileSync(trainFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Omit<Question, 'gold'>);
}

export function resolveGold(ctx: AppContext, laws: string, questions: Omit<Question, 'gold'>[]): Question[] {
  const heads = firstHeadings(laws);
  const regs = ctx.db.prepare('SELECT reg_id, title, source_file FROM regulations').all() as { reg_id: string; title: string; source_file: string }[];
  const titlesByReg = new Map<string, Set<string>>();
  for (const r of regs) {
    const set = new Set([normTitle(r.title)]);
    for (const h of heads.get(path.basename(r.source_file)) ?? []) set.add(normTitle(h));
    titlesByReg.set(r.reg_id, set);
  }
  const byKey = new Map<string, number[]>();
  const units = ctx.db.prepare("SELECT id, reg_id, label FROM reg_units WHERE label IS NOT NULL AND label LIKE '第%条%'").all() as { id: number; reg_id: string; label: string }[];
  for (const u of units) {
    for (const t of titlesByReg.get(u.reg_id) ?? []) {
      const key = `${t}|${u.label}`;
      const list = byKey.get(key) ?? [];
      list.push(u.id);
      byKey.set(key, list);
    }
  }
  return questions.map((q) => {
    const gold = new Set<number>();
    const cited = new Map<string, number[]>();
    for (const rel of q.relevant) {
      const m = splitArticleRef(rel);
      if (!m) continue;
      const key = `${normTitle(m[0])}|${m[1]}`;
      const ids = byKey.get(key) ?? [];
      for (const id of ids) gold.add(id);
      if (ids.length) cited.set(key, ids);
    }
    return { ...q, gold: [...gold], cited: [...cited.values()] };
  });
}

export interface StardData {
  /** every question whose articles the library holds */
  questions: Question[];
  heldout: Question[];
  /** search options with every learned part fitted on the train part only */
  honest: () => SmartSearchOptions;
}

export async function stardData(ctx: AppContext): Promise<StardData> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  const trainFile = path.join(sharedDir(), 'data', 'stard', 'train.jsonl');
  const questions = resolveGold(ctx, laws, readStardQuestions(trainFile)).filter((q) => q.gold.length > 0);
  const total = (ctx.db.prepare('SELECT COUNT(*) AS n FROM search_items').get() as { n: number }).n;
  const dfCache = new Map<string, number>();
  const idf = (t: string) => {
    let d = dfCache.get(t);
    if (d === undefined) dfCache.set(t, (d = documentFrequencies(ctx.db, [t]).get(t) ?? 0));
    return idfOf(d, total);
  };
  const unitText = ctx.db.prepare('SELECT text FROM reg_units WHERE id = ?');
  const pairOf = (q: Question): TrainPair => ({ question: q.question, passages: q.gold.map((id) => ({ id, text: (unitText.get(id) as { text: string }).text })) });
  const fitOn = questions.filter((q) => stardSplitOf(q.id) === 'train');
  const expand = tableExpander(fitExpansionTable(fitOn.map(pairOf), idf));
  const fitKnown = fitOn.map((q) => ({ question: q.question, relevant: q.relevant }));
  const known = knownQuestionLists(ctx, fitKnown, 'eval-train-part');
  const priors = knownQuestionPriors(ctx, fitKnown, 'eval-train-part');
  return { questions, heldout: questions.filter((q) => stardSplitOf(q.id) === 'heldout'), honest: () => ({ expand, parentLists: known, priors }) };
}

interface Metrics {
  r10: number;
  r100: number;
  mrr10: number;
  /** the old per-unit recall (each edition's copy of a cited article counted as one more to find) */
  r10u: number;
  r100u: number;
  regs: number;
  ms: number;
  n: number;
  /** the same metrics over the never-tuned half of the held-out fifth, when the run covers it */
  final?: Metrics;
}

interface PerQuestion {
  id: number;
  r10: number;
  r100: number;
  r10u: number;
  r100u: number;
  rr10: number;
  regs: number;
  ms: number;
}

function metricsOf(list: PerQuestion[]): Metrics {
  const n = list.length || 1;
  const sum = (k: keyof PerQuestion) => list.reduce((s, x) => s + x[k], 0) / n;
  return { r10: sum('r10'), r100: sum('r100'), mrr10: sum('rr10'), r10u: sum('r10u'), r100u: sum('r100u'), regs: sum('regs'), ms: sum('ms'), n: list.length };
}

/** Share of the cited articles found among `ids` (an article is found when any edition's unit is). */
export function citedRecall(cited: number[][], ids: number[]): number {
  const got = new Set(ids);
  return cited.filter((units) => units.some((id) => got.has(id))).length / (cited.length || 1);
}

async function run(
  ctx: AppContext,
  qs: Question[],
  mode: SearchMode,
  regId: 'all' | null,
  // expand: null = no shipped table: the held-out numbers must not see a table fitted on all of train
  options: (q: Question) => SmartSearchOptions = () => ({ expand: null, parentLists: null }),
): Promise<Metrics> {
  const per: PerQuestion[] = [];
  for (const q of qs) {
    const t = performance.now();
    // the shipped reranker and its citation counts were fitted with these questions: only a row that passes its own is reranked
    const out = await smartSearch(ctx, { query: q.question, reg_id: regId, top_k: 100, mode, edition: editionScope }, { rerank: null, priors: null, ...options(q) });
    const ms = performance.now() - t;
    const ids = out.results.map((r) => r.unit_id);
    const gold = new Set(q.gold);
    const unitHit = (k: number) => ids.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
    const hit = (k: number) => citedRecall(q.cited, ids.slice(0, k));
    const first = ids.slice(0, 10).findIndex((id) => gold.has(id));
    per.push({ id: q.id, r10: hit(10), r100: hit(100), r10u: unitHit(10), r100u: unitHit(100), rr10: first >= 0 ? 1 / (first + 1) : 0, regs: out.selected_regs.length, ms });
  }
  const final = per.filter((x) => stardSplitOf(x.id) === 'heldout' && !tuneSliceOf(x.id));
  return { ...metricsOf(per), ...(final.length && final.length < per.length ? { final: metricsOf(final) } : {}) };
}

/** `--edition all`: old editions searched too (the default searches the editions in force) */
let editionScope: 'current' | 'all' = 'current';

function row(name: string, m: Metrics): string {
  const main = `${name.padEnd(38)} R@10 ${m.r10.toFixed(4)}  R@100 ${m.r100.toFixed(4)}  MRR@10 ${m.mrr10.toFixed(4)}  规程数 ${m.regs.toFixed(1).padStart(7)}  ${m.ms.toFixed(1)} ms/问  （按单元 R@10 ${m.r10u.toFixed(4)} R@100 ${m.r100u.toFixed(4)}）`;
  const f = m.final;
  return f ? `${main}\n${''.padEnd(40)}└ 未调参半（${f.n} 题）R@10 ${f.r10.toFixed(4)}  R@100 ${f.r100.toFixed(4)}  MRR@10 ${f.mrr10.toFixed(4)}` : main;
}

export default async function stard(args: string[]): Promise<void> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  const trainFile = path.join(sharedDir(), 'data', 'stard', 'train.jsonl');
  if (!fs.existsSync(laws) || !fs.existsSync(trainFile)) {
    console.log(`[skip] 缺少共享数据: ${laws} 或 ${trainFile}（可设置 GRIDCODE_SHARED_DIR）`);
    return;
  }
  const opt = (name: string, def: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : def;
  };
  const folds = opt('folds', 5);
  editionScope = args.includes('--edition-all') ? 'all' : 'current';
  const limit = opt('limit', 0);
  const dataDir = process.env.GRIDCODE_EVAL_DATA_DIR ?? path.join(projectRoot(), '.cache', 'eval', 'stard');
  const ctx = createAppContext({ dataDir });
  try {
    await ensureImported(ctx, laws);
    if (ctx.embedder().available()) {
      // a corpus imported before this model existed (or by another model) gets its vectors now
      const t = performance.now();
      let last = 0;
      const r = await embedLibrary(ctx, (e) => {
        if (e.done - last >= 500 || e.done === e.total) {
          last = e.done;
          process.stderr.write(`  向量 ${e.done}/${e.total}\n`);
        }
      });
      if (r.vectors) console.log(`补齐向量 ${r.vectors} 条（${ctx.embedder().status().model_id}），${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const raw = readStardQuestions(trainFile);
    const resolved = resolveGold(ctx, laws, raw);
    let qs = resolved.filter((q) => q.gold.length > 0);
    console.log(`问题 ${raw.length} 条，其中 ${qs.length} 条的相关条文能在法规库中定位（${raw.length - qs.length} 条无法定位，不计入）`);
    if (limit > 0) qs = qs.slice(0, limit);
    const hasModel = ctx.embedder().available();

    const total = (ctx.db.prepare('SELECT COUNT(*) AS n FROM search_items').get() as { n: number }).n;
    const dfCache = new Map<string, number>();
    const idf = (t: string) => {
      let d = dfCache.get(t);
      if (d === undefined) {
        d = documentFrequencies(ctx.db, [t]).get(t) ?? 0;
        dfCache.set(t, d);
      }
      return idfOf(d, total);
    };
    const unitText = ctx.db.prepare('SELECT text FROM reg_units WHERE id = ?');
    const pairOf = (q: Question): TrainPair => ({
      question: q.question,
      passages: q.gold.map((id) => ({ id, text: (unitText.get(id) as { text: string }).text })),
    });

    // Honest held-out numbers. Every learned part is fitted without the evaluated questions:
    // - the model (models/gridcode-zh-v1) was trained on the "train" part of this hash split only
    //   (scripts/train/train_gridcode_zh.py, same hash);
    // - the expansion table is refitted here, exactly as scripts/learn-expansion.ts fits the shipped
    //   one, but on the train part only (the shipped table is fitted on all of train.jsonl, so it
    //   has seen the held-out questions and is not used for these rows).
    // Settings are chosen with --tune on one half of the held-out fifth (independent hash); the
    // other half is never tuned on and is printed under every row of the full held-out run.
    const tune = args.includes('--tune');
    const slice = qs.filter((q) => stardSplitOf(q.id) === 'heldout' && (!tune || tuneSliceOf(q.id)));
    const fitOn = resolved.filter((q) => q.gold.length > 0 && stardSplitOf(q.id) === 'train');
    const t0 = performance.now();
    const expandTrainPart = tableExpander(fitExpansionTable(fitOn.map(pairOf), idf));
    const status = ctx.embedder().status();
    console.log(
      `\n-- ${tune ? '调参半（留出集的一半，用于选择设置）' : '留出集（模型与扩展表都未见过）'}：${slice.length} 题；` +
        `扩展表由其余 ${fitOn.length} 题拟合（${((performance.now() - t0) / 1000).toFixed(1)} s）；嵌入模型：${status.model_id ?? '无'} --`,
    );
    // known questions (the shipped ones are all of train.jsonl): here the train part only
    const knownTrainPart = knownQuestionLists(ctx, fitOn.map((q) => ({ question: q.question, relevant: q.relevant })), 'eval-train-part');
    const priorsTrainPart = knownQuestionPriors(ctx, fitOn.map((q) => ({ question: q.question, relevant: q.relevant })), 'eval-train-part');
    const withTable = () => ({ expand: expandTrainPart, parentLists: knownTrainPart });
    // the learned reranker, cross-fitted: a question of one half of the held-out fifth is reranked by a
    // model fitted on the other half only (eval/stard-rerank.ts; the shipped one is fitted on both halves)
    const honest = () => ({ ...withTable(), priors: priorsTrainPart });
    const heldout = qs.filter((q) => stardSplitOf(q.id) === 'heldout');
    const tr = performance.now();
    const groups = await rerankGroups(ctx, honest, heldout, RERANK_POOL, RERANK_CANDIDATES);
    const cross = crossFitted(groups, tuneSliceOf, { pool: RERANK_POOL, candidates: RERANK_CANDIDATES });
    console.log(`重排模型：两半交叉拟合（各 ${groups.filter((g) => tuneSliceOf(g.id)).length} / ${groups.filter((g) => !tuneSliceOf(g.id)).length} 题，前 ${RERANK_POOL} 个候选，${((performance.now() - tr) / 1000).toFixed(1)} s）`);
    const withRerank = (q: Question) => ({ ...honest(), rerank: cross.modelFor(q.id) });
    const tableOnly = () => ({ expand: expandTrainPart, parentLists: null });
    const explore = args.includes('--explore');
    // --default-only: just the shipped default's row (the other rows do not depend on the learned parts)
    if (args.includes('--misses') && tune) {
      // the tuning half only: which questions miss, and what ranks first instead
      const labelOf = ctx.db.prepare('SELECT u.label, r.title FROM reg_units u JOIN regulations r ON r.reg_id = u.reg_id WHERE u.id = ?');
      const name = (id: number) => {
        const r = labelOf.get(id) as { label: string; title: string } | undefined;
        return r ? `${r.title.slice(0, 16)}${r.label}` : String(id);
      };
      for (const q of slice) {
        const out = await smartSearch(ctx, { query: q.question, reg_id: 'all', top_k: 10, mode: 'hybrid' }, withTable());
        const ids = out.results.map((r) => r.unit_id);
        if (ids.some((id) => q.gold.includes(id))) continue;
        console.log(`MISS ${q.question}\n  want ${q.gold.slice(0, 3).map(name).join(' / ')}\n  got  ${ids.slice(0, 3).map(name).join(' / ')}`);
      }
      return;
    }
    if (args.includes('--default-only')) {
      console.log(row('默认检索（含学习重排，用户实际得到的做法）· all', await run(ctx, slice, 'hybrid', 'all', withRerank)));
      console.log(row('默认，不含重排（上一版默认）· all', await run(ctx, slice, 'hybrid', 'all', withTable)));
      return;
    }
    console.log(row('默认检索（含学习重排，用户实际得到的做法）· all', await run(ctx, slice, 'hybrid', 'all', withRerank)));
    console.log(row('默认，不含重排（上一版默认）· all', await run(ctx, slice, 'hybrid', 'all', withTable)));
    if (!explore) console.log(row('BM25（纯关键词，无扩展）· all', await run(ctx, slice, 'lexical', 'all')));
    if (hasModel && !explore) {
      console.log(row('纯向量 · all', await run(ctx, slice, 'vector', 'all')));
      console.log(row('关键词 + 向量（无扩展表）· all', await run(ctx, slice, 'hybrid', 'all')));
    } else if (!hasModel) {
      console.log(`纯向量: 跳过（${status.message}）`);
    }
    if (!explore) console.log(row('关键词 + 扩展表（无向量）· all', await run(ctx, slice, 'lexical', 'all', tableOnly)));
    if (explore) {
      // candidate changes, each on top of the default (choose with --tune, confirm once on held-out)
      console.log(row('默认，不含已知问句', await run(ctx, slice, 'hybrid', 'all', tableOnly)));
      const base = { ...ctx.config.search };
      const variants: [string, Partial<typeof base>][] = [
        ...[0.8, 0.5].flatMap((f) => [100, 150, 200].map((c): [string, Partial<typeof base>] => [`local ${f} cand ${c}`, { localRegFactor: f, candidates: c }])),
      ];
      for (const [name, patch] of variants) {
        Object.assign(ctx.config.search, base, patch);
        console.log(row(`默认 + ${name}`, await run(ctx, slice, 'hybrid', 'all', withTable)));
      }
      Object.assign(ctx.config.search, base);
    }
    if (!tune && !explore) {
      // for reference only: the shipped table and known questions come from every train.jsonl question, these included
      console.log(row('（参考，非留出）附带的扩展表与已知问句 · all', await run(ctx, slice, 'hybrid', 'all', () => ({}))));
    }
    if (args.includes('--model-only')) return;

    const gridOnly = args.includes('--grid-only');
    const skipBase = gridOnly || args.includes('--learned-only');
    console.log('\n-- 无学习（直接检索）--');
    if (!skipBase) console.log(row('lexical · all', await run(ctx, qs, 'lexical', 'all')));
    if (!skipBase) console.log(row('lexical · auto', await run(ctx, qs, 'lexical', null)));
    if (hasModel && !skipBase) {
      console.log(row('vector · all', await run(ctx, qs, 'vector', 'all')));
      console.log(row('hybrid · all', await run(ctx, qs, 'hybrid', 'all')));
      console.log(row('hybrid · auto', await run(ctx, qs, 'hybrid', null)));
    } else {
      console.log(`vector / hybrid: 跳过（${ctx.embedder().status().message}）`);
    }

    // k-fold: fold = id mod k; the model evaluated on fold i is fitted on the other folds only
    // --grouped: all questions whose first relevant article is the same share a fold, so held-out
    // questions never have a near-duplicate about the same article in training (harder, stricter)
    const grouped = args.includes('--grouped');
    const foldOf = (q: Question) => (grouped ? Math.min(...q.gold) % folds : q.id % folds);
    if (grouped) console.log('按条文分组交叉验证（--grouped）');
    const models = new Map<number, { tm: TranslationModel; qa: QaMemory }>();
    const tFolds = performance.now();
    for (let f = 0; f < folds; f++) {
      const train = resolved.filter((q) => q.gold.length > 0 && foldOf(q) !== f).map(pairOf);
      models.set(f, { tm: TranslationModel.learn(train, idf), qa: new QaMemory(train, idf) });
    }
    console.log(`\n-- 学习问句→法条关联（${folds} 折交叉验证，留出折上的结果；拟合 ${((performance.now() - tFolds) / 1000).toFixed(1)} s）--`);
    const nExpand = opt('expand', 10);
    const nNeighbours = opt('neighbours', 20);
    const expandOnly = (q: Question): SmartSearchOptions => {
      const m = models.get(foldOf(q))!;
      return { expand: (tokens) => m.tm.expand(tokens, nExpand) };
    };
    const learned = (q: Question): SmartSearchOptions => {
      const m = models.get(foldOf(q))!;
      return {
        expand: (tokens) => m.tm.expand(tokens, nExpand),
        parentLists: (query) => ({ qa: m.qa.nearest(query, 100, nNeighbours).map((x) => String(x.id)) }),
      };
    };
    if (!gridOnly) console.log(row('lexical + 翻译扩展 · all', await run(ctx, qs, 'lexical', 'all', expandOnly)));
    const fullAll = await run(ctx, qs, 'lexical', 'all', learned);
    console.log(row('lexical + 翻译扩展 + 已知问句 · all', fullAll));
    const fullAuto = gridOnly ? fullAll : await run(ctx, qs, 'lexical', null, learned);
    console.log(row('lexical + 翻译扩展 + 已知问句 · auto', fullAuto));
    console.log(`auto/all Recall@100 = ${(fullAuto.r100 / (fullAll.r100 || 1)).toFixed(4)}（目标 >= 0.98）；auto 平均检索 ${fullAuto.regs.toFixed(1)} 部规程（all = ${fullAll.regs.toFixed(0)}）`);
    if (hasModel) console.log(row('hybrid + 学习 · all', await run(ctx, qs, 'hybrid', 'all', learned)));
    if (args.includes('--auto-grid') || gridOnly) {
      const base = { ...ctx.config.search };
      for (const keep of [0.02, 0.05]) {
        for (const mass of [0.6, 0.7, 0.8, 0.9]) {
          ctx.config.search.autoKeepRatio = keep;
          ctx.config.search.autoMass = mass;
          const m = await run(ctx, qs, 'lexical', null, learned);
          console.log(row(`auto keep ${keep} mass ${mass}`, m), ` auto/all ${(m.r100 / (fullAll.r100 || 1)).toFixed(4)}`);
        }
      }
      Object.assign(ctx.config.search, base);
    }
  } finally {
    await ctx.close();
  }
}
