import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createEmbedder, type LocalEmbedder } from '../../../src/core/embed/create';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';
import { testModelDir, testModelsDir, TEST_MODEL_DIMS, TEST_MODEL_ID } from '../../fixtures/model';

type Ctx = ReturnType<typeof tempContext>;

const SENTENCES = [
  '母线失压',
  '主变压器差动保护动作跳闸',
  '线路重合闸成功',
  '断路器拒动',
  '变电站全站失压后的处理原则',
  '调度员应立即通知运维人员检查一次设备',
  '电压互感器二次回路断线',
  '系统频率异常',
  '隔离开关操作前必须检查断路器在断开位置',
  '母线差动保护',
  '电容器组投切',
  '接地故障',
  '负荷转移',
  '备自投装置动作',
  '直流系统接地查找',
  '变压器油温过高告警',
  '开关柜局部放电',
  '继电保护定值核对',
  '倒闸操作票',
  '事故处理',
  '低频减载',
  '无功补偿',
  '稳控装置',
  '线路跳闸',
  '主变过负荷',
  '母线电压越限',
  '站用电失电',
  '避雷器泄漏电流增大',
  '消弧线圈',
  '小电流接地选线',
  '电缆终端头发热',
  '遥控操作失败',
];

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** Copies the generated model + its manifest into a fresh models dir the test may damage. */
function copyModelsDir(): string {
  const dir = tempDir('gridcode-models-');
  fs.cpSync(testModelsDir(), dir, { recursive: true });
  return dir;
}

