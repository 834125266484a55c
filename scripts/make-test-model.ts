/**
 * Generates the tiny BERT-shaped test model used by tests and benchmarks (no network, no
 * pretrained weights): `test/fixtures/generated/models/<id>/` with onnx/model.onnx, config.json,
 * tokenizer.json (WordPiece, every CJK Unified Ideograph as one token), tokenizer_config.json,
 * and a manifest.json beside the folder.
 *
 * The graph: token embedding (Gather) + position + token type embeddings, then one residual layer
 * h = x + tanh(x·W1 + ctx·W2 + b) where ctx is the attention-masked mean of x over the sequence.
 * The masked context makes padding matter (a wrong attention mask would change vectors, so the
 * batch-of-1 vs batch-of-32 test can fail), while the residual keeps each output close to its own
 * character embedding — texts sharing characters get more similar mean-pooled vectors.
 *
 * `npm run fixtures` (or `tsx scripts/make-test-model.ts [outDir]`). Deterministic: same seed, same bytes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import onnxProto from 'onnx-proto';
import { mulberry32 } from './lib/prng';

const { onnx } = onnxProto as unknown as { onnx: typeof import('onnx-proto').onnx };

export const TEST_MODEL_ID = 'gridcode-test-zh';
export const TEST_MODEL_DIMS = 32;
/** Bumped when the generated files change shape, so stale fixtures get regenerated. */
export const TEST_MODEL_VERSION = 2;
const MAX_POSITIONS = 512;
const SEED = 20240611;

const here = path.dirname(fileURLToPath(import.meta.url));
export const defaultTestModelsDir = path.resolve(here, '..', 'test', 'fixtures', 'generated', 'models');

const rng = mulberry32;

