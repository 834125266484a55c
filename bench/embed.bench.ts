/**
 * Embedder throughput on the generated test model: a batch of 32 Chinese sentences through the
 * product path (main thread -> shared worker -> transformers.js pipeline -> onnxruntime-node,
 * cache off) versus a raw onnxruntime-node session doing the same work (the same tokenizer,
 * session.run, mean pooling + normalisation by hand). Target: ratio <= 1.15.
 *
 * The raw baseline runs in a child process: onnxruntime-node 1.21 must not be used by two
 * threads of one process (see src/core/embed/worker-client.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ensureTestModel } from '../scripts/make-test-model';
import { createEmbedder } from '../src/core/embed/create';
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

const WARMUP = 10;
/** Rounds per block; blocks alternate embedder / raw so load from other processes hits both alike. */
const ROUNDS = 20;
const BLOCKS = 8;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) * q)];
}

// Raw baseline: same tokenizer.json via transformers.js' tokenizer class, plain InferenceSession, hand pooling.
const RAW_SCRIPT = `
import { AutoTokenizer, env } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
const { modelsDir, id, onnx, texts, warmup } = JSON.parse(process.argv[1]);
env.allowRemoteModels = false; env.allowLocalModels = true; env.localModelPath = modelsDir + '/';
const tokenizer = await AutoTokenizer.from_pretrained(id);
const session = await ort.InferenceSession.create(onnx);
function embed(batch) {
  const enc = tokenizer(batch, { padding: true, truncation: true });
  const [b, s] = enc.input_ids.dims;
  return session.run({
    input_ids: new ort.Tensor('int64', enc.input_ids.data, [b, s]),
    attention_mask: new ort.Tensor('int64', enc.attention_mask.data, [b, s]),
    token_type_ids: new ort.Tensor('int64', enc.token_type_ids.data, [b, s]),
  }).then((out) => {
    const h = out.last_hidden_state.data; const d = out.last_hidden_state.dims[2]; const mask = enc.attention_mask.data;
    const vecs = [];
    for (let i = 0; i < b; i++) {
      const v = new Float32Array(d); let n = 0;
      for (let j = 0; j < s; j++) { if (mask[i * s + j] === 0n) continue; n++; for (let k = 0; k < d; k++) v[k] += h[(i * s + j) * d + k]; }
      let norm = 0; for (let k = 0; k < d; k++) { v[k] /= n; norm += v[k] * v[k]; }
      norm = Math.sqrt(norm); for (let k = 0; k < d; k++) v[k] /= norm;
      vecs.push(v);
    }
    return vecs;
  });
}
for (let i = 0; i < warmup; i++) await embed(texts);
process.stdout.write('ready\\n');
const { createInterface } = await import('node:readline');
for await (const line of createInterface({ input: process.stdin })) {
  const times = [];
  for (let i = 0; i < Number(line); i++) { const t = performance.now(); await embed(texts); times.push(performance.now() - t); }
  process.stdout.write(JSON.stringify(times) + '\\n');
}
`;

export default async function bench(): Promise<void> {
  const model = ensureTestModel();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-bench-embed-'));
  const db = openDatabase(dataDir, allMigrations);
  const embedder = createEmbedder({ db, modelsDir: model.modelsDir, dataDir, batchSize: 32, cache: false });
  try {
    const loadStart = performance.now();
    await embedder.embed(SENTENCES.slice(0, 1), 'passage');
    const loadMs = performance.now() - loadStart;
    for (let i = 0; i < WARMUP; i++) await embedder.embed(SENTENCES, 'passage');

    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', RAW_SCRIPT, JSON.stringify({ modelsDir: model.modelsDir, id: model.id, onnx: path.join(model.modelDir, 'onnx', 'model.onnx'), texts: SENTENCES, warmup: WARMUP })],
      { cwd: projectRoot(), stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const nextLine = async (): Promise<string> => {
      const r = await lines.next();
      if (r.done) throw new Error('raw onnxruntime-node baseline exited early');
      return r.value;
    };
    const ourTimes: number[] = [];
    const workTimes: number[] = [];
    const rawTimes: number[] = [];
    try {
      await nextLine(); // ready
      for (let block = 0; block < BLOCKS; block++) {
        for (let i = 0; i < ROUNDS; i++) {
          const t = performance.now();
          const w = embedder.stats().worker_ms;
          await embedder.embed(SENTENCES, 'passage');
          ourTimes.push(performance.now() - t);
          workTimes.push(embedder.stats().worker_ms - w);
        }
        child.stdin!.write(`${ROUNDS}\n`);
        rawTimes.push(...(JSON.parse(await nextLine()) as number[]));
      }
    } finally {
      child.kill();
    }
    const ours = quantile(ourTimes, 0.5);
    const base = quantile(rawTimes, 0.5);
    const oursBest = quantile(ourTimes, 0.1);
    const baseBest = quantile(rawTimes, 0.1);
    const ratio = ours / base;
    const n = SENTENCES.length;
    console.log(`model ${model.id} (${model.dims} dims), batch ${n} Chinese sentences, ${BLOCKS}x${ROUNDS} interleaved rounds each, cache off`);
    console.log(`  first call (worker start + model load): ${loadMs.toFixed(0)} ms`);
    console.log(`  embedder (worker + transformers.js): ${((ours / n) * 1000).toFixed(1)} µs/sentence (${ours.toFixed(2)} ms/batch)`);
    console.log(`    of which inside the worker:        ${((quantile(workTimes, 0.5) / n) * 1000).toFixed(1)} µs/sentence`);
    console.log(`  raw onnxruntime-node session:        ${((base / n) * 1000).toFixed(1)} µs/sentence (${base.toFixed(2)} ms/batch)`);
    console.log(`  ratio embedder/raw (median): ${ratio.toFixed(2)} (target <= 1.15) ${ratio <= 1.15 ? 'OK' : 'ABOVE TARGET'}`);
    console.log(`  ratio embedder/raw (p10, least disturbed by other load): ${(oursBest / baseBest).toFixed(2)}`);
  } finally {
    await embedder.close();
    db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
