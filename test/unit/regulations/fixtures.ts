import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import PDFDocument from 'pdfkit';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';

/** Real files for the import tests, generated with the same libraries users' tools produce them with. */
export const CJK_FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

export interface PdfSection {
  heading: string;
  lines: string[];
}

export async function makePdf(
  file: string,
  options: { sections?: PdfSection[]; outline?: boolean; userPassword?: string; image?: boolean; title?: string } = {},
): Promise<string> {
  const doc = new PDFDocument({
    size: 'A4',
    info: options.title ? { Title: options.title } : {},
    ...(options.userPassword ? { userPassword: options.userPassword, ownerPassword: 'owner', pdfVersion: '1.7ext3' as const } : {}),
  });
  const stream = fs.createWriteStream(file);
  doc.pipe(stream);
  doc.registerFont('cjk', CJK_FONT, 'WenQuanYiMicroHei');
  doc.font('cjk');
  if (options.image) doc.image(makePng(64, 64), 50, 50, { width: 300 });
  (options.sections ?? []).forEach((s, i) => {
    if (i > 0) doc.addPage();
    if (options.outline) doc.outline.addItem(s.heading);
    doc.fontSize(15).text(s.heading, { align: 'center' });
    doc.fontSize(11);
    for (const line of s.lines) doc.text(line, { paragraphGap: 4 });
  });
  doc.end();
  await new Promise<void>((resolve) => stream.on('finish', () => resolve()));
  return file;
}

/** A small valid RGB PNG (gradient), built by hand so image-only PDFs need no fixture file. */
export function makePng(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      raw[o] = (x * 4) & 255;
      raw[o + 1] = (y * 4) & 255;
      raw[o + 2] = 128;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function makeDocx(file: string, withTable = true): Promise<string> {
  const p = (text: string) => new Paragraph({ children: [new TextRun(text)] });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: '变电站运维管理办法', heading: HeadingLevel.TITLE, alignment: AlignmentType.CENTER }),
          new Paragraph({ text: '第一章 总则', heading: HeadingLevel.HEADING_1 }),
          p('第一条 为了规范变电站运维管理，保障设备安全运行，制定本办法。'),
          p('第二条 本办法适用于公司所属 35 千伏及以上变电站的运维管理。'),
          new Paragraph({ text: '第二章 巡视管理', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: '第一节 例行巡视', heading: HeadingLevel.HEADING_2 }),
          p('第三条 运维人员应当按照巡视周期开展例行巡视，发现缺陷及时记录。'),
          p('第十条之一 特殊天气应当增加巡视次数。'),
          ...(withTable
            ? [
                new Table({
                  rows: [
                    new TableRow({ children: ['设备', '巡视周期'].map((t) => new TableCell({ children: [p(t)] })) }),
                    new TableRow({ children: ['主变压器', '每日'].map((t) => new TableCell({ children: [p(t)] })) }),
                  ],
                }),
              ]
            : []),
          p('第一百零二条 本办法自发布之日起施行。'),
        ],
      },
    ],
  });
  fs.writeFileSync(file, await Packer.toBuffer(doc));
  return file;
}

/** A synthetic statute in the shape of ../shared/data/laws (# title, INFO END, ## chapters, 第X条 paragraphs). */
export function lawMarkdown(title: string, chapters: number, articlesPerChapter: number, variant = ''): string {
  const cn = (n: number) => {
    const d = '零一二三四五六七八九';
    if (n < 10) return d[n];
    if (n < 20) return '十' + (n % 10 ? d[n % 10] : '');
    if (n < 100) return d[Math.floor(n / 10)] + '十' + (n % 10 ? d[n % 10] : '');
    const h = d[Math.floor(n / 100)] + '百';
    const r = n % 100;
    if (!r) return h;
    return h + (r < 10 ? '零' + d[r] : d[Math.floor(r / 10)] + '十' + (r % 10 ? d[r % 10] : ''));
  };
  const out = [`# ${title}`, '', '2024年1月1日 演示会议通过', '', '<!-- INFO END -->', ''];
  let n = 1;
  for (let c = 1; c <= chapters; c++) {
    out.push(`## 第${cn(c)}章 第${c}部分${variant}`, '');
    for (let a = 0; a < articlesPerChapter; a++, n++) {
      out.push(`第${cn(n)}条 ${variant}本条规定第${n}项事项，运行单位应当按照调度指令执行，并做好记录和汇报工作。`, '');
    }
  }
  return out.join('\n');
}

