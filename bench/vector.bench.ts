/**
 * Vector top-100 at library scale: the binary-code prefilter + exact rerank (vectors.ts) vs the
 * exact scan, p50/p95 latency and recall of the index vs exact search.
 *
 * Vectors: the real statute chunks embedded by the shipped model when the STARD eval data dir
 * (.cache/eval/stard, `npm run eval -- stard`) holds them, queried with STARD questions; otherwise
 * 164k synthetic clustered 256-d vectors (a mixture of 3,000 topics) queried with perturbed rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext } from '../src/core/context';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import { binaryIndex, matrixFrom, vectorTopK, type VectorMatrix } from '../src/core/search/vectors';
import { loadMatrix } from '../src/core/search/vector-index';
import { REG_CORPUS } from '../src/core/regulations/search-index';
import { mulberry32 } from '../scripts/lib/prng';

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

function synthetic(n: number, dims: number, topics: number): { m: VectorMatrix; queries: Float32Array[] } {
  const rand = mulberry32(20261123);
  const gauss = () => Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand());
  const centers = Array.from({ length: topics }, () => Float32Array.from({ length: dims }, gauss));
  const data = new Float32Array(n * dims);
  for (let r = 0; r < n; r++) {
    const c = centers[Math.floor(rand() * topics)];
    let s = 0;
    for (let d = 0; d < dims; d++) {
      const v = c[d] + 0.9 * gauss() + 0.5; // shared offset: real embeddings are not centred
      data[r * dims + d] = v;
      s += v * v;
    }
    const inv = 1 / Math.sqrt(s);
    for (let d = 0; d < dims; d++) data[r * dims + d] *= inv;
  }
  const m = matrixFrom('bench', 'bench', dims, Int32Array.from({ length: n }, (_, i) => i), new Array<string>(n).fill(''), data);
  const queries = Array.from({ length: 200 }, () => {
    const row = Math.floor(rand() * n);
    return Float32Array.from({ length: dims }, (_, d) => data[row * dims + d] + 0.08 * gauss());
  });
  return { m, queries };
}

async function realVectors(): Promise<{ m: VectorMatrix; queries: Float32Array[]; close: () => Promise<void> } | null> {
  const dataDir = process.env.GRIDCODE_EVAL_DATA_DIR ?? path.join(projectRoot(), '.cache', 'eval', 'stard');
  const train = path.join(sharedDir(), 'data', 'stard', 'train.jsonl');
  if (!fs.existsSync(path.join(dataDir, 'gridcode.sqlite')) || !fs.existsSync(train)) return null;
  const ctx = createAppContext({ dataDir });
  const embedder = ctx.embedder();
  const modelId = embedder.status().model_id;
  const m = embedder.available() && modelId ? loadMatrix(ctx.db, ctx.state, REG_CORPUS, modelId) : null;
  if (!m || m.ids.length < 50_000) {
    await ctx.close();
    return null;
  }
  const questions = fs
    .readFileSync(train, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 200)
    .map((l) => (JSON.parse(l) as { question: string }).question);
  const queries = await embedder.embed(questions, 'query');
  return { m, queries, close: () => ctx.close() };
}

export default async function bench(): Promise<void> {
  const real = await realVectors();
  const { m, queries } = real ?? synthetic(164_000, 256, 3000);
  console.log(`${real ? '真实法规向量（评测数据目录，附带模型）' : '合成聚类向量'}：${m.ids.length} 条 × ${m.dims} 维，${queries.length} 个查询，top-100`);
  const hadCodes = Boolean(m.binary);
  const tb = performance.now();
  binaryIndex(m);
  console.log(hadCodes ? `二值码随索引文件（<data-dir>/index）一起载入（${m.source}）` : `二值索引构建 ${(performance.now() - tb).toFixed(0)} ms（载入向量矩阵时一次）`);
  const exactMs: number[] = [];
  const indexMs: number[] = [];
  let recall = 0;
  let recall10 = 0;
  for (const q of queries) {
    let t = performance.now();
    const exact = vectorTopK(m, q, 100, undefined, { exact: true });
    exactMs.push(performance.now() - t);
    t = performance.now();
    const approx = vectorTopK(m, q, 100);
    indexMs.push(performance.now() - t);
    const got = new Set(approx.map((h) => h.id));
    recall += exact.filter((h) => got.has(h.id)).length / exact.length;
    const got10 = new Set(approx.slice(0, 10).map((h) => h.id));
    recall10 += exact.slice(0, 10).filter((h) => got10.has(h.id)).length / 10;
  }
  const p = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms`;
  console.log(`精确扫描      ${p(exactMs)}`);
  console.log(`二值预筛+重排 ${p(indexMs)}  （加速 ${(pct(exactMs, 50) / pct(indexMs, 50)).toFixed(1)}x）`);
  console.log(`索引相对精确检索的召回：Recall@100 ${(recall / queries.length).toFixed(4)}  Recall@10 ${(recall10 / queries.length).toFixed(4)}（目标 >= 0.95）`);
  await real?.close();
}
