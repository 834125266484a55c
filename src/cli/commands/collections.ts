import type { Command } from 'commander';
import { runOperation } from '../runtime';
import { renderTable } from '../format';
import type { ApiOutput } from '../../core/api/table';

type AskOut = ApiOutput<'collections.ask'>;

const LOCK_ZH: Record<string, string> = { locked: '已锁定', pending: '待选择', none: '未锁定' };
const INTENT_ZH: Record<string, string> = { ingredients: '原料', steps: '步骤', time: '时间', tools: '工具', general: '一般' };

function renderAsk(out: AskOut): string {
  const lines: string[] = [];
  lines.push(out.answer ?? '');
  const meta = [
    `会话 ${out.session_id} · 第 ${out.turn} 轮`,
    `锁定: ${LOCK_ZH[out.lock.state]}${out.lock.title ? `「${out.lock.title}」` : ''}`,
    out.route ? `追问: ${INTENT_ZH[out.route.intent]} → ${out.route.layer}${out.route.escalated ? '（已升级到全部证据）' : ''}` : '',
    out.switched ? '已切换文档' : '',
    out.session_expired ? '原会话已过期，已重新开始' : '',
  ].filter(Boolean);
  lines.push('', `— ${meta.join(' · ')}`);
  if (out.kind !== 'follow_up') lines.push(`继续追问: gridcode ask "<问题>" --collection ${out.collection} --session ${out.session_id}`);
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

  program
    .command('ask <question>')
    .description('向文档集合提问；用 --session 继续追问 / ask a collection; --session continues a conversation')
    .requiredOption('--collection <name>', '集合名称 / collection name')
    .option('--session <id>', '会话 ID（上一轮输出中给出） / session id from the previous answer')
    .action(async (question: string, opts: { collection: string; session?: string }, cmd: Command) => {
      const out = await runOperation(
        cmd,
        'collections.ask',
        { collection: opts.collection, question, session_id: opts.session },
        renderAsk,
      );
      if (out.code === 'LOW_EVIDENCE') process.exitCode = 0;
    });
}
