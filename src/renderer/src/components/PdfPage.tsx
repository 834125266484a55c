/**
 * One PDF page: canvas for the picture, pdf.js text layer on top for selection and search-term
 * highlighting. Renders at the zoom level with the device pixel ratio so text stays sharp.
 */
import { useEffect, useRef, useState } from 'react';
import { ErrorBox, Spinner } from './common';
import { loadPdfJs, openPdf } from '../data/pdf';
import { termsRegex } from './PageText';
import { squashText, type HitTarget } from './reader-logic';

/** CSS width of a page at zoom 1. */
const BASE_WIDTH = 820;
/** Padding of the page sheet + the reader view around the picture (styles.css), both sides. */
const CHROME_X = 2 * (20 + 12) + 2;
const CHROME_Y = 2 * (20 + 12) + 2;

/** width: page as wide as the reading area (default); page: whole page visible; zoom: fixed scale. */
export type PdfFit = 'width' | 'page' | 'zoom';

export function pdfScaleFor(fit: PdfFit, zoom: number, pageSize: { width: number; height: number }, area: { width: number; height: number }): number {
  const byWidth = Math.max(120, area.width - CHROME_X) / pageSize.width;
  if (fit === 'width') return byWidth;
  if (fit === 'page') return Math.min(byWidth, Math.max(120, area.height - CHROME_Y) / pageSize.height);
  return (BASE_WIDTH / pageSize.width) * zoom;
}

