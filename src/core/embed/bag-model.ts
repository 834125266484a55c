/**
 * Writes GridCode's embedding-bag model (trained by scripts/train/train_gridcode_zh.py) as a
 * transformers.js model folder: onnx/model.onnx, config.json, tokenizer.json, tokenizer_config.json.
 *
 * The ONNX graph computes, per text, the weighted mean of its token vectors and returns it as
 * last_hidden_state [batch, 1, dims] (manifest pooling 'cls' takes that one row, the app normalises):
 *   e_t = int8 table[id_t] * scale[id_t]
 *   w_t = (query ? w_query : w_passage)[id_t] * attention_mask_t      query = the text contains [Q]
 *   v   = Σ w_t e_t / (Σ w_t + 1e-6);  queries: v · proj
 * Queries are marked by the manifest's query_prefix "[Q]", an added special token with weight 0.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lazyModule } from '../common/lazy';

// protobufjs + the ONNX schema load when a bag model is built or read, not at start-up
const onnxProto = lazyModule<{ onnx: typeof import('onnx-proto').onnx }>('onnx-proto');
type ITensorProto = import('onnx-proto').onnx.ITensorProto;

export interface BagWeights {
  vocab: string[];
  dims: number;
  queryTokenId: number;
  padTokenId: number;
  embQ8: Int8Array;
  embScale: Float32Array;
  wPassage: Float32Array;
  wQuery: Float32Array;
  proj: Float32Array;
  pieceRegex: string;
  maxTokens: number;
}

interface WeightsMeta {
  vocab_size: number;
  dims: number;
  query_token_id: number;
  pad_token_id: number;
  piece_regex: string;
  max_tokens: number;
  tensors: { name: string; dtype: string; shape: number[]; offset: number; bytes: number }[];
}

export function readBagWeights(dir: string): BagWeights & { meta: WeightsMeta & Record<string, unknown> } {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'weights.json'), 'utf8')) as WeightsMeta & Record<string, unknown>;
  const bin = fs.readFileSync(path.join(dir, 'weights.bin'));
  const vocab = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8')) as string[];
  const get = (name: string) => {
    const t = meta.tensors.find((x) => x.name === name);
    if (!t) throw new Error(`weights.json: missing tensor ${name}`);
    // copy into an aligned buffer
    const buf = new ArrayBuffer(t.bytes);
    new Uint8Array(buf).set(bin.subarray(t.offset, t.offset + t.bytes));
    return t.dtype === 'int8' ? new Int8Array(buf) : new Float32Array(buf);
  };
  return {
    meta,
    vocab,
    dims: meta.dims,
    queryTokenId: meta.query_token_id,
    padTokenId: meta.pad_token_id,
    embQ8: get('emb_q8') as Int8Array,
    embScale: get('emb_scale') as Float32Array,
    wPassage: get('w_passage') as Float32Array,
    wQuery: get('w_query') as Float32Array,
    proj: get('proj') as Float32Array,
    pieceRegex: meta.piece_regex,
    maxTokens: meta.max_tokens,
  };
}

const FLOAT = 1;
const INT8 = 3;
const INT64 = 7;

function tensor(name: string, dims: number[], dataType: number, data: ArrayBufferView): ITensorProto {
  return { name, dims, dataType, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function valueInfo(name: string, elemType: number, shape: (string | number)[]) {
  return {
    name,
    type: { tensorType: { elemType, shape: { dim: shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  };
}

function node(opType: string, inputs: string[], outputs: string[], attrs: import('onnx-proto').onnx.IAttributeProto[] = []) {
  return { opType, input: inputs, output: outputs, name: outputs[0], attribute: attrs };
}

export function buildBagOnnx(w: BagWeights, producerVersion: string): Uint8Array {
  const { onnx } = onnxProto();
  const INT = onnx.AttributeProto.AttributeType.INT;
  const INTS = onnx.AttributeProto.AttributeType.INTS;
  const V = w.vocab.length;
  const D = w.dims;
  const graph: import('onnx-proto').onnx.IGraphProto = {
    name: 'gridcode_embedding_bag',
    initializer: [
      tensor('emb_q8', [V, D], INT8, w.embQ8),
      tensor('emb_scale', [V], FLOAT, w.embScale),
      tensor('w_passage', [V], FLOAT, w.wPassage),
      tensor('w_query', [V], FLOAT, w.wQuery),
      tensor('proj', [D, D], FLOAT, w.proj),
      tensor('query_token', [], INT64, BigInt64Array.of(BigInt(w.queryTokenId))),
      tensor('axes_seq', [1], INT64, BigInt64Array.of(1n)),
      tensor('axes_last', [1], INT64, BigInt64Array.of(-1n)),
      tensor('tiny', [], FLOAT, Float32Array.of(1e-6)),
    ],
    input: [valueInfo('input_ids', INT64, ['batch_size', 'sequence_length']), valueInfo('attention_mask', INT64, ['batch_size', 'sequence_length'])],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch_size', 1, D])],
    node: [
      // token vectors [B, L, D]
      node('Gather', ['emb_q8', 'input_ids'], ['tok_q8']),
      node('Cast', ['tok_q8'], ['tok_f'], [{ name: 'to', type: INT, i: FLOAT }]),
      node('Gather', ['emb_scale', 'input_ids'], ['tok_scale']),
      node('Unsqueeze', ['tok_scale', 'axes_last'], ['tok_scale_3d']),
      node('Mul', ['tok_f', 'tok_scale_3d'], ['tok_vec']),
      // query flag [B, 1]: the text contains [Q]
      node('Equal', ['input_ids', 'query_token'], ['is_q_tok']),
      node('Cast', ['is_q_tok'], ['is_q_tok_f'], [{ name: 'to', type: INT, i: FLOAT }]),
      node('ReduceMax', ['is_q_tok_f'], ['is_q'], [
        { name: 'axes', type: INTS, ints: [1] },
        { name: 'keepdims', type: INT, i: 1 },
      ]),
      // token weights [B, L]
      node('Gather', ['w_passage', 'input_ids'], ['wp']),
      node('Gather', ['w_query', 'input_ids'], ['wq']),
      node('Sub', ['wq', 'wp'], ['wq_minus_wp']),
      node('Mul', ['wq_minus_wp', 'is_q'], ['w_delta']),
      node('Add', ['wp', 'w_delta'], ['w_tok']),
      node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', type: INT, i: FLOAT }]),
      node('Mul', ['w_tok', 'mask_f'], ['w']),
      // weighted mean [B, 1, D]
      node('Unsqueeze', ['w', 'axes_seq'], ['w_row']),
      node('MatMul', ['w_row', 'tok_vec'], ['num']),
      node('ReduceSum', ['w', 'axes_seq'], ['den'], [{ name: 'keepdims', type: INT, i: 1 }]),
      node('Add', ['den', 'tiny'], ['den_safe']),
      node('Unsqueeze', ['den_safe', 'axes_last'], ['den_3d']),
      node('Div', ['num', 'den_3d'], ['mean']),
      // queries: mean · proj
      node('MatMul', ['mean', 'proj'], ['mean_proj']),
      node('Sub', ['mean_proj', 'mean'], ['proj_delta']),
      node('Unsqueeze', ['is_q', 'axes_last'], ['is_q_3d']),
      node('Mul', ['proj_delta', 'is_q_3d'], ['q_delta']),
      node('Add', ['mean', 'q_delta'], ['last_hidden_state']),
    ],
  };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'gridcode-train-model',
    producerVersion,
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

export const QUERY_TOKEN = '[Q]';

export function buildBagTokenizerJson(w: BagWeights): unknown {
  const ids = Object.fromEntries(w.vocab.map((t, i) => [t, i]));
  const specials = ['[PAD]', '[UNK]', QUERY_TOKEN];
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map((content) => ({ id: ids[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }] },
    // runs of ≤16 CJK characters, ASCII words, digit runs, any other single character; whitespace dropped
    pre_tokenizer: { type: 'Split', pattern: { Regex: w.pieceRegex }, behavior: 'Isolated', invert: true },
    post_processor: null,
    decoder: null,
    // greedy longest match over the word vocabulary (every CJK ideograph is in it)
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '', max_input_chars_per_word: 100, vocab: ids },
  };
}

export function writeBagModelFolder(dir: string, w: BagWeights, version: string): string[] {
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), buildBagOnnx(w, version));
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify(
      {
        model_type: 'bert',
        architectures: ['BertModel'],
        gridcode_architecture: 'embedding-bag',
        hidden_size: w.dims,
        vocab_size: w.vocab.length,
        max_position_embeddings: w.maxTokens,
        pad_token_id: w.padTokenId,
      },
      null,
      2,
    ) + '\n',
  );
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(buildBagTokenizerJson(w)));
  fs.writeFileSync(
    path.join(dir, 'tokenizer_config.json'),
    JSON.stringify(
      {
        tokenizer_class: 'PreTrainedTokenizer',
        model_max_length: w.maxTokens,
        pad_token: '[PAD]',
        unk_token: '[UNK]',
        clean_up_tokenization_spaces: false,
      },
      null,
      2,
    ) + '\n',
  );
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];
}

/** True when the folder holds a GridCode embedding-bag model (config.json says so). */
export function isBagModel(dir: string): boolean {
  try {
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as { gridcode_architecture?: string };
    return config.gridcode_architecture === 'embedding-bag';
  } catch {
    return false;
  }
}

