/**
 * Power statutes as a collection (`npm run eval -- collections-laws [--verbose]`).
 *
 * Imports the six power statutes named in ../shared/README.md (copied into .cache/eval, never into
 * the project) as collection `power-laws` through `collections.import`, then asks the hand-written
 * natural questions of eval/data/collections-laws.json, each in a fresh session, and the follow-up
 * cases in one session each. Prints lock accuracy (locked on an accepted statute), wrong-lock rate,
 * section accuracy (the answer's best article is an accepted one AND the answer names it), the
 * low-evidence accuracy of out-of-domain questions, and the same for the held-out slice
 * (index % 4 == 3, never tuned on). Targets: >= 90% right, wrong-lock < 2%.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot, sharedDir } from '../src/core/common/paths';

export const POWER_STATUTES = [
  '行政法规/电网调度管理条例(2011-01-08).md',
  '经济法/电力法(2018-12-29).md',
  '行政法规/电力供应与使用条例(2019-03-02).md',
  '行政法规/电力安全事故应急处置和调查处理条例(2011-07-07).md',
  '行政法规/电力监管条例(2005-02-15).md',
  '行政法规/电力设施保护条例(2011-01-08).md',
];

interface LawItem {
  q: string;
  expect: 'lock' | 'low';
  accept?: { title: string; article: string }[];
}
interface FollowUp {
  setup: string[];
  ask: string;
  title: string;
  article?: string;
  article_any?: string[];
}

function pct(n: number, d: number): string {
  return d ? `${((100 * n) / d).toFixed(1)}%` : '-';
}

/** Copies the statutes into `dir` (a cache folder); null when ../shared is absent. */
export function stageStatutes(dir: string): string | null {
  const laws = path.join(sharedDir(), 'data', 'laws');
  if (!fs.existsSync(laws)) return null;
  fs.mkdirSync(dir, { recursive: true });
  for (const rel of POWER_STATUTES) {
    const src = path.join(laws, rel);
    const dst = path.join(dir, path.basename(rel));
    if (!fs.existsSync(dst) || fs.statSync(dst).size !== fs.statSync(src).size) fs.copyFileSync(src, dst);
  }
  return dir;
}

type Ask = Awaited<ReturnType<typeof ask>>;
async function ask(ctx: AppContext, question: string, session?: string) {
  return invokeOperation(ctx, 'collections.ask', { collection: 'power-laws', question, session_id: session });
}

function bestArticle(a: Ask): string | null {
  return a.citations[0]?.label ?? null;
}

export default async function run(args: string[]): Promise<void> {
  const verbose = args.includes('--verbose');
  const cache = path.join(projectRoot(), '.cache', 'eval', 'collections-laws');
  const src = stageStatutes(path.join(cache, 'statutes'));
  if (!src) {
    console.log('[skip] ../shared/data/laws not found');
    return;
  }
  const ctx = createAppContext({ dataDir: path.join(cache, 'data') });
  try {
    const imp = await invokeOperation(ctx, 'collections.import', { folder: src, name: 'power-laws' });
    console.log(`import: ${imp.documents} statutes, ${imp.chunks} chunks, profile ${imp.profile}`);
    const data = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'data', 'collections-laws.json'), 'utf8')) as { items: LawItem[]; follow_ups: FollowUp[] };
    const rows: { i: number; item: LawItem; lockOk: boolean; wrong: boolean; sectionOk: boolean; ok: boolean; got: string }[] = [];
    const t0 = Date.now();
    for (const [i, item] of data.items.entries()) {
      const a = await ask(ctx, item.q);
      const locked = a.decision === 'locked' ? a.lock.title : null;
      const art = bestArticle(a);
      let lockOk = false;
      let sectionOk = false;
      let wrong = false;
      if (item.expect === 'lock') {
        lockOk = !!locked && item.accept!.some((x) => x.title === locked);
        wrong = !!locked && !lockOk;
        sectionOk = lockOk && item.accept!.some((x) => x.title === locked && x.article === art) && !!art && (a.answer ?? '').includes(art);
      } else {
        lockOk = a.decision === 'low_evidence';
        wrong = !!locked;
        sectionOk = lockOk;
      }
      const ok = item.expect === 'lock' ? sectionOk : lockOk;
      rows.push({ i, item, lockOk, wrong, sectionOk, ok, got: `${a.decision}${locked ? ` ${locked}` : ''}${art ? ` ${art}` : ''}${a.decision === 'ambiguous' ? ` [${a.candidates.map((c) => c.title).join('、')}]` : ''} (${a.retrieval?.rule ?? '-'}: ${a.retrieval?.reason ?? ''})` });
    }
    const ms = Date.now() - t0;
    console.log(`asked ${rows.length} questions in ${ms} ms (${(ms / rows.length).toFixed(1)} ms/question)\n`);
    const line = (label: string, rs: typeof rows) => {
      const locks = rs.filter((r) => r.item.expect === 'lock');
      const lows = rs.filter((r) => r.item.expect === 'low');
      console.log(
        `${label.padEnd(10)} n=${String(rs.length).padStart(3)}  right ${pct(rs.filter((r) => r.ok).length, rs.length).padStart(6)}  ` +
          `lock ${pct(locks.filter((r) => r.lockOk).length, locks.length).padStart(6)}  section ${pct(locks.filter((r) => r.sectionOk).length, locks.length).padStart(6)}  ` +
          `wrong-lock ${pct(rs.filter((r) => r.wrong).length, rs.length).padStart(6)}  out-of-domain low ${pct(lows.filter((r) => r.lockOk).length, lows.length)}`,
      );
    };
    line('all', rows);
    line('tuning', rows.filter((r) => r.i % 4 !== 3));
    line('held-out', rows.filter((r) => r.i % 4 === 3));
    for (const r of rows) if (!r.ok || verbose) console.log(`  ${r.ok ? 'ok  ' : 'MISS'}${r.i % 4 === 3 ? ' (held-out)' : ''} ${r.item.q} → ${r.got}; want ${r.item.expect === 'low' ? 'low evidence' : r.item.accept!.map((x) => `${x.title} ${x.article}`).join(' / ')}`);

    let fOk = 0;
    for (const f of data.follow_ups) {
      let session: string | undefined;
      for (const q of f.setup) session = (await ask(ctx, q, session)).session_id;
      const a = await ask(ctx, f.ask, session);
      const art = bestArticle(a);
      const want = f.article_any ?? [f.article!];
      const ok = a.lock.title === f.title && !!art && want.includes(art) && (a.answer ?? '').includes(art);
      fOk += ok ? 1 : 0;
      if (!ok || verbose) console.log(`  ${ok ? 'ok  ' : 'FAIL'} [${f.setup.join(' → ')}] → ${f.ask}: ${a.kind} ${a.lock.title} ${art} (want ${f.title} ${want.join('/')})`);
    }
    console.log(`follow-ups in the locked statute: ${fOk}/${data.follow_ups.length} = ${pct(fOk, data.follow_ups.length)}`);
  } finally {
    await ctx.close();
  }
}
