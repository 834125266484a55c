/**
 * Power-regulation evaluation (`npm run eval -- power [--verbose] [--mode lexical|hybrid] [--adapt]`).
 *
 * A fresh data dir with the demo library (angui_2024, wengui_2024) and the six power statutes of
 * ../shared/data/laws, imported through the real operations; then the questions of
 * eval/data/power-questions.tsv (natural questions written for this library, each with the
 * articles that answer it). Prints, for the shipped default path (auto selection) and for
 * `--all`: Recall@10, top-1 accuracy, MRR@10, and how often a right top hit is still flagged
 * ambiguous or shown a banner (target < 10 %); dev and held-out questions separately (every 4th
 * question is held out and was not looked at while tuning). `--adapt` then runs "adapt to my
 * library" (models.adapt) on this library and prints the same tables with the adapted model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import type { SearchMode } from '../src/core/search/engine';

/** The six power statutes of ../shared (README), by the short names the question file uses. */
export const POWER_STATUTES: Record<string, string> = {
  保护条例: '行政法规/电力设施保护条例(2011-01-08).md',
  电力法: '经济法/电力法(2018-12-29).md',
  调度条例: '行政法规/电网调度管理条例(2011-01-08).md',
  供用条例: '行政法规/电力供应与使用条例(2019-03-02).md',
  事故条例: '行政法规/电力安全事故应急处置和调查处理条例(2011-07-07).md',
  监管条例: '行政法规/电力监管条例(2005-02-15).md',
};

interface PowerQuestion {
  n: number;
  question: string;
  expected: { reg: string; article: string }[];
  heldOut: boolean;
}

export function readPowerQuestions(file = path.join(projectRoot(), 'eval', 'data', 'power-questions.tsv')): PowerQuestion[] {
  const out: PowerQuestion[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [question, exp] = line.split('\t');
    const n = out.length + 1;
    out.push({
      n,
      question: question.trim(),
      expected: exp.split(';').map((e) => {
        const [reg, article] = e.trim().split(':');
        return { reg, article };
      }),
      heldOut: n % 4 === 0,
    });
  }
  return out;
}

/** Demo library + the six statutes in a fresh data dir; returns short name -> reg_id. */
export async function powerLibrary(ctx: AppContext, laws: string): Promise<Map<string, string>> {
  await invokeOperation(ctx, 'regulations.demo_load', {});
  const ids = new Map<string, string>([
    ['angui_2024', 'angui_2024'],
    ['wengui_2024', 'wengui_2024'],
  ]);
  for (const [short, rel] of Object.entries(POWER_STATUTES)) {
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [path.join(laws, rel)] });
    if (!res.reg_id || res.status === 'failed') throw new Error(`导入失败: ${rel} ${res.error ?? ''}`);
    ids.set(short, res.reg_id);
  }
  return ids;
}

interface Tally {
  n: number;
  recall10: number;
  top1: number;
  mrr: number;
  rightTop: number;
  rightTopAmbiguous: number;
  rightTopBanner: number;
  ms: number[];
}

const empty = (): Tally => ({ n: 0, recall10: 0, top1: 0, mrr: 0, rightTop: 0, rightTopAmbiguous: 0, rightTopBanner: 0, ms: [] });

function line(name: string, t: Tally): string {
  const p = (x: number, d: number) => (d ? `${((100 * x) / d).toFixed(1)}%` : '—');
  const sorted = [...t.ms].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `${name.padEnd(22)} n=${String(t.n).padStart(3)}  R@10 ${(t.recall10 / (t.n || 1)).toFixed(3)}  top1 ${p(t.top1, t.n).padStart(6)}  MRR@10 ${(t.mrr / (t.n || 1)).toFixed(3)}  对的第一名被判歧义 ${p(t.rightTopAmbiguous, t.rightTop).padStart(6)}  出横幅 ${p(t.rightTopBanner, t.rightTop).padStart(6)}  p50 ${p50.toFixed(1)} ms`;
}

