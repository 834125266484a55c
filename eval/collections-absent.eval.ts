/**
 * Answers that know their limits (`npm run eval -- collections-absent [--verbose]`).
 *
 * eval/data/collections-absent.json (written before any run; held-out = index % 4 == 3 of each list):
 * 1. out-of-collection questions: dishes HowToCook does not hold (`红烧排骨`, `宫保虾球`: they share
 *    characters and ingredients with recipes it does hold) and matters the power / labour statutes do
 *    not regulate (`铁路线路两侧…`, `公务员辞职…`). Right: not_found or low_evidence; a lock is a wrong lock.
 * 2. topic switches in a session: after a locked first question, `那…呢` / `换个问题，…` naming another
 *    subject is a new question (lock the new document, or not_found when it is absent), never a
 *    follow-up of the old lock; follow-ups without a subject of their own stay on the lock (controls).
 * 3. STARD cross-domain: real questions of one STARD domain (tuning / held-out parts only) asked to a
 *    domain collection holding none of their statutes (its own data dir; the statute copies of
 *    eval/collections-stard.eval.ts).
 * Prints per domain: right (not_found / low_evidence), wrong-lock, clarify, not_found share.
 * 4. round 2 (all held out), round 3 (stop 33; index % 3 == 2 held out) and round 4 (stop 34; all held out) sets
 *    of 1 and 2, written before running.
 * 5. stop 37: a tuning slice (round7_tuning, every item tuned on) and a seventh set (round7, every item held
 *    out), each with `inside` questions the collections DO answer, asked with everyday words (a not_found there
 *    is a false refusal).
 * 6. stop 38: round8_tuning (tuned on) and round8 (every item held out), same families as stop 37, switches
 *    in all four collections (everyday-laws too).
 * 7. stop 39: round9_tuning (tuned on) and round9 (every item held out), same families, plus questions written
 *    by hand for the STARD domain collections: `stard_absent` (a matter another domain's statutes govern; a
 *    lock is a wrong lock) and `stard_inside` (the domain's own matter in everyday words; not_found is a false refusal).
 * 8. stop 40: round10 (every item held out): power / labour matters in everyday words and `inside` questions
 *    asked with words the statutes do not use.
 * Uses the data dirs of the howtocook and collections-laws evaluations (imports there are no-ops when
 * unchanged) and one of its own for the STARD pairs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import { importSet } from './collections-laws.eval';
import { STARD_DOMAINS, learnPartLayVocabulary, questionsOf, stageDomain, stardPartOf } from './collections-stard.eval';
import { setLayVocabulary } from '../src/core/collections/lay-terms';
import { readStardQuestions } from './stard.eval';
import { setKnownQuestions } from '../src/core/collections/known-answers';
import { loadShippedKnownQuestions } from '../src/core/regulations/known-questions';

interface AbsentItem {
  q: string;
  subject: string;
}
interface SessionItem {
  collection: string;
  setup: string[];
  ask: string;
  expect: 'lock' | 'follow_up' | 'absent';
  title?: string;
  subject?: string;
}
interface AbsentSet {
  recipes: AbsentItem[];
  power: AbsentItem[];
  labour: AbsentItem[];
  sessions: SessionItem[];
  stard_cross: { pairs: [string, string][] };
  /** second held-out set (round 2), every item held out */
  heldout_v2?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[] };
  /** third set (stop 33), index % 3 == 2 held out */
  round3?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[] };
  /** fourth set (stop 34), every item held out */
  round4?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[] };
  /** fifth set (stop 35), every item held out; `inside`: questions the collections answer (a not_found is a false refusal) */
  round5?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[]; inside?: InsideItem[] };
  round6_tuning?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[] };
  round6?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[] };
  /** seventh set (stop 37): a tuning slice and a set where every item is held out, both with `inside` questions */
  round7_tuning?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[]; inside?: InsideItem[] };
  round7?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[]; inside?: InsideItem[] };
  /** eighth set (stop 38): a tuning slice and a set where every item is held out, both with `inside` questions */
  round8_tuning?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[]; inside?: InsideItem[] };
  round8?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[]; inside?: InsideItem[] };
  /** a second stop-38 tuning slice of absent dishes, written after the stop's first recipe changes */
  round8_tuning_b?: { recipes: AbsentItem[]; power: AbsentItem[]; labour: AbsentItem[]; sessions: SessionItem[] };
  /** ninth set (stop 39): a tuning slice and a set where every item is held out, with STARD-domain questions */
  round9_tuning?: NinthSet;
  round9?: NinthSet;
  /** a second stop-39 tuning slice, written after the stop's first change */
  round9_tuning_b?: NinthSet;
  round9_tuning_c?: NinthSet;
  /** tenth set (stop 40): every item held out; power / labour matters and `inside` questions in words the statutes do not use */
  round10?: NinthSet;
}
interface NinthSet {
  recipes: AbsentItem[];
  power: AbsentItem[];
  labour: AbsentItem[];
  sessions: SessionItem[];
  inside?: InsideItem[];
  /** `collection` is a STARD domain name (ip, criminal, land, labour, commerce) */
  stard_absent?: (AbsentItem & { collection: string })[];
  stard_inside?: InsideItem[];
}
interface InsideItem {
  collection: string;
  q: string;
}

