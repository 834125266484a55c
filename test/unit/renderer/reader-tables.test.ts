import { describe, expect, it } from 'vitest';
import { placeTables, splitBlocks, type PageTableData } from '../../../src/renderer/src/components/PageText';
import { headerRows, tableToMarkdown, tableToTsv } from '../../../src/renderer/src/components/table-copy';

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
  header_rows: [['运行方式', '季节', '最大功率(MW)']],
  merged_cells: [],
  layout: 'markup',
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

  it('a header printed over two lines stacks again: group cells span their sub-columns, single-level columns span both rows', () => {
    const cols = ['序号', '参数', '额定电压 kV·10', '额定电压 kV·35', '额定电压 kV·110', '备注'];
    const rows = headerRows(cols);
    expect(rows.map((r) => r.map((c) => [c.text, c.colSpan, c.rowSpan]))).toEqual([
      [['序号', 1, 2], ['参数', 1, 2], ['额定电压 kV', 3, 1], ['备注', 1, 2]],
      [['10', 1, 1], ['35', 1, 1], ['110', 1, 1]],
    ]);
    // two groups side by side, three levels deep on one side
    const deep = headerRows(['地区', '正常·上限', '正常·下限', '事故·上限 %', '调峰能力·最小出力·MW']);
    expect(deep.map((r) => r.map((c) => `${c.text}/${c.colSpan}/${c.rowSpan}`))).toEqual([
      ['地区/1/3', '正常/2/1', '事故/1/1', '调峰能力/1/1'],
      ['上限/1/2', '下限/1/2', '上限 %/1/2', '最小出力/1/1'],
      ['MW/1/1'],
    ]);
    // one-line headers are unchanged; copying keeps one header row with one name per column
    expect(headerRows(['运行方式', '季节'])).toEqual([[{ text: '运行方式', colSpan: 1, rowSpan: 1 }, { text: '季节', colSpan: 1, rowSpan: 1 }]]);
    expect(tableToTsv({ table_id: '表2-1', title: '', columns: cols, rows: [{ cells: ['1', '额定电流', '630', '1008', '1386', ''] }] }).split('\n')[0]).toBe(cols.join('\t'));
  });

  it('the printed lines of a two-line header belong to the table (not left over as text), body lines never do', () => {
    const t = table({ table_id: '表2', title: '架空导线允许载流量', columns: ['导线型号', '环境温度 ℃·25', '环境温度 ℃·30'], rows: [{ cells: ['LGJ-35', '131', '123'], page_num: 1 }], notes: [] });
    const text = ['表2 架空导线允许载流量', '导线型号 环境温度 ℃', '25 30', 'LGJ-35 131 123', '25 30 是常见的环境温度。'].join('\n');
    expect(placeTables(text, [t]).split('\n').filter(Boolean)).toEqual(['\u0000table:0', '25 30 是常见的环境温度。']);
  });
});
