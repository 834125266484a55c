/**
 * A stored text page laid out like the printed regulation: chapter/section headings, article
 * labels (第二十条, 5.3.2) set apart, and search terms marked. The first mark inside the hit
 * (matched article or snippet) carries class "hit" so the reader can scroll to it.
 */
import { memo, useState, type ReactNode } from 'react';
import type { ApiOutput } from '../../../core/api/table';
import { Markdown, PipeTable, isTableLine } from './Markdown';
import { squashLine } from './table-copy';
import { continuationBlocks, hitBlockIndex, type HitTarget } from './reader-logic';

export type PageStructure = ApiOutput<'regulations.page_structure'>;
export type PageTableData = PageStructure['tables'][number];
export type PageReference = PageStructure['references'][number];

const HEADING = /^(#{1,6}\s+|第[一二三四五六七八九十百零〇两\d]+[编章节](?:\s|$|[　、：:]))/;
const ARTICLE = /^(第[一二三四五六七八九十百零〇两\d]+条)(\s*|　*)/;
const CLAUSE = /^((?:\d+\.)+\d+|[一二三四五六七八九十]+、|（[一二三四五六七八九十\d]+）|\(\d+\))(\s*)/;

interface Block {
  kind: 'heading' | 'article' | 'clause' | 'para' | 'markdown' | 'table';
  label: string | null;
  text: string;
}

const QUOTE = /^\s*>/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+\S/;

/**
 * Lines that are Markdown structure (tables anywhere; blockquotes and lists in Markdown sources)
 * stay together and render as GFM; everything else keeps the regulation layout.
 */
function markdownKind(line: string, markdown: boolean): 'table' | 'quote' | 'list' | null {
  if (isTableLine(line)) return 'table';
  if (!markdown) return null;
  if (QUOTE.test(line)) return 'quote';
  if (LIST_ITEM.test(line)) return 'list';
  return null;
}

export function splitBlocks(text: string, markdown = false): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  let md: { kind: 'table' | 'quote' | 'list'; lines: string[] } | null = null;
  const flush = () => {
    if (current && (current.text.trim() || current.label)) blocks.push(current);
    current = null;
  };
  const flushMd = () => {
    if (md) blocks.push({ kind: 'markdown', label: md.kind, text: md.lines.join('\n') });
    md = null;
  };
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    // a structured table stands where its printed lines were (see placeTables)
    if (line.startsWith(TABLE_MARK)) {
      flushMd();
      flush();
      blocks.push({ kind: 'table', label: line.slice(TABLE_MARK.length), text: '' });
      continue;
    }
    const open = md as { kind: 'table' | 'quote' | 'list'; lines: string[] } | null;
    // a list item's continuation line (indented) stays with the list
    const kind = line ? (markdownKind(rawLine, markdown) ?? (open?.kind === 'list' && /^\s{2,}\S/.test(rawLine) ? 'list' : null)) : null;
    if (kind) {
      flush();
      if (open && open.kind !== kind) flushMd();
      md ??= { kind, lines: [] };
      md.lines.push(rawLine.replace(/\s+$/, ''));
      continue;
    }
    flushMd();
    if (!line) {
      flush();
      continue;
    }
    if (HEADING.test(line)) {
      flush();
      blocks.push({ kind: 'heading', label: null, text: line.replace(/^#{1,6}\s+/, '') });
      continue;
    }
    const art = ARTICLE.exec(line);
    if (art) {
      flush();
      current = { kind: 'article', label: art[1], text: line.slice(art[0].length) };
      continue;
    }
    const cl = CLAUSE.exec(line);
    if (cl && line.length > cl[0].length) {
      flush();
      current = { kind: 'clause', label: cl[1], text: line.slice(cl[0].length) };
      continue;
    }
    if (current) {
      // PDF text breaks lines mid-sentence; CJK lines join without a space
      const joiner = /[A-Za-z0-9]$/.test(current.text) && /^[A-Za-z0-9]/.test(line) ? ' ' : '';
      current.text += joiner + line;
    } else current = { kind: 'para', label: null, text: line };
  }
  flushMd();
  flush();
  return blocks;
}

const TABLE_MARK = '\u0000table:';

/**
 * Replaces the printed lines of each table on the page (caption, header, the page's rows, Markdown
 * delimiter rows) with one marker line, so the table renders from its stored structure — with its
 * header even on a continuation page. Lines are compared squashed (no spaces, pipes, heading marks); a
 * table none of whose rows is found stays as printed.
 */
export function placeTables(text: string, tables: PageTableData[]): string {
  if (!tables.length) return text;
  const lines = text.split(/\r?\n/);
  const owner: (number | null)[] = lines.map(() => null);
  tables.forEach((t, k) => {
    const rows = new Set(t.rows.map((r) => squashLine(r.cells.join(''))).filter(Boolean));
    const header = squashLine(t.columns.join(''));
    // the table's notes printed on this page render under the table
    const notes = new Set(t.notes.map((n) => squashLine(n.text)));
    const id = squashLine(t.table_id);
    const caption = (s: string) => {
      const c = s.replace(/^续表/, '表');
      return (c.startsWith(id) || (!!t.title && c.includes(squashLine(t.title)))) && c.length <= id.length + squashLine(t.title).length + 6;
    };
    // a header printed over several lines ("额定电压 kV" above "10 35 110"): its lines hold only the
    // levels of the column names, in order, above the first row of the table on this page
    const levels = [...new Set(t.columns.flatMap((c) => c.split(/[·\s]+/)).map(squashLine).filter(Boolean))].sort((a, b) => b.length - a.length);
    const headerLine = (sq: string): boolean => {
      if (!t.columns.some((c) => /[·\s]/.test(c))) return false;
      let at = 0;
      while (at < sq.length) {
        const part = levels.find((l) => sq.startsWith(l, at));
        if (!part) return false;
        at += part.length;
      }
      return true;
    };
    const firstRow = lines.findIndex((line) => rows.has(squashLine(line)));
    let matched = 0;
    lines.forEach((line, i) => {
      if (owner[i] !== null) return;
      const sq = squashLine(line);
      if (!sq) return;
      if (rows.has(sq)) {
        owner[i] = k;
        matched++;
      } else if (sq === header || (/^:?-{3,}/.test(sq) && /^[-:]+$/.test(sq))) owner[i] = k;
      else if (/^(续表|附表|表)/.test(sq) && caption(sq)) owner[i] = k;
      else if (notes.has(sq)) owner[i] = k;
      else if (firstRow >= 0 && i < firstRow && i >= firstRow - 4 && headerLine(sq)) owner[i] = k;
    });
    if (!matched) lines.forEach((_, i) => owner[i] === k && (owner[i] = null));
  });
  const out: string[] = [];
  const placed = new Set<number>();
  lines.forEach((line, i) => {
    const k = owner[i];
    if (k === null) out.push(line);
    else if (!placed.has(k)) {
      placed.add(k);
      out.push('', `${TABLE_MARK}${k}`, '');
    }
  });
  return out.join('\n');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function markTerms(text: string, re: RegExp | null, keyPrefix: string, isHit: boolean): ReactNode[] {
  if (!re) return [text];
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    out.push(
      <mark key={`${keyPrefix}-${i++}`} className={isHit ? 'hit' : undefined}>
        {m[0]}
      </mark>,
    );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function termsRegex(terms: string[]): RegExp | null {
  const clean = [...new Set(terms.map((t) => t.trim()).filter((t) => t.length > 0))].sort((a, b) => b.length - a.length);
  return clean.length ? new RegExp(clean.map(escapeRe).join('|'), 'g') : null;
}

/** Inline Markdown emphasis in a regulation paragraph: the markers are dropped, the words stay. */
function stripEmphasis(text: string): string {
  return text.replace(/(\*\*|__)(.+?)\1/g, '$2').replace(/`([^`]+)`/g, '$1');
}

/**
 * A paragraph's text with the references written in it as links (resolved ones only) and search terms
 * marked. A note reference ("见注1") opens the note in place instead of jumping.
 */
function RefText({
  text,
  refs,
  re,
  keyPrefix,
  hit,
  regId,
  onReference,
}: {
  text: string;
  regId?: string;
  refs: PageReference[];
  re: RegExp | null;
  keyPrefix: string;
  hit: boolean;
  onReference?: (ref: PageReference) => void;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const usable = refs.filter((r) => r.resolved && r.reference_text && text.includes(r.reference_text));
  if (!usable.length) return <>{markTerms(text, re, keyPrefix, hit)}</>;
  const byText = new Map(usable.map((r) => [r.reference_text!, r]));
  const words = new RegExp([...byText.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join('|'), 'g');
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(words)) {
    const at = m.index ?? 0;
    if (at > last) out.push(...markTerms(text.slice(last, at), re, `${keyPrefix}-${n}`, hit));
    const ref = byText.get(m[0])!;
    const k = n++;
    const where = ref.reference_type === 'note' ? '点击在此展开注释' : `点击跳转到${ref.reg_id !== regId && ref.regulation ? `《${ref.regulation}》` : ''}第 ${ref.page_num} 页`;
    out.push(
      <button
        key={`${keyPrefix}-ref${k}`}
        type="button"
        className={`ref-link ref-${ref.reference_type}`}
        data-ref-type={ref.reference_type}
        aria-expanded={ref.reference_type === 'note' ? open === k : undefined}
        title={`${ref.preview ?? ref.target ?? ''}（${where}）`}
        onClick={(e) => {
          e.stopPropagation();
          if (ref.reference_type === 'note') setOpen((o) => (o === k ? null : k));
          else onReference?.(ref);
        }}
      >
        {m[0]}
      </button>,
    );
    if (ref.reference_type === 'note' && open === k) {
      out.push(
        <span key={`${keyPrefix}-note${k}`} className="note-pop" role="note">
          {ref.preview}
          {ref.page_num ? <span className="muted small">（第 {ref.page_num} 页{ref.table_id ? `，${ref.table_id}` : ''}）</span> : null}
        </span>,
      );
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(...markTerms(text.slice(last), re, `${keyPrefix}-end`, hit));
  return <>{out}</>;
}

export const PageText = memo(function PageText({
  text,
  terms,
  target,
  continuation = [],
  markdown = false,
  structure,
  regId,
  onReference,
  renderTable,
}: {
  text: string;
  terms: string[];
  /** the search hit on this page (from its `locate`): its block is emphasised */
  target?: HitTarget | null;
  /** the text of the following pages the hit runs onto, shown right under the hit block */
  continuation?: { page: number; text: string }[];
  /** the source is Markdown: lists, blockquotes and emphasis are Markdown too */
  markdown?: boolean;
  /** the page's tables, notes and references (tables render from it, references become links) */
  structure?: PageStructure | null;
  regId?: string;
  onReference?: (ref: PageReference) => void;
  /** renders one of the page's tables (the reader passes RegTable, which talks to the API) */
  renderTable?: (table: PageTableData, key: number | string, mark: (text: string, key: string) => ReactNode[], hit: { hit: boolean; row: string[] | null; note: string | null }) => ReactNode;
}) {
  const tables = structure?.tables ?? [];
  const refs = structure?.references ?? [];
  const blocks = splitBlocks(renderTable ? placeTables(text, tables) : text, markdown).map((b) => (markdown && b.kind !== 'markdown' ? { ...b, text: stripEmphasis(b.text) } : b));
  const re = termsRegex(terms);
  // the hit block: the one the hit's location names (table, label + first words), else the first block containing a term
  let hitIndex = -1;
  if (target || terms.length) {
    if (target)
      hitIndex = hitBlockIndex(
        // a table block stands for its table: its id, and its notes as text (a note hit may be one of them)
        blocks.map((b) => (b.kind === 'table' ? { ...b, tableId: tables[Number(b.label)]?.table_id ?? null, text: (tables[Number(b.label)]?.notes ?? []).map((n) => n.text).join('\n') } : { ...b, tableId: null })),
        target,
      );
    if (hitIndex < 0 && re) hitIndex = blocks.findIndex((b) => { re.lastIndex = 0; return re.test(`${b.label ?? ''}${b.text}`); });
    if (re) re.lastIndex = 0;
  }
  // the hit's text printed on the next pages (an article continued there), shown whole under it
  const runOn = hitIndex >= 0 && target?.tail ? continuation.map((c) => ({ page: c.page, blocks: continuationBlocks(splitBlocks(c.text, markdown), target.tail) })).filter((c) => c.blocks.length) : [];
  if (blocks.length === 0) return <p className="muted">（此页没有可显示的文字）</p>;
  const renderBlock = (b: Block, i: number | string, hit: boolean, extraClass = ''): ReactNode => {
    const cls = `blk blk-${b.kind}${hit ? ' blk-hit' : ''}${extraClass}`;
    if (b.kind === 'table') {
      const t = tables[Number(b.label)];
      if (!t || !renderTable) return null;
      const row = hit && target?.table === t.table_id ? target.row : null;
      const note = hit && target?.block === 'note' ? target.lead : null;
      return renderTable(t, i, (text, k) => markTerms(text, re, `tb${i}-${k}`, false), { hit: hit && !note, row, note });
    }
    if (b.kind === 'markdown') {
      const lines = b.text.split('\n');
      if (b.label === 'table') {
        return (
          <div key={i} className={cls} data-hit={hit ? 'true' : undefined}>
            <PipeTable lines={lines} mark={(t, k) => markTerms(t, re, `t${i}-${k}`, hit)} />
          </div>
        );
      }
      return (
        <div key={i} className={cls} data-hit={hit ? 'true' : undefined}>
          <Markdown text={b.text} terms={re} hit={hit} />
        </div>
      );
    }
    const body = b.kind === 'heading' ? markTerms(b.text, re, `b${i}`, hit) : <RefText text={b.text} refs={refs} regId={regId} re={re} keyPrefix={`b${i}`} hit={hit} onReference={onReference} />;
    if (b.kind === 'heading') {
      return (
        <h3 key={i} className={cls}>
          {body}
        </h3>
      );
    }
    return (
      <p key={i} className={cls} data-hit={hit ? 'true' : undefined} data-label={b.label ?? undefined}>
        {b.label ? <span className={`label label-${b.kind}`}>{markTerms(b.label, re, `l${i}`, hit)}</span> : null}
        {b.label ? ' ' : null}
        {body}
      </p>
    );
  };
  return (
    <>
      {blocks.map((b, i) => {
        const hit = i === hitIndex;
        const rendered = renderBlock(b, i, hit);
        if (!hit || !runOn.length) return rendered;
        return (
          <div key={i} className="blk-hit-run" data-hit="true">
            {rendered}
            {runOn.map((c) => (
              <div key={`run${c.page}`} className="blk-run-on" role="group" aria-label={`接第 ${c.page} 页`}>
                <div className="run-on-mark muted small">— 接第 {c.page} 页 —</div>
                {c.blocks.map((cb, k) => renderBlock(cb, `run${c.page}-${k}`, true, ' blk-continued'))}
              </div>
            ))}
          </div>
        );
      })}
    </>
  );
});
