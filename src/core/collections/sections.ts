import type { AppContext } from '../context';
import type { Db } from '../store/db';
import { locateArticleByTitle } from '../regulations/blocks';
import { parseChineseNumber } from '../text/chinese-numbers';
import { queryTokens } from '../text/segment';
import { lexicalSearch } from '../search/lexical';
import { articleScore, chunkEvidence, formBonus, questionForm } from './article-score';
import { UNITS } from './question-forms';
import { layExpansion } from './lay-terms';
import { rrfFuse, type RankedHit } from '../search/fusion';
import { vectorTopK } from '../search/vectors';
import { loadMatrix } from '../search/vector-index';
import { chunkDocument } from './chunk';
import { corpusOf, type CollectionRow, type StoredDoc } from './store';
import { questionCore, questionTerms } from './retrieve';
import { knownAnswers } from './known-answers';

/**
 * Answers of statutes and other non-recipe documents: the best section (an article with its
 * chapter path, or a heading's section) of the locked document, quoted, with its citation and a
 * few "see also" sections. Follow-ups move inside the document: `第十条说的是什么`, `下一条`,
 * `罚则呢`, `适用范围`, `定义`, or any question searched within the document only.
 */

export interface Section {
  /** 第十四条, or the section heading. */
  label: string;
  /** Chapter path (`第三章 电力设施的保护`) or '' */
  path: string;
  text: string;
  /** Position among the document's sections (article index / block index). */
  index: number;
}

export interface Citation {
  doc_id: number;
  title: string;
  rel_path: string;
  label: string;
  path: string;
  /** Page of the article in the library regulation of the same title (see `regulation`); null when there is none. */
  page: number | null;
  text: string;
  /** Position of the section in the document (`collections.document` lists sections by it). */
  index: number;
  /** The library regulation this document is (same title), where the reader opens the cited page; null: the collection's own viewer. */
  regulation: { reg_id: string; title: string; page: number } | null;
}

export type SectionIntent = 'article' | 'next' | 'previous' | 'penalty' | 'scope' | 'definition' | 'outline' | 'general';

export interface SectionAnswer {
  intent: SectionIntent;
  found: boolean;
  markdown: string;
  best: Section | null;
  see_also: Section[];
  citations: Citation[];
}

/** The document's answerable sections: articles for statutes, headed blocks otherwise. */
export function sectionsOf(doc: StoredDoc): Section[] {
  const p = doc.parsed;
  if (p.articles?.length) return p.articles.map((a, i) => ({ label: a.label, path: a.path, text: a.text, index: i }));
  return p.blocks
    .map((b, i) => ({ label: b.heading || (i === 0 ? '简介' : `第 ${i + 1} 部分`), path: '', text: b.text.trim(), index: i }))
    .filter((s) => s.text);
}

/** Chunk ord -> section index (the chunker is deterministic, so it is recomputed, not stored). */
function sectionOfChunk(ctx: AppContext, doc: StoredDoc): Map<number, number> {
  const chunks = chunkDocument(doc.parsed, ctx.config.collections.maxChunkChars);
  const out = new Map<number, number>();
  if (doc.parsed.articles?.length) {
    for (const c of chunks) if (c.article !== undefined) out.set(c.ord, c.article);
    return out;
  }
  const sections = sectionsOf(doc);
  for (const c of chunks) {
    if (c.blockKind === 'title') continue;
    const i = sections.findIndex((s) => s.label === c.heading || (c.heading === '简介' && s.index === 0));
    if (i >= 0) out.set(c.ord, i);
  }
  return out;
}

/**
 * Sections of one document ranked for a question by article-score.ts (evidence of every chunk
 * of the document, BM25 + vector RRF inside it, question-form bonus, a verbatim stretch of the question as
 * tie-breaker), so the article that contains most of what is asked wins over one that repeats a single word
 * (`电力建设项目使用土地…` → 第十六条, not 第十四条 which says 电力建设项目 twice).
 */
