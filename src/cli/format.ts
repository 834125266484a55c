import { lazyModule } from '../core/common/lazy';

// string-width compiles large Unicode-property regexes when it loads: only load it to format a table
const stringWidthModule = lazyModule<typeof import('string-width')>('string-width');
const stringWidth = (text: string): number => stringWidthModule().default(text);

/** Pads by display width so Chinese titles (2 columns per character) line up in terminals. */
export function padDisplay(text: string, width: number): string {
  const w = stringWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}

export function truncateDisplay(text: string, max: number): string {
  if (stringWidth(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (stringWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return out + '…';
}

export interface Column<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
  max?: number;
}

export function renderTable<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((row) =>
    columns.map((c) => {
      const v = c.value(row);
      const s = v === null || v === undefined ? '' : String(v).replace(/\s+/g, ' ');
      return c.max ? truncateDisplay(s, c.max) : s;
    }),
  );
  const widths = columns.map((c, i) => Math.max(stringWidth(c.header), ...cells.map((r) => stringWidth(r[i]))));
  const line = (vals: string[]) => vals.map((v, i) => padDisplay(v, widths[i])).join('  ').trimEnd();
  return [line(columns.map((c) => c.header)), line(widths.map((w) => '─'.repeat(w))), ...cells.map(line)].join('\n');
}
