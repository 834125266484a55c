import type { ChangeSummary, ChapterSummary, EditionPair } from './types';

/**
 * Stage 5: counts per change kind, overall and per chapter ("第三章 法律责任：新增 2 条，修改 5 条，
 * 删除 1 条"). A pair counts in the new edition's chapter; a deleted article in the old one's.
 */

export function emptySummary(): ChangeSummary {
  return { same: 0, moved: 0, modified: 0, added: 0, deleted: 0 };
}

export function summarise(pairs: EditionPair[]): ChangeSummary {
  const s = emptySummary();
  for (const p of pairs) s[p.change]++;
  return s;
}

const WORDS: [keyof ChangeSummary, string][] = [
  ['added', '新增'],
  ['modified', '修改'],
  ['deleted', '删除'],
  ['moved', '移动'],
];

/** 新增 2 条，修改 5 条，删除 1 条 (kinds with none left out; "未修改" when nothing changed). */
export function describeCounts(s: ChangeSummary, unit = '条'): string {
  const parts = WORDS.filter(([k]) => s[k] > 0).map(([k, w]) => `${w} ${s[k]} ${unit}`);
  return parts.length ? parts.join('，') : '未修改';
}

export function chapterSummaries(pairs: EditionPair[], unit = '条'): ChapterSummary[] {
  const order: string[] = [];
  const counts = new Map<string, ChangeSummary>();
  for (const p of pairs) {
    const chapter = (p.new ?? p.old)?.chapter || '（章节之外）';
    let s = counts.get(chapter);
    if (!s) {
      counts.set(chapter, (s = emptySummary()));
      order.push(chapter);
    }
    s[p.change]++;
  }
  return order.map((chapter) => {
    const s = counts.get(chapter)!;
    return { chapter, ...s, text: `${chapter}：${describeCounts(s, unit)}` };
  });
}
