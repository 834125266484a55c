/**
 * The GridCode embedding-bag model computed directly from its ONNX initializers (the graph
 * bag-model.ts writes): per text Σ w_t·scale_t·emb_t / (Σ w_t + 1e-6), queries (texts holding [Q])
 * with the query weights and then · proj. The same maths as the ONNX graph, without what made a
 * statute import 3× slower than reading it: transformers.js' general tokenizer (~2 ms per chunk)
 * and [batch, seq, dims] float tensors in onnxruntime (~0.7 ms per chunk). Here a chunk costs
 * tens of microseconds. `test/unit/embed/bag-infer.test.ts` checks it against onnxruntime on the
 * shipped model. Used by the embedding worker for folders whose config.json says embedding-bag.
 */
import type { BagWeights } from './bag-model';
import { simdAccumulator, type BagAccumulator } from './bag-simd';

/** Hash slot of the trie edge (node, UTF-16 unit). */
function slot(node: number, unit: number, mask: number): number {
  return (Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) & mask;
}

/** Tokens transformers.js splits out before normalising (tokenizer.json added_tokens). */
const SPECIAL = /\[(?:Q|PAD|UNK)\]/g;

export class BagEncoder {
  private readonly ids = new Map<string, number>();
  private readonly pattern: RegExp;
  /** vocabulary words as a trie over UTF-16 units: token id (or -1) per node */
  private readonly tokenAt: number[] = [-1];
  /** the trie's edges in typed arrays (the walk is most of the encoding: 2.4× faster than a Map per node): the root's by code unit, the rest hashed */
  private readonly rootNext = new Int32Array(65536).fill(-1);
  private readonly edgeNode: Int32Array;
  private readonly edgeUnit: Int32Array;
  private readonly edgeNext: Int32Array;
  private readonly edgeMask: number;
  private readonly unk: number;
  private readonly specialIds: Map<string, number>;
  readonly dims: number;
  /** the weighted sum in WebAssembly SIMD (bit-identical), when available */
  private readonly simd: BagAccumulator | null;

