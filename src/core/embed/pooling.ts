/**
 * Pooling of last_hidden_state [batch, seq, dims] into one vector per text. transformers.js'
 * own mean_pooling converts the BigInt mask per element per dimension and roughly doubled the
 * cost of a small model's batch; this loop reads the mask once per token. Same maths:
 * mean over tokens whose attention_mask is 1 (or the first token for 'cls'), then L2 norm.
 */
export function poolHidden(
  hidden: Float32Array,
  mask: ArrayLike<bigint | number>,
  batch: number,
  seq: number,
  dims: number,
  pooling: 'mean' | 'cls',
  normalize: boolean,
): Float32Array {
  const out = new Float32Array(batch * dims);
  for (let i = 0; i < batch; i++) {
    const o = i * dims;
    if (pooling === 'cls') {
      const base = i * seq * dims;
      for (let k = 0; k < dims; k++) out[o + k] = hidden[base + k];
    } else {
      // accumulate in float64 like transformers.js does, then store
      const acc = new Float64Array(dims);
      let n = 0;
      for (let j = 0; j < seq; j++) {
        if (Number(mask[i * seq + j]) === 0) continue;
        n++;
        const base = (i * seq + j) * dims;
        for (let k = 0; k < dims; k++) acc[k] += hidden[base + k];
      }
      for (let k = 0; k < dims; k++) out[o + k] = acc[k] / (n || 1);
    }
    if (normalize) {
      let norm = 0;
      for (let k = 0; k < dims; k++) norm += out[o + k] * out[o + k];
      norm = Math.sqrt(norm);
      // transformers.js divides by max(norm, 1e-12)
      const inv = 1 / Math.max(norm, 1e-12);
      for (let k = 0; k < dims; k++) out[o + k] *= inv;
    }
  }
  return out;
}
