import crypto from 'node:crypto';
import { GridError } from '../common/errors';
import type { AppContext } from '../context';
import { normalizeText } from '../text/normalize';
import { parseChineseNumber } from '../text/chinese-numbers';
import { answerFollowUp, classifyQuery, formatAutoAnswer, type EvidenceLine, type Intent, type Layer } from './answer';
import { questionCore, retrieveState, titleMatches, titlesNamedIn, type ParentScore, type RetrievalState } from './retrieve';
import { getDoc, requireCollection, type CollectionRow, type StoredDoc } from './store';
import { writeLog, type LogBase } from './logs';
import { profileOf, WORDING, type CollectionProfile } from './profile';
import { namesOtherDish, namesThingOutside } from './subject';
import { newTopicLead } from './question-words';
import { answerInDocument, bestSectionEvidence, classifySectionQuery, linkCitationsToLibrary, type Citation, type SectionAnswer, type SectionIntent } from './sections';

/** seed 003 ParentLock: locked on one document, pending a choice among candidates, or none. */
export type LockState = 'locked' | 'pending' | 'none';

export interface Candidate {
  /** What the user types (or says: 第二个) to choose it next turn. */
  option_id: string;
  doc_id: number;
  title: string;
  rel_path: string;
  overall_score: number;
}

export interface SessionState {
  lock_state: LockState;
  doc_id: number | null;
  title: string | null;
  candidates: Candidate[];
  last_intent: Intent | null;
  last_step: number | null;
  /** Section (article) index answered last, for 下一条 (non-recipe profiles). */
  last_section?: number | null;
  /** The question that locked the document: context for 罚则呢 / 那怎么处罚. */
  last_query?: string | null;
}

const EMPTY_STATE: SessionState = { lock_state: 'none', doc_id: null, title: null, candidates: [], last_intent: null, last_step: null, last_section: null, last_query: null };

export type AskKind = 'answer' | 'candidates' | 'low_evidence' | 'follow_up' | 'not_found';
export type AskState = 'locked' | 'follow_up' | 'ambiguous' | 'low_evidence' | 'not_found';

export interface AskResult {
  trace_id: string;
  session_id: string;
  turn: number;
  collection: string;
  question: string;
  kind: AskKind;
  /** The turn in one word (see api.ts askOutput.state). */
  state: AskState;
  /** Retrieval decision of this turn; null when the turn was answered from the session (follow-up, selection). */
  decision: 'locked' | 'ambiguous' | 'low_evidence' | 'not_found' | null;
  code: 'LOW_EVIDENCE' | 'NOT_FOUND' | null;
  /** not_found: the named thing the collection does not hold. */
  subject: string | null;
  lock: { state: LockState; doc_id: number | null; title: string | null };
  answer: string | null;
  clarify_question: string | null;
  candidates: Candidate[];
  route: { intent: Intent | SectionIntent; layer: Layer; blocks: string[]; found: boolean; escalated: boolean; step: number | null } | null;
  evidence: EvidenceLine[];
  retrieval: { core: string; tokens: string[]; lists: string[]; reason: string; rule: string | null; parents: ParentScore[] } | null;
  /** Collection profile that shaped wording, chips and evidence layers. */
  profile: CollectionProfile;
  /** Sections quoted by the answer (article / heading, path, source file), best first. */
  citations: Citation[];
  /** Follow-up suggestions for this profile (the UI shows them as chips). */
  suggestions: string[];
  selected: boolean;
  switched: boolean;
  session_expired: boolean;
}

interface SessionRow {
  session_id: string;
  collection_id: number;
  state: string;
  turn: number;
  created_at: string;
  updated_at: string;
}

export function newSessionId(): string {
  return `s-${crypto.randomBytes(6).toString('hex')}`;
}

