import { GridError } from '../common/errors';
import { pdfjsAssets } from '../ocr/raster';
import { OcrDocument } from '../embed/worker-client';
import type { OcrLimits, OcrPageResult } from '../ocr/types';
import { buildBlocks, finishStructure, unitsAndToc, ARTICLE_RE, headingRank } from './structure';
import { cellGroups, type Fragment } from './tables';
import { buildGrids, pageTableSegments, type CellGrid, type PageTableOptions } from './table-grid';
import { cleanOcrColumns } from './table-cells';
import { UNIT_MATCHERS } from './units';
import { rulingsFromOperators, type OperatorList } from './table-rulings';
import { PAGE_NUMBER_RE, segmentParas, stitchTables, type PagePara } from './table-layout';
import type { OcrLineBox, ParsedDocument, ParsedFigure, ParsedToc } from './types';
import { attachCitations, figureUnits, findPageFigures } from './figures';
const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;

export interface TextItem {
  str: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** OCR: where the print starts and ends (points), inside the padded box */
  ink?: [number, number];
}

interface PdfLine {
  /** several wide gaps: a table row, never joined with its neighbours */
  tabular: boolean;
  text: string;
  x: number;
  right: number;
  size: number;
  y: number;
  frags: Fragment[];
}


/** Items -> lines in reading order (top to bottom, left to right), CJK glued without spaces. */
function itemsToLines(items: TextItem[]): PdfLine[] {
  const sorted = items.filter((i) => i.str.length > 0).sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: TextItem[][] = [];
  for (const it of sorted) {
    const row = rows[rows.length - 1];
    // a raised footnote marker (small, one or two characters) is measured against the text it follows
    // (raised by up to 3/4 of its size; lines are >= 1.1 sizes apart)
    const small = (i: TextItem) => i.str.trim().length <= 2 && (i.h || 10) <= Math.max(it.h || 10, row?.[0].h || 10) * 0.85;
    const marker = !!row && (small(it) || small(row[0]));
    const tol = marker ? Math.max(it.h || 10, row[0].h || 10) * 0.75 : Math.max(2, Math.min(it.h || 10, row?.[0].h || 10) * 0.5);
    if (row && Math.abs(row[0].y - it.y) <= tol) row.push(it);
    else rows.push([it]);
  }
  return rows
    .map((row) => {
      row.sort((a, b) => a.x - b.x);
      let text = '';
      let prevEnd = -Infinity;
      let size = 0;
      let wideGaps = 0;
      for (const it of row) {
        size = Math.max(size, it.h);
        const gap = it.x - prevEnd;
        // pdf.js reports column gaps either as real gaps or as wide whitespace items
        if (text && (gap > (it.h || size || 10) * 1.5 || (!it.str.trim() && it.w > (size || 10) * 1.5))) wideGaps++;
        if (text && !/\s$/.test(text) && !/^\s/.test(it.str)) {
          const cjkJoin = CJK.test(text.slice(-1)) || CJK.test(it.str[0]);
          if (gap > (it.h || 10) * (cjkJoin ? 0.8 : 0.2)) text += ' ';
        }
        text += it.str;
        prevEnd = it.x + it.w;
      }
      const frags = row.filter((it) => it.str.trim()).map((it) => ({ str: it.str, x: it.x, right: it.x + it.w, h: it.h, y: it.y, ...(it.ink ? { ink: it.ink } : {}) }));
      return { text: text.replace(/\s+/g, ' ').trim(), x: row[0].x, right: prevEnd, size, y: row[0].y, frags, tabular: wideGaps >= 2 };
    })
    .filter((l) => l.text);
}

function startsStructure(text: string): boolean {
  return ARTICLE_RE.test(text) || headingRank(text, false, false) !== null || /^[（(][一二三四五六七八九十\d]+[)）]/.test(text) || /^\d{1,2}[.、．]\D/.test(text);
}

