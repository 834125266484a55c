import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { testModelDir, testModelsDir, TEST_MODEL_ID } from '../../fixtures/model';

// Own file (own process): loading transformers.js on the test's main thread must not share a
// process with the embedding worker (onnxruntime-node 1.21 is one-thread-per-process).
describe('tokeniser of the generated model', () => {
  it('splits Chinese into single characters and ASCII into WordPiece pieces, through the real tokenizer', async () => {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = testModelsDir() + path.sep;
    const tokenizer = await AutoTokenizer.from_pretrained(TEST_MODEL_ID);
    const text = '母线失压ABC 110kV，告警😀';
    const tokens = tokenizer.tokenize(text);
    expect(tokens).toEqual(['母', '线', '失', '压', 'a', '##b', '##c', '1', '##1', '##0', '##k', '##v', '，', '告', '警', '[UNK]']);

    // ids agree with the vocabulary in tokenizer.json, framed by [CLS] ... [SEP]
    const vocab = (JSON.parse(fs.readFileSync(path.join(testModelDir(), 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab;
    const ids = (tokenizer(text).input_ids.tolist() as bigint[][])[0].map(Number);
    expect(ids).toEqual([vocab['[CLS]'], ...tokens.map((t: string) => vocab[t]), vocab['[SEP]']]);
    // every CJK Unified Ideograph is its own token
    expect(vocab['\u4e00']).toBeGreaterThan(0);
    expect(vocab['\u9fff']).toBe(vocab['\u4e00'] + 0x9fff - 0x4e00);
  });
});

