import { norm } from './home';
import { findWords, roomMatches, type HomeIndex } from './index';
import { MEDIA_KINDS } from './lexicon';
import { COMMON } from './data';
import { hasVerb } from './parse-utterance';
import { parsePart, actedRoom, hasTarget, type Partial } from './parse-slots';

/**
 * The parse stage, clause level: separators and joiners, exceptions (除了…以外, …留着) and the joining of
 * pieces into commands. parser.ts calls readClauses then joinClauses.
 */
export interface Clause {
  text: string;
  masked: Map<string, string>;
  /** words excluded by 除了…(以外) said in this clause or next to it */
  except: string[] | null;
}

const SEPARATORS = COMMON.re.separators;
// (同 is Cantonese 和: 开书房灯同风扇; names are masked before this split)
// (开客厅空调、关主卧空调: 、 lists targets, or whole commands when each has its verb)
const JOINERS = COMMON.re.joiners;

// (除湿机 / 除草机 / 除螨仪: 除 starting an appliance's word is not "except")
const EXCEPT = COMMON.re.except;
const EXCEPT_END = COMMON.re.except_end;

/** 除了A和B / 除A以外: the words an exception names (rooms, names, kinds). */
function exceptionWords(inner: string, masked: Map<string, string>, index: HomeIndex): string[] {
  const words = findWords(inner, index.roomWords).map((r) => r.word);
  for (const [ch, name] of masked) if (inner.includes(ch)) words.push(name);
  for (const s of findWords(inner, index.subtypeWords)) words.push(s.word);
  if (!words.length) {
    const rest = inner.replace(COMMON.re.exception_filler, '');
    if (rest) words.push(rest);
  }
  return words;
}

/** Splits 除…(以外) out of a clause; returns the clause without it and the excluded words. */
function takeException(clause: Clause, index: HomeIndex): Clause {
  const text = clause.text;
  // 关掉所有灯但是保留花园灯: what the command keeps, said after it
  const keep = text.match(COMMON.re.keep_after);
  if (keep && keep.index && hasVerb(text.slice(0, keep.index).replace(/[\ue000-\ue0ff]/g, ''))) {
    return { ...clause, text: text.slice(0, keep.index), except: [...(clause.except ?? []), ...exceptionWords(keep[1], clause.masked, index)] };
  }
  const ex = text.match(EXCEPT);
  if (!ex || ex.index === undefined) return clause;
  const after = text.slice(ex.index + ex[0].length);
  let end = after.match(EXCEPT_END);
  // 除了书房其他空调都打开 / 主卧的灯除了床头灯都关了: without 以外 the exception ends where the rest
  // of the command starts (其他, 都, 所有, 把 …)
  const rest = after.match(COMMON.re.exception_rest);
  if (rest?.index && (!end || end.index === 0 || rest.index < end.index!)) end = Object.assign([''], { index: rest.index }) as RegExpMatchArray;
  // 关掉所有灯除了卧室 / 除了柠檬灯: the except span runs to the end of the clause
  const namesAfter = [...clause.masked.keys()].some((ch) => after.includes(ch)) || findWords(after, index.subtypeWords).length > 0;
  if ((!end || end.index === 0) && (findWords(after, index.roomWords).length || namesAfter)) end = Object.assign([''], { index: after.length }) as RegExpMatchArray;
  if (!end || end.index === undefined || end.index === 0) return clause;
  const inner = after.slice(0, end.index);
  const except = exceptionWords(inner, clause.masked, index);
  return { ...clause, text: text.slice(0, ex.index) + ' ' + after.slice(end.index + end[0].length), except: [...(clause.except ?? []), ...except] };
}

const KEEP_CLAUSE = COMMON.re.keep_clause;

