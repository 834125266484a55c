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

/** where no word can continue: punctuation and whitespace, as a lookup table over UTF-16 units */
const STOP = new Uint8Array(65536);
for (const ch of ' \t\r\n\u3000，。；：、！？,.;:!?（）()《》“”') STOP[ch.charCodeAt(0)] = 1;

/** The text cut after each punctuation mark or space; joined back it is the text. */
function clauses(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let k = 0; k < text.length; k++) {
    if (STOP[text.charCodeAt(k)]) {
      out.push(text.slice(from, k + 1));
      from = k + 1;
    }
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

function push(runs: WordRun[], op: WordRun['op'], text: string): void {
  if (!text) return;
  const last = runs.at(-1);
  if (last && last.op === op) last.text += text;
  else runs.push({ op, text });
}

/** Word-level diff of two stretches that differ: segmented into words and diffed. */
function diffWords(runs: WordRun[], a: string, b: string): void {
  if (!a || !b) {
    push(runs, '-', a);
    push(runs, '+', b);
    return;
  }
  for (const part of diffArrays(words(a), words(b))) push(runs, part.added ? '+' : part.removed ? '-' : '=', part.value.join(''));
}

/**
 * Most edits touch a few places of a long article: the texts are first compared clause by clause
 * (cut after punctuation and spaces, where no word can continue), clauses kept as they were stay
 * whole, and only the stretches between them are segmented into words and diffed — a renumbered
 * article's new label touches its first clause only.
 */
export function wordDiff(oldText: string, newText: string): WordRun[] {
  const runs: WordRun[] = [];
  let removed = '';
  let added = '';
  for (const part of diffArrays(clauses(oldText), clauses(newText))) {
    const text = part.value.join('');
    if (part.removed) removed += text;
    else if (part.added) added += text;
    else {
      diffWords(runs, removed, added);
      removed = added = '';
      push(runs, '=', text);
    }
  }
  diffWords(runs, removed, added);
  return runs;
}

/** Old / new text marked for a terminal: [-removed-]{+added+}. */
export function markedText(runs: WordRun[]): string {
  return runs.map((r) => (r.op === '=' ? r.text : r.op === '-' ? `[-${r.text}-]` : `{+${r.text}+}`)).join('');
}
