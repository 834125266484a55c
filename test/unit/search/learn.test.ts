import { describe, expect, it } from 'vitest';
import { QaMemory, TranslationModel, type TrainPair } from '../../../src/core/search/learn';

const idf = (t: string) => (['配偶', '债务', '履行', '抚养'].includes(t) ? 8 : t.length > 1 ? 5 : 1);

const pairs: TrainPair[] = [
  { question: '老公欠钱不还，我要承担吗？', passages: [{ id: 1, text: '夫妻一方以个人名义所负债务，配偶不承担清偿责任。' }] },
  { question: '老公在外面借的钱需要我还吗', passages: [{ id: 1, text: '夫妻一方以个人名义所负债务，配偶不承担清偿责任。' }] },
  { question: '老公不给孩子生活费怎么办', passages: [{ id: 2, text: '父母对未成年子女负有抚养义务，配偶一方不履行的，子女可以要求给付抚养费。' }] },
  { question: '房东不退押金', passages: [{ id: 3, text: '租赁期限届满，出租人应当返还押金。' }] },
];

describe('TranslationModel', () => {
  it('learns question word -> statute word associations seen in at least two pairs', () => {
    const tm = TranslationModel.learn(pairs, idf);
    const ex = tm.expand(['老公'], 5);
    expect(ex[0]).toBe('配偶');
    expect(ex).not.toContain('老公');
    // 押金 appears in one pair only: below minCo, no association
    expect(tm.expand(['房东'])).toEqual([]);
    expect(tm.expand(['没见过的词'])).toEqual([]);
    // the portable table expands the same way
    expect(TranslationModel.fromTable(tm.toTable()).expand(['老公'], 5)).toEqual(ex);
  });

  it('never proposes article numbers or numerals', () => {
    const numbered: TrainPair[] = [1, 2, 3].map((i) => ({
      question: `老公借钱第${i}次`,
      passages: [{ id: 9, text: '第一千零六十四条 夫妻双方共同签名的债务，属于夫妻共同债务。' }],
    }));
    const ex = TranslationModel.learn(numbered, idf).expand(['老公'], 20);
    expect(ex).toEqual(expect.arrayContaining(['债务', '夫妻']));
    for (const w of ex) expect(w).not.toMatch(/^第?[零〇一二三四五六七八九十百千万]+条?$/);
  });
});

describe('QaMemory', () => {
  it('points a new question at the passages of similar known questions', () => {
    const qa = new QaMemory(pairs, idf);
    const near = qa.nearest('我老公借钱不还，要我还吗', 3);
    expect(near[0].id).toBe(1);
    expect(qa.nearest('押金 房东', 3)[0].id).toBe(3);
    expect(qa.nearest('完全无关的话题', 3)).toEqual([]);
  });

  it('restored from weighed questions (as shipped) answers exactly like the one built from pairs', () => {
    const built = new QaMemory(pairs, idf);
    const stored = JSON.parse(JSON.stringify(pairs.map((p) => ({ tokens: QaMemory.weigh(p.question, idf), passages: p.passages.map((x) => x.id) }))));
    const restored = QaMemory.fromWeighed(stored, idf);
    for (const q of ['我老公借钱不还，要我还吗', '押金 房东', '完全无关的话题']) expect(restored.nearest(q, 3)).toEqual(built.nearest(q, 3));
  });
});