/** Wrapped lines -> paragraphs: join unless the line ends a sentence, is short, or the next starts a label. */
function linesToParagraphs(lines: PdfLine[]): string[] {
  if (!lines.length) return [];
  const maxRight = Math.max(...lines.map((l) => l.right));
  const minX = Math.min(...lines.map((l) => l.x));
  const out: string[] = [];
  let cur = '';
  lines.forEach((line, i) => {
    if (!cur) cur = line.text;
    else {
      const glue = CJK.test(cur.slice(-1)) || CJK.test(line.text[0]) ? '' : ' ';
      cur += glue + line.text;
    }
    const next = lines[i + 1];
    const size = line.size || 10;
    const ends =
      !next ||
      line.tabular ||
      next.tabular ||
      /[。！？；：:!?;]$/.test(line.text) ||
      line.right < maxRight - size * 2 ||
      startsStructure(next.text) ||
      next.x > minX + size * 1.5 ||
      Math.abs((next.size || 10) - size) > 1.5;
    if (ends) {
      out.push(cur);
      cur = '';
    }
  });
  if (cur) out.push(cur);
  return out;
}

/** A page's lines -> paragraphs, with table regions (ruled grids, or aligned columns) kept as one paragraph per header line and row. */
function pageParagraphs(lines: PdfLine[], grids: CellGrid[], options?: PageTableOptions): PagePara[] {
  return segmentParas(lines, pageTableSegments(lines, grids, options), (part) => linesToParagraphs(part));
}

/** Lines that may be table rows (two or more cell groups): only then are the page's rulings worth reading. */
const mayHoldTable = (lines: PdfLine[]) => lines.filter((l) => cellGroups(l) >= 2).length >= 2;

/**
 * OCR misreads a table cell makes obvious: a unit alone read with a capital K ("KA"), a stray dot or
 * colon from speckle after a number or unit ("4800.", "MW:"), a speck before it.
 */
