import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';

const embedWorker = path.resolve(__dirname, 'src/core/embed/worker.ts');
const ocrPrepareWorker = path.resolve(__dirname, 'src/core/ocr/prepare-worker.ts');

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: {
          index: path.resolve(__dirname, 'src/main/index.ts'),
          // the embedder's worker is a separate entry so it can be started from the bundled main
          ...(fs.existsSync(embedWorker) ? { 'embed-worker': embedWorker } : {}),
          // started by the embedder's worker for OCR page preparation (src/core/ocr/prepare-thread.ts)
          ...(fs.existsSync(ocrPrepareWorker) ? { 'ocr-prepare-worker': ocrPrepareWorker } : {}),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: { input: { index: path.resolve(__dirname, 'src/preload/index.ts') }, output: { format: 'cjs' } },
    },
  },
  renderer: {
    root: path.resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: { rollupOptions: { input: path.resolve(__dirname, 'src/renderer/index.html') } },
  },
});
