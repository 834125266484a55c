import fs from 'node:fs';
import path from 'node:path';
import type { Jieba } from '@node-rs/jieba';
import { normalizeText } from './normalize';
import { resourcesDir } from '../common/paths';
import { lazyModule } from '../common/lazy';

// The native addon and its 5 MB dictionary load on first segmentation, not at start-up.
const jiebaPackage = lazyModule<typeof import('@node-rs/jieba')>('@node-rs/jieba');
const jiebaDict = lazyModule<{ dict: Uint8Array }>('@node-rs/jieba/dict.js');

/**
 * Chinese segmentation shared by every search index (regulations, collections) and by queries:
 * jieba with its default dictionary plus a domain user dictionary (resources/dict/*.txt and words
 * added at run time). Tokens are normalised (NFKC, lower case) and reduced to characters the FTS5
 * unicode61 tokenizer keeps together (letters, digits and `- . _ +`), so one jieba token is always
 * exactly one FTS token: `500kV` -> `500kv`, `N-1` -> `n-1`.
 */

/** Characters FTS5 must treat as part of a token (see FTS_TOKENCHARS in search/lexical.ts). */
export const TOKEN_EXTRA_CHARS = '-._+';

// Function words and question words: they carry no topic and match almost every article.
const STOP_WORDS = new Set(
  (
    '的 了 和 与 或 及 以及 是 在 对 把 被 为 于 由 等 中 之 其 这 那 这个 那个 这些 那些 就 都 而 并 且 也 还 又 即 则 若 如 ' +
    '吗 呢 吧 啊 呀 嘛 么 哪 哪些 哪个 什么 怎么 怎么办 怎样 如何 为什么 多少 几 是否 是不是 有没有 能否 能不能 可否 ' +
    '我 你 他 她 它 我们 你们 他们 她们 自己 本人 请问 一下 一个 个 有 没有 没 会 要 想 让 给 从 到 向 跟 同 比 ' +
    '上 下 里 后 前 时 时候 之后 之前 以上 以下 所 所以 因为 如果 但是 但 可是 然后 那么 这样 那样 已经 应该 需要 ' +
    '呢 嗯 哦 吗 啥 咋 该 着 过 得 地 不 很 最 更 太 非常 比较'
  )
    .split(/\s+/)
    .filter(Boolean),
);

let jieba: Jieba | undefined;
const runtimeWords = new Set<string>();

function dictFiles(): string[] {
  const dir = path.join(resourcesDir(), 'dict');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** "word [freq] [tag]" lines -> jieba dict lines (default frequency high enough to win over splits). */
function toDictLines(text: string): string {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [word, freq, tag] = line.split(/\s+/);
    if (!word) continue;
    out.push(`${word} ${freq && /^\d+$/.test(freq) ? freq : '20000'} ${tag ?? 'n'}`);
  }
  return out.join('\n');
}

/** The one jieba instance of the process (dictionary load ≈ 200 ms, so only once). */
export function getJieba(): Jieba {
  if (jieba) return jieba;
  const j = jiebaPackage().Jieba.withDict(jiebaDict().dict);
  for (const file of dictFiles()) {
    const lines = toDictLines(fs.readFileSync(file, 'utf8'));
    if (lines) j.loadDict(Buffer.from(lines));
  }
  if (runtimeWords.size) j.loadDict(Buffer.from([...runtimeWords].map((w) => `${w} 20000 n`).join('\n')));
  jieba = j;
  return j;
}

/**
 * Adds domain words at run time (e.g. keywords of an imported regulation). Words are kept so a
 * later re-created instance has them too. Text indexed before the call keeps its old tokens.
 */
export function addUserWords(words: Iterable<string>): number {
  const fresh: string[] = [];
  for (const w of words) {
    const word = w.trim();
    if (!word || /\s/.test(word) || runtimeWords.has(word)) continue;
    runtimeWords.add(word);
    fresh.push(word);
  }
  if (fresh.length && jieba) jieba.loadDict(Buffer.from(fresh.map((w) => `${w} 20000 n`).join('\n')));
  return fresh.length;
}

/** Forgets run-time words: the next segmentation rebuilds jieba from the bundled dictionaries (tests reset with it). */
export function resetUserWords(): void {
  runtimeWords.clear();
  jieba = undefined;
}

/** Loads an extra user dictionary file (same format as resources/dict/*.txt). */
export function loadUserDictFile(file: string): number {
  const lines = toDictLines(fs.readFileSync(file, 'utf8'));
  return addUserWords(lines.split('\n').map((l) => l.split(' ')[0]));
}

const NON_TOKEN = /[^\p{L}\p{N}\-._+]/gu;
const EDGE = /^[-._+]+|[-._+]+$/g;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** One jieba piece -> index token, or null when it is punctuation, space or a stop word. */
export function cleanToken(piece: string): string | null {
  const t = piece.replace(NON_TOKEN, '').replace(EDGE, '');
  if (!t || !HAS_WORD.test(t) || STOP_WORDS.has(t)) return null;
  return t;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

function clean(pieces: string[]): string[] {
  const out: string[] = [];
  for (const p of pieces) {
    const t = cleanToken(p);
    if (t) out.push(t);
  }
  return out;
}

/** Precise-mode tokens in order (duplicates kept): for display, highlighting and term statistics. */
export function segment(text: string): string[] {
  if (!text) return [];
  return clean(getJieba().cut(normalizeText(text), true));
}

/** Precise-mode tokens with their jieba part-of-speech tags (n… nouns, v verbs, …), stop words removed. */
export function tagged(text: string): { word: string; tag: string }[] {
  if (!text) return [];
  const out: { word: string; tag: string }[] = [];
  for (const w of getJieba().tag(normalizeText(text), true)) {
    const t = cleanToken(w.word);
    if (t) out.push({ word: t, tag: w.tag });
  }
  return out;
}

/**
 * Search-mode tokens: precise tokens plus the dictionary sub-words of long words (特高压 -> 特高, 高压,
 * 特高压), so a query word and a document word meet even when one side is the compound. Used for
 * both indexing and querying.
 */
export function segmentForSearch(text: string): string[] {
  if (!text) return [];
  return clean(getJieba().cutForSearch(normalizeText(text), true));
}

/** Distinct search-mode tokens of a query, in first-seen order. */
export function queryTokens(text: string): string[] {
  return [...new Set(segmentForSearch(text))];
}

/** Many texts -> space-joined index strings (bulk indexing; one call per text, no extra allocations). */
export function indexStrings(texts: string[]): string[] {
  const j = getJieba();
  return texts.map((t) => (t ? clean(j.cutForSearch(normalizeText(t), true)).join(' ') : ''));
}