/** Splits the masked utterance into clauses and folds clauses that only name an exception or what to keep into their neighbour. */
export function readClauses(maskedText: string, masked: Map<string, string>, index: HomeIndex): Clause[] {
  const clauses: Clause[] = maskedText
    .split(SEPARATORS)
    .map((c) => c.replace(COMMON.re.again_lead, ''))
    .filter((c) => c.trim())
    .map((c) => ({ text: c, masked, except: null }));
  // a clause that is only an exception (…，除了床头灯 / 除了客厅，…) belongs to its neighbour
  const merged: Clause[] = [];
  for (let i = 0; i < clauses.length; i++) {
    const c = clauses[i];
    const m = c.text.match(COMMON.re.exception_clause);
    if (m && !hasVerb(m[1].replace(/[\ue000-\ue0ff]/g, ''))) {
      const words = exceptionWords(m[1], masked, index);
      const target = merged.length ? merged[merged.length - 1] : clauses[i + 1];
      if (target) {
        target.except = [...(target.except ?? []), ...words];
        continue;
      }
    }
    // …，厨房的不要关 / 床头灯留着 / 夜灯不用关: what the previous command must leave alone
    const keep = c.text.match(KEEP_CLAUSE);
    if (keep && merged.length && !hasVerb(keep[1].replace(/[\ue000-\ue0ff]/g, ''))) {
      const target = merged[merged.length - 1];
      target.except = [...(target.except ?? []), ...exceptionWords(keep[1], masked, index)];
      continue;
    }
    merged.push(c);
  }
  return merged.map((c) => takeException(c, index));
}

/**
 * Reads each clause's pieces (parse-slots.ts) and joins what belongs together across pieces and clauses:
 * shared verbs, values and rooms, a remark that names the room of what follows, a target said in one clause
 * and its verb in the next, a clause that only narrows the one before.
 */
