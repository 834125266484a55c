import type { ParsedDocument, ParsedToc, ParsedUnit, RegulationFormat } from './types';

/**
 * Structure of regulation text: headings (markdown `#`, 第X编/章/节, 一、, 1.1), articles (第X条,
 * 第十条之一), numbered clauses (5.3.2 ...) and plain paragraphs. Shared by every format: Markdown/TXT/DOCX
 * are cut into virtual pages here; PDF lines arrive with their physical page numbers.
 */

const CN_NUM = '零〇一二两三四五六七八九十百千万\\d０-９';
export const ARTICLE_RE = new RegExp(`^第([${CN_NUM}]+)条(之[${CN_NUM}]+)?(?=$|[\\s\\u3000:：.．、]|[^的规和及与或至、，,中所之第])`);
const CHAPTER_RE = new RegExp(`^第([${CN_NUM}]+)(编|分编|章|节)(?:$|[\\s\\u3000:：.．、]+(.*)$|([^\\s的规和及与或至、，,中所之].*)$)`);
const CN_LIST_RE = /^([一二三四五六七八九十]{1,3})[、．.]\s*(\S.*)$/;
const NUMBERED_RE = /^(\d{1,2}(?:[.．]\d{1,3}){0,4})[\s\u3000]+(\S.*)$/;
const APPENDIX_RE = /^(附录|附件|附表)\s*([A-Z0-9一二三四五六七八九十]*)(?:$|[\s\u3000:：.．、]+(.*)$)/;
const MD_HEADING_RE = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
/** Lines of a printed table of contents: "第一章 总则 ........ 3" */
const TOC_LEADER_RE = /(\.{3,}|…{2,}|·{3,}|．{3,}|-{4,})\s*\d+\s*$/;
const SENTENCE_END_RE = /[。；;，,：:！？!?]$/;

const HEADING_MAX = 40;


export interface Line {
  text: string;
  page?: number;
}

export type Block =
  | { type: 'heading'; rank: number; level: number; title: string; raw: string[]; page: number; isDocTitle?: boolean }
  | { type: 'unit'; kind: ParsedUnit['kind']; label: string | null; text: string[]; raw: string[]; page: number; sectionPath: string };

/** Strips markdown emphasis / list markers that sit in front of labels (**第一条** …). */
function plain(line: string): string {
  return line
    .replace(/^>\s*/, '')
    .replace(/\*\*|__/g, '')
    .replace(/!\[[^\]]*]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)]\([^)]*\)/g, '$1')
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim();
}

/** "总 则" -> "总则": statutes space out two-character titles for print layout. */
function tidyTitle(title: string): string {
  const t = title.replace(/[\s\u3000]+/g, ' ').trim();
  if (/^([\u4e00-\u9fff] )+[\u4e00-\u9fff]$/.test(t)) return t.replace(/ /g, '');
  return t;
}

const CHAPTER_RANK: Record<string, number> = { 编: 2.2, 分编: 2.4, 章: 2.6, 节: 2.8 };

/** Heading rank (smaller = higher) when the line is a heading, else null. */
export function headingRank(line: string, markdown: boolean, insideArticle: boolean): { rank: number; title: string } | null {
  if (markdown) {
    const m = MD_HEADING_RE.exec(line);
    if (m) {
      const title = tidyTitle(plain(m[2]));
      return title ? { rank: m[1].length, title } : null;
    }
  }
  const p = plain(line);
  if (!p || p.length > HEADING_MAX + 12 || TOC_LEADER_RE.test(p)) return null;
  const ch = CHAPTER_RE.exec(p);
  if (ch) {
    const rest = (ch[3] ?? ch[4] ?? '').trim();
    if (rest.length > HEADING_MAX || SENTENCE_END_RE.test(rest)) return null;
    const label = `第${ch[1]}${ch[2]}`;
    return { rank: CHAPTER_RANK[ch[2]], title: rest ? `${label} ${tidyTitle(rest)}` : label };
  }
  if (ARTICLE_RE.test(p)) return null;
  const ap = APPENDIX_RE.exec(p);
  if (ap && p.length <= HEADING_MAX && !SENTENCE_END_RE.test(p)) return { rank: 2.6, title: tidyTitle(p) };
  if (insideArticle) return null;
  const cn = CN_LIST_RE.exec(p);
  if (cn && p.length <= 30 && !SENTENCE_END_RE.test(p) && !/[。；]/.test(cn[2])) return { rank: 3.5, title: tidyTitle(p) };
  const num = NUMBERED_RE.exec(p);
  if (num && num[2].length <= HEADING_MAX - 8 && !SENTENCE_END_RE.test(p) && !/[。；]/.test(num[2])) {
    const depth = num[1].split(/[.．]/).length;
    // a bare "12 总则" only counts when the words are Chinese (not "12 kV ...")
    if (depth === 1 && !/^[\u4e00-\u9fff]{2,16}$/.test(num[2].replace(/\s/g, ''))) return null;
    return { rank: 3 + depth * 0.3, title: tidyTitle(p) };
  }
  return null;
}