export function gaussian(next: () => number): () => number {
  return () => {
    const u = Math.max(next(), 1e-12);
    const v = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

export function randomMatrix(rows: number, cols: number, scale: number, normal: () => number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) out[i] = normal() * scale;
  return out;
}

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/** Vocabulary: specials, ASCII letters/digits (+ ## continuations), punctuation, U+4E00–U+9FFF. */
export function buildVocab(): string[] {
  const vocab: string[] = [...SPECIAL_TOKENS];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const digits = '0123456789';
  for (const c of letters + digits) vocab.push(c);
  for (const c of letters + digits) vocab.push(`##${c}`);
  // BertPreTokenizer splits punctuation into single-character words
  for (const c of `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`) vocab.push(c);
  for (const c of '，。、；：？！“”‘’（）《》【】—…·') vocab.push(c);
  for (let cp = 0x4e00; cp <= 0x9fff; cp++) vocab.push(String.fromCodePoint(cp));
  return vocab;
}

export function tensor(name: string, dims: number[], data: Float32Array | BigInt64Array): import('onnx-proto').onnx.ITensorProto {
  const isFloat = data instanceof Float32Array;
  return {
    name,
    dims,
    dataType: isFloat ? onnx.TensorProto.DataType.FLOAT : onnx.TensorProto.DataType.INT64,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

export function valueInfo(name: string, elemType: number, shape: (string | number)[]): import('onnx-proto').onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  };
}

export function node(opType: string, inputs: string[], outputs: string[], attrs: import('onnx-proto').onnx.IAttributeProto[] = []) {
  return { opType, input: inputs, output: outputs, name: outputs[0], attribute: attrs };
}

export function buildOnnxModel(vocabSize: number, dims: number): Uint8Array {
  const normal = gaussian(rng(SEED));
  // Specials (CLS/SEP/PAD...) get small embeddings so they do not dominate every mean-pooled vector.
  const word = randomMatrix(vocabSize, dims, 1, normal);
  for (let i = 0; i < SPECIAL_TOKENS.length * dims; i++) word[i] *= 0.1;
  const position = randomMatrix(MAX_POSITIONS, dims, 0.05, normal);
  const tokenType = randomMatrix(2, dims, 0.05, normal);
  const w1 = randomMatrix(dims, dims, 0.5 / Math.sqrt(dims), normal);
  const w2 = randomMatrix(dims, dims, 0.5 / Math.sqrt(dims), normal);
  const bias = randomMatrix(1, dims, 0.1, normal);

  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const graph: import('onnx-proto').onnx.IGraphProto = {
    name: 'gridcode_tiny_bert',
    initializer: [
      tensor('word_embeddings', [vocabSize, dims], word),
      tensor('position_embeddings', [MAX_POSITIONS, dims], position),
      tensor('token_type_embeddings', [2, dims], tokenType),
      tensor('w1', [dims, dims], w1),
      tensor('w2', [dims, dims], w2),
      tensor('bias', [dims], bias),
      tensor('one_i64', [], BigInt64Array.of(1n)),
      tensor('zero_i64', [], BigInt64Array.of(0n)),
      tensor('axes_seq', [1], BigInt64Array.of(1n)),
      tensor('axes_last', [1], BigInt64Array.of(2n)),
      tensor('tiny', [], Float32Array.of(1e-6)),
    ],
    input: [
      valueInfo('input_ids', INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', INT64, ['batch_size', 'sequence_length']),
    ],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', dims])],
    node: [
      node('Gather', ['word_embeddings', 'input_ids'], ['tok_emb']),
      node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_emb']),
      node('Shape', ['input_ids'], ['ids_shape']),
      node('Gather', ['ids_shape', 'one_i64'], ['seq_len'], [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }]),
      node('Range', ['zero_i64', 'seq_len', 'one_i64'], ['positions']),
      node('Gather', ['position_embeddings', 'positions'], ['pos_emb']),
      node('Add', ['tok_emb', 'type_emb'], ['emb_a']),
      node('Add', ['emb_a', 'pos_emb'], ['x']),
      // attention-masked mean of x over the sequence: [B, 1, D]
      node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }]),
      node('Unsqueeze', ['mask_f', 'axes_last'], ['mask_3d']),
      node('Mul', ['x', 'mask_3d'], ['x_masked']),
      node('ReduceSum', ['x_masked', 'axes_seq'], ['x_sum'], [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 1 }]),
      node('ReduceSum', ['mask_3d', 'axes_seq'], ['mask_count'], [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 1 }]),
      node('Max', ['mask_count', 'tiny'], ['mask_count_safe']),
      node('Div', ['x_sum', 'mask_count_safe'], ['context']),
      node('MatMul', ['x', 'w1'], ['xw1']),
      node('MatMul', ['context', 'w2'], ['cw2']),
      node('Add', ['xw1', 'cw2'], ['pre_a']),
      node('Add', ['pre_a', 'bias'], ['pre']),
      node('Tanh', ['pre'], ['act']),
      node('Add', ['x', 'act'], ['last_hidden_state']),
    ],
  };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'gridcode-make-test-model',
    producerVersion: String(TEST_MODEL_VERSION),
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

export function buildTokenizerJson(vocab: string[]): unknown {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const special = (token: string) => ({ id: token, type_id: 0 });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: ids[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: special('[CLS]') }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: special('[SEP]') }],
      pair: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [ids[t]], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}

export interface GeneratedModel {
  modelsDir: string;
  modelDir: string;
  id: string;
  dims: number;
}

