/**
 * Statute collections asked real lay questions nobody here wrote (`npm run eval -- collections-stard
 * [--verbose] [--learn-part] [--separate]`; --separate puts each domain in a data dir of its own).
 *
 * ../shared/data/stard/train.jsonl (1,235 questions by non-professionals with the articles that answer
 * them, MIT) is read; the statutes those questions cite are grouped into domain collections (civil
 * code, labour, intellectual property, criminal, administrative, land, commerce/consumer, civil
 * procedure), each imported as its own collection through the API op, and every question citing an
 * article of a domain is asked to that domain's collection in a fresh session.
 *
 * Split (fixed hashes, decided before any result was looked at, shared with eval/stard.eval.ts and the
 * model trainer so the shipped model never saw the scored questions):
 * - learn: stardSplitOf(id) === 'train' (4/5). The shipped model was trained on these; any learned
 *   table is fitted on these only. Scored only with --learn-part (in-sample, for information).
 * - tuning: the held-out fifth's tuneSliceOf half. Thresholds may be chosen looking at these.
 * - held-out: the other half of the held-out fifth. Never tuned on; the honest number.
 *
 * Per domain and part it prints: right statute locked, right article quoted first (citations[0] is a
 * cited article of the locked statute and the answer names it), right article within the quoted
 * evidence (any citation, best or "see also"), low-evidence rate, ambiguous rate (right statute
 * offered / not), and wrong-lock rate (locked a statute none of the cited articles is in); "by
 * title" counts a lock on another part of the right code (民法典 物权编 for a 合同编 article) as the
 * right statute, as a reader comparing statute names would.
 * Statutes are copied into .cache/eval, never into the project.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import { docsOf, getDoc, requireCollection } from '../src/core/collections/store';
import { normLawTitle, splitArticleRef } from '../src/core/regulations/known-questions';
import { readStardQuestions, stardSplitOf, tuneSliceOf } from './stard.eval';
import { setKnownQuestions, titleForms } from '../src/core/collections/known-answers';
import { loadShippedKnownQuestions } from '../src/core/regulations/known-questions';
import { setLayVocabulary } from '../src/core/collections/lay-terms';
import { learnLayVocabulary, type LayTable } from '../src/core/collections/lay-vocabulary';
import { lawArticlePairs } from '../scripts/lib/law-pairs';

/** The everyday vocabulary fitted exactly like the shipped one (npm run learn:lay), on the learn part only. */
export function learnPartLayVocabulary(laws: string, all: { id: number; question: string; relevant: string[] }[]): LayTable {
  return learnLayVocabulary(lawArticlePairs(laws, all.filter((q) => stardPartOf(q.id) === 'learn')));
}

export type StardPart = 'learn' | 'tune' | 'heldout';

/** The fixed split (see the header): the model's training part, then the two halves of its held-out fifth. */
export function stardPartOf(id: number): StardPart {
  if (stardSplitOf(id) === 'train') return 'learn';
  return tuneSliceOf(id) ? 'tune' : 'heldout';
}