/** Reads the weights back from a model folder written by writeBagModelFolder (for `models adapt`). */
export function readBagFromFolder(dir: string): BagWeights {
  const model = onnxProto().onnx.ModelProto.decode(fs.readFileSync(path.join(dir, 'onnx', 'model.onnx')));
  const init = new Map((model.graph?.initializer ?? []).map((t) => [t.name ?? '', t]));
  const raw = (name: string): ArrayBuffer => {
    const t = init.get(name);
    if (!t?.rawData) throw new Error(`model.onnx: 缺少 ${name}`);
    const out = new ArrayBuffer(t.rawData.byteLength);
    new Uint8Array(out).set(t.rawData);
    return out;
  };
  const tok = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as {
    model: { vocab: Record<string, number> };
    pre_tokenizer: { pattern: { Regex: string } };
  };
  const vocab: string[] = [];
  for (const [t, i] of Object.entries(tok.model.vocab)) vocab[i] = t;
  const dims = Number(init.get('proj')?.dims?.[0]);
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as { max_position_embeddings?: number; pad_token_id?: number };
  return {
    vocab,
    dims,
    queryTokenId: tok.model.vocab[QUERY_TOKEN],
    padTokenId: config.pad_token_id ?? 0,
    embQ8: new Int8Array(raw('emb_q8')),
    embScale: new Float32Array(raw('emb_scale')),
    wPassage: new Float32Array(raw('w_passage')),
    wQuery: new Float32Array(raw('w_query')),
    proj: new Float32Array(raw('proj')),
    pieceRegex: tok.pre_tokenizer.pattern.Regex,
    maxTokens: config.max_position_embeddings ?? 512,
  };
}

