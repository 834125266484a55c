/**
 * A stored text page laid out like the printed regulation: chapter/section headings, article
 * labels (第二十条, 5.3.2) set apart, and search terms marked. The first mark inside the hit
 * (matched article or snippet) carries class "hit" so the reader can scroll to it.
 */
import { memo, type ReactNode } from 'react';
import { Markdown, PipeTable, isTableLine } from './Markdown';

const HEADING = /^(#{1,6}\s+|第[一二三四五六七八九十百零〇两\d]+[编章节](?:\s|$|[　、：:]))/;
const ARTICLE = /^(第[一二三四五六七八九十百零〇两\d]+条)(\s*|　*)/;
const CLAUSE = /^((?:\d+\.)+\d+|[一二三四五六七八九十]+、|（[一二三四五六七八九十\d]+）|\(\d+\))(\s*)/;

interface Block {
  kind: 'heading' | 'article' | 'clause' | 'para' | 'markdown';
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

export const PageText = memo(function PageText({
  text,
  terms,
  hitArticle,
  markdown = false,
}: {
  text: string;
  terms: string[];
  /** article/clause label of the search hit; its block is emphasised */
  hitArticle?: string | null;
  /** the source is Markdown: lists, blockquotes and emphasis are Markdown too */
  markdown?: boolean;
}) {
  const blocks = splitBlocks(text, markdown).map((b) => (markdown && b.kind !== 'markdown' ? { ...b, text: stripEmphasis(b.text) } : b));
  const re = termsRegex(terms);
  // the hit block: the one whose label matches, else the first block containing a term
  let hitIndex = -1;
  if (terms.length) {
    if (hitArticle) hitIndex = blocks.findIndex((b) => b.label === hitArticle || (b.label && hitArticle.includes(b.label)));
    if (hitIndex < 0 && re) hitIndex = blocks.findIndex((b) => { re.lastIndex = 0; return re.test(`${b.label ?? ''}${b.text}`); });
    if (re) re.lastIndex = 0;
  }
  if (blocks.length === 0) return <p className="muted">（此页没有可显示的文字）</p>;
  return (
    <>
      {blocks.map((b, i) => {
        const hit = i === hitIndex;
        const cls = `blk blk-${b.kind}${hit ? ' blk-hit' : ''}`;
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
        const body = markTerms(b.text, re, `b${i}`, hit);
        if (b.kind === 'heading') {
          return (
            <h3 key={i} className={cls}>
              {body}
            </h3>
          );
        }
        return (
          <p key={i} className={cls} data-hit={hit ? 'true' : undefined}>
            {b.label ? <span className={`label label-${b.kind}`}>{markTerms(b.label, re, `l${i}`, hit)}</span> : null}
            {b.label ? ' ' : null}
            {body}
          </p>
        );
      })}
    </>
  );
});
