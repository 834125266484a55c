import type { Command } from 'commander';
import { runOperation } from '../runtime';

export function registerAppCommands(program: Command): void {
  program
    .command('info')
    .description('显示版本、数据目录与嵌入模型状态 / show versions, data dir and model status')
    .action(async (_opts, cmd: Command) => {
      await runOperation(cmd, 'app.info', { storage: true }, (info) =>
        [
          `GridCode ${info.version}`,
          `数据目录:   ${info.data_dir}`,
          `数据库版本: ${info.schema_version}`,
          `嵌入模型:   ${info.embedding_model.message}`,
          `检索模式:   ${info.search_mode === 'hybrid' ? '混合（关键词 + 语义）' : '仅关键词'}`,
          `Node ${info.versions.node} · SQLite ${info.versions.sqlite} · transformers.js ${info.versions.transformers ?? '-'} · onnxruntime ${info.versions.onnxruntime ?? '-'}`,
          info.data_dir_bytes !== undefined ? `占用空间:   ${megabytes(info.data_dir_bytes)}（${storageLine(info.storage ?? {}, info.index_files ?? {})}）` : '',
          info.config_warning ? `警告: ${info.config_warning}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });
}

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/** The biggest tables and the index files, e.g. `reg_units 78.3 MB · search_items 78.3 MB · 索引文件 99.0 MB`. */
function storageLine(tables: Record<string, number>, files: Record<string, number>): string {
  const top = Object.entries(tables)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, bytes]) => `${name} ${megabytes(bytes)}`);
  const indexBytes = Object.values(files).reduce((a, b) => a + b, 0);
  return [...top, `索引文件 ${megabytes(indexBytes)}`].join(' · ');
}