function articleLabel(p: string): string | null {
  const m = ARTICLE_RE.exec(p);
  return m ? m[0].trim() : null;
}

function clauseLabel(p: string): string | null {
  const m = /^(\d{1,2}(?:[.．]\d{1,3}){1,4})[\s\u3000]+\S/.exec(p);
  return m ? m[1].replace(/．/g, '.') : null;
}

/** Header + separator rows when `raw` is (or starts with) a Markdown pipe table. */
function tableHeader(raw: string[]): [string, string] | null {
  const [a, b] = raw.map((l) => l.trim());
  return a?.startsWith('|') && b && /^\|?\s*:?-{3,}/.test(b) ? [raw[0], raw[1]] : null;
}

export interface BlockOptions {
  markdown: boolean;
  /** Paragraph units longer than this are split at line boundaries (articles never are). */
  maxParagraphChars: number;
  /** The first `#` heading is the document title (Markdown). */
  titleFromFirstHeading: boolean;
}

/** Lines -> heading and unit blocks, with section paths. */
export function buildBlocks(lines: Line[], options: BlockOptions): { blocks: Block[]; title: string | null } {
  const blocks: Block[] = [];
  let title: string | null = null;
  let current: Extract<Block, { type: 'unit' }> | null = null;
  let paragraphOpen = false;
  const stack: { rank: number; title: string }[] = [];
  const path = () => stack.map((s) => s.title).join(' > ');
  const close = () => {
    current = null;
    paragraphOpen = false;
  };
  let mdH1Count = 0;
  if (options.titleFromFirstHeading && options.markdown) {
    for (const l of lines) if (/^#\s+\S/.test(l.text.trim())) mdH1Count++;
  }

  for (const { text: rawLine, page = 1 } of lines) {
    const line = rawLine.replace(/\s+$/, '');
    const trimmed = line.trim();
    if (!trimmed) {
      // a blank line ends a plain paragraph (markdown); articles run on until the next label or heading
      paragraphOpen = false;
      if (current && current.kind !== 'article' && current.kind !== 'clause') current = null;
      if (current) current.raw.push('');
      continue;
    }
    const insideArticle = current !== null && (current as Extract<Block, { type: 'unit' }>).kind === 'article';
    const h = headingRank(trimmed, options.markdown, insideArticle);
    if (h) {
      close();
      // the single top `#` of a Markdown statute is its title, not a TOC entry
      if (options.titleFromFirstHeading && title === null && h.rank === 1 && mdH1Count === 1 && !blocks.some((b) => b.type === 'heading')) {
        title = h.title;
        blocks.push({ type: 'heading', rank: 0, level: 0, title: h.title, raw: [line], page, isDocTitle: true });
        continue;
      }
      while (stack.length && stack[stack.length - 1].rank >= h.rank) stack.pop();
      stack.push({ rank: h.rank, title: h.title });
      blocks.push({ type: 'heading', rank: h.rank, level: stack.length, title: h.title, raw: [line], page });
      continue;
    }
    const p = plain(trimmed);
    const article = articleLabel(p);
    const clause = article ? null : clauseLabel(p);
    if (article || clause) {
      const label = (article ?? clause)!;
      const sectionPath = [path(), label].filter(Boolean).join(' > ');
      current = { type: 'unit', kind: article ? 'article' : 'clause', label, text: [p], raw: [line], page, sectionPath };
      blocks.push(current);
      paragraphOpen = false;
      continue;
    }
    const cur = current as Extract<Block, { type: 'unit' }> | null;
    if (cur && (cur.kind === 'article' || cur.kind === 'clause' || paragraphOpen)) {
      const size = cur.text.reduce((n, t) => n + t.length, 0);
      if (cur.kind === 'paragraph' && size + p.length > options.maxParagraphChars) {
        // long running prose: start another paragraph unit; a split Markdown table repeats its header
        const header = tableHeader(cur.raw);
        if (header && /^\|/.test(trimmed)) {
          current = { type: 'unit', kind: 'paragraph', label: null, text: [plain(header[0]), p], raw: [...header, line], page, sectionPath: cur.sectionPath };
          blocks.push(current);
          continue;
        }
      } else {
        cur.text.push(p);
        cur.raw.push(line);
        continue;
      }
    }
    current = { type: 'unit', kind: 'paragraph', label: null, text: [p], raw: [line], page, sectionPath: path() };
    blocks.push(current);
    // Markdown paragraphs run until a blank line; in plain text every line is its own paragraph
    paragraphOpen = options.markdown;
  }
  return { blocks, title };
}

/** Units and TOC from blocks whose `page` is final. */
export function unitsAndToc(blocks: Block[]): { units: ParsedUnit[]; toc: ParsedToc[] } {
  const units: ParsedUnit[] = [];
  const toc: ParsedToc[] = [];
  for (const b of blocks) {
    if (b.type === 'heading') {
      if (!b.isDocTitle) toc.push({ level: b.level, title: b.title, page_num: b.page });
      continue;
    }
    const text = b.text.join('\n').trim();
    if (!text) continue;
    units.push({ page_num: b.page, kind: b.kind, label: b.label, section_path: b.sectionPath, text });
  }
  return { units, toc };
}

function blockText(b: Block, markdown: boolean): string {
  // drop trailing blank lines kept inside articles
  const raw = [...b.raw];
  while (raw.length && !raw[raw.length - 1].trim()) raw.pop();
  return markdown ? raw.join('\n') : raw.join('\n');
}

/**
 * Virtual pages of about `pageChars` characters. Headings travel with the unit after them
 * (no heading alone at the bottom of a page); an article is never split — an overlong one gets its own page.
 */
export function paginate(blocks: Block[], pageChars: number, markdown: boolean): { page_num: number; text: string }[] {
  const pages: { page_num: number; text: string }[] = [];
  let cur: Block[] = [];
  let curSize = 0;
  let pending: Block[] = [];
  const sep = markdown ? '\n\n' : '\n';
  const flush = () => {
    if (!cur.length) return;
    const page_num = pages.length + 1;
    for (const b of cur) b.page = page_num;
    pages.push({ page_num, text: cur.map((b) => blockText(b, markdown)).join(sep) });
    cur = [];
    curSize = 0;
  };
  const size = (bs: Block[]) => bs.reduce((n, b) => n + blockText(b, markdown).length + sep.length, 0);
  for (const b of blocks) {
    if (b.type === 'heading') {
      // a new top-level part starts on a fresh page when the current one is well filled
      if (b.level <= 1 && !b.isDocTitle && pending.length === 0 && curSize > pageChars * 0.6) flush();
      pending.push(b);
      continue;
    }
    const group = [...pending, b];
    const gs = size(group);
    if (curSize > 0 && curSize + gs > pageChars) flush();
    cur.push(...group);
    curSize += gs;
    pending = [];
  }
  if (pending.length) {
    cur.push(...pending);
    curSize += size(pending);
  }
  flush();
  return pages;
}

/** Markdown / TXT / DOCX (as markdown) text -> pages, TOC, units. */
export function parseFlowText(
  text: string,
  options: { format: RegulationFormat; markdown: boolean; pageChars: number; fallbackTitle: string },
): ParsedDocument {
  let body = text.replace(/\r\n?/g, '\n');
  if (options.markdown) {
    // front matter and HTML comments (<!-- INFO END -->) are not content
    body = body.replace(/^---\n[\s\S]*?\n---\n?/, '').replace(/<!--[\s\S]*?-->/g, '');
    body = body.replace(/^```[\s\S]*?^```/gm, (m) => m.replace(/^```.*$/gm, ''));
  }
  const lines = body.split('\n').map((t) => ({ text: t }));
  const { blocks, title } = buildBlocks(lines, {
    markdown: options.markdown,
    maxParagraphChars: Math.max(200, Math.floor(options.pageChars / 2)),
    titleFromFirstHeading: options.markdown,
  });
  let docTitle = title;
  if (!docTitle) {
    // a TXT / DOCX statute usually opens with its title line
    const first = blocks.find((b) => b.type === 'unit' || b.type === 'heading');
    if (first && first.type === 'unit' && first.kind === 'paragraph' && first.text.length === 1 && first.text[0].length <= 60 && !SENTENCE_END_RE.test(first.text[0])) {
      docTitle = first.text[0];
      blocks.splice(blocks.indexOf(first), 1, { type: 'heading', rank: 0, level: 0, title: docTitle, raw: first.raw, page: 1, isDocTitle: true });
    }
  }
  const pages = paginate(blocks, options.pageChars, options.markdown);
  const { units, toc } = unitsAndToc(blocks);
  return { title: docTitle || options.fallbackTitle, format: options.format, pages, toc, units };
}

