import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../../src/core/regulations/structure';
import { compareUnits } from '../../../src/core/editions/compare';
import { wordDiff } from '../../../src/core/editions/words';
import { dateFromFileName, dateFromText, docNumberKey, docNumberOf, titleKey } from '../../../src/core/editions/identity';
import type { StoredUnit } from '../../../src/core/editions/types';
import { toChineseNumber } from '../../../src/core/text/chinese-numbers';
import { generateEditions } from '../../fixtures/edition-pair';

/** The units the importer stores for a Markdown text (the real structure parser). */
function units(text: string): StoredUnit[] {
  return parseFlowText(text, { format: 'markdown', markdown: true, pageChars: 1800, maxPageChars: 7200, fallbackTitle: 't' }).units.map((u, ord) => ({
    ord,
    kind: u.kind,
    label: u.label,
    section_path: u.section_path,
    text: u.text,
  }));
}

describe('article alignment', () => {
  it('recovers a revision with an insertion that renumbers everything after it', () => {
    const g = generateEditions(120, 7);
    const cmp = compareUnits(units(g.oldText), units(g.newText));
    const label = (n: number) => `第${toChineseNumber(n)}条`;
    // every article of both editions is in exactly one pair
    expect(cmp.pairs.filter((p) => p.old).length).toBe(120);
    expect(cmp.pairs.filter((p) => p.new).length).toBe(g.truth.size + g.added.size);
    for (const [from, to] of g.truth) {
      const pair = cmp.pairs.find((p) => p.old?.article === label(from))!;
      expect(pair.new?.article, `old ${label(from)}`).toBe(label(to));
      expect(pair.change).toBe(g.edited.has(from) ? 'modified' : from === to ? 'same' : 'moved');
    }
    for (const d of g.deleted) expect(cmp.pairs.find((p) => p.old?.article === label(d))!.change).toBe('deleted');
    for (const a of g.added) expect(cmp.pairs.find((p) => p.new?.article === label(a))!.change).toBe('added');
    expect(cmp.summary.moved).toBeGreaterThan(50);
    // per chapter, in the words the issue asks for
    expect(cmp.chapters.some((c) => /^第.+章 .+：(新增|修改|删除|移动) \d+ 条/.test(c.text))).toBe(true);
  });

  it('a regulation against itself is all same; two unrelated ones pair nothing but alike boilerplate', () => {
    const g = generateEditions(60, 3);
    const self = compareUnits(units(g.oldText), units(g.oldText));
    expect(self.summary).toEqual({ same: 60, moved: 0, modified: 0, added: 0, deleted: 0 });
    const other = [
      '# 城市绿化条例',
      '## 第一章 总则',
      '第一条 为了促进城市绿化事业的发展，改善生态环境，美化生活环境，制定本条例。',
      '第二条 本条例适用于在城市规划区内种植和养护树木花草等城市绿化的规划、建设、保护和管理。',
      '第三条 城市人民政府应当把城市绿化建设纳入国民经济和社会发展计划。',
      '第四条 国家鼓励和加强城市绿化的科学研究，推广先进技术，提高城市绿化的科学技术和艺术水平。',
      '第五条 任何单位和个人都有保护城市绿地、树木花草和绿化设施的义务。',
    ].join('\n\n');
    const cmp = compareUnits(units(g.oldText), units(other));
    expect(cmp.summary.deleted).toBe(60);
    expect(cmp.summary.added).toBe(5);
    expect(cmp.pairs.every((p) => !(p.old && p.new))).toBe(true);
  });

  it('tells a split article and a merge, and keeps each article in one pair', () => {
    const oldText = [
      '## 第一章 总则',
      '第一条 为了规范电网调度管理，保障电网安全稳定运行，制定本规程。',
      '第二条 调度机构负责编制年度运行方式，组织开展稳定计算分析；调度机构负责审核继电保护定值单并下达执行，发现定值错误应当立即通知运维单位更正。',
      '第三条 运行值班人员应当严格执行调度指令。',
      '第四条 值班人员不得擅自离开岗位。',
      '第五条 本规程自发布之日起施行。',
    ].join('\n\n');
    const newText = [
      '## 第一章 总则',
      '第一条 为了规范电网调度管理，保障电网安全稳定运行，制定本规程。',
      '第二条 调度机构负责编制年度运行方式，组织开展稳定计算分析。',
      '第三条 调度机构负责审核继电保护定值单并下达执行，发现定值错误应当立即通知运维单位更正。',
      '第四条 运行值班人员应当严格执行调度指令，值班人员不得擅自离开岗位。',
      '第五条 本规程自发布之日起施行。',
    ].join('\n\n');
    const cmp = compareUnits(units(oldText), units(newText));
    const byOld = (l: string) => cmp.pairs.filter((p) => p.old?.article === l);
    const byNew = (l: string) => cmp.pairs.filter((p) => p.new?.article === l);
    for (const l of ['第一条', '第二条', '第三条', '第四条', '第五条']) {
      expect(byOld(l)).toHaveLength(1);
      expect(byNew(l)).toHaveLength(1);
    }
    // old 第二条 went into new 第二条 and 第三条: paired with one part, the other part added as split from it
    const parent = byOld('第二条')[0];
    expect(parent).toMatchObject({ change: 'modified', relation: 'split' });
    const part = parent.related![0];
    expect(['第二条', '第三条']).toContain(part);
    expect(parent.new!.article).not.toBe(part);
    expect(byNew(part)[0]).toMatchObject({ change: 'added', relation: 'split', related: ['第二条'] });
    expect(byNew('第四条')[0]).toMatchObject({ change: 'modified', relation: 'merged' });
    const merged = byOld('第四条')[0];
    expect(merged).toMatchObject({ change: 'deleted', relation: 'merged', related: ['第四条'] });
  });

  it('editions known to be one regulation pair a text rewritten from end to end in order; unknown, it is judged unrelated', () => {
    // every article rewritten: its matter kept (the nouns), its wording new — no clearly similar pair
    const topics = ['调度值班人员交接班', '继电保护定值管理', '倒闸操作票填写', '设备缺陷处理流程', '事故应急预案演练', '新能源并网技术条件', '负荷预测与发电计划', '检修计划申报审批'];
    const oldText = ['# 调度规程', ...topics.map((t, k) => `第${toChineseNumber(k + 1)}条 ${t}应当执行本规程的规定，由调度机构负责监督检查，具体办法另行制定。`)].join('\n\n');
    const newText = ['# 调度规程', ...topics.map((t, k) => `第${toChineseNumber(k + 1)}条 各单位开展${t}工作，须遵守国家和行业标准并建立台账，每年向电网企业书面报告执行情况。`)].join('\n\n');
    const judged = compareUnits(units(oldText), units(newText), { words: false });
    expect(judged.pairs.filter((p) => p.old && p.new).length).toBeLessThan(topics.length / 2);
    const known = compareUnits(units(oldText), units(newText), { words: false, editions: true });
    for (let k = 1; k <= topics.length; k++) {
      const label = `第${toChineseNumber(k)}条`;
      expect(known.pairs.find((p) => p.old?.article === label), label).toMatchObject({ change: 'modified', new: { article: label } });
    }
    // known apart: never more than the texts themselves say
    const apart = compareUnits(units(oldText), units(newText), { words: false, editions: false });
    expect(apart.pairs.filter((p) => p.old && p.new).length).toBeLessThanOrEqual(judged.pairs.filter((p) => p.old && p.new).length);
  });

  it('a split whose part was rewritten: the part sits next to the source\'s counterpart and takes text it lacks', () => {
    const oldText = [
      '# 应急规程',
      '第一条 为了规范电网突发事件应对工作，制定本规程。',
      '第二条 电网企业建立健全应急物资储备保障制度，完善应急物资的采购、储备和调拨体系。地市供电公司应当建立抢修物资、发电车和应急照明装备的储备制度，并与有关企业签订供货协议，保障抢修物资的供给。',
      '第三条 本规程自发布之日起施行。',
    ].join('\n\n');
    const newText = [
      '# 应急规程',
      '第一条 为了规范电网突发事件应对工作，制定本规程。',
      '第二条 电网企业按照集中管理、统一调拨、平时服务、灾时应急的原则，建立健全应急物资储备保障制度，动态更新储备品种目录，优化仓储布局。',
      '第三条 地市供电公司应当建立抢修物资、发电车和应急照明装备的储备制度，并与有关企业签订供货协议，保障抢修物资的供给和及时配送。',
      '第四条 本规程自发布之日起施行。',
    ].join('\n\n');
    const cmp = compareUnits(units(oldText), units(newText), { words: false, editions: true });
    expect(cmp.pairs.find((p) => p.old?.article === '第二条')).toMatchObject({ change: 'modified', new: { article: '第三条' }, relation: 'split', related: ['第二条'] });
    expect(cmp.pairs.find((p) => p.new?.article === '第二条')).toMatchObject({ change: 'added', relation: 'split', related: ['第二条'] });
  });

  it('aligns paragraphs when a document has no articles', () => {
    const oldText = '# 操作须知\n\n## 一般要求\n\n倒闸操作前应当核对设备名称和编号。\n\n操作中发生疑问时应当立即停止操作。\n\n## 记录\n\n操作完毕后应当记录操作时间。';
    const newText = '# 操作须知\n\n## 一般要求\n\n倒闸操作前应当核对设备名称、编号和位置。\n\n操作中发生疑问时应当立即停止操作。\n\n严禁约时停送电。\n\n## 记录\n\n操作完毕后应当记录操作时间。';
    const cmp = compareUnits(units(oldText), units(newText));
    expect(cmp.level).not.toBe('article');
    expect(cmp.summary).toMatchObject({ modified: 1, added: 1, deleted: 0 });
    expect(cmp.pairs.find((p) => p.change === 'added')!.new!.text).toContain('严禁约时停送电');
    // a standard numbered by clause (4.1, 4.2): clauses are aligned, a renumbered one found where it moved
    const stdOld = '# 变电运维规范\n\n## 4 巡视\n\n4.1 运维人员应当每日巡视主变压器一次。\n\n4.2 雷雨天气后应当对避雷器进行特殊巡视。\n\n## 5 操作\n\n5.1 倒闸操作应当由两人进行，一人操作一人监护。';
    const stdNew = '# 变电运维规范\n\n## 4 巡视\n\n4.1 运维人员应当每日巡视主变压器两次。\n\n4.2 大风天气后应当检查设备区有无飘挂物。\n\n4.3 雷雨天气后应当对避雷器进行特殊巡视。\n\n## 5 操作\n\n5.1 倒闸操作应当由两人进行，一人操作一人监护。';
    const std = compareUnits(units(stdOld), units(stdNew));
    expect(std.level).toBe('clause');
    expect(std.pairs.map((p) => [p.change, p.old?.article ?? null, p.new?.article ?? null])).toEqual([
      ['modified', '4.1', '4.1'],
      ['added', null, '4.2'],
      ['moved', '4.2', '4.3'],
      ['same', '5.1', '5.1'],
    ]);
  });

  it('word-level diff marks what changed and keeps the rest', () => {
    const runs = wordDiff('第五条 期限的第一日不计算在期限内。', '第五条 期限开始的当日不计算在期限内。');
    expect(runs.filter((r) => r.op === '-').map((r) => r.text).join('')).toContain('第一日');
    expect(runs.filter((r) => r.op === '+').map((r) => r.text).join('')).toContain('当日');
    expect(runs.filter((r) => r.op !== '+').map((r) => r.text).join('')).toBe('第五条 期限的第一日不计算在期限内。');
    expect(runs.filter((r) => r.op !== '-').map((r) => r.text).join('')).toBe('第五条 期限开始的当日不计算在期限内。');
  });
});

describe('edition identity', () => {
  it('reads dates from file names and texts, document numbers and title keys', () => {
    expect(dateFromFileName('专利法实施细则(2023-12-11).md')).toBe('2023-12-11');
    expect(dateFromFileName('安规.pdf')).toBeNull();
    expect(dateFromText('中华人民共和国电力法\n1995年12月28日通过\n2018年12月29日第三次修正\n第一条 …')).toBe('2018-12-29');
    expect(dateFromText('第九十条 本规程自二〇二四年一月一日起施行。')).toBe('2024-01-01');
    expect(docNumberOf('GB 26860-2011 电力安全工作规程', '')).toBe('GB 26860-2011');
    expect(docNumberKey(docNumberOf('电力安全工作规程', 'GB 26860—2024\n…'))).toBe('GB 26860');
    expect(titleKey('中华人民共和国专利法实施细则（2023年修订）')).toBe(titleKey('专利法实施细则'));
    expect(titleKey('电网调度规程（试行）')).not.toBe(titleKey('电网调度规程'));
  });
});
