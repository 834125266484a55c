import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { parseFlowText } from '../../../src/core/regulations/structure';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, VerticalMergeType } from 'docx';
import { tempContext, tempDir } from '../../helpers';
import { CHROMIUM, STRUCTURE_DOCS, expectedColumns, expectedRows, printPdfWithChromium, tableId, writeStructureDocs, type DocSpec } from '../../fixtures/regulation-tables';

/**
 * Tables as real regulations print them, imported from generated files through the real operations:
 * two-row headers (a group cell over sub-columns, cells spanning both lines, unit rows), merged body
 * cells (printed at the top or vertically centred), whitespace-aligned TXT exports and PDFs without
 * rulings, raised footnote markers and their footnotes, continuations with the whole header repeated.
 * Only the tuned documents: the held-out ones belong to `npm run eval -- tables`.
 */
type Ctx = ReturnType<typeof tempContext>;
let ctx: Ctx;
let dir: string;
const regOf = new Map<string, string>();
const docs = STRUCTURE_DOCS.filter((d) => !d.heldOut);

beforeAll(async () => {
  ctx = tempContext();
  dir = tempDir('gridcode-table-layouts-');
  const files = await writeStructureDocs(dir, { docs, printPdf: fs.existsSync(CHROMIUM) ? printPdfWithChromium : undefined });
  const res = await invokeOperation(ctx, 'regulations.import', { paths: files.map((f) => f.file) });
  res.forEach((r, i) => {
    expect(r.status, files[i].file).toBe('imported');
    regOf.set(files[i].doc.name, r.reg_id!);
  });
}, 120_000);
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

const table = (doc: string, id: string) => invokeOperation(ctx, 'regulations.table', { reg_id: regOf.get(doc)!, table_id: id });
const available = (d: DocSpec) => d.producer !== 'chromium' || fs.existsSync(CHROMIUM);

describe.each(docs.filter(available).map((d) => [d.name, d.producer, d] as const))('%s (%s)', (name, _producer, doc) => {
  it('each table: one name per column, every row with merged cells filled and footnote markers on their cell', async () => {
    const listed = (await invokeOperation(ctx, 'regulations.tables', { reg_id: regOf.get(name)! })).tables;
    expect(listed.map((t) => t.table_id)).toEqual(doc.tables.map(tableId));
    for (const spec of doc.tables) {
      const t = await table(name, tableId(spec));
      expect(t.columns.map((c) => c.replace(/\s+/g, ''))).toEqual(expectedColumns(spec).map((c) => c.replace(/\s+/g, '')));
      expect(t.rows.map((r) => r.cells)).toEqual(expectedRows(spec));
      expect(listed.find((x) => x.table_id === t.table_id)!.row_count).toBe(spec.rows.length);
      if (spec.families.includes('continuation') && doc.producer !== 'txt') expect(t.page_end).toBeGreaterThan(t.page_start);
      for (const n of spec.notes ?? []) expect(t.notes.map((x) => x.text)).toContain(n);
    }
  });
});

