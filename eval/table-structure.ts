/**
 * Structure families of `npm run eval -- tables`: the documents of test/fixtures/regulation-tables.ts
 * (pdfkit ruled / without rulings, Chromium print, whitespace TXT export) imported into the same library,
 * then checked through the `tables` / `table` operations and table lookup questions:
 *  - 表头: one name per column (a two-row header "额定电压 kV" over "10 | 35" reads "额定电压 kV·10");
 *  - 整行: every body row equal to the expected row (merged cells filled into each row they cover,
 *    footnote markers kept on their cell), in order, header never repeated as a row;
 *  - 单元格: a cell looked up the way an agent does it — row by its first cell, column by its name;
 *  - 整表: row count, header once, page span over several pages for continued tables;
 *  - 注: the notes printed under the table are its notes;
 *  - lookup: a natural question -> search_tables top-1 and smart_search(block_types table) top-1.
 * Numbers per family (a table counts in every family it is tagged with) and split tuned | held out
 * (held-out documents, plus every 4th lookup question).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot } from '../src/core/common/paths';
import { CHROMIUM, STRUCTURE_DOCS, expectedColumns, expectedNotes, expectedRows, printPdfWithChromium, tableId, writeStructureDocs, type Family } from '../test/fixtures/regulation-tables';

type Split = { dev: [number, number]; held: [number, number] };
export type FamilyTally = Map<string, Map<string, Split>>;

function add(t: FamilyTally, family: string, metric: string, held: boolean, ok: boolean): void {
  const byMetric = t.get(family) ?? new Map<string, Split>();
  t.set(family, byMetric);
  const s = byMetric.get(metric) ?? { dev: [0, 0], held: [0, 0] };
  byMetric.set(metric, s);
  const slot = held ? s.held : s.dev;
  slot[0] += ok ? 1 : 0;
  slot[1] += 1;
}

const squash = (s: string) => s.replace(/[\s\u3000]+/g, '');
/** column names compare without separators: "额定电压/kV·10" = "额定电压 kV·10" */
const colKey = (s: string) => squash(s).replace(/[·・/／()（）,，、:：\-—_|]/g, '');