/** The same tokenisation as tokenizer.json in transformers.js (NFKC + lowercase, pieces, greedy longest match). */
export class BagTokenizer {
  private readonly ids: Map<string, number>;
  private readonly pattern: RegExp;
  private readonly maxLen: number;
  private readonly unk: number;

  constructor(vocab: string[], pieceRegex: string) {
    this.ids = new Map(vocab.map((t, i) => [t, i]));
    this.pattern = new RegExp(pieceRegex, 'gu');
    this.maxLen = Math.max(...vocab.filter((t) => !t.startsWith('[')).map((t) => [...t].length));
    this.unk = this.ids.get('[UNK]') ?? 1;
  }

  encode(text: string): number[] {
    const out: number[] = [];
    for (const piece of text.normalize('NFKC').toLowerCase().match(this.pattern) ?? []) {
      const chars = [...piece];
      if (chars.length > 100) {
        out.push(this.unk);
        continue;
      }
      const toks: number[] = [];
      let i = 0;
      while (i < chars.length) {
        let found = -1;
        let end = Math.min(chars.length, i + this.maxLen);
        for (; end > i; end--) {
          const id = this.ids.get(chars.slice(i, end).join(''));
          if (id !== undefined) {
            found = id;
            break;
          }
        }
        if (found < 0) {
          toks.length = 0;
          toks.push(this.unk);
          break;
        }
        toks.push(found);
        i = end;
      }
      out.push(...toks);
    }
    return out;
  }
}
