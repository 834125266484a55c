import { parseChineseNumber } from '../text/chinese-numbers';
import { segmentForSearch } from '../text/segment';
import type { BlockKind, DocBlock, ParsedDocument, RecipeStep } from './parse';

/**
 * Rule-based answers from a document's own blocks (seed 003 format_auto_answer / route_blocks):
 * nothing is invented — every line of an answer is copied from a block of the locked document.
 */

export type Intent = 'ingredients' | 'steps' | 'time' | 'tools' | 'general';
export type Layer = 'layer1' | 'layer2';

export interface ClassifiedQuery {
  intent: Intent;
  /** 第三步 -> 3; 最后一步 -> -1; 下一步/上一步 -> relative to the session's last step. */
  step: number | null;
  relativeStep: 1 | -1 | null;
}

export interface EvidenceLine {
  block: BlockKind | 'steps';
  heading: string;
  text: string;
}

export interface RoutedAnswer {
  intent: Intent;
  layer: Layer;
  /** Blocks looked at, in order (layer1 = the intent's blocks, layer2 = every block). */
  blocks: string[];
  /** Did the layer that answered actually contain the answer? false = "文档中没有" answer. */
  found: boolean;
  markdown: string;
  evidence: EvidenceLine[];
  step: number | null;
}

const NUM = '[一二三四五六七八九十百零两〇\\d]+';
const STEP_RE = new RegExp(`第\\s*(${NUM})\\s*(?:步|个步骤|条)`);
const STEP_RE2 = new RegExp(`(?:步骤|step)\\s*(${NUM})`, 'i');

const TIME_RE = /多久|多长时间|多少时间|几分钟|几个?小时|多少分钟|多少小时|耗时|时长|用时|要煮多|蒸多|炖多|烤多|焖多|炸多|时间/;
const TOOLS_RE = /工具|器具|用具|厨具|设备|什么锅|哪种锅|啥锅|用锅|烤箱|微波炉|电饭煲|高压锅|砂锅|蒸锅|需要.*锅|用什么.*(?:做|煮|蒸|烤)/;
const INGREDIENTS_RE =
  /原料|材料|食材|配料|用料|调料|佐料|主料|辅料|需要什么|需要哪些|准备什么|准备哪些|要准备|放什么|加什么|放哪些|多少克|多少g|几克|用量|放多少|加多少|要多少|几个|几片|几勺|几根|几瓣|分量|份量|买什么/i;
const STEPS_RE = /什么时候|何时|哪一步|步骤|怎么做|做法|流程|怎么弄|怎么操作|如何做|怎样做|先做|先干|然后|接下来|下一步|上一步|最后一步|第一步|具体操作/;

/** Follow-up classification (seed 003 classify_query): ingredients / steps / time / tools / general. */
export function classifyQuery(question: string): ClassifiedQuery {
  const q = question.replace(/\s+/g, '');
  let step: number | null = null;
  let relativeStep: 1 | -1 | null = null;
  const m = STEP_RE.exec(q) ?? STEP_RE2.exec(q);
  if (m) step = parseChineseNumber(m[1]);
  else if (/最后一步/.test(q)) step = -1;
  else if (/下一步|接下来(?:呢|做什么|干什么)?$|然后呢/.test(q)) relativeStep = 1;
  else if (/上一步|前一步/.test(q)) relativeStep = -1;
  if (step !== null || relativeStep !== null) {
    // 第三步要多久 asks for the time of a step: still answered from that step
    return { intent: 'steps', step, relativeStep };
  }
  if (TIME_RE.test(q)) return { intent: 'time', step: null, relativeStep: null };
  if (TOOLS_RE.test(q)) return { intent: 'tools', step: null, relativeStep: null };
  if (INGREDIENTS_RE.test(q)) return { intent: 'ingredients', step: null, relativeStep: null };
  if (STEPS_RE.test(q)) return { intent: 'steps', step: null, relativeStep: null };
  return { intent: 'general', step: null, relativeStep: null };
}

