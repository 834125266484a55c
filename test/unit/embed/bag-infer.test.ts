import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkerClient } from '../../../src/core/embed/worker-client';
import { projectRoot } from '../../../src/core/common/paths';
import { BagEncoder } from '../../../src/core/embed/bag-infer';
import { simdAccumulator } from '../../../src/core/embed/bag-simd';
import { BagTokenizer, readBagFromFolder } from '../../../src/core/embed/bag-model';

const modelsDir = path.join(projectRoot(), 'models');
const spec = { modelRoot: modelsDir, folder: 'gridcode-zh-v1', dtype: 'fp32', pooling: 'cls' as const, normalize: true };

/** Real statute text from the bundled demo regulations, plus odd input (symbols, full-width, long runs, [Q] inside). */
function sampleTexts(): string[] {
  const dir = path.join(projectRoot(), 'resources', 'regulations');
  const out: string[] = [];
  for (const reg of fs.readdirSync(dir)) {
    for (const f of fs.readdirSync(path.join(dir, reg)).filter((x) => /\.(md|txt)$/.test(x))) {
      const text = fs.readFileSync(path.join(dir, reg, f), 'utf8');
      for (let i = 0; i < text.length && out.length < 300; i += 173) out.push(text.slice(i, i + 40 + (i % 400)));
    }
  }
  out.push('①②特殊符号 ＡＢＣ ☃ 𠮶', 'GB/T 14285-2006 第5.3.2条 500kV', '一'.repeat(900), '母线[Q]失压', '', '   ');
  return out;
}

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('embedding bag computed directly (bag-infer.ts) = the ONNX graph in onnxruntime, on the shipped model', () => {
  it('gives the same vectors for passages and [Q] queries, and the same tokens as tokenizer.json', async () => {
    const texts = sampleTexts();
    expect(texts.length).toBeGreaterThan(100);
    const direct = new WorkerClient(spec, 'gridcode-zh-v1');
    const onnx = new WorkerClient({ ...spec, runtime: 'onnx' }, 'gridcode-zh-v1 (onnx)');
    try {
      for (const prefix of ['', '[Q]']) {
        const input = texts.map((t) => prefix + t);
        const a = await direct.embed(input);
        const b = await onnx.embed(input);
        expect(a).toHaveLength(input.length);
        a.forEach((v, i) => {
          const both = cosine(v, v) > 0 && cosine(b[i], b[i]) > 0;
          // empty text: both give the zero vector
          if (!both) expect(Math.abs(cosine(v, v) - cosine(b[i], b[i]))).toBeLessThan(1e-6);
          else expect(cosine(v, b[i])).toBeGreaterThan(0.99999);
        });
      }
      // the queries are really different from the passages (projection + query weights ran)
      const [p] = await direct.embed([texts[0]]);
      const [q] = await direct.embed([`[Q]${texts[0]}`]);
      expect(cosine(p, q)).toBeLessThan(0.999);
    } finally {
      await direct.terminate();
      await onnx.terminate();
    }
  }, 120_000);

  it('tokenises like the trainer tokenisation (BagTokenizer) on every sample without the [Q] marker', () => {
    const w = readBagFromFolder(path.join(modelsDir, 'gridcode-zh-v1'));
    const enc = new BagEncoder(w);
    const ref = new BagTokenizer(w.vocab, w.pieceRegex);
    // [Q] is an added token of tokenizer.json (matched whole); the trainer's tokenisation never sees it
    for (const t of sampleTexts().filter((x) => !x.includes('[Q]'))) expect(enc.encode(t)).toEqual(ref.encode(t).slice(0, w.maxTokens));
    expect(enc.encode('[Q]母线')).toEqual([w.queryTokenId, ...ref.encode('母线')]);
  });
});

describe('the embedding bag sum in WebAssembly SIMD (bag-simd.ts)', () => {
  it('runs here and gives bit for bit the vectors of the JavaScript loop, passages and [Q] queries', () => {
    const weights = readBagFromFolder(path.join(modelsDir, 'gridcode-zh-v1'));
    expect(simdAccumulator(weights.embQ8, weights.dims)).not.toBeNull();
    const before = process.env.GRIDCODE_BAG_SIMD;
    try {
      process.env.GRIDCODE_BAG_SIMD = '0';
      const plain = new BagEncoder(weights);
      delete process.env.GRIDCODE_BAG_SIMD;
      const simd = new BagEncoder(weights);
      for (const prefix of ['', '[Q]']) {
        const input = sampleTexts().map((t) => prefix + t);
        expect(Buffer.from(simd.embed(input, true).buffer).equals(Buffer.from(plain.embed(input, true).buffer))).toBe(true);
      }
    } finally {
      if (before === undefined) delete process.env.GRIDCODE_BAG_SIMD;
      else process.env.GRIDCODE_BAG_SIMD = before;
    }
  });
});