/** A line OCR read on a scanned page; the box as fractions of the page from its top-left corner. */
export interface OcrLineView {
  text: string;
  confidence: number;
  min_confidence?: number;
  low_confidence: boolean;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function PdfPage({
  regId,
  page,
  fit,
  zoom,
  area,
  terms,
  ocrLines,
  target = null,
  runOn = false,
  onScale,
  onFailed,
}: {
  regId: string;
  page: number;
  fit: PdfFit;
  zoom: number;
  /** the reading area the page must fit in (CSS px) */
  area: { width: number; height: number };
  terms: string[];
  /** a scanned page's OCR lines: they become the text layer (selection, hit highlighting, low-confidence marks) */
  ocrLines?: OcrLineView[];
  /** the search hit printed on this page: its block is tinted and scrolled into view */
  target?: HitTarget | null;
  /** this page continues the hit from the page before: its block starts at the top */
  runOn?: boolean;
  /** the scale shown, relative to the normal page width (100 % = zoom 1) */
  onScale?: (zoomEquivalent: number) => void;
  onFailed: (e: unknown) => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<unknown>(undefined);
  const termKey = terms.join('|');
  const ocrKey = ocrLines ? `${ocrLines.length}:${ocrLines[0]?.text ?? ''}` : '';
  const targetKey = target ? JSON.stringify(target) : '';

  useEffect(() => {
    let cancelled = false;
    let renderTask: { cancel: () => void; promise: Promise<void> } | null = null;
    let textLayer: { cancel: () => void } | null = null;
    // keep the previous picture while the next one draws (no flash on resize/flip)
    if (!canvasRef.current?.width) setState('loading');
    (async () => {
      const [pdfjs, doc] = await Promise.all([loadPdfJs(), openPdf(regId)]);
      if (cancelled) return;
      const pdfPage = await doc.getPage(Math.min(page, doc.numPages));
      if (cancelled) return;
      const unscaled = pdfPage.getViewport({ scale: 1 });
      const scale = pdfScaleFor(fit, zoom, unscaled, area);
      onScale?.(Math.round(((scale * unscaled.width) / BASE_WIDTH) * 100) / 100);
      const viewport = pdfPage.getViewport({ scale });
      const dpr = window.devicePixelRatio || 1;
      const canvas = canvasRef.current!;
      canvas.width = Math.floor(viewport.width * dpr);
      canvas.height = Math.floor(viewport.height * dpr);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const box = boxRef.current!;
      box.style.width = `${Math.floor(viewport.width)}px`;
      box.style.height = `${Math.floor(viewport.height)}px`;
      box.style.setProperty('--total-scale-factor', String(scale));
      renderTask = pdfPage.render({ canvas, viewport, transform: dpr !== 1 ? [dpr, 0, 0, dpr, 0, 0] : undefined });
      const container = textRef.current!;
      container.replaceChildren();
      if (ocrLines?.length) {
        ocrTextLayer(container, ocrLines, viewport, scale);
        await renderTask.promise;
      } else {
        const tl = new pdfjs.TextLayer({ textContentSource: pdfPage.streamTextContent(), container, viewport });
        textLayer = tl;
        await Promise.all([renderTask.promise, tl.render()]);
      }
      if (cancelled) return;
      const block = target ? markBlock(container, target, runOn, page) : null;
      markTerms(container, terms);
      setState('ready');
      if (runOn) return;
      // the hit's block (all of it when it fits, else its start), else the first marked term
      const first = block ?? container.querySelector<HTMLElement>('mark.hit');
      if (first) {
        const view = first.closest<HTMLElement>('.reader-view');
        const tall = block && view ? blockHeight(container) > view.clientHeight * 0.7 : false;
        first.scrollIntoView({ block: tall ? 'start' : 'center' });
      }
    })().catch((e: unknown) => {
      if (cancelled || (e as { name?: string })?.name === 'RenderingCancelledException') return;
      setError(e);
      setState('error');
      onFailed(e);
    });
    return () => {
      cancelled = true;
      renderTask?.cancel();
      textLayer?.cancel();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [regId, page, fit, fit === 'zoom' ? zoom : 0, fit === 'zoom' ? 0 : area.width, fit === 'page' ? area.height : 0, termKey, targetKey, runOn, ocrKey]);

  return (
    <div className="pdf-page-wrap" data-state={state}>
      {state === 'loading' ? <Spinner label={`正在绘制第 ${page} 页…`} /> : null}
      {state === 'error' ? <ErrorBox title="无法显示原版页面" error={error} /> : null}
      <div className="pdf-page" ref={boxRef} hidden={state === 'error'}>
        <canvas ref={canvasRef} role="img" aria-label={`第 ${page} 页原版图像`} />
        <div className="textLayer" ref={textRef} />
      </div>
    </div>
  );
}

/**
 * The text layer of a scanned page from its OCR lines: one transparent span per line, sized and
 * stretched to the line's box, so selection and search marks land on the printed words. Lines read
 * with low confidence get a dashed frame and say so on hover.
 */
function ocrTextLayer(container: HTMLElement, lines: OcrLineView[], viewport: { width: number; height: number }, scale: number): void {
  const spans = lines.map((l) => {
    const span = document.createElement('span');
    span.textContent = l.text;
    span.className = l.low_confidence ? 'ocr-line ocr-low' : 'ocr-line';
    const h = (l.y1 - l.y0) * viewport.height;
    // the detector's box is about 1.4 glyph heights: the glyphs sit in its middle
    const font = h * 0.7;
    span.style.left = `${l.x0 * viewport.width}px`;
    span.style.top = `${l.y0 * viewport.height + (h - font) / 2}px`;
    span.style.setProperty('--font-height', `${font / scale}px`);
    if (l.low_confidence) span.title = `有字识别把握不大（最低置信度 ${Math.round((l.min_confidence ?? l.confidence) * 100)}%），文字可能有误，请对照原图`;
    container.appendChild(span);
    return { span, width: (l.x1 - l.x0) * viewport.width };
  });
  // one layout pass for all natural widths, then stretch each line to its box
  const natural = spans.map((s) => s.span.getBoundingClientRect().width);
  spans.forEach((s, i) => {
    if (natural[i] > 0) s.span.style.setProperty('--scale-x', String(s.width / natural[i]));
  });
}

/**
 * Wraps search terms inside text-layer spans in <mark>: the span keeps its pdf.js geometry, so
 * the mark lands on the term in the picture. The first mark becomes the scroll target.
 */
function markTerms(container: HTMLElement, terms: string[]): void {
  const re = termsRegex(terms);
  if (!re) return;
  let first = true;
  for (const span of Array.from(container.querySelectorAll<HTMLSpanElement>('span'))) {
    const text = span.textContent ?? '';
    if (span.children.length !== 0 || !text) continue;
    re.lastIndex = 0;
    if (!re.test(text)) continue;
    re.lastIndex = 0;
    const parts: Node[] = [];
    let last = 0;
    for (const m of text.matchAll(re)) {
      const at = m.index ?? 0;
      if (at > last) parts.push(document.createTextNode(text.slice(last, at)));
      const mark = document.createElement('mark');
      mark.className = first ? 'pdf-hl hit' : 'pdf-hl';
      first = false;
      mark.textContent = m[0];
      parts.push(mark);
      last = at + m[0].length;
    }
    if (last < text.length) parts.push(document.createTextNode(text.slice(last)));
    span.replaceChildren(...parts);
  }
}

/** Text-layer spans holding text, in reading order. */
function textSpans(container: HTMLElement): HTMLSpanElement[] {
  return Array.from(container.querySelectorAll<HTMLSpanElement>('span')).filter((s) => s.children.length === 0 && (s.textContent ?? '').trim());
}

/** Height of the tinted block (first to last tinted span). */
function blockHeight(container: HTMLElement): number {
  const marked = Array.from(container.querySelectorAll<HTMLElement>('.pdf-block-hit'));
  if (!marked.length) return 0;
  return marked[marked.length - 1].getBoundingClientRect().bottom - marked[0].getBoundingClientRect().top;
}

/**
 * Tints the text-layer spans of the hit's block: from the span holding its first characters (the
 * page top when the block runs on from the page before) to the one holding its last characters
 * (the page end when it runs onto the next page). Returns the first tinted span, or null when the
 * page's text layer does not hold the block (a scanned page).
 */
function markBlock(container: HTMLElement, target: HitTarget, runOn: boolean, page: number): HTMLElement | null {
  const spans = textSpans(container);
  let text = '';
  const startOf: number[] = [];
  for (const s of spans) {
    startOf.push(text.length);
    text += squashText(s.textContent ?? '');
  }
  const lead = squashText(target.lead ?? '').slice(0, 12);
  const tail = squashText(target.tail ?? '');
  let from = runOn ? 0 : lead ? text.indexOf(lead) : -1;
  if (from < 0 && !runOn && target.label) from = text.indexOf(squashText(target.label));
  if (from < 0) return null;
  const tailAt = tail ? text.indexOf(tail, from) : -1;
  const to = tailAt >= 0 ? tailAt + tail.length : (target.end ?? page) > page ? text.length : from + Math.max(lead.length, 1);
  let first: HTMLElement | null = null;
  spans.forEach((s, i) => {
    const a = startOf[i];
    const b = i + 1 < startOf.length ? startOf[i + 1] : text.length;
    if (b > from && a < to) {
      s.classList.add('pdf-block-hit');
      first ??= s;
    }
  });
  return first;
}