  constructor(private readonly w: BagWeights) {
    this.simd = process.env.GRIDCODE_BAG_SIMD === '0' ? null : simdAccumulator(w.embQ8, w.dims);
    w.vocab.forEach((t, i) => {
      if (t !== undefined) this.ids.set(t, i);
    });
    this.pattern = new RegExp(w.pieceRegex, 'gu');
    const children: Map<number, number>[] = [new Map()];
    w.vocab.forEach((t, id) => {
      if (!t || /^\[(?:Q|PAD|UNK)\]$/.test(t)) return;
      let node = 0;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        let next = children[node].get(c);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          this.tokenAt.push(-1);
          children[node].set(c, next);
        }
        node = next;
      }
      this.tokenAt[node] = id;
    });
    let edges = 0;
    for (let node = 1; node < children.length; node++) edges += children[node].size;
    let size = 16;
    while (size < edges * 2) size *= 2;
    this.edgeMask = size - 1;
    this.edgeNode = new Int32Array(size).fill(-1);
    this.edgeUnit = new Int32Array(size);
    this.edgeNext = new Int32Array(size);
    for (const [c, next] of children[0]) this.rootNext[c] = next;
    for (let node = 1; node < children.length; node++) {
      for (const [c, next] of children[node]) {
        let h = slot(node, c, this.edgeMask);
        while (this.edgeNode[h] !== -1) h = (h + 1) & this.edgeMask;
        this.edgeNode[h] = node;
        this.edgeUnit[h] = c;
        this.edgeNext[h] = next;
      }
    }
    this.unk = this.ids.get('[UNK]') ?? 1;
    this.specialIds = new Map(['[Q]', '[PAD]', '[UNK]'].map((t) => [t, this.ids.get(t) ?? this.unk]));
    this.dims = w.dims;
  }

  /** Token ids as tokenizer.json gives them (added tokens first, then NFKC + lowercase, pieces, greedy longest match), truncated to maxTokens. */
  encode(text: string): number[] {
    const out: number[] = [];
    let at = 0;
    SPECIAL.lastIndex = 0;
    for (let m = SPECIAL.exec(text); m; m = SPECIAL.exec(text)) {
      this.encodePlain(text.slice(at, m.index), out);
      out.push(this.specialIds.get(m[0])!);
      at = m.index + m[0].length;
    }
    this.encodePlain(text.slice(at), out);
    if (out.length > this.w.maxTokens) out.length = this.w.maxTokens;
    return out;
  }

  private encodePlain(text: string, out: number[]): void {
    if (!text) return;
    const norm = text.normalize('NFKC').toLowerCase();
    const { tokenAt, unk, rootNext, edgeNode, edgeUnit, edgeNext, edgeMask } = this;
    this.pattern.lastIndex = 0;
    for (let m = this.pattern.exec(norm); m; m = this.pattern.exec(norm)) {
      const piece = m[0];
      if (piece.length > 100 && [...piece].length > 100) {
        out.push(unk);
        continue;
      }
      const start = out.length;
      let i = 0;
      while (i < piece.length) {
        // greedy longest match: walk the trie as far as the piece goes, keep the last whole word
        let found = -1;
        let end = i;
        let node = 0;
        for (let j = i; j < piece.length; j++) {
          const c = piece.charCodeAt(j);
          let next = -1;
          if (node === 0) next = rootNext[c];
          else {
            for (let h = slot(node, c, edgeMask); edgeNode[h] !== -1; h = (h + 1) & edgeMask) {
              if (edgeNode[h] === node && edgeUnit[h] === c) {
                next = edgeNext[h];
                break;
              }
            }
          }
          if (next < 0) break;
          node = next;
          if (tokenAt[node] >= 0) {
            found = tokenAt[node];
            end = j + 1;
          }
        }
        if (found < 0) {
          // WordPiece: a word with an unknown part is one [UNK]
          out.length = start;
          out.push(unk);
          break;
        }
        out.push(found);
        i = end;
      }
    }
  }

  /** Unit-length vectors of the texts, row-major (texts.length × dims). */
  embed(texts: string[], normalize: boolean): Float32Array {
    const { w } = this;
    const D = w.dims;
    const out = new Float32Array(texts.length * D);
    // Float32 sums of ~50 terms (relative error ~1e-6, far below the int8 table's); a repeated token
    // is added once with its count (a third of a statute chunk's tokens are repeats)
    const simd = this.simd;
    const acc = simd ? simd.acc : new Float32Array(D);
    const counts = new Map<number, number>();
    const q = this.specialIds.get('[Q]')!;
    const { embQ8: emb, embScale: scale, proj } = w;
    const unrolled = D % 4 === 0;
    texts.forEach((text, n) => {
      const toks = this.encode(text);
      const isQuery = toks.includes(q);
      const weights = isQuery ? w.wQuery : w.wPassage;
      counts.clear();
      for (const id of toks) counts.set(id, (counts.get(id) ?? 0) + 1);
      acc.fill(0);
      let den = 0;
      for (const [id, times] of counts) {
        const wt = weights[id] * times;
        if (wt === 0) continue;
        den += wt;
        const f = wt * scale[id];
        if (simd) {
          simd.add(id, f);
          continue;
        }
        const base = id * D;
        if (unrolled) {
          for (let d = 0; d < D; d += 4) {
            acc[d] += f * emb[base + d];
            acc[d + 1] += f * emb[base + d + 1];
            acc[d + 2] += f * emb[base + d + 2];
            acc[d + 3] += f * emb[base + d + 3];
          }
        } else for (let d = 0; d < D; d++) acc[d] += f * emb[base + d];
      }
      const o = n * D;
      const inv = 1 / (den + 1e-6);
      if (isQuery) {
        for (let j = 0; j < D; j++) {
          let s = 0;
          for (let i = 0; i < D; i++) s += acc[i] * inv * proj[i * D + j];
          out[o + j] = s;
        }
      } else for (let d = 0; d < D; d++) out[o + d] = acc[d] * inv;
      if (normalize) {
        let s = 0;
        for (let d = 0; d < D; d++) s += out[o + d] * out[o + d];
        const k = 1 / Math.max(Math.sqrt(s), 1e-12);
        for (let d = 0; d < D; d++) out[o + d] *= k;
      }
    });
    return out;
  }
}