function loadSession(
  ctx: AppContext,
  coll: CollectionRow,
  sessionId: string,
  now: Date,
): { state: SessionState; turn: number; expired: boolean; exists: boolean } {
  const row = ctx.db.prepare('SELECT * FROM coll_sessions WHERE session_id = ?').get(sessionId) as SessionRow | undefined;
  if (!row) return { state: { ...EMPTY_STATE }, turn: 0, expired: false, exists: false };
  if (row.collection_id !== coll.id) {
    throw new GridError('INVALID_INPUT', `session_id: 会话 ${sessionId} 属于另一个集合，不能用于集合 ${coll.name}`);
  }
  const idleMs = ctx.config.sessions.idleMinutes * 60_000;
  if (now.getTime() - Date.parse(row.updated_at) > idleMs) {
    return { state: { ...EMPTY_STATE }, turn: 0, expired: true, exists: true };
  }
  return { state: { ...EMPTY_STATE, ...(JSON.parse(row.state) as Partial<SessionState>) }, turn: row.turn, expired: false, exists: true };
}

function saveSession(ctx: AppContext, coll: CollectionRow, sessionId: string, state: SessionState, turn: number, now: Date): void {
  ctx.db
    .prepare(
      `INSERT INTO coll_sessions (session_id, collection_id, state, turn, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(session_id) DO UPDATE SET state = excluded.state, turn = excluded.turn, updated_at = excluded.updated_at`,
    )
    .run(sessionId, coll.id, JSON.stringify(state), turn, now.toISOString(), now.toISOString());
}

/**
 * Picks a candidate from `2`, `第二个`, `选2`, `2号`, `最后一个`, or a candidate's title. Returns
 * null when the text is not a selection (then it is a new question).
 */
export function parseSelection(text: string, candidates: Candidate[]): Candidate | null {
  if (!candidates.length) return null;
  const q = normalizeText(text).replace(/[\s，。！？,.!?]/g, '');
  const m = /^(?:我)?(?:选|选择|要|就|是)?(?:第|option|opt|选项)?([一二三四五六七八九十两\d]+)(?:个|号|项|条|种)?(?:吧|呢|的|那个|这个)?$/i.exec(q);
  if (m) {
    const n = parseChineseNumber(m[1]);
    const byId = candidates.find((c) => c.option_id === m[1]);
    if (byId) return byId;
    if (n !== null && n >= 1 && n <= candidates.length) return candidates[n - 1];
    return null;
  }
  if (/^(?:选|要|就)?最后(?:一个|那个)?(?:吧)?$/.test(q)) return candidates[candidates.length - 1];
  // by title: the whole title named (`南派红烧肉`, `要南派红烧肉那个`)
  const named = candidates.filter((c) => q.includes(normalizeText(c.title)));
  if (named.length === 1) return named[0];
  if (named.length > 1) return named.sort((a, b) => b.title.length - a.title.length)[0];
  return null;
}

/** `换个问题，红烧排骨怎么做` -> `红烧排骨怎么做` (a new question), else null. */
export function newTopic(question: string): string | null {
  const lead = newTopicLead(question.trim());
  if (!lead) return null;
  const rest = question.trim().slice(lead.length).trim();
  return rest.length ? rest : null;
}

/** `换成鸡翅呢？` / `那宫保鸡丁呢` / `改成做鱼` -> the new thing asked about, else null. */
export function switchTarget(question: string): string | null {
  const q = normalizeText(question).replace(/[？?！!。]+$/, '');
  const m = /^(?:那|那么)?(?:如果)?(?:换成|换个|换一个|换做|改成|改做|改为|换为|换)(.+?)(?:呢|吧|的话|怎么做|怎么样)?$/.exec(q) ?? /^(?:那|那么|如果是|要是)(.+?)(?:呢|的话)$/.exec(q);
  if (!m) return null;
  const target = questionCore(m[1]);
  return target || null;
}

export interface AskInput {
  collection: string;
  question: string;
  session_id?: string;
  /** Chunks per ranked list and after fusion (seed 003 --top-k). */
  top_k?: number;
  /** Candidates listed when ambiguous (seed 003 --top-parents). */
  top_parents?: number;
  /** Caller's trace id (seed 003 --trace-id); generated when absent. */
  trace_id?: string;
  /** Caller's turn number (seed 003 --turn); the session's next turn when absent. */
  turn?: number;
}

/**
 * One turn of a collection session (seed 003 run_session_once): selection among pending
 * candidates, follow-ups on the locked document routed layer1 -> layer2, switching documents
 * when the user names another one, or fresh retrieval with auto-lock / ambiguity / low evidence.
 */
