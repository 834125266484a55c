/**
 * How metadata from different hands combines. Keywords a person wrote or that came with the
 * document (info.json, edits in the UI/CLI) are curated: kept, and listed first. Keywords a
 * program generated (offline enrich, LLM enrich) are marked as generated and only fill in around
 * the curated ones, never replacing them; a later enrich replaces the previous generated ones.
 * Description and scope follow the same rule: a generated text never overwrites a curated one.
 */
export type MetadataSource = 'auto' | 'llm' | 'manual' | 'info.json';

export interface MetadataState {
  description: string | null;
  keywords: string[];
  scope: string | null;
  /** keywords that were generated (the rest are curated) */
  generated_keywords: string[];
  /** description / scope that were generated */
  generated_fields: ('description' | 'scope')[];
}

export interface MetadataUpdate {
  description?: string | null;
  keywords?: string[];
  scope?: string | null;
}

/** At most this many generated keywords join the curated ones. */
export const MAX_GENERATED_KEYWORDS = 8;

export function isGeneratedSource(source: MetadataSource | undefined): boolean {
  return source === 'auto' || source === 'llm';
}

const same = (a: string, b: string) => a.normalize('NFKC').toLowerCase() === b.normalize('NFKC').toLowerCase();

export function mergeMetadata(cur: MetadataState, update: MetadataUpdate, source: MetadataSource | undefined): MetadataState {
  if (!isGeneratedSource(source)) {
    // a person (or the document's info.json) decides: what they give is curated as given
    const keywords = update.keywords ?? cur.keywords;
    const generatedFields = cur.generated_fields.filter(
      (f) => !(f === 'description' && update.description !== undefined) && !(f === 'scope' && update.scope !== undefined),
    );
    return {
      description: update.description !== undefined ? update.description : cur.description,
      scope: update.scope !== undefined ? update.scope : cur.scope,
      keywords,
      // keywords given explicitly are all curated now (kept = accepted); untouched ones keep their mark
      generated_keywords: update.keywords ? [] : cur.generated_keywords.filter((k) => keywords.includes(k)),
      generated_fields: generatedFields,
    };
  }
  const curated = cur.keywords.filter((k) => !cur.generated_keywords.includes(k));
  const fresh: string[] = [];
  for (const k of update.keywords ?? cur.generated_keywords) {
    const word = k.trim();
    if (!word || curated.some((c) => same(c, word)) || fresh.some((f) => same(f, word))) continue;
    fresh.push(word);
    if (fresh.length >= MAX_GENERATED_KEYWORDS) break;
  }
  const fields = new Set(cur.generated_fields);
  const take = (field: 'description' | 'scope', now: string | null, next: string | null | undefined): string | null => {
    // a curated text stays; an empty or previously generated one takes the new generated text
    if (next === undefined || next === null || !next.trim()) return now;
    if (now && now.trim() && !fields.has(field)) return now;
    fields.add(field);
    return next;
  };
  return {
    description: take('description', cur.description, update.description),
    scope: take('scope', cur.scope, update.scope),
    keywords: [...curated, ...fresh],
    generated_keywords: fresh,
    generated_fields: [...fields],
  };
}
