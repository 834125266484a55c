/**
 * Generates the two demo regulations shipped in resources/regulations/ (demo material written for
 * GridCode; fictional, no legal force):
 *   angui_2024  《安全自动装置调度运行管理规定（演示）》 -> PDF with outline (pdfkit + WenQuanYi Micro Hei)
 *   wengui_2024 《特高压互联电网稳定及无功电压调度运行规定（演示）》 -> Markdown
 * Chapters and articles are hand-written below; appendices (device ledgers, strap tables, limit tables)
 * are generated from a seeded generator so every run produces the same files.
 *
 *   npx tsx scripts/make-demo-regulations.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { mulberry32 } from './lib/prng';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, '..', 'resources', 'regulations');
const FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const DEMO_NOTE = '【演示材料】本文件由 GridCode 项目为演示编写，单位、站名、设备与数值均为虚构，不具有任何效力，不得用于实际调度运行。';

// ---------------------------------------------------------------- deterministic data
const rng = mulberry32;
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const STATIONS = [
  '天山换流站', '中州换流站', '哈南750kV变电站', '豫北1000kV变电站', '南阳1000kV变电站', '荆门1000kV变电站', '长治1000kV变电站',
  '晋东南1000kV变电站', '郑州500kV变电站', '嵩山500kV变电站', '洛北500kV变电站', '邵陵500kV变电站', '香山500kV变电站', '武陟500kV变电站',
  '获嘉500kV变电站', '牡丹500kV变电站', '周口500kV变电站', '信阳500kV变电站', '白河500kV变电站', '驻马店500kV变电站', '敦煌750kV变电站',
  '酒泉750kV变电站', '沙洲750kV变电站', '烟墩750kV变电站', '吐鲁番750kV变电站', '三塘湖750kV变电站', '花园电厂', '哈密热电厂',
  '大南湖电厂', '国投哈密电厂', '神火电厂', '沁北电厂', '鹤壁电厂', '姚孟电厂',
] as const;
const DEVICE_TYPES = ['稳控装置主站', '稳控装置子站', '稳控装置执行站', '低频低压减载装置', '失步解列装置', '过载联切装置', '直流功率调制装置', '备用电源自投装置'] as const;
const MAKERS = ['南瑞继保', '南瑞科技', '许继电气', '四方继保', '国电南自', '长园深瑞'] as const;
const MODELS = ['PCS-992', 'SCS-500E', 'WAFS-600', 'CSS-100BE', 'PSS-880', 'RCS-992A'] as const;
const STRAPS = ['总功能压板', '切机出口压板', '切负荷出口压板', '通道A投入压板', '通道B投入压板', '检修状态压板', '直流闭锁判别压板', '远方操作压板'] as const;

// ---------------------------------------------------------------- angui_2024 prose
const ANGUI_TITLE = '安全自动装置调度运行管理规定（演示）';
const ANGUI_BODY = `
## 第一章 总则

第一条 为了加强安全自动装置（以下简称安控装置）调度运行管理，规范稳控系统的配置、投退、定值及故障处理，保障特高压交直流混联电网安全稳定运行，根据《电力系统安全稳定导则》《电网调度管理条例》等有关规定，结合本网实际，制定本规定。

第二条 本规定适用于国调中心直调及许可范围内的安控装置、稳控系统及其通信通道的调度运行管理，涉及装置配置、压板投退、定值管理、异常与故障处理等工作。各分中心、省级调控中心、运维单位及并网发电企业应当遵照执行。

第三条 本规定所称安全自动装置，是指在电网发生故障或异常运行时，为防止电网失去稳定、避免发生大面积停电而自动采取切机、切负荷、直流功率调制、解列等控制措施的装置，包括稳控装置、失步解列装置、低频低压减载装置、过载联切装置及备用电源自投装置等。

第四条 本规定所称稳控系统，是指由分布于多个厂站的稳控装置主站、子站、执行站及其间的通信通道构成，按照统一控制策略协调动作的安全稳定控制系统，如天中直流安控系统、哈南—豫北特高压稳控系统等。

第五条 安控装置的调度运行管理坚持“统一调度、分级管理、按责运维”的原则。安控装置的投入、退出、定值修改和控制策略调整，均应当按照调度管辖范围，由相应调控中心值班调度员下达调度指令执行。

第六条 安控装置应当与一次系统同步规划、同步建设、同步投运。一次设备投运而相应安控装置不具备投运条件的，应当经调控中心组织安全稳定校核，并采取限制运行方式等临时措施。

## 第二章 职责分工

第七条 国调中心负责直调安控装置的调度运行管理，主要职责如下：

（一）组织制定跨区跨省稳控系统的控制策略，下达装置定值单；

（二）负责直调安控装置投退及策略调整的调度指挥；

（三）组织安控装置动作情况的分析评价；

（四）组织编制和修订天中直流等重要输电通道的安控装置运行规定。

第八条 分中心负责所辖区域内安控装置的调度运行管理，负责编制区域稳控系统的运行说明，落实国调中心下达的控制策略，组织开展辖区安控装置的运行统计和缺陷管理。

第九条 省级调控中心负责省调管辖安控装置的调度运行管理，负责省内低频低压减载方案的编制和落实，配合上级调控中心开展切负荷执行站的运行管理，按时报送可切负荷量。

第十条 运维单位负责安控装置的现场运行维护，主要职责如下：

（一）按照调度指令进行装置投退和压板操作，并做好操作记录；

（二）负责装置巡视、定期检验和缺陷处理，保证装置及通道完好；

（三）装置异常、告警或动作后，立即向值班调度员汇报，并按要求上报动作报告和录波文件；

（四）负责现场运行规程中安控装置部分的编制和修订。

第十一条 并网发电企业应当按照调度要求配置切机执行装置，保证可切机组容量满足控制策略要求，不得擅自退出切机压板或改变可切机组顺序。

## 第三章 装置配置与投运管理

第十二条 安控装置的配置应当满足“可靠性、选择性、灵敏性、速动性”的要求。稳控系统主站、重要子站应当双重化配置，两套装置的采集、判别和出口回路应当相互独立。

第十三条 稳控系统通信通道应当采用两条相互独立的路由，任一通道中断不应影响控制命令的可靠传输。通道传输时间应当满足控制策略对动作时间的要求，一般不大于 20 毫秒。

第十四条 新建、改建安控装置投运前，运维单位应当提交装置调试报告、联调试验报告、现场运行规程和压板命名表，经调控中心审核同意后方可申请投运。

第十五条 安控装置投运前应当完成与相关厂站的系统联调，联调内容包括：

（一）通道收发及误码测试；

（二）策略表判别逻辑验证；

（三）出口回路带开关传动或模拟传动；

（四）与直流控制保护系统的接口验证。

第十六条 调控中心应当在安控装置投运前下达正式定值单。定值单应当包括装置名称、版本、定值区号、控制策略表、压板投退要求及执行时限。主要定值见附录C。

## 第四章 压板投退与操作管理

第十七条 安控装置压板分为功能压板、出口压板、通道压板和检修压板。装置投入运行时，应当先投入功能压板和通道压板，确认装置运行正常、无告警后，再投入出口压板；退出时顺序相反。

第十八条 压板投退应当严格按照值班调度员的调度指令执行。现场运行人员不得擅自投退压板；确需紧急退出的，应当先退出后立即汇报值班调度员，并说明原因。

第十九条 值班调度员下达压板投退指令时，应当使用压板的双重命名，明确装置名称、压板名称及目标状态，例如：“天山换流站稳控装置A套切机出口压板由投入改为退出”。

第二十条 一次设备停电检修涉及安控装置采集量或出口回路的，应当在一次设备停电前退出相应出口压板或策略，在一次设备恢复送电、装置采集正常后，按调度指令恢复。各压板的正常投退状态见表B.1。

第二十一条 双重化配置的稳控装置，正常情况下两套同时投入运行。一套装置因检修或缺陷退出时，另一套装置应当保持运行；两套装置不得同时退出，确需同时退出的，应当经调控中心安全校核并采取限制送电功率等措施。

第二十二条 装置定值区切换、控制策略调整、压板投退等操作完成后，运维单位应当核对装置运行状态、定值区号及压板位置，并向值班调度员回令。

## 第五章 天中直流安控系统运行

第二十三条 天中直流安控系统由天山换流站、中州换流站稳控主站，哈南、敦煌、酒泉等变电站子站，以及配套电厂、新能源汇集站执行站组成，主要控制措施包括直流闭锁切机、直流功率紧急调制和过载联切负荷。

第二十四条 天中直流双极运行、输送功率超过 6000 兆瓦时，天中直流安控系统切机功能必须投入；安控系统切机功能退出期间，天中直流输送功率不得超过 4500 兆瓦。

注：本条所称输送功率，是指天中直流整流侧双极功率之和。

第二十五条 天中直流单极闭锁时，安控系统按照策略表切除送端配套电源，切机量按闭锁前直流功率的损失量及送端断面潮流确定；双极闭锁时，同时切除送端机组并启动受端切负荷措施。控制策略摘要见表A.2，直流功率分档见注2。

第二十六条 天中直流安控系统可切机组容量不足时，送端电厂应当立即汇报值班调度员，值班调度员应当按照可切量核减天中直流输送功率，并通知相关分中心。

第二十七条 天中直流安控系统通道异常时，按照下列原则处理：

（一）单一通道中断，装置正常运行，运维单位应当立即组织处理，并汇报值班调度员；

（二）双通道中断，相关站点控制功能失效，值班调度员应当按照安控退出方式控制天中直流功率；

（三）通道恢复后，应当经通道测试正常并核对装置状态后，方可恢复原控制方式。

第二十八条 天中直流功率调制功能的投退由国调值班调度员统一指挥。功率调制功能动作后，换流站应当立即汇报直流功率变化情况，未经许可不得自行恢复调制前功率。

## 第六章 异常与故障处理

第二十九条 安控装置发生异常告警时，运维单位应当立即检查装置运行状态，判断异常性质，并在 15 分钟内向值班调度员汇报。母线失压引起的告警按本规定第三十二条处理。可能造成装置误动的，应当申请退出相应出口压板。

第三十条 安控装置动作后，运维单位应当立即检查一次设备及装置动作情况，及时向值班调度员汇报动作时间、动作策略、切除对象及切除量，并在 24 小时内上报动作分析报告。动作记录格式见附录D，动作评价按照本规定第四十一条执行。

第三十一条 安控装置拒动或误动时，值班调度员应当根据电网实际情况采取人工切机、切负荷或调整运行方式等措施，防止事故扩大，并通知相关单位保存现场记录、录波和装置报文。

第三十二条 母线失压时，按照下列原则处理：

（一）厂站运行值班人员应当立即检查母线及所连设备，判明失压原因，并立即报告值班调度员；

（二）母线失压造成安控装置采集量异常的，应当立即申请退出可能误动的出口压板；

（三）因母线失压导致安控系统切负荷的，在失压原因查明、隔离故障后，经值班调度员同意方可恢复被切负荷；

（四）特高压变电站母线失压时，相关稳控系统应当按照失压后的运行方式切换控制策略。

第三十三条 站用电全部失去或直流电源消失，可能导致安控装置失电的，运维单位应当立即汇报值班调度员，值班调度员应当视情况将相关直流或断面功率控制在安控退出方式下的限额以内。

第三十四条 安控装置故障需退出运行处理时，运维单位应当向值班调度员提出申请，说明故障现象、影响范围和预计处理时间。处理完毕后，应当进行相应的检验，确认正常后申请恢复运行。

第三十五条 发生下列情况之一的，运维单位应当立即退出相应安控装置出口压板，并汇报值班调度员：

（一）装置发出“装置闭锁”“出口异常”等严重告警；

（二）装置频繁启动或采集量明显异常；

（三）装置定值或控制策略与定值单不一致；

（四）其他可能造成装置误动的情况。

## 第七章 定值与策略管理

第三十六条 安控装置定值和控制策略由相应调控中心按照调度管辖范围负责计算和下达。定值计算应当依据年度运行方式和安全稳定计算分析结果，并考虑新设备投运、检修方式等因素。定值区切换后的核对按照本规定第二十二条执行，详见第四章。

第三十七条 定值单执行后，运维单位应当在规定期限内完成回执，回执内容包括执行时间、执行人、核对人和装置打印定值。

第三十八条 控制策略调整涉及多个调控中心的，由上级调控中心统一组织，各相关调控中心应当按照统一时间执行，防止出现策略不匹配。

## 第八章 检验与运行评价

第三十九条 安控装置应当按照有关检验规程开展定期检验，全部检验周期一般不超过 6 年，部分检验周期一般不超过 3 年。检验结束后，运维单位应当提交检验报告。

第四十条 调控中心应当每季度开展安控装置运行统计分析，统计内容包括装置投运率、正确动作率、缺陷数量及处理及时率等。

第四十一条 安控装置正确动作率考核按照“一次动作一次评价”的原则进行。误动、拒动应当查明原因，明确责任，制定整改措施。

## 第九章 附则

第四十二条 本规定由国调中心负责解释。

第四十三条 本规定自发布之日起施行。
`;

// ---------------------------------------------------------------- wengui_2024 prose
const WENGUI_TITLE = '特高压互联电网稳定及无功电压调度运行规定（演示）';
const WENGUI_BODY = `
## 第一章 总则

第一条 为了规范特高压交直流互联电网稳定运行及无功电压调度管理，明确稳定限额、无功配置和电压控制的原则与要求，保障电网安全稳定运行和电能质量，根据《电力系统安全稳定导则》《电力系统电压和无功电力技术导则》等有关规定，制定本规定。

第二条 本规定适用于国调中心直调的特高压交流输电系统、特高压直流输电系统及与之相连的 750 千伏、500 千伏主网架的稳定限额管理和无功电压调度运行。

第三条 本规定所称稳定限额，是指为保证电网在规定的故障扰动下保持稳定，对输电断面、线路或直流输送功率规定的最大允许值，分为静态稳定限额、暂态稳定限额和动态稳定限额。

第四条 电网调度运行坚持“安全第一、预防为主”的方针。任何单位和个人不得擅自超越稳定限额运行；确因特殊情况需要临时调整限额的，应当经国调中心组织计算校核并书面批准。

## 第二章 稳定限额管理

第五条 稳定限额由国调中心按照调度管辖范围组织计算，每年结合年度运行方式滚动修订；新设备投运或电网结构发生重大变化时，应当及时补充计算并下达临时限额。限额计算条件见附录B。

第六条 稳定限额计算应当考虑下列因素：

（一）正常运行方式和主要检修方式；

（二）N-1、N-2 及同杆并架双回线故障；

（三）特高压直流单极闭锁、双极闭锁及换相失败；

（四）新能源出力波动及低电压穿越特性；

（五）安控装置的投退状态及控制措施。

第七条 特高压交流断面的稳定限额以有功功率表示。晋东南—南阳—荆门特高压交流断面正常方式下的稳定限额为 5000 兆瓦；任一回特高压线路检修时，限额按附录中检修方式限额表执行。主要输电断面稳定限额见表C.1，逐月限额见表C.3。

第八条 天中直流稳定限额按照送端配套电源、安控系统状态和受端电网接纳能力综合确定：

（一）双极全压运行且安控系统切机功能投入时，最大输送功率为 8000 兆瓦；

（二）安控系统切机功能退出时，最大输送功率为 4500 兆瓦；

（三）单极运行时，最大输送功率为 4000 兆瓦；

（四）送端哈南750千伏母线检修期间，最大输送功率按附录 C 表 C.2 执行。

第九条 值班调度员应当实时监视各输电断面潮流。断面潮流超过稳定限额时，应当立即采取调整发电出力、调整直流功率、转移负荷等措施，在 15 分钟内将断面潮流控制在限额以内。

第十条 稳定限额与安控装置状态相关联的，安控装置投退状态变化前，值班调度员应当先将相关断面潮流调整至新的限额以内，再许可安控装置退出。

第十条之一 特高压直流发生换相失败后，值班调度员应当检查受端交流电压恢复情况；连续两次换相失败的，应当降低直流输送功率并通知相关单位检查。

## 第三章 无功电压管理

第十一条 无功电压管理遵循“分层分区、就地平衡”的原则。各级调控中心应当按照调度管辖范围，负责所辖电网的无功平衡和电压调整。

第十二条 特高压交流变电站 1000 千伏母线正常运行电压应当控制在 1000 千伏至 1070 千伏之间，最高运行电压不得超过 1100 千伏；500 千伏母线电压应当控制在 500 千伏至 550 千伏之间。

第十三条 电压监视控制点由国调中心确定并下达电压曲线。厂站运行值班人员应当按照电压曲线调整无功补偿设备和发电机无功出力，电压越限时应当立即汇报值班调度员。各电压监视控制点的电压曲线见表D.1。

第十四条 特高压变电站低压电抗器、低压电容器的投切应当遵循下列原则：

（一）母线电压高于电压曲线上限时，先退出电容器，再投入电抗器；

（二）母线电压低于电压曲线下限时，先退出电抗器，再投入电容器；

（三）同一组无功补偿设备两次投切的时间间隔不得小于 5 分钟。

第十五条 特高压直流换流站应当按照交流滤波器配置要求投退滤波器组，保证换流站与交流系统无功交换量在规定范围内。直流功率调整时，应当同步调整滤波器和无功补偿装置。

第十六条 发电机组应当具备规定的进相运行能力。值班调度员可以根据电压控制需要，要求机组进相运行，机组进相深度不得超过经试验确定的限值。

第十七条 新能源场站应当配置动态无功补偿装置，并具备电压自动控制功能。新能源场站动态无功补偿装置退出运行的，应当汇报值班调度员并限制场站出力。

## 第四章 特高压系统运行控制

第十八条 特高压交流线路充电前，值班调度员应当校核充电端和末端电压，采取投入高压电抗器、调整送端电压等措施，防止线路末端电压越限。

第十九条 特高压交流线路合环、解环操作前，应当核算合环电流和解环后潮流分布，确认不超过设备限额和稳定限额。

第二十条 特高压直流功率升降应当按照调度计划曲线执行。计划外调整直流功率的，应当由国调值班调度员下达指令；功率调整速率一般不超过每分钟 100 兆瓦。

第二十一条 天中直流送端出现频率、电压异常时，值班调度员应当优先调整送端配套电源出力；必要时降低天中直流输送功率，并通知受端调控中心做好功率平衡。

第二十二条 特高压交流系统发生低频振荡时，值班调度员应当立即降低相关断面功率，检查电力系统稳定器投入情况，并组织分析振荡源。

## 第五章 检修与方式安排

第二十三条 特高压设备检修应当纳入年度、月度检修计划。检修申请应当说明检修期间的稳定限额、无功电压控制措施和安控装置调整要求。

第二十四条 特高压设备检修期间，相关断面执行检修方式稳定限额。检修方式限额未经计算的，不得开工。检修方式限额详见第二章。

注：检修方式稳定限额以国调中心当月下达的限额单为准。

第二十五条 迎峰度夏、迎峰度冬等重要时段，应当严格控制特高压设备检修，确需检修的，应当经国调中心专题校核。

## 第六章 事故处理

第二十六条 特高压交流线路跳闸后，值班调度员应当根据安控装置动作情况和断面潮流，立即调整相关断面功率至跳闸后方式的稳定限额以内。

第二十七条 特高压直流闭锁后，值班调度员应当检查安控装置动作情况，核实切机、切负荷执行结果，控制相关交流断面潮流，并组织恢复直流运行。

第二十八条 电网电压异常降低危及稳定运行时，值班调度员应当立即投入无功补偿设备、增加发电机无功出力，必要时采取限制负荷措施。

第二十九条 母线失压后恢复送电时，应当先检查母线电压和相关线路无压，再按照调度指令逐步恢复，防止恢复过程中电压越限。母线失压涉及安控装置的，按照《安全自动装置调度运行管理规定（演示）》第三十二条执行。

## 第七章 附则

第三十条 本规定由国调中心负责解释。

第三十一条 本规定自发布之日起施行。
`;

// ---------------------------------------------------------------- generated appendices
interface Table {
  caption: string;
  headers: string[];
  rows: string[][];
  widths: number[]; // relative column widths for the PDF
  /** 注 / 注1 … printed right under the table */
  notes?: string[];
}