export async function askCollection(ctx: AppContext, input: AskInput, now = new Date()): Promise<AskResult> {
  let question = input.question.trim();
  if (!question) throw new GridError('INVALID_INPUT', 'question: 问题不能为空');
  const coll = requireCollection(ctx.db, input.collection);
  const sessionId = input.session_id?.trim() || newSessionId();
  const loaded = loadSession(ctx, coll, sessionId, now);
  if (!loaded.exists) {
    // new session: a cheap moment to drop long-abandoned ones (indexed by primary key scan of a small table)
    const cutoff = new Date(now.getTime() - ctx.config.collections.sessionRetentionDays * 86_400_000).toISOString();
    ctx.db.prepare('DELETE FROM coll_sessions WHERE updated_at < ?').run(cutoff);
  }
  const state = loaded.state;
  // `换个问题，…` / `另外，…`: a new question, never a follow-up of the locked document
  const topic = newTopic(question);
  if (topic) {
    Object.assign(state, EMPTY_STATE, { candidates: [] });
    question = topic;
  }
  const turn = input.turn ?? loaded.turn + 1;
  const profile = profileOf(ctx.db, coll);
  const wording = WORDING[profile];
  const base: LogBase = { trace_id: input.trace_id?.trim() || crypto.randomUUID(), session_id: sessionId, turn, collection: coll.name };
  const prevLock = { state: state.lock_state, doc_id: state.doc_id, title: state.title };

  const result: AskResult = {
    trace_id: base.trace_id,
    session_id: sessionId,
    turn,
    collection: coll.name,
    question,
    kind: 'answer',
    state: 'locked',
    decision: null,
    code: null,
    subject: null,
    lock: prevLock,
    answer: null,
    clarify_question: null,
    candidates: [],
    route: null,
    evidence: [],
    retrieval: null,
    selected: false,
    switched: false,
    session_expired: loaded.expired,
    profile,
    citations: [],
    suggestions: [],
  };

  const lockOn = (doc: StoredDoc) => {
    state.lock_state = 'locked';
    state.doc_id = doc.id;
    state.title = doc.title;
    state.candidates = [];
    state.last_step = null;
  };

  const sectionAnswer = async (doc: StoredDoc, text: string, context: string | null) => {
    const a: SectionAnswer = await answerInDocument(ctx, coll, doc, text, { context, last: state.last_section ?? null });
    const max = ctx.config.collections.maxAnswerChars;
    result.answer = a.markdown.length > max ? `${a.markdown.slice(0, max)}\n\n……（内容过长，已截断）` : a.markdown;
    result.citations = linkCitationsToLibrary(ctx.db, a.citations);
    result.evidence = a.citations.map((c) => ({ block: 'article', heading: [c.path, c.label].filter(Boolean).join(' '), text: c.text }));
    if (a.best) state.last_section = a.best.index;
    result.route = { intent: a.intent, layer: 'layer1', blocks: a.best ? [a.best.label] : [], found: a.found, escalated: false, step: null };
    writeLog(ctx, 'evidence', base, {
      doc_id: doc.id,
      intent: a.intent,
      layer: 'layer1',
      sections: a.citations.map((c) => c.label),
      found: a.found,
    });
  };

  const fullAnswer = async (doc: StoredDoc) => {
    if (profile !== 'recipes' && doc.kind !== 'recipe') {
      await sectionAnswer(doc, question, null);
      state.last_query = question;
      result.kind = 'answer';
      return;
    }
    const classified = classifyQuery(question);
    let answer = formatAutoAnswer(doc.parsed, doc.rel_path, ctx.config.collections.maxAnswerChars);
    // a first question that asks something specific (原料, 第三步, 多久) gets that part first
    const specific = classified.intent !== 'general' && !(classified.intent === 'steps' && classified.step === null && !classified.relativeStep);
    if (specific) {
      const routed = answerFollowUp(doc.parsed, question, classified, null);
      if (routed.found) {
        answer = `${routed.markdown}\n\n---\n\n${answer}`;
        setRoute(routed);
      }
    }
    result.kind = 'answer';
    result.answer = answer;
    state.last_intent = classified.intent;
  };

  const setRoute = (routed: ReturnType<typeof answerFollowUp>) => {
    result.route = {
      intent: routed.intent,
      layer: routed.layer,
      blocks: routed.blocks,
      found: routed.found,
      escalated: routed.layer === 'layer2',
      step: routed.step,
    };
    result.evidence = routed.evidence;
    if (routed.step !== null) state.last_step = routed.step;
    writeLog(ctx, 'evidence', base, {
      doc_id: state.doc_id,
      intent: routed.intent,
      layer: routed.layer,
      blocks: routed.blocks,
      found: routed.found,
      evidence: routed.evidence.length,
    });
  };

  const retrieve = (text: string) => retrieveState(ctx, coll, text, { topK: input.top_k, topParents: input.top_parents });
  const runRetrieval = async (text: string, done?: RetrievalState) => {
    const r: RetrievalState = done ?? (await retrieve(text));
    result.decision = r.decision;
    result.retrieval = { core: r.core, tokens: r.tokens, lists: r.lists, reason: r.reason, rule: r.rule, parents: r.parents };
    writeLog(ctx, 'retrieval', base, {
      query: text,
      core: r.core,
      tokens: r.tokens,
      lists: r.lists,
      decision: r.decision,
      reason: r.reason,
      rule: r.rule,
      generic: r.generic,
      parents: r.parents.slice(0, input.top_parents ?? 5),
    });
    if (r.decision === 'locked' && r.locked) {
      const doc = getDoc(ctx.db, r.locked.doc_id);
      if (!doc) throw new GridError('INTERNAL', `文档 ${r.locked.doc_id} 已被删除`);
      lockOn(doc);
      await fullAnswer(doc);
    } else if (r.decision === 'ambiguous') {
      state.lock_state = 'pending';
      state.doc_id = null;
      state.title = null;
      state.candidates = r.candidates.map((c, i) => ({
        option_id: String(i + 1),
        doc_id: c.doc_id,
        title: c.title,
        rel_path: c.rel_path,
        overall_score: c.overall_score,
      }));
      result.kind = 'candidates';
      result.clarify_question = `找到 ${state.candidates.length} 篇相近的${wording.noun}，请问您指的是哪一个？回复编号（如 1）或“第二个”即可。`;
      result.answer = [
        result.clarify_question,
        '',
        ...state.candidates.map((c) => `${c.option_id}. ${c.title}（${c.rel_path}）`),
      ].join('\n');
    } else if (r.decision === 'not_found') {
      // the collection does not hold what the question names: say so plainly; a lock on another
      // subject is released (the question was not about it); near documents are offered, labelled
      result.kind = 'not_found';
      result.code = 'NOT_FOUND';
      result.subject = r.subject;
      const subject = r.subject || r.core || question;
      const near = r.candidates.map((c, i) => ({ option_id: String(i + 1), doc_id: c.doc_id, title: c.title, rel_path: c.rel_path, overall_score: c.overall_score }));
      if (near.length) {
        // near documents wait to be chosen (`1`); with nothing near, an existing lock stays for further follow-ups
        Object.assign(state, { doc_id: null, title: null, last_step: null, last_section: null, candidates: near, lock_state: 'pending' });
      }
      result.candidates = near;
      result.clarify_question = near.length ? `相近的${wording.noun}（不是「${subject}」，回复编号可查看）：` : null;
      result.answer = [
        wording.notFound(subject),
        ...(near.length ? ['', result.clarify_question, '', ...near.map((c) => `${c.option_id}. ${c.title}`)] : ['', `可以换个说法，${wording.clarifyHint}。`]),
      ].join('\n');
    } else {
      // low evidence: an existing lock stays (the user may go on asking about it)
      result.kind = 'low_evidence';
      result.code = 'LOW_EVIDENCE';
      const near = r.parents[0];
      result.clarify_question = near
        ? `没有足够的证据确定您问的是哪一篇${wording.noun}（最接近的是「${near.title}」，但匹配度较低）。能说得更具体些吗？${wording.clarifyHint}。`
        : `集合「${coll.name}」中没有找到与「${r.core || question}」相关的内容。能换个说法吗？${wording.clarifyHint}。`;
      result.answer = `LOW_EVIDENCE：${result.clarify_question}`;
    }
  };

  const bareChoice = isBareChoice(question);
  if (bareChoice && !(state.lock_state === 'pending' && state.candidates.length)) {
    // `第二个` with nothing to choose from: say so instead of searching for the words
    result.kind = 'low_evidence';
    result.code = 'LOW_EVIDENCE';
    result.clarify_question = state.lock_state === 'locked' ? `当前已锁定「${state.title}」，没有待选择的候选。想问哪一篇${wording.noun}？` : `当前没有待选择的候选。请先提问，例如「${wording.example}」。`;
    result.answer = `LOW_EVIDENCE：${result.clarify_question}`;
  } else if (state.lock_state === 'pending' && state.candidates.length) {
    const chosen = parseSelection(question, state.candidates);
    const doc = chosen ? getDoc(ctx.db, chosen.doc_id) : undefined;
    if (chosen && doc) {
      lockOn(doc);
      result.selected = true;
      await fullAnswer(doc);
    } else if (chosen) {
      // the collection was re-imported since the candidates were listed: find the document again by title
      await runRetrieval(chosen.title);
    } else if (bareChoice) {
      result.kind = 'candidates';
      result.candidates = state.candidates;
      result.clarify_question = `没有这个选项，请回复 1 到 ${state.candidates.length} 之间的编号：`;
      result.answer = [result.clarify_question, '', ...state.candidates.map((c) => `${c.option_id}. ${c.title}`)].join('\n');
    } else if (!hasOwnSubject(question)) {
      // 需要哪些原料？ while nothing is chosen yet: ask to choose first
      result.kind = 'candidates';
      result.candidates = state.candidates;
      result.clarify_question = '请先选择您指的是哪一个（回复编号或“第二个”）：';
      result.answer = [result.clarify_question, '', ...state.candidates.map((c) => `${c.option_id}. ${c.title}`)].join('\n');
    } else {
      await runRetrieval(question);
    }
  } else if (state.lock_state === 'locked' && state.doc_id !== null) {
    let current = getDoc(ctx.db, state.doc_id);
    if (!current && state.title) {
      // a re-import replaced the changed file (new id): follow the lock to the document of the same title
      const same = ctx.db.prepare('SELECT id FROM coll_docs WHERE collection_id = ? AND title = ?').all(coll.id, state.title) as { id: number }[];
      if (same.length === 1) {
        current = getDoc(ctx.db, same[0].id);
        if (current) state.doc_id = current.id;
      }
    }
    const target = switchTarget(question);
    const named = titlesNamedIn(ctx, coll, question).filter((t) => t.docId !== state.doc_id && !(state.title ?? '').includes(t.title));
    const classified = classifyQuery(question);
    const core = questionCore(question);
    // `鸡怎么做` while locked on 可乐鸡翅: the subject matches other titles at least as well as the
    // locked one, so it is a new question (here: ambiguous), not a follow-up about 可乐鸡翅
    // (only for 怎么做-type or general questions: 焖多久 / 放多少盐 are about the locked document
    // even when a word of them appears in other titles, e.g. 焖 in 黄焖鸡)
    const howOrGeneral = (classified.intent === 'steps' && classified.step === null && !classified.relativeStep) || classified.intent === 'general';
    const matches = howOrGeneral && core && core !== normalizeText(state.title ?? '') ? titleMatches(ctx, coll, question) : [];
    const currentScore = matches.find((m) => m.docId === state.doc_id)?.score ?? 0;
    const asksNewDish =
      (matches.length > 0 && matches[0].docId !== state.doc_id && matches[0].score >= 0.5 && matches[0].score >= currentScore) ||
      // `宫保虾球怎么做` while locked on 黄焖鸡: it names a dish of its own that the locked recipe neither is
      // nor mentions (`五花肉怎么切` on 红烧肉 is about an ingredient of it): a new question
      (howOrGeneral && !!current && profile === 'recipes' && namesOtherDish(ctx, coll, core, current.id));
    if (!current) {
      Object.assign(state, EMPTY_STATE);
      await runRetrieval(question);
    } else if (target || named.length || asksNewDish) {
      const before = state.doc_id;
      await runRetrieval(target ?? question);
      result.switched = state.lock_state !== 'locked' || state.doc_id !== before;
      if (result.kind === 'low_evidence') result.switched = false;
    } else if (profile !== 'recipes' && current.kind !== 'recipe') {
      // statutes / generic documents: follow-ups move inside the locked document; a question of
      // its own that the document barely answers is a new retrieval (it may be about another one)
      // its own subject may belong to another document (`充电桩坏了找谁报修` while locked on a
      // switching-operation code that mentions 充电 once): retrieval over the whole collection
      // decides, and the lock moves when the other document answers the question better than
      // any section of the locked one (same measure: best idf-weighted term share of a section)
      const { intent } = classifySectionQuery(question);
      const ownQuestion = intent === 'general' && hasOwnSubject(question);
      const inDoc = ownQuestion ? await bestSectionEvidence(ctx, coll, current, question) : 1;
      const elsewhere = ownQuestion ? await retrieve(question) : null;
      let better: { doc: StoredDoc; evidence: number } | null = null;
      // the collection does not hold what the question names, or the calibrated lock decision held the
      // lock back: no switch on section evidence alone (the retrieval's own answer is given below)
      const mayMove = !!elsewhere && elsewhere.decision !== 'not_found' && !(elsewhere.lockCheck?.applied && elsewhere.lockCheck.p < ctx.config.collections.lockModel.threshold);
      for (const p of mayMove ? (elsewhere?.parents.slice(0, ctx.config.collections.topParents) ?? []) : []) {
        if (p.doc_id === current.id) continue;
        const doc = getDoc(ctx.db, p.doc_id);
        const ev = doc ? await bestSectionEvidence(ctx, coll, doc, question) : 0;
        if (doc && ev > inDoc && ev >= ctx.config.collections.minEvidence && ev > (better?.evidence ?? 0)) better = { doc, evidence: ev };
      }
      if (better && elsewhere) {
        result.decision = 'locked';
        result.retrieval = {
          core: elsewhere.core,
          tokens: elsewhere.tokens,
          lists: elsewhere.lists,
          reason: `问题在「${better.doc.title}」中的证据（${better.evidence.toFixed(2)}）强于当前文档（${inDoc.toFixed(2)}），切换文档`,
          rule: 'switch',
          parents: elsewhere.parents,
        };
        writeLog(ctx, 'retrieval', base, { query: question, decision: 'locked', reason: result.retrieval.reason, rule: 'switch', parents: elsewhere.parents.slice(0, input.top_parents ?? 5) });
        lockOn(better.doc);
        await fullAnswer(better.doc);
        result.switched = true;
      } else if (inDoc >= ctx.config.collections.minEvidence) {
        result.kind = 'follow_up';
        await sectionAnswer(current, question, state.last_query ?? null);
      } else {
        const before = state.doc_id;
        await runRetrieval(question, elsewhere ?? undefined);
        // a weak question about the locked statute is answered from it, unless it names a thing the
        // collection never mentions (那醉驾会被判几年 while locked on 劳动法): a new question, and the
        // low-evidence answer stands
        if (result.kind === 'low_evidence' && state.lock_state === 'locked' && state.doc_id === before && !namesThingOutside(ctx, coll, core)) {
          result.kind = 'follow_up';
          result.code = null;
          result.clarify_question = null;
          await sectionAnswer(current, question, state.last_query ?? null);
        }
        result.switched = result.kind !== 'low_evidence' && result.kind !== 'follow_up' && (state.lock_state !== 'locked' || state.doc_id !== before);
      }
    } else {
      const routed = answerFollowUp(current.parsed, question, classified, state.last_step);
      if (!routed.found && routed.intent === 'general' && hasOwnSubject(question)) {
        // nothing in the locked document: maybe it is about another one (or about nothing we have)
        const before = state.doc_id;
        await runRetrieval(question);
        result.switched = result.kind !== 'low_evidence' && (state.lock_state !== 'locked' || state.doc_id !== before);
      } else {
        result.kind = 'follow_up';
        const max = ctx.config.collections.maxAnswerChars;
        result.answer = routed.markdown.length > max ? `${routed.markdown.slice(0, max)}\n\n……（内容过长，已截断）` : routed.markdown;
        state.last_intent = routed.intent;
        setRoute(routed);
      }
    }
  } else {
    await runRetrieval(question);
  }

  if (result.kind === 'candidates' && !result.candidates.length) result.candidates = state.candidates;
  if (result.kind === 'not_found') result.switched = false;
  result.question = input.question.trim();
  result.state =
    result.kind === 'not_found'
      ? 'not_found'
      : result.kind === 'follow_up'
        ? 'follow_up'
        : result.kind === 'candidates'
          ? 'ambiguous'
          : result.kind === 'low_evidence'
            ? 'low_evidence'
            : 'locked';
  if (state.lock_state === 'locked' && (result.kind === 'answer' || result.kind === 'follow_up')) {
    const profileOfDoc: CollectionProfile = profile === 'recipes' && result.citations.length ? 'regulations' : profile;
    result.suggestions = WORDING[profileOfDoc].chips.filter((c) => normalizeText(c).replace(/[？?]/g, '') !== normalizeText(question).replace(/[？?]/g, ''));
  }
  result.lock = { state: state.lock_state, doc_id: state.doc_id, title: state.title };
  saveSession(ctx, coll, sessionId, state, turn, now);
  if (prevLock.state !== state.lock_state || prevLock.doc_id !== state.doc_id) {
    writeLog(ctx, 'lock', base, { from: prevLock, to: result.lock, selected: result.selected, switched: result.switched });
  }
  writeLog(ctx, 'generation', base, {
    answer_kind: result.kind,
    code: result.code,
    doc_id: state.doc_id,
    intent: result.route?.intent ?? null,
    layer: result.route?.layer ?? null,
    answer_chars: result.answer?.length ?? 0,
  });
  return result;
}