/** Which blocks answer which intent (layer1). */
export const INTENT_BLOCKS: Record<Intent, BlockKind[]> = {
  ingredients: ['ingredients', 'calculation'],
  steps: ['steps'],
  time: ['intro', 'steps'],
  tools: ['ingredients'],
  general: ['intro', 'extras'],
};

function stars(n: number | null): string {
  return n ? '★'.repeat(n) + '☆'.repeat(Math.max(0, 5 - n)) : '';
}

function stepLine(s: RecipeStep): string {
  const notes = s.notes.length ? '\n' + s.notes.map((n) => `   - ${n}`).join('\n') : '';
  return `${s.n}. ${s.text}${notes}`;
}

/** The full structured answer for a locked document (seed 003 format_auto_answer). */
export function formatAutoAnswer(doc: ParsedDocument, source?: string, maxChars = Infinity): string {
  const out: string[] = [`# ${doc.title}`];
  const meta = [doc.difficulty ? `难度：${stars(doc.difficulty)}` : '', doc.calories ? `预估卡路里：${doc.calories}` : '']
    .filter(Boolean)
    .join(' · ');
  if (meta) out.push(meta);
  const intro = doc.blocks.find((b) => b.kind === 'intro');
  const introText = intro ? firstParagraph(intro.text) : '';
  if (introText) out.push(introText);
  if (doc.kind === 'recipe' || doc.ingredients.length || doc.steps.length) {
    if (doc.ingredients.length) {
      out.push('## 原料和用量', doc.ingredients.map((i) => `- ${i.name}${i.quantity ? `：${i.quantity}` : ''}`).join('\n'));
    }
    const calc = doc.blocks.find((b) => b.kind === 'calculation');
    const servings = calc ? calc.text.split('\n').find((l) => /份|人/.test(l) && !/^\s*[-*+]/.test(l)) : undefined;
    if (servings) out.push(`份量：${servings.trim()}`);
    if (doc.tools.length) out.push('## 工具', doc.tools.map((t) => `- ${t}`).join('\n'));
    if (doc.steps.length) {
      const parts: string[] = [];
      let group: string | null = null;
      for (const s of doc.steps) {
        if (s.group && s.group !== group) {
          parts.push(`**${s.group}**`);
          group = s.group;
        }
        parts.push(stepLine(s));
      }
      out.push('## 步骤', parts.join('\n'));
    }
    const extras = doc.blocks.find((b) => b.kind === 'extras');
    const extraItems = extras ? extras.items.filter((i) => !/Issue 或 Pull request/i.test(i)) : [];
    if (extraItems.length) out.push('## 附加内容', extraItems.map((i) => `- ${i}`).join('\n'));
  } else {
    // Non-recipe document: its sections, in order
    for (const b of doc.blocks) {
      if (b.kind === 'intro' || !b.text.trim()) continue;
      out.push(`## ${b.heading}`, b.text.trim());
    }
  }
  let text = out.join('\n\n');
  if (text.length > maxChars) {
    // never cut inside a surrogate pair or leave a half list item: cut at the last line end
    const cut = text.lastIndexOf('\n', maxChars);
    text = `${text.slice(0, cut > maxChars / 2 ? cut : maxChars)}\n\n……（内容过长，只显示前 ${maxChars} 个字符，完整内容请查看来源文件）`;
  }
  return source ? `${text}\n\n> 来源：${source}` : text;
}

function firstParagraph(text: string): string {
  return (
    text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .find((p) => p && !/^预估|^[-*+]/.test(p)) ?? ''
  );
}

function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[。！？；!?])/)
    .map((s) => s.replace(/^\s*(?:[-*+]|\d+[.)、．])\s*/, '').trim())
    .filter(Boolean);
}

const DURATION = /(?:约|大约|大概|全程)?\s*\d+(?:\.\d+)?\s*(?:[-~～到至]\s*\d+(?:\.\d+)?\s*)?(?:分钟|小时|秒钟?|min|h\b)|半\s*小时|[一二三四五六七八九十两半]+\s*(?:分钟|个?小时)/i;