const FUNCTIONS_BY_TYPE: Record<(typeof DEVICE_TYPES)[number], readonly string[]> = {
  稳控装置主站: ['天中直流双极闭锁切机', '天中直流单极闭锁切机', '晋东南—南阳—荆门特高压N-2切机'],
  稳控装置子站: ['豫北—南阳线路N-2切负荷', '哈南—敦煌双回N-2切机', '天中直流闭锁信息转发'],
  稳控装置执行站: ['电厂切机执行', '新能源汇集站切机执行', '母线失压切负荷执行'],
  低频低压减载装置: ['低频减载第一轮', '低频减载特殊轮', '低压减载第二轮'],
  失步解列装置: ['晋东南—南阳—荆门特高压失步解列', '哈南—敦煌750kV失步解列'],
  过载联切装置: ['哈南站主变过载联切', '敦煌—酒泉断面过载切机', '电厂送出线路N-1切机'],
  直流功率调制装置: ['直流功率紧急提升', '直流功率紧急回降'],
  备用电源自投装置: ['站用电备自投', '母线失压备自投'],
};

function deviceLedger(): Table {
  const r = rng(2024);
  const rows: string[][] = [];
  let n = 1;
  for (const station of STATIONS) {
    const kinds = 2 + Math.floor(r() * 3);
    const converter = station.includes('换流站');
    for (let k = 0; k < kinds; k++) {
      const type = k === 0 && converter ? '稳控装置主站' : k === 0 && station.includes('电厂') ? '稳控装置执行站' : pick(r, DEVICE_TYPES);
      const fn = pick(r, FUNCTIONS_BY_TYPE[type]);
      const maker = pick(r, MAKERS);
      const model = pick(r, MODELS);
      const year = `20${String(10 + Math.floor(r() * 14)).padStart(2, '0')}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}`;
      const owner = station.includes('1000kV') || converter ? '国调' : pick(r, ['国调', '分中心', '省调']);
      // protection-grade devices come in A/B pairs with the same function
      for (const set of type.startsWith('稳控') || type === '失步解列装置' ? ['A套', 'B套'] : ['']) {
        rows.push([String(n++), station, `${type}${set}`, `${maker} ${model}`, fn, owner, year]);
      }
    }
  }
  return {
    caption: '表A.1 安全自动装置台账',
    headers: ['序号', '厂站', '装置名称', '厂家及型号', '主要功能', '调度管辖', '投运时间'],
    rows,
    widths: [5, 18, 17, 15, 25, 8, 10],
    notes: ['注：调度管辖栏中“国调”指国调中心直调装置，“分中心”“省调”指许可或委托管理的装置。'],
  };
}

