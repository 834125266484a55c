// Dev/test entry of the OCR page-preparation thread (tsx, vitest, CLI from source): teach this thread
// TypeScript, then load prepare-worker.ts. Bundled builds use the compiled sibling ocr-prepare-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./prepare-worker.ts');
