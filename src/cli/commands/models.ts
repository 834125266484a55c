import type { Command } from 'commander';
import { runOperation } from '../runtime';
import { renderTable } from '../format';

const STATE_LABEL = { installed: '已安装', missing: '未安装', error: '错误' } as const;

export function registerModelCommands(program: Command): void {
  const models = program.command('models').description('嵌入模型：列出、状态、导入 / embedding models: list, status, import');

  models
    .command('list')
    .description('列出清单中的模型及安装状态 / list manifest models with installed state')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'models.list', {}, (out) => {
        if (out.models.length === 0) return `模型清单为空（${out.models_dir}/manifest.json）`;
        const table = renderTable(out.models, [
          { header: '', value: (m) => (m.active ? '*' : '') },
          { header: 'ID', value: (m) => m.id },
          { header: '维度', value: (m) => m.dims },
          { header: '池化', value: (m) => m.pooling },
          { header: '状态', value: (m) => STATE_LABEL[m.state] + (m.default ? '（默认）' : '') },
          { header: '位置', value: (m) => (m.location === 'user' ? '数据目录' : '安装目录') },
          { header: '说明', value: (m) => m.problem ?? m.description ?? '', max: 60 },
        ]);
        return `${table}\n\n安装目录模型: ${out.models_dir}\n导入的模型:   ${out.user_models_dir}`;
      });
    });

  models
    .command('status')
    .description('当前嵌入模型状态 / current embedding model status')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'models.status', {}, (s) =>
        [
          `状态: ${s.state === 'ready' ? (s.vectors?.missing ? '就绪（向量不完整）' : '就绪') : s.state === 'missing' ? '未安装' : '错误'}`,
          s.message,
          s.vectors ? `向量: ${s.vectors.items - s.vectors.missing} / ${s.vectors.items} 条${s.vectors.missing ? `，缺 ${s.vectors.missing} 条` : ''}` : '',
          s.model_id ? `缓存向量: ${s.cache_entries} 条` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });

  models
    .command('import <folder>')
    .description('导入手动拷贝的模型文件夹（含 config.json、tokenizer.json、onnx/model*.onnx）/ import a model folder')
    .option('--id <id>', '模型 id（默认为文件夹名）')
    .option('--pooling <mode>', '池化方式 mean 或 cls（默认读 1_Pooling/config.json，否则 mean）')
    .option('--query-prefix <text>', '查询前缀')
    .option('--passage-prefix <text>', '段落前缀')
    .option('--replace', '覆盖同 id 的已导入模型')
    .action(async (folder: string, opts: { id?: string; pooling?: string; queryPrefix?: string; passagePrefix?: string; replace?: boolean }, cmd: Command) => {
      await runOperation(
        cmd,
        'models.import',
        {
          folder,
          id: opts.id,
          pooling: opts.pooling as 'mean' | 'cls' | undefined,
          query_prefix: opts.queryPrefix,
          passage_prefix: opts.passagePrefix,
          replace: Boolean(opts.replace),
        },
        (out) =>
          [
            `已导入模型 ${out.model.id}（${out.model.dims} 维，${out.model.pooling} 池化，${out.files} 个文件，${(out.bytes / 1048576).toFixed(1)} MB）`,
            `位置: ${out.dir}`,
            out.status.message,
          ].join('\n'),
        { progress: true },
      );
    });

  models
    .command('adapt')
    .description('按本机资料库调整自带模型（新增词汇、重新生成向量；可用 models revert 恢复）/ adapt the shipped model to your library')
    .action(async (_opts, cmd: Command) => {
      await runOperation(
        cmd,
        'models.adapt',
        {},
        (out) =>
          [
            `已生成 ${out.model_id}（基于 ${out.base_id}，${out.chunks} 个段落，新增 ${out.new_words} 个词，用时 ${out.seconds} 秒）`,
            out.examples.length ? `新增词示例: ${out.examples.slice(0, 12).join('、')}` : '',
            out.confirmed_pairs ? `学习了 ${out.confirmed_pairs} 条确认命中（打开并留下阅读的检索结果），其中 ${out.query_words} 个词只出现在提问里` : '',
            `新生成向量 ${out.vectors} 条`,
            out.status.message,
            '恢复原模型: gridcode models revert',
          ]
            .filter(Boolean)
            .join('\n'),
        { progress: true },
      );
    });

  models
    .command('revert')
    .description('恢复到调整前的模型 / go back to the model before adapt')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'models.revert', {}, (out) => `已恢复为 ${out.model_id}（补齐向量 ${out.vectors} 条）\n${out.status.message}`, { progress: true });
    });

  models
    .command('embed')
    .description('为资料库中尚无向量的段落生成向量（换模型后）/ embed the library with the active model')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'models.embed_library', {}, (out) => `模型 ${out.model_id ?? '（无）'}：新生成向量 ${out.vectors} 条（${out.regulations} 部规程，${out.collections} 个集合）`, {
        progress: true,
      });
    });

  models
    .command('use <id>')
    .description('选择使用的嵌入模型（default 恢复清单默认）/ choose the embedding model')
    .action(async (id: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'models.select', { id: id === 'default' ? null : id }, (s) => s.message);
    });
}