export function cleanOcrCell(cell: string): string {
  let s = cell.trim();
  // Chinese print never ends or opens a cell with ASCII punctuation ("p.u." excepted)
  if (!/[a-z]\.[a-z]\.$/i.test(s)) s = s.replace(/(?<=[\u4e00-\u9fff）)\w%*℃Ω])(?:\s*[.'"`,:;·：；，、])+$/, '');
  s = s.replace(/^[.'"`,:;·：；，、]+\s*(?=[\u4e00-\u9fff\w≥≤±+-])/, '');
  // a speck beside a decimal point: "89..0"
  s = s.replace(/(?<=\d)\.{2,}(?=\d)/g, '.');
  // a speck read as a point between a number and its bracket: "UP2000-115.(高原型)" (no number ends in a point)
  s = s.replace(/(?<=\d)[.·](?=[（(])/g, '');
  // "×" between two numbers is read as the letter ("3x120" mm², "2×50MVA"): a letter x is never printed between digits
  s = s.replace(/(?<=\d)\s?[xX]\s?(?=\d)/g, '×');
  // the ring of "℃" read as a quote or doubled ("±2"C", "40'C")
  s = s.replace(/(?<=\d)\s?(?:["'“”’`]|[°º˚]{2})\s?C(?![A-Za-z])/g, '℃').replace(/(?<=\d)\s?[°º˚"'](?=℃)/g, '');
  // a colon for the decimal point of a number followed by its unit ("0:38kV"; a time "10:00" has no unit after it)
  s = s.replace(UNIT_MATCHERS.decimalColon, '.');
  // a cell opening with a long dash and going on in Han characters: the dash is "一" (一般, 一遥); the lone
  // dash of an empty cell, and a dash between two names, stay
  s = s.replace(/^[—－-](?=[\u4e00-\u9fff])/, '一');
  // volt and watt are capitals (units named after people): "500kv" is 500 kV, a unit row's "kv" is kV
  return s
    .replace(UNIT_MATCHERS.kilo, 'k$1')
    .replace(/^[kK]([vw])(a?)$/, (_m, u: string, va: string) => `k${u.toUpperCase()}${va.toUpperCase()}`).replace(/(\d\s?[kMG]?)([vw])(a?)$/, (_m, a: string, u: string, va: string) => `${a}${u.toUpperCase()}${va.toUpperCase()}`);
}

/** A fragment's middle for the grid when its y is already the middle of its box (OCR items). */
const boxMiddle = (f: Fragment): [number, number] => [(f.x + f.right) / 2, f.y ?? 0];

type PdfDoc = {
  numPages: number;
  getPage(n: number): Promise<{
    getTextContent(): Promise<{ items: unknown[] }>;
    getViewport(o: { scale: number }): { width: number; height: number };
    getOperatorList(): Promise<OperatorList>;
    cleanup(): void;
  }>;
  getOutline(): Promise<OutlineNode[] | null>;
  getDestination(name: string): Promise<unknown[] | null>;
  getPageIndex(ref: unknown): Promise<number>;
  getMetadata(): Promise<{ info?: Record<string, unknown> }>;
  destroy(): Promise<void>;
};
type OutlineNode = { title: string; dest: string | unknown[] | null; items: OutlineNode[] };

async function outlineToc(pdf: PdfDoc): Promise<ParsedToc[]> {
  let outline: OutlineNode[] | null = null;
  try {
    outline = await pdf.getOutline();
  } catch {
    return [];
  }
  const toc: ParsedToc[] = [];
  const walk = async (nodes: OutlineNode[], level: number) => {
    for (const node of nodes) {
      let page = 1;
      try {
        const dest = typeof node.dest === 'string' ? await pdf.getDestination(node.dest) : node.dest;
        if (dest && dest.length) {
          const ref = dest[0];
          page = typeof ref === 'number' ? ref + 1 : (await pdf.getPageIndex(ref)) + 1;
        }
      } catch {
        /* an entry without a resolvable target points at page 1 rather than failing the import */
      }
      const title = (node.title ?? '').replace(/\s+/g, ' ').trim();
      if (title) toc.push({ level, title, page_num: Math.min(Math.max(page, 1), pdf.numPages) });
      if (node.items?.length) await walk(node.items, level + 1);
    }
  };
  if (outline?.length) await walk(outline, 1);
  return toc;
}

/** Characters a regulation's text layer is made of; a layer mostly of anything else is a broken font mapping. */
const READABLE = /[\u4e00-\u9fff\u3400-\u4dbf\u3000-\u303f\uff00-\uffefA-Za-z0-9\s!-/:-@[-`{-~\u2000-\u206f\u00b0\u00b1\u00b7\u00d7\u00f7\u2103\u2160-\u216b\u2190-\u21ff\u2200-\u22ff\u2460-\u24ff\u2500-\u257f\u25a0-\u25ff]/u;

/** Share of a text layer's characters that are readable (1 for an empty layer). */
export function readableShare(text: string): number {
  const chars = [...text.replace(/\s/g, '')];
  if (!chars.length) return 1;
  return chars.filter((c) => READABLE.test(c)).length / chars.length;
}

/** Text-layer lines -> the page's text decides: keep it, or read the page image. */
function needsOcr(items: TextItem[], limits: { minTextChars: number; minReadableShare: number }): boolean {
  const text = items.map((i) => i.str).join('');
  const chars = text.replace(/\s/g, '').length;
  return chars < limits.minTextChars || readableShare(text) < limits.minReadableShare;
}

const SPECK_RE = /^[\s.,:;'"`·、，。：；]{1,3}$/;

/** OCR lines (boxes in points from the top-left) -> the text items the layout code reads. */
export function ocrItems(result: OcrPageResult): TextItem[] {
  const boxes = result.lines.filter((l) => !SPECK_RE.test(l.text)).map((l) => ({ text: l.text, ink: l.ink, ...levelledBox(l, result) }));
  // the body print is the height most characters are read at (a page of short labels in a drawing and two
  // long articles is set in the articles' size): median box height weighted by characters
  const byHeight = boxes.map((b) => ({ h: b.h, n: [...b.text].length })).sort((a, b) => a.h - b.h);
  const half = byHeight.reduce((a, b) => a + b.n, 0) / 2;
  let seen = 0;
  const median = byHeight.find((b) => (seen += b.n) >= half)?.h ?? 10;
  // a speck read as a dot or a colon on its own is no line of the page (it would end a table before a page break);
  // nor is a lone dash lying on a horizontal ruling (a photocopied rule's thick or broken stretch the detector
  // boxed: a dash in a cell stands half a row from the rules, this one within a quarter of its box's height)
  const rules = (result.rulings ?? []).filter((r) => r.y0 === r.y1);
  const onRule = (b: (typeof boxes)[number]) => /^[—－\-]$/.test(b.text) && rules.some((r) => b.cx >= r.x0 && b.cx <= r.x1 && Math.abs(r.y0 - b.cy) <= b.h / 4 + 1);
  return boxes.filter((b) => !onRule(b)).map((b) => {
    // box heights of one print size vary with the glyphs (brackets, descenders; digits and Latin letters
    // stand lower than Chinese characters, so a line without any is boxed up to a third shorter): body lines
    // get one size, so paragraphs join as in a text PDF; the detector's box is about 1.4 times the glyph size
    const tolerance = /[\u3400-\u9fff]/.test(b.text) ? 0.2 : 0.4;
    const h = (Math.abs(b.h - median) <= median * tolerance ? median : b.h) * 0.7;
    const x = b.cx - b.w / 2;
    return { str: b.text, x, y: result.heightPt - b.cy, w: b.w, h, ...(b.ink ? { ink: [x + b.ink[0] * b.w, x + b.ink[1] * b.w] as [number, number] } : {}) };
  });
}

/**
 * An OCR line's box on the page as levelled (the frame the worker found it and the rulings in): OCR boxes
 * are reported on the page as scanned, as the bounding box of the levelled box turned by the skew. Rows of
 * a table then share one y across the page (at 1° a 15 cm row drifts by 7 pt, a whole row height at 150 dpi
 * split into two lines), and columns one x. Centre turned back; width and height from the bounding box.
 */
function levelledBox(l: { x0: number; y0: number; x1: number; y1: number }, result: OcrPageResult): { cx: number; cy: number; w: number; h: number } {
  const t = (-result.skew * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const x = (l.x0 + l.x1) / 2 - result.widthPt / 2;
  const y = (l.y0 + l.y1) / 2 - result.heightPt / 2;
  const W = l.x1 - l.x0;
  const H = l.y1 - l.y0;
  const s = Math.abs(sin);
  const det = cos * cos - s * s;
  // W = w cos + h |sin|, H = w |sin| + h cos
  const w = (W * cos - H * s) / det;
  const h = (H * cos - W * s) / det;
  return { cx: cos * x - sin * y + result.widthPt / 2, cy: sin * x + cos * y + result.heightPt / 2, w: w > 0 ? w : W, h: h > H * 0.3 ? h : H * 0.3 };
}

/** Metadata titles that are not the document's title: editor and printer defaults, file and temp names. */
export function generatedTitle(title: string, fileBase: string): boolean {
  const t = title.trim();
  if (!t) return true;
  if (/^(untitled|无标题|未命名|新建|microsoft (word|excel|powerpoint)\b|wps|document\s*\d*$|文档\s*\d*$|doc\d+|temp|tmp|~)/i.test(t)) return true;
  if (/\.(docx?|wps|pdf|tmp|rtf|xlsx?|txt|html?|indd|tex)$/i.test(t)) return true;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(t) || /^[\w.~$-]+$/.test(t) && /\d/.test(t) && !/\s/.test(t)) return true;
  return t === fileBase.trim();
}

/** The first page's largest print near the top: the title as printed (two lines of it joined). */
export function printedTitle(lines: PdfLine[]): string {
  const candidates = lines.filter((l) => l.text.replace(/\s/g, '').length >= 2 && !PAGE_NUMBER_RE.test(l.text));
  if (!candidates.length) return '';
  const body = [...candidates.map((l) => l.size)].sort((a, b) => a - b)[Math.floor(candidates.length / 2)];
  const top = Math.max(...candidates.map((l) => l.size));
  // a title is set larger than the body text; a page all in one size has no printed title to find
  if (top < body * 1.15) return '';
  const idx = candidates.findIndex((l) => l.size >= top - 0.6);
  const parts = [candidates[idx]];
  for (let i = idx + 1; i < candidates.length; i++) {
    const l = candidates[i];
    if (Math.abs(l.size - top) > 0.6 || parts.at(-1)!.y - l.y > top * 2.2) break;
    parts.push(l);
  }
  const title = parts.map((l) => l.text).join(CJK.test(parts[0].text) ? '' : ' ').replace(/\s+/g, ' ').trim();
  return title.length <= 80 && !ARTICLE_RE.test(title) ? title : '';
}

export interface PdfParseOptions {
  fallbackTitle: string;
  /** pages done, pages in all, and a message (the OCR estimate) */
  onPage?: (done: number, total: number, message?: string) => void;
  signal?: AbortSignal;
  /** OCR of image-only pages; absent: such pages stay empty (and a scan-only file is refused) */
  ocr?: OcrLimits & { minTextChars: number; minReadableShare: number };
}

const SKIP_NOTE: Record<string, (page: number, r: OcrPageResult) => string> = {
  too_large: (n) => `第 ${n} 页的图片过大，超过识别上限（config.json 的 ocr.maxImagePixels），已跳过`,
  unreadable: (n) => `第 ${n} 页的图片已损坏、无法解码，已跳过`,
};

function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  return s < 60 ? `${s} 秒` : `${Math.floor(s / 60)} 分 ${s % 60} 秒`;
}

/**
 * PDF -> one page per physical page (reading order, wrapped lines joined), TOC from the outline when
 * present, else from detected headings; units (articles/clauses) located on the page where they start.
 * A page without a usable text layer (a scan, or a garbage layer) is read by OCR in the ONNX worker.
 */
export async function parsePdf(bytes: Buffer, fileLabel: string, options: PdfParseOptions): Promise<ParsedDocument> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { cMapUrl, standardFontDataUrl } = pdfjsAssets();
  let pdf: PdfDoc;
  try {
    const task = pdfjs.getDocument({
      data: new Uint8Array(bytes),
      cMapUrl,
      cMapPacked: true,
      standardFontDataUrl,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      // images above this are never decoded (common/pdf-guard.ts leaves them unchecked for that reason)
      maxImageSize: options.ocr?.maxImagePixels ?? 40_000_000,
    });
    pdf = (await task.promise) as unknown as PdfDoc;
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') throw new GridError('BAD_FILE', `文件「${fileLabel}」已加密（需要密码），请先解除密码保护后再导入`);
    if (name === 'InvalidPDFException') throw new GridError('BAD_FILE', `文件「${fileLabel}」不是有效的 PDF 或已损坏`);
    throw new GridError('BAD_FILE', `文件「${fileLabel}」无法解析为 PDF：${(e as Error).message}`);
  }
  let ocr: OcrDocument | null = null;
  const pdfjsOps = (pdfjs as unknown as { OPS: Record<string, number> }).OPS;
  try {
    if (pdf.numPages === 0) throw new GridError('BAD_FILE', `文件「${fileLabel}」是空 PDF（没有页面）`);
    const pageParas: PagePara[][] = [];
    let firstPageLines: PdfLine[] = [];
    const ocrPages: number[] = [];
    const ocrLines: OcrLineBox[] = [];
    const notes: string[] = [];
    const figures: ParsedFigure[] = [];
    let ocrMs = 0;
    let ocrCount = 0;
    let confSum = 0;
    let confN = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      if (options.signal?.aborted) throw new GridError('CANCELLED', `导入已取消（「${fileLabel}」第 ${n} 页）`);
      let page;
      try {
        page = await pdf.getPage(n);
      } catch (e) {
        throw new GridError('BAD_FILE', `文件「${fileLabel}」第 ${n} 页已损坏：${(e as Error).message}`);
      }
      const content = await page.getTextContent();
      const pageSize = page.getViewport({ scale: 1 });
      let items: TextItem[] = [];
      for (const raw of content.items as { str?: string; transform?: number[]; width?: number; height?: number }[]) {
        if (typeof raw.str !== 'string' || !raw.transform) continue;
        const t = raw.transform;
        items.push({ str: raw.str, x: t[4], y: t[5], w: raw.width ?? 0, h: raw.height || Math.hypot(t[2], t[3]) || 10 });
      }
      let message: string | undefined;
      let grids: CellGrid[] = [];
      let tableOptions: PageTableOptions | undefined;
      if (options.ocr && needsOcr(items, options.ocr)) {
        ocr ??= await OcrDocument.open(bytes, options.ocr);
        const result = await ocr.readPage(n);
        if (options.signal?.aborted) throw new GridError('CANCELLED', `导入已取消（「${fileLabel}」第 ${n} 页）`);
        if (result.skipped && result.skipped !== 'blank') notes.push(SKIP_NOTE[result.skipped](n, result));
        if (!result.skipped) {
          ocrCount++;
          ocrMs += result.ms;
          if (result.lines.length) {
            ocrPages.push(n);
            items = ocrItems(result);
            grids = buildGrids((result.rulings ?? []).map((r) => ({ x0: r.x0, x1: r.x1, y0: result.heightPt - r.y1, y1: result.heightPt - r.y0 })));
            tableOptions = { centre: boxMiddle, cleanCell: cleanOcrCell, cleanColumns: cleanOcrColumns, scanned: true };
            for (const l of result.lines) {
              confSum += l.confidence;
              confN++;
              ocrLines.push({
                page_num: n,
                text: l.text,
                confidence: Math.round(l.confidence * 1000) / 1000,
                min_confidence: Math.round(l.min_confidence * 1000) / 1000,
                x0: l.x0 / result.widthPt,
                y0: l.y0 / result.heightPt,
                x1: l.x1 / result.widthPt,
                y1: l.y1 / result.heightPt,
              });
            }
          } else notes.push(`第 ${n} 页是图片，但没有识别出文字`);
          // the pages left are assumed to be scans like the ones so far
          const left = (ocrMs / ocrCount / 1000) * (pdf.numPages - n) * (ocrCount / n);
          message = `文字识别（OCR）第 ${n} 页${n < pdf.numPages ? `，预计还需 ${formatDuration(left)}` : ''}`;
        }
      }
      const lines = itemsToLines(items);
      if (!tableOptions && mayHoldTable(lines)) grids = buildGrids(rulingsFromOperators(await page.getOperatorList(), pdfjsOps));
      page.cleanup();
      if (n === 1) firstPageLines = lines;
      figures.push(...findPageFigures(lines, n, pageSize.width, pageSize.height).filter((f) => !figures.some((g) => g.figure_id === f.figure_id)));
      pageParas.push(pageParagraphs(lines, grids, tableOptions));
      options.onPage?.(n, pdf.numPages, message);
    }
    // running headers/footers: page numbers, and short lines repeated on most pages
    const counts = new Map<string, number>();
    for (const paras of pageParas) for (const p of new Set(paras.filter((q) => !q.seg).map((q) => q.text))) if (p.length <= 40) counts.set(p, (counts.get(p) ?? 0) + 1);
    const repeated = (p: string) => pdf.numPages >= 3 && (counts.get(p) ?? 0) >= Math.max(3, pdf.numPages * 0.5);
    const kept = pageParas.map((paras) => paras.filter((p) => p.seg || (!PAGE_NUMBER_RE.test(p.text) && !repeated(p.text))));
    const cleaned = kept.map((paras) => paras.map((p) => p.text));
    const totalChars = cleaned.reduce((n, ps) => n + ps.join('').replace(/\s/g, '').length, 0);
    if (totalChars === 0) {
      if (options.ocr && notes.length) throw new GridError('BAD_FILE', `文件「${fileLabel}」没有识别出任何文字：${notes.join('；')}`);
      const imageOps = new Set([pdfjsOps.paintImageXObject, pdfjsOps.paintInlineImageXObject, pdfjsOps.paintImageMaskXObject]);
      let hasImages = false;
      for (let n = 1; n <= Math.min(pdf.numPages, 5) && !hasImages && !options.ocr; n++) {
        const ops = await (await pdf.getPage(n)).getOperatorList();
        hasImages = ops.fnArray.some((f) => imageOps.has(f));
      }
      throw new GridError(
        'BAD_FILE',
        options.ocr
          ? `文件「${fileLabel}」没有任何文字内容（空白页，或图片上识别不出文字）`
          : hasImages
            ? `文件「${fileLabel}」只有图片没有文字（扫描件），无法提取文字；请先用 OCR 转为可检索的 PDF`
            : `文件「${fileLabel}」没有任何文字内容（空白 PDF）`,
      );
    }
    const { lines, tables } = stitchTables(kept);
    const { blocks } = buildBlocks(lines, { markdown: false, maxParagraphChars: 900, titleFromFirstHeading: false, tables });
    const { units, toc: detectedToc } = unitsAndToc(blocks, tables);
    attachCitations(figures, units);
    units.push(...figureUnits(figures));
    const structure = finishStructure(blocks, tables);
    const outline = await outlineToc(pdf);
    let title = '';
    try {
      const info = (await pdf.getMetadata()).info ?? {};
      const t = typeof info.Title === 'string' ? info.Title.replace(/\s+/g, ' ').trim() : '';
      if (!generatedTitle(t, options.fallbackTitle)) title = t;
    } catch {
      /* metadata is optional */
    }
    title ||= printedTitle(firstPageLines);
    if (!title) {
      const first = cleaned.find((ps) => ps.length)?.[0] ?? '';
      if (first.length <= 60 && !ARTICLE_RE.test(first)) title = first;
    }
    return {
      title: title || options.fallbackTitle,
      format: 'pdf',
      pages: cleaned.map((paras, i) => ({ page_num: i + 1, text: paras.join('\n') })),
      toc: outline.length ? outline : detectedToc,
      units,
      ...structure,
      figures,
      ocr: options.ocr
        ? { pages: ocrPages, mean_confidence: confN ? Math.round((confSum / confN) * 1000) / 1000 : null, lines: ocrLines, notes, seconds: Math.round(ocrMs / 100) / 10 }
        : undefined,
    };
  } finally {
    await ocr?.close();
    await pdf.destroy();
  }
}
