/**
 * `npm run eval -- editions`: article alignment between editions (issue 25) on the statute pairs of
 * ../shared/data/laws (files of one statute whose names differ by the date, taken as consecutive
 * editions; about one statute in five held out by a hash of its name, see editions-pairs.ts).
 *
 * Each pair is compared as the library compares two editions of one regulation (`editions: true`: same
 * title, so one family); the unrelated-statute check below passes no such hint.
 *
 * References, written before the aligner was run on them:
 * - exact text: an old article whose text (label aside) occurs exactly once in each edition must be
 *   paired with that article (same or moved) — "articles whose text reappears paired with it", target ≥ 99 %;
 * - a hand-checked sample (eval/data/editions-gold.tsv): articles drawn at random among those with no
 *   exact counterpart, each judged by reading both editions: its counterpart (modified) or none
 *   (deleted / added); undecidable rewrites are marked and not scored — target: modified paired right ≥ 95 %
 *   (a split part / merged article counts with the article it is shown split from / merged into; the strict
 *   figure — pairs only — is printed too, and so are counts per kind: renumbered, light edit, heavy rewrite);
 * - bad input: every edition against itself (all same) and against an unrelated statute (pairs that are
 *   not added/deleted there are nonsense pairs; the rate per 100 articles is reported).
 * `--show` prints the sampled articles the aligner gets wrong (tuning slice only; --show-held for all).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sharedDir } from '../src/core/common/paths';
import { compareUnits } from '../src/core/editions/compare';
import { editionUnits } from '../src/core/editions/units';
import type { EditionComparison, StoredUnit } from '../src/core/editions/types';
import { fileUnits, statutePairs, type StatutePair } from './editions-pairs';

interface GoldRow {
  pair: string;
  side: 'old' | 'new';
  article: string;
  /** acceptable counterparts; [] = none; null = not scored */
  answers: string[] | null;
}

function readGold(file: string): GoldRow[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [pair, side, article, answer] = l.split('\t');
      return { pair, side: side as 'old' | 'new', article, answers: answer === '?' ? null : answer === '-' ? [] : answer.split('|') };
    });
}

/** Dice over character bigrams (plain, unweighted): how much of the text two versions share. */
function wordSimilarity(a: string, b: string): number {
  const grams = (t: string) => new Set(Array.from({ length: Math.max(0, t.length - 1) }, (_, k) => t.slice(k, k + 2)));
  const x = grams(a);
  const y = grams(b);
  let both = 0;
  for (const g of x) if (y.has(g)) both++;
  return x.size + y.size ? (2 * both) / (x.size + y.size) : 1;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '—');

interface SliceStats {
  pairs: number;
  articles: number;
  reappearing: number;
  reappearingPaired: number;
  modified: { right: number; total: number; predicted: number; predictedRight: number; strictRight: number };
  byKind: Map<Kind, { right: number; total: number }>;
  deleted: { tp: number; gold: number; predicted: number };
  added: { tp: number; gold: number; predicted: number };
  misses: string[];
  ms: number[];
}

function emptyStats(): SliceStats {
  return {
    pairs: 0,
    articles: 0,
    reappearing: 0,
    reappearingPaired: 0,
    modified: { right: 0, total: 0, predicted: 0, predictedRight: 0, strictRight: 0 },
    byKind: new Map(KINDS.map((k) => [k, { right: 0, total: 0 }])),
    deleted: { tp: 0, gold: 0, predicted: 0 },
    added: { tp: 0, gold: 0, predicted: 0 },
    misses: [],
    ms: [],
  };
}

/**
 * The article the comparison gives as `article`'s counterpart: its pair's other side; a split part
 * (new, 拆分自) or a merged article (old, 并入) without a pair of its own counts with the article it is
 * marked split from / merged into — that is what the user is shown.
 */
function counterpartOf(cmp: EditionComparison, side: 'old' | 'new', article: string): string | null | undefined {
  const other = side === 'old' ? 'new' : 'old';
  const pair = cmp.pairs.find((p) => p[side]?.article === article);
  if (!pair) return undefined;
  if (!pair[other] && pair.relation && pair.related?.length === 1) return pair.related[0];
  return pair[other]?.article ?? null;
}

/** The same, strictly: the pair's other side only (split parts and merged articles count as unpaired). */
function pairedWith(cmp: EditionComparison, side: 'old' | 'new', article: string): string | null {
  const other = side === 'old' ? 'new' : 'old';
  return cmp.pairs.find((p) => p[side]?.article === article)?.[other]?.article ?? null;
}

