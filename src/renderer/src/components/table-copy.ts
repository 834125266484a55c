/**
 * "复制表格": a whole table (header once, every row of every page) as TSV for spreadsheets or as a GFM
 * Markdown table for documents and chats. Cells are made single-line; TSV cells lose tabs, Markdown
 * cells escape pipes.
 */
export interface CopyableTable {
  table_id: string;
  title: string;
  columns: string[];
  rows: { cells: string[] }[];
}

const oneLine = (s: string) => s.replace(/\s*\r?\n\s*/g, ' ').trim();

export function tableToTsv(t: CopyableTable): string {
  const cell = (s: string) => oneLine(s).replace(/\t/g, ' ');
  return [t.columns, ...t.rows.map((r) => r.cells)].map((cells) => t.columns.map((_, i) => cell(cells[i] ?? '')).join('\t')).join('\n') + '\n';
}

export function tableToMarkdown(t: CopyableTable): string {
  const cell = (s: string) => oneLine(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|') || ' ';
  const line = (cells: string[]) => `| ${t.columns.map((_, i) => cell(cells[i] ?? '')).join(' | ')} |`;
  const caption = `${t.table_id} ${t.title}`.trim();
  return [...(caption ? [`**${caption}**`, ''] : []), line(t.columns), `| ${t.columns.map(() => '---').join(' | ')} |`, ...t.rows.map((r) => line(r.cells))].join('\n') + '\n';
}

/** Squashes a line for comparing printed text with stored cells: no spaces, pipes or Markdown marks. */
export function squashLine(line: string): string {
  return line.replace(/^#{1,6}\s+/, '').replace(/\*\*/g, '').replace(/[\s|｜]/g, '');
}
