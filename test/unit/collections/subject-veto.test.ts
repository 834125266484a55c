import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { matterNouns } from '../../../src/core/collections/subject';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir, writeStatuteFile } from '../../helpers';

/**
 * A noun most statutes of the corpus use (社会: 2,748 of 3,445 in resources/collections/statute-words.tsv) says
 * nothing about what a collection is about, so a collection writing it often (a social-insurance statute)
 * does not keep a matter governed elsewhere (会员: statutes on chambers and associations) from being
 * not_found. Real SQLite file, jieba and the shipped lists.
 */
const INSURANCE = [
  '为了规范社会保险关系，维护公民参加社会保险和享受社会保险待遇的合法权益，制定本法。',
  '国家建立基本养老保险、基本医疗保险、工伤保险、失业保险、生育保险等社会保险制度。',
  '社会保险制度坚持广覆盖、保基本、多层次、可持续的方针，社会保险水平应当与经济社会发展水平相适应。',
  '用人单位应当自用工之日起三十日内为其职工向社会保险经办机构申请办理社会保险登记。',
  '社会保险基金专款专用，任何组织和个人不得侵占或者挪用。',
];

describe('a word most statutes use does not veto a matter governed elsewhere', () => {
  const ctx = tempContext();
  const dir = tempDir();
  const ask = (question: string) => invokeOperation(ctx, 'collections.ask', { collection: 'insurance', question });
  beforeAll(async () => {
    writeStatuteFile(dir, '社会保险示范法', INSURANCE);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'insurance' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('社会 is written often by the collection and by most statutes; 会员 is a matter outside it', () => {
    const nouns = matterNouns(ctx, requireCollection(ctx.db, 'insurance'), '社会团体登记需要多少会员')!;
    expect(nouns.find((n) => n.word === '社会')!.inside).toBeGreaterThanOrEqual(ctx.config.collections.elsewhereInsideVeto);
    const member = nouns.find((n) => n.word === '会员')!;
    expect(member.inside).toBe(0);
    expect(member.outside).toBeGreaterThanOrEqual(ctx.config.collections.elsewhereTopicRate);
  });

  it('answers not_found for the outside matter, and a veto by every noun (share 1) keeps the old answer', async () => {
    const a = await ask('社会团体登记需要多少会员');
    expect(a.decision).toBe('not_found');
    expect(a.retrieval?.reason).toContain('集合外法规');
    const cfg = ctx.config.collections;
    const was = cfg.elsewhereVetoMaxStatuteShare;
    cfg.elsewhereVetoMaxStatuteShare = 1;
    try {
      expect((await ask('社会团体登记需要多少会员')).retrieval?.reason ?? '').not.toContain('集合外法规');
    } finally {
      cfg.elsewhereVetoMaxStatuteShare = was;
    }
    // the collection's own matter still answers
    expect((await ask('用人单位多少天内要办社会保险登记')).decision).not.toBe('not_found');
  });
});
