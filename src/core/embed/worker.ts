/**
 * Embedding worker (worker_threads): the one thread per process that runs transformers.js on
 * onnxruntime-node, so tokenising and inference never block the main thread (CLI, MCP, browser
 * shell, Electron main). One thread for all models because onnxruntime-node 1.21 keeps a
 * process-global N-API reference: two isolates using it at once abort the process
 * (microsoft/onnxruntime#24486). For the same reason it also hosts OCR of scanned PDF pages
 * (`../ocr/worker-tasks.ts`: pdf.js rendering + PP-OCR det/rec). Imports nothing else from core so
 * electron-vite can bundle it as a small sibling file `embed-worker.js`.
 */
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import type { FromWorker, ModelSpec, ToWorker } from './protocol';
import { poolHidden } from './pooling';
import { closeOcrDocument, openOcrDocument, readOcrPage } from '../ocr/worker-tasks';
import { isBagModel, readBagFromFolder } from './bag-model';
import { BagEncoder } from './bag-infer';

const port = parentPort!;
const post = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

/** transformers.js + onnxruntime, loaded for the first model that needs them (an embedding bag does not: ~1 s of start-up). */
let transformers: Promise<typeof import('@huggingface/transformers')> | null = null;
function loadTransformers(): Promise<typeof import('@huggingface/transformers')> {
  transformers ??= import('@huggingface/transformers').then((t) => {
    // Local files only, always: the app must never reach for the network.
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.useBrowserCache = false;
    t.env.useFSCache = false;
    return t;
  });
  return transformers;
}

/** GRIDCODE_EMBED_THREADS caps ONNX Runtime's intra-op threads (default: one per core), e.g. on a busy laptop. */
function sessionOptions(): Record<string, unknown> {
  const threads = Number(process.env.GRIDCODE_EMBED_THREADS);
  return Number.isInteger(threads) && threads > 0 ? { intraOpNumThreads: threads } : {};
}

type Loaded = { spec: ModelSpec; extractor: FeatureExtractionPipeline; bag?: undefined } | { spec: ModelSpec; bag: BagEncoder; extractor?: undefined };
const models = new Map<string, Loaded>();

async function load(key: string, spec: ModelSpec): Promise<void> {
  if (models.has(key)) return post({ type: 'loaded', key, loadMs: 0 });
  const started = performance.now();
  try {
    const dir = path.join(spec.modelRoot, spec.folder);
    // GridCode's embedding bag: the same maths straight from its weights (bag-infer.ts), unless asked for onnxruntime
    if (spec.runtime !== 'onnx' && isBagModel(dir)) {
      models.set(key, { spec, bag: new BagEncoder(readBagFromFolder(dir)) });
      return post({ type: 'loaded', key, loadMs: performance.now() - started });
    }
    const { env, pipeline } = await loadTransformers();
    // localModelPath is global to transformers.js; safe because messages are handled one at a time
    env.localModelPath = spec.modelRoot.endsWith('/') ? spec.modelRoot : `${spec.modelRoot}/`;
    const extractor = (await pipeline('feature-extraction', spec.folder, {
      dtype: spec.dtype as 'fp32',
      local_files_only: true,
      session_options: sessionOptions(),
    } as Parameters<typeof pipeline>[2])) as FeatureExtractionPipeline;
    models.set(key, { spec, extractor });
    post({ type: 'loaded', key, loadMs: performance.now() - started });
  } catch (e) {
    post({ type: 'load-error', key, message: (e as Error).message ?? String(e) });
  }
}

/** One model run over a batch (padded to its longest text): pooled vectors, row-major. */
async function runBatch(extractor: FeatureExtractionPipeline, spec: ModelSpec, texts: string[]): Promise<{ dims: number; data: Float32Array }> {
  // The pipeline's own steps (tokenizer, model forward), our pooling: see pooling.ts for why.
  const inputs = extractor.tokenizer(texts, { padding: true, truncation: true });
  const outputs = (await extractor.model(inputs)) as Record<string, { dims: number[]; data: Float32Array } | undefined>;
  const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits;
  if (!hidden || hidden.dims.length !== 3) throw new Error('模型输出缺少 last_hidden_state [batch, seq, dims]');
  const [batch, seq, dims] = hidden.dims;
  const mask = (inputs.attention_mask as { data: BigInt64Array }).data;
  return { dims, data: poolHidden(hidden.data, mask, batch, seq, dims, spec.pooling, spec.normalize) };
}

/** All texts of one message: an embedding bag in one pass, an ONNX model `batch` texts per run; one result back. */
async function embed(id: number, key: string, texts: string[], batch: number): Promise<void> {
  const model = models.get(key);
  if (!model) return post({ type: 'error', id, message: '模型未加载' });
  const started = performance.now();
  try {
    const { spec } = model;
    if (model.bag) {
      const data = model.bag.embed(texts, spec.normalize);
      return post({ type: 'result', id, dims: model.bag.dims, data, ms: performance.now() - started }, [data.buffer as ArrayBuffer]);
    }
    let out: Float32Array | null = null;
    let dims = 0;
    for (let i = 0; i < texts.length; i += batch) {
      const r = await runBatch(model.extractor, spec, texts.slice(i, i + batch));
      dims = r.dims;
      out ??= new Float32Array(texts.length * dims);
      out.set(r.data, i * dims);
    }
    const data = out ?? new Float32Array(0);
    post({ type: 'result', id, dims, data, ms: performance.now() - started }, [data.buffer as ArrayBuffer]);
  } catch (e) {
    post({ type: 'error', id, message: (e as Error).message ?? String(e) });
  }
}

async function unload(key: string): Promise<void> {
  const model = models.get(key);
  models.delete(key);
  await model?.extractor?.dispose().catch(() => {});
}

async function ocr(msg: Extract<ToWorker, { type: 'ocr-open' | 'ocr-page' | 'ocr-close' }>): Promise<void> {
  try {
    const value =
      msg.type === 'ocr-open'
        ? await openOcrDocument(msg.doc, msg.data, msg.limits)
        : msg.type === 'ocr-page'
          ? await readOcrPage(msg.doc, msg.page)
          : (await closeOcrDocument(msg.doc), null);
    post({ type: 'ocr-done', id: msg.id, value });
  } catch (e) {
    post({ type: 'ocr-error', id: msg.id, message: (e as Error).message ?? String(e) });
  }
}

// One message at a time: batches are already sized by the caller and ORT uses all cores per run.
let chain = Promise.resolve();
port.on('message', (msg: ToWorker) => {
  chain = chain.then(() => {
    if (msg.type === 'load') return load(msg.key, msg.spec);
    if (msg.type === 'embed') return embed(msg.id, msg.key, msg.texts, Math.max(1, msg.batch));
    if (msg.type === 'unload') return unload(msg.key);
    if (msg.type === 'ocr-open' || msg.type === 'ocr-page' || msg.type === 'ocr-close') return ocr(msg);
  });
});