describe('embedder on the generated model', () => {
  let ctx: Ctx;
  let embedder: LocalEmbedder;

  beforeAll(() => {
    ctx = tempContext({ modelsDir: testModelsDir() });
    embedder = ctx.embedder() as LocalEmbedder;
  });
  afterAll(async () => {
    await ctx.cleanup();
  });

  it('reports ready with the model id and dims', () => {
    const s = embedder.status();
    expect(s).toMatchObject({ state: 'ready', model_id: TEST_MODEL_ID, dims: TEST_MODEL_DIMS });
    expect(s.message).toMatch(/就绪/);
    expect(embedder.available()).toBe(true);
  });

  it('gives the same vectors in batches of 1 and of 32 (padding is masked)', async () => {
    const one = createEmbedder({ db: ctx.db, modelsDir: ctx.modelsDir, dataDir: ctx.dataDir, batchSize: 1, cache: false });
    const many = createEmbedder({ db: ctx.db, modelsDir: ctx.modelsDir, dataDir: ctx.dataDir, batchSize: 32, cache: false });
    try {
      const a = await one.embed(SENTENCES, 'passage');
      const b = await many.embed(SENTENCES, 'passage');
      expect(one.stats().worker_calls).toBe(32);
      expect(many.stats().worker_calls).toBe(1);
      expect(a).toHaveLength(32);
      for (let i = 0; i < a.length; i++) {
        expect(a[i]).toHaveLength(TEST_MODEL_DIMS);
        expect(maxAbsDiff(a[i], b[i])).toBeLessThan(1e-5);
      }
    } finally {
      await one.close();
      await many.close();
    }
  });

  it('matches mean (and cls) pooling + normalisation computed by hand from a raw onnxruntime-node session', async () => {
    const vocab = (JSON.parse(fs.readFileSync(path.join(testModelDir(), 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab;
    const queryPrefix = embedder.model()!.query_prefix;
    expect(queryPrefix.length).toBeGreaterThan(0);

    // independent tokenisation (the texts are all CJK/full-width punctuation: one token per character),
    // raw onnxruntime-node session and hand pooling in a separate process
    const reference = (texts: string[], pooling: 'mean' | 'cls' = 'mean'): Float32Array[] => {
      const seqs = texts.map((t) => [vocab['[CLS]'], ...[...t].map((c) => vocab[c] ?? vocab['[UNK]']), vocab['[SEP]']]);
      const run = spawnSync(process.execPath, [path.join(__dirname, 'raw-onnx.mjs')], {
        input: JSON.stringify({ model: path.join(testModelDir(), 'onnx', 'model.onnx'), seqs, pooling }),
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as number[][]).map((v) => Float32Array.from(v));
    };

    const texts = SENTENCES.slice(0, 12);
    const passages = await embedder.embed(texts, 'passage');
    const queries = await embedder.embed(texts, 'query');
    const refPassages = reference(texts);
    const refQueries = reference(texts.map((t) => queryPrefix + t));
    for (let i = 0; i < texts.length; i++) {
      expect(Math.hypot(...passages[i])).toBeCloseTo(1, 5);
      expect(maxAbsDiff(passages[i], refPassages[i])).toBeLessThan(1e-5);
      expect(maxAbsDiff(queries[i], refQueries[i])).toBeLessThan(1e-5);
    }

    // cls pooling (what bge uses): the same model registered with pooling 'cls'
    const clsDir = tempDir('gridcode-cls-models-');
    fs.cpSync(testModelsDir(), clsDir, { recursive: true });
    const manifestFile = path.join(clsDir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    manifest.models[0].pooling = 'cls';
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const cls = createEmbedder({ db: ctx.db, modelsDir: clsDir, dataDir: ctx.dataDir, batchSize: 32, cache: false });
    try {
      const clsVectors = await cls.embed(texts, 'passage');
      const refCls = reference(texts, 'cls');
      for (let i = 0; i < texts.length; i++) {
        expect(maxAbsDiff(clsVectors[i], refCls[i])).toBeLessThan(1e-5);
        expect(maxAbsDiff(clsVectors[i], passages[i])).toBeGreaterThan(1e-3);
      }
    } finally {
      await cls.close();
    }
  });

  it('adds the query prefix to queries only, so query and passage vectors differ', async () => {
    const [q] = await embedder.embed(['母线失压'], 'query');
    const [p] = await embedder.embed(['母线失压'], 'passage');
    const [prefixedPassage] = await embedder.embed([embedder.model()!.query_prefix + '母线失压'], 'passage');
    expect(maxAbsDiff(q, p)).toBeGreaterThan(1e-3);
    expect(maxAbsDiff(q, prefixedPassage)).toBeLessThan(1e-6);
  });

  it('makes texts sharing characters more similar (useful for other engines\u2019 vector tests)', async () => {
    const [a, b, c] = await embedder.embed(['母线失压', '母线失压告警', '天气晴朗'], 'passage');
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.2);
  });

  it('handles empty, very long (truncated to the model window), mixed and unknown-character texts', async () => {
    const long = '变电站母线失压处理'.repeat(400); // 3600 characters, model window 512 tokens
    const vectors = await embedder.embed(['', long, 'ABC 110kV 主变', '😀😀'], 'passage');
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toHaveLength(TEST_MODEL_DIMS);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
    expect(await embedder.embed([], 'query')).toEqual([]);
    await expect(embedder.embed(['x'], 'bogus' as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('embeds duplicates once and stores no second copy of passage vectors (they live in search_vectors only)', async () => {
    const texts = ['缓存测试一', '缓存测试二', '缓存测试三', '缓存测试一'];
    const before = embedder.stats();
    const first = await embedder.embed(texts, 'passage');
    const mid = embedder.stats();
    expect(mid.texts_embedded - before.texts_embedded).toBe(3); // duplicates embedded once
    expect(first[0]).not.toBe(first[3]); // duplicates get their own arrays
    expect(maxAbsDiff(first[0], first[3])).toBe(0);
    const cacheRows = () => (ctx.db.prepare('SELECT COUNT(*) AS n FROM embedding_cache').get() as { n: number }).n;
    expect(cacheRows()).toBe(0);
    // the same texts again are the same vectors (deterministic), embedded again
    const again = await embedder.embed(texts, 'passage');
    again.forEach((v, i) => expect(maxAbsDiff(v, first[i])).toBeLessThan(1e-6));
    const after = embedder.stats();

    expect(after.texts_embedded - mid.texts_embedded).toBe(3);

    // the same text as a query is a different cache entry
    const rowsBefore = cacheRows();
    const [q1] = await embedder.embed(['缓存测试一'], 'query');
    expect(embedder.stats().texts_embedded).toBe(after.texts_embedded + 1);
    // queries are remembered in memory, never written to SQLite (no write transaction per search)
    const [q2] = await embedder.embed(['缓存测试一'], 'query');
    expect(embedder.stats().texts_embedded).toBe(after.texts_embedded + 1);
    expect(cacheRows()).toBe(rowsBefore);
    expect(maxAbsDiff(q1, q2)).toBe(0);
    q1[0] += 1; // callers get their own copies
    expect(maxAbsDiff((await embedder.embed(['缓存测试一'], 'query'))[0], q2)).toBe(0);
  });
});

describe('missing or damaged models', () => {
  it('with no model: status missing in Chinese, available false, embed rejects MODEL_MISSING without starting a worker', async () => {
    const ctx = tempContext({ modelsDir: tempDir('gridcode-empty-models-') });
    try {
      const e = ctx.embedder() as LocalEmbedder;
      expect(e.status().state).toBe('missing');
      expect(e.status().message).toMatch(/未安装嵌入模型，检索仅使用关键词/);
      expect(e.available()).toBe(false);
      const started = Date.now();
      await expect(e.embed(['母线'], 'query')).rejects.toMatchObject({ code: 'MODEL_MISSING' });
      expect(Date.now() - started).toBeLessThan(2000); // no network attempt, no model load
      expect(e.stats().load_ms).toBeNull();
      const info = await invokeOperation(ctx, 'app.info', {});
      expect(info.search_mode).toBe('lexical');
    } finally {
      await ctx.cleanup();
    }
  });

  it('a listed model whose files are absent is missing, naming the folder', async () => {
    const dir = copyModelsDir();
    fs.rmSync(path.join(dir, TEST_MODEL_ID, 'onnx'), { recursive: true });
    const ctx = tempContext({ modelsDir: dir });
    try {
      const s = ctx.embedder().status();
      expect(s.state).toBe('missing');
      expect(s.message).toContain('model.onnx');
    } finally {
      await ctx.cleanup();
    }
  });

  it('a sha256 mismatch makes the status error and embed refuse', async () => {
    const dir = copyModelsDir();
    fs.appendFileSync(path.join(dir, TEST_MODEL_ID, 'tokenizer_config.json'), '\n');
    const ctx = tempContext({ modelsDir: dir });
    try {
      const e = ctx.embedder();
      expect(e.status().state).toBe('error');
      expect(e.status().message).toMatch(/sha256/);
      expect(e.status().message).toContain('tokenizer_config.json');
      expect(e.available()).toBe(false);
      await expect(e.embed(['母线'], 'query')).rejects.toMatchObject({ code: 'MODEL_MISSING' });
    } finally {
      await ctx.cleanup();
    }
  });

  it('a file transformers.js needs but the folder lacks fails the load locally, never falling back to the hub', async () => {
    const dir = copyModelsDir();
    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    manifest.models[0].files = manifest.models[0].files.filter((f: { path: string }) => f.path !== 'tokenizer_config.json');
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    fs.rmSync(path.join(dir, TEST_MODEL_ID, 'tokenizer_config.json'));
    const ctx = tempContext({ modelsDir: dir });
    try {
      const e = ctx.embedder();
      expect(e.status().state).toBe('ready'); // not listed, so not checked up front
      const err = (await e.embed(['母线'], 'passage').catch((x: unknown) => x)) as { code: string; message: string };
      expect(err).toMatchObject({ code: 'MODEL_MISSING' });
      expect(err.message).toMatch(/tokenizer_config\.json|local/i);
      expect(e.status().state).toBe('error');
    } finally {
      await ctx.cleanup();
    }
  });

  it('an ONNX file that does not load turns the status to error instead of hanging', async () => {
    const dir = copyModelsDir();
    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    for (const f of manifest.models[0].files) f.sha256 = null; // no hash to catch it first
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    fs.writeFileSync(path.join(dir, TEST_MODEL_ID, 'onnx', 'model.onnx'), Buffer.from('this is not an onnx model'));
    const ctx = tempContext({ modelsDir: dir });
    try {
      const e = ctx.embedder();
      expect(e.status().state).toBe('ready');
      await expect(e.embed(['母线'], 'passage')).rejects.toMatchObject({ code: 'MODEL_MISSING' });
      expect(e.status().state).toBe('error');
      expect(e.status().message).toMatch(/加载失败/);
      await expect(e.embed(['母线'], 'passage')).rejects.toMatchObject({ code: 'MODEL_MISSING' });
    } finally {
      await ctx.cleanup();
    }
  });
});