/** Which items of a list are held out: every 4th (rounds 1), all (round 2), every 3rd (round 3). */
type HeldOut = (i: number) => boolean;
const EVERY_FOURTH: HeldOut = (i) => i % 4 === 3;

type Ask = Awaited<ReturnType<typeof invokeOperation<'collections.ask'>>>;

interface Row {
  label: string;
  heldOut: boolean;
  ok: boolean;
  wrong: boolean;
  clarify: boolean;
  notFound: boolean;
  got: string;
  /** a not_found answer naming exactly the item's subject (「红烧排骨」, not 「红烧」) */
  named?: boolean;
}

function pct(n: number, d: number): string {
  return d ? `${((100 * n) / d).toFixed(1)}%` : '-';
}

function describe(a: Ask): string {
  return `${a.kind}/${a.decision ?? '-'}${a.lock.title ? ` lock=${a.lock.title}` : ''}${a.decision === 'ambiguous' ? ` [${a.candidates.map((c) => c.title).join('、')}]` : ''} (${a.retrieval?.rule ?? '-'}) ${(a.answer ?? '').split('\n')[0].slice(0, 60)}`;
}

/** An absent subject is answered right when nothing is locked for it and it is not answered from an old lock. */
function absentRow(label: string, heldOut: boolean, a: Ask): Row {
  const decision = a.decision as string | null;
  const refused = decision === 'not_found' || decision === 'low_evidence';
  const wrong = decision === 'locked' || a.kind === 'follow_up' || a.kind === 'answer';
  return { label, heldOut, ok: refused && !wrong, wrong, clarify: decision === 'ambiguous', notFound: decision === 'not_found', got: describe(a) };
}

export function printAbsent(label: string, rs: Row[]): void {
  if (!rs.length) return;
  const c = (f: (r: Row) => boolean) => pct(rs.filter(f).length, rs.length).padStart(6);
  console.log(`${label.padEnd(26)} n=${String(rs.length).padStart(4)}  right ${c((r) => r.ok)}  wrong-lock ${c((r) => r.wrong)}  clarify ${c((r) => r.clarify)}  not_found ${c((r) => r.notFound)}`);
}

function printParts(label: string, rs: Row[]): void {
  printAbsent(label, rs);
  printAbsent('  tuning', rs.filter((r) => !r.heldOut));
  printAbsent('  held-out', rs.filter((r) => r.heldOut));
}

async function absentList(ctx: AppContext, collection: string, items: AbsentItem[], label: string, verbose: boolean, heldOutAt: HeldOut = EVERY_FOURTH): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, item] of items.entries()) {
    const a = await invokeOperation(ctx, 'collections.ask', { collection, question: item.q });
    rows.push({ ...absentRow(item.q, heldOutAt(i), a), named: a.decision === 'not_found' && !!item.subject && (a.answer ?? '').includes(`「${item.subject}」`) });
  }
  printParts(label, rows);
  const said = rows.filter((r) => r.notFound);
  if (said.length && label.startsWith('recipes')) console.log(`  not_found naming the whole subject: ${said.filter((r) => r.named).length} / ${said.length}`);
  for (const r of rows) if ((!r.ok && !r.heldOut) || verbose) console.log(`    ${r.ok ? 'ok  ' : 'MISS'}${r.heldOut ? ' (held-out)' : ''} ${r.label} → ${r.got}`);
  return rows;
}

