/**
 * Embedder overhead: our product path (main thread -> the shared worker -> transformers.js
 * tokenizer + model call -> our pooling -> back, cache off) versus a raw onnxruntime-node
 * InferenceSession doing the same work (the same tokenizer.json through transformers.js'
 * tokenizer class, session.run on exactly the inputs the graph declares, the same pooling by
 * hand) on three models:
 * - the generated 32-d test model (a toy: the fixed per-call cost shows most),
 * - the shipped gridcode-zh-v1 (models/, what users run),
 * - a generated BERT with bge-small-zh-v1.5's shape (scripts/make-bge-shaped-model.ts: 512 hidden,
 *   4 layers, 8 heads, vocab 21128; random weights, cost only).
 * Batches of 32 passages (import) and of 1 query (search). Target: ratio <= 1.10.
 *
 * The raw baseline runs in a child process: onnxruntime-node 1.21 must not be used by two
 * threads of one process (see src/core/embed/worker-client.ts). Rounds alternate between the two
 * in blocks so load from other processes hits both alike; medians are reported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ensureTestModel } from '../scripts/make-test-model';
import { ensureBgeShapedModel } from '../scripts/make-bge-shaped-model';
import { createEmbedder } from '../src/core/embed/create';
import { listModels } from '../src/core/embed/manifest';
import { allMigrations } from '../src/core/schema';
import { openDatabase } from '../src/core/store/db';
import { projectRoot } from '../src/core/common/paths';

const SENTENCES = [
  '母线失压时值班调度员应立即检查相关保护动作情况',
  '主变压器差动保护动作跳闸后不得强送',
  '线路重合闸不成功应通知运维单位巡线',
  '断路器拒动时应立即隔离故障点',
  '变电站全站失压后的处理原则是什么',
  '调度员应立即通知运维人员检查一次设备',
  '电压互感器二次回路断线会影响距离保护',
  '系统频率低于四十九点八赫兹时应启动备用容量',
  '隔离开关操作前必须检查断路器在断开位置',
  '母线差动保护退出运行期间禁止倒闸操作',
  '电容器组投切应根据电压和无功情况确定',
  '小电流接地系统发生单相接地可以运行两小时',
  '负荷转移前应核对线路载流量',
  '备自投装置动作后应检查备用电源运行情况',
  '直流系统接地查找应采用拉路法',
  '变压器油温过高告警时应检查冷却器',
  '开关柜局部放电超标需要安排停电检修',
  '继电保护定值核对应两人进行',
  '倒闸操作票应由操作人填写监护人审核',
  '事故处理过程中应做好记录',
  '低频减载装置动作后不得自行恢复负荷',
  '无功补偿设备应按电压曲线投切',
  '稳控装置动作后应立即汇报上级调度',
  '线路跳闸后应检查录波器信息',
  '主变过负荷时应采取转移负荷措施',
  '母线电压越限时应调整有载调压分接头',
  '站用电失电时应检查直流系统',
  '避雷器泄漏电流增大需要缩短巡视周期',
  '消弧线圈调谐不当会引起过电压',
  '小电流接地选线装置应定期校验',
  '电缆终端头发热应进行红外测温',
  '遥控操作失败时应检查测控装置',
];

const TARGET = 1.1;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) * q)];
}

// Raw baseline: same tokenizer.json via transformers.js' tokenizer class, plain InferenceSession, hand pooling.
const RAW_SCRIPT = `
import { AutoTokenizer, env } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
const { modelsDir, id, onnx, pooling } = JSON.parse(process.argv[1]);
env.allowRemoteModels = false; env.allowLocalModels = true; env.localModelPath = modelsDir + '/';
const tokenizer = await AutoTokenizer.from_pretrained(id);
const session = await ort.InferenceSession.create(onnx);
async function embed(batch) {
  const enc = tokenizer(batch, { padding: true, truncation: true });
  const [b, s] = enc.input_ids.dims;
  const feeds = {};
  for (const name of session.inputNames) feeds[name] = new ort.Tensor('int64', enc[name].data, [b, s]);
  const out = await session.run(feeds);
  const h = out.last_hidden_state.data; const d = out.last_hidden_state.dims[2]; const mask = enc.attention_mask.data;
  const vecs = [];
  for (let i = 0; i < b; i++) {
    const v = new Float32Array(d);
    if (pooling === 'cls') { for (let k = 0; k < d; k++) v[k] = h[i * s * d + k]; }
    else {
      let n = 0;
      for (let j = 0; j < s; j++) { if (mask[i * s + j] === 0n) continue; n++; for (let k = 0; k < d; k++) v[k] += h[(i * s + j) * d + k]; }
      for (let k = 0; k < d; k++) v[k] /= n;
    }
    let norm = 0; for (let k = 0; k < d; k++) norm += v[k] * v[k];
    norm = Math.sqrt(norm); for (let k = 0; k < d; k++) v[k] /= norm;
    vecs.push(v);
  }
  return vecs;
}
process.stdout.write('ready\\n');
const { createInterface } = await import('node:readline');
for await (const line of createInterface({ input: process.stdin })) {
  const { rounds, texts } = JSON.parse(line);
  const times = [];
  for (let i = 0; i < rounds; i++) { const t = performance.now(); await embed(texts); times.push(performance.now() - t); }
  process.stdout.write(JSON.stringify(times) + '\\n');
}
`;

interface BenchModel {
  label: string;
  modelsDir: string;
  id: string;
  onnx: string;
  pooling: 'mean' | 'cls';
  dims: number;
  /** rounds per block, blocks (the large model gets fewer) */
  rounds: number;
  blocks: number;
}

