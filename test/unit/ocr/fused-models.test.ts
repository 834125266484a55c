import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * resources/ocr holds PP-OCRv4 detection and recognition with their element-wise tails folded into the
 * convolutions (scripts/fuse-ocr-models.py) and the recogniser's last layers fine-tuned (`npm run train:ocr`,
 * resources/ocr/ch_PP-OCRv4_rec_head.npz). The folding must be exact: fused without the fine-tuned layers
 * (`--no-head`) the models read a real scanned page exactly as the package's originals do (same boxes, same
 * text, character probabilities equal to float rounding). The shipped pair finds the same boxes and reads the
 * page's statute text as the package does.
 */
const root = path.resolve(__dirname, '../../..');
const page = path.join(root, 'test/fixtures/scans/regulation-page-150dpi.jpg');

type Read = { boxes: { x0: number; y0: number; x1: number; y1: number }[]; lines: { text: string; charConfidence: number[] }[] };

function readBoth(dir?: string): { packaged: Read; fused: Read; files: { detection: string; recognition: string } } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fused-run.ts'), page, ...(dir ? [dir] : [])], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  }).toString('utf8');
  return JSON.parse(out);
}

function sameBoxes(a: Read, b: Read): void {
  expect(a.boxes.length).toBe(b.boxes.length);
  a.boxes.forEach((x, i) => {
    const p = b.boxes[i];
    expect(Math.max(Math.abs(x.x0 - p.x0), Math.abs(x.y0 - p.y0), Math.abs(x.x1 - p.x1), Math.abs(x.y1 - p.y1))).toBeLessThan(0.5);
  });
}

const hasOnnx = spawnSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' }).status === 0;

describe('fused OCR models', { timeout: 180_000 }, () => {
  it('match their manifest (sha256, fine-tuned layers, licence file); the shipped pair reads a scanned statute page as the package does', () => {
    const dir = path.join(root, 'resources', 'ocr');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { role: string; path: string; sha256: string; head?: { path: string; sha256: string } }[] };
    const hash = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f))).digest('hex');
    expect(manifest.files.map((f) => f.role).sort()).toEqual(['detection', 'recognition']);
    for (const f of manifest.files) expect(hash(f.path)).toBe(f.sha256);
    const head = manifest.files.find((f) => f.role === 'recognition')!.head!;
    expect(hash(head.path)).toBe(head.sha256);
    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toMatch(/Apache License[\s\S]*Version 2\.0/);

    const { packaged, fused, files } = readBoth();
    // the fused files were the ones read, not a fallback to the package's
    expect(files.recognition).toContain(path.join('resources', 'ocr'));
    expect(packaged.lines.length).toBeGreaterThan(10);
    expect(packaged.lines.map((l) => l.text).join('')).toMatch(/第[一二三四五六七八九十]+条/);
    sameBoxes(fused, packaged);
    expect(fused.lines.map((l) => l.text)).toEqual(packaged.lines.map((l) => l.text));
  });

  it.skipIf(!hasOnnx)('fold exactly: fused without the fine-tuned layers they read like the originals (needs python3-onnx)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-fuse-'));
    try {
      execFileSync('/usr/bin/python3', [path.join(root, 'scripts/fuse-ocr-models.py'), '--no-head', '--out', dir], { cwd: root, stdio: 'ignore' });
      const { packaged, fused, files } = readBoth(dir);
      expect(files.recognition).toContain(dir);
      sameBoxes(fused, packaged);
      expect(fused.lines.map((l) => l.text)).toEqual(packaged.lines.map((l) => l.text));
      let worst = 0;
      fused.lines.forEach((l, i) => l.charConfidence.forEach((c, j) => (worst = Math.max(worst, Math.abs(c - packaged.lines[i].charConfidence[j])))));
      expect(worst).toBeLessThan(1e-3);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