function sha256File(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function isCurrent(modelsDir: string): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(modelsDir, 'manifest.json'), 'utf8')) as {
      generator_version?: number;
      models: { folder: string; files: { path: string }[] }[];
    };
    if (manifest.generator_version !== TEST_MODEL_VERSION) return false;
    return manifest.models.every((m) => m.files.every((f) => fs.existsSync(path.join(modelsDir, m.folder, f.path))));
  } catch {
    return false;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Writes the model unless an up-to-date copy is already there. Several test runs share one
 * checkout, so writers take an exclusive lock file and readers wait for it.
 */
export function ensureTestModel(modelsDir = defaultTestModelsDir, options: { force?: boolean } = {}): GeneratedModel {
  const result = { modelsDir, modelDir: path.join(modelsDir, TEST_MODEL_ID), id: TEST_MODEL_ID, dims: TEST_MODEL_DIMS };
  if (!options.force && isCurrent(modelsDir)) return result;
  fs.mkdirSync(modelsDir, { recursive: true });
  const lock = path.join(modelsDir, '.generating.lock');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      break;
    } catch {
      // another process is generating: wait for it, or take over a lock left by a crash
      if (!options.force && isCurrent(modelsDir) && !fs.existsSync(lock)) return result;
      const stale = (() => {
        try {
          return Date.now() - fs.statSync(lock).mtimeMs > 60_000;
        } catch {
          return false;
        }
      })();
      if (stale || Date.now() > deadline) fs.rmSync(lock, { force: true });
      else sleepSync(100);
    }
  }
  try {
    if (!options.force && isCurrent(modelsDir)) return result;
    return generate(modelsDir, result);
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function generate(modelsDir: string, result: GeneratedModel): GeneratedModel {

  // Build in a temp sibling and rename, so a concurrent reader never sees half-written files.
  fs.mkdirSync(modelsDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(modelsDir, `.staging-${process.pid}-`));
  const modelDir = path.join(staging, TEST_MODEL_ID);
  fs.mkdirSync(path.join(modelDir, 'onnx'), { recursive: true });
  const vocab = buildVocab();
  fs.writeFileSync(path.join(modelDir, 'onnx', 'model.onnx'), buildOnnxModel(vocab.length, TEST_MODEL_DIMS));
  fs.writeFileSync(
    path.join(modelDir, 'config.json'),
    JSON.stringify(
      {
        model_type: 'bert',
        architectures: ['BertModel'],
        hidden_size: TEST_MODEL_DIMS,
        num_hidden_layers: 1,
        num_attention_heads: 1,
        intermediate_size: TEST_MODEL_DIMS,
        vocab_size: vocab.length,
        max_position_embeddings: MAX_POSITIONS,
        type_vocab_size: 2,
        pad_token_id: 0,
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(modelDir, 'tokenizer.json'), JSON.stringify(buildTokenizerJson(vocab)));
  fs.writeFileSync(
    path.join(modelDir, 'tokenizer_config.json'),
    JSON.stringify(
      {
        tokenizer_class: 'BertTokenizer',
        do_lower_case: true,
        tokenize_chinese_chars: true,
        model_max_length: MAX_POSITIONS,
        cls_token: '[CLS]',
        sep_token: '[SEP]',
        pad_token: '[PAD]',
        unk_token: '[UNK]',
        mask_token: '[MASK]',
        clean_up_tokenization_spaces: true,
      },
      null,
      2,
    ),
  );
  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'].map((p) => ({
    path: p,
    sha256: sha256File(path.join(modelDir, p)),
  }));
  const manifest = {
    generator_version: TEST_MODEL_VERSION,
    models: [
      {
        id: TEST_MODEL_ID,
        folder: TEST_MODEL_ID,
        dims: TEST_MODEL_DIMS,
        pooling: 'mean',
        normalize: true,
        dtype: 'fp32',
        query_prefix: '查询：',
        passage_prefix: '',
        files,
        source: null,
        default: true,
        description: '测试用微型模型（脚本生成，无语义能力）',
      },
    ],
  };
  fs.writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));

  const finalDir = path.join(modelsDir, TEST_MODEL_ID);
  fs.rmSync(finalDir, { recursive: true, force: true });
  try {
    fs.renameSync(modelDir, finalDir);
  } catch (e) {
    // another process won the race with identical content
    if (!fs.existsSync(finalDir)) throw e;
  }
  fs.renameSync(path.join(staging, 'manifest.json'), path.join(modelsDir, 'manifest.json'));
  fs.rmSync(staging, { recursive: true, force: true });
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : defaultTestModelsDir;
  const started = Date.now();
  const model = ensureTestModel(out, { force: true });
  console.log(`test model ${model.id} (${model.dims} dims) -> ${model.modelDir} in ${Date.now() - started} ms`);
}
