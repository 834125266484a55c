import { z } from 'zod';

/**
 * A document of a collection as retrieval scored it (seed 003 fields, from the one ParentHit of
 * search/fusion.ts plus the collection's title score), declared once: `collections.ask` reports it
 * (`retrieval.parents`) and collections/retrieve.ts infers its type from it.
 */
export const parentScoreSchema = z.object({
  doc_id: z.number().int(),
  title: z.string(),
  rel_path: z.string(),
  rrf_sum: z.number(),
  max_chunk_score: z.number(),
  coverage: z.number().int(),
  total_chunks: z.number().int(),
  coverage_ratio: z.number(),
  overall_score: z.number(),
  title_score: z.number(),
  passes_coverage: z.boolean(),
  rrf_sum_norm: z.number(),
  max_chunk_norm: z.number(),
  chunks: z.array(z.string()),
});

export type ParentScore = z.infer<typeof parentScoreSchema>;