interface Measured {
  ours: number;
  raw: number;
  worker: number;
}

async function measure(m: BenchModel, batches: { name: string; texts: string[] }[]): Promise<Map<string, Measured>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-embed-'));
  const db = openDatabase(dataDir, allMigrations);
  const previous = process.env.GRIDCODE_EMBED_MODEL;
  process.env.GRIDCODE_EMBED_MODEL = m.id;
  const embedder = createEmbedder({ db, modelsDir: m.modelsDir, dataDir, batchSize: 32, cache: false });
  if (previous === undefined) delete process.env.GRIDCODE_EMBED_MODEL;
  else process.env.GRIDCODE_EMBED_MODEL = previous;
  const child = spawn(process.execPath, ['--input-type=module', '-e', RAW_SCRIPT, JSON.stringify({ modelsDir: m.modelsDir, id: m.id, onnx: m.onnx, pooling: m.pooling })], {
    cwd: projectRoot(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const r = await lines.next();
    if (r.done) throw new Error('raw onnxruntime-node baseline exited early');
    return r.value;
  };
  const out = new Map<string, Measured>();
  try {
    await embedder.embed(SENTENCES.slice(0, 1), 'passage');
    await nextLine(); // ready
    for (const { name, texts } of batches) {
      const warm = Math.max(3, Math.floor(m.rounds / 2));
      for (let i = 0; i < warm; i++) await embedder.embed(texts, 'passage');
      child.stdin!.write(`${JSON.stringify({ rounds: warm, texts })}\n`);
      await nextLine();
      const ours: number[] = [];
      const work: number[] = [];
      const raw: number[] = [];
      for (let block = 0; block < m.blocks; block++) {
        for (let i = 0; i < m.rounds; i++) {
          const w = embedder.stats().worker_ms;
          const t = performance.now();
          await embedder.embed(texts, 'passage');
          ours.push(performance.now() - t);
          work.push(embedder.stats().worker_ms - w);
        }
        child.stdin!.write(`${JSON.stringify({ rounds: m.rounds, texts })}\n`);
        raw.push(...(JSON.parse(await nextLine()) as number[]));
      }
      out.set(name, { ours: quantile(ours, 0.5), raw: quantile(raw, 0.5), worker: quantile(work, 0.5) });
    }
  } finally {
    child.kill();
    await embedder.close();
    db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

export default async function bench(): Promise<void> {
  const models: BenchModel[] = [];
  const test = ensureTestModel();
  models.push({ label: `${test.id}（生成的 ${test.dims} 维测试模型）`, modelsDir: test.modelsDir, id: test.id, onnx: path.join(test.modelDir, 'onnx', 'model.onnx'), pooling: 'mean', dims: test.dims, rounds: 20, blocks: 8 });
  const shippedDir = path.join(projectRoot(), 'models');
  const shipped = listModels(shippedDir, os.tmpdir()).find((x) => x.id === 'gridcode-zh-v1');
  if (shipped && fs.existsSync(path.join(shipped.dir, 'onnx', 'model.onnx'))) {
    models.push({ label: `${shipped.id}（随应用附带，${shipped.dims} 维）`, modelsDir: shippedDir, id: shipped.id, onnx: path.join(shipped.dir, 'onnx', 'model.onnx'), pooling: shipped.pooling, dims: shipped.dims, rounds: 20, blocks: 8 });
  } else {
    console.log('附带模型 gridcode-zh-v1: 跳过（models/ 中没有）');
  }
  const bge = ensureBgeShapedModel();
  models.push({ label: `${bge.id}（bge-small-zh-v1.5 形状、随机权重，${bge.dims} 维，4 层）`, modelsDir: bge.modelsDir, id: bge.id, onnx: path.join(bge.modelDir, 'onnx', 'model.onnx'), pooling: 'cls', dims: bge.dims, rounds: 6, blocks: 6 });
  const batches = [
    { name: `batch ${SENTENCES.length} passages`, texts: SENTENCES },
    { name: 'batch 1 query', texts: [SENTENCES[4]] },
  ];
  console.log(`负载：loadavg ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')}（${os.cpus().length} 核）；每格为交替轮次的中位数，cache off`);
  const ratios: number[] = [];
  for (const m of models) {
    const r = await measure(m, batches);
    console.log(m.label);
    for (const [name, x] of r) {
      const ratio = x.ours / x.raw;
      ratios.push(ratio);
      console.log(
        `  ${name.padEnd(20)} embedder ${x.ours.toFixed(2)} ms (worker 内 ${x.worker.toFixed(2)} ms) · raw onnxruntime-node ${x.raw.toFixed(2)} ms · ratio ${ratio.toFixed(2)} ${ratio <= TARGET ? 'OK' : `ABOVE TARGET ${TARGET}`}`,
      );
    }
  }
  console.log(`最大 ratio ${Math.max(...ratios).toFixed(2)}（目标 <= ${TARGET}）`);
}
