import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * resources/ocr holds PP-OCRv4 detection and recognition with their element-wise tails folded into the
 * convolutions (scripts/fuse-ocr-models.py). They must read a real scanned page exactly as the package's
 * originals do: same boxes, same text, character probabilities equal to float rounding.
 */
const root = path.resolve(__dirname, '../../..');

describe('fused OCR models', { timeout: 120_000 }, () => {
  it('match their manifest (sha256, licence file) and read a scanned page exactly like the originals', () => {
    const dir = path.join(root, 'resources', 'ocr');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { role: string; path: string; sha256: string }[] };
    expect(manifest.files.map((f) => f.role).sort()).toEqual(['detection', 'recognition']);
    for (const f of manifest.files) expect(crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f.path))).digest('hex')).toBe(f.sha256);
    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toMatch(/Apache License[\s\S]*Version 2\.0/);

    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fused-run.ts'), path.join(root, 'test/fixtures/scans/regulation-page-150dpi.jpg')], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    }).toString('utf8');
    type Read = { boxes: { x0: number; y0: number; x1: number; y1: number }[]; lines: { text: string; charConfidence: number[] }[] };
    const { packaged, fused, files } = JSON.parse(out) as { packaged: Read; fused: Read; files: { detection: string; recognition: string } };
    // the fused files were the ones read, not a fallback to the package's
    expect(files.recognition).toContain(path.join('resources', 'ocr'));
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
  });
});