/** Kinds of a hand-checked modified article, from the texts alone (not from the aligner's answer). */
const KINDS = ['renumbered', 'same number', 'light edit (similarity ≥ 0.5)', 'heavy rewrite (< 0.5)'] as const;
type Kind = (typeof KINDS)[number];

function scorePair(p: StatutePair, oldRows: StoredUnit[], newRows: StoredUnit[], gold: GoldRow[], s: SliceStats): EditionComparison {
  const t0 = performance.now();
  // consecutive editions of one statute: the library knows them as one regulation's editions (same title)
  const cmp = compareUnits(oldRows, newRows, { editions: true });
  s.ms.push(performance.now() - t0);
  s.pairs++;
  const oldUnits = editionUnits(oldRows, cmp.level);
  const newUnits = editionUnits(newRows, cmp.level);
  s.articles += oldUnits.length + newUnits.length;
  // exact-text reference: bodies occurring exactly once on each side
  const count = (units: typeof oldUnits) => {
    const m = new Map<string, number>();
    for (const u of units) m.set(u.body, (m.get(u.body) ?? 0) + 1);
    return m;
  };
  const oc = count(oldUnits);
  const nc = count(newUnits);
  for (const u of oldUnits) {
    if (!u.body || oc.get(u.body) !== 1 || nc.get(u.body) !== 1) continue;
    const target = newUnits.find((n) => n.body === u.body)!;
    s.reappearing++;
    if (counterpartOf(cmp, 'old', u.label) === target.label) s.reappearingPaired++;
    else s.misses.push(`[exact] ${p.key} ${u.label} → 应为 ${target.label}，实为 ${counterpartOf(cmp, 'old', u.label) ?? '无'}`);
  }
  // hand-checked sample
  for (const g of gold) {
    if (g.answers === null) continue;
    const got = counterpartOf(cmp, g.side, g.article);
    if (got === undefined) {
      s.misses.push(`[gold] ${p.key} ${g.side} ${g.article}: 对比结果中没有这一条`);
      continue;
    }
    const none = g.side === 'old' ? s.deleted : s.added;
    if (g.answers.length) {
      s.modified.total++;
      const right = got !== null && g.answers.includes(got);
      if (right) s.modified.right++;
      const strict = pairedWith(cmp, g.side, g.article);
      if (strict !== null && g.answers.includes(strict)) s.modified.strictRight++;
      // kinds by the reference pair's own texts
      const mine = (g.side === 'old' ? oldUnits : newUnits).find((u) => u.label === g.article);
      const theirs = (g.side === 'old' ? newUnits : oldUnits).find((u) => u.label === g.answers![0]);
      if (mine && theirs) {
        const sim = wordSimilarity(mine.body, theirs.body);
        for (const k of [mine.number !== theirs.number ? 'renumbered' : 'same number', sim >= 0.5 ? 'light edit (similarity ≥ 0.5)' : 'heavy rewrite (< 0.5)'] as Kind[]) {
          const b = s.byKind.get(k)!;
          b.total++;
          if (right) b.right++;
        }
      }
      if (!right) s.misses.push(`[modified] ${p.key} ${g.side} ${g.article}: 应为 ${g.answers.join('/')}，实为 ${got ?? (g.side === 'old' ? '删除' : '新增')}`);
    } else {
      none.gold++;
      if (got === null) none.tp++;
      else s.misses.push(`[${g.side === 'old' ? 'deleted' : 'added'}] ${p.key} ${g.side} ${g.article}: 应为${g.side === 'old' ? '删除' : '新增'}，实配 ${got}`);
    }
    if (got === null) none.predicted++;
    else {
      s.modified.predicted++;
      if (g.answers.includes(got)) s.modified.predictedRight++;
    }
  }
  return cmp;
}

