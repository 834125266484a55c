import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { fitLockModel, lockProbability, LOCK_FEATURES, type LockFeatures } from '../../../src/core/collections/lock-model';
import { retrieveState } from '../../../src/core/collections/retrieve';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir } from '../../helpers';

/**
 * The calibrated lock decision (collections/lock-model.ts): a logistic fit that learns which
 * features tell a right lock, and the retrieval of a real statute collection (SQLite, jieba)
 * locking or asking back by its probability.
 */

const base = (f: Partial<LockFeatures>): LockFeatures => ({ ...(Object.fromEntries(LOCK_FEATURES.map((k) => [k, 0.5])) as LockFeatures), ...f });

describe('lock model fit', () => {
  it('learns that a clear margin over the next statute means a right lock', () => {
    const rows = Array.from({ length: 60 }, (_, i) => {
      const margin = (i % 10) / 10;
      // right when the margin is large, with some noise in the middle
      return { f: base({ margin, evidence: ((i * 7) % 10) / 10 }), right: margin > 0.45 || (margin > 0.35 && i % 3 === 0) };
    });
    const model = fitLockModel(rows);
    expect(model.weights.margin).toBeGreaterThan(0);
    expect(Math.abs(model.weights.evidence)).toBeLessThan(model.weights.margin);
    expect(lockProbability(model, base({ margin: 0.9 }))).toBeGreaterThan(0.8);
    expect(lockProbability(model, base({ margin: 0.05 }))).toBeLessThan(0.2);
  });
});

function statute(title: string, topic: string, n: number): string {
  const lines = [`# ${title}`, '', '## 第一章 总则', ''];
  const numbers = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二', '十三', '十四', '十五', '十六'];
  for (let i = 0; i < n; i++) lines.push(`第${numbers[i]}条 ${topic}第${i + 1}项规定：有关单位应当依法办理${topic}事项${i + 1}。`, '');
  return lines.join('\n');
}

describe('calibrated lock in a statute collection', () => {
  const ctx = tempContext();
  beforeAll(async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, '甲法.md'), statute('中华人民共和国矿产资源示范法', '矿产资源勘查', 16).replace('第三条 矿产资源勘查第3项规定：有关单位应当依法办理矿产资源勘查事项3。', '第三条 勘查矿产资源应当取得探矿权许可证，探矿权人应当按期缴纳探矿权使用费。'));
    fs.writeFileSync(path.join(dir, '乙法.md'), statute('中华人民共和国水资源示范法', '水资源取用', 16));
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'laws' });
  });
  afterAll(() => ctx.cleanup());

  it('locks when the probability reaches the threshold and asks back below it', async () => {
    const coll = requireCollection(ctx.db, 'laws');
    const question = '探矿权使用费要按期缴纳吗';
    ctx.config.collections.lockModel.threshold = 0;
    const sure = await retrieveState(ctx, coll, question);
    expect(sure.rule).toBe('focus');
    expect(sure.decision).toBe('locked');
    expect(sure.locked?.title).toBe('中华人民共和国矿产资源示范法');
    expect(sure.lockCheck?.applied).toBe(true);
    expect(sure.lockCheck!.p).toBeGreaterThan(0);
    expect(sure.lockCheck!.features.evidence).toBeGreaterThan(0.5);
    ctx.config.collections.lockModel.threshold = 1;
    const unsure = await retrieveState(ctx, coll, question);
    // the same ranking, asked back instead of locked: the best statute first
    expect(['ambiguous', 'low_evidence']).toContain(unsure.decision);
    expect(unsure.locked).toBeNull();
    if (unsure.decision === 'ambiguous') expect(unsure.candidates[0].title).toBe('中华人民共和国矿产资源示范法');
    ctx.config.collections.lockModel.enabled = false;
    const off = await retrieveState(ctx, coll, question);
    expect(off.lockCheck?.applied).toBe(false);
    expect(off.decision).toBe('locked');
  });
});
