/**
 * Cuts a text too long to show or store as one piece into pieces of at most `maxChars`, preferring
 * sentence ends (。！？；!?;), then clause marks and spaces (，、：, ), and only then a hard cut — never
 * inside a surrogate pair. Used at import so that a single 50 MB line becomes pages, not one page.
 */
const SENTENCE_END = /[。！？；!?;]/u;
const SOFT_BREAK = /[，、：,:\s\u3000）)」』】》]/u;

/** The share of a piece that must be filled before a break is taken (avoids slivers). */
const MIN_FILL = 0.5;

function breakAt(text: string, from: number, maxChars: number): number {
  const end = from + maxChars;
  if (end >= text.length) return text.length;
  const floor = from + Math.floor(maxChars * MIN_FILL);
  for (const re of [SENTENCE_END, SOFT_BREAK]) {
    for (let i = end - 1; i >= floor; i--) if (re.test(text[i])) return i + 1;
  }
  // a hard cut must not separate the halves of a surrogate pair
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** `text` in pieces of at most `maxChars` characters (the text itself when it fits). */
export function wrapText(text: string, maxChars: number): string[] {
  if (maxChars < 2) throw new RangeError('maxChars must be at least 2');
  if (text.length <= maxChars) return [text];
  const pieces: string[] = [];
  let from = 0;
  while (from < text.length) {
    const to = breakAt(text, from, maxChars);
    pieces.push(text.slice(from, to));
    from = to;
  }
  return pieces;
}

/** Lines longer than `maxChars` wrapped into lines of at most `pieceChars`; other lines untouched. */
export function wrapLongLines(lines: string[], maxChars: number, pieceChars = maxChars): string[] {
  if (!lines.some((l) => l.length > maxChars)) return lines;
  return lines.flatMap((l) => (l.length > maxChars ? wrapText(l, Math.min(pieceChars, maxChars)) : [l]));
}
