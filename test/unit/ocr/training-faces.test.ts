/**
 * The recogniser's training faces (scripts/train/ocr-faces.ts): the PROTOCOL font split of stop 38 seals every face
 * that comes from npm (the sealed slice is printed in them), so the guard refuses any font file inside node_modules,
 * reached through a link into it, or outside the system's font folders — and no training or validation face is one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEALED38_FAMILIES, SEALED39_FAMILIES, SEALED39_FONT_DIR, SEALED40_FAMILIES, SEALED40_FONT_DIR } from '../../fixtures/fonts';
import { HAN_TRAIN, HAN_VAL, LATIN_TRAIN, LATIN_VAL, sealedFace } from '../../../scripts/train/ocr-faces';

const WQY = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

describe('training faces guard', () => {
  it('refuses npm font paths and files outside the system font folders', () => {
    expect(sealedFace('/work/main/node_modules/@fontsource/noto-serif-sc/files/noto-serif-sc-chinese-simplified-400-normal.woff')).toBe(true);
    expect(sealedFace(path.join(process.cwd(), 'node_modules', 'pdfkit', 'js', 'data', 'Helvetica.afm'))).toBe(true);
    expect(sealedFace('/usr/share/fonts/truetype/x/Some.ttf', '@chinese-fonts/lxgwwenkai')).toBe(true);
    expect(sealedFace('/tmp/some-face.ttf')).toBe(true);
    // the stop-38 sealed families by name, even as a system path
    for (const family of SEALED38_FAMILIES) expect(sealedFace('/usr/share/fonts/truetype/x/Face.ttf', family), family).toBe(true);
    expect(sealedFace('/usr/share/fonts/truetype/zcool/ZCOOLXiaoWei-Regular.ttf')).toBe(true);
  });

  it('refuses the stop-39 sealed faces by family, package name and their private folder', () => {
    for (const family of SEALED39_FAMILIES) expect(sealedFace('/usr/share/fonts/truetype/x/Face.ttf', family), family).toBe(true);
    expect(sealedFace('/usr/share/fonts/opentype/maoken/MaokenAssortedSans.ttf')).toBe(true);
    expect(sealedFace('/usr/share/fonts/truetype/sypxzs/Face.ttf')).toBe(true);
    expect(sealedFace(path.join(SEALED39_FONT_DIR, 'zhensong.ttf'))).toBe(true);
    // an installed face of another name is still allowed
    expect(sealedFace('/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', 'WenQuanYi Micro Hei')).toBe(false);
  });

  it('refuses the stop-40 sealed face (MiSans) by family, package name and its private folder, even as a system font', () => {
    for (const family of SEALED40_FAMILIES) expect(sealedFace('/usr/share/fonts/truetype/x/Face.ttf', family), family).toBe(true);
    expect(sealedFace('/usr/share/fonts/truetype/misans/MiSans-Regular.ttf')).toBe(true);
    expect(sealedFace('/usr/share/fonts/opentype/x/Face.otf', 'Mi Sans Light')).toBe(true);
    expect(sealedFace(path.join(SEALED40_FONT_DIR, 'regular.ttf'))).toBe(true);
    expect(sealedFace(path.join(SEALED40_FONT_DIR, 'fonts.conf'), 'DejaVu Sans')).toBe(true);
    // the fallback folder Calc also sees (DejaVu, a training face) stays allowed
    expect(sealedFace('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', 'DejaVu Sans')).toBe(false);
  });

  it.skipIf(!fs.existsSync(WQY))('refuses a system-looking path that links into node_modules, accepts an installed face', () => {
    expect(sealedFace(WQY, 'WenQuanYiMicroHei')).toBe(false);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faces-'));
    try {
      const target = path.join(process.cwd(), 'node_modules', 'pdfkit', 'package.json');
      const link = path.join(dir, 'face.ttf');
      fs.symlinkSync(target, link);
      expect(sealedFace(link)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists no sealed face for training or validation, and keeps validation faces out of training', () => {
    for (const f of [...HAN_TRAIN, ...LATIN_TRAIN, ...HAN_VAL, ...LATIN_VAL]) expect(sealedFace(f.file, f.family), f.file).toBe(false);
    const train = new Set([...HAN_TRAIN, ...LATIN_TRAIN].map((f) => `${f.file}#${f.family ?? ''}`));
    for (const f of [...HAN_VAL, ...LATIN_VAL]) expect(train.has(`${f.file}#${f.family ?? ''}`)).toBe(false);
  });
});
