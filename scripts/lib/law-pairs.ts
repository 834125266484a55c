/**
 * (question, answering article texts) pairs from STARD-style questions over the statutes of
 * ../shared/data/laws: every cited `law title + 第N条` is looked up in the law files (first heading =
 * the law's title; a code in parts, 民法典/总则.md, answers to the code's name) and parsed with the
 * collections parser. Used by scripts/learn-lay-vocabulary.ts (all of train.jsonl) and by
 * eval/collections-stard.eval.ts (its learn part only).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from '../../src/core/collections/parse';
import { normLawTitle, splitArticleRef } from '../../src/core/regulations/known-questions';
import type { LayPair } from '../../src/core/collections/lay-vocabulary';

function lawFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.md')) out.push(full);
    }
  };
  walk(root);
  return out.sort();
}

/** Pairs for the questions whose cited articles are found (questions citing none are left out). */
export function lawArticlePairs(lawsDir: string, questions: { question: string; relevant: string[] }[]): LayPair[] {
  const wanted = new Set<string>();
  for (const q of questions) for (const r of q.relevant) {
    const m = splitArticleRef(r);
    if (m) wanted.add(normLawTitle(m[0]));
  }
  const texts = new Map<string, string>();
  for (const file of lawFiles(lawsDir)) {
    const head = fs.readFileSync(file, 'utf8').slice(0, 400);
    const m = /^#\s+(.+)$/m.exec(head);
    if (!m || !wanted.has(normLawTitle(m[1].trim()))) continue;
    const title = normLawTitle(m[1].trim());
    const parsed = parseDocument(fs.readFileSync(file, 'utf8'), path.basename(file));
    for (const a of parsed.articles ?? []) {
      const key = `${title}|${a.label}`;
      texts.set(key, texts.has(key) ? `${texts.get(key)}\n${a.text}` : a.text);
    }
  }
  const out: LayPair[] = [];
  for (const q of questions) {
    const found: string[] = [];
    for (const r of q.relevant) {
      const m = splitArticleRef(r);
      const t = m ? texts.get(`${normLawTitle(m[0])}|${m[1]}`) : undefined;
      if (t) found.push(t);
    }
    if (found.length) out.push({ question: q.question, texts: found });
  }
  return out;
}
