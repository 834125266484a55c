import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { subjectVerdict } from '../../../src/core/collections/subject';
import { requireCollection } from '../../../src/core/collections/store';
import { tempContext, tempDir, writeStatuteFile } from '../../helpers';

/**
 * A lock on a statute that writes none of the question's matter nouns (光纤, 入户: other statutes of the corpus
 * write them, resources/collections/statute-words.tsv) but only its frame (收费) is overruled: not_found. The
 * collection's own matter asked in its words stays locked, and so does a question whose unwritten noun is
 * an everyday word no statute uses (房东: the statutes call it by its kind). Real SQLite file, jieba and the
 * shipped lists; the lock itself is the retrieval's, given here as the stage's input.
 */
const SUPPLY = [
  '供电企业应当按照国家核准的电价和用电计量装置的记录，向用户计收电费。',
  '供电企业不得违反国家规定擅自提高电价或者增加收费项目，不得向用户乱收费。',
  '用户应当按照国家核准的电价和用电计量装置的记录，按时交纳电费；对供电企业查电人员依法履行职责，应当提供方便。',
  '供电企业在发电、供电系统正常的情况下，应当连续向用户供电，不得中断。因供电设施检修需要停止供电时，供电企业应当按照国家有关规定事先通知用户。',
  '任何单位和个人不得危害发电设施、变电设施和电力线路设施及其有关辅助设施。',
  '用户申请新装用电、临时用电、增加用电容量，应当到供电企业办理手续。',
];

describe('a lock on a statute that does not write the matter the question names', () => {
  const ctx = tempContext();
  const dir = tempDir();
  const verdict = (core: string) => {
    const coll = requireCollection(ctx.db, 'supply');
    const doc = ctx.db.prepare('SELECT id FROM coll_docs WHERE collection_id = ? LIMIT 1').get(coll.id) as { id: number };
    return subjectVerdict(ctx, coll, { recipes: false, core, state: 'locked', rule: 'focus', candidates: [String(doc.id)], lay: [], knownSupport: false });
  };
  beforeAll(async () => {
    writeStatuteFile(dir, '供电示范条例', SUPPLY);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'supply' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('光纤入户要收费: the statute writes 收费 but neither 光纤 nor 入户 — not in the collection', () => {
    const v = verdict('光纤入户要收费');
    expect(v).not.toBeNull();
    expect(v!.subject).toContain('光纤');
    expect(v!.reason).toContain('入户');
  });

  it('the collection’s own matter stays locked; one unwritten noun or an everyday word no statute uses is not enough', () => {
    expect(verdict('停电检修要提前通知用户')).toBeNull();
    expect(verdict('供电企业乱收电费找谁')).toBeNull();
    expect(verdict('房东多收电费')).toBeNull();
    // 房东 (no statute writes it) and 光纤: one unwritten statute word
    expect(verdict('房东拉的光纤要收费')).toBeNull();
  });

  it('with the rule off (unwrittenMinNouns 0) the lock stands', () => {
    ctx.config.collections.unwrittenMinNouns = 0;
    try {
      expect(verdict('光纤入户要收费')).toBeNull();
    } finally {
      ctx.config.collections.unwrittenMinNouns = 2;
    }
  });
});
