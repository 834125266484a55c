/**
 * GitHub-flavoured Markdown (tables, lists, blockquotes) for regulation pages and search snippets,
 * with search terms marked inside the rendered text. Raw HTML in a document is never rendered.
 */
import { memo, type ReactNode } from 'react';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Element, ElementContent, Root, Text } from 'hast';

/** Marks in a snippet travel through Markdown as private-use characters, then become <mark>. */
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';

type HastParent = Root | Element;

function splitText(node: Text, re: RegExp | null, hitClass: string | undefined): ElementContent[] {
  const value = node.value;
  const out: ElementContent[] = [];
  // sentinel-delimited marks (snippets) first
  if (value.includes(MARK_OPEN)) {
    const parts = value.split(new RegExp(`(${MARK_OPEN}[^${MARK_CLOSE}]*${MARK_CLOSE})`));
    for (const p of parts) {
      if (!p) continue;
      if (p.startsWith(MARK_OPEN)) out.push(mark(p.slice(1, -1), hitClass));
      else out.push({ type: 'text', value: p.replace(new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`, 'g'), '') });
    }
    return out;
  }
  if (!re) return [node];
  let last = 0;
  re.lastIndex = 0;
  for (const m of value.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ type: 'text', value: value.slice(last, at) });
    out.push(mark(m[0], hitClass));
    last = at + m[0].length;
  }
  if (!out.length) return [node];
  if (last < value.length) out.push({ type: 'text', value: value.slice(last) });
  return out;
}

function mark(text: string, cls: string | undefined): Element {
  return { type: 'element', tagName: 'mark', properties: cls ? { className: [cls] } : {}, children: [{ type: 'text', value: text }] };
}

function rehypeMark(options: { re: RegExp | null; hitClass?: string }) {
  return (tree: Root) => {
    const walk = (parent: HastParent) => {
      const next: (typeof parent.children)[number][] = [];
      for (const child of parent.children) {
        if (child.type === 'text') next.push(...splitText(child, options.re, options.hitClass));
        else {
          if (child.type === 'element') walk(child);
          next.push(child);
        }
      }
      parent.children = next as typeof parent.children;
    };
    walk(tree);
  };
}

export const Markdown = memo(function Markdown({
  text,
  terms,
  hit,
  className = 'markdown',
}: {
  text: string;
  terms?: RegExp | null;
  /** the marks belong to the search hit (strong colour, scroll target) */
  hit?: boolean;
  className?: string;
}): ReactNode {
  return (
    <div className={className}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[[rehypeMark, { re: terms ?? null, hitClass: hit ? 'hit' : undefined }]]}
        skipHtml
        components={{
          // a document's links must not navigate the app away; show them as text with the address
          a: ({ children, href }) => <span title={href}>{children}</span>,
          img: ({ alt }) => <span className="muted">[图：{alt || '未命名'}]</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

const TABLE_LINE = /^\s*\|.*\|\s*$/;
const DELIMITER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

export function isTableLine(line: string): boolean {
  return TABLE_LINE.test(line);
}

export function tableCells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/**
 * A GFM table drawn directly (pages of ledgers hold hundreds of rows: no Markdown parse per flip).
 * With a delimiter row the first row is the header; without one (the header is on an earlier
 * page) all rows are body rows, still a table.
 */
export function PipeTable({ lines, mark: markCell }: { lines: string[]; mark: (text: string, key: string) => ReactNode }) {
  const withHeader = hasDelimiterRow(lines);
  const all = lines.filter((l) => !DELIMITER.test(l)).map((l) => tableCells(l).map((c) => c.replace(/(\*\*|__)(.+?)\1/g, '$2').replace(/`([^`]+)`/g, '$1')));
  const header = withHeader ? all[0] : null;
  const rows = withHeader ? all.slice(1) : all;
  return (
    <div className="markdown">
      <table>
        {header ? (
          <thead>
            <tr>
              {header.map((c, i) => (
                <th key={i} scope="col">
                  {markCell(c, `h-${i}`)}
                </th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>
          {rows.map((cells, r) => (
            <tr key={r}>
              {cells.map((c, i) => (
                <td key={i}>{markCell(c, `${r}-${i}`)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function hasDelimiterRow(lines: string[]): boolean {
  return lines.length >= 2 && DELIMITER.test(lines[1]);
}

const MD_HINT = /(^|\n)\s*(\||>|[-*+]\s|\d{1,3}[.)]\s)|\*\*[^*]+\*\*/;

/**
 * A search snippet with its highlight ranges. Plain snippets stay plain text; snippets carrying
 * Markdown (table rows, quotes, lists, emphasis) render as GFM, a table row without its header as
 * cells separated by a thin rule, so no raw pipes or `>` reach the screen.
 */
export function Snippet({ snippet, highlights }: { snippet: string; highlights: [number, number][] }): ReactNode {
  const sorted = [...highlights].sort((a, b) => a[0] - b[0]);
  let marked = '';
  let last = 0;
  for (const [s, e] of sorted) {
    if (s < last || e <= s) continue;
    marked += snippet.slice(last, s) + MARK_OPEN + snippet.slice(s, e) + MARK_CLOSE;
    last = e;
  }
  marked += snippet.slice(last);
  if (!MD_HINT.test(snippet)) return renderMarked(marked, 'p');
  const lines = marked.split('\n');
  const tableLines = lines.filter((l) => isTableLine(l.replace(new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`, 'g'), '')));
  if (tableLines.length && !hasDelimiterRow(tableLines)) {
    // rows cut out of a table: cells in a line, no header to hang a table on
    const text = lines
      .map((l) => (isTableLine(l.replace(new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`, 'g'), '')) ? tableCells(l).filter(Boolean).join(' ｜ ') : l))
      .join('\n');
    return <Markdown text={text} className="markdown snippet-md" />;
  }
  return <Markdown text={marked} className="markdown snippet-md" />;
}

function renderMarked(marked: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const parts = marked.split(new RegExp(`(${MARK_OPEN}[^${MARK_CLOSE}]*${MARK_CLOSE})`));
  parts.forEach((p, i) => {
    if (!p) return;
    if (p.startsWith(MARK_OPEN)) out.push(<mark key={`${key}${i}`}>{p.slice(1, -1)}</mark>);
    else out.push(p);
  });
  return out;
}
