import { GridError } from '../common/errors';

/**
 * Bytes of a .md/.txt file -> text. UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030/GBK
 * (common for Chinese TXT). Binary content with a text extension is rejected, not imported as mojibake.
 */
export function decodeTextFile(bytes: Buffer, fileLabel: string): string {
  if (bytes.length === 0) throw new GridError('BAD_FILE', `文件「${fileLabel}」为空`);
  let text: string | null = null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    if (bytes.includes(0)) throw new GridError('BAD_FILE', `文件「${fileLabel}」包含二进制内容（NUL 字节），不是文本文件`);
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      try {
        text = new TextDecoder('gb18030', { fatal: true }).decode(bytes);
      } catch {
        throw new GridError('BAD_FILE', `文件「${fileLabel}」不是有效的文本（既不是 UTF-8 也不是 GBK 编码），可能是二进制文件`);
      }
    }
  }
  let control = 0;
  let total = 0;
  for (const ch of text) {
    total++;
    const c = ch.codePointAt(0)!;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0x7f || c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff)) control++;
  }
  if (total > 0 && control / total > 0.01) {
    throw new GridError('BAD_FILE', `文件「${fileLabel}」含大量控制字符或乱码（${Math.round((control / total) * 100)}%），不像文本文件`);
  }
  if (!text.trim()) throw new GridError('BAD_FILE', `文件「${fileLabel}」没有任何文字内容`);
  return text;
}
