/**
 * Writes the scanned-document fixtures the unit tests import (test/fixtures/scans/): a page of a
 * (fictional) regulation printed with WenQuanYi Micro Hei, rasterised at 150 dpi, skewed 0.8°, speckled,
 * blurred and saved as JPEG like an office scanner; its source text; and a mixed PDF (a text page, then
 * the scanned page); a printed page with a figure, and that page scanned. Committed, so tests need neither the font nor this script:
 * `npx tsx scripts/make-ocr-fixtures.ts` (needs fonts-wqy-microhei).
 */
import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { CJK_FONTS, degrade, encodeJpeg, printedPdf, rasterize } from '../test/fixtures/scans';

const out = path.resolve('test/fixtures/scans');
const title = '变电站巡视管理规定';
const lines = [
  '第一章 总则',
  '第一条 为规范变电站设备巡视工作，及时发现设备缺陷，保障电网安全运行，制定本规定。',
  '第二条 本规定适用于公司所属35千伏及以上变电站的日常巡视、特殊巡视和夜间巡视。',
  '第三条 巡视人员应当熟悉设备运行方式，巡视时不得进行其他工作，不得移开或越过遮栏。',
  '第二章 巡视要求',
  '第四条 有人值班变电站每天至少巡视两次，无人值班变电站每周至少巡视一次。',
  '第五条 遇有雷雨、大风、冰雪等恶劣天气，应当增加特殊巡视，重点检查避雷器和引线。',
  '第六条 发现设备缺陷，应当按照第九条的规定登记，并报告值班负责人。',
];
fs.mkdirSync(out, { recursive: true });
const printed = await printedPdf(title, lines, { fontSize: 12 });
const [page] = await rasterize(printed, 150);
const jpeg = encodeJpeg(degrade(page, { skew: 0.8, speckle: 0.002, blur: 1, seed: 11 }), 70);
fs.writeFileSync(path.join(out, 'regulation-page-150dpi.jpg'), jpeg);
fs.writeFileSync(path.join(out, 'regulation-page.txt'), [title, ...lines].join('\n') + '\n');

// text page + scanned page, with a generated metadata title
const doc = new PDFDocument({ size: 'A4', margins: { top: 72, bottom: 72, left: 80, right: 80 }, info: { Title: 'Microsoft Word - 巡视规定.doc' } });
const chunks: Buffer[] = [];
doc.on('data', (c: Buffer) => chunks.push(c));
const done = new Promise<void>((r) => doc.on('end', () => r()));
doc.font(CJK_FONTS.hei, 'WenQuanYiMicroHei');
doc.fontSize(20).text('变电站运行规程', { align: 'center' });
doc.moveDown(0.8);
doc.fontSize(12).text('第一条 变电站运行人员应当持证上岗，严格执行两票三制。', { lineGap: 4, paragraphGap: 5 });
doc.text('第二条 倒闸操作必须由两人执行，其中一人对设备较为熟悉者作监护。', { lineGap: 4, paragraphGap: 5 });
doc.addPage({ size: 'A4', margin: 0 });
doc.image(jpeg, 0, 0, { width: doc.page.width, height: doc.page.height });
doc.end();
await done;
fs.writeFileSync(path.join(out, 'mixed-text-and-scan.pdf'), Buffer.concat(chunks));
// a printed page with a drawn figure (vector lines and short labels), its caption under it and a citing sentence
{
  const fig = new PDFDocument({ size: 'A4', margins: { top: 72, bottom: 72, left: 80, right: 80 }, info: { Title: 'untitled' } });
  const parts: Buffer[] = [];
  fig.on('data', (c: Buffer) => parts.push(c));
  const end = new Promise<void>((r) => fig.on('end', () => r()));
  fig.font(CJK_FONTS.hei, 'WenQuanYiMicroHei');
  fig.fontSize(20).text('配电室接线规定', { align: 'center' });
  fig.moveDown(0.8);
  fig.fontSize(12).text('第一条 配电室主接线采用单母线分段接线方式，进线与母联断路器的位置见图3-1。', { lineGap: 4, paragraphGap: 5 });
  const top = fig.y + 20;
  fig.lineWidth(1.5).moveTo(120, top + 20).lineTo(470, top + 20).stroke();
  for (const x of [160, 260, 360, 440]) fig.moveTo(x, top + 20).lineTo(x, top + 120).stroke().rect(x - 8, top + 60, 16, 24).stroke();
  fig.fontSize(9).text('QF1', 150, top + 130).text('QF2', 250, top + 130).text('母联', 350, top + 130).text('QF3', 430, top + 130);
  fig.fontSize(10.5).text('图3-1 配电室主接线示意图', 80, top + 175, { width: 435, align: 'center' });
  fig.fontSize(12).text('第二条 倒闸操作前应当核对图3-1所示的断路器编号，确认无误后方可操作。', 80, top + 215, { lineGap: 4, paragraphGap: 5, width: 435 });
  fig.end();
  await end;
  fs.writeFileSync(path.join(out, 'figure-page.pdf'), Buffer.concat(parts));
  // the same page scanned: 150 dpi, -0.6° skew, speckle, JPEG 70 (figures found from the OCR lines)
  const [scanned] = await rasterize(Buffer.concat(parts), 150);
  fs.writeFileSync(path.join(out, 'figure-page-150dpi.jpg'), encodeJpeg(degrade(scanned, { skew: -0.6, speckle: 0.002, blur: 1, seed: 13 }), 70));
}
for (const f of fs.readdirSync(out)) console.log(f, fs.statSync(path.join(out, f)).size);