function blockEvidence(doc: ParsedDocument, kinds: BlockKind[] | 'all'): Array<{ block: DocBlock; lines: string[] }> {
  return doc.blocks
    .filter((b) => kinds === 'all' || kinds.includes(b.kind))
    .map((b) => ({ block: b, lines: sentences(b.text) }));
}

/** The ingredient named in the question, as written in the document (longest match wins). */
function mentionedIngredient(doc: ParsedDocument, question: string): string | null {
  let best: string | null = null;
  const consider = (name: string) => {
    const base = name.replace(/[（(].*?[)）]/g, '').split(/[\/／或]/)[0].trim();
    if (base.length >= 1 && question.includes(base) && (!best || base.length > best.length)) best = base;
  };
  for (const i of doc.ingredients) consider(i.name);
  if (best) return best;
  // names only mentioned in steps (e.g. 冰糖 in 加入 15g 冰糖): query tokens present in the document text
  const all = doc.blocks.map((b) => b.text).join('\n');
  for (const t of subjectTokens(doc, question)) {
    if (!/原料|材料|食材|用量|调料|配料|用料/.test(t) && all.includes(t) && (!best || t.length > best.length)) best = t;
  }
  return best;
}

/** Question words and particles: never what a follow-up is about. */
const QUESTION_WORDS =
  /什么时候|什么|怎么样|怎么|怎样|如何|为什么|为啥|多少|多久|多长|哪些|哪个|哪一步|哪种|是不是|需要|应该|可以|能不能|一下|这道菜|这道|这个|那个|请问|第[一二三四五六七八九十\d]+步|步骤|大概|一般|准备|材料|原料|原材料|食材|配料|用料|调料|工具|东西|时间|用量|分量|份量|呢|吗|吧|啊|呀|的|了|是|要|得|还|再|就|都|该|几/g;
const WEAK_CHARS = new Set([...'放加用做有在和与或把被给让个次下上']);

/**
 * What a follow-up asks about, as substrings found in the document itself (`油放多少` -> 油,
 * `鸡翅要划几刀` -> 划, 刀): character matching, because jieba joins unusual pairs (油放, 要划).
 * The document's own title and question words are not subjects.
 */
function subjectTokens(doc: ParsedDocument, question: string): string[] {
  const text = doc.blocks.map((b) => b.text).join('\n');
  let q = question.normalize('NFKC').toLowerCase();
  for (const t of [doc.title, ...segmentForSearch(doc.title)].filter((t) => t.length >= 2).sort((a, b) => b.length - a.length)) q = q.split(t).join(' ');
  const runs = q.replace(QUESTION_WORDS, ' ').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const out: string[] = [];
  for (const run of runs) {
    const chars = [...run];
    let i = 0;
    while (i < chars.length) {
      let found = '';
      for (let j = chars.length; j > i; j--) {
        const sub = chars.slice(i, j).join('');
        if (text.includes(sub)) {
          found = sub;
          break;
        }
      }
      if (found && !(found.length === 1 && WEAK_CHARS.has(found))) out.push(found);
      i += Math.max(1, [...found].length);
    }
  }
  return [...new Set(out)];
}

/**
 * Answers a follow-up about the locked document: layer1 uses only the intent's blocks; when
 * they do not contain the answer (no time stated in steps, an ingredient only mentioned in a
 * step, a general question), escalate to layer2 = the whole evidence set (every block).
 */
