/**
 * "Adapt to my library": extends the shipped embedding-bag model (gridcode-zh) with the words of
 * the user's own documents and re-embeds the library. Offline, CPU, about a minute per 100k chunks.
 *
 * What is refitted (the corpus-specific part; the trained token table and projection stay):
 * - vocabulary: words jieba finds in at least MIN_DF of the library's chunks that the model does
 *   not know (power-grid codes: 母线失压, 调度管辖, ...). Unknown words were split into known
 *   pieces before; now they are one token each;
 * - their static vectors: what the base model already made of the word (its pieces, weighted as
 *   the base weighs them) plus a step (CONTEXT_STEP of its norm) towards what the chunks that
 *   contain it share beyond the library's mean vector (an inverse-cloze estimate: "a word means
 *   what the passages around it mean"). With the step at 0 the adapted model embeds exactly like
 *   the base, so adapting keeps what the base knew; the first version (context mean alone, new
 *   IDF-fitted weights) lost 0.04 MRR@10 on the power questions;
 * - their weights: the sum of their pieces' weights (a word counts as much as its pieces did);
 * - confirmed hits (search_confirmed: the user opened a result of a question and kept it): the
 *   question's words the model does not know get the kept passages' vectors too; words that only
 *   questions use (lay words such as 老伙计 for a device, never in the documents) become tokens
 *   whose vector is that of the passages they led to, so the next similar question finds them.
 * Each run writes a new version `<base>-lib<N>` under <data-dir>/models (the base is untouched),
 * selects it and embeds the library with it; `revertModel` selects the base again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { resolveTexts } from '../search/texts';
import type { ProgressSink } from '../common/operation';
import { GridError } from '../common/errors';
import { setSetting } from '../store/db';
import { segment } from '../text/segment';
import { MODEL_SETTING_KEY, type LocalEmbedder } from './create';
import { listModels, readManifest, sha256FileSync, userModelsDir, writeManifest, type LocatedModel, type ModelEntry } from './manifest';
import { readBagFromFolder, writeBagModelFolder, isBagModel, BagTokenizer, type BagWeights } from './bag-model';
import { embedLibrary } from './library';
import { fromBlob } from '../search/vectors';
import { confirmedPairs } from '../search/confirmed';

const MIN_DF = 3;
const MAX_NEW_WORDS = 20_000;
const MAX_WORD_CHARS = 8;
/** A pair confirmed again and again counts more, up to this many times (one user's habit is not the library). */
const MAX_CONFIRMED_REPEATS = 3;
/**
 * How far a library word moves from its base meaning towards its contexts (share of its norm).
 * Chosen on the dev questions of `npm run eval -- power --adapt` (0 = the base exactly; 0.25 kept
 * dev MRR@10 within 0.004 of the base while 0.5 lost 0.016; see models/README.md for held-out numbers).
 */
const CONTEXT_STEP = 0.25;

export interface AdaptResult {
  model_id: string;
  base_id: string;
  chunks: number;
  new_words: number;
  examples: string[];
  vectors: number;
  seconds: number;
  /** confirmed hits (question -> kept passage) learned from */
  confirmed_pairs: number;
  /** words only the user's questions use (not the library), learned from confirmed hits */
  query_words: number;
}

function cancelled(signal?: AbortSignal): void {
  if (signal?.aborted) throw new GridError('CANCELLED', '已取消调整模型');
}

/** The base (shipped, never adapted) embedding-bag model behind the active one. */
function baseModel(ctx: AppContext): LocatedModel {
  const embedder = ctx.embedder();
  const status = embedder.status();
  const models = listModels(ctx.modelsDir, ctx.dataDir);
  const active = models.find((m) => m.id === status.model_id);
  if (!active || status.state !== 'ready') throw new GridError('MODEL_MISSING', '没有可用的嵌入模型，无法按资料库调整');
  const baseId = active.adapted_from ?? active.id;
  const base = models.find((m) => m.id === baseId);
  if (!base || !isBagModel(base.dir)) {
    throw new GridError('INVALID_INPUT', `当前模型 ${active.id} 不支持按资料库调整（只有 GridCode 自带模型支持）`);
  }
  return base;
}

