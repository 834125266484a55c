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
