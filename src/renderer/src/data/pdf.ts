/**
 * pdf.js, loaded only when a PDF regulation is opened (keeps the first paint small).
 * One open document per regulation, fetched through regulations.source.
 */
import { api } from '../api/client';
import type { PDFDocumentProxy } from 'pdfjs-dist';

type PdfJs = typeof import('pdfjs-dist');
let lib: Promise<PdfJs> | null = null;

export function loadPdfJs(): Promise<PdfJs> {
  lib ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    return pdfjs;
  });
  return lib;
}

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const docs = new Map<string, Promise<PDFDocumentProxy>>();

export function openPdf(regId: string): Promise<PDFDocumentProxy> {
  let p = docs.get(regId);
  if (!p) {
    p = (async () => {
      const [pdfjs, src] = await Promise.all([loadPdfJs(), api('regulations.source', { reg_id: regId })]);
      // isEvalSupported: the CSP forbids eval; fonts are drawn without compiled glyph programs
      return pdfjs.getDocument({ data: decodeBase64(src.data_base64), isEvalSupported: false }).promise;
    })();
    docs.set(regId, p);
    p.catch(() => docs.delete(regId));
  }
  return p;
}

export function closePdf(regId: string): void {
  const p = docs.get(regId);
  docs.delete(regId);
  p?.then((d) => d.destroy()).catch(() => {});
}
