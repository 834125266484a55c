/**
 * Edition diff speed (issue 25, target: two 300-article editions ≤ 300 ms): a generated 300-article
 * regulation and its revision (every number after an insertion shifted, edits, deletions), compared
 * through the whole pipeline (units → similarity → alignment → word-level diffs → chapter summary);
 * first call and p50/p95 of repeated calls. The real 民事诉讼法 pair (291 → 306 articles) too when
 * ../shared is present.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseFlowText } from '../src/core/regulations/structure';
import { compareUnits } from '../src/core/editions/compare';
import type { StoredUnit } from '../src/core/editions/types';
import { sharedDir } from '../src/core/common/paths';
import { generateEditions } from '../test/fixtures/edition-pair';

function units(text: string): StoredUnit[] {
  const doc = parseFlowText(text, { format: 'markdown', markdown: true, pageChars: 1800, maxPageChars: 7200, fallbackTitle: 'bench' });
  return doc.units.map((u, ord) => ({ ord, kind: u.kind, label: u.label, section_path: u.section_path, text: u.text, page_num: u.page_num }));
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** CPU milliseconds (user + system) of this process since `from`. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1000;
}

function time(label: string, a: StoredUnit[], b: StoredUnit[], target: number): void {
  let t = performance.now();
  let c = process.cpuUsage();
  const first = compareUnits(a, b, { editions: true });
  const firstMs = performance.now() - t;
  const firstCpu = cpuMs(c);
  const runs: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < 30; k++) {
    t = performance.now();
    c = process.cpuUsage();
    compareUnits(a, b, { editions: true });
    runs.push(performance.now() - t);
    cpu.push(cpuMs(c));
  }
  const noWords: number[] = [];
  for (let k = 0; k < 5; k++) {
    t = performance.now();
    compareUnits(a, b, { words: false, editions: true });
    noWords.push(performance.now() - t);
  }
  const s = first.summary;
  console.log(`${label}: ${a.length} / ${b.length} 个单元 → 相同 ${s.same} 移动 ${s.moved} 修改 ${s.modified} 新增 ${s.added} 删除 ${s.deleted}`);
  console.log(`  首次 ${firstMs.toFixed(1)} ms；重复 p50 ${pct(runs, 50).toFixed(1)} ms，p95 ${pct(runs, 95).toFixed(1)} ms（目标 ≤ ${target} ms，p50 比值 ${(pct(runs, 50) / target).toFixed(2)}）；不含词级差异 p50 ${pct(noWords, 50).toFixed(1)} ms`);
  // wall time on a shared machine waits for the CPU; CPU time is what the comparison itself costs
  console.log(`  CPU 时间：首次 ${firstCpu.toFixed(1)} ms，重复 p50 ${pct(cpu, 50).toFixed(1)} ms（负载 ${os.loadavg()[0].toFixed(1)}，${os.cpus().length} 核）`);
}

export default async function run(): Promise<void> {
  const gen = generateEditions(300);
  time('生成的 300 条规程与其修订版', units(gen.oldText), units(gen.newText), 300);
  const laws = path.join(sharedDir(), 'data', 'laws', '诉讼与非诉讼程序法');
  const a = path.join(laws, '民事诉讼法(2021-12-24).md');
  const b = path.join(laws, '民事诉讼法(2023-09-01).md');
  if (fs.existsSync(a) && fs.existsSync(b)) time('民事诉讼法 2021 → 2023', units(fs.readFileSync(a, 'utf8')), units(fs.readFileSync(b, 'utf8')), 300);
  else console.log('[skip] 共享数据中没有民事诉讼法的两个版本（可设置 GRIDCODE_SHARED_DIR）');
}
