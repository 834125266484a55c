/**
 * OCR inside the process's one ONNX worker thread (src/core/embed/worker.ts hosts it: onnxruntime-node
 * cannot be used from two threads). Pages are decoded, levelled and scaled for the detector by the
 * page-preparation thread (prepare-thread.ts), one page ahead: while ONNX Runtime reads page n, page n + 1
 * is being prepared, so rendering never runs on the main thread and, on two cores, mostly not in the
 * models' way either.
 */
import { loadOcrModels } from './models';
import { openPreparer, type PagePreparer } from './prepare-thread';
import type { PreparedPage } from './prepare-page';
import { readLevelled } from './read-image';
import type { OcrLimits, OcrPageResult } from './types';

interface OpenDoc {
  prep: PagePreparer;
  limits: OcrLimits;
  /** a page read ahead: its number and the preparation in flight (null: not a scanner's page) */
  ahead: { page: number; prepared: Promise<PreparedPage | null> } | null;
}

const docs = new Map<number, OpenDoc>();

export async function openOcrDocument(id: number, data: Uint8Array, limits: OcrLimits): Promise<number> {
  const prep = await openPreparer(data, limits);
  docs.set(id, { prep, limits, ahead: null });
  // load the models with the document so the first page's time is the page's
  await loadOcrModels(limits.threads);
  return prep.numPages;
}

export async function readOcrPage(id: number, pageNum: number): Promise<OcrPageResult> {
  const open = docs.get(id);
  if (!open) throw new Error('document not open');
  const started = performance.now();
  const ahead = open.ahead?.page === pageNum ? await open.ahead.prepared.catch(() => null) : null;
  open.ahead = null;
  const prepared = ahead ?? (await open.prep.prepare(pageNum));
  if (!prepared) throw new Error('page not prepared');
  // the importer reads pages in order: start on the next one while the models read this one
  if (pageNum < open.prep.numPages) {
    const next = open.prep.prepare(pageNum + 1, true);
    next.catch(() => {});
    open.ahead = { page: pageNum + 1, prepared: next };
  }
  if ('done' in prepared) return prepared.done;
  const models = await loadOcrModels(open.limits.threads);
  const read = await readLevelled(models, prepared.levelled);
  const s = 1 / prepared.scale;
  return {
    ...prepared.page,
    skew: read.skew,
    dpi: prepared.scale * 72,
    lines: read.lines.map((l) => ({ text: l.text, confidence: l.confidence, min_confidence: l.min_confidence, x0: l.x0 * s, y0: l.y0 * s, x1: l.x1 * s, y1: l.y1 * s, ...(l.ink ? { ink: l.ink } : {}) })),
    rulings: read.rulings.map((r) => ({ x0: r.x0 * s, y0: r.y0 * s, x1: r.x1 * s, y1: r.y1 * s })),
    // this page's preparation (possibly while the last page was read) plus its reading here
    ms: prepared.ms + performance.now() - started,
  };
}

export async function closeOcrDocument(id: number): Promise<void> {
  const open = docs.get(id);
  docs.delete(id);
  if (!open) return;
  await open.ahead?.prepared.catch(() => null);
  await open.prep.close();
}
