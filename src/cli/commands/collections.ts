import path from 'node:path';
import readline from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import { reportError, runOperation, withContext } from '../runtime';
import { invokeOperation } from '../../core/api/invoke';
import type { AppContext } from '../../core/context';
import { PROFILE_ZH } from '../../core/collections/profile';
import labels from '../../core/collections/vocab/labels.json' with { type: 'json' };
import { renderTable } from '../format';
import type { ApiInput, ApiOutput } from '../../core/api/table';

type AskOut = ApiOutput<'collections.ask'>;

const LOCK_ZH: Record<string, string> = { locked: '已锁定', pending: '待选择', none: '未锁定' };

function renderAsk(out: AskOut, inSession = false): string {
  const lines: string[] = [];
  lines.push(out.answer ?? '');
  const meta = [
    `会话 ${out.session_id} · 第 ${out.turn} 轮`,
    `锁定: ${LOCK_ZH[out.lock.state]}${out.lock.title ? `「${out.lock.title}」` : ''}`,
    out.route ? `追问: ${(labels.intents as Record<string, string>)[out.route.intent] ?? out.route.intent} → ${out.route.layer}${out.route.escalated ? '（已升级到全部证据）' : ''}` : '',
    out.switched ? '已切换文档' : '',
    out.session_expired ? '原会话已过期，已重新开始' : '',
  ].filter(Boolean);
  lines.push('', `— ${meta.join(' · ')}`);
  if (out.suggestions.length) lines.push(`可以接着问: ${out.suggestions.join(' / ')}`);
  if (!inSession && out.kind !== 'follow_up') lines.push(`继续追问: gridcode ask "<问题>" --collection ${out.collection} --session ${out.session_id}`);
  return lines.join('\n');
}

export function registerCollectionCommands(program: Command): void {
  const collection = program.command('collection').description('文档集合：导入、列表、删除、会话 / document collections');

  collection
    .command('import <folder>')
    .description('把文件夹（递归 .md/.txt）导入为集合；重复导入只更新变化的文件 / import a folder as a collection')
    .requiredOption('--name <name>', '集合名称 / collection name')
    .action(async (folder: string, opts: { name: string }, cmd: Command) => {
      await runOperation(
        cmd,
        'collections.import',
        { folder, name: opts.name },
        (r) =>
          [
            `集合「${r.collection}」← ${r.source_dir}`,
            `文件 ${r.files}：新增 ${r.added}，更新 ${r.updated}，未变化 ${r.unchanged}，移除 ${r.removed}，跳过 ${r.skipped.length}`,
            `共 ${r.documents} 篇文档、${r.chunks} 个片段${r.vectors ? `，新生成向量 ${r.vectors}` : ''}`,
            ...r.skipped.slice(0, 20).map((s) => `  跳过 ${s.path}：${s.reason}`),
            r.skipped.length > 20 ? `  …另有 ${r.skipped.length - 20} 个文件被跳过` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        { progress: true },
      );
    });

  collection
    .command('list')
    .description('列出集合 / list collections')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'collections.list', {}, (r) =>
        r.collections.length === 0
          ? '还没有集合。用 gridcode collection import <文件夹> --name <名称> 导入。'
          : renderTable(r.collections, [
              { header: '名称', value: (c) => c.name },
              { header: '文档', value: (c) => c.documents },
              { header: '菜谱', value: (c) => c.recipes },
              { header: '片段', value: (c) => c.chunks },
              { header: '会话', value: (c) => c.sessions },
              { header: '来源', value: (c) => c.source_dir, max: 50 },
              { header: '更新时间', value: (c) => c.updated_at.slice(0, 16).replace('T', ' ') },
            ]),
      );
    });

  collection
    .command('delete <name>')
    .description('删除集合及其索引和会话 / delete a collection')
    .action(async (name: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'collections.delete', { name }, (r) => `已删除集合「${r.collection}」（${r.documents} 篇文档）`);
    });

  collection
    .command('session <id>')
    .description('查看（或 --reset 重置）问答会话 / inspect or reset an ask session')
    .option('--reset', '清除锁定与候选 / clear lock and candidates')
    .action(async (id: string, opts: { reset?: boolean }, cmd: Command) => {
      await runOperation(cmd, 'collections.session', { session_id: id, reset: opts.reset }, (s) =>
        [
          `会话 ${s.session_id} · 集合「${s.collection}」· 第 ${s.turn} 轮${s.expired ? ' · 已过期' : ''}`,
          `锁定: ${LOCK_ZH[s.lock.state]}${s.lock.title ? `「${s.lock.title}」` : ''}`,
          ...s.candidates.map((c) => `  ${c.option_id}. ${c.title}`),
          `最后活动 ${s.updated_at}，空闲到期 ${s.expires_at}`,
        ].join('\n'),
      );
    });

  collection
    .command('search <query>')
    .description('只检索不锁定：排序后的候选文档及得分 / ranked parent candidates with scores, no lock')
    .requiredOption('--collection <name>', '集合名称 / collection name')
    .option('--top-k <n>', '每个检索列表及融合后保留的片段数 / chunks per list (seed 003 top_k)', positiveInt)
    .option('--top-parents <n>', '返回的候选文档数 / candidates returned', positiveInt)
    .option('--log-dir <dir>', '日志目录（默认数据目录下 logs/） / JSONL log folder')
    .action(async (query: string, opts: { collection: string; topK?: number; topParents?: number; logDir?: string }, cmd: Command) => {
      await withContext(cmd, async (ctx) => {
        applyLogDir(ctx, opts.logDir);
        await runOperation(
          cmd,
          'collections.search',
          { collection: opts.collection, query, top_k: opts.topK, top_parents: opts.topParents },
          (r) =>
            [
              `「${r.query}」→ ${DECISION_ZH[r.decision]}（${r.reason}）`,
              r.candidates.length
                ? renderTable(r.candidates, [
                    { header: '文档', value: (c) => c.title, max: 30 },
                    { header: '综合分', value: (c) => c.overall_score.toFixed(3) },
                    { header: 'rrf_sum', value: (c) => c.rrf_sum.toFixed(4) },
                    { header: '最佳片段', value: (c) => c.max_chunk_score.toFixed(3) },
                    { header: '覆盖', value: (c) => `${c.coverage}/${c.total_chunks}` },
                    { header: '达标', value: (c) => (c.passes_coverage ? '是' : '否') },
                  ])
                : '没有候选。',
            ].join('\n'),
          { ctx },
        );
      });
    });

  collection
    .command('profile <name>')
    .description('查看或设置集合类型：recipes / regulations / generic / auto / show or set the profile')
    .option('--set <profile>', 'recipes（菜谱）、regulations（法规条款）、generic（通用）或 auto（重新识别）')
    .action(async (name: string, opts: { set?: string }, cmd: Command) => {
      await runOperation(cmd, 'collections.profile', { name, profile: opts.set }, (r) => `集合「${r.collection}」类型：${PROFILE_ZH[r.profile]}（${r.profile}）${r.profile !== r.detected ? `；自动识别为 ${r.detected}` : ''}`);
    });

  program
    .command('ask [question]')
    .description('向文档集合提问；不带问题则进入交互模式；用 --session 继续追问 / ask a collection (interactive without a question)')
    .requiredOption('--collection <name>', '集合名称 / collection name')
    .option('--session <id>', '会话 ID（上一轮输出中给出） / session id from the previous answer')
    .option('--top-k <n>', '每个检索列表及融合后保留的片段数 / chunks per list (seed 003 top_k)', positiveInt)
    .option('--top-parents <n>', '歧义时列出的候选数 / candidates listed when ambiguous', positiveInt)
    .option('--trace-id <id>', '追踪 ID（写入日志） / trace id for the logs')
    .option('--turn <n>', '对话轮次（默认会话的下一轮） / turn number', positiveInt)
    .option('--log-dir <dir>', '日志目录（默认数据目录下 logs/） / JSONL log folder')
    .action(async (question: string | undefined, opts: AskCliOptions, cmd: Command) => {
      await withContext(cmd, async (ctx) => {
        applyLogDir(ctx, opts.logDir);
        const input = (q: string, session?: string, turn?: number) => ({
          collection: opts.collection,
          question: q,
          session_id: session,
          top_k: opts.topK,
          top_parents: opts.topParents,
          trace_id: opts.traceId,
          turn,
        });
        if (question !== undefined && question.trim()) {
          const out = await runOperation(cmd, 'collections.ask', input(question, opts.session, opts.turn), renderAsk, { ctx });
          if (out.code === 'LOW_EVIDENCE' || out.code === 'NOT_FOUND') process.exitCode = 0;
          return;
        }
        await interactive(cmd, ctx, opts, input);
      });
    });
}

