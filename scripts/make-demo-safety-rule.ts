/**
 * Generates the third demo regulation shipped in resources/regulations/biandian_2024/:
 * 《变电站电气工作安全规程（演示）》 as a Word document — chapters and articles in the style of a substation
 * safety work rule, written by us from public facts (safety distances by voltage class, the organisational and
 * technical measures, ticket types), with a safety-distance table whose 交流/直流 cells span rows, notes under
 * the tables (注1 …, and 方案甲/方案乙 in the appendix), cross-references and a figure (a drawn flow chart).
 * Demo material: no force, not for real work.
 *
 *   npx tsx scripts/make-demo-safety-rule.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AlignmentType, Document, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, '..', 'resources', 'regulations', 'biandian_2024');
const FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const TITLE = '变电站电气工作安全规程（演示）';
const DEMO_NOTE =
  '【演示材料】本文件由 GridCode 项目为演示编写，参照公开的电力安全工作规程常识改写，条文与数值仅供演示检索功能，不具有任何效力，不得用于实际工作。';

// ---------------------------------------------------------------- text
type Part = { h1: string } | { h2: string } | { p: string } | { table: 'distance' | 'activity' } | { figure: true };

const AC: [string, string][] = [
  ['10 及以下（13.8）', '0.70'],
  ['20、35', '1.00'],
  ['66、110', '1.50'],
  ['220', '3.00'],
  ['330', '4.00'],
  ['500', '5.00'],
  ['750', '7.20'],
  ['1000', '8.70'],
];
const DC: [string, string][] = [
  ['±50 及以下', '1.50'],
  ['±400', '5.90'],
  ['±500', '6.00'],
  ['±660', '8.40'],
  ['±800', '9.30'],
];
const ACTIVITY: [string, string][] = [
  ['10 及以下（13.8）', '0.35'],
  ['20、35', '0.60'],
  ['66、110', '1.50'],
  ['220', '3.00'],
  ['330', '4.00'],
  ['500', '5.00'],
  ['750', '8.00'],
  ['1000', '9.50'],
];

const BODY: Part[] = [
  { p: DEMO_NOTE },
  { h1: '第一章 总则' },
  { p: '第一条 为了加强变电站电气作业现场安全管理，规范作业人员的行为，防止人身触电、设备损坏等事故，保证人身、电网和设备安全，制定本规程。' },
  { p: '第二条 本规程适用于运行中的变电站、换流站及开关站的电气设备上的工作，以及在运行设备附近进行的土建、消防、通信等工作。' },
  { p: '第三条 作业现场的生产条件和安全设施等应符合有关标准、规范的要求，工作人员的劳动防护用品应合格、齐备。现场使用的安全工器具应经试验合格并在有效期内。' },
  { p: '第四条 作业人员应身体健康、精神状态良好，具备必要的电气知识和业务技能，熟悉本规程的相关部分，并经考试合格。作业人员应学会紧急救护法，特别要学会触电急救。' },
  { h1: '第二章 高压设备工作的基本要求' },
  { p: '第五条 运维人员应熟悉电气设备。单独值班人员或运维负责人还应有实际工作经验。高压设备符合下列条件者，可由单人值班或单人操作：（一）室内高压设备的隔离室设有遮栏，遮栏的高度在 1.7m 以上，安装牢固并加锁者；（二）室内高压断路器的操动机构用墙或金属板与该断路器隔离或装有远方操动机构者。' },
  { p: '第六条 无论高压设备是否带电，作业人员不得单独移开或越过遮栏进行工作；若有必要移开遮栏时，应有监护人在场，并符合表1规定的设备不停电时的安全距离。' },
  { p: '第七条 设备不停电时的安全距离按表1执行。工作人员工作中正常活动范围与设备带电部分的距离小于表2规定时，该设备应停电，停电范围按本规程第二十条执行。' },
  { table: 'distance' },
  { p: '注1：表中未列电压等级按高一档电压等级的安全距离执行。' },
  { p: '注2：750kV 数据按海拔 2000m 校正，±400kV 数据按海拔 3000m 校正，其他电压等级数据按海拔 1000m 校正。' },
  { p: '第八条 雷雨天气需要巡视室外高压设备时，应穿绝缘靴，并不得靠近避雷器和避雷针。' },
  { p: '第九条 高压设备发生接地时，室内人员不得接近故障点 4m 以内，室外人员不得接近故障点 8m 以内。进入上述范围的人员应穿绝缘靴，接触设备的外壳和构架时应戴绝缘手套。' },
  { h1: '第三章 保证安全的组织措施' },
  { p: '第十条 在电气设备上工作，保证安全的组织措施包括：（一）现场勘察制度；（二）工作票制度；（三）工作许可制度；（四）工作监护制度；（五）工作间断、转移和终结制度。' },
  { p: '第十一条 工作票制度。在电气设备上的工作，应填用工作票或事故紧急抢修单，其方式有下列六种：（一）变电站第一种工作票；（二）电力电缆第一种工作票；（三）变电站第二种工作票；（四）电力电缆第二种工作票；（五）变电站带电作业工作票；（六）变电站事故紧急抢修单。' },
  { p: '第十二条 需要填用第一种工作票的工作为：（一）高压设备上工作需要全部停电或部分停电者；（二）二次系统和照明等回路上的工作，需要将高压设备停电者或做安全措施者；（三）高压电力电缆需停电的工作；（四）其他工作需要将高压设备停电或要做安全措施者。' },
  { p: '第十三条 需要填用第二种工作票的工作为：（一）控制盘和低压配电盘、配电箱、电源干线上的工作；（二）二次系统和照明等回路上的工作，无需将高压设备停电者或做安全措施者；（三）工作人员与设备带电部分的距离大于表1规定的非电气工作人员在高压设备场所的工作。' },
  { p: '第十四条 工作票由工作负责人填写，也可由工作票签发人填写。工作票一式两份，一份保存在工作地点，由工作负责人收执；另一份由工作许可人收执，按值移交。一个工作负责人不能同时执行多张工作票。' },
  { p: '第十五条 工作票所列人员包括工作票签发人、工作负责人（监护人）、工作许可人、专责监护人和工作班成员。工作负责人应正确组织工作，检查工作票所列安全措施是否正确完备，工作前向工作班成员交待工作内容、人员分工、带电部位和现场安全措施，告知危险点。' },
  { p: '第十六条 工作许可制度。工作许可人在完成施工现场的安全措施后，应会同工作负责人到现场再次检查所做的安全措施，对具体的设备指明实际的隔离措施，证明检修设备确无电压，并与工作负责人在工作票上分别确认、签名后，工作班方可开始工作。' },
  { p: '第十七条 工作监护制度。工作许可手续完成后，工作负责人、专责监护人应向工作班成员交待工作内容、人员分工、带电部位和现场安全措施，进行危险点告知，并始终在工作现场，对工作班人员的安全认真监护，及时纠正不安全的行为。' },
  { p: '第十八条 工作间断、转移和终结制度。工作间断时，工作班人员应从工作现场撤出，所有安全措施保持不动。全部工作完毕后，工作班应清扫、整理现场，工作负责人应先周密地检查，待全体作业人员撤离工作地点后，再向运维人员交待所修项目和发现的问题，并与运维人员共同检查设备状况，然后在工作票上填明工作结束时间。' },
  { h1: '第四章 保证安全的技术措施' },
  { p: '第十九条 在电气设备上工作，保证安全的技术措施包括：（一）停电；（二）验电；（三）接地；（四）悬挂标示牌和装设遮栏（围栏）。上述措施由运维人员或有权执行操作的人员执行，执行顺序见图1。' },
  { figure: true },
  { p: '第二十条 停电。工作地点应停电的设备如下：（一）检修的设备；（二）与工作人员在进行工作中正常活动范围的距离小于表2规定的设备；（三）带电部分在工作人员后面、两侧、上下，且无可靠安全措施的设备。检修设备停电，应把各方面的电源完全断开，禁止在只经断路器断开电源的设备上工作，应拉开隔离开关，手车开关应拉至试验或检修位置，应使各方面有一个明显的断开点。' },
  { table: 'activity' },
  { p: '注：表2中的距离小于表1时，以表1为准，见本规程第七条。' },
  { p: '第二十一条 验电。验电时，应使用相应电压等级而且合格的接触式验电器，在装设接地线或合接地刀闸处对各相分别验电。验电前，应先在有电设备上进行试验，确证验电器良好；无法在有电设备上进行试验时，可用工频高压发生器等确证验电器良好。高压验电应戴绝缘手套，人体与被验电设备的距离应符合表1的安全距离要求。' },
  { p: '第二十二条 接地。当验明设备确已无电压后，应立即将检修设备接地并三相短路。装设接地线应由两人进行，装设接地线应先接接地端，后接导体端，接地线应接触良好，连接应可靠；拆接地线的顺序与此相反。接地线应采用三相短路式接地线，其截面积应满足装设地点短路电流的要求，但不得小于 25mm²。装设接地线时，人体不得碰触接地线或未接地的导线。' },
  { p: '第二十三条 悬挂标示牌和装设遮栏（围栏）。在一经合闸即可送电到工作地点的断路器和隔离开关的操作把手上，均应悬挂“禁止合闸，有人工作！”的标示牌。在室外高压设备上工作，应在工作地点四周装设围栏，其出入口要围至临近道路旁边，并设有“从此进出！”的标示牌；围栏上悬挂适当数量的“止步，高压危险！”标示牌，标示牌应朝向围栏里面。在工作地点设置“在此工作！”的标示牌。' },
  { h1: '第五章 倒闸操作' },
  { p: '第二十四条 倒闸操作应根据值班调控人员或运维负责人的指令，受令人复诵无误后执行。发布指令应准确、清晰，使用规范的调度术语和设备双重名称。' },
  { p: '第二十五条 倒闸操作由操作人员填用操作票。操作票应填写设备的双重名称，每张操作票只能填写一个操作任务。操作前应核对设备名称、编号和位置，操作中应认真执行监护复诵制度，每操作完一步即由监护人在操作项目前打“√”。' },
  { p: '第二十六条 下列项目应填入操作票内：（一）应拉合的设备，验电，装拆接地线，合上（安装）或断开（拆除）控制回路或电压互感器回路的空气开关、熔断器；（二）拉合设备后检查设备的位置；（三）进行停、送电操作时，在拉合隔离开关、手车式开关拉出或推入前，检查断路器确在分闸位置；（四）设备检修后合闸送电前，检查送电范围内接地刀闸已拉开，接地线已拆除。' },
  { p: '第二十七条 下列各项工作可以不用操作票：（一）事故紧急处理；（二）拉合断路器的单一操作；（三）程序操作。上述操作在完成后应做好记录，事故紧急处理应保存原始记录。' },
  { p: '第二十八条 倒闸操作应由两人执行，其中对设备较为熟悉者作监护。特别重要和复杂的倒闸操作，由熟练的运维人员操作，运维负责人监护。' },
  { h1: '第六章 附则' },
  { p: '第二十九条 各单位可根据本规程，结合现场实际制定实施细则；安全措施的典型组合见附录A。' },
  { p: '第三十条 本规程自发布之日起施行。' },
  { h1: '附录A 检修安全措施典型组合（演示）' },
  { p: '本附录列出两种常见检修方式下安全措施的组合，执行时按本规程第十九条至第二十三条的顺序进行。' },
  { p: '方案甲：全站停电检修。断开所有进出线断路器和隔离开关，在各进线侧验电并装设接地线，在所有可能来电的操作把手上悬挂“禁止合闸，有人工作！”标示牌。' },
  { p: '方案乙：部分停电检修。仅断开检修间隔的断路器和两侧隔离开关，在检修设备两侧验电并装设接地线，检修间隔四周装设围栏，相邻带电间隔悬挂“止步，高压危险！”标示牌，作业人员与带电部分的距离按表1执行。' },
];

// ---------------------------------------------------------------- pieces
const cell = (text: string, opts: { bold?: boolean; rowSpan?: number } = {}) =>
  new TableCell({ children: [new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ text, bold: opts.bold })] })], rowSpan: opts.rowSpan });

/** 表1: 交流 / 直流 each one cell spanning its voltage rows (a vertically merged cell). */
function distanceTable(): Table {
  const rows = [new TableRow({ tableHeader: true, children: [cell('电流类别', { bold: true }), cell('电压等级（kV）', { bold: true }), cell('安全距离（m）', { bold: true })] })];
  for (const [group, list] of [['交流', AC], ['直流', DC]] as const) {
    list.forEach(([kv, m], i) => rows.push(new TableRow({ children: [...(i === 0 ? [cell(group, { rowSpan: list.length })] : []), cell(kv), cell(m)] })));
  }
  return new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } });
}

