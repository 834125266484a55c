import type { Command } from 'commander';
import type { ImportFileResult } from '../../core/regulations/importer';
import { runOperation, withContext } from '../runtime';
import { renderTable } from '../format';
import { FILE_FAULT_CODES, GridError, type ErrorCode } from '../../core/common/errors';
import { runLlmEnrich } from './llm';
import { fileAccessFor } from '../../core/common/file-access';

const STATUS_ZH: Record<string, string> = { imported: '已导入', replaced: '已更新', unchanged: '未变化', failed: '失败' };

function parsePage(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new GridError('INVALID_INPUT', `${name}「${value}」无效：应为从 1 开始的整数页码`);
  return n;
}

function parseOffset(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new GridError('INVALID_INPUT', `偏移「${value}」无效：应为不小于 0 的整数`);
  return n;
}

type ImportRow = ImportFileResult;

function renderImport(results: ImportRow[]): string {
  const count = (s: string) => results.filter((r) => r.status === s).length;
  const table = renderTable(results, [
    { header: '状态', value: (r) => STATUS_ZH[r.status] ?? r.status },
    { header: 'reg_id', value: (r) => r.reg_id ?? '-' },
    { header: '标题', value: (r) => r.title ?? '', max: 40 },
    { header: '页数', value: (r) => r.total_pages ?? '' },
    ...(results.some((r) => r.ocr_pages)
      ? [{ header: 'OCR 页', value: (r: ImportRow) => (r.ocr_pages ? `${r.ocr_pages}（置信度 ${Math.round((r.ocr_confidence ?? 0) * 100)}%）` : '') }]
      : []),
    { header: '文件', value: (r) => r.file, max: 50 },
  ]);
  const errors = [
    ...results.filter((r) => r.status === 'failed').map((r) => `  ✗ ${r.error}`),
    ...results.filter((r) => r.warning).map((r) => `  ! ${r.reg_id}: ${r.warning}`),
    ...results.flatMap((r) => (r.notes ?? []).map((n) => `  ! ${r.reg_id}: ${n}`)),
    ...results.filter((r) => r.edition).map((r) => `  ◆ ${r.reg_id}: ${r.edition!.message}`),
  ];
  return [
    results.length > 30 ? '' : table,
    `共 ${results.length} 个文件：导入 ${count('imported')}，更新 ${count('replaced')}，未变化 ${count('unchanged')}，失败 ${count('failed')}`,
    ...errors,
  ]
    .filter(Boolean)
    .join('\n');
}