async function sessions(ctxOf: (collection: string) => AppContext | null, items: SessionItem[], verbose: boolean, heldOutAt: HeldOut = EVERY_FOURTH): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, s] of items.entries()) {
    const ctx = ctxOf(s.collection);
    if (!ctx) continue;
    const ask = (question: string, session?: string) => invokeOperation(ctx, 'collections.ask', { collection: s.collection, question, session_id: session });
    let session: string | undefined;
    for (const q of s.setup) session = (await ask(q, session)).session_id;
    const a = await ask(s.ask, session);
    const label = `[${s.collection}] ${s.setup.join(' → ')} → ${s.ask} (want ${s.expect}${s.title ? ` ${s.title}` : ''})`;
    const heldOut = heldOutAt(i);
    if (s.expect === 'absent') rows.push(absentRow(label, heldOut, a));
    else {
      const onTitle = a.lock.state === 'locked' && a.lock.title === s.title;
      const ok = s.expect === 'lock' ? onTitle && a.kind === 'answer' : onTitle && a.kind === 'follow_up';
      rows.push({ label, heldOut, ok, wrong: a.lock.state === 'locked' && !onTitle, clarify: a.decision === 'ambiguous', notFound: a.decision === ('not_found' as string), got: describe(a) });
    }
  }
  const absent = rows.filter((_, i) => items[i].expect === 'absent');
  printParts('topic switches (all)', rows);
  printAbsent('  to an absent subject', absent);
  printAbsent('  to a held subject', rows.filter((_, i) => items[i].expect === 'lock'));
  printAbsent('  controls (follow-ups)', rows.filter((_, i) => items[i].expect === 'follow_up'));
  for (const r of rows) if ((!r.ok && !r.heldOut) || verbose) console.log(`    ${r.ok ? 'ok  ' : 'MISS'}${r.heldOut ? ' (held-out)' : ''} ${r.label} → ${r.got}`);
  return rows;
}

/** Questions a collection answers, asked with everyday words: a not_found is a false refusal. */
async function insideList(ctxOf: (collection: string) => AppContext, items: InsideItem[], label: string, verbose: boolean, heldOut: boolean): Promise<void> {
  if (!items.length) return;
  console.log(`\n## questions the collections answer, asked with everyday words (${label}; a not_found is a false refusal)`);
  const rows: { q: string; c: string; notFound: boolean; locked: boolean; got: string }[] = [];
  for (const it of items) {
    const a = await invokeOperation(ctxOf(it.collection), 'collections.ask', { collection: it.collection, question: it.q });
    rows.push({ q: it.q, c: it.collection, notFound: a.decision === 'not_found', locked: a.decision === 'locked', got: describe(a) });
  }
  console.log(`inside (everyday words)    n=${String(rows.length).padStart(4)}  false not_found ${pct(rows.filter((r) => r.notFound).length, rows.length).padStart(6)}  locked ${pct(rows.filter((r) => r.locked).length, rows.length).padStart(6)}`);
  for (const r of rows) if (verbose || (r.notFound && !heldOut)) console.log(`    ${r.notFound ? 'MISS' : 'ok  '}${heldOut ? ' (held-out)' : ''} [${r.c}] ${r.q} → ${r.got}`);
}

/** Hand-written STARD-domain questions of the ninth sets, asked in the STARD cross-domain context. */
interface WrittenStard {
  title: string;
  heldOut: boolean;
  absent: (AbsentItem & { collection: string })[];
  inside: InsideItem[];
}

async function writtenStard(ctx: AppContext, sets: WrittenStard[], verbose: boolean): Promise<void> {
  for (const w of sets) {
    console.log(`\n## STARD domain collections, questions written by hand (${w.title})`);
    const rows: Row[] = [];
    for (const it of w.absent) {
      const a = await invokeOperation(ctx, 'collections.ask', { collection: `stard-${it.collection}`, question: it.q });
      rows.push(absentRow(`[${it.collection}] ${it.q}`, w.heldOut, a));
    }
    printAbsent('matter of another domain', rows);
    for (const r of rows) if ((!r.ok && !r.heldOut) || verbose) console.log(`    ${r.ok ? 'ok  ' : 'MISS'}${r.heldOut ? ' (held-out)' : ''} ${r.label} → ${r.got}`);
    await insideList(() => ctx, w.inside.map((i) => ({ ...i, collection: `stard-${i.collection}` })), w.title, verbose, w.heldOut);
  }
}

