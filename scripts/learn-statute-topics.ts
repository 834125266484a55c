/**
 * Which statutes of the whole corpus are about each word (`npm run learn:statute-topics`): every
 * statute under ../shared/data/laws (one edition per title, the latest) segmented as the app segments
 * questions; for each noun of two or more characters that at least MIN_FILES statutes use, the TOP
 * statutes using it most (occurrences per 10,000 tokens of the statute). Written to
 * resources/collections/statute-topics.tsv and read by collections/subject.ts: a noun of a statute
 * question that the collection never mentions, whose statutes of the corpus are about other matters
 * than the collection's (石油 → 石油天然气管道保护法 asked to the power statutes), names a matter
 * governed elsewhere; one whose statutes share the collection's matter (高压线 → 某市电力设施保护条例)
 * is another word for something the collection does govern.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sharedDir, projectRoot } from '../src/core/common/paths';
import { getJieba, segmentForSearch } from '../src/core/text/segment';
import { listFilesRecursive } from '../src/core/common/files';

const MIN_FILES = 2;
const TOP = 5;
/** nouns no statute is this much about are left out (the rule reads 120 and up; rates below 50 never matter) */
const MIN_TOP_RATE = 50;

const root = path.join(sharedDir(), 'data', 'laws');
// one edition per title: the latest (file names end in the edition date)
const latest = new Map<string, { file: string; text: string }>();
for (const f of listFilesRecursive(root, ['.md']).filter((f) => !path.basename(f).startsWith('_'))) {
  const text = fs.readFileSync(f, 'utf8');
  const title = (text.match(/^#\s*(.+)$/m)?.[1] ?? path.basename(f, '.md')).trim();
  const prev = latest.get(title);
  if (!prev || path.basename(f) > path.basename(prev.file)) latest.set(title, { file: f, text });
}
const titles = [...latest.keys()].sort();
const counts = new Map<string, [number, number][]>(); // word -> [statute, per-10k rate]
for (const [i, t] of titles.entries()) {
  const tokens = segmentForSearch(latest.get(t)!.text).filter((w) => [...w].length >= 2 && !/^[\p{N}a-zA-Z.]+$/u.test(w));
  const tf = new Map<string, number>();
  for (const w of tokens) tf.set(w, (tf.get(w) ?? 0) + 1);
  for (const [w, n] of tf) (counts.get(w) ?? counts.set(w, []).get(w)!).push([i, (10000 * n) / Math.max(500, tokens.length)]);
}
const noun = (w: string) => getJieba().tag(w, false).length === 1 && /^(?:n|vn|nz|j|l)/.test(getJieba().tag(w, false)[0].tag);
const lines: string[] = [];
for (const [w, list] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  if (list.length < MIN_FILES || !noun(w)) continue;
  const top = list.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, TOP);
  if (top[0][1] < MIN_TOP_RATE) continue;
  lines.push(`${w}\t${top.map(([s, r]) => `${s}:${r.toFixed(1)}`).join(' ')}`);
}
const out = path.join(projectRoot(), 'resources', 'collections', 'statute-topics.tsv');
const header = `# statutes of ../shared/data/laws most about each noun (${titles.length} titles, latest edition each; nouns in at least ${MIN_FILES} with a statute at least ${MIN_TOP_RATE} about them; top ${TOP}, occurrences per 10,000 tokens); scripts/learn-statute-topics.ts\n`;
fs.writeFileSync(out, header + titles.map((t, i) => `@${i}\t${t}`).join('\n') + '\n' + lines.join('\n') + '\n');
console.log(`${titles.length} statutes, ${counts.size} words, ${lines.length} nouns kept → ${out} (${(fs.statSync(out).size / 1024).toFixed(0)} KB)`);
