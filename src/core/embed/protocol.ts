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
  | { type: 'unload'; key: string }
  | { type: 'embed'; id: number; key: string; texts: string[] };

export type FromWorker =
  | { type: 'loaded'; key: string; loadMs: number }
  | { type: 'load-error'; key: string; message: string }
  | { type: 'result'; id: number; dims: number; data: Float32Array; /** time spent in the worker */ ms: number }
  | { type: 'error'; id: number; message: string };
