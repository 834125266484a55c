import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../store/db';

/**
 * The file format both persisted search indexes use (vector-index.ts, lexical-index.ts) in
 * `<data-dir>/index/`: a u32 header length, a JSON header, padding to 8 bytes, then typed arrays
 * back to back. Written to a temporary file and renamed, so a reader never sees half a file.
 */

/** `<data-dir>/index`, or null for a database without a file (in memory). */
export function indexDir(db: Db): string | null {
  const file = db.name;
  if (!file || file === ':memory:' || !path.isAbsolute(file)) return null;
  return path.join(path.dirname(file), 'index');
}

export function writeIndexFile(file: string, header: unknown, arrays: ArrayBufferView[]): void {
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const lead = Buffer.alloc(Math.ceil((4 + head.length) / 8) * 8);
  lead.writeUInt32LE(head.length, 0);
  head.copy(lead, 4);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, lead);
    for (const a of arrays) fs.writeSync(fd, Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/**
 * The header and a reader of the arrays after it, each copied into an aligned buffer of its own;
 * null when the file is missing. `take` throws on a truncated file.
 */
export function readIndexFile<H>(file: string): { header: H; take: (bytes: number) => ArrayBuffer } | null {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return null;
  }
  const headLen = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(4, 4 + headLen).toString('utf8')) as H;
  let off = Math.ceil((4 + headLen) / 8) * 8;
  const take = (bytes: number): ArrayBuffer => {
    if (off + bytes > buf.length) throw new Error('truncated');
    const out = new ArrayBuffer(bytes);
    new Uint8Array(out).set(buf.subarray(off, off + bytes));
    off += bytes;
    return out;
  };
  return { header, take };
}
