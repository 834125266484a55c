import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import { CJK_FONT } from './fixtures';

/**
 * PDFs with cross-page tables in the styles regulations are printed in, made by two unrelated producers
 * so the importer is not fitted to one of them:
 *  - pdfkit, ruled grid cells (every cell boxed, like Word/WPS exports): a continuation titled
 *    "表A.2 …（续）" with the header repeated, one titled "续表3-1" with the header repeated, one titled
 *    "（续）" without a header (and a "单位：MW" line under its caption), one with nothing at all; notes 注1/注2 under a table;
 *  - Chromium printing HTML (`<thead>` repeated by the print engine on every page, wrapped cells,
 *    a caption above, notes below), the way many offices produce PDFs from web/OA systems.
 * Row data is deterministic so tests compare whole tables.
 */

export interface TableSpec {
  caption: string;
  headers: string[];
  rows: string[][];
  widths: number[];
  /** how a continuation page starts: caption "X（续）" + header, "续表N" + header, caption only, header only, nothing */
  continuation: 'caption+header' | 'xubiao+header' | 'caption' | 'header' | 'none';
  notes?: string[];
  /** a "单位：MW" line printed (right-aligned) between the caption and the header */
  unit?: string;
}

const STATIONS = ['东郊', '西山', '南湖', '北岭', '青龙', '白石', '金川', '玉泉'];

export const SETTINGS_ROWS = Array.from({ length: 64 }, (_, i) => [
  `${STATIONS[i % 8]}${220 + (i % 3) * 280}kV变电站`,
  `稳控装置${i % 2 ? 'B' : 'A'}套`,
  ['过载切机定值', '低频减载定值', '低压减载定值', '功率突变定值'][i % 4],
  `${(300 + i * 17) % 997}`,
  ['MW', 'Hz', 'kV', 'MW'][i % 4],
]);
export const STRAP_ROWS = Array.from({ length: 58 }, (_, i) => [`${STATIONS[(i * 3) % 8]}换流站`, `压板${i + 1}`, i % 3 ? '投入' : '退出']);
export const LIMIT_ROWS = Array.from({ length: 52 }, (_, i) => [`${STATIONS[i % 8]}—${STATIONS[(i + 3) % 8]}断面`, i % 2 ? '检修方式' : '正常方式', `${1200 + i * 25}`]);
export const ACTION_ROWS = Array.from({ length: 46 }, (_, i) => [`2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`, `${STATIONS[i % 8]}电厂`, i % 4 ? '正确动作' : '未动作']);

export const GRID_TABLES: TableSpec[] = [
  {
    caption: '表A.2 稳控装置定值清单',
    headers: ['厂站', '装置', '定值项', '定值', '单位'],
    rows: SETTINGS_ROWS,
    widths: [150, 80, 110, 70, 57],
    continuation: 'caption+header',
    notes: ['注1：定值以调控中心下达的正式定值单为准。', '注2：装置检修时定值区应当切换至 02 区。'],
  },
  { caption: '表3-1 压板正常投退状态', headers: ['厂站', '压板名称', '正常状态'], rows: STRAP_ROWS, widths: [200, 160, 107], continuation: 'xubiao+header' },
  { caption: '表3-2 断面稳定限额', headers: ['断面', '运行方式', '限额(MW)'], rows: LIMIT_ROWS, widths: [200, 160, 107], continuation: 'caption', unit: '单位：MW' },
  { caption: '表3-3 装置动作记录', headers: ['日期', '厂站', '动作评价'], rows: ACTION_ROWS, widths: [160, 200, 107], continuation: 'none', notes: ['注：未动作的记录应当在三日内分析原因。'] },
];

const INTRO = [
  '第一章 总则',
  '第一条 为规范稳控装置运行管理，制定本细则。',
  '第二条 稳控装置定值见表A.2，压板状态见表3-1，断面限额见表3-2。',
  '第三条 装置异常时按本细则第五条执行，详见第二章。定值区切换见注2。',
  '第二章 运行管理',
  '第四条 动作记录见表3-3，统计方法见附录B。',
  '第五条 值班人员应当立即汇报调度，并按表A.2核对定值。',
];

