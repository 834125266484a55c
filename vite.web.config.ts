import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

/** Builds the renderer for the browser shell (same code as the Electron renderer). */
export default defineConfig({
  root: path.resolve(__dirname, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: path.resolve(__dirname, 'out/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
  },
});