function strapTable(): Table {
  const r = rng(7);
  const rows: string[][] = [];
  for (const station of STATIONS.slice(0, 20)) {
    for (const set of ['A套', 'B套']) {
      const straps = STRAPS.filter(() => r() > 0.3);
      for (const strap of straps) {
        const normal = strap.includes('检修') ? '退出' : '投入';
        rows.push([station, `稳控装置${set}`, `${set.slice(0, 1)}-${strap}`, normal, strap.includes('出口') ? '一次设备检修或装置异常时退出' : strap.includes('检修') ? '装置检修时投入' : '—']);
      }
    }
  }
  return {
    caption: '表B.1 稳控装置压板正常投退状态',
    headers: ['厂站', '装置', '压板名称', '正常状态', '投退说明'],
    rows,
    widths: [22, 16, 24, 10, 28],
    notes: ['注1：“正常状态”为装置正常运行时的压板状态；一次设备检修时出口压板按本规定第二十条操作。', '注2：压板名称前的“A-”“B-”分别表示 A 套、B 套装置的压板。'],
  };
}

function strategyTable(): Table {
  const r = rng(99);
  const rows: string[][] = [];
  const faults = ['天中直流单极闭锁', '天中直流双极闭锁', '哈南—敦煌双回N-2', '豫北—南阳单回N-1', '天山站母线失压', '中州站母线失压', '晋东南—南阳线路跳闸'];
  for (const fault of faults) {
    for (const level of [3000, 4500, 6000, 7000, 8000]) {
      const cut = Math.round(level * (fault.includes('双极') ? 0.55 : fault.includes('单极') ? 0.3 : 0.15) + r() * 200);
      rows.push([fault, `${level}`, fault.includes('失压') ? '切负荷' : '切机', `${cut}`, pick(r, ['花园电厂、哈密热电厂', '大南湖电厂、国投哈密电厂', '神火电厂、沁北电厂', '豫北地区可切负荷', '三塘湖新能源汇集站'])]);
    }
  }
  return {
    caption: '表A.2 天中直流安控系统控制策略表（摘要）',
    headers: ['故障形态', '直流功率(MW)', '措施', '控制量(MW)', '执行对象'],
    rows,
    widths: [24, 14, 10, 14, 38],
    notes: ['注1：控制量为演示数值，实际以调控中心下达的控制策略表为准。', '注2：直流功率指故障前天中直流双极输送功率，介于两档之间时按较高一档执行。'],
  };
}

