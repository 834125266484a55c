import type { BlockKind, ParsedDocument } from './parse';

export interface DocChunk {
  ord: number;
  blockKind: BlockKind | 'title';
  heading: string;
  text: string;
  /** Index into ParsedDocument.articles when the chunk is (a piece of) an article. */
  article?: number;
}

/**
 * Parent -> chunks. Chunk 0 is the title card (title, first heading, difficulty): title words
 * then rank it first for `红烧肉怎么做`, which is how a title match counts strongly. Every other
 * chunk is a piece of one section, cut at list-item/line boundaries near `maxChars`, so a hit
 * always points at one block (ingredients, steps, ...) of the parent.
 */
export function chunkDocument(doc: ParsedDocument, maxChars: number): DocChunk[] {
  const chunks: DocChunk[] = [];
  const titleCard = [doc.title, doc.heading !== doc.title ? doc.heading : '', doc.difficulty ? `难度 ${doc.difficulty} 星` : '']
    .filter(Boolean)
    .join('\n');
  chunks.push({ ord: 0, blockKind: 'title', heading: doc.title, text: titleCard });
  if (doc.articles?.length) {
    // statutes: one chunk per article (a long one in pieces), so a hit names its article
    for (const [i, a] of doc.articles.entries()) {
      for (const piece of splitText(`${a.label} ${a.text}`, maxChars)) {
        chunks.push({ ord: chunks.length, blockKind: 'article', heading: `${a.path ? `${a.path} ` : ''}${a.label}`, text: piece, article: i });
      }
    }
    return chunks;
  }
  for (const block of doc.blocks) {
    const body = block.text.trim();
    if (!body) continue;
    for (const piece of splitText(body, maxChars)) {
      chunks.push({ ord: chunks.length, blockKind: block.kind, heading: block.heading, text: piece });
    }
  }
  return chunks;
}

/** Splits at line ends (list items stay whole) and, for very long lines, at sentence ends. */
export function splitText(text: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim()) pieces.push(current.trim());
    current = '';
  };
  for (const line of text.split('\n')) {
    const units = line.length > maxChars ? splitLongLine(line, maxChars) : [line];
    for (const unit of units) {
      if (current && current.length + unit.length + 1 > maxChars) flush();
      current += (current ? '\n' : '') + unit;
    }
  }
  flush();
  return pieces;
}

function splitLongLine(line: string, maxChars: number): string[] {
  const sentences = line.match(/[^。！？；!?;]+[。！？；!?;]?/g) ?? [line];
  const out: string[] = [];
  for (const s of sentences) {
    // no sentence end at all (minified text, a 10 MB single line): hard cut
    for (let i = 0; i < s.length; i += maxChars) out.push(s.slice(i, i + maxChars));
  }
  return out;
}