/** `2`, `第二个`, `选3`, `最后一个`: a choice among candidates and nothing else. */
function isBareChoice(question: string): boolean {
  const q = normalizeText(question).replace(/[\s，。！？,.!?]/g, '');
  return /^(?:我)?(?:选|选择|要|就)?(?:第)?[一二三四五六七八九十两\d]{1,2}(?:个|号|项)?(?:吧|呢)?$/.test(q) || /^(?:选|要|就)?最后(?:一个|那个)(?:吧)?$/.test(q);
}

/** Does the text name something of its own (not only question words like 需要哪些原料)? */
function hasOwnSubject(question: string): boolean {
  const core = questionCore(question).replace(/(多久|多长时间|几分钟|第.+步|下一步|上一步|工具|锅|哪个|这个|那个)/g, '');
  return core.length >= 2;
}

export interface SessionInfo {
  session_id: string;
  collection: string;
  turn: number;
  expired: boolean;
  lock: { state: LockState; doc_id: number | null; title: string | null };
  candidates: Candidate[];
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export function sessionInfo(ctx: AppContext, sessionId: string, reset = false, now = new Date()): SessionInfo {
  const row = ctx.db.prepare('SELECT * FROM coll_sessions WHERE session_id = ?').get(sessionId) as SessionRow | undefined;
  if (!row) throw new GridError('NOT_FOUND', `会话不存在: ${sessionId}`);
  const coll = ctx.db.prepare('SELECT * FROM collections WHERE id = ?').get(row.collection_id) as CollectionRow;
  if (reset) {
    saveSession(ctx, coll, sessionId, { ...EMPTY_STATE }, 0, now);
    return sessionInfo(ctx, sessionId, false, now);
  }
  const loaded = loadSession(ctx, coll, sessionId, now);
  if (!loaded.exists) {
    // new session: a cheap moment to drop long-abandoned ones (indexed by primary key scan of a small table)
    const cutoff = new Date(now.getTime() - ctx.config.collections.sessionRetentionDays * 86_400_000).toISOString();
    ctx.db.prepare('DELETE FROM coll_sessions WHERE updated_at < ?').run(cutoff);
  }
  const idleMs = ctx.config.sessions.idleMinutes * 60_000;
  return {
    session_id: sessionId,
    collection: coll.name,
    turn: loaded.turn,
    expired: loaded.expired,
    lock: { state: loaded.state.lock_state, doc_id: loaded.state.doc_id, title: loaded.state.title },
    candidates: loaded.state.candidates,
    created_at: row.created_at,
    updated_at: row.updated_at,
    expires_at: new Date(Date.parse(row.updated_at) + idleMs).toISOString(),
  };
}
