import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * resources/ocr holds PP-OCRv4 detection and recognition with their element-wise tails folded into the
 * convolutions (scripts/fuse-ocr-models.py; the recogniser with a fine-tuned head when the manifest names one).
 * The script rebuilds them byte for byte, and folding alone (the package's head) reads a real scanned page exactly
 * as the package's originals do: same boxes, same text, character probabilities equal to float rounding.
 */
const root = path.resolve(__dirname, '../../..');
const hasOnnx = spawnSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' }).status === 0;

describe('fused OCR models', { timeout: 180_000 }, () => {
  it('match their manifest (sha256 of each file and of the head, licence file)', () => {
    const dir = path.join(root, 'resources', 'ocr');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { role: string; path: string; sha256: string; head?: { path: string; sha256: string } }[] };
    expect(manifest.files.map((f) => f.role).sort()).toEqual(['detection', 'recognition']);
    const hash = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
    for (const f of manifest.files) expect(hash(path.join(dir, f.path))).toBe(f.sha256);
    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toMatch(/Apache License[\s\S]*Version 2\.0/);
    const head = manifest.files.find((f) => f.role === 'recognition')?.head;
    if (head) expect(hash(path.join(dir, head.path))).toBe(head.sha256);
  });

  it.skipIf(!hasOnnx)('are rebuilt byte for byte by the fuse script, and folding alone changes no reading (needs python3-onnx)', () => {
    const dir = path.join(root, 'resources', 'ocr');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { role: string; path: string; sha256: string; head?: { path: string; sha256: string } }[] };
    const hash = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-fused-'));
    try {
      // the shipped files are what the fuse script makes of the package's models (and the shipped head, if any)
      const head = manifest.files.find((f) => f.role === 'recognition')?.head;
      const rebuilt = path.join(tmp, 'rebuilt');
      execFileSync('/usr/bin/python3', [path.join(root, 'scripts/fuse-ocr-models.py'), '--out', rebuilt, ...(head ? ['--head', path.join(dir, head.path)] : ['--no-head'])], { cwd: root, stdio: 'ignore' });
      for (const f of manifest.files) expect(hash(path.join(rebuilt, f.path))).toBe(f.sha256);

      // folding alone (the package's head) reads a real scanned page exactly as the package's models
      const folded = path.join(tmp, 'folded');
      execFileSync('/usr/bin/python3', [path.join(root, 'scripts/fuse-ocr-models.py'), '--out', folded, '--no-head'], { cwd: root, stdio: 'ignore' });
      const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fused-run.ts'), path.join(root, 'test/fixtures/scans/regulation-page-150dpi.jpg'), folded], {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      }).toString('utf8');
      type Read = { boxes: { x0: number; y0: number; x1: number; y1: number }[]; lines: { text: string; charConfidence: number[] }[] };
      const { packaged, fused, files } = JSON.parse(out) as { packaged: Read; fused: Read; files: { detection: string; recognition: string } };
      // the folded files were the ones read, not a fallback to the package's
      expect(files.recognition).toContain(folded);
      expect(packaged.lines.length).toBeGreaterThan(10);
      expect(packaged.lines.map((l) => l.text).join('')).toMatch(/第[一二三四五六七八九十]+条/);
      expect(fused.boxes.length).toBe(packaged.boxes.length);
      fused.boxes.forEach((b, i) => {
        const p = packaged.boxes[i];
        expect(Math.max(Math.abs(b.x0 - p.x0), Math.abs(b.y0 - p.y0), Math.abs(b.x1 - p.x1), Math.abs(b.y1 - p.y1))).toBeLessThan(0.5);
      });
      expect(fused.lines.map((l) => l.text)).toEqual(packaged.lines.map((l) => l.text));
      let worst = 0;
      fused.lines.forEach((l, i) => l.charConfidence.forEach((c, j) => (worst = Math.max(worst, Math.abs(c - packaged.lines[i].charConfidence[j])))));
      expect(worst).toBeLessThan(1e-3);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
