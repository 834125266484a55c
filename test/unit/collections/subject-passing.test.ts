import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { knownInsideOutside, setKnownQuestions } from '../../../src/core/collections/known-answers';
import { matterNouns, subjectVerdict } from '../../../src/core/collections/subject';
import { requireCollection } from '../../../src/core/collections/store';
import path from 'node:path';
import { tempContext, tempDir } from '../../helpers';

/**
 * A matter a statute of the collection mentions only in passing (商标 once in a long criminal statute,
 * against a trademark rule of the corpus that is about it: resources/collections/statute-topics.tsv),
 * whose nearest known questions cite a statute named for it (商标示范法), is governed elsewhere: not_found,
 * not a lock on the criminal statute — while the criminal statute's own questions still lock.
 * Real SQLite file, jieba and the shipped lists.
 */
const CRIMES = [
  '以非法占有为目的，盗窃公私财物，数额较大的，或者多次盗窃、入户盗窃、携带凶器盗窃、扒窃的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；数额巨大或者有其他严重情节的，处三年以上十年以下有期徒刑，并处罚金。',
  '诈骗公私财物，数额较大的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；数额巨大或者有其他严重情节的，处三年以上十年以下有期徒刑，并处罚金；数额特别巨大或者有其他特别严重情节的，处十年以上有期徒刑或者无期徒刑，并处罚金或者没收财产。',
  '以暴力、胁迫或者其他方法抢劫公私财物的，处三年以上十年以下有期徒刑，并处罚金；入户抢劫的，在公共交通工具上抢劫的，抢劫银行或者其他金融机构的，多次抢劫或者抢劫数额巨大的，抢劫致人重伤、死亡的，处十年以上有期徒刑、无期徒刑或者死刑，并处罚金或者没收财产。',
  '故意伤害他人身体的，处三年以下有期徒刑、拘役或者管制。犯前款罪，致人重伤的，处三年以上十年以下有期徒刑；致人死亡或者以特别残忍手段致人重伤造成严重残疾的，处十年以上有期徒刑、无期徒刑或者死刑。',
  '在道路上驾驶机动车，追逐竞驶，情节恶劣的，醉酒驾驶机动车的，从事校车业务或者旅客运输，严重超过额定乘员载客，或者严重超过规定时速行驶的，处拘役，并处罚金。机动车所有人、管理人对前款行为负有直接责任的，依照前款的规定处罚。',
  '以非法占有为目的，诈骗公私财物，或者敲诈勒索公私财物，数额较大或者多次敲诈勒索的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；数额巨大或者有其他严重情节的，处三年以上十年以下有期徒刑，并处罚金。',
  '聚众斗殴的，对首要分子和其他积极参加的，处三年以下有期徒刑、拘役或者管制；多次聚众斗殴的，聚众斗殴人数多，规模大，社会影响恶劣的，在公共场所或者交通要道聚众斗殴，造成社会秩序严重混乱的，持械聚众斗殴的，处三年以上十年以下有期徒刑。',
  '未经注册商标所有人许可，在同一种商品上使用与其注册商标相同的标志，情节严重的，处三年以下有期徒刑，并处或者单处罚金。',
  '故意毁坏公私财物，数额较大或者有其他严重情节的，处三年以下有期徒刑、拘役或者罚金；数额巨大或者有其他特别严重情节的，处三年以上七年以下有期徒刑。以暴力、威胁方法阻碍国家机关工作人员依法执行职务的，处三年以下有期徒刑、拘役、管制或者罚金。',
  '犯罪以后自动投案，如实供述自己的罪行的，是自首。对于自首的犯罪分子，可以从轻或者减轻处罚。其中，犯罪较轻的，可以免除处罚。被采取强制措施的犯罪嫌疑人、被告人和正在服刑的罪犯，如实供述司法机关还未掌握的本人其他罪行的，以自首论。',
];

const INSIDE = [
  { question: '在商场偷了别人的手机会判几年', relevant: ['刑罚示范法第一条'] },
  { question: '网上骗了别人几万块钱要坐牢吗', relevant: ['刑罚示范法第二条'] },
  { question: '打架把人打成重伤会判刑吗', relevant: ['刑罚示范法第四条'] },
  { question: '喝醉了酒开车被抓要拘留吗', relevant: ['刑罚示范法第五条'] },
  { question: '犯了罪以后去派出所自首能轻判吗', relevant: ['刑罚示范法第九条'] },
];
const OUTSIDE = [
  { question: '我用了好几年的商标被别人抢先注册了怎么办', relevant: ['商标示范法第三十二条'] },
  { question: '商标注册申请被驳回了可以复审吗', relevant: ['商标示范法第三十四条'] },
  { question: '注册商标到期了怎么续展', relevant: ['商标示范法第四十条'] },
];

