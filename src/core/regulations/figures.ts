/**
 * Figures as objects (issue 24): a caption line "图3-1 变电站一次接线图" and the picture region printed
 * next to it (above it, as regulations print figures; below it when the caption heads the figure). The
 * region is where the page has no body text between the caption and the neighbouring paragraph: an
 * embedded image, a vector drawing, or a scanned drawing alike; short labels inside a drawing (QF1, 母线)
 * do not end it. Stored with page, box, caption and the sentences that cite it ("见图3-1").
 */
import fs from 'node:fs';
import type { AppContext } from '../context';
import type { Db } from '../store/db';
import { GridError } from '../common/errors';
import { pdfjsAssets, type CanvasFactory } from '../ocr/raster';
import { sourceCopyPath } from './sources';
import type { ParsedFigure, ParsedUnit } from './types';

/** "图3-1 …", "图 A.2 …", "图5 …" at the start of a short line. */
export const FIGURE_CAPTION_RE = /^图\s*([A-Z]?\s*\d+(?:\s*[.．\-－—–]\s*\d+){0,2})(?![\d.．])\s*(.{0,50})$/;

export function normalizeFigureNumber(num: string): string {
  return num.replace(/\s+/g, '').replace(/[．]/g, '.').replace(/[－—–]/g, '-');
}

/** A laid-out line as the PDF parser sees it: baseline y in points from the page bottom. */
export interface FigureLine {
  text: string;
  x: number;
  right: number;
  y: number;
  size: number;
}

/** Lines this long are body text, not a label inside a drawing. */
const BODY_CHARS = 16;

/** Figures on one page from its lines. `height`/`width` in points. */
export function findPageFigures(lines: FigureLine[], page: number, width: number, height: number): ParsedFigure[] {
  if (!lines.length) return [];
  const sizes = lines.map((l) => l.size).sort((a, b) => a - b);
  const body = sizes[Math.floor(sizes.length / 2)] || 10;
  const left = Math.min(...lines.map((l) => l.x));
  const right = Math.max(...lines.map((l) => l.right));
  const top = (l: FigureLine) => l.y + l.size * 0.85;
  const bottom = (l: FigureLine) => l.y - l.size * 0.25;
  const out: ParsedFigure[] = [];
  const sorted = [...lines].sort((a, b) => b.y - a.y);
  sorted.forEach((line, i) => {
    const m = FIGURE_CAPTION_RE.exec(line.text.trim());
    if (!m) return;
    const isBody = (l: FigureLine) => l.text.replace(/\s/g, '').length >= BODY_CHARS || FIGURE_CAPTION_RE.test(l.text.trim());
    // above: up to the nearest body line (or the page's top margin)
    let j = i - 1;
    while (j >= 0 && !isBody(sorted[j])) j--;
    const aboveTop = j >= 0 ? bottom(sorted[j]) : Math.min(height, Math.max(...lines.map(top)) + body);
    const aboveGap = aboveTop - top(line);
    // below: a caption heading its figure
    let k = i + 1;
    while (k < sorted.length && !isBody(sorted[k])) k++;
    const belowBottom = k < sorted.length ? top(sorted[k]) : Math.max(0, Math.min(...lines.map(bottom)) - body);
    const belowGap = bottom(line) - belowBottom;
    const minGap = body * 3;
    let y0: number;
    let y1: number;
    if (aboveGap >= minGap) [y0, y1] = [aboveTop, top(line)];
    else if (belowGap >= minGap && k - i > 1) [y0, y1] = [bottom(line), belowBottom];
    else return;
    const figureId = `图${normalizeFigureNumber(m[1])}`;
    if (out.some((f) => f.figure_id === figureId)) return;
    // boxes top-left origin, points
    out.push({
      figure_id: figureId,
      caption: m[2].trim(),
      page_num: page,
      bbox: [Math.max(0, left - 4), Math.max(0, height - y0), Math.min(width, right + 4), Math.min(height, height - y1)],
      page_width: width,
      page_height: height,
      citing: [],
    });
  });
  return out;
}