interface AskCliOptions {
  collection: string;
  session?: string;
  topK?: number;
  topParents?: number;
  traceId?: string;
  turn?: number;
  logDir?: string;
}

const DECISION_ZH: Record<string, string> = { locked: '锁定', ambiguous: '有歧义', low_evidence: '证据不足', not_found: '集合中没有' };

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`需要正整数，收到「${value}」`);
  return n;
}

/** --log-dir: the four JSONL logs go to this folder (created on first write). */
function applyLogDir(ctx: AppContext, dir: string | undefined): void {
  if (!dir) return;
  const abs = path.resolve(dir);
  const logs = ctx.config.collections.logs;
  logs.retrieval = path.join(abs, 'retrieval.jsonl');
  logs.lock = path.join(abs, 'lock.jsonl');
  logs.evidence = path.join(abs, 'evidence.jsonl');
  logs.generation = path.join(abs, 'generation.jsonl');
}

/**
 * seed 003 interactive mode: one question per line (stdin may be a pipe), one session for the
 * whole conversation, `退出` / `exit` / EOF ends it. With --json each answer is one JSON line.
 */
async function interactive(
  cmd: Command,
  ctx: AppContext,
  opts: AskCliOptions,
  input: (q: string, session?: string, turn?: number) => ApiInput<'collections.ask'>,
): Promise<void> {
  const json = !!cmd.optsWithGlobals().json;
  const tty = process.stdin.isTTY && !json;
  const rl = readline.createInterface({ input: process.stdin, output: tty ? process.stdout : undefined, terminal: tty });
  let session = opts.session;
  let turn = opts.turn;
  if (tty) process.stdout.write(`集合「${opts.collection}」问答（输入问题后回车；输入“退出”结束）\n`);
  if (tty) rl.setPrompt('问> ');
  if (tty) rl.prompt();
  for await (const line of rl) {
    const q = line.trim();
    if (/^(退出|exit|quit|bye|再见)$/i.test(q)) break;
    if (q) {
      try {
        const out = await invokeOperation(ctx, 'collections.ask', input(q, session, turn));
        session = out.session_id;
        if (turn !== undefined) turn++;
        if (json) process.stdout.write(JSON.stringify(out) + '\n');
        else process.stdout.write(`${renderAsk(out, true)}\n\n`);
      } catch (e) {
        reportError(e, json);
        process.exitCode = 0;
      }
    }
    if (tty) rl.prompt();
  }
  rl.close();
}