async function stardCross(pairs: [string, string][], verbose: boolean, written: WrittenStard[] = []): Promise<void> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  const trainFile = path.join(sharedDir(), 'data', 'stard', 'train.jsonl');
  if (!fs.existsSync(laws) || !fs.existsSync(trainFile)) return console.log('[skip] STARD data not found');
  // the statute copies are shared with collections-stard, the data dir is not (term statistics are each
  // collection's own now, but this eval's not_found questions must not depend on which eval ran first)
  const cache = path.join(projectRoot(), '.cache', 'eval', 'collections-stard');
  const ctx = createAppContext({ dataDir: path.join(projectRoot(), '.cache', 'eval', 'collections-absent', 'stard-data') });
  try {
    const all = readStardQuestions(trainFile);
    const scored = all.filter((q) => stardPartOf(q.id) !== 'learn');
    const scoredTexts = new Set(scored.map((q) => q.question));
    setKnownQuestions(ctx, (loadShippedKnownQuestions(ctx) ?? []).filter((k) => !scoredTexts.has(k.question)));
    setLayVocabulary(ctx, learnPartLayVocabulary(laws, all));
    const wanted = new Set([...pairs.flat(), ...written.flatMap((w) => [...w.absent, ...w.inside].map((i) => i.collection))]);
    for (const d of STARD_DOMAINS.filter((x) => wanted.has(x.name))) {
      await invokeOperation(ctx, 'collections.import', { folder: stageDomain(laws, path.join(cache, 'statutes', d.name), d.statutes), name: `stard-${d.name}` });
    }
    const rows: Row[] = [];
    for (const [from, to] of pairs) {
      const own = new Set(questionsOf(ctx, `stard-${from}`, scored).map((q) => q.id));
      const there = new Set(questionsOf(ctx, `stard-${to}`, scored).map((q) => q.id));
      const qs = scored.filter((q) => own.has(q.id) && !there.has(q.id));
      const pairRows: Row[] = [];
      for (const q of qs) {
        const a = await invokeOperation(ctx, 'collections.ask', { collection: `stard-${to}`, question: q.question });
        pairRows.push(absentRow(q.question, stardPartOf(q.id) === 'heldout', a));
      }
      printAbsent(`  ${from} → ${to} tuning`, pairRows.filter((r) => !r.heldOut));
      printAbsent(`  ${from} → ${to} held-out`, pairRows.filter((r) => r.heldOut));
      for (const r of pairRows) if ((!r.ok && !r.heldOut && verbose) || (verbose && r.ok)) console.log(`    ${r.ok ? 'ok  ' : 'MISS'} ${r.label} → ${r.got}`);
      rows.push(...pairRows);
    }
    printAbsent('STARD cross-domain tuning', rows.filter((r) => !r.heldOut));
    printAbsent('STARD cross-domain held-out', rows.filter((r) => r.heldOut));
    await writtenStard(ctx, written, verbose);
  } finally {
    await ctx.close();
  }
}

