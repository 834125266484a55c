import { diffArrays } from 'diff';
import type { WordRun } from './types';

/**
 * Stage 4: word-level changes of a modified pair. Chinese has no spaces, so the texts are cut into
 * words by the runtime's ICU word segmenter (Intl.Segmenter, no dictionary to load), the word
 * sequences are diffed (the `diff` package's Myers diff), and runs of one kind are joined.
 */

let segmenter: Intl.Segmenter | undefined;

export function words(text: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const out: string[] = [];
  for (const s of segmenter.segment(text)) out.push(s.segment);
  return out;
}

/**
 * Most edits touch a few places of a long article: the common head and tail are cut off first (back
 * to a word boundary, so a word is never split), and only the middle is segmented and diffed.
 */
export function wordDiff(oldText: string, newText: string): WordRun[] {
  let head = 0;
  const max = Math.min(oldText.length, newText.length);
  while (head < max && oldText.charCodeAt(head) === newText.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < max - head && oldText.charCodeAt(oldText.length - 1 - tail) === newText.charCodeAt(newText.length - 1 - tail)) tail++;
  // back off to punctuation or whitespace, where no word can continue
  const stop = /[\s，。；：、！？,.;:!?（）()《》“”]/;
  while (head > 0 && !stop.test(oldText[head - 1])) head--;
  while (tail > 0 && !stop.test(oldText[oldText.length - tail])) tail--;
  const runs: WordRun[] = [];
  if (head) runs.push({ op: '=', text: oldText.slice(0, head) });
  for (const part of diffArrays(words(oldText.slice(head, oldText.length - tail)), words(newText.slice(head, newText.length - tail)))) {
    const op: WordRun['op'] = part.added ? '+' : part.removed ? '-' : '=';
    const text = part.value.join('');
    if (!text) continue;
    const last = runs.at(-1);
    if (last && last.op === op) last.text += text;
    else runs.push({ op, text });
  }
  if (tail) {
    const text = oldText.slice(oldText.length - tail);
    const last = runs.at(-1);
    if (last && last.op === '=') last.text += text;
    else runs.push({ op: '=', text });
  }
  return runs;
}

/** Old / new text marked for a terminal: [-removed-]{+added+}. */
export function markedText(runs: WordRun[]): string {
  return runs.map((r) => (r.op === '=' ? r.text : r.op === '-' ? `[-${r.text}-]` : `{+${r.text}+}`)).join('');
}