/** pdfkit, every cell boxed; `tables` printed one after another, continuations as their spec says. */
export async function makeGridTablePdf(file: string, tables: TableSpec[] = GRID_TABLES): Promise<void> {
  const doc = new PDFDocument({ size: 'A4', margins: { top: 56, bottom: 56, left: 64, right: 64 }, info: { Title: '稳控装置运行管理细则' } });
  const stream = fs.createWriteStream(file);
  doc.pipe(stream);
  doc.registerFont('cjk', CJK_FONT, 'WenQuanYiMicroHei');
  doc.font('cjk');
  const x0 = 64;
  const width = doc.page.width - 128;
  doc.fontSize(16).text('稳控装置运行管理细则', { align: 'center' }).moveDown();
  doc.fontSize(11);
  for (const line of INTRO) doc.text(line, { paragraphGap: 4 });
  const rowH = 18;
  const bottom = () => doc.page.height - doc.page.margins.bottom - 4;
  for (const t of tables) {
    const cols = t.widths.map((w) => (w / t.widths.reduce((a, b) => a + b, 0)) * width);
    const caption = (text: string) => {
      doc.fontSize(11).text(text, x0, doc.y, { width, align: 'center' });
      doc.moveDown(0.3);
    };
    const row = (cells: string[], bold = false) => {
      const y = doc.y;
      let x = x0;
      cells.forEach((c, i) => {
        doc.rect(x, y, cols[i], rowH).lineWidth(0.5).stroke();
        doc.fontSize(bold ? 9.5 : 9).text(c, x + 4, y + 4, { width: cols[i] - 8, lineBreak: false });
        x += cols[i];
      });
      doc.x = x0;
      doc.y = y + rowH;
    };
    if (doc.y > bottom() - 120) doc.addPage();
    doc.moveDown(0.5);
    caption(t.caption);
    if (t.unit) {
      doc.fontSize(9).text(t.unit, x0, doc.y, { width, align: 'right' });
      doc.moveDown(0.2);
    }
    row(t.headers, true);
    for (const r of t.rows) {
      if (doc.y + rowH > bottom()) {
        doc.addPage();
        const [id, ...title] = t.caption.split(' ');
        if (t.continuation === 'caption+header' || t.continuation === 'caption') caption(`${t.caption}（续）`);
        if (t.continuation === 'xubiao+header') caption(`续表${id.replace(/^表/, '')} ${title.join(' ')}`);
        if (t.continuation === 'caption+header' || t.continuation === 'xubiao+header' || t.continuation === 'header') row(t.headers, true);
      }
      row(r);
    }
    doc.x = x0;
    if (t.notes) {
      doc.moveDown(0.4);
      for (const n of t.notes) doc.fontSize(9.5).text(n, x0, doc.y, { width });
    }
    doc.moveDown(0.6);
  }
  doc.addPage();
  doc.fontSize(15).text('附录B 动作统计方法', x0, doc.y, { width, align: 'center' });
  doc.fontSize(11).text('正确动作率等于正确动作次数除以动作总次数。', x0, doc.y, { width });
  doc.end();
  await new Promise<void>((resolve) => stream.on('finish', () => resolve()));
}

/** Rows with cells long enough to wrap inside their column in the HTML table. */
export const DEVICE_ROWS = Array.from({ length: 40 }, (_, i) => [
  `${i + 1}`,
  `${STATIONS[i % 8]}500kV变电站`,
  i % 5 === 0 ? `${STATIONS[(i + 1) % 8]}—${STATIONS[(i + 2) % 8]}双回线路过载联切及低频低压减载装置` : `过载联切装置${i + 1}`,
  `${2010 + (i % 14)}`,
]);

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** HTML for Chromium's print engine: `<thead>` repeats on every printed page; a note under the table. */
export function deviceLedgerHtml(): string {
  const rows = DEVICE_ROWS.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>电力设备台账管理规定</title><style>
  body { font-family: 'WenQuanYi Micro Hei', sans-serif; font-size: 12pt; }
  table { border-collapse: collapse; width: 100%; font-size: 10pt; }
  th, td { border: 1px solid #333; padding: 6px 6px; text-align: left; }
  td:nth-child(3) { width: 34%; }
  tr { break-inside: avoid; }
  .cap { text-align: center; margin: 14px 0 6px; }
  h2 { text-align: center; font-size: 14pt; }
  </style></head><body>
  <h1 style="text-align:center;font-size:18pt">电力设备台账管理规定</h1>
  <h2>第一章 总则</h2>
  <p>第一条 为规范设备台账管理，制定本规定。</p>
  <p>第二条 安全自动装置台账见表4-1，台账字段说明见附录C。</p>
  <h2>第二章 台账</h2>
  <p>第三条 台账变更按本规定第二条执行。</p>
  <p class="cap">表4-1 安全自动装置台账</p>
  <table><thead><tr><th>序号</th><th>厂站</th><th>装置名称</th><th>投运年份</th></tr></thead>
  <tbody>${rows}</tbody></table>
  <p>注1：投运年份以竣工验收日期为准。</p>
  <p>注2：退役装置应当在台账中保留三年。</p>
  <h2 style="break-before: page">附录C 台账字段说明</h2>
  <p>厂站名称采用调度命名。</p>
  </body></html>`;
}
