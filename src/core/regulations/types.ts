import { z } from 'zod';

/** Seed 002 §1.4 RegulationInfo, plus a few fields the UI needs. */
export const regulationInfoSchema = z.object({
  reg_id: z.string(),
  title: z.string(),
  source_file: z.string(),
  total_pages: z.number().int(),
  indexed_at: z.string(),
  description: z.string().nullable(),
  keywords: z.array(z.string()),
  scope: z.string().nullable(),
  format: z.string(),
  is_demo: z.boolean(),
  unit_count: z.number().int(),
  toc_count: z.number().int(),
});
export type RegulationInfo = z.infer<typeof regulationInfoSchema>;

export const tocEntrySchema = z.object({
  id: z.number().int(),
  level: z.number().int(),
  title: z.string(),
  page_num: z.number().int(),
  parent_id: z.number().int().nullable(),
});
export type TocEntry = z.infer<typeof tocEntrySchema>;

export const pageSchema = z.object({
  page_num: z.number().int(),
  text: z.string(),
});

export type RegulationFormat = 'pdf' | 'markdown' | 'text' | 'docx';

/** A unit of citable text inside a page (article 第二十条, clause 5.3.2, or a paragraph). */
export interface ParsedUnit {
  page_num: number;
  kind: 'article' | 'clause' | 'section' | 'paragraph';
  label: string | null;
  section_path: string;
  text: string;
}

export interface ParsedToc {
  level: number;
  title: string;
  page_num: number;
}

/** What every format parser produces; the store writes it in one transaction. */
export interface ParsedDocument {
  title: string;
  format: RegulationFormat;
  pages: { page_num: number; text: string }[];
  toc: ParsedToc[];
  units: ParsedUnit[];
}

/** info.json (seed 002 §1.5). */
export const infoJsonSchema = z.object({
  reg_id: z.string(),
  title: z.string().optional(),
  source_file: z.string().optional(),
  total_pages: z.number().int().optional(),
  indexed_at: z.string().optional(),
  description: z.string().nullable().optional(),
  keywords: z.array(z.string()).optional(),
  scope: z.string().nullable().optional(),
});
export type InfoJson = z.infer<typeof infoJsonSchema>;
