import { blockTypeOf, inChapterScope, tableRowHit, tableRowText, type TableHit } from './blocks';
import type { AppContext } from '../context';
import { GridError } from '../common/errors';
import { queryTokens } from '../text/segment';
import { lexicalSearch, corpusVersion, type LexicalResult } from '../search/lexical';
import { searchEngine } from '../search/engine';
import { shippedExpansion } from '../search/expansion';
import { shippedKnownPriors, shippedKnownQuestions, type KnownPriors } from './known-questions';
import { makeSnippet } from '../search/snippet';
import type { Decision } from '../search/fusion';
import { REG_CORPUS, REG_PROFILE_CORPUS } from './search-index';
import { parseArticleRefs, titleMatchesLaw, type ArticleRef } from './article-ref';
import { arrangeHits, localPlaceOf, queryTargetsRows, unitShape, type UnitShape } from './rank';

export { localPlaceOf };
import { ContextValue } from '../common/cache';
import { inForceSelection, markEditions } from './edition-search';
import { PageTexts, explainHit, locateHit } from './hit-explain';
import { featureUnits, REG_FEATURES, regulationFeatures, shippedReranker, type CandidateFeatures } from './rerank';
import { rerankScore, rerankerApplies, type LinearReranker } from '../search/rerank';
import type { DecisionAction, SelectionReason, SmartResult, SmartSearchInput, SmartSearchOutput } from './search-contract';

/**
 * smart_search over the regulation library (seed 002): reg_id = one id | list | null (auto) | 'all'.
 * Auto selection scores every regulation's profile (title, description, keywords, scope, TOC
 * headings) against the query AND looks at how a cheap first-pass lexical search over all units
 * distributes over regulations; it keeps the regulations that clearly win and falls back to all
 * when the evidence is spread out.
 */

export type RegIdInput = string | string[] | null | undefined;

export interface RegInfo {
  reg_id: string;
  title: string;
}

export interface Selection {
  mode: 'one' | 'list' | 'all' | 'auto';
  selected: string[];
  fallback_all: boolean;
  reasons: SelectionReason[];
  summary: string;
}

export interface SmartSearchOptions {
  /**
   * learned query expansion (question word -> statute words). undefined = the shipped table
   * (resources/search/expansion.json) when present; null = none (evaluations of other models).
   */
  expand?: ((tokens: string[]) => string[]) | null;
  /**
   * extra ranked lists of unit ids. undefined = the shipped known questions' articles
   * (resources/search/known-questions.json) when the library holds them; null = none.
   */
  parentLists?: ((query: string) => Record<string, string[]>) | null;
  /**
   * learned reranker (regulations/rerank.ts). undefined = the shipped one (models/, listed in the
   * manifest) when present; null = none (the fused order, as before).
   */
  rerank?: LinearReranker | null;
  /** citation counts for the reranker (known questions). undefined = the shipped known questions'; null = none */
  priors?: KnownPriors | null;
  /** receives the rerank features of the first `featurePool` candidates of a hybrid search (training) */
  onFeatures?: (rows: CandidateFeatures[]) => void;
  featurePool?: number;
  /** chunk candidates per list while collecting features (default config.search.candidates) */
  featureCandidates?: number;
}

/** All regulations (cached per index version: 3k+ laws would otherwise cost a query each time). */
const regList = new ContextValue<{ version: string; regs: RegInfo[] }>('regulations.list');

export function listRegs(ctx: AppContext): RegInfo[] {
  const version = `${corpusVersion(ctx.db, REG_PROFILE_CORPUS)}:${corpusVersion(ctx.db, REG_CORPUS)}`;
  const cached = regList.get(ctx.state);
  if (cached && cached.version === version) return cached.regs;
  const regs = ctx.db.prepare('SELECT reg_id, title FROM regulations ORDER BY reg_id').all() as RegInfo[];
  regList.set(ctx.state, { version, regs });
  return regs;
}

function resolveExplicit(regs: RegInfo[], ids: string[]): string[] {
  const known = new Set(regs.map((r) => r.reg_id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    const hint = regs.length ? `已入库规程：${regs.slice(0, 10).map((r) => r.reg_id).join('、')}${regs.length > 10 ? ' 等' : ''}` : '尚未导入任何规程';
    throw new GridError('NOT_FOUND', `reg_id: 未找到规程 ${missing.join('、')}（${hint}）`);
  }
  return [...new Set(ids)];
}

/** The query against every regulation's profile (title, description, keywords, scope, TOC). */
function profileSearch(ctx: AppContext, tokens: string[]): LexicalResult {
  return lexicalSearch(ctx.db, { corpus: REG_PROFILE_CORPUS, tokens, k: 50 }, { maxDfRatio: ctx.config.search.maxDfRatio });
}

/**
 * Query words that are the topic of only a few regulations (≤ maxRegs profiles hold them), with
 * those regulations: the facets of a question that spans regulations.
 */
export function facetOwners(profile: LexicalResult, maxRegs: number): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const h of profile.hits) for (const t of h.matched) owners.set(t, [...(owners.get(t) ?? []), h.scope]);
  for (const [t, ids] of owners) if (t.length < 2 || ids.length > maxRegs) owners.delete(t);
  return owners;
}

