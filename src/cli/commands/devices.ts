import fs from 'node:fs';
import { actionLabel } from '../../core/devices/actions';
import { KIND_LABELS, OP_LABELS, SENSOR_LABELS, VALUE_CHECK_LABELS, reasonLabels, timingLabel } from '../../core/devices/labels';
import { TYPE_LABELS } from '../../core/devices/lexicon';
import path from 'node:path';
import type { Command } from 'commander';
import { invokeOperation } from '../../core/api/invoke';
import { GridError } from '../../core/common/errors';
import { conversationStateSchema } from '../../core/devices/types';
import { globalOptions, printJson, runOperation, withContext } from '../runtime';

interface DevicesOpts {
  devices?: string;
  llm?: boolean;
  state?: string;
  yaml?: boolean;
  json?: boolean;
}

function note(file: string | undefined): void {
  if (!file) process.stderr.write('未指定 --devices，使用演示家庭 resources/homes/demo-home.json\n');
}

function readState(file: string): unknown {
  if (!fs.existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new GridError('BAD_FILE', `会话状态文件 ${file} 不是有效的 JSON：${(e as Error).message}`);
  }
  const parsed = conversationStateSchema.safeParse(raw);
  if (!parsed.success) throw new GridError('BAD_FILE', `会话状态文件 ${file} 无效：${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

const Q_WORDS: Record<string, string> = { one: '一个', all: '全部', any: '任意一个', except: '除指定的以外全部' };

export function registerDeviceCommands(program: Command): void {
  const devices = program.command('devices').description('设备上下文检索与命名检查 / device-context retrieval and naming lint');

  devices
    .command('retrieve')
    .description('检索一句话涉及的设备（省略 --devices 时用演示家庭）/ retrieve the devices an utterance refers to')
    .argument('<utterance>', '用户的一句话，如 “打开客厅灯然后关闭卧室空调”')
    .option('--devices <file>', '设备文件（JSON；默认演示家庭）')
    .option('--state <file>', '会话状态文件：读取并写回，使“把它关了”跨调用生效')
    .option('--yaml', '只输出注入 system prompt 的 YAML')
    .option('--llm', '用大模型解析命令（需 DASHSCOPE_API_KEY；失败时回退到规则解析，meta.parser 会注明）')
    .option('--json', '输出 [{command, ir, selected, candidates, clarification, meta}]')
    .action(async (utterance: string, opts: DevicesOpts, cmd: Command) => {
      note(opts.devices);
      const json = opts.json || globalOptions(cmd).json;
      const state = opts.state ? readState(path.resolve(opts.state)) : undefined;
      const out = await withContext(cmd, (ctx) =>
        invokeOperation(ctx, 'devices.retrieve', { utterance, devices: opts.devices, ...(opts.llm ? { llm: true } : {}), ...(state ? { state } : {}) } as never),
      );
      if (opts.state) {
        const file = path.resolve(opts.state);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        // write-then-rename so an interrupted run never leaves half a state file
        fs.writeFileSync(file + '.tmp', JSON.stringify(out.state, null, 2));
        fs.renameSync(file + '.tmp', file);
      }
      if (json) return printJson(out.results);
      if (opts.yaml) return void process.stdout.write(out.yaml.endsWith('\n') ? out.yaml : out.yaml + '\n');
      const lines: string[] = [];
      const first = out.results[0]?.meta as { parser?: string; parser_error?: string } | undefined;
      if (first?.parser && first.parser !== 'rules') lines.push(`解析器: ${first.parser === 'llm' ? '大模型' : first.parser === 'rules-fallback' ? `规则（大模型不可用：${first.parser_error ?? ''}）` : '直接给出的命令'}`);
      out.results.forEach((r, i) => {
        const c = r.command;
        const action = actionLabel(c.a);
        lines.push(`命令 ${i + 1}: ${action}  房间=${c.s ?? '-'} 名称=${c.n ?? '-'} 类型=${c.t ? (TYPE_LABELS[c.t] ?? c.t) : '-'} 范围=${Q_WORDS[c.q] ?? c.q}${c.c ? ` 数量=${c.c}` : ''}${c.ref ? ' 指代=上一轮提到的设备' : ''}${c.x ? ` 除外=${c.x}` : ''}`);
        if (r.ir.value) {
          const v = r.ir.value;
          const check = r.meta.value_check?.[0];
          const n = v.number === null ? v.text : `${v.number}${v.unit ?? ''}`;
          const more = (r.ir.values ?? []).slice(1).map((x) => (x.number === null ? x.text : `${x.number}${x.unit ?? ''}`));
          lines.push(`  数值: ${v.relative ? (v.relative === 'up' ? '调高 ' : '调低 ') : ''}${n}${more.length ? `，${more.join('，')}` : ''}${check ? `（${VALUE_CHECK_LABELS[check.status]}${check.minimum !== null && check.maximum !== null ? ` ${check.minimum}–${check.maximum}${check.unit ?? ''}` : ''}）` : ''}`);
        }
        const timing = timingLabel(r.ir);
        if (timing) lines.push(`  ${timing}`);
        if (r.clarification) {
          lines.push(`  需要澄清: ${r.clarification.question}`);
          for (const o of r.clarification.options) lines.push(`    - ${o.label}  [${o.id}]`);
        } else if (!r.selected.length && !r.ir.timer && !r.ir.intent) lines.push('  未选中任何设备');
        for (const s of r.selected) lines.push(`  ✓ ${s.name}（${s.room ?? '无房间'}）[${KIND_LABELS[s.kind] ?? s.kind}:${s.id}] ${s.score.toFixed(2)}  依据：${reasonLabels(s.reasons)}`);
        const m = r.meta;
        if (m.scope_fallback) lines.push('  注意: 所说的房间里没有符合的设备，已在全屋范围内查找');
        if (m.name_room_fallback?.length) lines.push(`  按设备名中的房间词匹配: ${m.name_room_fallback.join(', ')}`);
        for (const cond of m.conditions ?? [])
          lines.push(`  条件 ${cond.room ?? ''}${SENSOR_LABELS[cond.sensor] ?? cond.sensor}${OP_LABELS[cond.op] ?? cond.op}${cond.value}${cond.unit ?? ''}: ${cond.status === 'met' ? '满足' : cond.status === 'not_met' ? '不满足' : '未知（交给 Agent 判断）'}${cond.reading !== null ? `（${cond.sensor_id} 读数 ${cond.reading}）` : ''}`);
      });
      lines.push('', out.yaml);
      process.stdout.write(lines.join('\n') + '\n');
    });

  devices
    .command('lint')
    .description('检查设备命名（读音相同、只差一字、名称含其他房间、裸类型词、重名、过长、像指令）')
    .option('--devices <file>', '设备文件（JSON；默认演示家庭）')
    .option('--json', 'JSON 输出')
    .action(async (opts: DevicesOpts, cmd: Command) => {
      note(opts.devices);
      const out = await runOperation(cmd, 'devices.lint', { devices: opts.devices }, (o) =>
        o.issues.length
          ? [`${o.devices_file}: ${o.issues.length} 个命名问题`, ...o.issues.map((i) => `[${i.severity === 'error' ? '错误' : '警告'}] ${i.rule}: ${i.message}\n    建议: ${i.suggestion}`)].join('\n')
          : `${o.devices_file}: 没有发现命名问题`,
        { ctx: undefined },
      );
      if (opts.json && !globalOptions(cmd).json) printJson(out);
    });

  devices
    .command('test')
    .description('运行用例文件并输出准确率 / run a case file and print accuracy')
    .argument('<cases>', '用例 YAML（utterance, prior, expect）')
    .option('--devices <file>', '设备文件（JSON；默认演示家庭）')
    .option('--json', 'JSON 输出')
    .action(async (cases: string, opts: DevicesOpts, cmd: Command) => {
      note(opts.devices);
      const out = await runOperation(cmd, 'devices.test', { cases, devices: opts.devices }, (o) =>
        [
          ...o.failures.map((f) => `✗ ${f.id} “${f.utterance}”: ${f.reason ?? ''}`),
          `准确率 ${(o.accuracy * 100).toFixed(1)}%（${o.passed}/${o.total}）`,
        ].join('\n'),
      );
      if (opts.json && !globalOptions(cmd).json) printJson(out);
      if (out.accuracy < 0.95) process.exitCode = 1;
    });

  devices
    .command('load')
    .description('校验/导入设备文件并输出统一格式 / validate or import a home file')
    .argument('<file>', 'JSON：设备数组、{devices,groups,scenes}、Home Assistant 导出或 SmartThings 设备列表')
    .option('--json', '输出统一格式的家庭 JSON')
    .action(async (file: string, opts: DevicesOpts, cmd: Command) => {
      const out = await runOperation(cmd, 'devices.load', { file }, (o) =>
        [`${o.file}: 格式 ${o.format}，${o.counts.rooms} 个房间、${o.counts.devices} 个设备、${o.counts.groups} 个分组、${o.counts.scenes} 个场景`, ...o.warnings.map((w) => `警告: ${w}`)].join('\n'),
      );
      if (opts.json && !globalOptions(cmd).json) printJson(out);
    });

  devices
    .command('parse')
    .description('把一句话解析为命令数组 {a,s,n,t,q,c}')
    .argument('<utterance>')
    .option('--devices <file>', '设备文件（JSON；默认演示家庭）')
    .option('--llm', '用大模型解析（需 DASHSCOPE_API_KEY；失败时回退到规则解析）')
    .action(async (utterance: string, opts: DevicesOpts, cmd: Command) => {
      await runOperation(cmd, 'devices.parse', { utterance, devices: opts.devices, ...(opts.llm ? { llm: true } : {}) }, (o) =>
        [
          o.parser === 'llm' ? '解析器: 大模型' : o.parser === 'rules-fallback' ? `解析器: 规则（大模型不可用：${o.parser_error ?? ''}）` : '',
          JSON.stringify(o.commands, null, 2),
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });
}
