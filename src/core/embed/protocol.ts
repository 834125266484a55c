import type { OcrLimits, OcrPageResult } from '../ocr/types';

/** Messages between embedders (main thread) and the process's one embedding worker. Plain data only. */
export interface ModelSpec {
  /** transformers.js localModelPath: the folder holding the model folder. */
  modelRoot: string;
  folder: string;
  dtype: string;
  pooling: 'mean' | 'cls';
  normalize: boolean;
  /** 'onnx' runs an embedding-bag model through onnxruntime too (tests compare both); default: computed directly */
  runtime?: 'onnx';
}

export type ToWorker =
  | { type: 'load'; key: string; spec: ModelSpec }
  // OCR shares this thread (onnxruntime-node is one per process): a PDF is opened once, read page by page
  | { type: 'ocr-open'; id: number; doc: number; data: Uint8Array; limits: OcrLimits }
  | { type: 'ocr-page'; id: number; doc: number; page: number }
  | { type: 'ocr-close'; id: number; doc: number }
  | { type: 'unload'; key: string }
  // every text of one call in one message: the worker runs them `batch` at a time (ONNX; an embedding bag all at once)
  | { type: 'embed'; id: number; key: string; texts: string[]; batch: number };

export type FromWorker =
  | { type: 'ocr-done'; id: number; value: OcrPageResult | number | null }
  | { type: 'ocr-error'; id: number; message: string }
  | { type: 'loaded'; key: string; loadMs: number }
  | { type: 'load-error'; key: string; message: string }
  | { type: 'result'; id: number; dims: number; data: Float32Array; /** time spent in the worker */ ms: number }
  | { type: 'error'; id: number; message: string };