/** Auto selection (reg_id null): profile match + first-pass distribution; see file comment. */
export function selectRegulations(
  ctx: AppContext,
  tokens: string[],
  regs: RegInfo[],
  learned: string[] = [],
): { selection: Selection; firstPass: LexicalResult; profile: LexicalResult } {
  const cfg = ctx.config.search;
  const titleOf = new Map(regs.map((r) => [r.reg_id, r.title]));
  // deeper than needed for the distribution: the same ranking, filtered to the selected regulations,
  // is then the restricted lexical list (bm25 uses corpus-wide idf, so filtering = searching them)
  const firstPass = lexicalSearch(ctx.db, { corpus: REG_CORPUS, tokens, k: Math.max(cfg.autoFirstPass, cfg.candidates * 3) }, { maxDfRatio: cfg.maxDfRatio });
  const mass = new Map<string, number>();
  let massTotal = 0;
  const seenRows = new Set<string>();
  for (const h of firstPass.hits.slice(0, cfg.autoFirstPass)) {
    // rows of one table matching the same words are one piece of evidence, not twenty: a ledger
    // must not outvote a regulation whose single article is about the question
    const sig = `${h.scope}\u0000${h.title ?? ''}\u0000${[...h.matched].sort().join(' ')}`;
    if (seenRows.has(sig)) continue;
    seenRows.add(sig);
    // squared evidence: a unit holding all query words counts far more than one sharing a single word
    const m = (h.evidence * h.evidence) / (cfg.rrfK + h.rank);
    mass.set(h.scope, (mass.get(h.scope) ?? 0) + m);
    massTotal += m;
  }
  // regulations of passages a learned list (e.g. similar known questions) points at count like first-pass hits
  if (learned.length) {
    const regOf = ctx.db.prepare('SELECT reg_id FROM reg_units WHERE id = ?');
    learned.slice(0, cfg.autoFirstPass).forEach((unitId, i) => {
      const r = regOf.get(Number(unitId)) as { reg_id: string } | undefined;
      if (!r) return;
      const m = 1 / (cfg.rrfK + i + 1);
      mass.set(r.reg_id, (mass.get(r.reg_id) ?? 0) + m);
      massTotal += m;
    });
  }
  const profile = profileSearch(ctx, tokens);
  const prof = new Map<string, number>();
  let profTotal = 0;
  for (const h of profile.hits) {
    // evidence is the idf share of the query found in the profile; squared so partial matches count less
    const p = h.evidence * h.evidence;
    if (p <= 0) continue;
    prof.set(h.scope, p);
    profTotal += p;
  }
  const all = regs.map((r) => r.reg_id);
  const scores = new Map<string, { s: number; fp: number; pf: number }>();
  for (const id of new Set([...mass.keys(), ...prof.keys()])) {
    const fp = massTotal > 0 ? (mass.get(id) ?? 0) / massTotal : 0;
    const pf = profTotal > 0 ? (prof.get(id) ?? 0) / profTotal : 0;
    const s = massTotal > 0 && profTotal > 0 ? 0.5 * fp + 0.5 * pf : massTotal > 0 ? fp : pf;
    scores.set(id, { s, fp, pf });
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1].s - a[1].s);
  const reasonOf = (id: string, v: { s: number; fp: number; pf: number }): SelectionReason => ({
    reg_id: id,
    title: titleOf.get(id) ?? id,
    score: round(v.s),
    profile_score: round(v.pf),
    first_pass_share: round(v.fp),
    why: selectionWhy(profile.hits.find((h) => h.scope === id)?.matched ?? [], v.fp),
  });
  const fallback = (why: string): Selection => ({
    mode: 'auto',
    selected: all,
    fallback_all: true,
    reasons: ranked.slice(0, 5).map(([id, v]) => reasonOf(id, v)),
    summary: `自动选择不确定（${why}），检索全部 ${all.length} 部规程`,
  });
  if (ranked.length === 0) return { selection: fallback('没有任何规程匹配'), firstPass, profile };
  // smallest set of best-scoring regulations that holds autoMass of the evidence ("nucleus"),
  // ignoring long tails below autoKeepRatio of the winner
  const top = ranked[0][1].s;
  const kept: typeof ranked = [];
  let held = 0;
  for (const entry of ranked) {
    if (held >= cfg.autoMass) break;
    if (entry[1].s < cfg.autoKeepRatio * top && held > 0) {
      // the rest is a tail of weak regulations: if the winners hold too little, we are unsure
      break;
    }
    kept.push(entry);
    held += entry[1].s;
  }
  if (held < cfg.autoMass) return { selection: fallback(`领先规程只占证据的 ${(held * 100).toFixed(0)}%`), firstPass, profile };
  if (kept.length > cfg.autoMaxShare * all.length) return { selection: fallback('证据分散在多数规程中'), firstPass, profile };
  const selected = kept.map(([id]) => id);
  // facets: a query word that is the topic of only a few regulations (in their title, keywords,
  // scope or headings) brings those regulations in, even when another regulation holds most of
  // the evidence: 天中直流的稳定限额和安控措施 = 稳定限额 (wengui) + 安控 (angui)
  const facetReasons: SelectionReason[] = [];
  const covered = new Set(selected.flatMap((id) => profile.hits.find((h) => h.scope === id)?.matched ?? []));
  for (const [t, regIds] of facetOwners(profile, cfg.autoFacetMaxRegs)) {
    // a sub-word of a covered word is not a facet of its own (稳定 inside 稳定限额)
    if (covered.has(t) || [...covered].some((c) => c.includes(t))) continue;
    for (const id of regIds) {
      if (selected.includes(id) || !mass.has(id)) continue;
      selected.push(id);
      const v = scores.get(id) ?? { s: 0, fp: 0, pf: 0 };
      facetReasons.push({ ...reasonOf(id, v), why: `问题中的「${t}」是该规程的主题（标题/关键词/目录）；${reasonOf(id, v).why}` });
    }
  }
  return {
    selection: {
      mode: 'auto',
      selected,
      fallback_all: false,
      reasons: [...kept.map(([id, v]) => reasonOf(id, v)), ...facetReasons],
      summary: `自动选择 ${selected.length} 部规程（占证据 ${(held * 100).toFixed(0)}%${facetReasons.length ? `，另有 ${facetReasons.length} 部涵盖问题的其他方面` : ''}）：${selected
        .slice(0, 5)
        .map((id) => titleOf.get(id) ?? id)
        .join('、')}${selected.length > 5 ? ' 等' : ''}`,
    },
    firstPass,
    profile,
  };
}