function report(name: string, s: SliceStats): void {
  const ms = [...s.ms].sort((a, b) => a - b);
  const q = (f: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(f * ms.length))].toFixed(1) : '—');
  console.log(`\n[${name}] ${s.pairs} 对版本，${s.articles} 条`);
  console.log(`  原文重现的条文被配对：${s.reappearingPaired}/${s.reappearing} = ${pct(s.reappearingPaired, s.reappearing)}（目标 ≥ 99 %）`);
  const m = s.modified;
  console.log(`  人工核对样本 · 修改（有对应条）：配对正确 ${m.right}/${m.total} = ${pct(m.right, m.total)}（召回；目标 ≥ 95 %），配对精确率 ${m.predictedRight}/${m.predicted} = ${pct(m.predictedRight, m.predicted)}`);
  console.log(`    不计拆分/合并关系（只看配对）：${m.strictRight}/${m.total} = ${pct(m.strictRight, m.total)}`);
  console.log(`    按类型：${[...s.byKind].map(([k, b]) => `${k} ${b.right}/${b.total}`).join('，')}`);
  console.log(`  人工核对样本 · 删除：召回 ${s.deleted.tp}/${s.deleted.gold} = ${pct(s.deleted.tp, s.deleted.gold)}，精确率 ${s.deleted.tp}/${s.deleted.predicted} = ${pct(s.deleted.tp, s.deleted.predicted)}`);
  console.log(`  人工核对样本 · 新增：召回 ${s.added.tp}/${s.added.gold} = ${pct(s.added.tp, s.added.gold)}，精确率 ${s.added.tp}/${s.added.predicted} = ${pct(s.added.tp, s.added.predicted)}`);
  console.log(`  对比耗时（每对，词级差异在内）：中位 ${q(0.5)} ms，p95 ${q(0.95)} ms，最长 ${q(1)} ms`);
}

export default async function run(args: string[]): Promise<void> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  const goldFile = path.join(path.dirname(new URL(import.meta.url).pathname), 'data', 'editions-gold.tsv');
  if (!fs.existsSync(laws)) {
    console.log(`[skip] 缺少共享数据: ${laws}（可设置 GRIDCODE_SHARED_DIR）`);
    return;
  }
  const pairs = statutePairs(laws);
  const gold = readGold(goldFile);
  const known = new Set(pairs.map((p) => p.key));
  const stray = gold.filter((g) => !known.has(g.pair));
  if (stray.length) console.log(`注意：${stray.length} 条人工核对记录找不到对应的版本对（${stray[0].pair}）`);
  const tuning = emptyStats();
  const held = emptyStats();
  const kinds = { same: 0, moved: 0, modified: 0, added: 0, deleted: 0 };
  let split = 0;
  let merged = 0;
  let selfBad = 0;
  let selfTotal = 0;
  let unrelatedPairs = 0;
  let unrelatedArticles = 0;
  const parsed: { p: StatutePair; oldRows: StoredUnit[]; newRows: StoredUnit[] }[] = [];
  for (const p of pairs) {
    const oldRows = fileUnits(p.old.file);
    const newRows = fileUnits(p.new.file);
    parsed.push({ p, oldRows, newRows });
    const s = p.heldOut ? held : tuning;
    const cmp = scorePair(p, oldRows, newRows, gold.filter((g) => g.pair === p.key), s);
    for (const k of Object.keys(kinds) as (keyof typeof kinds)[]) kinds[k] += cmp.summary[k];
    split += cmp.pairs.filter((x) => x.relation === 'split').length;
    merged += cmp.pairs.filter((x) => x.relation === 'merged').length;
    // a regulation against itself: everything the same
    const self = compareUnits(newRows, newRows, { words: false });
    selfTotal += self.pairs.length;
    selfBad += self.pairs.filter((x) => x.change !== 'same').length;
  }
  // unrelated statutes: each newer edition against the next statute's (a different law)
  for (let k = 0; k < parsed.length; k++) {
    const a = parsed[k];
    const b = parsed.slice(k + 1).concat(parsed.slice(0, k)).find((x) => x.p.name !== a.p.name)!;
    const cmp = compareUnits(a.newRows, b.newRows, { words: false });
    unrelatedPairs += cmp.pairs.filter((x) => x.old && x.new).length;
    unrelatedArticles += cmp.pairs.length;
  }
  report('调参部分', tuning);
  report('留出部分（held-out）', held);
  console.log(`\n全部版本对的变化：相同 ${kinds.same}，移动 ${kinds.moved}，修改 ${kinds.modified}，新增 ${kinds.added}，删除 ${kinds.deleted}；其中拆分 ${split} 条、合并 ${merged} 条`);
  console.log(`与自身对比：${selfTotal - selfBad}/${selfTotal} 条为“相同”（应为全部）`);
  console.log(`两部无关法规对比：配成对的 ${unrelatedPairs} 条 / ${unrelatedArticles} 条 = 每百条 ${((100 * unrelatedPairs) / Math.max(1, unrelatedArticles)).toFixed(2)} 对（应接近 0）`);
  if (args.includes('--show') || args.includes('--show-held')) {
    console.log('\n错误明细（调参部分）：');
    for (const m of tuning.misses) console.log(`  ${m}`);
    if (args.includes('--show-held')) {
      console.log('\n错误明细（留出部分）：');
      for (const m of held.misses) console.log(`  ${m}`);
    }
  }
}
