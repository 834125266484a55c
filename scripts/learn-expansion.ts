/**
 * Derives resources/search/expansion.json (question word -> statute words) and
 * resources/search/known-questions.json (question -> articles) from STARD's train.jsonl only: `npx tsx scripts/learn-expansion.ts`. Uses the laws corpus imported by the
 * STARD eval (.cache/eval/stard, imported on first use) for article texts and idf. Deterministic.
 * smart_search uses the table as a separate expansion list; words the library does not contain are
 * ignored, so it only acts on law-like libraries. Held-out numbers come from `npm run eval -- stard`,
 * which refits both the same way on the train part of its split and never reads these files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAppContext } from '../src/core/context';
import { projectRoot } from '../src/core/common/paths';
import { stardSharedPaths } from './lib/stard-shared';
import { documentFrequencies, idfOf, stats } from '../src/core/search/lexical';
import { EXPANSION_MAX_TERMS, QaMemory, fitExpansionTable, type TrainPair } from '../src/core/search/learn';
import { ensureImported, readStardQuestions, resolveGold } from '../eval/stard.eval';

const { laws, stardDir, trainFile } = stardSharedPaths();
const ctx = createAppContext({ dataDir: path.join(projectRoot(), '.cache', 'eval', 'stard') });
try {
  await ensureImported(ctx, laws);
  const raw = readStardQuestions(trainFile);
  const qs = resolveGold(ctx, laws, raw).filter((q) => q.gold.length > 0);
  const total = stats(ctx.db).total;
  const df = new Map<string, number>();
  const idf = (t: string) => {
    if (!df.has(t)) df.set(t, documentFrequencies(ctx.db, [t]).get(t) ?? 0);
    return idfOf(df.get(t)!, total);
  };
  const unitText = ctx.db.prepare('SELECT text FROM reg_units WHERE id = ?');
  const pairs: TrainPair[] = qs.map((q) => ({
    question: q.question,
    passages: q.gold.map((id) => ({ id, text: (unitText.get(id) as { text: string }).text })),
  }));
  const table = fitExpansionTable(pairs, idf);
  const words = Object.keys(table).sort();
  const sorted: Record<string, [string, number][]> = {};
  for (const w of words) sorted[w] = table[w];
  const license = fs.readFileSync(path.join(stardDir, 'LICENSE'), 'utf8').trim();
  const out = {
    _about: 'GridCode learned query expansion (question word -> statute words), derived by scripts/learn-expansion.ts from STARD train.jsonl only.',
    _source: 'STARD (THUIR) train.jsonl (../shared/data/stard)',
    _license: license,
    max_terms: EXPANSION_MAX_TERMS,
    pairs: pairs.length,
    table: sorted,
  };
  const dest = path.join(projectRoot(), 'resources', 'search', 'expansion.json');
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, JSON.stringify(out, null, 0).replace(/\],"/g, '],\n"') + '\n');
  console.log(`写出 ${dest}: ${words.length} 个问句词, 来自 ${pairs.length} 个问题`);
  // the same questions with the articles that answer them, as named in train.jsonl (known questions)
  const knownDest = path.join(projectRoot(), 'resources', 'search', 'known-questions.json');
  const known = {
    _about: 'GridCode known questions (lay question -> the statute articles answering it), from STARD train.jsonl only, by scripts/learn-expansion.ts. Used by src/core/regulations/known-questions.ts.',
    _source: 'STARD (THUIR) train.jsonl (../shared/data/stard)',
    _license: license,
    questions: qs.map((q) => ({ question: q.question, relevant: q.relevant, tokens: QaMemory.weigh(q.question, idf).map(([t, w]) => [t, Math.round(w * 1000) / 1000]) })),
  };
  fs.writeFileSync(knownDest, JSON.stringify(known, null, 0).replace(/\},\{"question"/g, '},\n{"question"') + '\n');
  console.log(`写出 ${knownDest}: ${known.questions.length} 个问题`);
} finally {
  await ctx.close();
}
