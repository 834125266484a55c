/**
 * The embedding bag's inner loop — acc[d] += f · table[id][d] over a row of int8 codes — in
 * WebAssembly SIMD, bit for bit what the JavaScript loop computes: each Float32 sum is widened to
 * Float64, the code converted to Float64 and multiplied by f (a Float64), added, and rounded back to
 * Float32, two lanes at a time (f64x2), as `acc[d] += f * emb[base + d]` does on a Float32Array.
 * The module is written out here (no toolchain): one function `add(row, f, dims, acc)` over one
 * imported memory that holds the code table and the accumulator. Null where SIMD is unavailable.
 */

const SIMD = 0xfd;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

const name = (s: string) => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
const simd = (op: number, ...imm: number[]) => [SIMD, ...uleb(op), ...imm];
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
/** lanes 2,3 (bytes 8–15) moved down to lanes 0,1 */
const HIGH_HALF = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
/** lanes 0,1 of the first vector, then lanes 0,1 of the second */
const JOIN = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];

function moduleBytes(pages: number): Uint8Array {
  // params: 0 row (i32 byte offset of the codes), 1 f (f64), 2 dims (i32, a multiple of 4, > 0), 3 acc (i32 byte offset)
  // locals: 4 F = f64x2(f, f), 5 e = 4 codes as i32x4, 6 a = 4 sums as f32x4
  const half = (vec: number[], lane: number[]) => [...vec, ...(lane.length ? [...vec, ...simd(0x0d, ...lane)] : [])];
  const body = [
    ...[1, 3, 0x7b], // one group of 3 v128 locals
    ...get(1),
    ...simd(0x14), // f64x2.splat
    ...set(4),
    ...[0x03, 0x40], // loop
    ...get(3), // store address
    ...get(0),
    ...simd(0x5c, 0, 0), // v128.load32_zero
    ...simd(0x87), // i16x8.extend_low_i8x16_s
    ...simd(0xa7), // i32x4.extend_low_i16x8_s
    ...set(5),
    ...get(3),
    ...simd(0x00, 4, 0), // v128.load (sums)
    ...set(6),
    // lanes 0,1
    ...get(6),
    ...simd(0x5f), // f64x2.promote_low_f32x4
    ...get(5),
    ...simd(0xfe), // f64x2.convert_low_i32x4_s
    ...get(4),
    ...simd(0xf2), // f64x2.mul
    ...simd(0xf0), // f64x2.add
    ...simd(0x5e), // f32x4.demote_f64x2_zero
    // lanes 2,3
    ...half(get(6), HIGH_HALF),
    ...simd(0x5f),
    ...half(get(5), HIGH_HALF),
    ...simd(0xfe),
    ...get(4),
    ...simd(0xf2),
    ...simd(0xf0),
    ...simd(0x5e),
    ...simd(0x0d, ...JOIN), // i8x16.shuffle
    ...simd(0x0b, 4, 0), // v128.store
    // row += 4, acc += 16, dims -= 4; again while dims > 0
    ...get(0),
    ...[0x41, 4, 0x6a],
    ...set(0),
    ...get(3),
    ...[0x41, 16, 0x6a],
    ...set(3),
    ...get(2),
    ...[0x41, 4, 0x6b],
    ...[0x22, 2], // local.tee
    ...[0x41, 0, 0x4a], // i32.gt_s
    ...[0x0d, 0], // br_if loop
    0x0b, // end loop
    0x0b, // end function
  ];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 4, 0x7f, 0x7c, 0x7f, 0x7f, 0]),
    ...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, ...uleb(pages)]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('add'), 0x00, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

export interface BagAccumulator {
  /** the accumulator (dims Float32 sums) the additions go to */
  readonly acc: Float32Array;
  /** acc += f · (row `id` of the code table) */
  add(id: number, f: number): void;
}

/** The few WebAssembly calls used here (the project's TypeScript libs declare no WebAssembly values). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Memory: new (d: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
}

/** An accumulator over a copy of the int8 code table (rows × dims), or null without WebAssembly SIMD. */
export function simdAccumulator(table: Int8Array, dims: number): BagAccumulator | null {
  const WebAssembly = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
  if (dims % 4 !== 0 || dims === 0 || !WebAssembly) return null;
  try {
    const accAt = Math.ceil(table.length / 16) * 16;
    const pages = Math.ceil((accAt + dims * 4) / 65536);
    const bytes = moduleBytes(pages);
    if (!WebAssembly.validate(bytes)) return null;
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    new Int8Array(memory.buffer, 0, table.length).set(table);
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { m: memory } });
    const fn = instance.exports.add as (row: number, f: number, dims: number, acc: number) => void;
    return { acc: new Float32Array(memory.buffer, accAt, dims), add: (id, f) => fn(id * dims, f, dims, accAt) };
  } catch {
    return null;
  }
}
