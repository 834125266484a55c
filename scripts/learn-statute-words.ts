/**
 * Which words the statutes use at all (`npm run learn:statute-words`): every statute under
 * ../shared/data/laws segmented as the app segments questions (segmentForSearch), the number of
 * statutes each word of two or more characters occurs in, kept when it is at least MIN_FILES.
 * Written to resources/collections/statute-words.json and read by collections/subject.ts: a noun no
 * statute of the whole corpus uses (电饭锅, 老板, 跳槽) is an everyday word whose kind the statutes
 * name (商品, 用人单位, 解除劳动合同), so its absence from a statute collection is no sign that the
 * question's matter is absent; a noun the statutes do use but the collection never does (驾驶证,
 * 商标, 天然气) names a matter regulated elsewhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sharedDir, projectRoot } from '../src/core/common/paths';
import { segmentForSearch } from '../src/core/text/segment';

const MIN_FILES = 2;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (e.name.endsWith('.md')) out.push(p);
  }
  return out.sort();
}

const root = path.join(sharedDir(), 'data', 'laws');
const list = files(root);
const df = new Map<string, number>();
for (const [i, f] of list.entries()) {
  const words = new Set(segmentForSearch(fs.readFileSync(f, 'utf8')).filter((w) => [...w].length >= 2 && !/^[\p{N}a-zA-Z.]+$/u.test(w)));
  for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
  if (i % 500 === 0) process.stderr.write(`${i}/${list.length}\r`);
}
const kept = [...df].filter(([, n]) => n >= MIN_FILES).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
// one line per document count: "<count>\t<word> <word> …" (compact and diffable)
const byCount = new Map<number, string[]>();
for (const [w, n] of kept) (byCount.get(n) ?? byCount.set(n, []).get(n)!).push(w);
const out = path.join(projectRoot(), 'resources', 'collections', 'statute-words.tsv');
const header = `# statutes of ../shared/data/laws each word occurs in (${list.length} statutes; words in at least ${MIN_FILES}); scripts/learn-statute-words.ts\n`;
fs.writeFileSync(out, header + [...byCount].map(([n, ws]) => `${n}\t${ws.join(' ')}`).join('\n') + '\n');
console.log(`${list.length} statutes, ${df.size} words, ${kept.length} kept → ${out} (${(fs.statSync(out).size / 1024).toFixed(0)} KB)`);
