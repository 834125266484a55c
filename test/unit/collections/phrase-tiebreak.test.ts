import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { docsOf, getDoc, requireCollection } from '../../../src/core/collections/store';
import { longestSharedStretch, phraseBonus, rankSections } from '../../../src/core/collections/sections';
import { questionCore } from '../../../src/core/collections/retrieve';
import { projectRoot } from '../../../src/core/common/paths';
import { POWER_STATUTES } from '../../../eval/collections-laws.eval';
import { hasShared, sharedPath, tempContext, tempDir } from '../../helpers';

/**
 * The article to quote: between articles the ranker scores about alike, the one writing a stretch of
 * the question verbatim (`电力安全事故`, four characters or more) is preferred (sections.ts
 * phraseBonus, config sectionPhraseBonus). Real SQLite, jieba and the collection import: a few
 * articles of 电力安全事故应急处置和调查处理条例 as written, and the six power statutes from ../shared
 * with the shipped embedding model (as eval/collections-laws.eval.ts imports them), where `什么样的事故算电力安全事故` quoted the article on
 * 事故等级 (第三十四条, 0.659) over the definition (第二条, 0.656) before.
 */

const LAW = [
  '# 示范电力安全事故处置条例',
  '',
  '## 第一章 总则',
  '',
  '第一条 本条例所称电力安全事故，是指电力生产或者电网运行过程中发生的影响电力系统安全稳定运行或者影响电力正常供应的事故(包括热电厂发生的影响热力正常供应的事故)。',
  '',
  '第二条 国务院电力监管机构应当加强电力安全监督管理，依法建立健全事故应急处置和调查处理的各项制度，组织或者参与事故的调查处理。',
  '',
  '第三条 电力企业、电力用户以及其他有关单位和个人，应当遵守电力安全管理规定，落实事故预防措施，防止和避免事故发生。',
  '',
  '第四条 事故发生后，电力企业和其他有关单位应当按照规定及时、准确报告事故情况，开展应急处置工作，防止事故扩大，减轻事故损害。电力企业应当尽快恢复电力生产、电网运行和电力(热力)正常供应。',
  '',
  '第五条 任何单位和个人不得阻挠和干涉对事故的报告、应急处置和依法调查处理。',
  '',
  '第六条 事故发生后，事故现场有关人员应当立即向发电厂、变电站运行值班人员、电力调度机构值班人员或者本企业现场负责人报告。有关人员接到报告后，应当立即向上一级电力调度机构和本企业负责人报告。本企业负责人接到报告后，应当立即向国务院电力监管机构设在当地的派出机构(以下称事故发生地电力监管机构)、县级以上人民政府安全生产监督管理部门报告；热电厂事故影响热力正常供应的，还应当向供热管理部门报告；事故涉及水电厂(站)大坝安全的，还应当同时向有管辖权的水行政主管部门或者流域管理机构报告。',
  '',
  '## 第六章 附则',
  '',
  '第七条 发生本条例规定的事故，同时造成人员伤亡或者直接经济损失，依照本条例确定的事故等级与依照《生产安全事故报告和调查处理条例》确定的事故等级不相同的，按事故等级较高者确定事故等级，依照本条例的规定调查处理；事故造成人员伤亡，构成《生产安全事故报告和调查处理条例》规定的重大事故或者特别重大事故的，依照《生产安全事故报告和调查处理条例》的规定调查处理。',
  '',
  '第八条 本条例对事故报告和调查处理未作规定的，适用《生产安全事故报告和调查处理条例》的规定。',
].join('\n');

describe('the article to quote: a stretch of the question written verbatim breaks a tie', () => {
  let ctx: ReturnType<typeof tempContext>;
  let dir: string;
  beforeAll(async () => {
    ctx = tempContext();
    dir = tempDir();
    fs.writeFileSync(path.join(dir, '示范电力安全事故处置条例.md'), LAW);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'power' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('measures the longest stretch of the question the text writes', () => {
    expect(longestSharedStretch('上网电价实行什么原则', '上网电价实行同网同质同价')).toBe(6);
    expect(longestSharedStretch('上网电价实行什么原则', '电力生产企业的上网电价')).toBe(4);
    expect(longestSharedStretch('上网电价实行什么原则', '')).toBe(0);
    // a word or two is the term evidence's business; the bonus starts at four characters, full at eight
    expect(phraseBonus('电价原则', '电价实行统一政策', 0.02)).toBe(0);
    expect(phraseBonus('上网电价实行什么原则', '上网电价实行同网同质同价', 0.02)).toBeCloseTo(0.015);
    expect(phraseBonus('上网电价实行什么原则', '上网电价实行什么原则', 0.02)).toBeCloseTo(0.02);
  });

  it('raises only the articles writing the stretch, by a tie-breaker\'s amount', async () => {
    const coll = requireCollection(ctx.db, 'power');
    const doc = getDoc(ctx.db, docsOf(ctx.db, coll.id)[0].id)!;
    const q = '什么样的事故算电力安全事故';
    const configured = ctx.config.collections.sectionPhraseBonus;
    let without: Awaited<ReturnType<typeof rankSections>>;
    try {
      ctx.config.collections.sectionPhraseBonus = 0;
      without = await rankSections(ctx, coll, doc, q);
    } finally {
      ctx.config.collections.sectionPhraseBonus = configured;
    }
    const withBonus = await rankSections(ctx, coll, doc, q);
    const before = new Map(without.map((r) => [r.section.label, r.score]));
    expect(configured).toBeGreaterThan(0);
    const gains = new Map(withBonus.map((r) => [r.section.label, r.score - before.get(r.section.label)!]));
    for (const r of withBonus) expect(gains.get(r.section.label)).toBeCloseTo(phraseBonus(questionCore(q, 'statutes'), r.section.text, configured), 6);
    // the definition writes 电力安全事故 (six characters: 6/8 of the bonus); 第六条 no stretch of four
    expect(gains.get('第一条')).toBeCloseTo((configured * 6) / 8, 6);
    expect(gains.get('第五条')).toBe(0);
  });
});

describe.skipIf(!hasShared('data', 'laws'))('the six power statutes (../shared)', () => {
  let ctx: ReturnType<typeof tempContext>;
  let dir: string;
  beforeAll(async () => {
    ctx = tempContext({ modelsDir: path.join(projectRoot(), 'models') });
    dir = tempDir();
    for (const rel of POWER_STATUTES) fs.copyFileSync(sharedPath('data', 'laws', rel), path.join(dir, path.basename(rel)));
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'power' });
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const ask = (question: string) => invokeOperation(ctx, 'collections.ask', { collection: 'power', question });

  it('什么样的事故算电力安全事故 quotes the definition, not the article on 事故等级 scored about alike', async () => {
    const configured = ctx.config.collections.sectionPhraseBonus;
    try {
      ctx.config.collections.sectionPhraseBonus = 0;
      const before = await ask('什么样的事故算电力安全事故');
      expect(before.lock.title).toBe('电力安全事故应急处置和调查处理条例');
      expect(before.citations[0].label).toBe('第三十四条');
    } finally {
      ctx.config.collections.sectionPhraseBonus = configured;
    }
    const a = await ask('什么样的事故算电力安全事故');
    expect(a.lock.title).toBe('电力安全事故应急处置和调查处理条例');
    expect(a.citations[0].label).toBe('第二条');
  });
});
