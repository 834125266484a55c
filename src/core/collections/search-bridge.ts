import type { Db } from '../store/db';
import { indexItems, removeItems } from '../search/lexical';
import type { DocChunk } from './chunk';

/**
 * How collection chunks live in the shared search index (corpus `col:<name>`):
 * key `<docId>#<ord>`, parent = scope = `<docId>` (scope lets a follow-up search inside the
 * locked document only). Every chunk's title field carries the document title plus its section
 * heading, so a question naming the dish matches all of that dish's chunks, not just one.
 */
export function chunkKey(docId: number, ord: number): string {
  return `${docId}#${ord}`;
}

export function indexDocChunks(db: Db, corpus: string, doc: { id: number; title: string }, chunks: DocChunk[]): void {
  indexItems(
    db,
    corpus,
    chunks.map((c) => ({
      key: chunkKey(doc.id, c.ord),
      parent: String(doc.id),
      scope: String(doc.id),
      title: c.blockKind === 'title' ? doc.title : `${doc.title} ${c.heading}`,
      text: c.text,
      ord: c.ord,
      storeText: true,
    })),
  );
}

export function removeDocIndex(db: Db, corpus: string, docId: number): void {
  removeItems(db, corpus, { scope: String(docId) });
}
