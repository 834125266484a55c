/** Snippet around the first matched term and [start, end) UTF-16 offsets of matched terms in it. */
export function makeSnippet(text: string, terms: string[], maxChars = 160): { snippet: string; highlights: [number, number][] } {
  const lower = text.toLowerCase();
  const sorted = [...new Set(terms)].filter(Boolean).sort((a, b) => b.length - a.length);
  let first = -1;
  for (const t of sorted) {
    const i = lower.indexOf(t);
    if (i >= 0 && (first < 0 || i < first)) first = i;
  }
  let start = 0;
  if (text.length > maxChars && first > maxChars / 3) start = Math.min(first - Math.floor(maxChars / 3), text.length - maxChars);
  const end = Math.min(text.length, start + maxChars);
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const body = joinCjkSpaces(text.slice(start, end).replace(/\s+/g, ' '));
  const snippet = prefix + body + suffix;
  const low = snippet.toLowerCase();
  const ranges: [number, number][] = [];
  for (const t of sorted) {
    let from = 0;
    for (;;) {
      const i = low.indexOf(t, from);
      if (i < 0) break;
      const r: [number, number] = [i, i + t.length];
      if (!ranges.some(([a, b]) => r[0] < b && a < r[1])) ranges.push(r);
      from = i + t.length;
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return { snippet, highlights: ranges };
}

const CJK = '\\p{Script=Han}\\u3000-\\u303f\\uff00-\\uffef';
const CJK_GAP = new RegExp(`([${CJK}]) (?=[${CJK}])`, 'gu');

/**
 * Line breaks inside Chinese text (PDF extraction, wrapped Markdown) leave spaces between two CJK
 * characters ("值班调度 员"); Chinese puts no spaces between words, so they go. Latin words and
 * numbers keep theirs ("500 kV", "N-1 故障").
 */
export function joinCjkSpaces(text: string): string {
  return text.replace(CJK_GAP, '$1');
}