/**
 * Why auto selection chose a regulation, in words: which question words its title, keywords or
 * headings hold, and how much of the best-matching text it holds (the shares stay in the numbers).
 */
function selectionWhy(profileWords: string[], firstPassShare: number): string {
  const words = profileWords.filter((w) => !profileWords.some((o) => o !== w && o.includes(w)));
  const parts: string[] = [];
  if (words.length) parts.push(`标题、关键词或目录含有${words.map((w) => `「${w}」`).join('')}`);
  if (firstPassShare >= 0.5) parts.push(`与问题最相关的条文大多出自本规程（约 ${Math.round(firstPassShare * 100)}%）`);
  else if (firstPassShare > 0) parts.push(`与问题相关的条文约 ${Math.round(firstPassShare * 100)}% 出自本规程`);
  return parts.join('；') || '无匹配';
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

interface UnitRow {
  id: number;
  reg_id: string;
  page_num: number;
  kind: string;
  label: string | null;
  section_path: string;
  text: string;
  title: string;
}

/** Units an article reference names, in the regulations it may refer to (see article-ref.ts). */
function resolveArticleRefs(
  ctx: AppContext,
  refs: ArticleRef[],
  regs: RegInfo[],
  scope: Set<string> | null,
  rankOfReg: Map<string, number>,
): { units: { id: number; reg_id: string; ref: ArticleRef }[]; named: string[] } {
  const byLabel = ctx.db.prepare('SELECT id FROM reg_units WHERE reg_id = ? AND label = ? ORDER BY ord LIMIT 1');
  const units: { id: number; reg_id: string; ref: ArticleRef }[] = [];
  const named: string[] = [];
  for (const ref of refs) {
    let targets: string[] = [];
    if (ref.law) {
      // the longest tail of the text before 第N条 that names a regulation ("我想看电力法第三条" -> 电力法)
      for (let start = 0; start <= ref.law.length - 2 && !targets.length; start++) {
        const law = ref.law.slice(start);
        targets = regs.filter((r) => titleMatchesLaw(r.title, law)).map((r) => r.reg_id);
      }
      named.push(...targets);
    }
    if (!targets.length) {
      // no law named: the regulations being searched, best-matching first; only a few, since every
      // statute has a 第十条
      const pool = scope ? [...scope] : regs.map((r) => r.reg_id);
      targets = pool.length <= 3 ? pool : pool.filter((id) => rankOfReg.has(id)).sort((a, b) => rankOfReg.get(a)! - rankOfReg.get(b)!).slice(0, 3);
    } else if (scope) {
      targets = targets.filter((id) => scope.has(id));
    }
    for (const regId of targets) {
      const row = byLabel.get(regId, ref.label) as { id: number } | undefined;
      if (row) units.push({ id: row.id, reg_id: regId, ref });
    }
  }
  return { units, named: [...new Set(named)] };
}

type ResultCore = Omit<SmartResult, 'similar' | 'locate' | 'why'>;

/** a chunk the vector list ranks this high was found by meaning (the "why" says so) */
const SEMANTIC_RANK = 20;

export async function smartSearch(ctx: AppContext, input: SmartSearchInput, options: SmartSearchOptions = {}): Promise<SmartSearchOutput> {
  const t0 = performance.now();
  const cfg = ctx.config.search;
  const query = input.query.trim();
  if (!query) throw new GridError('INVALID_INPUT', 'query: 检索词不能为空');
  const topK = input.top_k ?? cfg.topK;
  const offset = input.offset ?? 0;
  const regs = listRegs(ctx);
  const tokens = queryTokens(query);
  const refs = parseArticleRefs(query);
  const raw = input.reg_id;
  const lists = options.parentLists === undefined ? shippedKnownQuestions(ctx) : options.parentLists;
  const extraLists = lists?.(query);
  let selection: Selection;
  let firstPass: LexicalResult | undefined;
  let profile: LexicalResult | undefined;
  if (raw === 'all') {
    selection = { mode: 'all', selected: regs.map((r) => r.reg_id), fallback_all: false, reasons: [], summary: `检索全部 ${regs.length} 部规程` };
  } else if (typeof raw === 'string') {
    selection = { mode: 'one', selected: resolveExplicit(regs, [raw]), fallback_all: false, reasons: [], summary: `仅检索 ${raw}` };
  } else if (Array.isArray(raw) && raw.length > 0) {
    const ids = resolveExplicit(regs, raw);
    selection = { mode: 'list', selected: ids, fallback_all: false, reasons: [], summary: `检索指定的 ${ids.length} 部规程` };
  } else {
    const auto = selectRegulations(ctx, tokens, regs, extraLists ? Object.values(extraLists).flat() : []);
    selection = auto.selection;
    firstPass = auto.firstPass;
    profile = auto.profile;
    // a regulation the query names with an article ("电力法第三条") is searched whatever the scores say
    if (refs.some((r) => r.law) && !selection.fallback_all) {
      const named = resolveArticleRefs(ctx, refs.filter((r) => r.law), regs, null, new Map()).named.filter((id) => !selection.selected.includes(id));
      if (named.length) {
        const titleOf = new Map(regs.map((r) => [r.reg_id, r.title]));
        selection.selected = [...named, ...selection.selected];
        selection.reasons = [
          ...named.map((id) => ({ reg_id: id, title: titleOf.get(id) ?? id, score: 1, profile_score: 0, first_pass_share: 0, why: '问题点名了该规程的条文' })),
          ...selection.reasons,
        ];
        selection.summary = `${selection.summary}；另含问题点名的 ${named.map((id) => titleOf.get(id) ?? id).join('、')}`;
      }
    }
  }
  // superseded editions give way to the ones in force unless asked for (by id, or edition 'all')
  if (input.edition !== 'all' && selection.mode !== 'one' && selection.mode !== 'list') {
    const { selected, replaced } = inForceSelection(ctx, selection.selected);
    if (replaced) {
      selection.selected = selected;
      selection.summary = `${selection.summary}（旧版规程只检索其现行版，查旧版请用 edition: all）`;
    }
  }
  const searchAll = selection.selected.length === regs.length;
  const scopes = searchAll ? undefined : selection.selected;
  // the auto first pass over everything is exactly the lexical list of an all-regulations search
  let reuse: LexicalResult | undefined;
  // rerank stage (hybrid with the model it was trained with): the learned model re-orders the first
  // `pool` parents, from lists `candidates` deep; without one, the fused order with the local / consensus adjustments
  const reranker = options.rerank === undefined ? (cfg.rerank ? shippedReranker(ctx) : null) : options.rerank;
  const wantsHybrid = (input.mode ?? 'hybrid') === 'hybrid';
  const useReranker = !!reranker && wantsHybrid && rerankerApplies(reranker, REG_FEATURES, ctx.embedder().status().model_id ?? null);
  const depth = useReranker ? reranker.candidates : options.onFeatures ? (options.featureCandidates ?? cfg.candidates) : cfg.candidates;
  if (firstPass && searchAll) reuse = { ...firstPass, hits: firstPass.hits.slice(0, depth) };
  else if (firstPass && scopes) {
    const keep = new Set(scopes);
    const hits = firstPass.hits.filter((h) => keep.has(h.scope)).slice(0, depth);
    const exhausted = firstPass.hits.length < Math.max(cfg.autoFirstPass, cfg.candidates * 3);
    // deep enough (or nothing more to find): reuse; otherwise run the restricted query
    if (hits.length >= depth / 2 || exhausted) reuse = { ...firstPass, hits: hits.map((h, i) => ({ ...h, rank: i + 1 })) };
  }
  const expander = options.expand === undefined ? shippedExpansion(ctx, REG_CORPUS) : options.expand;
  const expansion = expander ? expander(tokens) : undefined;
  const unitStmt = ctx.db.prepare(
    `SELECT u.id, u.reg_id, u.page_num, u.kind, u.label, u.section_path, u.text, r.title
       FROM reg_units u JOIN regulations r ON r.reg_id = u.reg_id WHERE u.id = ?`,
  );
  const unitCache = new Map<string, UnitRow | undefined>();
  const unit = (parent: string) => {
    if (!unitCache.has(parent)) unitCache.set(parent, unitStmt.get(Number(parent)) as UnitRow | undefined);
    return unitCache.get(parent);
  };
  /** the units of many parents in one query (the candidates of a search) */
  const prefetchUnits = (parents: string[]) => {
    const want = parents.filter((p) => !unitCache.has(p));
    if (!want.length) return;
    const rows = ctx.db
      .prepare(
        `SELECT u.id, u.reg_id, u.page_num, u.kind, u.label, u.section_path, u.text, r.title
           FROM reg_units u JOIN regulations r ON r.reg_id = u.reg_id WHERE u.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(want.map(Number))) as UnitRow[];
    for (const r of rows) unitCache.set(String(r.id), r);
    for (const p of want) if (!unitCache.has(p)) unitCache.set(p, undefined);
  };
  const label = (parent: string) => {
    const u = unit(parent);
    return u ? `${u.title} ${u.label ?? u.section_path}`.trim() : parent;
  };
  // a table unit is a set of rows: a hit in one of its chunks covers it (its other chunks hold other rows)
  const recordParents = (parents: string[]) =>
    new Set(
      (ctx.db.prepare("SELECT id FROM reg_units WHERE kind = 'table' AND id IN (SELECT value FROM json_each(?))").all(JSON.stringify(parents.map(Number))) as { id: number }[]).map((r) => String(r.id)),
    );
  const engine = await searchEngine(ctx, { corpus: REG_CORPUS, scopes, query, tokens, mode: input.mode ?? 'hybrid', expansion, lexical: reuse, label, parentLists: extraLists, recordParents, candidates: depth });

  const refLabels = new Set(refs.map((r) => r.label));
  const toResult = (u: UnitRow, p: (typeof engine.parents)[number] | null, articleRef: boolean): ResultCore & { shape: UnitShape } => {
    const chunks = (p?.chunks ?? []).map((k) => engine.chunks.get(k)!).filter(Boolean);
    const best = <K extends 'lexical_rank' | 'vector_rank' | 'expansion_rank'>(k: K) => {
      const ranks = chunks.map((c) => c[k]).filter((r): r is number => r !== null);
      return ranks.length ? Math.min(...ranks) : null;
    };
    const matched = [...new Set(chunks.flatMap((c) => c.matched))];
    // snippet, highlights, table row, location and explanation are filled in for the returned page only (finishResult)
    pendingText.set(u.id, {
      u,
      matched,
      semantic: chunks.some((c) => c.vector_rank !== null && c.vector_rank <= SEMANTIC_RANK),
      known: chunks.some((c) => c.ranks.known !== undefined),
      articleRef,
    });
    return {
      reg_id: u.reg_id,
      title: u.title,
      unit_id: u.id,
      page_num: u.page_num,
      section: u.section_path,
      article: u.label,
      kind: u.kind,
      shape: unitShape(u.kind, u.text),
      snippet: '',
      highlights: [],
      score: round(p?.overall_score ?? 0),
      reasons: {
        lexical_rank: best('lexical_rank'),
        vector_rank: best('vector_rank'),
        expansion_rank: best('expansion_rank'),
        matched_terms: matched,
        coverage_ratio: round(p?.coverage_ratio ?? 0),
        evidence: round(Math.max(...chunks.map((c) => c.evidence), 0)),
        article_ref: articleRef,
      },
      block_type: blockTypeOf(u.kind),
      ...(u.kind === 'article' && u.label && /^第.+条(?:之.+)?$/.test(u.label) ? { citation: `${u.title.split(' · ')[0].trim()}${u.label}` } : {}),
    };
  };
  const pendingText = new Map<number, { u: UnitRow; matched: string[]; semantic: boolean; known: boolean; articleRef: boolean }>();
  const pages = new PageTexts(ctx.db);
  const dropped = new Set(engine.dropped);
  const queryWords = engine.tokens.filter((t) => !dropped.has(t) && !NUMBERING.test(t) && t.length >= 2);
  const regulationWhy = (regId: string): string | null => {
    if (selection.mode !== 'auto') return null;
    if (selection.fallback_all) return '没有哪部规程明显更相关，因此检索了全部规程';
    const r = selection.reasons.find((x) => x.reg_id === regId);
    return r ? `自动选择了本规程：${r.why}` : null;
  };
  const finishResult = <T extends ResultCore>(r: T): T & Pick<SmartResult, 'locate' | 'why'> => {
    const p = pendingText.get(r.unit_id)!;
    const { u, matched } = p;
    // an article label is highlighted whole, and only where the query asked for it
    const terms = [...matched.filter((t) => !NUMBERING.test(t)), ...(u.label && refLabels.has(u.label) ? [u.label] : [])];
    const table = u.kind === 'table' && u.label ? tableRowHit(ctx.db, u.reg_id, u.label, u.page_num, matched, u.text) : null;
    // a table hit reads as its row under its header: 表C.1 …：厂站=…；定值项=…；定值=…
    const { snippet, highlights } = makeSnippet(table?.row ? tableRowText(table) : u.text, terms);
    const located = locateHit(pages, u, blockTypeOf(u.kind), table);
    // lead/tail find the row on the page from the whole text; the row shown is cut like the table's
    const locate = located.row ? { ...located, row: located.row.map(clipCell) } : located;
    const why = explainHit({
      queryWords,
      matched,
      unit: u,
      table,
      expansion: expansion ?? [],
      semantic: p.semantic,
      knownQuestion: p.known,
      articleRef: p.articleRef,
      regulation: regulationWhy(u.reg_id),
    });
    return { ...r, snippet, highlights, ...(table ? { table: clipTable(table) } : {}), locate, why };
  };
  const types = input.block_types?.length ? new Set(input.block_types) : null;
  const scope = input.chapter_scope?.trim() || null;
  // a note written inside an article (注：… under its text) stays in the article's unit; a search for notes finds that article
  const notedArticles = types?.has('note')
    ? new Set((ctx.db.prepare("SELECT reg_id, target FROM reg_notes WHERE target_type = 'article'").all() as { reg_id: string; target: string }[]).map((n) => `${n.reg_id}\u0000${n.target}`))
    : null;
  const typeWanted = (u: UnitRow) => !types || types.has(blockTypeOf(u.kind)) || (!!notedArticles && notedArticles.has(`${u.reg_id}\u0000${u.label ?? ''}`));
  const wanted = (u: UnitRow) => typeWanted(u) && (!scope || inChapterScope(u.section_path, scope));

  // the rerank stage (its features include the vector list: hybrid only, also when the engine fell back to lexical)
  const reranked = useReranker && engine.mode === 'hybrid';
  let parents = engine.parents;
  const learnedScore = new Map<string, number>();
  if (engine.mode === 'hybrid' && (reranked || options.onFeatures)) {
    const pool = Math.max(reranked ? reranker.pool : 0, options.onFeatures ? (options.featurePool ?? 300) : 0);
    const rows = regulationFeatures(engine, pool, query, featureUnits(ctx, engine.parents.slice(0, pool).map((p) => p.parent)), options.priors === undefined ? shippedKnownPriors(ctx) : options.priors);
    options.onFeatures?.(rows);
    if (reranked) {
      const scored = rows.slice(0, reranker.pool).map((r) => ({ parent: r.parent, s: rerankScore(reranker, r.x) }));
      for (const r of scored) learnedScore.set(r.parent, r.s);
      const byParent = new Map(engine.parents.map((p) => [p.parent, p]));
      const head = [...scored].sort((a, b) => b.s - a.s).map((r) => byParent.get(r.parent)!);
      parents = [...head, ...engine.parents.slice(head.length)];
    }
  }
  // candidates in engine (or reranked) order, then arranged for reading (rows after provisions, similar rows folded)
  const candidates: (ResultCore & { shape: UnitShape; matched: string[] })[] = [];
  prefetchUnits(parents.slice(0, cfg.candidates).map((p) => p.parent));
  for (const p of parents.slice(0, cfg.candidates)) {
    const u = unit(p.parent);
    if (!u || !wanted(u)) continue;
    const r = toResult(u, p, false);
    candidates.push({ ...r, matched: r.reasons.matched_terms });
  }
  // the consensus boost orders hits; whether two regulations tie is judged on the evidence alone
  const evidenceScore = new Map(candidates.map((c) => [c.unit_id, c.score]));
  if (reranked) {
    // the learned score orders (it has the local and consensus signals as features); beyond its pool, below every reranked hit
    const floor = Math.min(1, ...learnedScore.values());
    for (const c of candidates) c.score = learnedScore.get(String(c.unit_id)) ?? floor * (c.score / (1 + c.score));
  } else {
    yieldLocalToNational(candidates, query, cfg.localRegFactor);
    boostByStatuteConsensus(candidates, cfg.consensusWeight, cfg.consensusTop);
  }
  const arranged = arrangeHits(candidates, { rowFactor: cfg.rowFactor, targetsRows: queryTargetsRows(query) });
  // article references land first, in the order the query names them
  const rankOfReg = new Map<string, number>();
  arranged.forEach((a, i) => {
    if (!rankOfReg.has(a.item.reg_id)) rankOfReg.set(a.item.reg_id, i);
  });
  const resolved = refs.length ? resolveArticleRefs(ctx, refs, regs, scopes ? new Set(scopes) : null, rankOfReg).units : [];
  const refIds = new Set(resolved.map((r) => r.id));
  const top = arranged.length ? arranged[0].item.score : 0;
  const ordered: { item: ResultCore & { shape: UnitShape }; similar: { unit_id: number; page_num: number }[] }[] = [];
  for (const r of resolved) {
    const u = unit(String(r.id));
    if (!u || !wanted(u)) continue;
    const p = engine.parents.find((x) => x.parent === String(r.id)) ?? null;
    const item = toResult(u, p, true);
    item.score = round(Math.max(item.score, top, 1e-4));
    ordered.push({ item, similar: [] });
  }
  for (const a of arranged) {
    if (refIds.has(a.item.unit_id)) continue;
    const { matched: _m, ...item } = a.item;
    ordered.push({ item: { ...item, score: round(item.score) }, similar: a.similar.map((s) => ({ unit_id: s.unit_id, page_num: s.page_num })) });
  }
  // every searched regulation that owns a facet of the question keeps its best hit on the first page
  if (selection.selected.length > 1) {
    const owners = facetOwners(profile ?? profileSearch(ctx, tokens), cfg.autoFacetMaxRegs);
    const facetRegs = new Set([...owners.values()].flat().filter((id) => selection.selected.includes(id)));
    ensureRepresented(ordered, facetRegs, topK, cfg.facetMinScore);
  }
  const page = ordered.slice(offset, offset + topK);
  const results: SmartResult[] = markEditions(
    ctx,
    page.map(({ item, similar }) => ({ ...finishResult(item), similar: { count: similar.length, units: similar.slice(0, 50) } })),
  );

  // per regulation: hits on this page and in all, so a reader can ask for "more from this regulation"
  // counted in results (a hit with folded similar rows is one result, like in `total`), so the
  // groups' totals add up to `total`; `rows` also counts the folded rows
  const groups = new Map<string, { reg_id: string; title: string; shown: number; total: number; rows: number }>();
  for (const o of ordered) {
    let g = groups.get(o.item.reg_id);
    if (!g) groups.set(o.item.reg_id, (g = { reg_id: o.item.reg_id, title: o.item.title, shown: 0, total: 0, rows: 0 }));
    g.total += 1;
    g.rows += 1 + o.similar.length;
  }
  for (const r of results) groups.get(r.reg_id)!.shown += 1;

  const decision = regulationDecision(engine.decision, ordered.map((o) => ({ ...o.item, score: evidenceScore.get(o.item.unit_id) ?? o.item.score })), selection, resolved.length > 0, cfg.crossRegAmbiguity, regs);
  return {
    query,
    mode: engine.mode,
    lexical_only: engine.lexical_only,
    note: regs.length === 0 ? '尚未导入任何规程（gridcode import <文件或文件夹>，或 gridcode demo load）' : engine.note,
    selected_regs: selection.selected,
    selection: { mode: selection.mode, count: selection.selected.length, fallback_all: selection.fallback_all, reasons: selection.reasons, summary: selection.summary },
    decision,
    tokens: engine.tokens,
    article_refs: refs.map((r) => ({ text: r.text, law: r.law, label: r.label, paragraph: r.paragraph, unit_ids: resolved.filter((x) => x.ref === r).map((x) => x.id) })),
    offset,
    total: ordered.length,
    has_more: offset + topK < ordered.length,
    // every regulation with hits, also one none of whose hits made this page: the groups add up to `total`
    groups: [...groups.values()].map((g) => ({ ...g, more: g.total - g.shown })),
    results,
    elapsed_ms: Math.round((performance.now() - t0) * 10) / 10,
  };
}

/**
 * A local regulation answers a question that names its place; otherwise it yields to national law
 * (上位法): its hits' scores are multiplied by `factor`. Lay legal questions are answered by
 * national statutes (none of STARD train's 2,205 cited articles is local, while local regulations
 * are over half of ../shared/data/laws), and a regulation library of one place is unaffected
 * (every hit is scaled alike). Re-sorts in place; factor 1 = off.
 */
export function yieldLocalToNational<T extends { title: string; score: number }>(hits: T[], query: string, factor: number): void {
  if (factor >= 1 || hits.length < 2) return;
  let changed = false;
  for (const h of hits) {
    const place = localPlaceOf(h.title);
    if (place && !query.includes(place)) {
      h.score *= factor;
      changed = true;
    }
  }
  if (changed) hits.sort((a, b) => b.score - a.score);
}

/**
 * Statute consensus: a lay question's articles cluster in one statute, so a hit whose regulation
 * holds much of the top-`top` evidence moves up and a lone hit from an unrelated statute moves
 * down. score' = score · (1 + w·share(reg)) / (1 + w·max share), share = the regulation's part of
 * the top hits' summed score; the strongest regulation's hits keep their scores. Re-sorts in place.
 */
export function boostByStatuteConsensus<T extends { reg_id: string; score: number }>(hits: T[], weight: number, top: number): void {
  if (weight <= 0 || hits.length < 2) return;
  const head = hits.slice(0, top);
  const total = head.reduce((sum, h) => sum + h.score, 0);
  if (total <= 0) return;
  const share = new Map<string, number>();
  for (const h of head) share.set(h.reg_id, (share.get(h.reg_id) ?? 0) + h.score / total);
  const norm = 1 + weight * Math.max(...share.values());
  for (const h of hits) h.score = (h.score * (1 + weight * (share.get(h.reg_id) ?? 0))) / norm;
  hits.sort((a, b) => b.score - a.score);
}

/**
 * Moves the best hit of each given regulation into the first `k` (when it scores at least
 * `minRatio` of the top hit), pushing the lowest hits of over-represented regulations down.
 */
export function ensureRepresented<T extends { item: { reg_id: string; score: number } }>(ordered: T[], regIds: Set<string>, k: number, minRatio: number): void {
  if (ordered.length <= k || regIds.size < 2) return;
  const top = ordered[0].item.score;
  for (const regId of regIds) {
    const head = ordered.slice(0, k);
    if (head.some((o) => o.item.reg_id === regId)) continue;
    const at = ordered.findIndex((o, i) => i >= k && o.item.reg_id === regId);
    if (at < 0 || ordered[at].item.score < minRatio * top) continue;
    // the last head item from the regulation with the most head items makes room
    const counts = new Map<string, number>();
    for (const o of head) counts.set(o.item.reg_id, (counts.get(o.item.reg_id) ?? 0) + 1);
    const [crowded] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    if ((counts.get(crowded) ?? 0) < 2) continue;
    const [moved] = ordered.splice(at, 1);
    let slot = k - 1;
    while (slot > 0 && ordered[slot].item.reg_id !== crowded) slot--;
    ordered.splice(slot, 0, moved);
  }
}

/** Article numbers and numerals: highlighted only as whole labels (no "第四[十二条]"). */
const NUMBERING = /^(第?[零〇一二三四五六七八九十百千万两\d]+[条款项章节编]?|\d+(\.\d+)*)$/;

/**
 * The decision a reader sees. The generic engine's state (locked / ambiguous / low_evidence) is
 * kept for agents, but a banner is shown only when the reader can act on it:
 * - close top hits from DIFFERENT regulations while the scope was chosen automatically → choose one;
 * - weak evidence → refine the question (or search every regulation when only some were searched).
 * Close hits inside one regulation are simply the list (the reader sees them all): not ambiguous.
 * Thresholds and scores stay in `reason` (the "why" drawer), never in the banner text.
 */
function regulationDecision(
  d: Decision,
  items: { reg_id: string; title: string; article: string | null; section: string; score: number }[],
  selection: Selection,
  articleRef: boolean,
  ambiguityRatio: number,
  regs: RegInfo[],
): SmartSearchOutput['decision'] {
  if (articleRef) return { state: 'locked', reason: '问题直接引用了条文，已定位到该条', banner: null };
  if (d.state === 'low_evidence' || !items.length) {
    const actions: DecisionAction[] = [{ kind: 'refine', label: '换个说法或补充关键词' }];
    if (selection.mode === 'auto' && selection.selected.length < regs.length) actions.push({ kind: 'search_all', label: '在全部规程中检索' });
    return {
      state: 'low_evidence',
      reason: d.reason,
      clarify: '没有找到与问题足够相关的条文，可以换个说法、补充设备名称或场景后再试。',
      banner: { message: '没有找到足够相关的条文', actions },
    };
  }
  const top = items[0];
  const close = items.filter((r) => top.score > 0 && r.score / top.score > ambiguityRatio);
  const otherRegs = [...new Map(close.filter((r) => r.reg_id !== top.reg_id).map((r) => [r.reg_id, r])).values()];
  // only when the scope was chosen for the reader: an explicit choice (-r, --all) is not second-guessed
  if (otherRegs.length && selection.mode === 'auto') {
    const options = [top, ...otherRegs].slice(0, 3);
    return {
      state: 'ambiguous',
      reason: `${d.reason}；前几名来自 ${options.length} 部规程，得分比高于 ${ambiguityRatio}`,
      clarify: `几部规程都有相关条文：${options.map((o) => `「${o.title}」`).join('、')}，可以只看其中一部。`,
      banner: {
        message: '几部规程都有相关条文，可以只看其中一部',
        actions: options.map((o) => ({ kind: 'choose_reg' as const, reg_id: o.reg_id, label: `只看「${o.title}」` })),
      },
    };
  }
  return { state: 'locked', reason: d.reason, banner: null };
}

/** A search result carries at most this much of one table cell (the snippet shows the match; `get_table_by_id` has the rest). */
const MAX_CELL_CHARS = 200;

/** One table cell cut to MAX_CELL_CHARS, so a pathological row cannot bloat the response. */
function clipCell(c: string): string {
  return c.length > MAX_CELL_CHARS ? `${c.slice(0, MAX_CELL_CHARS - 1)}…` : c;
}

/** A table hit with every cell and column name cut to MAX_CELL_CHARS, so a pathological row cannot bloat the response. */
function clipTable(t: TableHit): TableHit {
  const clip = clipCell;
  return { ...t, title: clip(t.title), columns: t.columns.map(clip), row: t.row && { ...t.row, cells: t.row.cells.map(clip) } };
}