export async function rankSections(ctx: AppContext, coll: CollectionRow, doc: StoredDoc, question: string, extraTokens: string[] = []): Promise<{ section: Section; rrf: number; evidence: number; score: number }[]> {
  const cfg = ctx.config.collections;
  const corpus = corpusOf(coll.name);
  const sections = sectionsOf(doc);
  const toSection = sectionOfChunk(ctx, doc);
  const tokens = [...new Set([...questionTerms(question, doc.kind === 'recipe' ? 'any' : 'statutes'), ...extraTokens])];
  const lay = doc.kind === 'recipe' ? null : layExpansion(ctx, coll, question);
  const lists: Record<string, RankedHit[]> = {};
  const evidence = new Map<string, number>();
  if (tokens.length) {
    const hits = lexicalSearch(ctx.db, { corpus, scopes: [String(doc.id)], tokens: [...new Set([...tokens, ...(lay?.extra ?? [])])], k: 30 }, { corpusStats: true }).hits;
    if (hits.length) lists.lexical = hits.map((h) => ({ key: h.key, parent: h.parent, rank: h.rank }));
    // evidence of every chunk of the document, not only of the BM25 top k
    for (const [key, e] of chunkEvidence(ctx.db, corpus, tokens, { scope: String(doc.id) }, lay?.equivalents, cfg.sectionTitleWeight)) evidence.set(key, e.evidence);
  }
  const embedder = ctx.embedder();
  if (embedder.available()) {
    const modelId = embedder.status().model_id;
    const matrix = modelId ? loadMatrix(ctx.db, ctx.state, corpus, modelId) : null;
    if (matrix) {
      const [qv] = await embedder.embed([question], 'query');
      const hits = vectorTopK(matrix, qv, 30, [String(doc.id)]);
      const keyOf = ctx.db.prepare('SELECT key FROM search_items WHERE id = ?');
      const ranked: RankedHit[] = [];
      for (const h of hits) {
        const r = keyOf.get(h.id) as { key: string } | undefined;
        if (r) ranked.push({ key: r.key, parent: String(doc.id), rank: ranked.length + 1 });
      }
      if (ranked.length) lists.vector = ranked;
    }
  }
  if (doc.kind !== 'recipe') {
    // learned: articles of this document answering known lay questions close to this one; choosing
    // the article needs a closer neighbour than choosing the statute (cfg.knownSectionMinSim)
    const known = knownAnswers(ctx, coll, question, String(doc.id)).filter((h) => h.sim >= cfg.knownSectionMinSim);
    if (known.length) {
      lists.known = known.map((h, i) => ({ key: h.key, parent: h.parent, rank: i + 1 }));
      for (const h of known) evidence.set(h.key, Math.max(evidence.get(h.key) ?? 0, h.sim));
    }
  }
  const bySection = new Map<number, { rrf: number; evidence: number }>();
  for (const c of rrfFuse(lists, ctx.config.search.rrfK)) {
    const ord = Number(c.key.split('#')[1]);
    const s = toSection.get(ord);
    if (s === undefined) continue;
    const cur = bySection.get(s) ?? { rrf: 0, evidence: 0 };
    bySection.set(s, { rrf: Math.max(cur.rrf, c.rrf), evidence: Math.max(cur.evidence, evidence.get(c.key) ?? 0) });
  }
  const maxRrf = Math.max(0, ...[...bySection.values()].map((v) => v.rrf));
  const form = questionForm(question);
  const asked = doc.kind === 'recipe' ? '' : questionCore(question, 'statutes');
  // a number in the asked unit next to a word of the question answers it (`几天年假` → 年休假5天)
  const near = namedQuantity(form, [...tokens.filter((t) => [...t].length >= 2), ...(lay?.equivalents.flatMap(([, st]) => st) ?? [])]);
  return [...bySection.entries()]
    .map(([i, v]) => {
      const bonus =
        formBonus(form, sections[i].text, cfg.sectionFormBonus, true) + (near?.(sections[i].text) ? cfg.sectionFormBonus : 0) + phraseBonus(asked, sections[i].text, cfg.sectionPhraseBonus);
      return { section: sections[i], rrf: v.rrf, evidence: v.evidence, score: articleScore(v.evidence, maxRrf > 0 ? v.rrf / maxRrf : 0, bonus, cfg.sectionEvidenceWeight) };
    })
    .sort((a, b) => b.score - a.score || b.rrf - a.rrf || a.section.index - b.section.index);
}