function limitTables(): Table[] {
  const r = rng(1000);
  const sections = [
    '晋东南—南阳—荆门特高压断面', '豫北—南阳特高压断面', '哈南—敦煌750kV断面', '敦煌—酒泉750kV断面', '天中直流送端断面', '中州站近区500kV断面',
    '郑州—嵩山500kV断面', '洛北—邵陵500kV断面', '香山—武陟500kV断面', '获嘉—牡丹500kV断面', '周口—信阳500kV断面', '白河—驻马店500kV断面',
  ];
  const modes = ['正常方式', '任一回线路检修', '主变一台检修', '母线检修', '安控切机功能退出', '迎峰度夏高峰', '迎峰度冬高峰', '新能源大发'];
  const rows: string[][] = [];
  for (const s of sections) {
    const base = s.includes('特高压') ? 5000 : s.includes('750') ? 3600 : 2400;
    for (const m of modes) {
      const f = m === '正常方式' ? 1 : m.includes('检修') ? 0.7 + r() * 0.1 : m.includes('退出') ? 0.6 : 0.9 + r() * 0.08;
      const limit = Math.round((base * f) / 50) * 50;
      rows.push([s, m, `${limit}`, pick(r, ['暂态稳定', '暂态稳定', '静态稳定', '动态稳定', '热稳定']), pick(r, ['N-1', 'N-2', '直流双极闭锁', '同杆双回故障'])]);
    }
  }
  const dc: string[][] = [];
  const dcModes = ['双极全压，安控投入', '双极全压，安控切机退出', '单极大地回线', '单极金属回线', '双极降压', '哈南750kV母线检修', '哈南—敦煌一回检修', '中州站一台换流变检修'];
  for (const m of dcModes) {
    for (const season of ['春季', '夏季', '秋季', '冬季']) {
      const base = m.includes('安控切机退出') ? 4500 : m.includes('单极') ? 4000 : m.includes('降压') ? 5600 : m.includes('检修') ? 6000 : 8000;
      dc.push([m, season, `${base - (season === '夏季' && base > 6000 ? 300 : 0)}`, `${Math.round(base * 0.1)}`, pick(r, ['送端暂态稳定', '受端电压稳定', '送端频率稳定'])]);
    }
  }
  const volt: string[][] = [];
  for (const st of STATIONS.slice(0, 26)) {
    const uhv = st.includes('1000kV');
    const kv = uhv ? 1000 : st.includes('750') ? 750 : st.includes('换流站') ? 500 : 500;
    const lo = uhv ? 1020 : kv === 750 ? 760 : 510;
    const hi = uhv ? 1070 : kv === 750 ? 790 : 540;
    for (const period of ['高峰', '腰荷', '低谷']) {
      const d = period === '低谷' ? -5 : period === '高峰' ? 5 : 0;
      volt.push([st, `${kv}kV`, period, `${lo + d}`, `${hi + d}`, uhv ? '低压电抗器/电容器' : pick(r, ['发电机无功', '低压电容器', 'SVC', '调相机'])]);
    }
  }
  return [
    {
      caption: '表C.1 主要输电断面稳定限额',
      headers: ['断面', '运行方式', '稳定限额(MW)', '限制因素', '校核故障'],
      rows,
      widths: [30, 20, 14, 14, 22],
      notes: ['注：“校核故障”为确定该限额的主导故障；限额计算条件见附录B。'],
    },
    {
      caption: '表C.2 天中直流输送功率限额',
      headers: ['运行方式', '季节', '最大功率(MW)', '调整步长(MW)', '限制因素'],
      rows: dc,
      widths: [32, 10, 18, 16, 24],
      notes: ['注1：安控系统切机功能退出时，天中直流输送功率按本规定第八条执行。', '注2：调整步长为值班调度员单次调整直流功率的最大值。'],
    },
    {
      caption: '表D.1 电压监视控制点电压曲线',
      headers: ['厂站', '电压等级', '时段', '下限(kV)', '上限(kV)', '主要调压手段'],
      rows: volt,
      widths: [28, 12, 10, 12, 12, 26],
      notes: ['注：电压曲线按季节滚动修订，以国调中心下达的为准；电压越限处理按照本规定第十三条执行。'],
    },
  ];
}