describe('table layouts in detail', () => {
  it('a two-row header with the group label alone on the line above: "额定电压 kV·10", repeated header dropped on the continuation page', async () => {
    const t = await table('kaiguan', '表2-1');
    expect(t.columns).toEqual(['序号', '参数', '单位', '额定电压 kV·10', '额定电压 kV·35', '额定电压 kV·110']);
    expect(t.rows.some((r) => r.cells.includes('10') && r.cells.includes('35') && r.cells.includes('110'))).toBe(false);
    expect(new Set(t.rows.map((r) => r.page_num)).size).toBe(2);
  });

  it('a number under a unit-bearing group reads as people write it ("110kV") in the table\'s search text', async () => {
    const unit = ctx.db.prepare("SELECT text FROM reg_units WHERE reg_id = ? AND kind = 'table' AND label = '表2-1' ORDER BY ord LIMIT 1").get(regOf.get('kaiguan')!) as { text: string };
    expect(unit.text.split('\n')[1]).toContain('额定电压 kV·110（110kV）');
    const hits = await invokeOperation(ctx, 'search.smart_search', { query: '110kV断路器分闸时间', reg_id: regOf.get('kaiguan')!, block_types: ['table'], top_k: 3 });
    expect(hits.results[0].table?.table_id).toBe('表2-1');
    expect(hits.results[0].reasons.matched_terms).toContain('110kv');
  });

  it('footnote markers: raised "ᵃ" joins its cell, "注1" and "*" stay on theirs; the footnotes are the table notes', async () => {
    const t = await table('kaiguan', '表2-1');
    const row = (n: string) => t.rows.find((r) => r.cells[0] === n)!.cells;
    expect(row('10')[4]).toBe('34ᵃ');
    expect(row('18')[5]).toBe('48注1');
    expect(row('30')[3]).toBe('≥52*');
    expect(t.notes.map((n) => n.label)).toEqual(['注1', 'a', '*']);
    const a = await invokeOperation(ctx, 'regulations.notes', { reg_id: regOf.get('kaiguan')!, table_id: '表2-1', note: 'a' });
    expect(a.notes.map((n) => n.text)).toEqual(['a 仅适用于户内开关柜。']);
  });

  it('merged cells printed at the top of their rows are filled into every row, also after a page break', async () => {
    const t = await table('kaiguan', '表2-2');
    const byStation = (s: string) => t.rows.filter((r) => r.cells[0] === s);
    expect(byStation('南湖220kV变电站').map((r) => r.cells[1])).toEqual(['主变间隔', '线路间隔', '母联间隔', '分段间隔']);
    // 白石's four bays start on one page and end on the next
    expect(byStation('白石220kV变电站').map((r) => r.cells[1])).toEqual(['主变间隔', '线路间隔', '母联间隔', '分段间隔']);
    expect(new Set(byStation('白石220kV变电站').map((r) => r.page_num)).size).toBe(2);
    expect(t.rows.filter((r) => !r.cells[0])).toEqual([]);
  });

  it('DOCX merged cells: a two-row header (vertical and horizontal merges) reads one name per column; a merged body cell fills its rows', async () => {
    const cell = (t: string, o: Record<string, unknown> = {}) => new TableCell({ children: [new Paragraph(t)], ...o });
    const restart = { verticalMerge: VerticalMergeType.RESTART };
    const cont = { verticalMerge: VerticalMergeType.CONTINUE };
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph('第一条 开关参数见表1。'),
            new Paragraph('表1 开关柜额定参数'),
            new Table({
              rows: [
                new TableRow({ tableHeader: true, children: [cell('变电站', restart), cell('参数', restart), cell('额定电压 kV', { columnSpan: 2 })] }),
                new TableRow({ tableHeader: true, children: [cell('', cont), cell('', cont), cell('10'), cell('35')] }),
                new TableRow({ children: [cell('东郊变', restart), cell('额定电流'), cell('1250'), cell('2000')] }),
                new TableRow({ children: [cell('', cont), cell('开断电流'), cell('31.5'), cell('25')] }),
                new TableRow({ children: [cell('西山变'), cell('额定电流'), cell('630'), cell('1250')] }),
              ],
            }),
          ],
        },
      ],
    });
    const file = path.join(dir, '开关柜.docx');
    fs.writeFileSync(file, await Packer.toBuffer(doc));
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [file] });
    expect(res.status).toBe('imported');
    const t = await invokeOperation(ctx, 'regulations.table', { reg_id: res.reg_id!, table_id: '表1' });
    expect(t.columns).toEqual(['变电站', '参数', '额定电压 kV·10', '额定电压 kV·35']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['东郊变', '额定电流', '1250', '2000'],
      ['东郊变', '开断电流', '31.5', '25'],
      ['西山变', '额定电流', '630', '1250'],
    ]);
  });

  it('a whitespace-aligned TXT table keeps prose lines with double spaces out of tables', () => {
    const text = ['某规程', '', '第一条  为了规范配电网运行，制定本规程。', '第二条  本规程适用于10kV配电网。', '第三条  运行单位应当建立台账。', ''].join('\n');
    expect(parseFlowText(text, { format: 'text', markdown: false, pageChars: 1800, fallbackTitle: 'x' }).tables).toEqual([]);
  });
});
