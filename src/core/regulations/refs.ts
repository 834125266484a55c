import { parseChineseNumber, toChineseNumber } from '../text/chinese-numbers';
import { NOTE_RE, normalizeTableNumber } from './tables';
import { normalizeFigureNumber } from './figures';

/**
 * Notes (注 / 注1 / 说明) and cross-references ("见表6-2", "见附录D", "按本规程第三十二条执行",
 * "详见第六章", "第三节", "注1", "《电网调度管理条例》第十条") found in regulation text.
 */

export { NOTE_RE };

const STEMS = '甲乙丙丁戊己庚辛';

/**
 * A note's label in one form per family: 注1 = 注一 = 注① = 注１ -> "注1"; 方案A = 方案甲 = 方案ａ -> "方案A"
 * (甲乙丙丁… are the Chinese way of lettering A B C D…).
 */
export function canonicalNoteMark(word: string, mark: string): string {
  const m = mark.replace(/[０-９Ａ-Ｚａ-ｚ]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (!m) return word;
  if (/^[①-⑳]$/.test(m)) return `${word}${m.charCodeAt(0) - 0x2460 + 1}`;
  if (/^\d+$/.test(m)) return `${word}${Number(m)}`;
  if (STEMS.includes(m)) return `${word}${String.fromCharCode(65 + STEMS.indexOf(m))}`;
  if (/^[A-Za-z]$/.test(m)) return `${word}${m.toUpperCase()}`;
  return `${word}${parseChineseNumber(m) ?? m}`;
}

/** "注1：…" -> "注1"; "注①：" -> "注1"; "方案甲：" -> "方案A"; "注：" -> "注"; "说明：" -> "说明". */
export function noteLabel(line: string): string | null {
  const m = NOTE_RE.exec(line.replace(/\*\*/g, '').trim());
  if (!m) return null;
  return canonicalNoteMark(m[1], m[2] ?? '');
}

const SUPER_PLAIN: Record<string, string> = Object.fromEntries([...'ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ¹²³⁴⁵⁶⁷⁸⁹'].map((c, i) => [c, 'abcdefghijklmnoprstuvwxyz123456789'[i]]));
const FOOTNOTE_RE = /^([a-z]|[ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ¹²³⁴⁵⁶⁷⁸⁹]|\*{1,3}|[†‡])\s*[)）:：.、]?\s*(?=[^\s\x00-\x7f])/;

/**
 * A footnote under a table keyed by a marker printed in its cells ("a 仅适用于户内设备。" for "31.5ᵃ",
 * "* 表示最小值。" for "≥0.5*"): the label ("a", "*") when `cells` hold that marker, else null — so a line
 * that merely starts with a letter or a Markdown bullet is never a note.
 */
export function footnoteLabel(line: string, cells: string[]): string | null {
  const m = FOOTNOTE_RE.exec(line.trim());
  if (!m) return null;
  const label = SUPER_PLAIN[m[1]] ?? m[1];
  const sup = Object.keys(SUPER_PLAIN).find((k) => SUPER_PLAIN[k] === label);
  const esc = label.replace(/\*/g, '\\*');
  const marked = new RegExp(`[\\d.%)）]${esc}$`);
  return cells.some((c) => (sup && c.includes(sup)) || marked.test(c.trim())) ? label : null;
}

/** A note label the user typed ("注 1", "注１", "注一", "注①", "方案甲", "1") in stored form. */
export function normalizeNoteLabel(input: string): string {
  const t = input.replace(/\s+/g, '').replace(/[:：]$/, '');
  // a bare mark ("1", "①", "一") is a 注
  const bare = /^([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3}|[①-⑳])$/.test(t) ? `注${t}` : t;
  return noteLabel(`${bare}：x`) ?? bare;
}

export type ReferenceType = 'article' | 'clause' | 'chapter' | 'section' | 'part' | 'appendix' | 'table' | 'figure' | 'note' | 'regulation';

export interface FoundReference {
  /** the matched words, e.g. "第三十二条", "附录D", "表6-2", "《电网调度管理条例》第十条" */
  text: string;
  type: ReferenceType;
  /** normalised target: 第三十二条 / 5.3.2 / 第六章 / 附录D / 表6-2 / 注1 / regulation title */
  target: string;
  /** another regulation named by title (《…》) the target lives in */
  regulation: string | null;
  index: number;
}

