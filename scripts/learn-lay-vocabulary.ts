/**
 * Learns resources/collections/lay-vocabulary.json (everyday question word -> statute words) from
 * ../shared/data/stard/train.jsonl and the articles its questions cite in ../shared/data/laws:
 * `npm run learn:lay`. Deterministic (same inputs, same file). Collections keep the rows their own
 * text supports (src/core/collections/lay-terms.ts); eval/collections-stard.eval.ts refits the same
 * way on its learn part only and never reads this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/core/common/paths';
import { stardSharedPaths } from './lib/stard-shared';
import { LAY_LEARN_DEFAULTS, learnLayVocabulary } from '../src/core/collections/lay-vocabulary';
import { readStardQuestions } from '../eval/stard.eval';
import { lawArticlePairs } from './lib/law-pairs';

const { laws, stardDir, trainFile } = stardSharedPaths();
const pairs = lawArticlePairs(laws, readStardQuestions(trainFile));
const table = learnLayVocabulary(pairs);
const out = {
  _about: 'GridCode learned everyday vocabulary (question word -> statute words, score = P(v|w) x PMI), by scripts/learn-lay-vocabulary.ts from STARD train.jsonl and the articles it cites. Used per collection by src/core/collections/lay-terms.ts.',
  _source: 'STARD (THUIR) train.jsonl (../shared/data/stard), statutes of ../shared/data/laws',
  _license: fs.readFileSync(path.join(stardDir, 'LICENSE'), 'utf8').trim(),
  options: LAY_LEARN_DEFAULTS,
  pairs: pairs.length,
  table,
};
const dest = path.join(projectRoot(), 'resources', 'collections', 'lay-vocabulary.json');
fs.writeFileSync(dest, JSON.stringify(out, null, 0).replace(/\],"/g, '],\n"') + '\n');
console.log(`写出 ${dest}: ${Object.keys(table).length} 个日常词, 来自 ${pairs.length} 个问题`);
