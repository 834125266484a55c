import { blockTypeOf, inChapterScope, tableRowHit, tableRowText, type BlockType, type TableHit } from './blocks';
import type { AppContext } from '../context';
import { GridError } from '../common/errors';
import { queryTokens } from '../text/segment';
import { lexicalSearch, corpusVersion, type LexicalResult } from '../search/lexical';
import { searchEngine, type SearchMode } from '../search/engine';
import { shippedExpansion } from '../search/expansion';
import { makeSnippet } from '../search/snippet';
import { REG_CORPUS, REG_PROFILE_CORPUS } from './search-index';

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

export interface SelectionReason {
  reg_id: string;
  title: string;
  score: number;
  profile_score: number;
  first_pass_share: number;
  why: string;
}

export interface Selection {
  mode: 'one' | 'list' | 'all' | 'auto';
  selected: string[];
  fallback_all: boolean;
  reasons: SelectionReason[];
  summary: string;
}

export interface SmartResult {
  reg_id: string;
  title: string;
  unit_id: number;
  page_num: number;
  section: string;
  article: string | null;
  kind: string;
  snippet: string;
  highlights: [number, number][];
  score: number;
  reasons: {
    lexical_rank: number | null;
    vector_rank: number | null;
    expansion_rank: number | null;
    matched_terms: string[];
    coverage_ratio: number;
    evidence: number;
  };
  /** block type of the hit: article | text | table | note */
  block_type?: BlockType;
  /** a hit in a table: the table and the matching row with its header */
  table?: TableHit;
}

export interface SmartSearchOutput {
  query: string;
  mode: SearchMode;
  lexical_only: boolean;
  note: string | null;
  selected_regs: string[];
  selection: Omit<Selection, 'selected'> & { count: number };
  decision: { state: 'locked' | 'ambiguous' | 'low_evidence'; clarify?: string; reason: string };
  tokens: string[];
  results: SmartResult[];
  elapsed_ms: number;
}

export interface SmartSearchInput {
  query: string;
  reg_id?: RegIdInput;
  top_k?: number;
  mode?: SearchMode;
  /** only these block types: article (条/款), text (paragraphs), table, note */
  block_types?: BlockType[];
  /** only units under this chapter / section / appendix ("第六章", "附录C", a heading title) */
  chapter_scope?: string;
}

export interface SmartSearchOptions {
  /**
   * learned query expansion (question word -> statute words). undefined = the shipped table
   * (resources/search/expansion.json) when present; null = none (evaluations of other models).
   */
  expand?: ((tokens: string[]) => string[]) | null;
  /** extra ranked lists of unit ids (e.g. passages of similar known questions) */
  parentLists?: (query: string) => Record<string, string[]>;
}