export function joinClauses(clauses: Clause[], index: HomeIndex): Partial[] {
  const parts: Partial[] = [];
  const clauseOf = new Map<Partial, number>();
  let clauseNo = 0;
  for (const clause of clauses) {
    const pieces = clause.text.split(JOINERS).filter((x) => x.trim());
    const sub = pieces.map((piece) => parsePart(piece, clause.masked, index));
    // 打开客厅和卧室的灯: parts lacking a type/name borrow from the next part that has one
    for (let i = sub.length - 2; i >= 0; i--) {
      if (!sub[i].t && !sub[i].n && !sub[i].ref) {
        sub[i].t = sub[i + 1].t;
        if (sub[i + 1].n && index.subtypeWords.includes(sub[i + 1].n!)) sub[i].n = sub[i + 1].n;
      }
      if (sub[i].q === 'one' && sub[i + 1].q === 'all') sub[i].q = 'all';
    }
    // 打开客厅的灯和窗帘: a later piece without a room stays in the room of the piece before it
    for (let i = 1; i < sub.length; i++) {
      if (!sub[i].s.length && sub[i - 1].s.length && !sub[i].ref && !(sub[i].n && !index.subtypeWords.includes(sub[i].n!))) sub[i].s = [...sub[i - 1].s];
    }
    // 把客厅和主卧的空调都调到25度: pieces joined by 和 share the verb and the value
    for (let i = 1; i < sub.length; i++) if (!sub[i].a) [sub[i].a, sub[i].v] = [sub[i - 1].a, sub[i].v ?? sub[i - 1].v];
    for (let i = sub.length - 2; i >= 0; i--) if (!sub[i].a) [sub[i].a, sub[i].v] = [sub[i + 1].a, sub[i].v ?? sub[i + 1].v];
    if (clause.except) {
      for (const p of sub) {
        p.q = 'except';
        p.x = clause.except;
        // a name the exception took is not also the target (关掉所有灯除了柠檬灯)
        if (p.n && clause.except.includes(p.n) && !index.subtypeWords.includes(p.n)) p.n = null;
        if (p.n && index.subtypeWords.includes(p.n) && clause.except.includes(p.n)) p.n = null;
      }
    }
    for (const p of sub) clauseOf.set(p, clauseNo);
    clauseNo++;
    parts.push(...sub);
  }
  // 客厅有点暗，把吊灯打开: a verbless remark that only names a room sets the room of what follows
  for (let i = parts.length - 2; i >= 0; i--) {
    const p = parts[i];
    const next = parts[i + 1];
    // (灯，书房的，打开: after a kind still waiting for its verb, the room is that kind's)
    const before = parts[i - 1];
    if (before && !before.a && !before.s.length && (before.t || (before.n && !before.residual))) continue;
    if ((!p.a || p.complaint) && p.s.length && !p.t && !p.ref && (!p.n || p.residual) && next.a && !next.s.length) {
      next.s = p.s;
      parts.splice(i, 1);
    }
  }
  // 窗帘再拉开一些，客厅的: a clause naming only a kind or a device, then one with only the verb, are one
  // command (joined before a later clause that says where narrows it)
  for (let i = 0; i + 1 < parts.length; i++) {
    const [p, next] = [parts[i], parts[i + 1]];
    if (p.a || p.question || p.ref || !(p.t || (p.n && !p.residual)) || clauseOf.get(p) === clauseOf.get(next)) continue;
    if (!next.a || hasTarget(next) || next.question) continue;
    p.a = next.a;
    p.v = p.v ?? next.v;
    p.w = p.w.length ? p.w : next.w;
    p.complaint = next.complaint;
    parts.splice(i + 1, 1);
  }
  // 把主卧窗帘拉上，然后关掉吸顶灯: a kind said without a room in the next clause is looked for
  // in the room the previous clause acted in, when that room has one
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i];
    const prev = parts[i - 1];
    if (clauseOf.get(p) === clauseOf.get(prev) || p.s.length || p.ref || p.q !== 'one' || !p.t || (p.n && !index.subtypeWords.includes(p.n))) continue;
    const room = actedRoom(prev, index);
    if (room && index.entities.some((e) => e.kind === 'device' && roomMatches(e.room, room) && e.category === p.t && (!p.n || norm(e.name).includes(p.n)))) p.s = [room];
  }
  // 关灯，客厅的 / 上一首歌，客厅的音箱 / 把吸顶灯打开，主卧的: a clause that only says where or which
  // (no verb, no value) narrows the command before it when it does not contradict what that one named
  for (let i = parts.length - 1; i >= 1; i--) {
    const p = parts[i];
    const prev = parts[i - 1];
    // (灯，书房的，打开: the clause narrowed may still wait for its verb, when it names a kind or a device)
    if (p.a || p.v || p.ref || p.question || p.residual || clauseOf.get(p) === clauseOf.get(prev) || prev.ref) continue;
    if (!prev.a && !(prev.t || (prev.n && !prev.residual))) continue;
    if (!p.s.length && !p.t && !p.n) continue;
    const sameKind = !p.t || !prev.t || p.t === prev.t || (prev.t === 'media' && MEDIA_KINDS.includes(p.t));
    if (!sameKind || (p.n && prev.n) || (p.s.length && prev.s.length)) continue;
    if (!p.s.length && prev.s.length === 0 && !prev.t && !prev.n) continue;
    // (the 'every player' of a bare 上一首 gives way to the player now named)
    if (prev.t === 'media' && p.t && prev.q === 'all') prev.q = p.q;
    prev.s = prev.s.length ? prev.s : p.s;
    prev.t = p.t ?? prev.t;
    prev.n = prev.n ?? p.n;
    parts.splice(i, 1);
  }
  // a verb-only clause (…然后关掉) applies to the previous target; a target-only clause takes the next verb
  const out: Partial[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const next = parts[i + 1];
    if (!p.a && next && next.a && !hasTarget(next)) {
      p.a = next.a;
      if (!p.v) p.v = next.v;
      out.push(p);
      i++;
      continue;
    }
    if (!p.a && out.length && !p.residual) p.a = out[out.length - 1].a;
    if (p.a && !hasTarget(p) && out.length === 0 && parts.length === 1) p.ref = true;
    // 客厅空调调到26度，并且开到最大风: a later clause with a verb and no target acts on the previous target
    if (p.a && !hasTarget(p) && out.length && hasTarget(out[out.length - 1])) p.ref = true;
    out.push(p);
  }
  return out;
}
