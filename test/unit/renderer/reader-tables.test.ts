import { describe, expect, it } from 'vitest';
import { placeTables, splitBlocks, type PageTableData } from '../../../src/renderer/src/components/PageText';
import { tableToMarkdown, tableToTsv } from '../../../src/renderer/src/components/table-copy';

const table = (over: Partial<PageTableData> = {}): PageTableData => ({
  table_id: '表C.2',
  title: '天中直流输送功率限额',
  columns: ['运行方式', '季节', '最大功率(MW)'],
  rows: [
    { cells: ['双极全压', '夏季', '7700'], page_num: 21 },
    { cells: ['单极金属回线', '冬季', '4000'], page_num: 21 },
  ],
  page_start: 20,
  page_end: 22,
  row_count: 30,
  section_path: '附录C',
  continued: true,
  continues: true,
  notes: [{ label: '注1', text: '注1：安控系统切机功能退出时按第八条执行。', page_num: 21, target_type: 'table', target: '表C.2', section_path: '附录C' }],
  ...over,
});

describe('reader tables', () => {
  it('a Markdown continuation page: rows, caption, delimiter and the table note become one table block where they were', () => {
    const text = ['第八条 限额见表C.2。', '### 表C.2 天中直流输送功率限额（续）', '| 双极全压 | 夏季 | 7700 |', '| 单极金属回线 | 冬季 | 4000 |', '', '注1：安控系统切机功能退出时按第八条执行。', '第九条 其他。'].join('\n');
    const blocks = splitBlocks(placeTables(text, [table()]), true);
    expect(blocks.map((b) => [b.kind, b.label])).toEqual([
      ['article', '第八条'],
      ['table', '0'],
      ['article', '第九条'],
    ]);
  });

  it('PDF text (cells joined by spaces, a repeated header) is matched squashed; a table with no row on the page stays as printed', () => {
    const text = ['运行方式 季节 最大功率(MW)', '双极全压 夏季 7700', '单极金属回线 冬季 4000', '正文继续。'].join('\n');
    expect(splitBlocks(placeTables(text, [table()])).map((b) => b.kind)).toEqual(['table', 'para']);
    const other = table({ rows: [{ cells: ['不在本页', '春季', '1'], page_num: 21 }] });
    expect(placeTables(text, [other])).toBe(text);
  });

  it('copies the whole table as TSV (header once, one line per row) and as GFM Markdown (pipes escaped)', () => {
    const t = { table_id: '表A.1', title: '台账', columns: ['厂站', '说明'], rows: [{ cells: ['天山换流站', 'A|B 套\n双重化'] }, { cells: ['中州换流站', '含\t制表符'] }] };
    expect(tableToTsv(t)).toBe('厂站\t说明\n天山换流站\tA|B 套 双重化\n中州换流站\t含 制表符\n');
    expect(tableToMarkdown(t).split('\n')).toEqual(['**表A.1 台账**', '', '| 厂站 | 说明 |', '| --- | --- |', '| 天山换流站 | A\\|B 套 双重化 |', '| 中州换流站 | 含\t制表符 |', '']);
  });
});