function settingTable(): Table {
  const r = rng(31);
  const items: [string, string, () => string][] = [
    ['直流闭锁判别功率门槛', 'MW', () => String(200 + Math.round(r() * 10) * 50)],
    ['功率突变量启动定值', 'MW', () => String(100 + Math.round(r() * 6) * 50)],
    ['线路过载动作定值', 'A', () => String(2000 + Math.round(r() * 30) * 50)],
    ['过载动作延时', 's', () => (0.5 + Math.round(r() * 10) / 10).toFixed(1)],
    ['低频启动定值', 'Hz', () => (49.5 - Math.round(r() * 3) / 10).toFixed(2)],
    ['低压启动定值', 'kV', () => String(Math.round(0.8 * 525 + r() * 20))],
    ['通道中断告警延时', 'ms', () => String(10 + Math.round(r() * 4) * 5)],
    ['切机容量上限', 'MW', () => String(600 + Math.round(r() * 20) * 100)],
    ['切负荷容量上限', 'MW', () => String(300 + Math.round(r() * 10) * 100)],
    ['策略判别时间窗', 'ms', () => String(40 + Math.round(r() * 4) * 10)],
  ];
  const rows: string[][] = [];
  for (const station of STATIONS) {
    for (const set of ['A套', 'B套']) {
      for (const [name, unit, value] of items) {
        if (r() < 0.25) continue;
        rows.push([station, `稳控装置${set}`, name, value(), unit, pick(r, ['01区', '01区', '02区'])]);
      }
    }
  }
  return {
    caption: '表C.1 稳控装置主要定值清单',
    headers: ['厂站', '装置', '定值项', '定值', '单位', '定值区'],
    rows,
    widths: [26, 16, 28, 10, 8, 12],
    // no notes here: the table fills its last page, a note would push 附录D (and 表D.1) one page on
  };
}

