import { GridError } from '../common/errors';

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

/** DOCX -> Markdown-like text: Word heading styles become `#` headings, tables become pipe rows. */
export async function docxToMarkdown(bytes: Buffer, fileLabel: string): Promise<string> {
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch (e) {
    throw new GridError('BAD_FILE', `文件「${fileLabel}」不是有效的 DOCX 文档或已损坏：${(e as Error).message.slice(0, 120)}`);
  }
  // tables first: each row becomes one pipe line so the Markdown table stays contiguous
  html = html.replace(/<table[^>]*>([\s\S]*?)<\/table>/gi, (_all, inner: string) => {
    const rows = [...inner.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)].map((r) =>
      [...r[1].matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((c) => strip(c[1]).replace(/\|/g, '｜')),
    );
    if (!rows.length) return '';
    const lines = [`| ${rows[0].join(' | ')} |`, `|${rows[0].map(() => ' --- ').join('|')}|`, ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`)];
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
