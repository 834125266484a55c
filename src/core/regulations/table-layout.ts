import { cleanOcrColumns } from './table-cells';
import {
  assignTableIds,
  fillMergedCells,
  fillMergedDown,
  findTableSegments,
  looksLikeHeader,
  normalizeTableNumber,
  parseCaption,
  remapCells,
  repeatedHeaderLine,
  sameRow,
  type Caption,
  type Fragment,
  type Line,
  type PositionedLine,
  type TableInfo,
  type TableSegment,
  type MergedCell,
} from './tables';

/**
 * Tables laid out on pages — PDF text positions, or a TXT export whose columns are aligned by spaces —
 * stitched into whole tables: regions found per page (tables.ts), a region continuing the previous
 * page's table merged into it, and the lines handed on for block building with their table marks.
 */

/** One paragraph of a page; table lines remember their region and row (header lines: row < 0). */
export interface PagePara {
  text: string;
  seg?: { seg: TableSegment; row: number };
}

/** "单位：MW", "(单位: kV)": a unit line printed between a caption and its table */
export const UNIT_LINE_RE = /^[（(]?\s*单位\s*[:：]\s*\S{1,16}\s*[)）]?$/;
/** "— 3 —", "第 3 页", "3/12": a page number line */
export const PAGE_NUMBER_RE = /^[-—–_\s]*(?:第\s*)?\d{1,4}\s*(?:页)?(?:\s*[/／共]\s*\d{1,4}\s*页?)?[-—–_\s]*$/;

/** A page's lines -> paragraphs (outside tables, by `paragraphs`), one per table header line and row. */
export function segmentParas<L extends PositionedLine>(lines: L[], segs: TableSegment[], paragraphs: (part: L[]) => string[]): PagePara[] {
  const out: PagePara[] = [];
  let at = 0;
  for (const seg of [...segs, null]) {
    const end = seg ? seg.from : lines.length;
    out.push(...paragraphs(lines.slice(at, end)).map((text) => ({ text })));
    if (!seg) break;
    seg.header?.lines.forEach((cells, k) => out.push({ text: cells.filter(Boolean).join(' '), seg: { seg, row: -1 - k } }));
    seg.rows.forEach((cells, row) => out.push({ text: cells.filter(Boolean).join(' '), seg: { seg, row } }));
    at = seg.to + 1;
  }
  return out;
}

const firstOfSeg = (paras: PagePara[], i: number) => !!paras[i]?.seg && paras[i - 1]?.seg?.seg !== paras[i].seg!.seg;

/**
 * Table regions of all pages -> tables. A region continues the previous page's table when that table
 * ended its page and this region opens the next one (only a 续表 / "（续）" caption or nothing before it):
 * a repeated header (one line or several) is dropped, a missing one is fine, columns are matched by
 * x-position. `ignorable` paragraphs (blank lines, page numbers of a TXT export) neither end a table
 * nor separate a caption from it. Merged cells printed once at the top of their rows are filled into
 * every row they cover, across page breaks too.
 */
