/**
 * `npm run models:train [-- --quick] [-- --skip-train]` rebuilds GridCode's own Chinese retrieval
 * model (models/gridcode-zh-v1) from ../shared: statutes, STARD train (the training split only),
 * recipes, and the device descriptions in resources/homes. Fixed seeds; ~25 min on 2 cores.
 *
 * 1. scripts/train/train_gridcode_zh.py (Debian python3-torch, numpy, jieba; run with nice) trains
 *    the embedding bag and writes its weights to .cache/train/<run>/;
 * 2. this script writes the transformers.js model folder (ONNX graph, tokenizer.json, config) and
 *    records the sha256 of every file in models/manifest.json;
 * 3. it loads the folder through the app's own embedder (worker, transformers.js tokenizer,
 *    onnxruntime-node) and checks the vectors match torch's on probe texts.
 *
 *   --quick        20k articles, 3 epochs (minutes; for trying changes, writes to .cache only)
 *   --skip-train   reuse the last run's weights (.cache/train/full, or --run NAME)
 *   --python P     interpreter (default /usr/bin/python3)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot, resourcesDir, sharedDir } from '../src/core/common/paths';
import { readManifest, sha256FileSync, writeManifest, type ModelEntry } from '../src/core/embed/manifest';
import { openDatabase } from '../src/core/store/db';
import { allMigrations } from '../src/core/schema';
import { createEmbedder } from '../src/core/embed/create';
import { shutdownEmbedWorker } from '../src/core/embed/worker-client';
import { QUERY_TOKEN, readBagWeights, writeBagModelFolder } from '../src/core/embed/bag-model';

export const SHIPPED_MODEL_ID = 'gridcode-zh-v1';

function fail(msg: string): never {
  console.error(msg);
  process.exit(1);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const skipTrain = args.includes('--skip-train');
  const pyIdx = args.indexOf('--python');
  const python = pyIdx >= 0 ? args[pyIdx + 1] : '/usr/bin/python3';
  const root = projectRoot();
  const cacheDir = path.join(root, '.cache', 'train');
  const runIdx = args.indexOf('--run');
  const run = runIdx >= 0 ? args[runIdx + 1] : quick ? 'quick' : 'full';
  const runDir = path.join(cacheDir, run);
  // only a full run replaces the shipped model
  const modelsRoot = run === 'full' ? path.join(root, 'models') : path.join(cacheDir, `${run}-models`);

  if (!skipTrain) {
    const shared = sharedDir();
    if (!fs.existsSync(path.join(shared, 'data', 'laws'))) fail(`缺少训练数据 ${path.join(shared, 'data')}（可设置 GRIDCODE_SHARED_DIR）`);
    const pyArgs = [
      '-n',
      '10',
      python,
      '-u',
      path.join(root, 'scripts', 'train', 'train_gridcode_zh.py'),
      '--shared',
      shared,
      '--resources',
      resourcesDir(),
      '--out',
      runDir,
      '--cache',
      cacheDir,
    ];
    if (quick) pyArgs.push('--subset', '20000', '--epochs', '3', '--ict', '20000');
    console.log(`训练：${python} scripts/train/train_gridcode_zh.py${quick ? '（快速模式）' : ''}`);
    const r = spawnSync('nice', pyArgs, { stdio: 'inherit' });
    if (r.status !== 0) fail(`训练失败（退出码 ${r.status}）。需要 Debian 的 python3-torch、python3-numpy、python3-jieba。`);
  }

  const weights = readBagWeights(runDir);
  const folder = SHIPPED_MODEL_ID;
  const staging = path.join(modelsRoot, `.${folder}.staging`);
  fs.rmSync(staging, { recursive: true, force: true });
  const files = writeBagModelFolder(staging, weights, '1');
  const finalDir = path.join(modelsRoot, folder);
  fs.rmSync(finalDir, { recursive: true, force: true });
  fs.renameSync(staging, finalDir);
  const quality = weights.meta.quality as Record<string, number>;
  const entry: ModelEntry = {
    id: SHIPPED_MODEL_ID,
    folder,
    dims: weights.dims,
    pooling: 'cls',
    normalize: true,
    dtype: 'fp32',
    query_prefix: QUERY_TOKEN,
    passage_prefix: '',
    files: files.map((p) => ({ path: p, sha256: sha256FileSync(path.join(finalDir, p)) })),
    source: null,
    default: false,
    description: `GridCode 自训练中文检索模型（词袋向量 ${weights.dims} 维，随应用附带，无需下载）`,
  };
  const manifest = readManifest(modelsRoot);
  const at = manifest.models.findIndex((m) => m.id === entry.id);
  if (at >= 0) manifest.models[at] = entry;
  else manifest.models.push(entry);
  writeManifest(modelsRoot, manifest);
  const size = files.reduce((s, p) => s + fs.statSync(path.join(finalDir, p)).size, 0);
  console.log(`模型已写入 ${finalDir}（${(size / 1e6).toFixed(1)} MB），清单已更新`);
  console.log(`留出问题上的纯向量检索：R@10 ${quality.dense_r10}  R@100 ${quality.dense_r100}  MRR@10 ${quality.dense_mrr10}（${quality.heldout_questions} 题，未参与训练）`);

  // parity: the app's embedder (transformers.js tokenizer + onnxruntime-node) vs torch
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-train-check-'));
  const db = openDatabase(tmp, allMigrations);
  process.env.GRIDCODE_EMBED_MODEL = SHIPPED_MODEL_ID;
  const embedder = createEmbedder({ db, modelsDir: modelsRoot, dataDir: tmp, batchSize: 32, cache: false });
  try {
    if (!embedder.available()) fail(`模型无法加载：${embedder.status().message}`);
    const probe = weights.meta.probe as { queries: string[]; passages: string[]; query_vectors: number[][]; passage_vectors: number[][] };
    const qv = await embedder.embed(probe.queries, 'query');
    const pv = await embedder.embed(probe.passages, 'passage');
    let worst = 1;
    const compare = (got: Float32Array[], want: number[][]) => {
      got.forEach((v, i) => {
        const w = want[i];
        const wn = Math.hypot(...w);
        if (wn === 0) {
          // empty text: zero vector in both
          if (Math.hypot(...v) > 1e-6) worst = Math.min(worst, 0);
          return;
        }
        let dot = 0;
        for (let k = 0; k < w.length; k++) dot += v[k] * w[k];
        worst = Math.min(worst, dot / wn);
      });
    };
    compare(qv, probe.query_vectors);
    compare(pv, probe.passage_vectors);
    console.log(`一致性检查（onnxruntime-node vs torch，${qv.length + pv.length} 条）：最小余弦 ${worst.toFixed(6)}`);
    if (worst < 0.999) fail('ONNX 模型与训练结果不一致（分词或图有误）');
  } finally {
    await embedder.close();
    await shutdownEmbedWorker();
    db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => fail(`训练失败：${(e as Error).stack ?? e}`));
