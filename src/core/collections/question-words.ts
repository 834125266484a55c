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
  $new_topic: z.string().optional(),
  new_topic_leads: z.array(z.string().regex(/^\p{Script=Han}{2,8}$/u, '换话题的说法应为 2–8 个汉字')).min(1),
});

function load(): z.infer<typeof schema> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new GridError('BAD_FILE', `词表 collections/data/question-words.json 无效 — ${i.path.join('.') || '(根)'}: ${i.message}`);
  }
  return parsed.data;
}

const DATA = load();
const WORDS = new Set(DATA.words);
// longest first, so 换一个问题 is taken whole rather than as 换一个 + 问题
const NEW_TOPIC = new RegExp(`^(?:${[...DATA.new_topic_leads].sort((a, b) => b.length - a.length).join('|')})(?:吧|啊)?[，,：:。；;！!\\s]+`);

/** The lead of `换个问题，红烧排骨怎么做` (a new question starts after it), or null. */
export function newTopicLead(question: string): string | null {
  return NEW_TOPIC.exec(question)?.[0] ?? null;
}

export function isQuestionWord(word: string): boolean {
  return WORDS.has(word);
}