export function stitchTables(pages: PagePara[][], ignorable: (text: string) => boolean = () => false): { lines: Line[]; tables: TableInfo[] } {
  type Building = TableInfo & { caption: Caption | null; colX: [number, number][]; lastPage: number; headerRows: string[][]; mergedCells: MergedCell[] };
  const tables: Building[] = [];
  /** tables read from scanned pages (a blank cell may be an unread dash) */
  const scanned = new Set<Building>();
  const lines: Line[] = [];
  let open: Building | null = null;
  pages.forEach((paras, p) => {
    const page = p + 1;
    let seenContent = false;
    /** the nearest paragraph before / after i that is not ignorable */
    const step = (i: number, dir: number) => {
      let k = i + dir;
      while (k >= 0 && k < paras.length && !paras[k].seg && ignorable(paras[k].text)) k += dir;
      return k;
    };
    /** the open table has no number of its own and no other table has `id`: a "续表 id" may name it */
    const unnamedOpen = (id: string) => !open?.caption?.id && !tables.some((t) => t.caption?.id === id);
    for (let i = 0; i < paras.length; i++) {
      const para = paras[i];
      if (!para.seg) {
        if (ignorable(para.text)) {
          lines.push({ text: para.text, page });
          continue;
        }
        const caption = parseCaption(para.text);
        const n1 = step(i, 1);
        const afterUnit = paras[n1] && !paras[n1].seg && UNIT_LINE_RE.test(paras[n1].text) ? step(n1, 1) : n1;
        if (caption && firstOfSeg(paras, afterUnit)) {
          // caption of the region that follows: decided there
          continue;
        }
        lines.push({ text: para.text, page });
        seenContent = true;
        open = null;
        continue;
      }
      if (!firstOfSeg(paras, i)) continue;
      const { seg } = para.seg;
      const hdr = seg.header;
      // the caption sits right above the table, or above a "单位：MW" line printed between them
      const a1 = step(i, -1);
      const above = paras[a1];
      const a2 = step(a1, -1);
      const prevPara = above && !above.seg && UNIT_LINE_RE.test(above.text) && paras[a2] && !paras[a2].seg && parseCaption(paras[a2].text) ? paras[a2] : above;
      const caption = prevPara && !prevPara.seg ? parseCaption(prevPara.text) : null;
      const firstRow = seg.rows[0];
      const continues =
        open !== null &&
        open.lastPage === page - 1 &&
        (caption ? caption.continued && (!caption.id || caption.id === open.caption?.id || unnamedOpen(caption.id)) : !seenContent) &&
        (caption?.continued || seg.columns.length === open.colX.length || (hdr ? sameRow(hdr.names, open.columns) : sameRow(firstRow, open.columns)));
      // "表A.1 …（续）" names the table it continues even when a note or a page break came between
      const named = !continues && caption?.continued && caption.id ? (tables.find((t) => t.caption?.id === caption.id) ?? null) : null;
      // "续表8-2" continuing a table whose own caption was not read (a scan's "表8-2" read "妻 8~盒"): the table is 表8-2
      if (continues && caption?.id && !open!.caption?.id) open!.caption = { id: caption.id, title: open!.caption?.title || caption.title, continued: false };
      if (named) open = named;
      const index: number = continues || named ? tables.indexOf(open!) : tables.length;
      if (!continues && !named) {
        const header = hdr ? hdr.names : looksLikeHeader(firstRow) ? firstRow : null;
        open = {
          table_id: '',
          title: caption?.title ?? '',
          columns: header ?? firstRow.map((_, k) => `列${k + 1}`),
          rows: [],
          caption,
          colX: seg.columns,
          lastPage: page,
          headerRows: hdr ? hdr.lines : header ? [firstRow] : [],
          mergedCells: [],
          ruled: !!seg.ruled,
          ...(seg.threeLine ? { threeLine: true } : {}),
        };
        tables.push(open);
      }
      const t = tables[index];
      if (seg.scanned) scanned.add(t);
      if (caption) lines.push({ text: prevPara.text, page, table: { index, row: -2 } });
      hdr?.lines.forEach((cells) => lines.push({ text: cells.filter(Boolean).join(' '), page, table: { index, row: -1 } }));
      const isHeader = hdr ? false : continues || named ? sameRow(remapCells(firstRow, seg.columns, t.colX), t.columns) : t.columns === firstRow;
      // header lines printed again on a continuation page that the page's own header test did not take (a
      // unit row read "kv", a label with one character misread): rows matching the table's header lines
      let skip = isHeader ? 1 : 0;
      if (continues || named)
        while (skip < seg.rows.length && skip < (hdr?.lines.length ?? 0) + t.headerRows.length && t.headerRows.some((h) => repeatedHeaderLine(remapCells(seg.rows[skip], seg.columns, t.colX), h))) skip++;
      const rowBase = t.rows.length - skip;
      if (seg.columns.length === t.colX.length) {
        const continued = new Set<number>();
        for (const s of seg.spans ?? []) {
          // a merged cell cut by the page break goes on, blank, at the top of this page: one cell
          const prev = t.mergedCells.find((p) => p.col === s.col && p.colspan === s.colspan && p.row + p.rowspan === s.row + rowBase);
          const top = s.row + rowBase === t.rows.length && !seg.rows[s.row]?.[s.col];
          if (prev && top) {
            prev.rowspan += s.rowspan;
            continued.add(s.col);
          } else if (top && t.rows.length && t.rows[t.rows.length - 1][s.col]) {
            // a blank merged cell opening the page goes on with the last row's cell above the break
            t.mergedCells.push({ ...s, row: t.rows.length - 1, rowspan: s.rowspan + 1 });
            continued.add(s.col);
          } else t.mergedCells.push({ ...s, row: s.row + rowBase });
        }
        // ... also when only one of its rows is left for this page (no span of its own here), or only one was
        // on the page before: a blank cell opening the page in a column of merged cells
        const first = seg.rows[skip];
        if (t.ruled && seg.ruled && first?.some(Boolean) && t.rows.length) {
          for (let c = 0; c < first.length; c++) {
            if (continued.has(c) || first[c] || !t.rows[t.rows.length - 1][c] || !t.mergedCells.some((p) => p.col === c && p.rowspan > 1)) continue;
            const p = t.mergedCells.find((q) => q.col === c && q.row + q.rowspan === t.rows.length);
            if (p) p.rowspan += 1;
            else t.mergedCells.push({ row: t.rows.length - 1, col: c, rowspan: 2, colspan: 1 });
          }
        }
      }
      seg.rows.forEach((cells, r) => {
        const mapped = remapCells(cells, seg.columns, t.colX);
        const text = cells.filter(Boolean).join(' ');
        if (r < skip) {
          lines.push({ text, page, table: { index, row: -1 } });
          return;
        }
        lines.push({ text, page, table: { index, row: t.rows.length } });
        t.rows.push(mapped);
      });
      t.lastPage = page;
      open = t;
      seenContent = true;
      i += (hdr?.lines.length ?? 0) + seg.rows.length - 1;
    }
    // a table continues onto the next page only when nothing follows it on this one
    if (open && open.lastPage !== page) open = null;
  });
  // a scanned table's column rules again over all its pages (one page's column may hold too few cells to show
  // its kind: "21.5" for ≥1.5 on a page whose other signs were read likewise, the next page reading "≥")
  for (const t of tables) if (scanned.has(t) && t.rows.length) t.rows = cleanOcrColumns(t.rows);
  // a cell grid says which cells are merged; text alignment (and a three-line table) leaves it to the blanks
  for (const t of tables) {
    if (t.ruled && !t.threeLine) fillMergedCells(t.rows, t.mergedCells);
    else fillMergedDown(t.rows, scanned.has(t));
  }
  // a scanned caption whose number lost its separator ("表41" for 表4-1: OCR drops a short hyphen or point
  // between digits) takes the number the text cites when exactly one cited number, no caption's, has its digits
  const captionIds = new Set(tables.map((t) => t.caption?.id).filter(Boolean));
  const cited = new Set<string>();
  for (const l of lines) if (!l.table) for (const m of l.text.matchAll(CITED_TABLE_RE)) cited.add(`${m[1] === '附表' ? '附表' : '表'}${normalizeTableNumber(m[2])}`);
  for (const t of tables) {
    const id = t.caption?.id;
    if (!id || !scanned.has(t) || !/^(?:附表|表)\d{2,}$/.test(id)) continue;
    const same = [...cited].filter((c) => !captionIds.has(c) && c.replace(/[.\-]/g, '') === id && c !== id);
    if (same.length === 1 && !cited.has(id)) t.caption = { ...t.caption!, id: same[0] };
  }
  // a scanned caption whose gap after the number was lost, the title opening with digits ("表2-610kV馈线运行参数"
  // for 表2-6 10kV…): the number the text cites that the read one starts with, the rest going back to the title —
  // when the read number is cited nowhere and exactly one cited number, no other caption's, opens it
  for (const t of tables) {
    const id = t.caption?.id;
    if (!id || !scanned.has(t) || cited.has(id)) continue;
    const opens = [...cited].filter((c) => !captionIds.has(c) && id.startsWith(c) && /^\d+$/.test(id.slice(c.length)) && /[.\-]/.test(c));
    if (opens.length !== 1) continue;
    t.title = `${id.slice(opens[0].length)}${t.title}`;
    t.caption = { ...t.caption!, id: opens[0], title: t.title };
  }
  const ids = assignTableIds(tables.map((t) => t.caption));
  return {
    lines,
    tables: tables.map(({ caption: _c, colX: _x, lastPage: _l, headerRows, mergedCells, threeLine: _t, ...t }, i) => ({
      ...t,
      table_id: ids[i],
      headerRows: headerRows.length ? headerRows : [t.columns],
      ...(mergedCells.length ? { mergedCells: mergedCells.sort((a, b) => a.row - b.row || a.col - b.col) } : {}),
    })),
  };
}

