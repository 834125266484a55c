/**
 * The recogniser's training faces (scripts/train/ocr-faces.ts): the guard refuses any font file inside node_modules,
 * reached through a link into it, or outside the system's font folders — and no training or validation face is one.
 * Stop 40 (PROTOCOL font split): the SEALED38/39 npm faces are tuning and train, as joined files in the training font
 * folder under their own names only; any other npm face (the sealer's SEALED40) stays refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEALED38_FAMILIES, SEALED39_FAMILIES, SEALED39_FONT_DIR, SEALED40_FAMILIES, SEALED40_FONT_DIR } from '../../fixtures/fonts';
import { HAN_TRAIN, HAN_VAL, LATIN_TRAIN, LATIN_VAL, TRAIN_FONT_DIR, sealedFace } from '../../../scripts/train/ocr-faces';

const WQY = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

describe('training faces guard', () => {
  it('refuses npm font paths and files outside the system font folders', () => {
    expect(sealedFace('/work/main/node_modules/@fontsource/noto-serif-sc/files/noto-serif-sc-chinese-simplified-400-normal.woff')).toBe(true);
    expect(sealedFace(path.join(process.cwd(), 'node_modules', 'pdfkit', 'js', 'data', 'Helvetica.afm'))).toBe(true);
    expect(sealedFace('/usr/share/fonts/truetype/x/Some.ttf', '@chinese-fonts/lxgwwenkai')).toBe(true);
    expect(sealedFace('/tmp/some-face.ttf')).toBe(true);
  });

  it('admits the SEALED38/39 faces (tuning since stop 40) only as joined files in the training font folder', () => {
    // their joined TrueType files, under their own names, train
    for (const key of ['xiaowei', 'harmony', 'harmonybold', 'zhuokai', 'zhensong', 'maoken']) expect(sealedFace(path.join(TRAIN_FONT_DIR, `${key}.ttf`)), key).toBe(false);
    // their family names are no longer refused on an installed face
    for (const family of [...SEALED38_FAMILIES, ...SEALED39_FAMILIES]) expect(sealedFace('/usr/share/fonts/truetype/x/Face.ttf', family), family).toBe(false);
    // any other file in that folder is no tuning face (a SEALED40 face joined there by mistake stays out)
    expect(sealedFace(path.join(TRAIN_FONT_DIR, 'another-npm-face.ttf'))).toBe(true);
    expect(sealedFace(path.join(TRAIN_FONT_DIR, 'sub', 'harmony.ttf'))).toBe(true);
    // the packages' own slices stay refused (node_modules), as does LibreOffice's private folder of the SEALED39 eval
    expect(sealedFace(path.join(process.cwd(), 'node_modules', '@chinese-fonts', 'mksjh', 'dist', 'MaokenAssortedSans1.30', 'a.woff2'))).toBe(true);
    expect(sealedFace(path.join(SEALED39_FONT_DIR, 'zhensong.ttf'))).toBe(true);
  });

  it('refuses the stop-40 sealed face (MiSans) by family, package name and its private folder, even as a system font', () => {
    for (const family of SEALED40_FAMILIES) expect(sealedFace('/usr/share/fonts/truetype/x/Face.ttf', family), family).toBe(true);
    expect(sealedFace('/usr/share/fonts/truetype/misans/MiSans-Regular.ttf')).toBe(true);
    expect(sealedFace('/usr/share/fonts/opentype/x/Face.otf', 'Mi Sans Light')).toBe(true);
    expect(sealedFace(path.join(SEALED40_FONT_DIR, 'regular.ttf'))).toBe(true);
    expect(sealedFace(path.join(SEALED40_FONT_DIR, 'fonts.conf'), 'DejaVu Sans')).toBe(true);
    // in the training font folder too, even under a tuning face's file name
    expect(sealedFace(path.join(TRAIN_FONT_DIR, 'misans.ttf'))).toBe(true);
    expect(sealedFace(path.join(TRAIN_FONT_DIR, 'harmony.ttf'), 'MiSans')).toBe(true);
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
