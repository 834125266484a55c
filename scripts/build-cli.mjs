#!/usr/bin/env node
/**
 * Compiles the CLI (and the MCP server it starts with `gridcode mcp`) to plain JS with esbuild, so
 * `gridcode` starts without tsx: out/cli/gridcode.mjs, plus out/cli/embed-worker.js for the embedding
 * worker thread (src/core/embed/worker-client.ts finds it beside the bundle) and out/cli/ocr-prepare-worker.js
 * for the OCR page-preparation thread it starts (src/core/ocr/prepare-thread.ts). npm packages stay
 * external (native addons: better-sqlite3, onnxruntime-node, @node-rs/jieba; pdfjs and its worker)
 * and resolve from node_modules as before. Runs at `npm install` (prepare) and in `npm run build`.
 * out/cli/inputs.json lists the sources; bin/gridcode.mjs falls back to tsx when one is newer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'out', 'cli');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // production installs without dev tools: bin/gridcode.mjs runs the sources through tsx
  console.warn('build-cli: esbuild 不可用，跳过编译（gridcode 将通过 tsx 运行源码）');
  process.exit(0);
}

const started = Date.now();
fs.rmSync(outDir, { recursive: true, force: true });
// Native addons, packages that locate files next to themselves (pdfjs worker + cmaps, transformers'
// onnx backend, jieba's dictionaries) and lazily loaded heavy ones stay in node_modules; the rest
// (zod, commander, yaml, …) is bundled: loading one file is what makes the cold start fast.
const external = [
  'better-sqlite3',
  'onnxruntime-node',
  'onnxruntime-common',
  '@huggingface/transformers',
  'sharp',
  '@node-rs/jieba',
  '@node-rs/jieba/*',
  'pdfjs-dist',
  'pdfjs-dist/*',
  'mammoth',
  'tsx',
  'tsx/*',
  'electron',
];
/** zod bundles ~40 locales behind `z.locales`; the app only uses zh-CN (src/core/common/operation.ts). */
const zodLocales = {
  name: 'zod-locales-zh-cn-only',
  setup(build) {
    build.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: path.join(path.dirname(args.importer), args.path), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as zhCN } from ${JSON.stringify(path.join(path.dirname(args.path), 'zh-CN.js'))};\nexport { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};\n`,
      resolveDir: path.dirname(args.path),
    }));
  },
};
const common = {
  plugins: [zodLocales],
  bundle: true,
  external,
  // bundled CommonJS packages call require(); give the ESM bundle one
  banner: { js: "import { createRequire as __gridcodeCreateRequire } from 'node:module'; const require = __gridcodeCreateRequire(import.meta.url);" },
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  minify: true,
  metafile: true,
  logLevel: 'warning',
  absWorkingDir: root,
};
const cli = await esbuild.build({ ...common, entryPoints: { gridcode: 'src/cli/entry.ts' }, outdir: outDir, outExtension: { '.js': '.mjs' }, splitting: true, chunkNames: '[name]-[hash]' });
// the OCR page-preparation thread is started by the embedding worker and found beside it
const worker = await esbuild.build({ ...common, entryPoints: { 'embed-worker': 'src/core/embed/worker.ts', 'ocr-prepare-worker': 'src/core/ocr/prepare-worker.ts' }, outdir: outDir });

const inputs = [...new Set([...Object.keys(cli.metafile.inputs), ...Object.keys(worker.metafile.inputs)])].filter((f) => !f.includes('node_modules')).sort();
// bundled packages are baked in: a changed lock file also means rebuild
inputs.push('package-lock.json');
fs.writeFileSync(path.join(outDir, 'inputs.json'), JSON.stringify({ built_at: Date.now(), inputs }, null, 1));
console.log(`build-cli: out/cli/gridcode.mjs + embed-worker.js + ocr-prepare-worker.js（${inputs.length} 个源文件，${Date.now() - started} ms）`);