function actionRecords(): Table {
  const r = rng(2023);
  const rows: string[][] = [];
  for (let i = 0; i < 140; i++) {
    const month = 1 + Math.floor(r() * 12);
    const day = 1 + Math.floor(r() * 28);
    const station = pick(r, STATIONS);
    const fault = pick(r, ['线路N-1跳闸', '直流单极闭锁', '直流换相失败', '母线失压', '主变跳闸', '通道异常告警', '低频启动', '装置自检告警']);
    const result = fault.includes('告警') ? '未动作（告警）' : pick(r, ['正确动作', '正确动作', '正确动作', '正确不动作']);
    rows.push([`2023-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, station, fault, result, result === '正确动作' ? `${Math.round(100 + r() * 900)}MW` : '—']);
  }
  rows.sort((a, b) => a[0].localeCompare(b[0]));
  return {
    caption: '表D.1 2023 年安控装置动作记录',
    headers: ['日期', '厂站', '事件', '动作评价', '控制量'],
    rows,
    widths: [14, 28, 22, 20, 16],
    notes: ['注：控制量为动作时实际切除的机组或负荷功率，“—”表示未切除；动作评价按照本规定第四十一条执行。'],
  };
}

function monthlyLimits(): Table {
  const r = rng(12);
  const sections = ['晋东南—南阳—荆门特高压断面', '豫北—南阳特高压断面', '哈南—敦煌750kV断面', '敦煌—酒泉750kV断面', '天中直流送端断面', '中州站近区500kV断面', '郑州—嵩山500kV断面', '洛北—邵陵500kV断面', '香山—武陟500kV断面', '获嘉—牡丹500kV断面', '周口—信阳500kV断面', '白河—驻马店500kV断面'];
  const rows: string[][] = [];
  for (const s of sections) {
    const base = s.includes('特高压') ? 5000 : s.includes('750') ? 3600 : s.includes('直流') ? 8000 : 2400;
    for (let m = 1; m <= 12; m++) {
      const summer = m >= 6 && m <= 8 ? 0.94 : m === 12 || m <= 2 ? 0.97 : 1;
      for (const period of ['高峰', '低谷']) {
        const f = summer * (period === '低谷' ? 1.03 : 1) * (0.98 + r() * 0.04);
        rows.push([s, `${m}月`, period, `${Math.round((base * f) / 50) * 50}`, pick(r, ['暂态稳定', '静态稳定', '热稳定'])]);
      }
    }
  }
  return { caption: '表C.3 主要断面逐月稳定限额', headers: ['断面', '月份', '时段', '限额(MW)', '限制因素'], rows, widths: [36, 10, 10, 16, 28] };
}

function reactiveDevices(): Table {
  const r = rng(77);
  const rows: string[][] = [];
  for (const st of STATIONS.slice(0, 27)) {
    const groups = 4 + Math.floor(r() * 6);
    for (let g = 1; g <= groups; g++) {
      const kind = pick(r, st.includes('1000kV') ? ['低压电抗器', '低压电容器', '高压并联电抗器'] : ['低压电容器', '低压电抗器', 'SVC', '调相机']);
      const cap = kind === '调相机' ? 300 : kind === 'SVC' ? 120 + Math.round(r() * 4) * 20 : kind.includes('高压') ? 720 : 210 + Math.round(r() * 2) * 30;
      rows.push([st, `${kind}${g}号`, `${cap}Mvar`, pick(r, ['运行', '运行', '热备用', '冷备用']), pick(r, ['AVC自动', 'AVC自动', '人工'])]);
    }
  }
  return { caption: '表E.1 无功补偿设备配置', headers: ['厂站', '设备', '容量', '正常状态', '控制方式'], rows, widths: [32, 22, 14, 14, 18] };
}

// ---------------------------------------------------------------- Markdown (wengui)
/** One captioned pipe table; the importer repeats the header row on every page the table spans. */
function mdTable(t: Table): string {
  const notes = t.notes?.length ? ['', ...t.notes.flatMap((n) => [n, '']).slice(0, -1)] : [];
  return [`### ${t.caption}`, '', `| ${t.headers.join(' | ')} |`, `|${t.headers.map(() => ' --- ').join('|')}|`, ...t.rows.map((row) => `| ${row.join(' | ')} |`), ...notes, ''].join('\n');
}

function makeWengui(): string {
  const [limits, dc, volt] = limitTables();
  const ledger = deviceLedger();
  const parts = [
    `# ${WENGUI_TITLE}`,
    '',
    `> ${DEMO_NOTE}`,
    '',
    '国调中心 2024 年发布（演示）',
    '',
    WENGUI_BODY.trim(),
    '',
    '## 附录A 特高压主网架及主要厂站（演示）',
    '',
    '本附录列出本规定涉及的主要厂站及其安全自动装置配置，供调度运行人员查阅。',
    '',
    mdTable({ ...ledger, caption: '表A.1 主要厂站安全自动装置配置' }),
    '## 附录B 稳定限额计算条件（演示）',
    '',
    'B.1 稳定限额计算采用年度运行方式数据，负荷模型采用 40% 恒阻抗加 60% 感应电动机模型，新能源机组采用考虑低电压穿越特性的通用模型。',
    '',
    'B.2 暂态稳定判据：故障后系统功角摇摆第一、二摆稳定，母线电压在故障切除后 10 秒内恢复至 0.8 标幺值以上。',
    '',
    'B.3 动态稳定判据：系统阻尼比不小于 0.03，低频振荡模式在 20 秒内衰减。',
    '',
    '## 附录C 稳定限额表（演示）',
    '',
    mdTable(limits),
    mdTable(dc),
    mdTable(monthlyLimits()),
    '## 附录D 无功电压控制（演示）',
    '',
    mdTable(volt),
    '## 附录E 无功补偿设备（演示）',
    '',
    '本附录列出特高压及 500 千伏主要厂站无功补偿设备配置，无功补偿设备投切按照本规定第十四条执行。',
    '',
    mdTable(reactiveDevices()),
  ];
  return parts.join('\n') + '\n';
}

// ---------------------------------------------------------------- PDF (angui)
async function makeAnguiPdf(file: string): Promise<number> {
  const doc = new PDFDocument({ size: 'A4', margins: { top: 64, bottom: 64, left: 64, right: 64 }, info: { Title: ANGUI_TITLE, Author: 'GridCode 演示材料', Subject: DEMO_NOTE } , bufferPages: true });
  const stream = fs.createWriteStream(file);
  doc.pipe(stream);
  doc.registerFont('cjk', FONT, 'WenQuanYiMicroHei');
  doc.font('cjk');
  const width = doc.page.width - 128;

  doc.moveDown(6).fontSize(22).text(ANGUI_TITLE, { align: 'center' });
  doc.moveDown(2).fontSize(12).text('国调中心 2024 年发布（演示）', { align: 'center' });
  doc.moveDown(4).fontSize(10).fillColor('#a00').text(DEMO_NOTE, { align: 'center' }).fillColor('black');
  doc.addPage();

  let chapter: PDFKit.PDFOutline | null = null;
  for (const raw of ANGUI_BODY.trim().split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('## ')) {
      const title = line.slice(3);
      if (doc.y > doc.page.height - 200) doc.addPage();
      chapter = doc.outline.addItem(title);
      doc.moveDown(0.8).fontSize(15).text(title, { align: 'center' }).moveDown(0.4);
      continue;
    }
    doc.fontSize(11.5).text(line, { width, lineGap: 4, paragraphGap: 6, indent: /^（/.test(line) ? 23 : 0 });
    void chapter;
  }

  const appendix = (title: string, intro: string, tables: Table[]) => {
    doc.addPage();
    const item = doc.outline.addItem(title);
    doc.fontSize(15).text(title, { align: 'center' }).moveDown(0.5);
    doc.fontSize(11).text(intro, { width, lineGap: 3 }).moveDown(0.5);
    for (const t of tables) {
      item.addItem(t.caption);
      drawTable(doc, t, width);
    }
  };
  appendix('附录A 安全自动装置台账及控制策略（演示）', '本附录列出直调安全自动装置台账和天中直流安控系统控制策略摘要，装置名称、型号与数值均为演示数据。', [deviceLedger(), strategyTable()]);
  appendix('附录B 压板投退状态表（演示）', '本附录规定稳控装置各压板的正常投退状态。压板投退应当按照本规定第四章执行。', [strapTable()]);
  appendix('附录C 稳控装置定值清单（演示）', '本附录列出直调稳控装置主要定值。定值以调控中心下达的正式定值单为准，定值管理按照本规定第七章执行，定值区切换按本规定第二十二条执行。', [settingTable()]);
  appendix('附录D 安控装置动作记录（演示）', '本附录汇总 2023 年度直调安控装置动作情况，供运行评价和培训使用。', [actionRecords()]);

  // running footer with page numbers (pdf text import drops these as page furniture)
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.fontSize(9).text(`— ${i + 1} —`, 64, doc.page.height - 40, { width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await new Promise<void>((resolve) => stream.on('finish', () => resolve()));
  return range.count;
}

function drawTable(doc: PDFKit.PDFDocument, t: Table, width: number): void {
  const total = t.widths.reduce((a, b) => a + b, 0);
  const cols = t.widths.map((w) => (w / total) * width);
  const rowH = 18;
  const x0 = doc.page.margins.left;
  const header = (caption: string) => {
    doc.fontSize(11).text(caption, x0, doc.y, { width, align: 'center' });
    doc.moveDown(0.3);
    row(t.headers, true);
  };
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    let x = x0;
    cells.forEach((c, i) => {
      doc.rect(x, y, cols[i], rowH).lineWidth(0.5).stroke();
      // shrink long cells to fit their column instead of running into the next one
      let size = bold ? 9 : 8.5;
      doc.fontSize(size);
      while (size > 5.5 && doc.widthOfString(c) > cols[i] - 6) doc.fontSize((size -= 0.5));
      doc.text(c, x + 3, y + 4 + (8.5 - Math.min(size, 8.5)) / 2, { width: cols[i] - 6, lineBreak: false });
      x += cols[i];
    });
    doc.x = x0;
    doc.y = y + rowH;
  };
  header(t.caption);
  for (const r of t.rows) {
    if (doc.y + rowH > doc.page.height - doc.page.margins.bottom - 10) {
      doc.addPage();
      header(`${t.caption}（续）`);
    }
    row(r);
  }
  for (const note of t.notes ?? []) {
    doc.fontSize(9.5);
    if (doc.y + 14 > doc.page.height - doc.page.margins.bottom) doc.addPage();
    doc.text(note, x0, doc.y + 3, { width });
  }
  doc.moveDown(1);
}

// ---------------------------------------------------------------- info.json
const ANGUI_INFO = {
  reg_id: 'angui_2024',
  title: ANGUI_TITLE,
  source_file: 'angui_2024.pdf',
  description: '规定安全自动装置的配置、功能、投停操作及参数管理（演示）',
  keywords: ['安控装置', '稳控系统', '压板投退', '故障处理', '装置参数', '母线失压', '天中直流'],
  scope: '适用于涉及安控装置配置、压板操作、定值策略、异常与故障响应等问题',
};
const WENGUI_INFO = {
  reg_id: 'wengui_2024',
  title: WENGUI_TITLE,
  source_file: 'wengui_2024.md',
  description: '规定特高压互联电网稳定限额、无功电压控制及运行方式管理（演示）',
  keywords: ['特高压', '稳定限额', '无功电压', '电压曲线', '天中直流', '断面潮流', '检修方式'],
  scope: '适用于涉及特高压交直流稳定限额、断面潮流控制、无功补偿与电压调整等问题',
};

async function main(): Promise<void> {
  const anguiDir = path.join(outDir, 'angui_2024');
  const wenguiDir = path.join(outDir, 'wengui_2024');
  fs.mkdirSync(anguiDir, { recursive: true });
  fs.mkdirSync(wenguiDir, { recursive: true });
  const pages = await makeAnguiPdf(path.join(anguiDir, 'angui_2024.pdf'));
  fs.writeFileSync(path.join(anguiDir, 'info.json'), JSON.stringify({ ...ANGUI_INFO, total_pages: pages }, null, 2) + '\n');
  const md = makeWengui();
  fs.writeFileSync(path.join(wenguiDir, 'wengui_2024.md'), md);
  fs.writeFileSync(path.join(wenguiDir, 'info.json'), JSON.stringify(WENGUI_INFO, null, 2) + '\n');
  console.log(`angui_2024.pdf: ${pages} 页; wengui_2024.md: ${md.length} 字符`);
}

await main();
