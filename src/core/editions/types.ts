/**
 * Shared types of the editions pipeline (units → similarity → align → words → summary, sequenced by
 * compare.ts). The pipeline is pure: it gets the stored units of two regulations and returns pairs.
 */

/** A stored unit as the regulations engine keeps it (reg_units row). */
export interface StoredUnit {
  id?: number;
  ord: number;
  page_num?: number;
  kind: string;
  label: string | null;
  section_path: string;
  text: string;
}

/** One comparable unit of an edition: an article (or clause / section / paragraph when it has none). */
export interface EditionUnit {
  /** position among the edition's comparable units */
  index: number;
  /** as printed: 第十条, 5.3.2, or a paragraph's place (总则 · 第2段) */
  label: string;
  /** the article number when the label is 第N条 / 第N条之M (N + M/100), for the number prior */
  number: number | null;
  /** chapter or appendix the unit sits in (第三章 法律责任 / 附录A), '' at the top level */
  chapter: string;
  /** the unit's text as stored (label included) */
  text: string;
  /** the text without its label, normalised (NFKC, no whitespace): what "same text" compares */
  body: string;
  unit_id?: number;
  page_num?: number;
}

export type UnitLevel = 'article' | 'clause' | 'section' | 'paragraph';

export type ChangeKind = 'same' | 'moved' | 'modified' | 'added' | 'deleted';

/** A word-level change run: '=' kept, '-' only in the old text, '+' only in the new text. */
export interface WordRun {
  op: '=' | '-' | '+';
  text: string;
}

export interface PairSide {
  article: string;
  text: string;
  chapter: string;
  unit_id?: number;
  page_num?: number;
}

export interface EditionPair {
  change: ChangeKind;
  old: PairSide | null;
  new: PairSide | null;
  /** 0..1 text similarity of the two sides (pairs with both sides) */
  similarity?: number;
  /** the number changed (moved, or modified and renumbered) */
  renumbered?: boolean;
  /** an old article split over several new ones, or several old ones merged into one new */
  relation?: 'split' | 'merged';
  /** the other articles of that split / merge (labels in the other edition) */
  related?: string[];
  /** word-level diff of a modified pair */
  words?: WordRun[];
}

export interface ChangeSummary {
  same: number;
  moved: number;
  modified: number;
  added: number;
  deleted: number;
}

export interface ChapterSummary extends ChangeSummary {
  chapter: string;
  /** 第三章 法律责任：新增 2 条，修改 5 条，删除 1 条 */
  text: string;
}

export interface EditionComparison {
  level: UnitLevel;
  summary: ChangeSummary;
  chapters: ChapterSummary[];
  pairs: EditionPair[];
}
