import zlib from 'node:zlib';
import { GridError } from './errors';

/**
 * Caps for the compressed streams of a PDF, checked before pdf.js parses it. pdf.js inflates a page's
 * content stream, fonts and object streams whole, so a 1 MB file whose content stream inflates to
 * gigabytes would exhaust memory. Every stream is decoded here with a hard output limit (the filters
 * that expand data: Flate, LZW, RunLength, ASCIIHex, ASCII85, chained in order) and counted, nothing
 * kept: one stream at most `maxStreamBytes`, all of them together `maxTotalBytes`. An image is held to
 * the size its own dictionary declares (pdf.js reads no more of it, and skips one whose pixel count is
 * over `maxImagePixels`), so a scanned book's pages do not add up against the total.
 *
 * Not checkable here: the streams of an encrypted PDF (ciphertext does not inflate); through the
 * browser shell those are parsed in the import thread, whose heap limit ends only the thread.
 */
export interface PdfStreamLimits {
  /** Decoded bytes of one stream that is not an image. */
  maxStreamBytes: number;
  /** Decoded bytes of all streams that are not images, together. */
  maxTotalBytes: number;
  /** Images above this many pixels are never decoded (pdf.js maxImageSize). */
  maxImagePixels: number;
}

export interface PdfStreamReport {
  streams: number;
  /** decoded bytes of the streams that are not images */
  decodedBytes: number;
  largestStream: number;
  /** streams left uncounted: encrypted, corrupt, or a filter that does not expand by itself (DCT, JPX, JBIG2, CCITT) */
  unchecked: number;
}

