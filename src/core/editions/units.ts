import { parseChineseNumber } from '../text/chinese-numbers';
import type { EditionUnit, StoredUnit, UnitLevel } from './types';

/**
 * Stage 1: the comparable units of an edition. A statute compares by article (第N条); a standard
 * by numbered clause (5.3.2); a text with neither by its sections, else its paragraphs. Appendix
 * prose and tables (one unit per table, its row chunks joined) come along at every level, so
 * appendices are aligned too. Notes travel with what they annotate and are not compared.
 */

const APPENDIX = /^(附录|附件|附表|附\s*[录件])/;
const ARTICLE_LABEL = /^第([零〇一二两三四五六七八九十百千\d]+)条(?:之([零〇一二两三四五六七八九十\d]+))?$/;

/** 第十条 -> 10, 第十条之一 -> 10.01 (sorts between 第十条 and 第十一条). */
export function articleNumber(label: string | null): number | null {
  const m = label ? ARTICLE_LABEL.exec(label) : null;
  if (!m) return null;
  const n = parseChineseNumber(m[1]);
  if (n === null) return null;
  const sub = m[2] ? parseChineseNumber(m[2]) : 0;
  return n + (sub ?? 0) / 100;
}

/** The text as compared: NFKC (full-width brackets and digits unified), no whitespace, the label removed. */
export function bodyOf(text: string, label: string | null): string {
  let t = text.normalize('NFKC').replace(/\s+/g, '');
  const l = label?.normalize('NFKC').replace(/\s+/g, '');
  if (l && t.startsWith(l)) t = t.slice(l.length);
  return t.replace(/^[:：.．、]/, '');
}

/** The chapter a unit sits in: its path without the unit itself, the part naming a 章 (or appendix) preferred. */
export function chapterOf(sectionPath: string, label: string | null): string {
  const parts = sectionPath.split(' > ').map((p) => p.trim()).filter(Boolean);
  if (label && parts.at(-1) === label) parts.pop();
  const chapter = parts.find((p) => /^第[零〇一二两三四五六七八九十百\d]+章/.test(p)) ?? parts.find((p) => APPENDIX.test(p));
  return chapter ?? parts[0] ?? '';
}

function inAppendix(u: StoredUnit): boolean {
  return APPENDIX.test(u.section_path.trim());
}

/** Table units are chunks of rows with the caption and header repeated: one unit per table, header once. */
function joinTables(rows: StoredUnit[]): StoredUnit[] {
  const byLabel = new Map<string, StoredUnit>();
  const out: StoredUnit[] = [];
  for (const r of rows) {
    const key = `${r.label ?? ''}\u0000${r.section_path}`;
    const first = byLabel.get(key);
    if (!first) {
      const copy = { ...r };
      byLabel.set(key, copy);
      out.push(copy);
      continue;
    }
    const seen = new Set(first.text.split('\n').slice(0, 2));
    first.text += '\n' + r.text.split('\n').filter((line, i) => !(i < 2 && seen.has(line))).join('\n');
  }
  return out;
}

export function unitLevel(rows: StoredUnit[]): UnitLevel {
  if (rows.some((r) => r.kind === 'article')) return 'article';
  if (rows.some((r) => r.kind === 'clause')) return 'clause';
  if (rows.some((r) => r.kind === 'section')) return 'section';
  return 'paragraph';
}

/**
 * The comparable units of one edition, in document order. `level` forces the unit kind (both sides
 * of a comparison use the same one, so a statute is never compared paragraph against article).
 */
export function editionUnits(rows: StoredUnit[], level: UnitLevel = unitLevel(rows)): EditionUnit[] {
  const sorted = [...rows].sort((a, b) => a.ord - b.ord);
  const main = (r: StoredUnit): boolean => {
    if (level === 'article') return r.kind === 'article';
    if (level === 'clause') return r.kind === 'clause';
    if (level === 'section') return r.kind === 'section' || (r.kind === 'paragraph' && !r.label);
    return r.kind === 'paragraph' || r.kind === 'section';
  };
  const picked: StoredUnit[] = [];
  const tables: StoredUnit[] = [];
  for (const r of sorted) {
    if (r.kind === 'note') continue;
    if (r.kind === 'table') tables.push(r);
    else if (main(r) || inAppendix(r)) picked.push(r);
  }
  const withTables = [...picked, ...joinTables(tables)].sort((a, b) => a.ord - b.ord);
  // a paragraph has no label: name it by its place (the heading it is under and its position there)
  const paragraphNo = new Map<string, number>();
  const units: EditionUnit[] = [];
  for (const r of withTables) {
    let label = r.label?.trim() || '';
    if (!label) {
      const place = r.section_path.split(' > ').at(-1)?.trim() || '正文';
      const n = (paragraphNo.get(place) ?? 0) + 1;
      paragraphNo.set(place, n);
      label = `${place} · 第${n}段`;
    }
    const body = bodyOf(r.text, r.label);
    if (!body && !r.text.trim()) continue;
    units.push({
      index: units.length,
      label,
      number: articleNumber(r.label),
      chapter: chapterOf(r.section_path, r.label),
      text: r.text,
      body,
      unit_id: r.id,
      page_num: r.page_num,
    });
  }
  return units;
}