/** The library's chunks as the indexers embed them (title + text), regulations and collections. */
function libraryTexts(ctx: AppContext): { id: number; text: string }[] {
  const rows = resolveTexts(
    ctx.db,
    ctx.db.prepare("SELECT id, corpus, parent, title, text FROM search_items WHERE (corpus = 'reg' OR corpus LIKE 'col:%') ORDER BY id").all() as {
      id: number;
      corpus: string;
      parent: string;
      title: string | null;
      text: string | null;
    }[],
  ).filter((r): r is typeof r & { text: string } => r.text !== null);
  return rows.map((r) => ({ id: r.id, text: r.title ? `${r.title}\n${r.text}` : r.text }));
}

export async function adaptModel(ctx: AppContext, progress: ProgressSink = () => {}, signal?: AbortSignal): Promise<AdaptResult> {
  const started = performance.now();
  const base = baseModel(ctx);
  const embedder = ctx.embedder() as LocalEmbedder;

  // 1. the base model's vectors of every chunk (re-embeds only what is missing)
  if (embedder.status().model_id !== base.id) await selectModel(ctx, base.id);
  await embedLibrary(ctx, (e) => progress({ ...e, stage: '准备：基础模型向量' }), signal);
  cancelled(signal);
  const texts = libraryTexts(ctx);
  if (texts.length < 20) throw new GridError('INVALID_INPUT', `资料库只有 ${texts.length} 个段落，太少，无法调整（请先导入规程或文档集合）`);

  // 2. words of the library the model does not know, with their document frequency
  const weights = readBagFromFolder(base.dir);
  const tokenizer = new BagTokenizer(weights.vocab, weights.pieceRegex);
  const known = new Set(weights.vocab);
  const df = new Map<string, number>();
  const tokenDf = new Map<number, number>();
  const docsOf = new Map<string, number[]>();
  texts.forEach((t, i) => {
    const seen = new Set<string>();
    for (const w of segment(t.text)) {
      const word = w.toLowerCase();
      if (word.length < 2 || word.length > MAX_WORD_CHARS || known.has(word) || seen.has(word)) continue;
      if (!/^[\u4e00-\u9fffa-z0-9]+$/.test(word) || /^[0-9]+$/.test(word)) continue;
      seen.add(word);
      df.set(word, (df.get(word) ?? 0) + 1);
    }
    for (const id of new Set(tokenizer.encode(t.text))) tokenDf.set(id, (tokenDf.get(id) ?? 0) + 1);
    if (i % 2000 === 0) progress({ stage: '统计资料库词汇', done: i, total: texts.length });
  });
  cancelled(signal);
  const N = texts.length;
  const libraryWords = [...df.entries()]
    .filter(([, n]) => n >= MIN_DF && n < N * 0.5)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_NEW_WORDS)
    .map(([w]) => w);
  const wordSet = new Set(libraryWords);

  // confirmed hits: question words the model does not know -> the kept passages (chunk indexes)
  const indexOfItem = new Map(texts.map((t, i) => [t.id, i]));
  const itemsOf = ctx.db.prepare('SELECT id FROM search_items WHERE corpus = ? AND parent = ?');
  const confirmed = confirmedPairs(ctx.db, (c) => c === 'reg' || c.startsWith('col:'));
  const confirmedDocs = new Map<string, number[]>();
  for (const pair of confirmed) {
    const chunks = (itemsOf.all(pair.corpus, pair.parent) as { id: number }[]).map((r) => indexOfItem.get(r.id)).filter((i): i is number => i !== undefined);
    if (!chunks.length) continue;
    for (const word of new Set(segment(pair.query).map((w) => w.toLowerCase()))) {
      if (word.length < 2 || word.length > MAX_WORD_CHARS || known.has(word)) continue;
      if (!/^[\u4e00-\u9fffa-z0-9]+$/.test(word) || /^[0-9]+$/.test(word)) continue;
      let list = confirmedDocs.get(word);
      if (!list) confirmedDocs.set(word, (list = []));
      for (let r = 0; r < Math.min(pair.times, MAX_CONFIRMED_REPEATS); r++) list.push(...chunks);
    }
  }
  const queryWords = [...confirmedDocs.keys()].filter((w) => !wordSet.has(w)).sort();
  const words = [...libraryWords, ...queryWords];
  texts.forEach((t, i) => {
    const seen = new Set<string>();
    for (const w of segment(t.text)) {
      const word = w.toLowerCase();
      if (!wordSet.has(word) || seen.has(word)) continue;
      seen.add(word);
      let list = docsOf.get(word);
      if (!list) docsOf.set(word, (list = []));
      list.push(i);
    }
  });

  // 3. static vectors: mean of the base vectors of the chunks containing the word
  const dims = weights.dims;
  const vecStmt = ctx.db.prepare('SELECT vec, dims FROM search_vectors WHERE item_id = ? AND model_id = ?');
  const chunkVec = (i: number): Float32Array | null => {
    const r = vecStmt.get(texts[i].id, base.id) as { vec: Buffer; dims: number } | undefined;
    return r ? fromBlob(r.vec, r.dims) : null;
  };
  const rowNorms: number[] = [];
  for (let r = 0; r < weights.vocab.length; r += 7) {
    let s = 0;
    for (let d = 0; d < dims; d++) s += (weights.embQ8[r * dims + d] * weights.embScale[r]) ** 2;
    if (s > 0) rowNorms.push(Math.sqrt(s));
  }
  rowNorms.sort((a, b) => a - b);
  const typicalNorm = rowNorms[Math.floor(rowNorms.length / 2)] ?? 1;
  // the library's mean chunk vector: every chunk shares it, so a word's context mean minus it is
  // what the word's contexts have in common beyond "this library" (without this, new words pull
  // queries towards the library's centre)
  const center = new Float64Array(dims);
  let counted = 0;
  for (let i = 0; i < texts.length; i += Math.max(1, Math.floor(texts.length / 5000))) {
    const v = chunkVec(i);
    if (!v || v.length !== dims) continue;
    for (let d = 0; d < dims; d++) center[d] += v[d];
    counted++;
  }
  for (let d = 0; d < dims; d++) center[d] /= counted || 1;

  // 4. weights: least squares of the trained weights against IDF in this library
  const idf = (n: number) => Math.log((N + 1) / (n + 1));
  const fit = (w: Float32Array) => {
    let sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
    for (const [id, d] of tokenDf) {
      if (id < 3) continue;
      const x = idf(d);
      sx += x; sy += w[id]; sxx += x * x; sxy += x * w[id]; n++;
    }
    const slope = n > 1 ? (n * sxy - sx * sy) / Math.max(1e-9, n * sxx - sx * sx) : 0.25;
    const icept = n > 0 ? (sy - slope * sx) / n : 0;
    return (x: number) => Math.max(0.01, slope * x + icept);
  };
  const fitP = fit(weights.wPassage);
  const fitQ = fit(weights.wQuery);

  const toQuerySpace = queryRowSolver(weights.proj, dims);

  const V0 = weights.vocab.length;
  const added: string[] = [];
  const rows: { q8: Int8Array; scale: number; wp: number; wq: number }[] = [];
  words.forEach((w, k) => {
    const docs = docsOf.get(w) ?? [];
    const acc = new Float64Array(dims);
    let used = 0;
    for (const i of [...docs.slice(0, 200), ...(confirmedDocs.get(w) ?? [])]) {
      const v = chunkVec(i);
      if (!v || v.length !== dims) continue;
      for (let d = 0; d < dims; d++) acc[d] += v[d];
      used++;
    }
    if (!used) return;
    for (let d = 0; d < dims; d++) acc[d] = acc[d] / used - center[d];
    let norm = 0;
    const row = new Float32Array(dims);
    let wp: number;
    let wq: number;
    if (wordSet.has(w)) {
      // a library word: what the base model already said about it (its pieces, weighted as the
      // base weighs them) plus a step towards what its contexts share. With the step at 0 the
      // adapted model embeds every text exactly like the base, so adapting cannot lose what the
      // base knew; the step adds what only this library can teach.
      const base = new Float64Array(dims);
      wp = 0;
      wq = 0;
      for (const id of tokenizer.encode(w)) {
        const pw = weights.wPassage[id];
        wp += pw;
        wq += weights.wQuery[id];
        for (let d = 0; d < dims; d++) base[d] += pw * weights.embQ8[id * dims + d] * weights.embScale[id];
      }
      let baseNorm = 0;
      for (let d = 0; d < dims; d++) baseNorm += (base[d] /= wp || 1) ** 2;
      baseNorm = Math.sqrt(baseNorm) || typicalNorm;
      for (let d = 0; d < dims; d++) norm += acc[d] * acc[d];
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) row[d] = base[d] + CONTEXT_STEP * baseNorm * (acc[d] / norm);
      if (!(wp > 0)) {
        const x = idf(docs.length);
        wp = fitP(x);
        wq = fitQ(x);
      }
    } else {
      // a word only questions use is only ever seen through the query projection: place it so
      // that its projected vector, not the raw row, points at the passages it led to
      acc.set(toQuerySpace(acc));
      for (let d = 0; d < dims; d++) norm += acc[d] * acc[d];
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) row[d] = (acc[d] / norm) * typicalNorm;
      const x = idf(docs.length);
      wp = fitP(x);
      wq = fitQ(x);
    }
    let maxAbs = 0;
    for (let d = 0; d < dims; d++) maxAbs = Math.max(maxAbs, Math.abs(row[d]));
    const scale = maxAbs / 127 || 1;
    const q8 = Int8Array.from(row, (x) => Math.max(-127, Math.min(127, Math.round(x / scale))));
    rows.push({ q8, scale, wp, wq });
    added.push(w);
    if (k % 500 === 0) progress({ stage: '拟合新词向量', done: k, total: words.length });
  });
  cancelled(signal);

  const V = V0 + added.length;
  const ext: BagWeights = {
    ...weights,
    vocab: [...weights.vocab, ...added],
    embQ8: new Int8Array(V * dims),
    embScale: new Float32Array(V),
    wPassage: new Float32Array(V),
    wQuery: new Float32Array(V),
  };
  ext.embQ8.set(weights.embQ8);
  ext.embScale.set(weights.embScale);
  ext.wPassage.set(weights.wPassage);
  ext.wQuery.set(weights.wQuery);
  rows.forEach((r, k) => {
    ext.embQ8.set(r.q8, (V0 + k) * dims);
    ext.embScale[V0 + k] = r.scale;
    ext.wPassage[V0 + k] = r.wp;
    ext.wQuery[V0 + k] = r.wq;
  });

  // 5. a new version in the data dir (staging folder, renamed when complete)
  const userDir = userModelsDir(ctx.dataDir);
  const manifest = readManifest(userDir);
  const prefix = `${base.id}-lib`;
  const version = 1 + Math.max(0, ...manifest.models.filter((m) => m.id.startsWith(prefix)).map((m) => Number(m.id.slice(prefix.length)) || 0));
  const id = `${prefix}${version}`;
  const staging = path.join(userDir, `.${id}.staging`);
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    progress({ stage: '写入模型', done: 0, total: 1 });
    const files = writeBagModelFolder(staging, ext, `${id}`);
    cancelled(signal);
    const dir = path.join(userDir, id);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(staging, dir);
    const entry: ModelEntry = {
      ...(base as ModelEntry),
      id,
      folder: id,
      files: files.map((p) => ({ path: p, sha256: sha256FileSync(path.join(dir, p)) })),
      source: null,
      default: false,
      adapted_from: base.id,
      description: `按本机资料库调整的 ${base.id}（第 ${version} 版，新增 ${added.length} 个词，${N} 个段落）`,
    };
    for (const k of ['location', 'root', 'dir'] as const) delete (entry as Partial<LocatedModel>)[k];
    manifest.models = [...manifest.models.filter((m) => m.id !== id), entry];
    writeManifest(userDir, manifest);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }

  // 6. use it and embed the library with it
  await selectModel(ctx, id);
  const result = await embedLibrary(ctx, (e) => progress({ ...e, stage: '用新模型生成向量' }), signal);
  return {
    model_id: id,
    base_id: base.id,
    chunks: N,
    new_words: added.length,
    examples: added.slice(0, 20),
    vectors: result.vectors,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    confirmed_pairs: confirmed.length,
    query_words: queryWords.filter((w) => added.includes(w)).length,
  };
}

