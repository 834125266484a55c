import type { Command } from 'commander';
import { runOperation } from '../runtime';
import { renderTable } from '../format';
import { GridError } from '../../core/common/errors';

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

function positiveInt(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new GridError('INVALID_INPUT', `${what}「${value}」无效：应为正整数`);
  return n;
}

const pagesOf = (a: number, b: number) => (a === b ? `第 ${a} 页` : `第 ${a}–${b} 页`);

/**
 * gridcode tables / table / resolve / notes / chapters / similar / compare / context / page-info: regulations
 * as structure, the same operations as the MCP tools (every command takes --json).
 */
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
        const header = t.header_rows.length > 1 ? [`表头共 ${t.header_rows.length} 行：${t.header_rows.map((r) => r.filter(Boolean).join(' | ')).join(' ／ ')}`] : [];
        const merged = t.merged_cells.length ? [`合并单元格 ${t.merged_cells.length} 处（内容已填入所覆盖的每一行）`] : [];
        return [
          `${t.table_id} ${t.title}（${t.regulation}，${pages}，共 ${t.row_count} 行）`,
          ...header,
          ...merged,
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

  program
    .command('notes')
    .description('查找注释（注1=注一=注①，方案A=方案甲），可限定表格或条款 / look up notes of a regulation')
    .argument('<reg_id>')
    .argument('[label]', '注释编号，如 注1、注①、方案甲；不给则列出全部 / note label')
    .option('--table <table_id>', '只看这张表的注释 / only notes of this table')
    .option('--article <article>', '只看这一条的注释，如 第二十条 / only notes of this article')
    .option('--page <n>', '注释大约在第几页（同名注释取最近的） / page hint')
    .action(async (regId: string, label: string | undefined, opts: { table?: string; article?: string; page?: string }, cmd: Command) => {
      const input = { reg_id: regId, note: label, table_id: opts.table, article: opts.article, page_hint: opts.page === undefined ? undefined : positiveInt(opts.page, '页码') };
      await runOperation(cmd, 'regulations.notes', input, (out) =>
        out.notes.length === 0
          ? `没有找到${label ? `注释「${label}」` : '注释'}`
          : out.notes.map((n) => `${n.label}（第 ${n.page_num} 页，${n.target_type === 'table' ? `表格 ${n.target}` : n.target}）\n  ${n.text}`).join('\n') + `\n共 ${out.notes.length} 条注释`,
      );
    });

  program
    .command('chapters')
    .description('章节结构（每章起止页、条款数、所含表格） / chapter structure of a regulation')
    .argument('<reg_id>')
    .action(async (regId: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.chapters', { reg_id: regId }, (out) =>
        [
          `${out.title}（共 ${out.total_pages} 页）`,
          ...out.chapters.map(
            (c) =>
              `${'  '.repeat(c.level - 1)}${c.title}  ${pagesOf(c.page_start, c.page_end)}` +
              (c.article_count ? `，${c.article_count} 条（${c.first_article}${c.last_article !== c.first_article ? `–${c.last_article}` : ''}）` : '') +
              (c.table_ids.length ? `，表格 ${c.table_ids.join('、')}` : ''),
          ),
        ].join('\n'),
      );
    });

  program
    .command('similar')
    .description('查找相似内容：给一段文字，或 --reg 与 --section 指定某一条 / find similar content')
    .argument('[text]', '参考文字 / reference text')
    .option('--reg <reg_id>', '参考条款所在规程（与 --section 或 --block 一起） / regulation of the reference')
    .option('--section <section>', '参考条款或章节，如 第二十条 / reference article or chapter')
    .option('--block <block_id>', '参考内容块（检索结果的 unit_id） / reference block id')
    .option('--scope <reg_id>', "检索范围（缺省全部规程） / where to look (default all)")
    .option('-k, --top-k <n>', '返回条数（缺省 8） / number of results')
    .action(async (text: string | undefined, opts: { reg?: string; section?: string; block?: string; scope?: string; topK?: string }, cmd: Command) => {
      const input = {
        text,
        reg_id: opts.reg,
        section: opts.section,
        source_block_id: opts.block,
        scope: opts.scope ?? 'all',
        top_k: opts.topK === undefined ? undefined : positiveInt(opts.topK, '条数'),
      };
      await runOperation(cmd, 'regulations.similar', input, (out) =>
        [
          `参考：${out.reference.label ? `${out.reference.label}（第 ${out.reference.page_num} 页）` : out.reference.text.slice(0, 60)}`,
          out.results.length
            ? renderTable(out.results, [
                { header: '规程', value: (r) => r.title, max: 24 },
                { header: '页', value: (r) => r.page_num },
                { header: '位置', value: (r) => r.article ?? r.section, max: 24 },
                { header: '片段', value: (r) => r.snippet.replace(/\s+/g, ' '), max: 50 },
              ])
            : '没有找到相似的内容',
        ].join('\n'),
      );
    });

  program
    .command('compare')
    .description('对比同一规程（或两部规程）中的两处条文 / compare two sections')
    .argument('<reg_id>', '规程（两处都在其中；另一部用 --reg-b） / regulation')
    .argument('<section_a>', '第一处：条款/章节/表格，如 第二十条 / first section')
    .argument('<section_b>', '第二处 / second section')
    .option('--reg-b <reg_id>', '第二处所在的另一部规程 / regulation of the second section')
    .option('--no-tables', '章节中的表格不参与比较 / leave a chapter\'s tables out')
    .action(async (regId: string, a: string, b: string, opts: { regB?: string; tables: boolean }, cmd: Command) => {
      const input = { reg_id: regId, section_a: a, section_b: b, reg_id_b: opts.regB, include_tables: opts.tables };
      await runOperation(cmd, 'regulations.compare', input, (out) =>
        [
          `A：${out.a.label}（${out.a.regulation}，第 ${out.a.page_num} 页）`,
          `B：${out.b.label}（${out.b.regulation}，第 ${out.b.page_num} 页）`,
          `相似度 ${(out.similarity * 100).toFixed(1)}%`,
          `共同词：${out.common_terms.join('、') || '（无）'}`,
          `仅 A：${out.only_a.join('、') || '（无）'}`,
          `仅 B：${out.only_b.join('、') || '（无）'}`,
        ].join('\n'),
      );
    });

  program
    .command('context')
    .description('显示一个内容块及其前后内容（块号取自检索结果的 unit_id） / a block with its context')
    .argument('<reg_id>')
    .argument('<block_id>', '内容块（检索结果的 unit_id） / block id')
    .option('-n, --blocks <n>', '前后各几块（缺省 2） / blocks before and after')
    .action(async (regId: string, blockId: string, opts: { blocks?: string }, cmd: Command) => {
      const n = opts.blocks === undefined ? undefined : Number(opts.blocks);
      if (n !== undefined && !(Number.isInteger(n) && n >= 0)) throw new GridError('INVALID_INPUT', `块数「${opts.blocks}」无效：应为不小于 0 的整数`);
      await runOperation(cmd, 'regulations.block_context', { reg_id: regId, block_id: blockId, context_blocks: n }, (out) =>
        [
          `${out.source}（${out.active_chapters.map((c) => c.title).join(' > ') || '无章节'}）`,
          ...out.before_blocks.map((b) => `  ${b.text}`),
          `▶ ${out.target_block.text}`,
          ...out.after_blocks.map((b) => `  ${b.text}`),
          ...out.page_annotations.map((n) => `${n.label}：${n.text}`),
        ].join('\n'),
      );
    });

  program
    .command('page-info')
    .description('一页所属的章节（延续的与本页开始的） / the chapters a page lies in')
    .argument('<reg_id>')
    .argument('<page>', '页码 / page number')
    .action(async (regId: string, page: string, _opts, cmd: Command) => {
      await runOperation(cmd, 'regulations.page_chapters', { reg_id: regId, page_num: positiveInt(page, '页码') }, (out) =>
        [
          `第 ${out.page_num}/${out.total_pages} 页`,
          out.continued_chapters.length ? `延续：${out.continued_chapters.join(' > ')}` : '',
          out.new_chapters.length ? `本页开始：${out.new_chapters.join('、')}` : '',
          out.active_chapters.length ? '' : '（本页不属于任何章节）',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });
}