function activityTable(): Table {
  const rows = [new TableRow({ tableHeader: true, children: [cell('电压等级（kV）', { bold: true }), cell('安全距离（m）', { bold: true })] })];
  for (const [kv, m] of ACTIVITY) rows.push(new TableRow({ children: [cell(kv), cell(m)] }));
  return new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } });
}

/** 图1: the four technical measures in order, drawn as boxes and arrows. */
function flowChart(): Buffer {
  GlobalFonts.registerFromPath(FONT, 'WQY');
  const steps = ['停电', '验电', '接地', '悬挂标示牌和装设遮栏'];
  const canvas = createCanvas(900, 200);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 900, 200);
  g.font = '22px WQY';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  const widths = [120, 120, 120, 280];
  let x = 20;
  steps.forEach((s, i) => {
    g.strokeStyle = '#1f4e79';
    g.lineWidth = 3;
    g.strokeRect(x, 60, widths[i], 80);
    g.fillStyle = '#1f4e79';
    g.fillText(s, x + widths[i] / 2, 100);
    x += widths[i];
    if (i < steps.length - 1) {
      g.beginPath();
      g.moveTo(x + 8, 100);
      g.lineTo(x + 52, 100);
      g.stroke();
      g.beginPath();
      g.moveTo(x + 52, 100);
      g.lineTo(x + 40, 92);
      g.lineTo(x + 40, 108);
      g.closePath();
      g.fill();
      x += 60;
    }
  });
  return canvas.toBuffer('image/png');
}

