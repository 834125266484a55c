/**
 * Generates a BERT encoder with bge-small-zh-v1.5's shape and random weights, for the embedder
 * benchmark only (`npm run bench -- embed`): it costs what the real model costs to run, says
 * nothing about quality. Shape from BAAI/bge-small-zh-v1.5's config.json: hidden 512, 4 layers,
 * 8 heads, intermediate 2048, vocab 21128, 512 positions, GELU, LayerNorm eps 1e-12, CLS pooling.
 * Full self-attention with the additive attention mask, so padding costs what it costs in BERT.
 *
 * The real model ships int8-quantised (model_quantized.onnx); this one is fp32 (ORT runs both,
 * the overhead of our path around session.run is what the bench compares).
 *
 * Writes `<out>/bge-small-zh-shaped/` (onnx/model.onnx ≈ 95 MB, config, tokenizer) and a
 * manifest.json beside it. Deterministic. `tsx scripts/make-bge-shaped-model.ts [outDir]`;
 * default out: .cache/models-bench (gitignored).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import onnxProto from 'onnx-proto';
import { mulberry32 } from './lib/prng';
import { buildTokenizerJson, buildVocab, gaussian, node, randomMatrix, tensor, valueInfo } from './make-test-model';

const { onnx } = onnxProto as unknown as { onnx: typeof import('onnx-proto').onnx };

export const BGE_SHAPED_ID = 'bge-small-zh-shaped';
const GENERATOR_VERSION = 1;
const SHAPE = { hidden: 512, layers: 4, heads: 8, intermediate: 2048, vocab: 21128, positions: 512 };
const SEED = 20261125;

const here = path.dirname(fileURLToPath(import.meta.url));
export const defaultBenchModelsDir = path.resolve(here, '..', '.cache', 'models-bench');

const INT = onnx.AttributeProto.AttributeType.INT;
const INTS = onnx.AttributeProto.AttributeType.INTS;
const FLOAT_ATTR = onnx.AttributeProto.AttributeType.FLOAT;

function buildGraph(): Uint8Array {
  const { hidden: H, layers, heads, intermediate: I, vocab: V, positions: P } = SHAPE;
  const headDim = H / heads;
  const normal = gaussian(mulberry32(SEED));
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const init: import('onnx-proto').onnx.ITensorProto[] = [];
  const nodes: ReturnType<typeof node>[] = [];
  const weight = (name: string, dims: number[], scale = 0.02) => {
    init.push(tensor(name, dims, randomMatrix(dims[0], dims.slice(1).reduce((a, b) => a * b, 1), scale, normal)));
    return name;
  };
  const constant = (name: string, dims: number[], values: number[]) => {
    init.push(tensor(name, dims, Float32Array.from(values)));
    return name;
  };
  const ones = (name: string, n: number) => constant(name, [n], new Array(n).fill(1));
  const zeros = (name: string, n: number) => constant(name, [n], new Array(n).fill(0));
  const layerNorm = (x: string, prefix: string, out: string) => {
    nodes.push(
      node('LayerNormalization', [x, ones(`${prefix}.gamma`, H), zeros(`${prefix}.beta`, H)], [out], [
        { name: 'axis', type: INT, i: -1 },
        { name: 'epsilon', type: FLOAT_ATTR, f: 1e-12 },
      ]),
    );
    return out;
  };
  const linear = (x: string, prefix: string, inDim: number, outDim: number, out: string) => {
    nodes.push(node('MatMul', [x, weight(`${prefix}.w`, [inDim, outDim])], [`${out}.mm`]));
    nodes.push(node('Add', [`${out}.mm`, zeros(`${prefix}.b`, outDim)], [out]));
    return out;
  };
  init.push(tensor('one_i64', [], BigInt64Array.of(1n)));
  init.push(tensor('zero_i64', [], BigInt64Array.of(0n)));
  init.push(tensor('heads_shape', [4], BigInt64Array.of(0n, 0n, BigInt(heads), BigInt(headDim))));
  init.push(tensor('merge_shape', [3], BigInt64Array.of(0n, 0n, BigInt(H))));
  init.push(tensor('mask_axes', [2], BigInt64Array.of(1n, 2n)));
  constant('one_f', [], [1]);
  constant('neg_big', [], [-10000]);
  constant('scale', [], [1 / Math.sqrt(headDim)]);
  constant('half', [], [0.5]);
  constant('inv_sqrt2', [], [Math.SQRT1_2]);

  // embeddings
  weight('word_embeddings', [V, H]);
  weight('position_embeddings', [P, H]);
  weight('token_type_embeddings', [2, H]);
  nodes.push(
    node('Gather', ['word_embeddings', 'input_ids'], ['tok_emb']),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_emb']),
    node('Shape', ['input_ids'], ['ids_shape']),
    node('Gather', ['ids_shape', 'one_i64'], ['seq_len'], [{ name: 'axis', type: INT, i: 0 }]),
    node('Range', ['zero_i64', 'seq_len', 'one_i64'], ['positions']),
    node('Gather', ['position_embeddings', 'positions'], ['pos_emb']),
    node('Add', ['tok_emb', 'type_emb'], ['emb_a']),
    node('Add', ['emb_a', 'pos_emb'], ['emb']),
  );
  let x = layerNorm('emb', 'emb_ln', 'x0');
  // additive mask [B, 1, 1, S]: 0 where attended, -10000 on padding
  nodes.push(
    node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', type: INT, i: FLOAT }]),
    node('Unsqueeze', ['mask_f', 'mask_axes'], ['mask_4d']),
    node('Sub', ['one_f', 'mask_4d'], ['mask_inv']),
    node('Mul', ['mask_inv', 'neg_big'], ['mask_bias']),
  );
  for (let l = 0; l < layers; l++) {
    const p = `l${l}`;
    const split = (name: string, perm: number[]) => {
      linear(x, `${p}.${name}`, H, H, `${p}.${name}`);
      nodes.push(node('Reshape', [`${p}.${name}`, 'heads_shape'], [`${p}.${name}.h`]));
      nodes.push(node('Transpose', [`${p}.${name}.h`], [`${p}.${name}.t`], [{ name: 'perm', type: INTS, ints: perm }]));
      return `${p}.${name}.t`;
    };
    const q = split('q', [0, 2, 1, 3]);
    const k = split('k', [0, 2, 3, 1]);
    const v = split('v', [0, 2, 1, 3]);
    nodes.push(
      node('MatMul', [q, k], [`${p}.qk`]),
      node('Mul', [`${p}.qk`, 'scale'], [`${p}.qk_s`]),
      node('Add', [`${p}.qk_s`, 'mask_bias'], [`${p}.qk_m`]),
      node('Softmax', [`${p}.qk_m`], [`${p}.probs`], [{ name: 'axis', type: INT, i: -1 }]),
      node('MatMul', [`${p}.probs`, v], [`${p}.ctx`]),
      node('Transpose', [`${p}.ctx`], [`${p}.ctx_t`], [{ name: 'perm', type: INTS, ints: [0, 2, 1, 3] }]),
      node('Reshape', [`${p}.ctx_t`, 'merge_shape'], [`${p}.ctx_m`]),
    );
    linear(`${p}.ctx_m`, `${p}.o`, H, H, `${p}.attn`);
    nodes.push(node('Add', [x, `${p}.attn`], [`${p}.res1`]));
    const x1 = layerNorm(`${p}.res1`, `${p}.ln1`, `${p}.x1`);
    linear(x1, `${p}.ff1`, H, I, `${p}.ff1`);
    // exact GELU: 0.5·x·(1 + erf(x/√2)) (ORT fuses it)
    nodes.push(
      node('Mul', [`${p}.ff1`, 'inv_sqrt2'], [`${p}.g_a`]),
      node('Erf', [`${p}.g_a`], [`${p}.g_b`]),
      node('Add', [`${p}.g_b`, 'one_f'], [`${p}.g_c`]),
      node('Mul', [`${p}.ff1`, `${p}.g_c`], [`${p}.g_d`]),
      node('Mul', [`${p}.g_d`, 'half'], [`${p}.gelu`]),
    );
    linear(`${p}.gelu`, `${p}.ff2`, I, H, `${p}.ff2`);
    nodes.push(node('Add', [x1, `${p}.ff2`], [`${p}.res2`]));
    x = layerNorm(`${p}.res2`, `${p}.ln2`, l === layers - 1 ? 'last_hidden_state' : `${p}.out`);
  }
  const graph: import('onnx-proto').onnx.IGraphProto = {
    name: 'bge_small_zh_shaped',
    initializer: init,
    input: [
      valueInfo('input_ids', INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', INT64, ['batch_size', 'sequence_length']),
    ],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', H])],
    node: nodes,
  };
  const model = onnx.ModelProto.create({ irVersion: 8, producerName: 'gridcode-make-bge-shaped-model', producerVersion: String(GENERATOR_VERSION), opsetImport: [{ domain: '', version: 17 }], graph });
  return onnx.ModelProto.encode(model).finish();
}

export interface ShapedModel {
  modelsDir: string;
  modelDir: string;
  id: string;
  dims: number;
}

/** Writes the model unless the same generator version is already there. */
export function ensureBgeShapedModel(modelsDir = defaultBenchModelsDir): ShapedModel {
  const modelDir = path.join(modelsDir, BGE_SHAPED_ID);
  const result = { modelsDir, modelDir, id: BGE_SHAPED_ID, dims: SHAPE.hidden };
  const manifestFile = path.join(modelsDir, 'manifest.json');
  try {
    const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { generator_version?: number };
    if (m.generator_version === GENERATOR_VERSION && fs.existsSync(path.join(modelDir, 'onnx', 'model.onnx'))) return result;
  } catch {
    // absent or unreadable: generate
  }
  fs.mkdirSync(path.join(modelDir, 'onnx'), { recursive: true });
  const vocab = buildVocab();
  for (let i = 0; vocab.length < SHAPE.vocab; i++) vocab.push(`[unused${i}]`);
  fs.writeFileSync(path.join(modelDir, 'onnx', 'model.onnx'), buildGraph());
  fs.writeFileSync(
    path.join(modelDir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: SHAPE.hidden,
      num_hidden_layers: SHAPE.layers,
      num_attention_heads: SHAPE.heads,
      intermediate_size: SHAPE.intermediate,
      vocab_size: SHAPE.vocab,
      max_position_embeddings: SHAPE.positions,
      type_vocab_size: 2,
      pad_token_id: 0,
    }),
  );
  fs.writeFileSync(path.join(modelDir, 'tokenizer.json'), JSON.stringify(buildTokenizerJson(vocab)));
  fs.writeFileSync(
    path.join(modelDir, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, tokenize_chinese_chars: true, model_max_length: SHAPE.positions, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' }),
  );
  const manifest = {
    generator_version: GENERATOR_VERSION,
    models: [
      {
        id: BGE_SHAPED_ID,
        folder: BGE_SHAPED_ID,
        dims: SHAPE.hidden,
        pooling: 'cls',
        normalize: true,
        dtype: 'fp32',
        query_prefix: '',
        passage_prefix: '',
        files: ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'].map((p) => ({ path: p, sha256: null })),
        source: null,
        default: true,
        description: 'bge-small-zh-v1.5 形状的随机权重模型（仅用于嵌入基准）',
      },
    ],
  };
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = process.argv[2] ? path.resolve(process.argv[2]) : defaultBenchModelsDir;
  const t = Date.now();
  const m = ensureBgeShapedModel(out);
  console.log(`${m.id} (${m.dims} dims) -> ${m.modelDir} in ${Date.now() - t} ms`);
}