/** All regulations (cached per index version: 3k+ laws would otherwise cost a query each time). */
export function listRegs(ctx: AppContext): RegInfo[] {
  const key = 'search:regs';
  const version = `${corpusVersion(ctx.db, REG_PROFILE_CORPUS)}:${corpusVersion(ctx.db, REG_CORPUS)}`;
  const cached = ctx.cache.get(key) as { version: string; regs: RegInfo[] } | undefined;
  if (cached && cached.version === version) return cached.regs;
  const regs = ctx.db.prepare('SELECT reg_id, title FROM regulations ORDER BY reg_id').all() as RegInfo[];
  ctx.cache.set(key, { version, regs });
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

/** Auto selection (reg_id null): profile match + first-pass distribution; see file comment. */
export function selectRegulations(
  ctx: AppContext,
  tokens: string[],
  regs: RegInfo[],
  learned: string[] = [],
): { selection: Selection; firstPass: LexicalResult } {
  const cfg = ctx.config.search;
  const titleOf = new Map(regs.map((r) => [r.reg_id, r.title]));
  // deeper than needed for the distribution: the same ranking, filtered to the selected regulations,
  // is then the restricted lexical list (bm25 uses corpus-wide idf, so filtering = searching them)
  const firstPass = lexicalSearch(ctx.db, { corpus: REG_CORPUS, tokens, k: Math.max(cfg.autoFirstPass, cfg.candidates * 3) }, { maxDfRatio: cfg.maxDfRatio });
  const mass = new Map<string, number>();
  let massTotal = 0;
  for (const h of firstPass.hits.slice(0, cfg.autoFirstPass)) {
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
  const profile = lexicalSearch(ctx.db, { corpus: REG_PROFILE_CORPUS, tokens, k: 50 }, { maxDfRatio: cfg.maxDfRatio });
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
    why: [v.pf > 0 ? `规程简介/关键词/目录匹配 ${(v.pf * 100).toFixed(0)}%` : '', v.fp > 0 ? `初检命中占比 ${(v.fp * 100).toFixed(0)}%` : ''].filter(Boolean).join('；') || '无匹配',
  });
  const fallback = (why: string): Selection => ({
    mode: 'auto',
    selected: all,
    fallback_all: true,
    reasons: ranked.slice(0, 5).map(([id, v]) => reasonOf(id, v)),
    summary: `自动选择不确定（${why}），检索全部 ${all.length} 部规程`,
  });
  if (ranked.length === 0) return { selection: fallback('没有任何规程匹配'), firstPass };
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
  if (held < cfg.autoMass) return { selection: fallback(`领先规程只占证据的 ${(held * 100).toFixed(0)}%`), firstPass };
  if (kept.length > cfg.autoMaxShare * all.length) return { selection: fallback('证据分散在多数规程中'), firstPass };
  const selected = kept.map(([id]) => id);
  return {
    selection: {
      mode: 'auto',
      selected,
      fallback_all: false,
      reasons: kept.map(([id, v]) => reasonOf(id, v)),
      summary: `自动选择 ${selected.length} 部规程（占证据 ${(held * 100).toFixed(0)}%）：${kept
        .slice(0, 5)
        .map(([id]) => titleOf.get(id) ?? id)
        .join('、')}${kept.length > 5 ? ' 等' : ''}`,
    },
    firstPass,
  };
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

export async function smartSearch(ctx: AppContext, input: SmartSearchInput, options: SmartSearchOptions = {}): Promise<SmartSearchOutput> {
  const t0 = performance.now();
  const cfg = ctx.config.search;
  const query = input.query.trim();
  if (!query) throw new GridError('INVALID_INPUT', 'query: 检索词不能为空');
  const topK = input.top_k ?? cfg.topK;
  const regs = listRegs(ctx);
  const tokens = queryTokens(query);
  const raw = input.reg_id;
  const extraLists = options.parentLists?.(query);
  let selection: Selection;
  let firstPass: LexicalResult | undefined;
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
  }
  const searchAll = selection.selected.length === regs.length;
  const scopes = searchAll ? undefined : selection.selected;
  // the auto first pass over everything is exactly the lexical list of an all-regulations search
  let reuse: LexicalResult | undefined;
  if (firstPass && searchAll) reuse = { ...firstPass, hits: firstPass.hits.slice(0, cfg.candidates) };
  else if (firstPass && scopes) {
    const keep = new Set(scopes);
    const hits = firstPass.hits.filter((h) => keep.has(h.scope)).slice(0, cfg.candidates);
    const exhausted = firstPass.hits.length < Math.max(cfg.autoFirstPass, cfg.candidates * 3);
    // deep enough (or nothing more to find): reuse; otherwise run the restricted query
    if (hits.length >= cfg.candidates / 2 || exhausted) reuse = { ...firstPass, hits: hits.map((h, i) => ({ ...h, rank: i + 1 })) };
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
  const label = (parent: string) => {
    const u = unit(parent);
    return u ? `${u.title} ${u.label ?? u.section_path}`.trim() : parent;
  };
  const engine = await searchEngine(ctx, { corpus: REG_CORPUS, scopes, query, mode: input.mode ?? 'hybrid', expansion, lexical: reuse, label, parentLists: extraLists });

  const results: SmartResult[] = [];
  const types = input.block_types?.length ? new Set(input.block_types) : null;
  const scope = input.chapter_scope?.trim() || null;
  for (const p of engine.parents) {
    if (results.length >= topK) break;
    const u = unit(p.parent);
    if (!u) continue;
    if (types && !types.has(blockTypeOf(u.kind))) continue;
    if (scope && !inChapterScope(u.section_path, scope)) continue;
    const chunks = p.chunks.map((k) => engine.chunks.get(k)!).filter(Boolean);
    const best = <K extends 'lexical_rank' | 'vector_rank' | 'expansion_rank'>(k: K) => {
      const ranks = chunks.map((c) => c[k]).filter((r): r is number => r !== null);
      return ranks.length ? Math.min(...ranks) : null;
    };
    const matched = [...new Set(chunks.flatMap((c) => c.matched))];
    const table = u.kind === 'table' && u.label ? tableRowHit(ctx.db, u.reg_id, u.label, u.page_num, matched) : null;
    // a table hit reads as its row under its header: 表C.1 …：厂站=…；定值项=…；定值=…
    const { snippet, highlights } = makeSnippet(table?.row ? tableRowText(table) : u.text, matched);
    results.push({
      reg_id: u.reg_id,
      title: u.title,
      unit_id: u.id,
      page_num: u.page_num,
      section: u.section_path,
      article: u.label,
      kind: u.kind,
      snippet,
      highlights,
      score: round(p.overall_score),
      reasons: {
        lexical_rank: best('lexical_rank'),
        vector_rank: best('vector_rank'),
        expansion_rank: best('expansion_rank'),
        matched_terms: matched,
        coverage_ratio: round(p.coverage_ratio),
        evidence: round(Math.max(...chunks.map((c) => c.evidence), 0)),
      },
      block_type: blockTypeOf(u.kind),
      ...(table ? { table } : {}),
    });
  }
  const d = engine.decision;
  return {
    query,
    mode: engine.mode,
    lexical_only: engine.lexical_only,
    note: regs.length === 0 ? '尚未导入任何规程（gridcode import <文件或文件夹>，或 gridcode demo load）' : engine.note,
    selected_regs: selection.selected,
    selection: { mode: selection.mode, count: selection.selected.length, fallback_all: selection.fallback_all, reasons: selection.reasons, summary: selection.summary },
    decision: { state: d.state, reason: d.reason, ...(d.clarify ? { clarify: d.clarify } : {}) },
    tokens: engine.tokens,
    results,
    elapsed_ms: Math.round((performance.now() - t0) * 10) / 10,
  };
}