export function answerFollowUp(
  doc: ParsedDocument,
  question: string,
  classified: ClassifiedQuery,
  lastStep: number | null = null,
): RoutedAnswer {
  const { intent } = classified;
  const layer1Blocks = INTENT_BLOCKS[intent];
  const l1 = (markdown: string, evidence: EvidenceLine[], step: number | null = null): RoutedAnswer => ({
    intent,
    layer: 'layer1',
    blocks: layer1Blocks,
    found: true,
    markdown,
    evidence,
    step,
  });
  const l2 = (markdown: string, evidence: EvidenceLine[], found: boolean): RoutedAnswer => ({
    intent,
    layer: 'layer2',
    blocks: doc.blocks.map((b) => b.kind),
    found,
    markdown,
    evidence,
    step: null,
  });
  const title = doc.title;

  if (intent === 'steps') {
    let n = classified.step;
    if (classified.relativeStep) n = (lastStep ?? 0) + classified.relativeStep;
    if (n === -1) n = doc.steps.length;
    if (doc.steps.length === 0) return layer2Search(doc, question, l2, `《${title}》没有编号的步骤`);
    if (n !== null) {
      if (n < 1 || n > doc.steps.length) {
        return {
          ...l1(`《${title}》共有 ${doc.steps.length} 步，没有第 ${n} 步。`, []),
          found: false,
        };
      }
      const s = doc.steps[n - 1];
      return l1(`**《${title}》第 ${n} 步**${s.group ? `（${s.group}）` : ''}：${s.text}${s.notes.length ? '\n' + s.notes.map((x) => `- ${x}`).join('\n') : ''}`, [
        { block: 'steps', heading: s.group ?? '操作', text: s.text },
      ], n);
    }
    // 花生米什么时候放: the steps that mention what is asked about
    const terms = subjectTokens(doc, question);
    const matching = terms.length ? doc.steps.filter((s) => terms.some((t) => s.text.includes(t) || s.notes.some((n) => n.includes(t)))) : [];
    if (matching.length && matching.length < doc.steps.length) {
      return l1(matching.map(stepLine).join('\n'), matching.map((s) => ({ block: 'steps' as const, heading: s.group ?? '操作', text: s.text })), matching.length === 1 ? matching[0].n : null);
    }
    return l1(`**《${title}》的步骤**\n\n${doc.steps.map(stepLine).join('\n')}`, doc.steps.map((s) => ({ block: 'steps' as const, heading: '操作', text: s.text })));
  }

  if (intent === 'ingredients') {
    const name = mentionedIngredient(doc, question);
    if (name) {
      const hit = doc.ingredients.find((i) => i.name.includes(name) && i.quantity);
      if (hit) return l1(`**${hit.name}**：${hit.quantity}`, [{ block: 'calculation', heading: '计算', text: `${hit.name}：${hit.quantity}` }]);
      // layer1 names it without a quantity (or not at all): the steps may say how much
      const lines = blockEvidence(doc, 'all').flatMap(({ block, lines }) =>
        lines.filter((l) => l.includes(name)).map((text) => ({ block: block.kind, heading: block.heading, text })),
      );
      if (lines.length) return l2(`原料表没有给出「${name}」的用量，文中提到：\n\n${lines.slice(0, 6).map((l) => `- ${l.text}`).join('\n')}`, lines.slice(0, 6), true);
      return l2(`《${title}》中没有提到「${name}」。`, [], false);
    }
    if (doc.ingredients.length) {
      return l1(
        `**《${title}》的原料和用量**\n\n${doc.ingredients.map((i) => `- ${i.name}${i.quantity ? `：${i.quantity}` : ''}`).join('\n')}`,
        doc.ingredients.map((i) => ({ block: 'calculation' as const, heading: '计算', text: `${i.name}${i.quantity ? `：${i.quantity}` : ''}` })),
      );
    }
    return layer2Search(doc, question, l2, `《${title}》没有原料清单`);
  }

  if (intent === 'time') {
    const found = blockEvidence(doc, layer1Blocks).flatMap(({ block, lines }) =>
      lines.filter((l) => DURATION.test(l)).map((text) => ({ block: block.kind, heading: block.heading, text })),
    );
    if (found.length) {
      const total = found.find((f) => f.block === 'intro');
      const stepTimes = doc.steps.filter((s) => DURATION.test(s.text) || s.notes.some((n) => DURATION.test(n)));
      const parts: string[] = [];
      if (total) parts.push(`**总耗时**：${total.text}`);
      if (stepTimes.length) parts.push(`**各步骤用时**\n\n${stepTimes.map((s) => `- 第 ${s.n} 步：${s.text}`).join('\n')}`);
      if (!parts.length) parts.push(found.map((f) => `- ${f.text}`).join('\n'));
      return l1(parts.join('\n\n'), found);
    }
    const rest = blockEvidence(doc, 'all').flatMap(({ block, lines }) =>
      lines.filter((l) => DURATION.test(l)).map((text) => ({ block: block.kind, heading: block.heading, text })),
    );
    if (rest.length) return l2(`步骤中没有写明时间，文中其他部分提到：\n\n${rest.map((r) => `- ${r.text}`).join('\n')}`, rest, true);
    return l2(`《${title}》没有写明所需时间。`, [], false);
  }

  if (intent === 'tools') {
    if (doc.tools.length) return l1(`**《${title}》需要的工具**\n\n${doc.tools.map((t) => `- ${t}`).join('\n')}`, doc.tools.map((t) => ({ block: 'ingredients' as const, heading: '必备原料和工具', text: t })));
    const TOOL_IN_TEXT = /(?:砂锅|铁锅|炒锅|平底锅|不粘锅|高压锅|电饭煲|蒸锅|汤锅|奶锅|空气炸锅|烤箱|微波炉|蒸箱|锅|刀|砧板|擀面杖|盆|碗|盘子?|筷子|勺子?|锅铲|铲子|漏勺|打蛋器|料理机|搅拌机|破壁机|模具|保鲜膜|锡纸|烤盘|温度计|量杯|秤|牙签|竹签|叉子|滤网|纱布|裱花袋|剪刀)/g;
    const seen = new Map<string, EvidenceLine>();
    for (const { block, lines } of blockEvidence(doc, 'all')) {
      for (const l of lines) for (const m of l.match(TOOL_IN_TEXT) ?? []) if (!seen.has(m)) seen.set(m, { block: block.kind, heading: block.heading, text: l });
    }
    // keep the most specific names (砂锅 rather than 锅 when both occur)
    const names = [...seen.keys()].filter((n) => ![...seen.keys()].some((o) => o !== n && o.includes(n)));
    if (names.length) return l2(`工具清单里没有单列工具，做法中用到：${names.join('、')}`, names.map((n) => seen.get(n)!), true);
    return l2(`《${title}》没有提到需要的工具。`, [], false);
  }

  // general: the best-matching sentences of intro/extras, else of the whole document
  const tokens = subjectTokens(doc, question);
  const rank = (kinds: BlockKind[] | 'all') =>
    blockEvidence(doc, kinds)
      .flatMap(({ block, lines }) =>
        lines.map((text) => ({ block: block.kind, heading: block.heading, text, score: tokens.filter((t) => text.includes(t)).length })),
      )
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 4);
  const first = tokens.length ? rank(layer1Blocks) : [];
  if (first.length) return l1(first.map((f) => `- ${f.text}`).join('\n'), first.map(({ score: _s, ...e }) => e));
  return layer2Search(doc, question, l2, `《${title}》中没有找到与「${question}」相关的内容`, tokens);
}

function layer2Search(
  doc: ParsedDocument,
  question: string,
  l2: (markdown: string, evidence: EvidenceLine[], found: boolean) => RoutedAnswer,
  missing: string,
  tokens = subjectTokens(doc, question),
): RoutedAnswer {
  const scored = blockEvidence(doc, 'all')
    .flatMap(({ block, lines }) =>
      lines.map((text) => ({ block: block.kind, heading: block.heading, text, score: tokens.filter((t) => text.includes(t)).length })),
    )
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5);
  if (!scored.length) return l2(`${missing}。`, [], false);
  return l2(scored.map((s) => `- ${s.text}（${s.heading}）`).join('\n'), scored.map(({ score: _s, ...e }) => e), true);
}
