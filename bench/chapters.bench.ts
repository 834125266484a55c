/**
 * `npm run bench -- chapters`: chapter structure (regulations.chapters) of Markdown regulations with
 * 1,000 / 3,000 / 10,000 / 30,000 headings (one article each). Round 1 was about cubic (1,000
 * headings 25 s, 3,000 469 s); the target is near-linear: time per heading about flat as they grow.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';

export default async function chaptersBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-chapters-'));
  const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-models-'));
  const ctx = createAppContext({ dataDir: dir, modelsDir });
  try {
    const rows: { headings: number; ms: number }[] = [];
    for (const n of [1000, 3000, 10_000, 30_000]) {
      let md = '# 规程\n\n';
      for (let i = 1; i <= n; i++) md += `${i % 10 === 1 ? `## 第${Math.ceil(i / 10)}章 部分${i}\n\n` : ''}### 第${i}节 标题${i}\n\n第${i}条 第${i}节的规定内容。\n\n`;
      const file = path.join(dir, `h${n}.md`);
      fs.writeFileSync(file, md);
      await invokeOperation(ctx, 'regulations.import', { paths: [file], id: `h${n}` });
      const t0 = performance.now();
      const out = (await invokeOperation(ctx, 'regulations.chapters', { reg_id: `h${n}` })) as { chapters: unknown[] };
      const ms = performance.now() - t0;
      rows.push({ headings: out.chapters.length, ms });
      console.log(`${String(out.chapters.length).padStart(6)} headings  ${ms.toFixed(0).padStart(6)} ms  ${((ms / out.chapters.length) * 1000).toFixed(0)} µs/heading`);
    }
    const first = rows[0];
    const last = rows.at(-1)!;
    console.log(`growth: ${(last.headings / first.headings).toFixed(0)}× headings -> ${(last.ms / first.ms).toFixed(1)}× time (linear = ${(last.headings / first.headings).toFixed(0)}×, cubic would be ${((last.headings / first.headings) ** 3).toFixed(0)}×)`);
  } finally {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(modelsDir, { recursive: true, force: true });
  }
}
