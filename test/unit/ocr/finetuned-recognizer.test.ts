import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The shipped recogniser's last layers are fine-tuned on generated table cells and statute lines
 * (`npm run train:ocr`, docs/ocr.md "Fine-tuned recogniser"). A table printed in a test font (AR PL UKai CN, one
 * of the training faces; CI has no other), scanned at 150 dpi with skew, speckle, blur and JPEG, its cells found
 * by the app's detector and cell boxes: the shipped recogniser reads exactly the cells the package's misreads
 * (≥ as >, × as x, ℃ as °C, a Roman numeral dropped), and keeps those the package reads right.
 */
const root = path.resolve(__dirname, '../../..');

// cells the package's recogniser misreads on this scan (checked below), and cells it reads right
const MISREAD = ['≥35kV', 'Ⅲ类', '4×185', '25℃'];
const READ = ['砂土', '一般缺陷', '0.38kV', '±5%', 'Ⅱ段母线'];

describe('fine-tuned OCR recogniser', { timeout: 120_000 }, () => {
  it('reads scanned table cells the package recogniser misread, and keeps those it read', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'finetuned-run.ts'), 'kai', JSON.stringify([...MISREAD, ...READ])], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    }).toString('utf8');
    const { files, boxes, old, now } = JSON.parse(out) as { files: { recognition: string }; boxes: number; old: string[]; now: string[] };
    expect(files.recognition).toContain(path.join('resources', 'ocr'));
    // every cell found as one box
    expect(boxes).toBe(MISREAD.length + READ.length);
    for (const t of MISREAD) expect(old).not.toContain(t);
    for (const t of READ) expect(old).toContain(t);
    expect([...now].sort()).toEqual([...MISREAD, ...READ].sort());
  });
});