/**
 * Queries are embedded as v·P (bag-model.ts). For a target direction t this returns the row v
 * with v·P ≈ t: ridge least squares v = t·Pᵀ(P·Pᵀ + λI)⁻¹, λ = 1e-3 of the mean diagonal, so a
 * badly conditioned projection cannot blow the row up. One Cholesky factorisation, then a solve per word.
 */
export function queryRowSolver(proj: Float32Array, dims: number): (target: Float64Array) => Float64Array {
  const D = dims;
  const M = new Float64Array(D * D);
  for (let i = 0; i < D; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = 0; k < D; k++) s += proj[i * D + k] * proj[j * D + k];
      M[i * D + j] = s;
      M[j * D + i] = s;
    }
  }
  let trace = 0;
  for (let i = 0; i < D; i++) trace += M[i * D + i];
  const lambda = 1e-3 * (trace / D || 1);
  for (let i = 0; i < D; i++) M[i * D + i] += lambda;
  // Cholesky: M = L·Lᵀ (M is symmetric positive definite thanks to λ)
  const L = new Float64Array(D * D);
  for (let i = 0; i < D; i++) {
    for (let j = 0; j <= i; j++) {
      let s = M[i * D + j];
      for (let k = 0; k < j; k++) s -= L[i * D + k] * L[j * D + k];
      L[i * D + j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / L[j * D + j];
    }
  }
  return (t) => {
    // b = P·tᵀ, then solve M x = b; v = xᵀ (M is symmetric)
    const b = new Float64Array(D);
    for (let i = 0; i < D; i++) {
      let s = 0;
      for (let j = 0; j < D; j++) s += proj[i * D + j] * t[j];
      b[i] = s;
    }
    const y = new Float64Array(D);
    for (let i = 0; i < D; i++) {
      let s = b[i];
      for (let k = 0; k < i; k++) s -= L[i * D + k] * y[k];
      y[i] = s / L[i * D + i];
    }
    const x = new Float64Array(D);
    for (let i = D - 1; i >= 0; i--) {
      let s = y[i];
      for (let k = i + 1; k < D; k++) s -= L[k * D + i] * x[k];
      x[i] = s / L[i * D + i];
    }
    return x;
  };
}