/** Domain collections: statutes under ../shared/data/laws that train.jsonl questions cite, with neighbours of the same field. */
export const STARD_DOMAINS: { name: string; statutes: string[] }[] = [
  {
    name: 'civil',
    statutes: [
      '民法典/总则.md',
      '民法典/物权编.md',
      '民法典/合同编.md',
      '民法典/人格权编.md',
      '民法典/婚姻家庭编.md',
      '民法典/继承编.md',
      '民法典/侵权责任编.md',
      '民法典/附则.md',
      '司法解释/最高人民法院关于适用《民法典》有关担保制度的解释(2020-12-31).md',
      '司法解释/最高人民法院关于审理民间借贷案件适用法律若干问题的规定(2020-12-29).md',
      '司法解释/最高人民法院关于适用《民法典》婚姻家庭编的解释（一）(2020-12-29).md',
      '司法解释/最高人民法院关于适用《民法典》继承编的解释（一）(2020-12-29).md',
      '司法解释/最高人民法院关于审理建设工程施工合同纠纷案件适用法律问题的解释（一）(2020-12-29).md',
    ],
  },
  {
    name: 'labour',
    statutes: [
      '社会法/劳动合同法(2012-12-28).md',
      '社会法/劳动法(2018-12-29).md',
      '社会法/社会保险法(2018-12-29).md',
      '行政法规/工伤保险条例(2010-12-20).md',
      '行政法规/劳动合同法实施条例(2008-09-18).md',
      '行政法规/职工带薪年休假条例(2007-12-14).md',
      '行政法规/保障农民工工资支付条例(2019-12-30).md',
      '司法解释/最高人民法院关于审理劳动争议案件适用法律问题的解释（一）(2020-12-29).md',
    ],
  },
  {
    name: 'ip',
    statutes: [
      '民法商法/商标法(2019-04-23).md',
      '民法商法/著作权法(2020-11-11).md',
      '民法商法/专利法(2020-10-17).md',
      '行政法规/商标法实施条例(2014-04-29).md',
      '行政法规/著作权法实施条例(2013-01-30).md',
      '行政法规/信息网络传播权保护条例(2013-01-30).md',
    ],
  },
  {
    name: 'criminal',
    statutes: [
      '刑法/刑法.md',
      '司法解释/最高人民法院、最高人民检察院关于办理盗窃刑事案件适用法律若干问题的解释(2013-04-02).md',
      '诉讼与非诉讼程序法/刑事诉讼法(2018-10-26).md',
      '行政法/治安管理处罚法(2012-10-26).md',
    ],
  },
  {
    name: 'administrative',
    statutes: [
      '行政法/行政许可法(2019-04-23).md',
      '诉讼与非诉讼程序法/行政诉讼法(2017-06-27).md',
      '行政法/行政处罚法(2021-01-22).md',
      '行政法规/政府信息公开条例(2019-04-03).md',
      '诉讼与非诉讼程序法/行政复议法(2023-09-01).md',
    ],
  },
  {
    name: 'land',
    statutes: [
      '民法商法/农村土地承包法(2018-12-29).md',
      '行政法/土地管理法(2019-08-26).md',
      '行政法规/土地管理法实施条例(2021-07-02).md',
      '行政法规/国有土地上房屋征收与补偿条例(2011-01-21).md',
    ],
  },
  {
    name: 'commerce',
    statutes: [
      '民法商法/保险法(2015-04-24).md',
      '经济法/产品质量法(2018-12-29).md',
      '民法商法/消费者权益保护法(2013-10-25).md',
      '民法商法/合伙企业法(2006-08-27).md',
      '民法商法/公司法(2023-12-29).md',
      '经济法/旅游法(2018-10-26).md',
      '司法解释/最高人民法院关于审理旅游纠纷案件适用法律若干问题的规定(2020-12-29).md',
      '行政法/食品安全法(2021-04-29).md',
      '行政法规/物业管理条例(2018-03-19).md',
    ],
  },
  {
    name: 'procedure',
    statutes: [
      '诉讼与非诉讼程序法/民事诉讼法(2023-09-01).md',
      '司法解释/最高人民法院关于适用《民事诉讼法》的解释(2022-04-01).md',
      '司法解释/最高人民法院关于民事诉讼证据的若干规定(2019-12-25).md',
    ],
  },
];