/** A stretch of the question shorter than this is a word or two, which the term evidence already counts. */
const MIN_PHRASE = 4;
/** A stretch this long gets the whole phrase bonus. */
const FULL_PHRASE = 8;

/**
 * The longest stretch of `question` (its core) that `text` writes verbatim, in characters
 * (`上网电价实行什么原则` in `上网电价实行同网同质同价` → 6).
 */
export function longestSharedStretch(question: string, text: string): number {
  const q = [...question];
  let best = 0;
  for (let i = 0; i + best < q.length; i++) {
    // grow the stretch from i while the text still holds it; only longer ones than the best matter
    let len = best + 1;
    while (i + len <= q.length && text.includes(q.slice(i, i + len).join(''))) len++;
    best = Math.max(best, len - 1);
  }
  return best;
}

/**
 * Tie-breaker for the article to quote: an article writing a stretch of the question verbatim
 * (MIN_PHRASE+ characters, in order: `上网电价实行`, `电力安全事故`) is preferred over one holding the
 * same words apart; `bonus` (sectionPhraseBonus) is small, so only articles the ranker scores about
 * alike change places (config.ts has the tuning figures).
 */
export function phraseBonus(question: string, text: string, bonus: number): number {
  if (!question || bonus <= 0) return 0;
  const n = longestSharedStretch(question, text);
  return n >= MIN_PHRASE ? (bonus * Math.min(n, FULL_PHRASE)) / FULL_PHRASE : 0;
}

/**
 * For a question asking a quantity in a unit (几天年假): does a text state a number in that unit next to
 * one of the question's words or their statute words, in one clause (`年休假5天`, not `请事假累计20天以上`)?
 * A second form cue for the article to quote: labour tuning 33 → 34/48 (`工作满十年每年有几天年假` →
 * 职工带薪年休假条例 第三条), the same from 0.1 to 0.2, every other tuning part and STARD unchanged.
 */
export function namedQuantity(form: ReturnType<typeof questionForm>, words: string[]): ((text: string) => boolean) | null {
  const stated = form.unit ? UNITS.find((u) => u.unit === form.unit)?.stated : undefined;
  if (!stated || !words.length) return null;
  const re = new RegExp(stated.source, 'gu');
  return (text) => {
    for (const m of text.matchAll(re)) {
      const before = text.slice(Math.max(0, m.index - 6), m.index).split(/[，。；：,;]/).pop() ?? '';
      const after = text.slice(m.index + m[0].length, m.index + m[0].length + 6).split(/[，。；：,;]/)[0];
      if (words.some((w) => before.includes(w) || after.includes(w))) return true;
    }
    return false;
  };
}

/** Best idf-weighted share of the question's terms found in one section of the document (0..1). */
export async function bestSectionEvidence(ctx: AppContext, coll: CollectionRow, doc: StoredDoc, question: string): Promise<number> {
  const tokens = questionTerms(question, doc.kind === 'recipe' ? 'any' : 'statutes');
  if (!tokens.length) return 0;
  const hits = lexicalSearch(ctx.db, { corpus: corpusOf(coll.name), scopes: [String(doc.id)], tokens, k: 5 }).hits;
  return Math.max(0, ...hits.map((h) => h.evidence));
}

const NUM = '[一二三四五六七八九十百千零〇两\\d]+';
const ARTICLE_REF = new RegExp(`第\\s*(${NUM})\\s*条`);