class Overflow extends Error {}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(bytes < 10 * 1048576 ? 1 : 0)} MB`;

const FILTERS: Record<string, string> = { Fl: 'FlateDecode', LZW: 'LZWDecode', RL: 'RunLengthDecode', AHx: 'ASCIIHexDecode', A85: 'ASCII85Decode' };

function inflate(data: Buffer, cap: number): Buffer {
  try {
    return zlib.inflateSync(data, { maxOutputLength: cap + 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) throw new Overflow();
    throw e;
  }
}

/** LZW as PDF writes it (early change 1), decoded up to `cap` bytes. */
function lzw(data: Buffer, cap: number): Buffer {
  const parts: Uint8Array[] = [];
  let total = 0;
  let dict: Uint8Array[] = [];
  const reset = () => {
    dict = [];
    for (let i = 0; i < 256; i++) dict.push(Uint8Array.of(i));
    dict.push(new Uint8Array(0), new Uint8Array(0));
  };
  reset();
  let width = 9;
  let bits = 0;
  let acc = 0;
  let prev: Uint8Array | null = null;
  for (let i = 0; i < data.length; i++) {
    acc = ((acc << 8) | data[i]) & 0xffffff;
    bits += 8;
    while (bits >= width) {
      const code = (acc >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        reset();
        width = 9;
        prev = null;
        continue;
      }
      if (code === 257) return Buffer.concat(parts);
      let entry: Uint8Array;
      if (code < dict.length) entry = dict[code];
      else if (prev && code === dict.length) {
        entry = new Uint8Array(prev.length + 1);
        entry.set(prev);
        entry[prev.length] = prev[0];
      } else return Buffer.concat(parts); // corrupt: pdf.js stops here too
      total += entry.length;
      if (total > cap) throw new Overflow();
      parts.push(entry);
      if (prev && dict.length < 4096) {
        const next = new Uint8Array(prev.length + 1);
        next.set(prev);
        next[prev.length] = entry[0];
        dict.push(next);
      }
      prev = entry;
      if (dict.length + 1 >= 1 << width && width < 12) width++;
    }
  }
  return Buffer.concat(parts);
}

function runLength(data: Buffer, cap: number): Buffer {
  let size = 0;
  for (let i = 0; i < data.length; ) {
    const n = data[i];
    if (n === 128) break;
    if (n < 128) {
      size += n + 1;
      i += n + 2;
    } else {
      size += 257 - n;
      i += 2;
    }
    if (size > cap) throw new Overflow();
  }
  // only the size matters to what follows in a chain of expanding filters, which RunLength rarely heads
  return Buffer.alloc(size);
}

function asciiHex(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const hex = (end >= 0 ? text.slice(0, end) : text).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(hex.length % 2 ? hex + '0' : hex, 'hex');
}

function ascii85(data: Buffer): Buffer {
  const text = data.toString('latin1').replace(/\s/g, '');
  const body = text.startsWith('<~') ? text.slice(2) : text;
  const end = body.indexOf('~>');
  const s = end >= 0 ? body.slice(0, end) : body;
  const out: number[] = [];
  let group: number[] = [];
  const flush = (g: number[], n: number) => {
    let v = 0;
    for (const c of g) v = v * 85 + c;
    const bytes = [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
    out.push(...bytes.slice(0, n));
  };
  for (const ch of s) {
    if (ch === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const c = ch.charCodeAt(0) - 33;
    if (c < 0 || c > 84) continue;
    group.push(c);
    if (group.length === 5) {
      flush(group, 4);
      group = [];
    }
  }
  if (group.length > 1) {
    const n = group.length - 1;
    while (group.length < 5) group.push(84);
    flush(group, n);
  }
  return Buffer.from(out);
}

/** A stream's dictionary values the checks need. */
interface StreamDict {
  filters: string[];
  image: { width: number; height: number; pixels: number; bytes: number } | null;
  length: number | null;
}

function readDict(dict: string): StreamDict {
  const filterMatch = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  const filters = filterMatch ? [...filterMatch[1].matchAll(/\/([A-Za-z0-9]+)/g)].map((m) => FILTERS[m[1]] ?? m[1]) : [];
  const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
  let image: StreamDict['image'] = null;
  if (/\/Subtype\s*\/Image\b/.test(dict)) {
    const num = (key: string) => Number(new RegExp(`/${key}\\s+(\\d+)`).exec(dict)?.[1] ?? NaN);
    const w = num('Width');
    const h = num('Height');
    if (Number.isFinite(w) && Number.isFinite(h)) {
      const mask = /\/ImageMask\s+true/.test(dict);
      const bpc = mask ? 1 : num('BitsPerComponent') || 8;
      const space = /\/ColorSpace\s*\/(\w+)/.exec(dict)?.[1];
      const comps = mask || space === 'DeviceGray' || space === 'G' ? 1 : space === 'DeviceRGB' || space === 'RGB' ? 3 : 4;
      // a PNG predictor adds one byte per row
      image = { width: w, height: h, pixels: w * h, bytes: Math.ceil((w * comps * bpc) / 8 + 1) * h };
    }
  }
  return { filters, image, length: direct ? Number(direct[1]) : null };
}

/**
 * Decodes every stream of `bytes` with the caps and throws TOO_LARGE (Chinese, naming the file and
 * the cap) at the first one over them. Returns what it counted (tests, the attack replay).
 */
export function checkPdfStreams(bytes: Buffer, label: string, limits: PdfStreamLimits): PdfStreamReport {
  const tooLarge = (why: string) =>
    new GridError('TOO_LARGE', `文件「${label}」中的压缩数据解压后过大，疑似压缩炸弹，已拒绝导入（${why}；上限可在 config.json 的 import 部分调整）`);
  const report: PdfStreamReport = { streams: 0, decodedBytes: 0, largestStream: 0, unchecked: 0 };
  const encrypted = bytes.includes('/Encrypt');
  let at = 0;
  for (;;) {
    const kw = bytes.indexOf('stream', at, 'latin1');
    if (kw < 0) break;
    at = kw + 6;
    if (kw >= 3 && bytes.toString('latin1', kw - 3, kw) === 'end') continue;
    let start = kw + 6;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    else if (bytes[start - 1] !== 0x0d) continue; // "stream" inside other text, not the keyword
    const objAt = bytes.lastIndexOf('obj', kw, 'latin1');
    const dict = readDict(bytes.toString('latin1', objAt >= 0 && kw - objAt < 65536 ? objAt : Math.max(0, kw - 4096), kw));
    let end = dict.length !== null && start + dict.length <= bytes.length ? start + dict.length : -1;
    if (end < 0 || bytes.indexOf('endstream', end, 'latin1') - end > 2) {
      const found = bytes.indexOf('endstream', start, 'latin1');
      end = found < 0 ? bytes.length : found;
    }
    at = end;
    report.streams++;
    if (!dict.filters.length) continue;
    if (dict.image && dict.image.pixels > limits.maxImagePixels) continue; // pdf.js never decodes it
    const cap = dict.image ? dict.image.bytes + 65536 : Math.min(limits.maxStreamBytes, limits.maxTotalBytes - report.decodedBytes);
    let data: Buffer = bytes.subarray(start, end);
    let decoded = true;
    try {
      for (const filter of dict.filters) {
        if (filter === 'FlateDecode') data = inflate(data, cap);
        else if (filter === 'LZWDecode') data = lzw(data, cap);
        else if (filter === 'RunLengthDecode') data = runLength(data, cap);
        else if (filter === 'ASCIIHexDecode') data = asciiHex(data);
        else if (filter === 'ASCII85Decode') data = ascii85(data);
        else {
          // DCT, JPX, JBIG2, CCITT: image codecs, bounded by the image's own size
          decoded = false;
          break;
        }
        if (data.length > cap) throw new Overflow();
      }
    } catch (e) {
      if (!(e instanceof Overflow)) {
        report.unchecked++;
        continue;
      }
      if (dict.image) throw tooLarge(`一幅声明为 ${dict.image.width}×${dict.image.height} 像素的图像，数据解压后远超这个尺寸`);
      if (cap < limits.maxStreamBytes) throw tooLarge(`全部压缩流解压后超过 ${mb(limits.maxTotalBytes)}`);
      throw tooLarge(`一个压缩流解压后超过 ${mb(limits.maxStreamBytes)}`);
    }
    if (!decoded) report.unchecked++;
    if (dict.image) continue;
    report.decodedBytes += data.length;
    report.largestStream = Math.max(report.largestStream, data.length);
  }
  if (encrypted) report.unchecked = Math.max(report.unchecked, 1);
  return report;
}
