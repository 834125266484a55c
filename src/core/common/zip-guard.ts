import zlib from 'node:zlib';
import { GridError } from './errors';

/**
 * Caps for zip-based input (DOCX; any later OOXML/zip format goes through the same check) before a
 * parser inflates it: a 307 KB DOCX expanding to 300 MB, or one paragraph of hundreds of MB, must fail
 * with a clear message instead of exhausting memory. Sizes are checked twice: as the archive declares
 * them, then by inflating each entry with a hard output limit (declared sizes can lie).
 */
export interface ZipLimits {
  /** Entries in the archive. */
  maxEntries: number;
  /** Inflated bytes of all entries together. */
  maxInflatedBytes: number;
  /** Inflated bytes of the XML parts (what the parser turns into a tree; images are skipped). */
  maxXmlBytes: number;
  /** Inflated / compressed size of one entry, checked for entries above 1 MB inflated. */
  maxRatio: number;
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** The entry's inflated bytes, read on demand (bounded by the limits already checked). */
  read(): Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const RATIO_FLOOR = 1024 * 1024;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(bytes < 10 * 1048576 ? 1 : 0)} MB`;

function findEocd(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 65557);
  for (let i = buf.length - 22; i >= stop; i--) if (buf.readUInt32LE(i) === EOCD) return i;
  return -1;
}

/**
 * Reads the central directory and checks every limit; throws TOO_LARGE / BAD_FILE naming the file and
 * the limit (Chinese). Returns the entries with a bounded reader each.
 */
export function inspectZip(buf: Buffer, label: string, limits: ZipLimits): ZipEntry[] {
  const bad = (why: string) => new GridError('BAD_FILE', `文件「${label}」不是有效的 DOCX 文档或已损坏（${why}）`);
  const tooLarge = (why: string) =>
    new GridError('TOO_LARGE', `文件「${label}」解压后过大，疑似压缩炸弹，已拒绝导入（${why}；上限可在 config.json 的 import 部分调整）`);
  const eocd = findEocd(buf);
  if (eocd < 0) throw bad('找不到 ZIP 目录');
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw tooLarge('使用了 ZIP64 大文件格式');
  if (count > limits.maxEntries) throw tooLarge(`${count} 个压缩条目，上限 ${limits.maxEntries}`);
  if (cdOffset + cdSize > buf.length) throw bad('ZIP 目录越界');
  const entries: ZipEntry[] = [];
  let declaredTotal = 0;
  let declaredXml = 0;
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) throw bad('ZIP 目录条目损坏');
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const localOffset = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    at += 46 + nameLen + extraLen + commentLen;
    if (method !== 0 && method !== 8) throw bad(`条目 ${name} 使用了不支持的压缩方式`);
    const isXml = /\.(xml|rels)$/i.test(name);
    declaredTotal += size;
    if (isXml) declaredXml += size;
    if (declaredTotal > limits.maxInflatedBytes) throw tooLarge(`声明解压后超过 ${mb(limits.maxInflatedBytes)}`);
    if (declaredXml > limits.maxXmlBytes) throw tooLarge(`文档 XML 声明解压后超过 ${mb(limits.maxXmlBytes)}`);
    if (size > RATIO_FLOOR && size / Math.max(1, compressedSize) > limits.maxRatio) {
      throw tooLarge(`条目 ${name} 压缩比 ${Math.round(size / Math.max(1, compressedSize))}:1，上限 ${limits.maxRatio}:1`);
    }
    if (localOffset + 30 > buf.length || buf.readUInt32LE(localOffset) !== LOCAL) throw bad(`条目 ${name} 的数据位置无效`);
    const dataStart = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > buf.length) throw bad(`条目 ${name} 的数据越界`);
    const raw = buf.subarray(dataStart, dataStart + compressedSize);
    entries.push({
      name,
      method,
      compressedSize,
      size,
      read: () => {
        if (method === 0) return raw;
        try {
          // never more than declared (+1 to notice a lie), whatever the stream says
          return zlib.inflateRawSync(raw, { maxOutputLength: Math.max(1, size + 1) });
        } catch (e) {
          if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) throw tooLarge(`条目 ${name} 实际解压大小超过其声明`);
          throw bad(`条目 ${name} 无法解压`);
        }
      },
    });
  }
  // declared sizes can lie: inflate each (bounded by its declared size) and count what really comes out
  let real = 0;
  let realXml = 0;
  for (const e of entries) {
    const out = e.read();
    if (out.length > e.size) throw tooLarge(`条目 ${e.name} 实际解压大小超过其声明`);
    real += out.length;
    if (/\.(xml|rels)$/i.test(e.name)) realXml += out.length;
  }
  if (real > limits.maxInflatedBytes || realXml > limits.maxXmlBytes) throw tooLarge(`实际解压后 ${mb(real)}`);
  return entries;
}

/**
 * The largest paragraph (`<w:p>` … `</w:p>`, nested text-box paragraphs counted in their own) of a
 * WordprocessingML part, in characters of XML; one scan, no tree.
 */
export function largestParagraphChars(xml: string): number {
  const re = /<w:p[\s>/]|<\/w:p>/g;
  const starts: number[] = [];
  let largest = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml))) {
    if (m[0] === '</w:p>') {
      const start = starts.pop();
      if (start !== undefined) largest = Math.max(largest, m.index + 6 - start);
    } else if (!xml.startsWith('/>', xml.indexOf('>', m.index) - 1)) starts.push(m.index);
  }
  // an unclosed paragraph runs to the end
  for (const s of starts) largest = Math.max(largest, xml.length - s);
  return largest;
}
