import type { Command } from 'commander';
import { runOperation } from '../runtime';

export function registerAppCommands(program: Command): void {
  program
    .command('info')
    .description('显示版本、数据目录与嵌入模型状态 / show versions, data dir and model status')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'app.info', {}, (info) =>
        [
          `GridCode ${info.version}`,
          `数据目录:   ${info.data_dir}`,
          `数据库版本: ${info.schema_version}`,
          `嵌入模型:   ${info.embedding_model.message}`,
          `检索模式:   ${info.search_mode === 'hybrid' ? '混合（关键词 + 语义）' : '仅关键词'}`,
          `Node ${info.versions.node} · SQLite ${info.versions.sqlite} · transformers.js ${info.versions.transformers ?? '-'} · onnxruntime ${info.versions.onnxruntime ?? '-'}`,
          info.config_warning ? `警告: ${info.config_warning}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });
}
