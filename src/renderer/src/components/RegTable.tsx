/**
 * A regulation table on one page, rendered from its stored structure: caption (with "（续）" on a
 * continuation page), the header on every page (a header printed over several lines stacks again, group
 * cells spanning their sub-columns), this page's rows, the table's notes printed here
 * (right under it), and "复制表格" (the whole table, all pages, as TSV or Markdown).
 */
import { useState, type ReactNode } from 'react';
import { api } from '../api/client';
import { toApiError } from '../api/errors';
import type { PageTableData } from './PageText';
import { copyText } from './clipboard';
import { headerRows, tableToMarkdown, tableToTsv } from './table-copy';
import { squashText } from './reader-logic';

export function RegTable({
  regId,
  table,
  mark,
  hit = false,
  hitRow = null,
  hitNote = null,
}: {
  regId: string;
  table: PageTableData;
  mark: (text: string, key: string) => ReactNode[];
  /** the search hit is this table */
  hit?: boolean;
  /** the hit's row (its cells): marked and scrolled to */
  hitRow?: string[] | null;
  /** the first characters of a note hit printed under this table: that note is marked */
  hitNote?: string | null;
}) {
  const noteLead = hitNote ? squashText(hitNote).slice(0, 12) : null;
  const rowKey = (cells: string[]) => cells.map((c) => c.replace(/\s+/g, '')).join('\u0000');
  const wantRow = hitRow ? rowKey(hitRow) : null;
  const [status, setStatus] = useState<string | null>(null);
  const copy = async (format: 'tsv' | 'markdown') => {
    setStatus('正在复制…');
    try {
      const whole = await api('regulations.table', { reg_id: regId, table_id: table.table_id });
      await copyText(format === 'tsv' ? tableToTsv(whole) : tableToMarkdown(whole));
      setStatus(`已复制 ${whole.table_id}（${whole.rows.length} 行，第 ${whole.page_start}–${whole.page_end} 页）${format === 'tsv' ? '，可粘贴到 Excel、WPS 等表格软件' : '为 Markdown 表格'}`);
    } catch (e) {
      setStatus(`复制失败：${toApiError(e).message}`);
    }
  };
  const caption = `${table.table_id.startsWith('T') && /^T\d+$/.test(table.table_id) ? '' : table.table_id} ${table.title}`.trim();
  return (
    <figure className={`blk blk-table reg-table-wrap${hit ? ' blk-hit' : ''}`} data-table-id={table.table_id} data-hit={hit ? 'true' : undefined}>
      <figcaption className="reg-table-caption">
        <span className="reg-table-title">
          {caption || '表格'}
          {table.continued ? '（续）' : ''}
        </span>
        <span className="muted small">
          第 {table.page_start}–{table.page_end} 页 · 共 {table.row_count} 行{table.continues ? ' · 下页续' : ''}
        </span>
        <span className="reg-table-actions" role="group" aria-label={`复制表格 ${table.table_id}`}>
          <button type="button" className="btn small" onClick={() => void copy('tsv')} title="复制整张表（所有页），可直接粘贴到 Excel、WPS 等表格软件">
            复制到表格软件
          </button>
          <button type="button" className="btn small" onClick={() => void copy('markdown')} title="复制整张表（所有页）为 Markdown 表格">
            复制为 Markdown
          </button>
        </span>
      </figcaption>
      <div className="reg-table-scroll">
        <table className="reg-table">
          <thead>
            {headerRows(table.columns).map((row, ri) => (
              <tr key={ri}>
                {row.map((c, i) => (
                  <th key={i} scope={c.colSpan > 1 ? 'colgroup' : 'col'} colSpan={c.colSpan > 1 ? c.colSpan : undefined} rowSpan={c.rowSpan > 1 ? c.rowSpan : undefined}>
                    {mark(c.text, `h${ri}-${i}`)}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.rows.map((r, ri) => (
              <tr key={ri} className={wantRow && rowKey(r.cells) === wantRow ? 'row-hit' : undefined} data-hit={wantRow && rowKey(r.cells) === wantRow ? 'true' : undefined}>
                {table.columns.map((_, ci) => (
                  <td key={ci}>{mark(r.cells[ci] ?? '', `r${ri}-${ci}`)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {table.notes.length ? (
        <div className="reg-table-notes">
          {table.notes.map((n, i) => (
            <p
              key={i}
              className={`reg-table-note${noteLead && squashText(n.text).includes(noteLead) ? ' blk-hit' : ''}`}
              data-note={n.label}
              data-hit={noteLead && squashText(n.text).includes(noteLead) ? 'true' : undefined}
            >
              {mark(n.text, `n${i}`)}
            </p>
          ))}
        </div>
      ) : null}
      {status ? (
        <div className="muted small" role="status">
          {status}
        </div>
      ) : null}
    </figure>
  );
}