// ---------------------------------------------------------------- document
function build(): Document {
  const children: (Paragraph | Table)[] = [new Paragraph({ heading: HeadingLevel.TITLE, alignment: AlignmentType.CENTER, children: [new TextRun(TITLE)] })];
  for (const part of BODY) {
    if ('h1' in part) children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(part.h1)] }));
    else if ('h2' in part) children.push(new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(part.h2)] }));
    else if ('p' in part) children.push(new Paragraph({ children: [new TextRun(part.p)] }));
    else if ('table' in part) {
      const caption = part.table === 'distance' ? '表1 设备不停电时的安全距离' : '表2 工作人员工作中正常活动范围与设备带电部分的安全距离';
      children.push(new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ text: caption, bold: true })] }));
      children.push(part.table === 'distance' ? distanceTable() : activityTable());
    } else {
      children.push(new Paragraph({ alignment: AlignmentType.CENTER, children: [new ImageRun({ type: 'png', data: flowChart(), transformation: { width: 600, height: 133 } })] }));
      children.push(new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun('图1 停电检修安全技术措施执行顺序示意图')] }));
    }
  }
  return new Document({ creator: 'GridCode（演示）', title: TITLE, sections: [{ children }] });
}

const info = {
  reg_id: 'biandian_2024',
  title: TITLE,
  source_file: 'biandian_2024.docx',
  description: '变电站电气设备上工作的安全要求：组织措施、技术措施、安全距离与倒闸操作（演示）',
  keywords: ['工作票', '操作票', '安全距离', '停电', '验电', '接地线', '标示牌', '遮栏', '倒闸操作'],
  scope: '适用于变电站现场作业安全问题：办理工作票、操作票，停电、验电、装设接地线、悬挂标示牌和装设遮栏，设备不停电时的安全距离',
};

fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'biandian_2024.docx'), await Packer.toBuffer(build()));
fs.writeFileSync(path.join(outDir, 'info.json'), JSON.stringify(info, null, 2) + '\n');
console.log(`wrote ${path.relative(process.cwd(), outDir)}/biandian_2024.docx and info.json`);