export function writeFile(dir: string, name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

export const TRANSFORMERS = Array.from({ length: 70 }, (_, i) => [`${i + 1}`, `${['东郊', '西山', '南湖', '北岭'][i % 4]}变电站${Math.floor(i / 4) + 1}号主变`, `${(i % 3) * 60 + 180}`, `${100 + (i % 5) * 5}%`]);
export const FEEDERS = Array.from({ length: 50 }, (_, i) => [`馈线${i + 1}`, `${10 + (i % 3) * 10}kV`, `${300 + i * 7}`]);

/**
 * A borderless PDF (text placed at column x positions, numbers right-aligned) with two cross-page tables:
 * 表3-1 repeats its caption "（续）" and header on every page, 表3-2 continues with neither.
 */
export async function makeTablePdf(file: string): Promise<void> {
  const doc = new PDFDocument({ size: 'A4', margins: { top: 60, bottom: 60, left: 60, right: 60 } });
  const stream = fs.createWriteStream(file);
  doc.pipe(stream);
  doc.registerFont('cjk', CJK_FONT, 'WenQuanYiMicroHei');
  doc.font('cjk');
  doc.fontSize(16).text('变电站设备负载管理办法', { align: 'center' }).moveDown();
  doc.fontSize(11);
  for (const line of [
    '第一章 总则',
    '第一条 为了规范主变压器负载管理，制定本办法。',
    '第二条 主变压器负载限额见表3-1，馈线限额见表3-2。',
    '第三条 超过限额时，按本办法第五条执行，并详见第二章。',
    '第二章 限额管理',
    '第四条 负载率计算方法见附录A。',
    '第五条 值班人员应当立即汇报调度。注1所列情形除外。',
  ]) doc.text(line, { paragraphGap: 4 });
  const x0 = 60;
  const drawTable = (caption: string, headers: string[], rows: string[][], widths: number[], repeat: boolean) => {
    const xs = widths.reduce<number[]>((acc, w, i) => [...acc, (acc[i - 1] ?? x0) + (i ? widths[i - 1] : 0)], []).map((x, i) => (i === 0 ? x0 : x));
    const row = (cells: string[], size: number) => {
      const y = doc.y;
      cells.forEach((c, i) => {
        doc.fontSize(size);
        const numeric = /^[\d.%]+$/.test(c);
        // numbers right-aligned in their column, text left-aligned
        doc.text(c, xs[i], y, { width: widths[i] - 8, align: numeric ? 'right' : 'left', lineBreak: false });
      });
      doc.x = x0;
      doc.y = y + 16;
    };
    if (doc.y > doc.page.height - 140) doc.addPage();
    doc.moveDown().fontSize(11).text(caption, x0, doc.y, { align: 'center', width: 475 });
    doc.moveDown(0.3);
    row(headers, 10);
    for (const r of rows) {
      if (doc.y + 16 > doc.page.height - 70) {
        doc.addPage();
        if (repeat) {
          doc.fontSize(11).text(`${caption}（续）`, x0, doc.y, { align: 'center', width: 475 });
          doc.moveDown(0.3);
          row(headers, 10);
        }
      }
      row(r, 10);
    }
    doc.x = x0;
  };
  drawTable('表3-1 主变压器负载限额', ['序号', '设备名称', '额定容量(MVA)', '负载率上限'], TRANSFORMERS, [50, 200, 120, 105], true);
  doc.fontSize(10).text('注1：检修方式下负载率上限按表中数值的 90% 执行。', x0, doc.y + 8, { width: 475 });
  doc.text('注2：新投运主变压器首月负载率不超过 80%。', { width: 475 });
  drawTable('表3-2 馈线电流限额', ['馈线', '电压等级', '限额(A)'], FEEDERS, [160, 160, 155], false);
  doc.addPage();
  doc.fontSize(15).text('附录A 负载率计算方法', { align: 'center' });
  doc.fontSize(11).text('负载率等于实际负荷除以额定容量。');
  doc.end();
  await new Promise<void>((resolve) => stream.on('finish', () => resolve()));
}

