import { GridError } from '../common/errors';
import { inspectZip, largestParagraphChars, type ZipLimits } from '../common/zip-guard';
import { composeHeaderNames } from './tables';

function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');
}

const strip = (html: string) => decodeEntities(html.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim();

/**
 * An HTML table (mammoth's output) as a grid: merged cells (colspan / rowspan) occupy every position
 * they cover, so a header printed over several rows ("额定电压 kV" over 10 | 35 | 110, <thead> or a first
 * row whose cells span rows) becomes one name per column ("额定电压 kV·10"), and a merged body cell
 * (a station over its bays) is filled into each row it covers.
 */
function tableGrid(inner: string): { header: string[]; rows: string[][] } {
  const trs = [...inner.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)];
  const grid: string[][] = [];
  trs.forEach((tr, r) => {
    grid[r] ??= [];
    let col = 0;
    for (const c of tr[1].matchAll(/<t([dh])([^>]*)>([\s\S]*?)<\/t[dh]>/gi)) {
      while (grid[r][col] !== undefined) col++;
      const span = (name: string) => Math.max(1, Math.min(64, Number(new RegExp(`${name}="?(\\d+)`, 'i').exec(c[2])?.[1] ?? 1)));
      const text = strip(c[3]).replace(/\|/g, '｜');
      for (let dr = 0; dr < span('rowspan') && r + dr < trs.length; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < span('colspan'); dc++) grid[r + dr][col + dc] = text;
      }
      col += span('colspan');
    }
  });
  const width = Math.max(0, ...grid.map((r) => r.length));
  const full = grid.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
  if (!full.length) return { header: [], rows: [] };
  const theadRows = /<thead[^>]*>([\s\S]*?)<\/thead>/i.exec(inner)?.[1].match(/<tr[\s>]/gi)?.length ?? 0;
  // without <thead>, the header is as deep as its first row's cells reach down
  const firstSpans = [...(trs[0]?.[1].matchAll(/rowspan="?(\d+)/gi) ?? [])].map((m) => Number(m[1]));
  const depth = Math.max(1, Math.min(full.length - 1, theadRows || Math.max(1, ...firstSpans)));
  return { header: depth > 1 ? composeHeaderNames(full.slice(0, depth)) : full[0], rows: full.slice(depth) };
}

export interface DocxLimits extends ZipLimits {
  maxParagraphChars: number;
}

/**
 * DOCX -> Markdown-like text: Word heading styles become `#` headings, tables become pipe rows. The
 * archive is checked against `limits` before mammoth inflates it (zip bombs, paragraph bombs).
 */
export async function docxToMarkdown(bytes: Buffer, fileLabel: string, limits: DocxLimits): Promise<string> {
  const entries = inspectZip(bytes, fileLabel, limits);
  const body = entries.find((e) => e.name === 'word/document.xml');
  if (body) {
    const largest = largestParagraphChars(body.read().toString('utf8'));
    if (largest > limits.maxParagraphChars) {
      throw new GridError(
        'TOO_LARGE',
        `文件「${fileLabel}」中有一个段落过大（${(largest / 1048576).toFixed(1)} MB，上限 ${(limits.maxParagraphChars / 1048576).toFixed(1)} MB），疑似恶意构造，已拒绝导入`,
      );
    }
  }
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    // images are never read (nothing here shows them): an image entry is not inflated at all
    html = (await mammoth.convertToHtml({ buffer: bytes }, { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) })).value;
  } catch (e) {
    // mammoth's message can quote the document's XML: never echoed
    throw new GridError('BAD_FILE', `文件「${fileLabel}」不是有效的 DOCX 文档或已损坏`);
  }
  // tables first: each row becomes one pipe line so the Markdown table stays contiguous
  html = html.replace(/<table[^>]*>([\s\S]*?)<\/table>/gi, (_all, inner: string) => {
    const { header, rows } = tableGrid(inner);
    if (!header.length) return '';
    const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
    return `<gridtable>${lines.map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;')).join('\n')}</gridtable>`;
  });
  const out: string[] = [];
  const re = /<h([1-6])[^>]*>([\s\S]*?)<\/h\1>|<p[^>]*>([\s\S]*?)<\/p>|<gridtable>([\s\S]*?)<\/gridtable>|<li[^>]*>([\s\S]*?)<\/li>/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    if (m[1]) out.push('', `${'#'.repeat(Number(m[1]))} ${strip(m[2])}`, '');
    else if (m[3] !== undefined) {
      const t = strip(m[3]);
      if (t) out.push(t, '');
    } else if (m[4] !== undefined) out.push('', decodeEntities(m[4]), '');
    else if (m[5] !== undefined) {
      const t = strip(m[5]);
      if (t) out.push(`- ${t}`);
    }
  }
  const text = out.join('\n').trim();
  if (!text) throw new GridError('BAD_FILE', `文件「${fileLabel}」没有任何文字内容`);
  return text;
}
