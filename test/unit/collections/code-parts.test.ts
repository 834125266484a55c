import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';

/**
 * A code in parts (民法典/合同编.md, 民法典/物权编.md: every file's title is the code's name) is one
 * statute to the asker, but when its parts' best articles score alike (within
 * collections.familyAmbiguityRatio) the focus rule's ratio rules ask which part is meant; the parts are
 * told apart by their files. Two different statutes scoring alike get the clarify as before. The
 * calibrated lock decision (collections/lock-model.ts) takes the focus rule's statute — the law when
 * a law and its own rules tie — and locks a tie inside one statute family (law and rules, parts of one
 * code) when p reaches the family threshold, and keeps asking between two statutes, naming both,
 * unless p reaches the rival threshold. Real SQLite, jieba and the collection pipeline.
 */

function part(title: string, partName: string, first: number, special: string): string {
  const lines = [`# ${title}`, '', `# ${partName}`, ''];
  const nums = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二', '十三', '十四'];
  for (const [i, n] of nums.entries()) {
    const text = i === 4 ? special : `${partName}第${first + i}项一般规定，当事人应当遵循诚信原则${i}。`;
    lines.push(`第${n}条 ${text}`, '');
  }
  return lines.join('\n');
}

async function askIn(dir: string, files: Record<string, string>, question: string, lockModel = true) {
  const ctx = tempContext();
  ctx.config.collections.lockModel.enabled = lockModel;
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'code' });
    return await invokeOperation(ctx, 'collections.ask', { collection: 'code', question });
  } finally {
    await ctx.cleanup();
  }
}

describe('parts of one code and a law with its rules: close scores ask back', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = tempDir();
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const question = '借用别人的自行车弄坏了要赔偿吗';
  const a = '借用他人自行车造成损坏的，借用人应当赔偿。';
  const b = '借用他人的自行车，造成损坏的，借用人应当照价赔偿。';

  let sameTitle: Awaited<ReturnType<typeof askIn>>;
  let otherTitles: Awaited<ReturnType<typeof askIn>>;
  let lawAndRules: Awaited<ReturnType<typeof askIn>>;
  let lawAndRulesCalibrated: Awaited<ReturnType<typeof askIn>>;
  let sameTitleCalibrated: Awaited<ReturnType<typeof askIn>>;
  let otherTitlesCalibrated: Awaited<ReturnType<typeof askIn>>;
  beforeAll(async () => {
    const lawFiles = { '示范法.md': part('中华人民共和国示范法', '总则', 1, a), '示范法实施条例.md': part('中华人民共和国示范法实施条例', '细则', 100, b) };
    const partFiles = { '示范法典-合同编.md': part('中华人民共和国示范法典', '合同编', 1, a), '示范法典-物权编.md': part('中华人民共和国示范法典', '物权编', 100, b) };
    const otherFiles = { '合同示范法.md': part('中华人民共和国合同示范法', '合同编', 1, a), '物权示范法.md': part('中华人民共和国物权示范法', '物权编', 100, b) };
    lawAndRules = await askIn(fresh(), lawFiles, question, false);
    sameTitle = await askIn(fresh(), partFiles, question, false);
    otherTitles = await askIn(fresh(), otherFiles, question, false);
    lawAndRulesCalibrated = await askIn(fresh(), lawFiles, question);
    sameTitleCalibrated = await askIn(fresh(), partFiles, question);
    otherTitlesCalibrated = await askIn(fresh(), otherFiles, question);
  });

  it('with the calibrated lock decision: a law tying with its own rules locks the law, two statutes are still asked with both names', () => {
    // a tie between the law and its own rules: the law is chosen and locked, quoting its article
    expect(lawAndRulesCalibrated.decision).toBe('locked');
    expect(lawAndRulesCalibrated.lock.title).toBe('中华人民共和国示范法');
    expect(lawAndRulesCalibrated.answer).toContain('借用他人自行车造成损坏的');
    // two parts of one code saying the same: locked when p reaches the family threshold, quoting the matching article
    expect(sameTitleCalibrated.decision).toBe('locked');
    expect(sameTitleCalibrated.answer).toMatch(/借用他人的?自行车/);
    // two statutes: asked back with both names
    expect(otherTitlesCalibrated.decision).toBe('ambiguous');
    expect(otherTitlesCalibrated.candidates.map((c) => c.title).sort()).toEqual(['中华人民共和国合同示范法', '中华人民共和国物权示范法']);
    expect(otherTitlesCalibrated.answer).toContain('中华人民共和国合同示范法');
    expect(otherTitlesCalibrated.answer).toContain('中华人民共和国物权示范法');
  });

  it('two statutes whose best articles score alike get a clarify listing both', () => {
    expect(otherTitles.decision).toBe('ambiguous');
    expect(otherTitles.candidates.map((c) => c.title).sort()).toEqual(['中华人民共和国合同示范法', '中华人民共和国物权示范法']);
  });

  it('a law and its implementing rules whose articles score alike: asked back, the law first', () => {
    expect(lawAndRules.decision).toBe('ambiguous');
    expect(lawAndRules.candidates.map((c) => c.title)).toEqual(['中华人民共和国示范法', '中华人民共和国示范法实施条例']);
  });

  it('two parts of one code whose articles score alike: asked back, the parts told apart by their files', () => {
    expect(sameTitle.decision).toBe('ambiguous');
    expect(sameTitle.candidates.map((c) => c.title)).toEqual(['中华人民共和国示范法典', '中华人民共和国示范法典']);
    expect(sameTitle.answer).toContain('示范法典-合同编.md');
    expect(sameTitle.answer).toContain('示范法典-物权编.md');
    // choosing one locks it and quotes the matching article
    expect(sameTitle.candidates.map((c) => c.rel_path).sort()).toEqual(['示范法典-合同编.md', '示范法典-物权编.md']);
  });
});