/** A long statute (the criminal code is: one mention among thousands of words is "in passing"): the crime articles four times over, the trademark one once. */
function writeLongStatute(dir: string, title: string): void {
  const others = CRIMES.filter((a) => !a.includes('商标'));
  const articles = [...others, ...others, ...others, ...others, CRIMES.find((a) => a.includes('商标'))!];
  const num = (n: number) => {
    const d = '零一二三四五六七八九';
    const t = Math.floor(n / 10);
    return `${t ? `${t > 1 ? d[t] : ''}十` : ''}${n % 10 ? d[n % 10] : ''}`;
  };
  const body = articles.flatMap((a, i) => [`第${num(i + 1)}条 ${a}`, '']);
  fs.writeFileSync(path.join(dir, `${title}.md`), [`# ${title}`, '', '## 第一章 总则', '', ...body].join('\n'));
}

describe('a matter the collection mentions only in passing, whose known questions cite a statute named for it; a lock the known questions place inside', () => {
  const ctx = tempContext();
  const dir = tempDir();
  const ask = (question: string) => invokeOperation(ctx, 'collections.ask', { collection: 'crimes', question });
  const q = '商标被别人抢注了怎么办';
  beforeAll(async () => {
    writeLongStatute(dir, '刑罚示范法');
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'crimes' });
    setKnownQuestions(ctx, [...INSIDE, ...OUTSIDE]);
    ctx.config.collections.elsewhereMinKnown = 2;
  });
  afterAll(async () => {
    await ctx.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('商标 is written once by the long criminal statute, far below a trademark rule of the corpus; the known questions lean to 商标示范法', () => {
    const coll = requireCollection(ctx.db, 'crimes');
    const cfg = ctx.config.collections;
    const mark = matterNouns(ctx, coll, '商标被别人抢注了')!.find((n) => n.word === '商标')!;
    expect(mark.inside).toBeGreaterThan(0);
    expect(mark.inside).toBeLessThanOrEqual(cfg.elsewhereMentionRatio * mark.outside);
    expect(mark.outside).toBeGreaterThanOrEqual(cfg.elsewhereTopicRate);
    const split = knownInsideOutside(ctx, coll, '商标被别人抢注了')!;
    expect(split.outsideStatute).toBe('商标示范法');
    expect(split.outside - split.inside).toBeGreaterThanOrEqual(cfg.elsewherePassingMargin);
    // the older rule alone (a margin of elsewhereMargin, or two nouns in passing) does not decide it
    expect(split.outside - split.inside).toBeLessThan(cfg.elsewhereMargin);
  });

  it('answers not_found naming 商标; with the rule off the old answer comes back; the statute\'s own matters still lock', async () => {
    const a = await ask(q);
    expect(a.decision).toBe('not_found');
    expect(a.lock.state).not.toBe('locked');
    expect(a.retrieval?.reason).toContain('顺带提到');
    expect(a.answer!.split('\n')[0]).toContain('商标');
    const cfg = ctx.config.collections;
    const was = cfg.elsewherePassingMargin;
    cfg.elsewherePassingMargin = 1;
    try {
      expect((await ask(q)).retrieval?.reason ?? '').not.toContain('顺带提到');
    } finally {
      cfg.elsewherePassingMargin = was;
    }
    expect((await ask('偷了同事的钱包会判几年')).decision).not.toBe('not_found');
  });

  it('a lock on words no statute writes stands when the nearest known questions are the collection\'s own: 偷了同事的钱包会判几年 keeps its lock although 钱包 is a word no statute is about', async () => {
    const coll = requireCollection(ctx.db, 'crimes');
    const q = '偷了同事的钱包会判几年';
    const split = knownInsideOutside(ctx, coll, q)!;
    expect(split.inside).toBeGreaterThan(split.outside);
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'crimes', question: q });
    expect(a.decision).toBe('locked');
    // the subject stage alone, on a lock no known question's article supports (as 承包的地被村里收回了 on the land statutes)
    const docId = String((ctx.db.prepare('SELECT id FROM coll_docs WHERE collection_id = ?').get(coll.id) as { id: number }).id);
    const verdict = (knownSupport: boolean) =>
      subjectVerdict(ctx, coll, { recipes: false, core: a.retrieval?.core ?? q, state: 'locked', rule: 'focus', candidates: [docId], lay: [], knownSupport });
    expect(verdict(false)).toBeNull();
    // with the known questions leaning outside the same lock is overruled (同事 / 钱包: nothing the statute writes)
    setKnownQuestions(ctx, OUTSIDE);
    try {
      expect(verdict(false)?.subject).toBeTruthy();
    } finally {
      setKnownQuestions(ctx, [...INSIDE, ...OUTSIDE]);
    }
  });
});