/** The sentences of the text that cite each figure ("如图3-1所示", "见图3"). */
export function attachCitations(figures: ParsedFigure[], units: ParsedUnit[]): void {
  for (const f of figures) {
    const num = f.figure_id.slice(1).replace(/[.\-]/g, (c) => `\\s*[${c === '.' ? '.．' : '\\-－—–'}]\\s*`);
    const re = new RegExp(`图\\s*${num}(?![\\d.．\\-])`);
    const seen = new Set<string>();
    for (const u of units) {
      for (const sentence of u.text.split(/(?<=[。；！？\n])/)) {
        const s = sentence.trim();
        if (!re.test(s) || FIGURE_CAPTION_RE.test(s) || seen.has(s)) continue;
        seen.add(s);
        f.citing.push({ page_num: u.page_num, label: u.label, text: s.slice(0, 200) });
        if (f.citing.length >= 10) break;
      }
    }
  }
}

/** Figure units: caption and citing sentences are searchable like any provision. */
export function figureUnits(figures: ParsedFigure[]): ParsedUnit[] {
  return figures.map((f) => ({
    page_num: f.page_num,
    kind: 'figure' as const,
    label: f.figure_id,
    section_path: f.figure_id,
    text: [`${f.figure_id} ${f.caption}`.trim(), ...f.citing.map((c) => c.text)].join('\n'),
  }));
}

interface FigureRow {
  figure_id: string;
  caption: string;
  page_num: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  page_width: number;
  page_height: number;
  citing: string;
}

export type FigureOut = ParsedFigure;

const toOut = (r: FigureRow): FigureOut => ({
  figure_id: r.figure_id,
  caption: r.caption,
  page_num: r.page_num,
  bbox: [r.x0, r.y0, r.x1, r.y1].map((v) => Math.round(v * 10) / 10) as FigureOut['bbox'],
  page_width: r.page_width,
  page_height: r.page_height,
  citing: JSON.parse(r.citing) as FigureOut['citing'],
});

/** A regulation's figures (all, or one page's); the caller checks the regulation exists. */
export function listFigures(db: Db, regId: string, page?: number): FigureOut[] {
  const rows = (
    page === undefined
      ? db.prepare('SELECT * FROM reg_figures WHERE reg_id = ? ORDER BY ord').all(regId)
      : db.prepare('SELECT * FROM reg_figures WHERE reg_id = ? AND page_num = ? ORDER BY ord').all(regId, page)
  ) as FigureRow[];
  return rows.map(toOut);
}

export function findFigure(db: Db, regId: string, figureId: string): FigureOut | null {
  const key = `图${normalizeFigureNumber(figureId.replace(/^\s*图/, ''))}`;
  const row = db.prepare('SELECT * FROM reg_figures WHERE reg_id = ? AND figure_id = ?').get(regId, key) as FigureRow | undefined;
  return row ? toOut(row) : null;
}

/** The figure's region of the original page as PNG (rendered from the stored copy of the PDF). */
export async function figurePng(ctx: AppContext, regId: string, figure: FigureOut, dpi = 150): Promise<Buffer> {
  const file = sourceCopyPath(ctx, regId);
  if (!fs.existsSync(file)) throw new GridError('NOT_FOUND', `规程「${regId}」的原文件副本不存在，无法截取图片`);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(file)), ...pdfjsAssets(), cMapPacked: true, isEvalSupported: false, verbosity: 0, maxImageSize: ctx.config.ocr.maxImagePixels }).promise;
  try {
    const page = await doc.getPage(figure.page_num);
    const scale = dpi / 72;
    const viewport = page.getViewport({ scale });
    const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    const full = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const ctx2d = full.context;
    ctx2d.fillStyle = '#ffffff';
    ctx2d.fillRect(0, 0, viewport.width, viewport.height);
    await page.render({ canvasContext: ctx2d as never, viewport, canvas: full.canvas as never }).promise;
    const [x0, y0, x1, y1] = figure.bbox.map((v) => Math.round(v * scale));
    const w = Math.max(1, x1 - x0);
    const h = Math.max(1, y1 - y0);
    const cropped = factory.create(w, h);
    (cropped.context as unknown as { drawImage(c: unknown, x: number, y: number): void }).drawImage(full.canvas, -x0, -y0);
    const png = (cropped.canvas as { toBuffer(mime: string): Buffer }).toBuffer('image/png');
    factory.destroy(full);
    factory.destroy(cropped);
    return png;
  } finally {
    await doc.destroy();
  }
}