const NUM = '零〇一二两三四五六七八九十百千万\\d０-９';
/** typed references often space the number out: "第 22 条", "第 6 章" (never across lines) */
const SP = '[ \\u3000]{0,2}';

/** "32" / "三十二" / "３２" -> "三十二" (labels are stored with Chinese numerals). */
export function chineseOrdinal(raw: string): string {
  const ascii = raw.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (/^\d+$/.test(ascii)) return toChineseNumber(Number(ascii));
  const n = parseChineseNumber(ascii);
  return n === null ? ascii : toChineseNumber(n);
}

const REF_RE = new RegExp(
  [
    `《(?<reg>[^》]{2,60})》(?:\\s*(?:第${SP}(?<regart>[${NUM}]+)${SP}条(?<regartsub>之[${NUM}]+)?))?`,
    `第${SP}(?<art>[${NUM}]+)${SP}条(?<artsub>之[${NUM}]+)?`,
    `第${SP}(?<chap>[${NUM}]+)${SP}(?<chapkind>编|分编|章|节)`,
    `附\\s*录\\s*(?<app>[A-Z](?![A-Za-z])|[一二三四五六七八九十]{1,3}|\\d{1,2})`,
    `(?<tword>附表|续表|表)\\s*(?<tab>(?:[A-Z]\\s*[.．\\-－—–]?\\s*)?\\d+(?:\\s*[.．\\-－—–]\\s*\\d+){0,3})`,
    // 图 as a word of its own (地图, 蓝图 are not figures), or right after 见/如/按/参/详
    `(?:(?<![\\u4e00-\\u9fff])|(?<=[见如按照依据参详]))图\\s*(?<fig>[A-Z]?\\s*\\d+(?:\\s*[.．\\-－—–]\\s*\\d+){0,2})(?![\\d.．])`,
    `(?<=[见按照依据参详])\\s*(?<noteword>注|方案)\\s*(?<note>\\d{1,2}|[一二三四五六七八九十]{1,3}|[①-⑳]|(?<=方案\\s*)[A-Z甲乙丙丁戊己庚辛](?![A-Za-z]))`,
    `(?<=[见按照依据参详第])\\s*(?<clause>\\d{1,2}(?:\\.\\d{1,3}){1,4})\\s*(?:条|款|节)?`,
  ].join('|'),
  'g',
);

/** Every reference in a text, in order. `skipLeadingLabel` skips the unit's own label (第十条 …). */
export function findReferences(text: string, options: { skipLeadingLabel?: boolean } = {}): FoundReference[] {
  const out: FoundReference[] = [];
  for (const m of text.matchAll(REF_RE)) {
    const g = m.groups ?? {};
    const index = m.index ?? 0;
    if (options.skipLeadingLabel && index === 0 && (g.art || g.clause)) continue;
    const raw = m[0].trim();
    if (g.reg) {
      const title = g.reg.trim();
      if (g.regart) out.push({ text: raw, type: 'article', target: `第${chineseOrdinal(g.regart)}条${g.regartsub ? `之${chineseOrdinal(g.regartsub.slice(1))}` : ''}`, regulation: title, index });
      else out.push({ text: raw, type: 'regulation', target: title, regulation: title, index });
    } else if (g.art) {
      out.push({ text: raw, type: 'article', target: `第${chineseOrdinal(g.art)}条${g.artsub ? `之${chineseOrdinal(g.artsub.slice(1))}` : ''}`, regulation: null, index });
    } else if (g.chap) {
      const kind = g.chapkind;
      const type: ReferenceType = kind === '节' ? 'section' : kind === '章' ? 'chapter' : 'part';
      out.push({ text: raw, type, target: `第${chineseOrdinal(g.chap)}${kind}`, regulation: null, index });
    } else if (g.app) {
      out.push({ text: raw, type: 'appendix', target: `附录${g.app}`, regulation: null, index });
    } else if (g.tab) {
      out.push({ text: raw, type: 'table', target: `${g.tword === '附表' ? '附表' : '表'}${normalizeTableNumber(g.tab)}`, regulation: null, index });
    } else if (g.fig) {
      out.push({ text: raw, type: 'figure', target: `图${normalizeFigureNumber(g.fig)}`, regulation: null, index });
    } else if (g.note) {
      out.push({ text: raw, type: 'note', target: canonicalNoteMark(g.noteword, g.note), regulation: null, index });
    } else if (g.clause) {
      out.push({ text: raw, type: 'clause', target: g.clause, regulation: null, index });
    }
  }
  return out;
}
