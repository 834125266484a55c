/**
 * `npm run models:train-reranker [-- --pool N] [-- --l2 X] [-- --dump FILE]` trains GridCode's learned
 * reranker (models/gridcode-rerank-v1/reranker.json) from ../shared only, deterministically:
 *
 * 1. imports ../shared/data/laws into the STARD evaluation's data dir (reused when present) and
 *    embeds it with the shipped model (gridcode-zh-v1);
 * 2. runs the held-out fifth of STARD train.jsonl through the default hybrid search with every other
 *    learned part fitted on the train part only (eval/stard-rerank.ts), collecting the rerank
 *    features of the first `pool` candidates;
 * 3. prints the two-fold cross-fitted quality (each half reranked by a model fitted on the other),
 *    then fits on the whole held-out fifth and writes the model file and its sha256 into
 *    models/manifest.json (`rerankers`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext } from '../src/core/context';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import { readManifest, sha256FileSync, writeManifest } from '../src/core/embed/manifest';
import { REG_FEATURES, SHIPPED_RERANKER_ID } from '../src/core/regulations/rerank';
import type { LinearReranker } from '../src/core/search/rerank';
import { embedLibrary } from '../src/core/embed/library';
import { ensureImported, stardData, tuneSliceOf } from '../eval/stard.eval';
import { byModel, crossFitted, fitReranker, poolMetrics, rerankGroups, RERANK_CANDIDATES, RERANK_EMBEDDING_MODEL, RERANK_FIT, RERANK_POOL, type LabelledGroup } from '../eval/stard-rerank';

const EMBEDDING_MODEL = RERANK_EMBEDDING_MODEL;

function fmt(m: { r10: number; r100: number; mrr10: number; n: number }): string {
  return `R@10 ${m.r10.toFixed(4)}  R@100 ${m.r100.toFixed(4)}  MRR@10 ${m.mrr10.toFixed(4)}（${m.n} 题）`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, def: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : def;
  };
  const pool = opt('pool', RERANK_POOL);
  const candidates = opt('candidates', RERANK_CANDIDATES);
  const fit = { ...RERANK_FIT, l2: opt('l2', RERANK_FIT.l2 ?? 1), listwise: opt('listwise', RERANK_FIT.listwise ?? 1) };
  const laws = path.join(sharedDir(), 'data', 'laws');
  if (!fs.existsSync(laws)) {
    console.error(`缺少训练数据 ${laws}（可设置 GRIDCODE_SHARED_DIR）`);
    process.exit(1);
  }
  const root = projectRoot();
  const dataDir = process.env.GRIDCODE_EVAL_DATA_DIR ?? path.join(root, '.cache', 'eval', 'stard');
  const ctx = createAppContext({ dataDir, modelsDir: path.join(root, 'models') });
  try {
    await ensureImported(ctx, laws);
    const status = ctx.embedder().status();
    if (status.model_id !== EMBEDDING_MODEL) throw new Error(`需要嵌入模型 ${EMBEDDING_MODEL}（当前：${status.model_id ?? '无'}）`);
    const from = args.indexOf('--from');
    if (!(from >= 0)) await embedLibrary(ctx, () => {});
    const data = await stardData(ctx);
    const t = performance.now();
    // --from FILE: the groups of an earlier --dump (trying fit settings without searching again)
    const groups: LabelledGroup[] =
      from >= 0 ? (JSON.parse(fs.readFileSync(args[from + 1], 'utf8')) as { groups: LabelledGroup[] }).groups.map((g) => ({ ...g, x: g.x.slice(0, pool), y: g.y.slice(0, pool) })) : await rerankGroups(ctx, data.honest, data.heldout, pool, candidates);
    console.log(`特征：留出集 ${groups.length} 题 × 前 ${pool} 个候选（每路 ${candidates} 个片段）（${((performance.now() - t) / 1000).toFixed(1)} s）`);
    const dump = args.indexOf('--dump');
    if (dump >= 0) fs.writeFileSync(args[dump + 1], JSON.stringify({ features: REG_FEATURES, groups, trainGold: data.questions.filter((q) => !data.heldout.includes(q)).map((q) => q.gold), heldGold: Object.fromEntries(data.heldout.map((q) => [q.id, q.gold])) }));

    const neverTuned = groups.filter((g) => !tuneSliceOf(g.id));
    const fused = (_g: LabelledGroup, i: number) => -i;
    console.log(`融合顺序（不重排，未含地方法规与共识调整）：全部 ${fmt(poolMetrics(groups, fused))}；未调参半 ${fmt(poolMetrics(neverTuned, fused))}`);
    const cross = crossFitted(groups, tuneSliceOf, { pool, candidates }, fit);
    console.log(`重排（交叉拟合，每半由另一半拟合）：全部 ${fmt(poolMetrics(groups, byModel(cross.modelFor)))}；未调参半 ${fmt(poolMetrics(neverTuned, byModel(cross.modelFor)))}`);

    const model = fitReranker(groups, { pool, candidates }, fit);
    console.log('权重（标准化特征）：' + model.features.map((f, i) => `${f} ${model.weights[i].toFixed(3)}`).join('，'));
    const modelsDir = path.join(root, 'models');
    const folder = SHIPPED_RERANKER_ID;
    const file = 'reranker.json';
    fs.mkdirSync(path.join(modelsDir, folder), { recursive: true });
    const round = (xs: number[]) => xs.map((x) => Number(x.toPrecision(8)));
    const out: LinearReranker = { ...model, mean: round(model.mean), scale: round(model.scale), weights: round(model.weights), bias: Number(model.bias.toPrecision(8)) };
    fs.writeFileSync(path.join(modelsDir, folder, file), `${JSON.stringify(out, null, 1)}\n`);
    const manifest = readManifest(modelsDir) as ReturnType<typeof readManifest> & { rerankers?: unknown[] };
    const entry = {
      id: SHIPPED_RERANKER_ID,
      folder,
      file,
      sha256: sha256FileSync(path.join(modelsDir, folder, file)),
      embedding_model: EMBEDDING_MODEL,
      description: 'GridCode 检索重排模型（线性，特征来自检索各路排名、向量相似度、词项证据与法规信息；由 STARD train.jsonl 留出的五分之一训练）',
      licence: 'STARD 数据 MIT（© 2024 THUIR，../shared/data/stard/LICENSE）；法律法规文本不受著作权保护；模型文件随 GridCode 许可',
    };
    manifest.rerankers = [...(manifest.rerankers ?? []).filter((r) => (r as { id?: string }).id !== SHIPPED_RERANKER_ID), entry];
    writeManifest(modelsDir, manifest);
    console.log(`已写入 models/${folder}/${file}（sha256 ${entry.sha256.slice(0, 16)}…），manifest.json 已更新`);
  } finally {
    await ctx.close();
  }
}

await main();
