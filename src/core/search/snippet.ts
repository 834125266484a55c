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
  const body = text.slice(start, end).replace(/\s+/g, ' ');
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