export function classifySectionQuery(question: string): { intent: SectionIntent; n: number | null } {
  const q = question.replace(/\s+/g, '');
  const a = ARTICLE_REF.exec(q);
  if (a) return { intent: 'article', n: parseChineseNumber(a[1]) };
  if (/下一条|下一节|后一条|接下来/.test(q)) return { intent: 'next', n: null };
  if (/上一条|上一节|前一条/.test(q)) return { intent: 'previous', n: null };
  if (/罚则|处罚|罚款|怎么罚|罚多少|罚钱|被罚|受罚|罚吗|法律责任|追究|违反.*(怎么办|后果)|惩罚/.test(q)) return { intent: 'penalty', n: null };
  if (/适用范围|适用于|适用哪些|适用对象|管什么|范围是/.test(q)) return { intent: 'scope', n: null };
  if (/定义|是指|什么叫|什么是|含义|所称/.test(q)) return { intent: 'definition', n: null };
  if (/有哪些章节|目录|哪几章|章节/.test(q)) return { intent: 'outline', n: null };
  return { intent: 'general', n: null };
}

function snippet(text: string, max = 60): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

function cite(doc: StoredDoc, s: Section): Citation {
  return { doc_id: doc.id, title: doc.title, rel_path: doc.rel_path, label: s.label, path: s.path, page: null, text: s.text, index: s.index, regulation: null };
}

/** Links citations to the reader when the regulation library holds the same statute (by title). */
export function linkCitationsToLibrary(db: Db, citations: Citation[]): Citation[] {
  return citations.map((c) => {
    const at = locateArticleByTitle(db, c.title, c.label);
    return at ? { ...c, page: at.page_num, regulation: { reg_id: at.reg_id, title: at.title, page: at.page_num } } : c;
  });
}

export function formatSectionAnswer(doc: StoredDoc, best: Section, seeAlso: Section[], lead?: string): string {
  const where = [best.path, best.label].filter(Boolean).join(' · ');
  const out = [
    lead ?? '',
    `**《${doc.title}》${best.label}**${best.path ? `（${best.path}）` : ''}`,
    '',
    best.text.startsWith(best.label) ? best.text : `${best.label}　${best.text}`,
    '',
    `> 来源：${doc.rel_path}${where ? ` · ${where}` : ''}`,
  ].filter((l, i) => i > 0 || l);
  if (seeAlso.length) out.push('', '另见：', ...seeAlso.map((s) => `- ${s.label}${s.path ? `（${s.path}）` : ''}：${snippet(s.text)}`));
  return out.join('\n');
}

function answer(doc: StoredDoc, intent: SectionIntent, best: Section, seeAlso: Section[], lead?: string): SectionAnswer {
  return {
    intent,
    found: true,
    markdown: formatSectionAnswer(doc, best, seeAlso, lead),
    best,
    see_also: seeAlso,
    citations: [cite(doc, best), ...seeAlso.map((s) => cite(doc, s))],
  };
}

type RankedSection = Awaited<ReturnType<typeof rankSections>>[number];

