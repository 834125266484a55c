import { z } from 'zod';
import { GridError } from '../common/errors';
import raw from './data/question-words.json' with { type: 'json' };

/**
 * Question words (src/core/collections/data/question-words.json): how a question asks (`怎么`,
 * `可以`, `什么样`), never what it is about. Validated when the module loads: a broken file stops
 * with a Chinese message naming the field, never a silently empty list.
 */
const schema = z.object({
  $comment: z.string().optional(),
  words: z.array(z.string().regex(/^\p{Script=Han}{2,4}$/u, '问句词应为 2–4 个汉字')).min(1),
});

function load(): Set<string> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new GridError('BAD_FILE', `词表 collections/data/question-words.json 无效 — ${i.path.join('.') || '(根)'}: ${i.message}`);
  }
  return new Set(parsed.data.words);
}

const WORDS = load();

export function isQuestionWord(word: string): boolean {
  return WORDS.has(word);
}