export function registerRegulationCommands(program: Command): void {
  program
    .command('import')
    .description('导入规程文件或文件夹（PDF/Markdown/TXT/DOCX，文件夹递归） / import regulation files or folders')
    .argument('<paths...>', '文件或文件夹 / files or folders')
    .option('--id <reg_id>', '指定规程 ID（仅单个文件） / explicit reg_id for a single file')
    .option('--title <title>', '指定标题，覆盖文件中的标题（仅单个文件） / title for a single file, overriding the one found in it')
    .option('--as-edition-of <reg_id>', '作为已导入规程的新版本（或旧版本）导入，按施行日期排定现行版 / import as an edition of this regulation')
    .option('--separate', '即使与已导入规程同名也单独保存，不合为版本 / keep apart from same-titled regulations')
    .action(async (paths: string[], opts: { id?: string; title?: string; asEditionOf?: string; separate?: boolean }, cmd: Command) => {
      const out = await runOperation(
        cmd,
        'regulations.import',
        { paths, id: opts.id, title: opts.title, edition_of: opts.asEditionOf, separate: opts.separate },
        renderImport,
        { progress: true },
      );
      // partial success (a folder with a few bad files) is success; nothing imported at all is not
      if (out.length === 0 || out.every((r) => r.status === 'failed')) process.exitCode = 1;
      // a file that failed for reasons not of its making (database busy, disk, internal) must not pass silently
      const notFileFault = out.filter((r) => r.status === 'failed' && !FILE_FAULT_CODES.includes((r.error_code ?? 'INTERNAL') as ErrorCode));
      if (notFileFault.length) {
        process.stderr.write(
          `错误：${notFileFault.length} 个文件不是因为文件本身的问题而未能导入（如数据库被其他程序占用），请稍后重新运行同一条 gridcode import 命令（已导入的文件会跳过）\n`,
        );
        process.exitCode = 1;
      }
    });

  program
    .command('list')
    .description('列出已导入的规程 / list imported regulations')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.list', {}, (rows) =>
        rows.length === 0
          ? '规程库为空。用 gridcode import <文件或文件夹> 导入，或 gridcode demo load 载入演示规程。'
          : renderTable(rows, [
              { header: 'reg_id', value: (r) => r.reg_id },
              { header: '标题', value: (r) => (r.is_demo ? `${r.title}` : r.title), max: 44 },
              { header: '页数', value: (r) => r.total_pages },
              { header: '格式', value: (r) => r.format },
              { header: '关键词', value: (r) => r.keywords.join('、'), max: 30 },
              { header: '导入时间', value: (r) => r.indexed_at.slice(0, 16).replace('T', ' ') },
            ]) + `\n共 ${rows.length} 部规程`,
      );
    });

  program
    .command('show')
    .description('显示一部规程的信息 / show one regulation')
    .argument('<reg_id>')
    .action(async (regId: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.get', { reg_id: regId }, (r) =>
        [
          `${r.title}${r.is_demo ? '（演示）' : ''}`,
          `reg_id:   ${r.reg_id}`,
          `文件:     ${r.source_file} (${r.format})`,
          `页数:     ${r.total_pages}    条款单元: ${r.unit_count}    目录条目: ${r.toc_count}`,
          `导入时间: ${r.indexed_at}`,
          `简介:     ${r.description ?? '-'}`,
          `关键词:   ${r.keywords.length ? r.keywords.join('、') : '-'}`,
          `适用范围: ${r.scope ?? '-'}`,
        ].join('\n'),
      );
    });

  program
    .command('toc')
    .description('显示规程目录 / show a regulation\'s table of contents')
    .argument('<reg_id>')
    .option('--depth <n>', '只显示前 n 层（目录树） / show n levels of the tree')
    .option('--expand <section>', '与 --depth 一起：完全展开这一章，如 第二章 / open this section fully')
    .action(async (regId: string, opts: { depth?: string; expand?: string }, cmd: Command) => {
      const depth = opts.depth === undefined ? undefined : Number(opts.depth);
      if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1)) throw new GridError('INVALID_INPUT', `层数「${opts.depth}」无效：应为正整数`);
      await runOperation(cmd, 'regulations.toc', { reg_id: regId, max_depth: depth, expand_section: opts.expand }, (out) => {
        if (!out.toc.length) return `${out.title}（共 ${out.total_pages} 页）\n（无目录）`;
        if (depth === undefined && !opts.expand) return [`${out.title}（共 ${out.total_pages} 页）`, ...out.toc.map((t) => `${'  '.repeat(t.level - 1)}${t.title}  …… ${t.page_num}`)].join('\n');
        type Node = (typeof out.tree)[number];
        const lines = (n: Node, d: number): string[] => [
          `${'  '.repeat(d)}${n.title}  …… ${n.page_start}${n.hidden_children ? `（另有 ${n.hidden_children} 个小节）` : ''}`,
          ...n.children.flatMap((c) => lines(c, d + 1)),
        ];
        return [`${out.title}（共 ${out.total_pages} 页）`, ...out.tree.flatMap((n) => lines(n, 0))].join('\n');
      });
    });

  program
    .command('read')
    .description('阅读规程页面 / read pages of a regulation')
    .argument('<reg_id>')
    .argument('<from>', '起始页 / first page')
    .argument('[to]', '结束页（含） / last page (inclusive)')
    .option('--offset <n>', '从起始页的第 n 个字开始（续读超长页） / character offset into the first page')
    .action(async (regId: string, from: string, to: string | undefined, opts: { offset?: string }, cmd: Command) => {
      const start = parsePage(from, '起始页');
      const end = to === undefined ? undefined : parsePage(to, '结束页');
      const offset = opts.offset === undefined ? undefined : parseOffset(opts.offset);
      await runOperation(cmd, 'regulations.read', { reg_id: regId, start, end, offset }, (out) => {
        const pages = out.pages.map((p) => {
          const part = p.offset !== undefined ? `（第 ${p.offset + 1}–${p.offset + [...p.text].length} 字，共 ${p.total_chars} 字）` : '';
          return `──── ${out.title} · 第 ${p.page_num}/${out.total_pages} 页${part} ────\n${p.text}`;
        });
        if (out.next) {
          const more = [out.next.start, out.next.end !== out.next.start ? out.next.end : null].filter((n) => n !== null).join(' ');
          pages.push(`（内容较长，未完；继续阅读：gridcode read ${out.reg_id} ${more}${out.next.offset !== undefined ? ` --offset ${out.next.offset}` : ''}）`);
        }
        return pages.join('\n\n');
      });
    });

  program
    .command('delete')
    .description('删除一部规程 / delete a regulation')
    .argument('<reg_id>')
    .action(async (regId: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.delete', { reg_id: regId }, (out) => `已删除规程 ${out.reg_id}`);
    });

  program
    .command('enrich-metadata')
    .description('生成规程元数据（简介、关键词、适用范围；默认离线，--llm 用大模型） / generate regulation metadata (offline, or --llm)')
    .argument('[reg_id]')
    .option('-a, --all', '处理全部规程 / all regulations')
    .option('--llm', '用大模型生成（需 DASHSCOPE_API_KEY；输出无效或失败时回退离线生成） / use the LLM, offline fallback')
    .action(async (regId: string | undefined, opts: { all?: boolean; llm?: boolean }, cmd: Command) => {
      if (!regId && !opts.all) throw new GridError('INVALID_INPUT', '请指定 reg_id 或使用 --all');
      if (opts.llm) return runLlmEnrich(cmd, opts.all ? { all: true } : { reg_id: regId });
      const render = (rows: { reg_id: string; title: string; description: string | null; keywords: string[]; scope: string | null }[]) =>
        rows.length > 50
          ? `已为 ${rows.length} 部规程生成元数据`
          : rows
              .map((r) => `✓ ${r.reg_id} ${r.title}\n  简介: ${r.description ?? '-'}\n  关键词: ${r.keywords.join('、') || '-'}\n  适用范围: ${r.scope ?? '-'}`)
              .join('\n');
      await runOperation(cmd, 'regulations.enrich', { reg_id: regId, all: opts.all }, render, { progress: true });
    });

  program
    .command('update-info')
    .description('修改规程元数据 / edit regulation metadata')
    .argument('<reg_id>')
    .option('--title <text>', '标题 / title')
    .option('--description <text>', '简介 / description')
    .option('--keywords <list>', '关键词，逗号或顿号分隔 / comma-separated keywords')
    .option('--scope <text>', '适用范围 / scope')
    .action(async (regId: string, opts: { title?: string; description?: string; keywords?: string; scope?: string }, cmd: Command) => {
      const keywords = opts.keywords?.split(/[,，、;；]/).map((k) => k.trim()).filter(Boolean);
      if (!opts.title && opts.description === undefined && !keywords && opts.scope === undefined) {
        throw new GridError('INVALID_INPUT', '请至少指定 --title / --description / --keywords / --scope 之一');
      }
      await runOperation(
        cmd,
        'regulations.update_info',
        { reg_id: regId, title: opts.title, description: opts.description, keywords, scope: opts.scope, source: 'manual' },
        (r) => `✓ ${r.reg_id} 元数据已更新\n  简介: ${r.description ?? '-'}\n  关键词: ${r.keywords.join('、') || '-'}\n  适用范围: ${r.scope ?? '-'}`,
      );
    });

  const info = program.command('info-json').description('导出/导入规程元数据 info.json / export or import info.json metadata');
  info
    .command('export')
    .argument('<dir>', '输出目录 / output folder')
    .argument('[reg_id]')
    .action(async (dir: string, regId: string | undefined, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.export_info', { dir, reg_id: regId }, (out) => `已导出 ${out.files.length} 个 info.json\n${out.files.join('\n')}`);
    });
  info
    .command('import')
    .argument('<path>', 'info.json 文件或目录 / file or folder')
    .action(async (p: string, _opts, cmd: Command) => {
      const out = await runOperation(cmd, 'regulations.import_info', { path: p }, (rows) =>
        rows.map((r) => (r.status === 'updated' ? `✓ ${r.reg_id}  ${r.file}` : `✗ ${r.error}`)).join('\n'),
      );
      if (out.some((r) => r.status === 'failed')) process.exitCode = 1;
    });

  program
    .command('demo')
    .description('演示内容 / demo content')
    .command('load')
    .description('导入内置演示规程 / load the bundled demo regulations')
    .action(async (_opts, cmd: Command) => {
      const out = await runOperation(cmd, 'regulations.demo_load', {}, renderImport, { progress: true });
      if (out.some((r) => r.status === 'failed')) process.exitCode = 1;
    });

  program
    .command('mcp')
    .description('启动 MCP 服务器（默认 stdio；--http 为可共享的 HTTP 服务） / start the MCP server (stdio, or streamable HTTP)')
    .option(
      '--allow-path <dir>',
      '允许读取该文件夹中的设备/用例文件（可多次；默认只允许数据目录与内置资源） / grant reads under DIR (repeatable)',
      (value: string, prev: string[]) => [...prev, value],
      [] as string[],
    )
    .option('--http', '通过 streamable HTTP 提供服务（需要令牌） / serve over streamable HTTP (token required)')
    .option('--port <n>', 'HTTP 端口（默认 8765） / HTTP port', '8765')
    .option('--host <addr>', '监听地址（默认仅本机 127.0.0.1） / listen address (default loopback)', '127.0.0.1')
    .option('--token <token>', '访问令牌（默认读取环境变量 GRIDCODE_MCP_TOKEN，否则随机生成） / access token')
    .action(async (opts: { allowPath: string[]; http?: boolean; port: string; host: string; token?: string }, cmd: Command) => {
      if (!opts.http) {
        const { runMcpServer } = await import('../../mcp/server');
        await withContext(cmd, async (ctx) => {
          // an agent drives this server: it reads files only under the data dir, resources and granted folders
          ctx.fileAccess = fileAccessFor([ctx.dataDir, ctx.resourcesDir, ...opts.allowPath]);
          await runMcpServer(ctx);
        });
        return;
      }
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new GridError('INVALID_INPUT', `--port「${opts.port}」无效：应为 0–65535 的整数`);
      const { startMcpHttpServer } = await import('../../mcp/http');
      await withContext(cmd, async (ctx) => {
        // remote agents read files only under the data dir, resources and granted folders
        ctx.fileAccess = fileAccessFor([ctx.dataDir, ctx.resourcesDir, ...opts.allowPath]);
        const svc = await startMcpHttpServer(ctx, { port, host: opts.host, token: opts.token ?? process.env.GRIDCODE_MCP_TOKEN });
        process.stderr.write(`MCP 服务已启动：${svc.url}\n`);
        if (!opts.token && !process.env.GRIDCODE_MCP_TOKEN) process.stderr.write(`访问令牌（请求头 Authorization: Bearer <令牌>）：${svc.token}\n`);
        if (opts.host !== '127.0.0.1' && opts.host !== 'localhost' && opts.host !== '::1') process.stderr.write('注意：服务监听在非本机地址，局域网内持有令牌者均可访问规程库\n');
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await svc.close();
      });
    });
}