/** The best section when the asked aspect (penalty, scope, definition) only adds `bonus` to its sections' score. */
function aspectAnswer(doc: StoredDoc, intent: SectionIntent, ranked: RankedSection[], isAspect: (s: Section) => boolean, bonus: number, seeAlsoN: number): SectionAnswer {
  const order = ranked
    .map((r, i) => ({ r, i, score: r.score + (isAspect(r.section) ? bonus : 0) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((x) => x.r.section);
  return answer(doc, intent, order[0], order.slice(1, 1 + seeAlsoN));
}

const NAMES_ASPECT: Partial<Record<SectionIntent, RegExp>> = {
  penalty: /罚则|处罚|罚款|怎么罚|罚多少|罚钱|被罚|受罚|罚吗/,
  definition: /定义|含义|是指|所称/,
};

/** Words that only name the asked aspect (`罚则`, `怎么处罚`, `定义是什么`, `适用范围`), not a subject. */
const ASPECT_WORDS: Partial<Record<SectionIntent, RegExp>> = {
  penalty: /罚则|处罚|罚款|怎么罚|罚多少|罚钱|被罚|受罚|罚吗|法律责任|追究|违反|怎么办|后果|惩罚|会|怎么|怎样|如何|呢|吗|的|了|是什么|有哪些/g,
  definition: /定义|是指|什么叫|什么是|含义|所称|是什么|的|呢|吗|意思/g,
  scope: /适用范围|适用于|适用哪些|适用对象|管什么|范围是|什么|哪些|的|呢|吗/g,
};

/** Does the question name something besides the aspect it asks for (`窃电怎么处罚` yes, `罚则呢` no)? */
function hasOwnContent(question: string, intent: SectionIntent): boolean {
  const words = ASPECT_WORDS[intent];
  const rest = words ? (questionCore(question) || question).replace(words, '') : question;
  return queryTokens(rest).length > 0;
}

function notFound(intent: SectionIntent, markdown: string): SectionAnswer {
  return { intent, found: false, markdown, best: null, see_also: [], citations: [] };
}

const PENALTY_CHAPTER = /罚则|法律责任|奖励与惩罚|惩罚|处罚/;
const SCOPE_TEXT = /适用于|适用本|必须遵守本|适用范围/;
const DEFINITION_TEXT = /是指|所称|含义/;
// `保理合同是……的合同`: a definition without 是指 / 所称 (the code's own wording)
const DEFINES = /^[^，。；]{2,24}是[^，。；]{2,120}的(?:合同|行为|权利|制度|组织|单位|人员|作品|财产|活动)[。；]/;

/**
 * Answers a question about one locked document. `context` is the previous question of the
 * session (`罚则呢` after `窃电行为具体包括哪些` looks for the penalty of 窃电), `last` the section
 * answered last (for 下一条).
 */
export async function answerInDocument(
  ctx: AppContext,
  coll: CollectionRow,
  doc: StoredDoc,
  question: string,
  opts: { context?: string | null; last?: number | null; seeAlso?: number } = {},
): Promise<SectionAnswer> {
  const sections = sectionsOf(doc);
  const seeAlsoN = opts.seeAlso ?? 3;
  if (!sections.length) return notFound('general', `《${doc.title}》没有可引用的正文。`);
  const { intent, n } = classifySectionQuery(question);
  const isArticles = !!doc.parsed.articles?.length;
  const contextTokens = opts.context ? queryTokens(questionCore(opts.context) || opts.context) : [];

  const neighbours = (s: Section) => sections.filter((x) => Math.abs(x.index - s.index) === 1);

  if (intent === 'article' && n !== null) {
    const s = sections.find((x) => isArticles && doc.parsed.articles![x.index].n === n);
    if (!s) return notFound('article', `《${doc.title}》共 ${sections.length} ${isArticles ? '条' : '节'}，没有第 ${n} 条。`);
    return answer(doc, 'article', s, neighbours(s));
  }
  if (intent === 'next' || intent === 'previous') {
    const at = (opts.last ?? -1) + (intent === 'next' ? 1 : -1);
    const s = sections[at];
    if (!s) return notFound(intent, opts.last == null ? '还没有看过任何条款，请先提问。' : `《${doc.title}》已经没有${intent === 'next' ? '下一' : '上一'}${isArticles ? '条' : '节'}了。`);
    return answer(doc, intent, s, []);
  }
  if (intent === 'outline') {
    const paths = [...new Set(sections.map((s) => s.path || s.label))];
    return {
      intent,
      found: true,
      markdown: `**《${doc.title}》的结构**\n\n${paths.map((p) => `- ${p}`).join('\n')}`,
      best: null,
      see_also: [],
      citations: [],
    };
  }
  const ranked = await rankSections(ctx, coll, doc, question, intent === 'penalty' || intent === 'scope' || intent === 'definition' ? contextTokens : []);
  const rankedIn = (pred: (s: Section) => boolean) => ranked.filter((r) => pred(r.section)).map((r) => r.section);
  // `罚则呢`, `适用范围`, `定义`: nothing but the aspect asked, so the answer is taken from its sections
  // (penalty chapter, scope / definition articles). A question with a subject of its own
  // (`能否追究医院的责任`, `什么是保理合同`) is ranked like any other, its aspect only a bonus:
  // restricting it to those sections chose the wrong article (STARD learn part, without learned
  // lists: penalty 3 vs 8 of 22 right first, definition 1 vs 8 of 15; a civil-code part has no
  // penalty chapter at all, and 保理合同是…的合同 says neither 是指 nor 所称)
  // `要罚多少钱`, `怎么处罚` name the penalty itself, `配电室的定义` the definition itself: the
  // penalty chapter / the 是指 articles answer them even with a subject (`私自接线偷电要罚多少钱`);
  // `追究责任` / `法律责任` are as often civil liability, `什么是X` as often asks what X entails
  const aspectOnly = intent !== 'general' && (!hasOwnContent(question, intent) || NAMES_ASPECT[intent]?.test(question) === true);
  if (intent === 'penalty') {
    const inChapter = sections.filter((s) => PENALTY_CHAPTER.test(s.path));
    const pool = inChapter.length ? inChapter : sections.filter((s) => /罚款|处罚|处分|追究/.test(s.text));
    if (aspectOnly || !ranked.length) {
      if (!pool.length) return notFound('penalty', `《${doc.title}》没有罚则或法律责任条款。`);
      const inPool = new Set(pool.map((s) => s.index));
      const best = rankedIn((s) => inPool.has(s.index))[0] ?? pool[0];
      return answer(doc, 'penalty', best, pool.filter((s) => s.index !== best.index).slice(0, seeAlsoN), `《${doc.title}》的罚则共 ${pool.length} 条${pool[0].path ? `（${pool[0].path}）` : ''}，与问题最相关的是：\n`);
    }
    const inPool = new Set(pool.map((s) => s.index));
    return aspectAnswer(doc, 'penalty', ranked, (s) => inPool.has(s.index), ctx.config.collections.sectionAspectBonus, seeAlsoN);
  }
  if (intent === 'scope') {
    const pool = sections.filter((s) => SCOPE_TEXT.test(s.text)).slice(0, 3);
    if (pool.length && (aspectOnly || !ranked.length)) return answer(doc, 'scope', pool[0], pool.slice(1));
    if (pool.length) return aspectAnswer(doc, 'scope', ranked, (s) => SCOPE_TEXT.test(s.text), ctx.config.collections.sectionAspectBonus, seeAlsoN);
  }
  if (intent === 'definition') {
    const pool = sections.filter((s) => DEFINITION_TEXT.test(s.text));
    if (pool.length && (aspectOnly || !ranked.length)) {
      const inPool = new Set(pool.map((s) => s.index));
      const best = rankedIn((s) => inPool.has(s.index))[0] ?? pool[0];
      return answer(doc, 'definition', best, pool.filter((s) => s.index !== best.index).slice(0, seeAlsoN));
    }
    if (pool.length) return aspectAnswer(doc, 'definition', ranked, (s) => DEFINITION_TEXT.test(s.text) || DEFINES.test(s.text), ctx.config.collections.sectionAspectBonus, seeAlsoN);
  }
  if (!ranked.length) return notFound('general', `《${doc.title}》中没有找到与「${question}」直接相关的${isArticles ? '条款' : '内容'}。`);
  const best = ranked[0].section;
  return answer(doc, intent === 'scope' || intent === 'definition' ? intent : 'general', best, ranked.slice(1, 1 + seeAlsoN).map((r) => r.section));
}

