import type { Command } from 'commander';
import { runOperation } from '../runtime';
import { renderTable } from '../format';

const TYPE_ZH: Record<string, string> = {
  article: '条款',
  clause: '条款',
  chapter: '章',
  section: '节',
  part: '编',
  appendix: '附录',
  table: '表格',
  note: '注释',
  regulation: '规程',
  unknown: '未识别',
};

/** gridcode tables / table / resolve: regulations as structure (tables, notes, references). */
export function registerStructureCommands(program: Command): void {
  program
    .command('tables')
    .description('列出规程中的表格（跨页表已合并） / list the tables of a regulation')
    .argument('<reg_id>')
    .action(async (regId: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.tables', { reg_id: regId }, (out) =>
        out.tables.length === 0
          ? `「${out.title}」中没有识别到表格`
          : renderTable(out.tables, [
              { header: '编号', value: (t) => t.table_id },
              { header: '标题', value: (t) => t.title, max: 30 },
              { header: '页码', value: (t) => (t.page_start === t.page_end ? `${t.page_start}` : `${t.page_start}–${t.page_end}`) },
              { header: '行数', value: (t) => t.row_count },
              { header: '表头', value: (t) => t.columns.join(' | '), max: 50 },
            ]) + `\n共 ${out.tables.length} 张表格`,
      );
    });

  program
    .command('figures')
    .description('列出规程中的图（图号、图题、页码、位置） / list the figures of a regulation')
    .argument('<reg_id>')
    .action(async (regId: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.figures', { reg_id: regId }, (out) =>
        out.figures.length === 0
          ? `「${regId}」中没有识别到图（图号以“图X-Y”开头的图题）`
          : renderTable(out.figures, [
              { header: '图号', value: (f) => f.figure_id },
              { header: '图题', value: (f) => f.caption, max: 30 },
              { header: '页码', value: (f) => f.page_num },
              { header: '引用', value: (f) => f.citing.length },
            ]) + `\n共 ${out.figures.length} 幅图`,
      );
    });

  program
    .command('table')
    .description('显示一张完整表格（跨页续表已合并，含注释） / show one whole table')
    .argument('<reg_id>')
    .argument('<table_id>', '表格编号，如 表A.1 / table id')
    .option('--tsv', '以制表符分隔输出（便于粘贴到表格软件） / print as TSV')
    .action(async (regId: string, tableId: string, opts: { tsv?: boolean }, cmd: Command) => {
      await runOperation(cmd, 'regulations.table', { reg_id: regId, table_id: tableId }, (t) => {
        if (opts.tsv) return [t.columns, ...t.rows.map((r) => r.cells)].map((r) => r.map((c) => c.replace(/[\t\n]/g, ' ')).join('\t')).join('\n');
        const pages = t.page_start === t.page_end ? `第 ${t.page_start} 页` : `第 ${t.page_start}–${t.page_end} 页`;
        const rows = t.rows.map((r) => ({ cells: r.cells, page: r.page_num }));
        return [
          `${t.table_id} ${t.title}（${t.regulation}，${pages}，共 ${t.row_count} 行）`,
          renderTable(rows, [...t.columns.map((c, i) => ({ header: c, value: (r: (typeof rows)[number]) => r.cells[i] ?? '', max: 30 })), { header: '页', value: (r) => r.page }]),
          ...t.notes.map((n) => `${n.label}：${n.text.replace(/^(注|说明|备注)\s*\d*\s*[:：．.、]\s*/, '')}`),
        ].join('\n');
      });
    });

  program
    .command('resolve')
    .description('解析引用（如“见附录D”“按本规程第三十二条执行”）到目标页 / resolve a cross-reference')
    .argument('<reg_id>')
    .argument('<reference>', '引用文字 / reference text')
    .action(async (regId: string, reference: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.resolve', { reg_id: regId, reference }, (r) =>
        r.resolved
          ? [`${TYPE_ZH[r.reference_type] ?? r.reference_type} ${r.target} → ${r.regulation ?? ''} 第 ${r.page_num}${r.page_end && r.page_end !== r.page_num ? `–${r.page_end}` : ''} 页`, r.preview ?? ''].join('\n')
          : `未能解析：${r.message ?? '没有找到目标'}`,
      );
    });
}
