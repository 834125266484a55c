import type { OcrPageLine } from '../ocr/types';
import type { ParsedTable } from './tables';
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
  /** the keywords a program generated (offline / LLM enrich); the others are curated (info.json, edits) */
  generated_keywords: z.array(z.string()).default([]),
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

/** A TOC tree node (get_toc's tree): children deeper than max_depth are counted, not listed. */
export interface TocTreeNode {
  id: number;
  title: string;
  level: number;
  page_start: number;
  page_end: number;
  hidden_children: number;
  children: TocTreeNode[];
}
export const tocNodeSchema: z.ZodType<TocTreeNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    title: z.string(),
    level: z.number().int(),
    page_start: z.number().int(),
    page_end: z.number().int(),
    hidden_children: z.number().int(),
    children: z.array(tocNodeSchema),
  }),
);

export const pageSchema = z.object({
  page_num: z.number().int(),
  text: z.string(),
  /** a partial page (longer than one response): where `text` starts and the page's full length */
  offset: z.number().int().optional(),
  total_chars: z.number().int().optional(),
});

export type RegulationFormat = 'pdf' | 'markdown' | 'text' | 'docx';

/** A unit of citable text inside a page (article 第二十条, clause 5.3.2, or a paragraph). */
export interface ParsedUnit {
  page_num: number;
  kind: 'article' | 'clause' | 'section' | 'paragraph' | 'table' | 'note' | 'figure';
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
  /** structure found at import (absent for documents parsed before it existed, e.g. collections) */
  tables?: ParsedTable[];
  notes?: ParsedNote[];
  refs?: ParsedReference[];
  /** pages read by OCR (scanned PDF pages) */
  ocr?: ParsedOcr;
  /** figures (caption 图X-Y + the picture region next to it) */
  figures?: ParsedFigure[];
}

export interface ParsedFigure {
  /** 图3-1 */
  figure_id: string;
  caption: string;
  page_num: number;
  /** [x0, y0, x1, y1] in PDF points from the page's top-left corner */
  bbox: [number, number, number, number];
  page_width: number;
  page_height: number;
  /** sentences that cite it */
  citing: { page_num: number; label: string | null; text: string }[];
}

/** Line boxes as fractions of the page (top-left origin), so any rendering scale can use them. */
export type OcrLineBox = OcrPageLine & { page_num: number };

export interface ParsedOcr {
  pages: number[];
  /** mean line confidence over the OCR pages (0..1), null when no line was read */
  mean_confidence: number | null;
  lines: OcrLineBox[];
  /** pages left out, in Chinese (too large, unreadable image) */
  notes: string[];
  /** seconds the OCR took */
  seconds: number;
}

/** A note (注 / 注1 / 说明) and what it annotates. */
export interface ParsedNote {
  label: string;
  text: string;
  page_num: number;
  section_path: string;
  target_type: 'table' | 'article' | 'section';
  /** table id (表A.1), article label (第二十条) or section path */
  target: string;
}

/** A cross-reference found in the text ("见附录D", "按本规程第三十二条执行"). */
export interface ParsedReference {
  page_num: number;
  /** label or section path of the unit the reference is written in */
  source: string;
  text: string;
  ref_type: string;
  target: string;
  regulation: string | null;
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
