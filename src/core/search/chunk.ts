/**
 * Long texts are split for indexing into overlapping windows (so one chunk is an embeddable
 * passage and a match deep inside a long clause still ranks); short texts are one chunk.
 * The chunk text is stored with its index item (search_items.text), so vectors embed exactly
 * the text the lexical index holds, whatever `maxChars` was at indexing time.
 */
export function chunkText(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const overlap = Math.floor(maxChars / 5);
  const step = maxChars - overlap;
  const out: string[] = [];
  for (let start = 0; start < text.length; start += step) {
    out.push(text.slice(start, start + maxChars));
    if (start + maxChars >= text.length) break;
  }
  return out;
}

/** Key of chunk n of a unit: the unit key alone when it is a single chunk. */
export function chunkKey(unitKey: string | number, n: number, count: number): string {
  return count === 1 ? String(unitKey) : `${unitKey}#${n}`;
}