/** a table number cited in running text: "见表4-1", "按附表 3.2" */
const CITED_TABLE_RE = /(附表|表)\s*((?:[A-Za-z]\s*[.．])?[0-9０-９]+(?:\s*[.．\-－—–]\s*[0-9０-９]+){1,3})/g;

// ---------------------------------------------------------------- TXT exports: columns aligned by spaces

/** Display cells of a character in a monospaced export: CJK and full-width characters take two. */
const WIDE = /[\u1100-\u115f\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u3000-\u303f℃]/;
/** One display cell in x units; a line is TXT_LINE units below the previous one (rows never read as wrapped text). */
const CELL = 5;
const TXT_SIZE = 10;
const TXT_LINE = 16;

/**
 * A TXT line as positioned text: cells are runs separated by two or more spaces (or a tab / full-width
 * space), x in display cells. A line that reads as prose (a run ending a sentence, or a run longer
 * than a table cell would be) is one fragment, so it never looks like a table row.
 */
export function positionTextLine(raw: string, index: number): PositionedLine {
  const frags: Fragment[] = [];
  let x = 0;
  let cur: { str: string; x: number } | null = null;
  let spaces = 0;
  const flush = () => {
    if (cur && cur.str.trim()) frags.push({ str: cur.str.trimEnd(), x: cur.x, right: cur.x + width(cur.str.trimEnd()), h: TXT_SIZE, y: -index * TXT_LINE });
    cur = null;
  };
  for (const ch of raw.replace(/\t/g, '    ')) {
    const w = ch === '\u3000' || WIDE.test(ch) ? 2 : 1;
    if (ch === ' ' || ch === '\u3000') {
      spaces += w;
      if (spaces >= 2) flush();
      else if (cur) cur.str += ch;
    } else {
      spaces = 0;
      if (!cur) cur = { str: '', x: x * CELL };
      cur.str += ch;
    }
    x += w;
  }
  flush();
  const prose = frags.some((f) => /[。；！？]$/.test(f.str) || (f.right - f.x) / CELL > 40);
  const text = raw.replace(/\s+$/, '');
  const one = prose && frags.length > 1 ? [{ ...frags[0], str: text.trim(), right: frags[frags.length - 1].right }] : frags;
  return { text, y: -index * TXT_LINE, size: TXT_SIZE, frags: one };
}

const width = (s: string) => [...s].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0) * CELL;

/**
 * Whitespace-aligned tables of a TXT export: pages at form feeds, regions by alignment as in PDFs,
 * stitched across pages ("续表1", "表B.2（续）", a repeated header). Lines outside tables stay as they are.
 * Returns null when the text holds no such table.
 */
export function whitespaceTables(rawLines: string[]): { lines: Line[]; tables: TableInfo[] } | null {
  const pages: PositionedLine[][] = [[]];
  rawLines.forEach((raw, i) => {
    const parts = raw.split('\f');
    parts.forEach((part, k) => {
      if (k > 0) pages.push([]);
      if (k === parts.length - 1 || part) pages[pages.length - 1].push(positionTextLine(part, i));
    });
  });
  const segs = pages.map((lines) => findTableSegments(lines));
  if (!segs.some((s) => s.length)) return null;
  const paras = pages.map((lines, p) => segmentParas(lines, segs[p], (part) => part.map((l) => l.text)));
  return stitchTables(paras, (text) => !text.trim() || PAGE_NUMBER_RE.test(text.trim()));
}