export default async function run(args: string[]): Promise<void> {
  const verbose = args.includes('--verbose');
  const data = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'data', 'collections-absent.json'), 'utf8')) as AbsentSet;
  const cookRoot = path.join(sharedDir(), 'data', 'howtocook');
  if (!fs.existsSync(cookRoot) || !fs.existsSync(path.join(sharedDir(), 'data', 'laws'))) {
    console.log('[skip] ../shared/data/howtocook or laws not found');
    return;
  }
  const cook = createAppContext({ dataDir: path.join(projectRoot(), '.cache', 'eval', 'howtocook') });
  const lawCache = path.join(projectRoot(), '.cache', 'eval', 'collections-laws');
  const laws = createAppContext({ dataDir: path.join(lawCache, 'data') });
  try {
    await invokeOperation(cook, 'collections.import', { folder: cookRoot, name: 'howtocook' });
    await importSet(laws, 'power-laws', 'collections-laws.json', lawCache);
    await importSet(laws, 'labour-laws', 'collections-labour.json', lawCache);
    console.log('## out-of-collection questions');
    const r = await absentList(cook, 'howtocook', data.recipes, 'recipes (howtocook)', verbose);
    const p = await absentList(laws, 'power-laws', data.power, 'power statutes', verbose);
    const l = await absentList(laws, 'labour-laws', data.labour, 'labour statutes', verbose);
    printParts('all out-of-collection', [...r, ...p, ...l]);
    console.log('\n## topic switches in a session');
    await sessions((c) => (c === 'howtocook' ? cook : laws), data.sessions, verbose);
    // later sets: failures of held-out items are printed only with --verbose
    const all: HeldOut = () => true;
    const later: [string, string, AbsentSet['round7'], HeldOut][] = [
      ['second held-out set (round 2; every item held out)', 'v2', data.heldout_v2, all],
      ['third set (stop 33; every third item held out)', 'v3', data.round3, (i) => i % 3 === 2],
      ['fourth set (stop 34; every item held out)', 'v4', data.round4, all],
    ];
    const sixth: [string, string, AbsentSet['round7'], HeldOut] = ['sixth set (stop 36: head or modifier held by a title; every item held out)', 'v6', data.round6, all];
    const everyday = createAppContext({ dataDir: path.join(lawCache, 'data-everyday') });
    try {
      await importSet(everyday, 'everyday-laws', 'collections-everyday-3.json', lawCache);
      const ctxOf = (c: string) => (c === 'howtocook' ? cook : c === 'everyday-laws' ? everyday : laws);
      if (data.round5) {
        later.push(['fifth set (stop 35; every item held out)', 'v5', data.round5, all]);
        await insideList(ctxOf, data.round5.inside ?? [], 'fifth set; every item held out', verbose, true);
      }
      later.push(['sixth set, tuning slice (stop 36: every item tuned on)', 'v6t', data.round6_tuning, () => false], sixth);
      later.push(['seventh set, tuning slice (stop 37: every item tuned on)', 'v7t', data.round7_tuning, () => false]);
      later.push(['seventh set (stop 37; every item held out)', 'v7', data.round7, all]);
      later.push(['eighth set, tuning slice (stop 38: every item tuned on)', 'v8t', data.round8_tuning, () => false]);
      later.push(['eighth set (stop 38; every item held out)', 'v8', data.round8, all]);
      later.push(['eighth set, second tuning slice (stop 38: dishes, every item tuned on)', 'v8tb', data.round8_tuning_b, () => false]);
      later.push(['ninth set, tuning slice (stop 39: every item tuned on)', 'v9t', data.round9_tuning, () => false]);
      later.push(['ninth set (stop 39; every item held out)', 'v9', data.round9, all]);
      later.push(['ninth set, second tuning slice (stop 39: every item tuned on)', 'v9tb', data.round9_tuning_b, () => false]);
      later.push(['ninth set, third tuning slice (stop 39: dishes, every item tuned on)', 'v9tc', data.round9_tuning_c, () => false]);
      later.push(['tenth set (stop 40: statute matters and everyday in-collection words; every item held out)', 'v10', data.round10, all]);
      for (const [title, tag, set, heldOut] of later) {
        if (!set) continue;
        console.log(`\n## ${title}`);
        const rs = await absentList(cook, 'howtocook', set.recipes, 'recipes (howtocook)', verbose, heldOut);
        const ps = await absentList(laws, 'power-laws', set.power, 'power statutes', verbose, heldOut);
        const ls = await absentList(laws, 'labour-laws', set.labour, 'labour statutes', verbose, heldOut);
        printParts(`all out-of-collection ${tag}`, [...rs, ...ps, ...ls]);
        await sessions(ctxOf, set.sessions, verbose, heldOut);
        if (/^v([789]|10)/.test(tag) && set.inside) await insideList(ctxOf, set.inside, title, verbose, heldOut(0));
      }
    } finally {
      await everyday.close();
    }
  } finally {
    await cook.close();
    await laws.close();
  }
  console.log('\n## STARD cross-domain (questions asked to a domain holding none of their statutes)');
  const written: WrittenStard[] = [];
  for (const [title, set, heldOut] of [
    ['ninth set, tuning slice', data.round9_tuning, false],
    ['ninth set, every item held out', data.round9, true],
  ] as const) {
    if (set) written.push({ title, heldOut, absent: set.stard_absent ?? [], inside: set.stard_inside ?? [] });
  }
  await stardCross(data.stard_cross.pairs, verbose, written);
}