export default async function power(args: string[]): Promise<void> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  if (!fs.existsSync(laws)) {
    console.log(`[skip] 缺少共享数据: ${laws}（可设置 GRIDCODE_SHARED_DIR）`);
    return;
  }
  const verbose = args.includes('--verbose');
  const modeArg = args.indexOf('--mode');
  const mode = (modeArg >= 0 ? args[modeArg + 1] : undefined) as SearchMode | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-eval-power-'));
  const ctx = createAppContext({ dataDir });
  // --no-rerank: the fused order without the learned reranker (config search.rerank), for before/after
  if (args.includes('--no-rerank')) ctx.config.search.rerank = false;
  try {
    const ids = await powerLibrary(ctx, laws);
    const unitOf = ctx.db.prepare('SELECT id FROM reg_units WHERE reg_id = ? AND label = ? ORDER BY ord LIMIT 1');
    const questions = readPowerQuestions();
    console.log(`规程 ${ids.size} 部（演示 2 + 电力法规 6），问题 ${questions.length} 条（留出 ${questions.filter((q) => q.heldOut).length} 条）`);
    const evaluate = async (tag: string) => {
      for (const scope of ['auto', 'all'] as const) {
        const tallies = { dev: empty(), held: empty(), all: empty() };
        // calibration data (dev questions only): best hit of another regulation / top hit, right or not
        const ratios: { right: boolean; ratio: number }[] = [];
        let modeUsed = '';
        for (const q of questions) {
          const gold = new Set<number>();
          for (const e of q.expected) {
            const regId = ids.get(e.reg);
            const row = regId ? (unitOf.get(regId, e.article) as { id: number } | undefined) : undefined;
            if (!row) throw new Error(`问题 ${q.n} 的答案条文不存在: ${e.reg} ${e.article}`);
            gold.add(row.id);
          }
          const t = performance.now();
          const out = await invokeOperation(ctx, 'search.smart_search', { query: q.question, reg_id: scope === 'all' ? 'all' : null, top_k: 10, mode });
          const ms = performance.now() - t;
          modeUsed = out.mode;
          const top = out.results.map((r) => r.unit_id);
          const other = out.results.find((r) => r.reg_id !== out.results[0]?.reg_id);
          if (!q.heldOut && out.results.length && !out.results[0].reasons.article_ref) {
            ratios.push({ right: gold.has(top[0]), ratio: other && out.results[0].score > 0 ? other.score / out.results[0].score : 0 });
          }
          const found = top.filter((id) => gold.has(id)).length;
          const first = top.findIndex((id) => gold.has(id));
          for (const tally of [tallies.all, q.heldOut ? tallies.held : tallies.dev]) {
            tally.n++;
            tally.recall10 += found / gold.size;
            if (first === 0) tally.top1++;
            if (first >= 0) tally.mrr += 1 / (first + 1);
            if (first === 0) {
              tally.rightTop++;
              if (out.decision.state === 'ambiguous') tally.rightTopAmbiguous++;
              if (out.decision.banner) tally.rightTopBanner++;
            }
            tally.ms.push(ms);
          }
          if (verbose && (found < gold.size || first !== 0 || out.decision.banner)) {
            console.log(
              `  [${q.n}${q.heldOut ? ' 留出' : ''}] ${q.question}  召回 ${found}/${gold.size}  第一名${first === 0 ? '对' : '错'}  ${out.decision.state}${out.decision.banner ? '（横幅）' : ''}  范围 ${out.selected_regs.length}  前3: ${out.results
                .slice(0, 3)
                .map((r) => `${r.reg_id}:${r.article ?? r.section.slice(0, 12)}`)
                .join(' | ')}`,
            );
          }
        }
        console.log(`\n-- ${scope === 'auto' ? '默认（自动选择规程）' : '--all（全部规程）'} · ${modeUsed}${tag} --`);
        console.log(line('开发集', tallies.dev));
        console.log(line('留出集', tallies.held));
        console.log(line('全部', tallies.all));
        if (args.includes('--calibrate')) {
          const right = ratios.filter((r) => r.right);
          const wrong = ratios.filter((r) => !r.right);
          for (const t of [0.9, 0.92, 0.95, 0.97, 0.98, 0.99, 1]) {
            const fr = right.filter((r) => r.ratio > t).length;
            const fw = wrong.filter((r) => r.ratio > t).length;
            console.log(`  跨规程歧义阈值 ${t}: 对的第一名被标记 ${fr}/${right.length}，错的第一名被标记 ${fw}/${wrong.length}`);
          }
        }
      }
    };
    const model = () => ctx.embedder().status().model_id ?? '无模型';
    await evaluate(` · ${model()}`);
    if (args.includes('--adapt')) {
      // "adapt to my library" on this library (demo grid codes + power statutes), then the same questions again
      const t = performance.now();
      const r = await invokeOperation(ctx, 'models.adapt', {});
      console.log(`\n按资料库调整: ${r.base_id} -> ${r.model_id}，新增 ${r.new_words} 个词（如 ${r.examples.slice(0, 8).join('、')}），${((performance.now() - t) / 1000).toFixed(1)} s`);
      await evaluate(` · ${model()}（调整后）`);
    }
  } finally {
    ctx.close?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