async function selectModel(ctx: AppContext, id: string | null): Promise<void> {
  if (id === null) ctx.db.prepare('DELETE FROM settings WHERE key = ?').run(MODEL_SETTING_KEY);
  else setSetting(ctx.db, MODEL_SETTING_KEY, id);
  const e = ctx.embedder() as Partial<LocalEmbedder>;
  const status = e.reload ? await e.reload() : ctx.embedder().status();
  if (status.state !== 'ready') throw new GridError('MODEL_MISSING', status.message);
}

/** Goes back to the model the active adapted one was built from (vectors of it are kept, so this is quick). */
export async function revertModel(ctx: AppContext, progress: ProgressSink = () => {}, signal?: AbortSignal): Promise<{ model_id: string; vectors: number }> {
  const status = ctx.embedder().status();
  const active = listModels(ctx.modelsDir, ctx.dataDir).find((m) => m.id === status.model_id);
  if (!active?.adapted_from) throw new GridError('INVALID_INPUT', `当前模型 ${status.model_id ?? '（无）'} 不是按资料库调整的版本，无需恢复`);
  const base = active.adapted_from;
  const isDefault = listModels(ctx.modelsDir, ctx.dataDir).find((m) => m.id === base)?.location === 'bundled';
  await selectModel(ctx, isDefault ? null : base);
  if (ctx.embedder().status().model_id !== base) await selectModel(ctx, base);
  const r = await embedLibrary(ctx, (e) => progress({ ...e, stage: '生成向量' }), signal);
  return { model_id: base, vectors: r.vectors };
}