export async function structureEval(ctx: AppContext, verbose: boolean, showHeld = false): Promise<FamilyTally> {
  const tally: FamilyTally = new Map();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-eval-structure-'));
  // held-out misses stay hidden unless asked for (--show-held): they are never looked at while tuning
  const say = (s: string, held = false) => verbose && (!held || showHeld) && console.log(s);
  try {
    const files = await writeStructureDocs(dir, { printPdf: fs.existsSync(CHROMIUM) ? printPdfWithChromium : undefined });
    if (files.length < STRUCTURE_DOCS.length) console.log(`[skip] 未找到 Chromium（${CHROMIUM}）：跳过 ${STRUCTURE_DOCS.length - files.length} 份浏览器打印的文档`);
    const imported = await invokeOperation(ctx, 'regulations.import', { paths: files.map((f) => f.file) });
    const regOf = new Map<string, string>();
    imported.forEach((r, i) => {
      if (r.status === 'failed' || !r.reg_id) throw new Error(`导入失败: ${files[i].file}: ${r.error}`);
      regOf.set(files[i].doc.name, r.reg_id);
    });
    for (const { doc } of files) {
      const regId = regOf.get(doc.name)!;
      const sayDoc = (s: string) => say(s, doc.heldOut);
      const listed = (await invokeOperation(ctx, 'regulations.tables', { reg_id: regId })).tables;
      for (const spec of doc.tables) {
        const id = tableId(spec);
        const fams: Family[] = spec.families;
        const count = (metric: string, ok: boolean, only?: Family[]) => {
          for (const f of only ?? fams) add(tally, f, metric, doc.heldOut, ok);
        };
        const summary = listed.find((t) => t.table_id === id);
        const wantCols = expectedColumns(spec);
        const wantRows = expectedRows(spec);
        if (!summary) {
          sayDoc(`  ✗ [${doc.name}${doc.heldOut ? ' 留出' : ''}] ${id} 未识别（识别到 ${listed.map((t) => t.table_id).join('、') || '无'}）`);
          count('表头', false);
          wantRows.forEach(() => count('整行', false));
          count('整表', false);
          for (const _ of wantRows.filter((_, i) => i % 3 === 0)) count('单元格', false);
          for (const _ of expectedNotes(spec)) count('注', false);
          continue;
        }
        const t = await invokeOperation(ctx, 'regulations.table', { reg_id: regId, table_id: id });
        const colsOk = t.columns.length === wantCols.length && t.columns.every((c, i) => colKey(c) === colKey(wantCols[i]));
        count('表头', colsOk);
        if (!colsOk) sayDoc(`  ✗ [${doc.name}${doc.heldOut ? ' 留出' : ''}] ${id} 表头 ${JSON.stringify(t.columns)}  期望 ${JSON.stringify(wantCols)}`);
        const got = t.rows.map((r) => r.cells.map(squash).join('|'));
        let rowMiss = 0;
        wantRows.forEach((row, i) => {
          const ok = got[i] === row.map(squash).join('|');
          count('整行', ok);
          if (!ok && rowMiss++ < 3) sayDoc(`  ✗ [${doc.name}${doc.heldOut ? ' 留出' : ''}] ${id} 第${i + 1}行 ${JSON.stringify(t.rows[i]?.cells ?? null)}  期望 ${JSON.stringify(row)}`);
        });
        if (rowMiss > 3) sayDoc(`    …… 共 ${rowMiss} 行不符`);
        const pages = new Set(t.rows.map((r) => r.page_num));
        const headerAsRow = t.rows.some((r) => r.cells.every((c, i) => colKey(c) === colKey(t.columns[i] ?? '')) || spec.header.some((h) => h.length === r.cells.length && h.every((c, i) => squash(c.replace(/\{[rc]\d\}/g, '')) === squash(r.cells[i]))));
        // TXT pages are virtual (cut by size, not at form feeds): only printed pages must show the span
        const multiPage = spec.families.includes('continuation') && doc.producer !== 'txt';
        const wholeOk = t.rows.length === wantRows.length && !headerAsRow && (!multiPage || pages.size > 1) && summary.row_count === wantRows.length;
        count('整表', wholeOk);
        if (!wholeOk) sayDoc(`  ✗ [${doc.name}${doc.heldOut ? ' 留出' : ''}] ${id} 整表: ${t.rows.length} 行（期望 ${wantRows.length}），${pages.size} 页，表头混入行 ${headerAsRow}`);
        // cell lookup: row by its first cell (and second when the first repeats), column by name
        wantRows.forEach((row, i) => {
          if (i % 3 !== 0 && !row.some((c) => /[ᵃᵇᶜᵈ¹²³*]|注\d/.test(c))) return;
          const byFirst = t.rows.filter((r) => squash(r.cells[0] ?? '') === squash(row[0]));
          const match = byFirst.length > 1 ? byFirst.find((r) => squash(r.cells[1] ?? '') === squash(row[1])) : byFirst[0];
          const c = row.length - 1 - (i % 2);
          const col = t.columns.findIndex((name) => colKey(name) === colKey(wantCols[c]));
          const ok = !!match && col >= 0 && squash(match.cells[col] ?? '') === squash(row[c]);
          const footnoted = row.some((x) => /[ᵃᵇᶜᵈ¹²³*]|注\d/.test(x));
          count('单元格', ok);
          if (footnoted) count('单元格(带脚注)', ok, ['footnote']);
          if (!ok) sayDoc(`  ✗ [${doc.name}${doc.heldOut ? ' 留出' : ''}] ${id} 单元格 ${row[0]} / ${wantCols[c]} = ${row[c]}  得到 ${match ? (col >= 0 ? match.cells[col] : '（无此列）') : '（无此行）'}`);
        });
        for (const n of expectedNotes(spec)) {
          const ok = t.notes.some((x) => squash(x.text).includes(squash(n).replace(/^(注\d*[:：]|[a-z*]\s*)/, '').slice(0, 8)));
          count('注', ok);
          if (!ok) sayDoc(`  ✗ [${doc.name}${doc.heldOut ? ' 留出' : ''}] ${id} 注「${n}」不在表注中（${t.notes.map((x) => x.label).join('、') || '无'}）`);
        }
      }
    }
    // lookup questions
    const lines = fs.readFileSync(path.join(projectRoot(), 'eval', 'data', 'table-structure-questions.tsv'), 'utf8').split(/\r?\n/).filter((l) => l.trim() && !l.startsWith('#'));
    let k = 0;
    for (const line of lines) {
      const [, scope, question, expected] = line.split('\t').map((s) => s.trim());
      k++;
      const [docName, id] = expected.split(':');
      const doc = STRUCTURE_DOCS.find((d) => d.name === docName)!;
      const regId = regOf.get(docName);
      if (!regId) continue;
      const held = doc.heldOut || k % 4 === 0;
      const hits = (await invokeOperation(ctx, 'regulations.search_tables', { query: question, ...(scope === 'all' ? {} : { reg_id: scope }), top_k: 3 })).results;
      const okTables = !!hits[0] && hits[0].reg_id === regId && hits[0].table.table_id === id;
      add(tally, 'lookup', 'search_tables top-1', held, okTables);
      add(tally, 'lookup', 'search_tables top-3', held, hits.some((h) => h.reg_id === regId && h.table.table_id === id));
      const smart = (await invokeOperation(ctx, 'search.smart_search', { query: question, reg_id: 'all', top_k: 5, block_types: ['table'] })).results;
      const okSmart = !!smart[0] && smart[0].reg_id === regId && smart[0].table?.table_id === id;
      add(tally, 'lookup', 'smart_search(table) top-1', held, okSmart);
      if (!okTables || !okSmart)
        say(`  ✗ [lookup ${k}${held ? ' 留出' : ''}] ${question}  期望 ${regId}:${id}  search_tables ${hits.map((h) => `${h.reg_id}:${h.table.table_id}`).join(' | ')}; smart ${smart[0] ? `${smart[0].reg_id}:${smart[0].table?.table_id ?? smart[0].kind}` : '—'}`, held);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return tally;
}

const pct = ([a, b]: [number, number]) => (b ? `${((100 * a) / b).toFixed(1)}% (${a}/${b})` : '—');

export function printFamilyTally(t: FamilyTally): void {
  const order = ['multirow', 'merged', 'whitespace', 'unit', 'footnote', 'continuation', 'lookup'];
  console.log(`\n结构族（生成文档：pdfkit 有框线 / 无框线、Chromium 打印、TXT 空格对齐）`);
  console.log(`${'族 · 指标'.padEnd(34)}${'调参集'.padEnd(18)}${'留出集'.padEnd(18)}全部`);
  for (const f of order) {
    for (const [metric, { dev, held }] of t.get(f) ?? []) {
      console.log(`${`${f} · ${metric}`.padEnd(36)}${pct(dev).padEnd(20)}${pct(held).padEnd(20)}${pct([dev[0] + held[0], dev[1] + held[1]])}`);
    }
  }
}
