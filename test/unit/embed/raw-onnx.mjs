// Independent reference for the embedder tests and bench: runs an ONNX file straight through
// onnxruntime-node (no transformers.js) and pools (mean over tokens, or the first token) + normalises by hand. A separate process,
// because onnxruntime-node 1.21 cannot be used by two threads of one process.
// stdin: {"model": path, "seqs": [[token ids]...], "pooling"?: "mean" | "cls"}  stdout: [[vector]...]
import * as ort from 'onnxruntime-node';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const { model, seqs, pooling = 'mean' } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const session = await ort.InferenceSession.create(model);
const len = Math.max(...seqs.map((s) => s.length));
const ids = new BigInt64Array(seqs.length * len);
const mask = new BigInt64Array(seqs.length * len);
seqs.forEach((s, i) =>
  s.forEach((id, j) => {
    ids[i * len + j] = BigInt(id);
    mask[i * len + j] = 1n;
  }),
);
const shape = [seqs.length, len];
const out = await session.run({
  input_ids: new ort.Tensor('int64', ids, shape),
  attention_mask: new ort.Tensor('int64', mask, shape),
  token_type_ids: new ort.Tensor('int64', new BigInt64Array(seqs.length * len), shape),
});
const hidden = out.last_hidden_state.data;
const d = out.last_hidden_state.dims[2];
const vectors = seqs.map((s, i) => {
  const v = new Array(d).fill(0);
  const used = pooling === 'cls' ? 1 : s.length;
  for (let j = 0; j < used; j++) for (let k = 0; k < d; k++) v[k] += hidden[(i * len + j) * d + k];
  const mean = v.map((x) => x / used);
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
});
process.stdout.write(JSON.stringify(vectors));
