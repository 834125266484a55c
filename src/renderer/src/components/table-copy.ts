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

export interface HeaderCell {
  text: string;
  colSpan: number;
  rowSpan: number;
}

/**
 * A header printed over several lines comes back as one name per column, the levels joined by "·"
 * ("额定电压 kV·10", "额定电压 kV·35"). For display the levels stack again: neighbouring columns that
 * share a level (and every level above it) share one cell spanning them, and a column with fewer
 * levels ("序号") spans the rows below. A header without "·" is one row, as before.
 */
export function headerRows(columns: string[]): HeaderCell[][] {
  const levels = columns.map((c) => c.split('·').map((s) => s.trim()));
  const depth = Math.max(1, ...levels.map((l) => l.length));
  const rows: HeaderCell[][] = [];
  for (let d = 0; d < depth; d++) {
    const row: HeaderCell[] = [];
    for (let c = 0; c < columns.length; c++) {
      const lv = levels[c];
      if (d >= lv.length) continue;
      // the last level of a shallow column takes the remaining rows
      const rowSpan = d === lv.length - 1 ? depth - d : 1;
      // a group level spans its neighbours with the same levels down to here (leaves never merge)
      const prefix = lv.slice(0, d + 1).join('·');
      const sameGroup = (k: number) => rowSpan === 1 && levels[k].length > d + 1 && levels[k].slice(0, d + 1).join('·') === prefix;
      let span = 1;
      while (c + span < columns.length && sameGroup(c + span)) span++;
      row.push({ text: lv[d], colSpan: span, rowSpan });
      c += span - 1;
    }
    rows.push(row);
  }
  return rows;
}

/** Squashes a line for comparing printed text with stored cells: no spaces, pipes or Markdown marks. */
export function squashLine(line: string): string {
  return line.replace(/^#{1,6}\s+/, '').replace(/\*\*/g, '').replace(/[\s|｜]/g, '');
}