/** Copies a domain's statutes into `dir` (flat; 民法典/总则.md -> 民法典-总则.md). */
export function stageDomain(laws: string, dir: string, statutes: string[]): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const rel of statutes) {
    const src = path.join(laws, rel);
    if (!fs.existsSync(src)) throw new Error(`statute missing: ${src}`);
    const dst = path.join(dir, rel.replace(/\//g, '-'));
    if (!fs.existsSync(dst) || fs.statSync(dst).size !== fs.statSync(src).size) fs.copyFileSync(src, dst);
  }
  return dir;
}

export interface AskedQuestion {
  id: number;
  question: string;
  part: StardPart;
  /** docs of the collection holding a cited article, with the cited labels in each */
  gold: Map<number, Set<string>>;
  /** their titles (parts of one code share the code's title) */
  goldTitles: Set<string>;
}

/** The questions citing articles of this collection, with the documents (and labels) that hold them. */
export function questionsOf(ctx: AppContext, name: string, questions: { id: number; question: string; relevant: string[] }[]): AskedQuestion[] {
  const coll = requireCollection(ctx.db, name);
  const byTitleLabel = new Map<string, number[]>();
  const titles = new Map<number, string>();
  for (const d of docsOf(ctx.db, coll.id)) {
    titles.set(d.id, d.title);
    const doc = getDoc(ctx.db, d.id)!;
    for (const a of doc.parsed.articles ?? []) {
      for (const t of titleForms(doc.title)) {
        const key = `${t}|${a.label}`;
        byTitleLabel.set(key, [...(byTitleLabel.get(key) ?? []), d.id]);
      }
    }
  }
  const out: AskedQuestion[] = [];
  for (const q of questions) {
    const gold = new Map<number, Set<string>>();
    for (const ref of q.relevant) {
      const m = splitArticleRef(ref);
      if (!m) continue;
      for (const docId of byTitleLabel.get(`${normLawTitle(m[0])}|${m[1]}`) ?? []) {
        if (!gold.has(docId)) gold.set(docId, new Set());
        gold.get(docId)!.add(m[1]);
      }
    }
    if (gold.size) out.push({ id: q.id, question: q.question, part: stardPartOf(q.id), gold, goldTitles: new Set([...gold.keys()].map((id) => titles.get(id)!)) });
  }
  return out;
}

type Ask = Awaited<ReturnType<typeof invokeOperation<'collections.ask'>>>;

export interface StardRow {
  domain: string;
  part: StardPart;
  locked: boolean;
  lockOk: boolean;
  wrong: boolean;
  /** locked a statute of a cited title (a part of the right code counts) / of no cited title */
  titleOk: boolean;
  wrongTitle: boolean;
  low: boolean;
  ambiguous: boolean;
  ambiguousOffered: boolean;
  top1: boolean;
  inEvidence: boolean;
  got: string;
  q: AskedQuestion;
}

function scoreAnswer(domain: string, q: AskedQuestion, a: Ask): StardRow {
  const lockedId = a.decision === 'locked' ? a.lock.doc_id : null;
  const want = lockedId !== null ? q.gold.get(lockedId) : undefined;
  const lockOk = !!want;
  const cites = a.citations.filter((c) => c.doc_id === lockedId);
  const top1 = lockOk && !!a.citations[0] && a.citations[0].doc_id === lockedId && want!.has(a.citations[0].label) && (a.answer ?? '').includes(a.citations[0].label);
  const inEvidence = lockOk && cites.some((c) => want!.has(c.label));
  return {
    domain,
    part: q.part,
    q,
    locked: lockedId !== null,
    lockOk,
    wrong: lockedId !== null && !lockOk,
    titleOk: lockedId !== null && q.goldTitles.has(a.lock.title ?? ''),
    wrongTitle: lockedId !== null && !q.goldTitles.has(a.lock.title ?? ''),
    low: a.decision === 'low_evidence' || a.decision === 'not_found',
    ambiguous: a.decision === 'ambiguous',
    ambiguousOffered: a.decision === 'ambiguous' && a.candidates.some((c) => q.gold.has(c.doc_id)),
    top1,
    inEvidence,
    got: `${a.decision}${lockedId !== null ? ` ${a.lock.title}#${lockedId}` : ''}${a.citations[0] ? ` ${a.citations[0].label}` : ''}${a.decision === 'ambiguous' ? ` [${a.candidates.map((c) => `${c.title}#${c.doc_id}`).join('、')}]` : ''} (${a.retrieval?.rule ?? '-'})`,
  };
}

function pct(n: number, d: number): string {
  return d ? `${((100 * n) / d).toFixed(1)}%` : '-';
}

export function printRows(label: string, rs: StardRow[]): void {
  if (!rs.length) return;
  const n = rs.length;
  const c = (f: (r: StardRow) => boolean) => pct(rs.filter(f).length, n).padStart(6);
  console.log(
    `${label.padEnd(22)} n=${String(n).padStart(4)}  statute ${c((r) => r.lockOk)}  article@1 ${c((r) => r.top1)}  article-in-evidence ${c((r) => r.inEvidence)}  ` +
      `low ${c((r) => r.low)}  ambiguous ${c((r) => r.ambiguous)} (offered ${c((r) => r.ambiguousOffered)})  wrong-lock ${c((r) => r.wrong)}  ` +
      `| by title: statute ${c((r) => r.titleOk)} wrong ${c((r) => r.wrongTitle)}  ` +
      `| right lock / ask-back offering the right statute / wrong lock / other ${c((r) => r.lockOk)} / ${c((r) => r.ambiguousOffered)} / ${c((r) => r.wrong)} / ${c((r) => !r.lockOk && !r.ambiguousOffered && !r.wrong)}`,
  );
}

export default async function run(args: string[]): Promise<void> {
  const verbose = args.includes('--verbose');
  const withLearn = args.includes('--learn-part');
  const laws = path.join(sharedDir(), 'data', 'laws');
  const trainFile = path.join(sharedDir(), 'data', 'stard', 'train.jsonl');
  if (!fs.existsSync(laws) || !fs.existsSync(trainFile)) {
    console.log('[skip] ../shared/data/laws or ../shared/data/stard/train.jsonl not found');
    return;
  }
  const cache = path.join(projectRoot(), '.cache', 'eval', 'collections-stard');
  const all = readStardQuestions(trainFile);
  const scored = all.filter((q) => withLearn || stardPartOf(q.id) !== 'learn');
  const ctx = createAppContext({ dataDir: path.join(cache, 'data') });
  const rows: StardRow[] = [];
  const contexts = new Map<string, AppContext>();
  try {
    console.log(`embedding model: ${ctx.embedder().available() ? ctx.embedder().status().model_id : 'none (lexical only)'}`);
    // learned parts see the learn part only: the shipped known questions minus every question text
    // that also occurs in the tuning or held-out part
    const scoredTexts = new Set(all.filter((q) => stardPartOf(q.id) !== 'learn').map((q) => q.question));
    const shipped = loadShippedKnownQuestions(ctx) ?? [];
    const learnKnown = shipped.filter((k) => !scoredTexts.has(k.question));
    const minSimArg = args.indexOf('--known-min-sim');
    if (minSimArg >= 0) ctx.config.collections.knownMinSim = Number(args[minSimArg + 1]);
    if (args.includes('--no-known')) setKnownQuestions(ctx, []);
    else setKnownQuestions(ctx, learnKnown);
    const lay = args.includes('--no-lay') ? {} : learnPartLayVocabulary(laws, all);
    setLayVocabulary(ctx, lay);
    console.log(`everyday vocabulary: ${Object.keys(lay).length} words learned on the learn part`);
    console.log(`known questions: ${args.includes('--no-known') ? 'off' : `${learnKnown.length} of ${shipped.length} shipped (learn part only)`}`);
    console.log(`questions: ${all.length} (learn ${all.filter((q) => stardPartOf(q.id) === 'learn').length}, tuning ${all.filter((q) => stardPartOf(q.id) === 'tune').length}, held-out ${all.filter((q) => stardPartOf(q.id) === 'heldout').length})`);
    // every domain is imported before any question is asked; term statistics (idf, BM25) are each
    // collection's own, so the shared data dir and --separate (each domain in a data dir of its own,
    // as a user importing one collection has it) give the same numbers
    const separate = args.includes('--separate');
    const contextOf = (domain: string): AppContext => {
      if (!separate) return ctx;
      let c = contexts.get(domain);
      if (!c) {
        c = createAppContext({ dataDir: path.join(cache, 'separate', domain) });
        if (args.includes('--no-known')) setKnownQuestions(c, []);
        else setKnownQuestions(c, learnKnown);
        setLayVocabulary(c, lay);
        contexts.set(domain, c);
      }
      return c;
    };
    const imports = new Map<string, Awaited<ReturnType<typeof invokeOperation<'collections.import'>>>>();
    for (const d of STARD_DOMAINS) {
      const src = stageDomain(laws, path.join(cache, 'statutes', d.name), d.statutes);
      imports.set(d.name, await invokeOperation(contextOf(d.name), 'collections.import', { folder: src, name: `stard-${d.name}` }));
    }
    if (args.includes('--fit-lock')) {
      console.log('the lock decision is fitted by `npm run models:fit-lock` (scripts/fit-lock-model.ts)');
      return;
    }
    for (const d of STARD_DOMAINS) {
      const name = `stard-${d.name}`;
      const imp = imports.get(d.name)!;
      const ctx = contextOf(d.name);
      const qs = questionsOf(ctx, name, scored);
      const t0 = Date.now();
      const domainRows: StardRow[] = [];
      for (const q of qs) {
        const a = await invokeOperation(ctx, 'collections.ask', { collection: name, question: q.question });
        domainRows.push(scoreAnswer(d.name, q, a));
      }
      const ms = Date.now() - t0;
      console.log(`\n## ${d.name}: ${imp.documents} statutes, ${imp.chunks} chunks, vectors ${imp.vectors}; ${qs.length} questions, ${(ms / Math.max(qs.length, 1)).toFixed(1)} ms/question`);
      for (const part of ['learn', 'tune', 'heldout'] as StardPart[]) printRows(`  ${part === 'tune' ? 'tuning' : part === 'heldout' ? 'held-out' : 'learn (in-sample)'}`, domainRows.filter((r) => r.part === part));
      for (const r of domainRows) {
        if (r.part === 'heldout' && !verbose) continue; // held-out failures are not read while tuning
        if (!(r.top1) || verbose) console.log(`    ${r.top1 ? 'ok  ' : 'MISS'} [${r.part}] ${r.q.question} → ${r.got}; want ${[...r.q.gold].map(([id, ls]) => `#${id} ${[...ls].join('/')}`).join('; ')}`);
      }
      rows.push(...domainRows);
    }
    console.log('\n## all domains');
    for (const part of ['learn', 'tune', 'heldout'] as StardPart[]) printRows(part === 'tune' ? 'tuning' : part === 'heldout' ? 'held-out' : 'learn (in-sample)', rows.filter((r) => r.part === part));
  } finally {
    await ctx.close();
    for (const c of contexts.values()) await c.close();
  }
}
