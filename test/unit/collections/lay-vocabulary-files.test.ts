import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { layExpansion, setLayVocabulary, withLayEquivalents } from '../../../src/core/collections/lay-terms';
import { checkLayVocabularyFile, LAY_VOCABULARY_DIR } from '../../../src/core/collections/lay-vocabulary-files';
import { requireCollection } from '../../../src/core/collections/store';
import { resourcesDir } from '../../../src/core/common/paths';
import { tempContext, tempDir, writeStatuteFile } from '../../helpers';

/**
 * The installer's everyday-word files (collections/lay-vocabulary-files.ts) on a real SQLite file
 * and jieba: the shipped power-grid starter file, a file the installer drops into the data dir, a
 * file limited to other collections, and broken files named in Chinese.
 */

function writeStatute(dir: string): void {
  const articles = [
    '任何单位或个人不得在杆塔、拉线基础的规定范围内取土。',
    '禁止窃电行为。窃电行为包括在供电企业的供电设施上擅自接线用电。',
    '任何单位或个人在架空电力线路保护区内，不得兴建建筑物、构筑物。',
    '供电企业应当按照国家核准的电价和用电计量装置的记录，向用户计收电费。',
    '电缆分支箱周围不得堆放杂物。',
  ];
  writeStatuteFile(dir, '电力示范条例', articles);
}

describe('lay vocabulary files: everyday words an installer writes per domain', () => {
  const ctx = tempContext();
  const userDir = path.join(ctx.dataDir, LAY_VOCABULARY_DIR);
  beforeAll(async () => {
    const dir = tempDir();
    writeStatute(dir);
    await invokeOperation(ctx, 'collections.import', { folder: dir, name: 'grid' });
    setLayVocabulary(ctx, {}); // only the files, nothing learned
  });
  afterAll(() => ctx.cleanup());

  it('the shipped power-grid file bridges field words to the statute words the collection holds', () => {
    const coll = requireCollection(ctx.db, 'grid');
    const lay = layExpansion(ctx, coll, '能不能在铁塔旁边取土');
    expect(lay.extra).toContain('杆塔');
    expect(lay.equivalents).toContainEqual([['铁塔'], ['杆塔']]);
    // a chunk saying 杆塔 holds the everyday word for evidence and for the subject check
    expect(withLayEquivalents(new Set(['杆塔', '取土']), lay.equivalents).has('铁塔')).toBe(true);
    expect(layExpansion(ctx, coll, '偷电要罚多少钱').extra).toContain('窃电');
    // 电表 → 用电计量装置 (held by the text, jieba splits it) and not 电能表 (the text never says it)
    const meter = layExpansion(ctx, coll, '电表的电费按什么算');
    expect(meter.equivalents.find(([w]) => w.includes('电表'))?.[1]).toEqual(expect.arrayContaining(['计量']));
    expect(meter.extra).not.toContain('电能表');
    // 电线杆 is matched as written, before its part 电线
    expect(layExpansion(ctx, coll, '电线杆旁边能挖沙子吗').equivalents.map(([w]) => w[0])).toContain('电线杆');
  });

  it('reads a file the installer drops into the data dir, and one limited to other collections does nothing', () => {
    const coll = requireCollection(ctx.db, 'grid');
    expect(layExpansion(ctx, coll, '电缆箱旁边能堆东西吗').equivalents).toEqual([]);
    fs.mkdirSync(userDir, { recursive: true });
    fs.writeFileSync(path.join(userDir, 'my-grid.json'), JSON.stringify({ domain: '本单位配电用语', words: { 电缆箱: ['电缆分支箱'] } }));
    fs.writeFileSync(path.join(userDir, 'other.json'), JSON.stringify({ domain: '别的文集', collections: ['recipes'], words: { 电费单: ['计收电费'] } }));
    try {
      // 电缆分支箱 is no token of its own: its pieces the question lacks are searched
      expect(layExpansion(ctx, coll, '电缆箱旁边能堆东西吗').equivalents).toContainEqual([['电缆箱'], ['分支', '箱']]);
      expect(layExpansion(ctx, coll, '电费单看不懂').extra).not.toContain('计收电费');
    } finally {
      fs.rmSync(userDir, { recursive: true, force: true });
    }
    // removed: read again on the next question
    expect(layExpansion(ctx, coll, '电缆箱旁边能堆东西吗').equivalents).toEqual([]);
  });

  it('a broken file is a Chinese error naming the file and the field, also through collections.ask', async () => {
    expect(() => checkLayVocabularyFile('a.json', { domain: '电网', words: { 铁塔: [] } })).toThrow('日常用词表 a.json 无效 — words.铁塔: 至少写一个文档用词');
    expect(() => checkLayVocabularyFile('b.json', { words: { 铁塔: ['杆塔'] } })).toThrow(/日常用词表 b\.json 无效 — domain/);
    expect(() => checkLayVocabularyFile('c.json', { domain: '电网', words: { 铁塔: ['杆塔'] }, word: {} })).toThrow(/多余的字段 word/);
    expect(() => checkLayVocabularyFile('d.json', { domain: '电网', words: { 偷电: ['窃电', '偷电'] } })).toThrow('words.偷电: 文档用词里不应再写日常用词「偷电」本身');
    expect(() => checkLayVocabularyFile('e.json', { domain: '电网', words: { 铁塔: ['杆塔，电杆'] } })).toThrow(/不能有空格或标点/);
    fs.mkdirSync(userDir, { recursive: true });
    fs.writeFileSync(path.join(userDir, 'bad.json'), '{ "domain": "电网", "words": { "铁塔": ["杆塔"], } }');
    try {
      await expect(invokeOperation(ctx, 'collections.ask', { collection: 'grid', question: '铁塔旁边能取土吗' })).rejects.toThrow(/日常用词表 bad\.json 不是有效的 JSON/);
    } finally {
      fs.rmSync(userDir, { recursive: true, force: true });
    }
    // fixed: answered again; 铁塔 is held through 杆塔, so the statute is no "not in the collection"
    const a = await invokeOperation(ctx, 'collections.ask', { collection: 'grid', question: '铁塔旁边能取土吗' });
    expect(a.decision).not.toBe('not_found');
  });

  it('every shipped vocabulary file passes its schema', () => {
    const dir = path.join(resourcesDir(), 'collections', LAY_VOCABULARY_DIR);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toContain('power-grid.json');
    for (const f of files) expect(() => checkLayVocabularyFile(f, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))).not.toThrow();
  });
});
