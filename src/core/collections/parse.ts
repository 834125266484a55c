import { stripControlChars } from '../text/normalize';
import { parseChineseNumber } from '../text/chinese-numbers';

/**
 * Markdown/TXT documents -> parents with typed blocks. Recipes (howtocook shape: `# X的做法`,
 * difficulty stars, `## 必备原料和工具`, `## 计算`, `## 操作`, `## 附加内容`) get ingredients with
 * quantities, tools and an ordered step list; any other document is split into sections by heading.
 * Answers are built from these blocks, never from free generation.
 */

export type BlockKind = 'intro' | 'ingredients' | 'calculation' | 'steps' | 'extras' | 'section' | 'article';

/** One numbered article of a statute or rule book (`第十四条 …`), with the chapter it sits in. */
export interface Article {
  /** 第十四条 */
  label: string;
  /** 14 */
  n: number;
  /** `第三章 电力线路的保护` (`第一节` appended when present); '' before the first chapter. */
  path: string;
  text: string;
}

export interface DocBlock {
  kind: BlockKind;
  heading: string;
  /** Cleaned text of the section (comments and images removed). */
  text: string;
  /** Top-level list items of the section, in order (notes of a step are folded into it). */
  items: string[];
}

export interface RecipeStep {
  /** 1-based, continuous across `###` groups so 第三步 means the third step of the whole recipe. */
  n: number;
  text: string;
  /** `### 原材料准备` style group heading when the steps are grouped. */
  group: string | null;
  notes: string[];
}

export interface Ingredient {
  name: string;
  /** `1000g（约 2 斤）`, null when the document gives none. */
  quantity: string | null;
}

export interface ParsedDocument {
  /** Document title without the recipe suffix: `红烧肉` for `# 红烧肉的做法`. */
  title: string;
  /** Title as written in the first heading (or the file name). */
  heading: string;
  kind: 'recipe' | 'regulation' | 'document';
  /** Numbered articles (`第X条`) when the document is a statute / rule book; [] otherwise. */
  articles?: Article[];
  /** 1..5 stars, null when the document states none. */
  difficulty: number | null;
  calories: string | null;
  blocks: DocBlock[];
  steps: RecipeStep[];
  /** Ingredients with quantities from 计算, completed by names listed only in 必备原料. */
  ingredients: Ingredient[];
  tools: string[];
}

const TITLE_SUFFIX = /(的做法|做法|的制作方法|制作方法|的制作)$/;

/** Headings that name a block kind, for recipes and recipe-like procedures. */
const HEADING_KINDS: Array<[RegExp, BlockKind]> = [
  [/原料|材料|食材|工具|配料|用料|准备物/, 'ingredients'],
  [/计算|用量|分量|份量|配比/, 'calculation'],
  [/操作|步骤|做法|流程|制作|方法|过程/, 'steps'],
  [/附加|注意|贴士|小贴士|备注|补充|参考/, 'extras'],
];

/** Kitchen and workshop tools: items of the ingredient list that are tools, not food. */
const TOOL_WORDS =
  /锅|刀|砧板|擀面杖|盆|烤箱|微波炉|电饭煲|蒸笼|蒸箱|碗|筷|勺|铲|模具|保鲜膜|锡纸|油纸|烤盘|料理机|搅拌机|破壁机|厨师机|打蛋器|温度计|秤|量杯|漏勺|纱布|牙签|叉子|裱花袋|擀|滤网|筛|竹签|夹子|剪刀|容器|盘子|杯子|瓶|保鲜盒|吸管|冰格|烤架|炭|签子|手套/;
const NOT_TOOL = /锅巴|锅包|火锅底料/;

export function parseDocument(raw: string, fileName: string): ParsedDocument {
  const text = cleanMarkdown(raw);
  const lines = text.split('\n');
  const fallbackTitle = fileName.replace(/\.(md|markdown|txt)$/i, '');

  let heading = '';
  let firstHeadingLevel = 0;
  const sections: Array<{ level: number; heading: string; lines: string[] }> = [{ level: 0, heading: '', lines: [] }];
  for (const line of lines) {
    const m = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) {
      const level = m[1].length;
      if (!heading) {
        heading = m[2].trim();
        firstHeadingLevel = level;
        continue;
      }
      // Sub-headings (###) stay inside their section: recipes group steps with them.
      if (level <= Math.max(2, firstHeadingLevel + 1)) {
        sections.push({ level, heading: m[2].trim(), lines: [] });
        continue;
      }
    }
    sections[sections.length - 1].lines.push(line);
  }
  if (!heading) heading = fallbackTitle;
  const title = heading.replace(TITLE_SUFFIX, '').trim() || fallbackTitle;

  const blocks: DocBlock[] = [];
  for (const [i, s] of sections.entries()) {
    const body = s.lines.join('\n').trim();
    if (!body && i === 0) continue;
    const kind: BlockKind = i === 0 ? 'intro' : kindOfHeading(s.heading);
    blocks.push({ kind, heading: s.heading || (i === 0 ? '简介' : ''), text: body, items: listItems(s.lines) });
  }

  const stars = /难度[：:]\s*(★+)/.exec(text);
  const calories = /卡路里[：:]\s*([^\n]+)/.exec(text);
  const stepsBlock = blocks.find((b) => b.kind === 'steps');
  const steps = stepsBlock ? parseSteps(sections.find((s) => s.heading === stepsBlock.heading)?.lines ?? []) : [];
  const ingredientsBlock = blocks.find((b) => b.kind === 'ingredients');
  const calculationBlock = blocks.find((b) => b.kind === 'calculation');
  const { ingredients, tools } = collectIngredients(ingredientsBlock, calculationBlock);
  const isRecipe =
    /的做法$/.test(heading) || (steps.length > 0 && (ingredients.length > 0 || !!stars)) || (!!ingredientsBlock && !!stepsBlock);
  const articles = isRecipe ? [] : parseArticles(text);
  return {
    title,
    heading,
    kind: isRecipe ? 'recipe' : articles.length >= MIN_ARTICLES ? 'regulation' : 'document',
    articles: articles.length >= MIN_ARTICLES ? articles : [],
    difficulty: stars ? Math.min(5, stars[1].length) : null,
    calories: calories ? calories[1].trim() : null,
    blocks,
    steps,
    ingredients,
    tools,
  };
}

function kindOfHeading(heading: string): BlockKind {
  for (const [re, kind] of HEADING_KINDS) if (re.test(heading)) return kind;
  return 'section';
}

/** Drops HTML comments, images and control characters; links keep their text. */
export function cleanMarkdown(raw: string): string {
  return stripControlChars(raw.replace(/\r\n?/g, '\n'))
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\n{3,}/g, '\n\n');
}

/** Inline Markdown -> plain text for answers and matching (`五花肉` -> 五花肉, **20ml** -> 20ml). */
export function plainInline(text: string): string {
  return text
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/(^|[^*])\*([^*\n]+)\*/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

const BULLET = /^(\s*)(?:[-*+]|\d+[.)、．])\s*(.*)$/;

function listItems(lines: string[]): string[] {
  const items: string[] = [];
  for (const line of lines) {
    const m = BULLET.exec(line);
    if (!m) continue;
    const indent = m[1].replace(/\t/g, '    ').length;
    const body = plainInline(m[2]);
    if (!body) continue;
    if (indent >= 2 && items.length > 0) items[items.length - 1] += `（${body}）`;
    else items.push(body);
  }
  return items;
}

/**
 * Ordered steps: a numbered line continues the count when its number is the next one (or 1
 * under a new `###` group); any other numbered or indented line is a note of the current step
 * (`7. 蒸煮步骤（二选一）` followed by `1.` / `2.` alternatives stays one step).
 */
export function parseSteps(lines: string[]): RecipeStep[] {
  const steps: RecipeStep[] = [];
  let group: string | null = null;
  let groupStarted = false;
  let lastNumber = 0;
  // Some documents write their procedure as a bullet list: bullets are steps only when no line is numbered.
  const bulletSteps = !lines.some((l) => /^\s{0,1}\d+[.)、．]\s*\S/.test(l));
  for (const line of lines) {
    const h = /^#{3,6}\s+(.+)$/.exec(line);
    if (h) {
      group = plainInline(h[1]);
      groupStarted = false;
      continue;
    }
    const numbered = /^(\s*)(\d+)[.)、．]\s*(.*)$/.exec(line);
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (numbered) {
      const indent = numbered[1].length;
      const num = Number(numbered[2]);
      const body = plainInline(numbered[3]);
      const continues = indent < 2 && (num === lastNumber + 1 || (num === 1 && !groupStarted) || steps.length === 0);
      if (continues && body) {
        steps.push({ n: steps.length + 1, text: body, group, notes: [] });
        lastNumber = num;
        groupStarted = true;
      } else if (steps.length && body) {
        steps[steps.length - 1].notes.push(`${num}. ${body}`);
      }
      continue;
    }
    if (bullet) {
      const body = plainInline(bullet[2]);
      if (!body) continue;
      if (bulletSteps && bullet[1].length < 2) steps.push({ n: steps.length + 1, text: body, group, notes: [] });
      else if (steps.length) steps[steps.length - 1].notes.push(body);
      continue;
    }
    const t = plainInline(line);
    if (t && steps.length && /^\s{2,}/.test(line)) steps[steps.length - 1].notes.push(t);
  }
  return steps;
}

function splitNameQuantity(item: string): Ingredient {
  const s = item.replace(/^[（(]?可选[)）]?/, '').trim();
  const colon = /^([^：:]{1,40})[：:]\s*(.+)$/.exec(s);
  if (colon) return { name: colon[1].trim(), quantity: colon[2].trim() || null };
  // 咖喱块 115g / 鸡翅 10 ～ 12 只 / 鸡蛋 2 个
  const m = /^(.+?)\s*((?:约|大约|每人|共)?\s*[\d０-９½¼.]+.*)$/.exec(s);
  if (m && m[1].trim()) return { name: m[1].trim(), quantity: m[2].trim() };
  return { name: s, quantity: null };
}

function collectIngredients(
  ingredientsBlock: DocBlock | undefined,
  calculationBlock: DocBlock | undefined,
): { ingredients: Ingredient[]; tools: string[] } {
  const tools: string[] = [];
  const names: string[] = [];
  for (const item of ingredientsBlock?.items ?? []) {
    if (/^注[：:]/.test(item)) continue;
    const prefixed = /^(工具|主料|辅料|配料|调料|原料|食材)[：:]\s*(.+)$/.exec(item);
    const parts = (prefixed ? prefixed[2] : item)
      .split(/[、，,；;]/)
      .map((p) => p.trim())
      .filter(Boolean);
    for (const part of parts) {
      if (prefixed?.[1] === '工具' || (TOOL_WORDS.test(part) && !NOT_TOOL.test(part) && !prefixed)) tools.push(part);
      else names.push(part);
    }
  }
  const ingredients: Ingredient[] = [];
  for (const item of calculationBlock?.items ?? []) {
    const ing = splitNameQuantity(item);
    if (ing.quantity === null && /份|人|每/.test(ing.name) && ing.name.length > 12) continue;
    ingredients.push(ing);
  }
  // Names listed only in 必备原料 (no quantity given) still belong to the ingredient list.
  const baseName = (n: string) => n.replace(/[（(].*?[)）]/g, '').trim();
  for (const n of names) {
    const b = baseName(n);
    if (!b) continue;
    if (ingredients.some((i) => i.name.includes(b) || b.includes(baseName(i.name)))) continue;
    ingredients.push({ name: n, quantity: null });
  }
  return { ingredients, tools };
}

/** A document with at least this many `第X条` paragraphs is read as articles. */
const MIN_ARTICLES = 3;
const ARTICLE_START = /^\s*(第([一二三四五六七八九十百千零〇两\d]+)条)(?:之([一二三四五六七八九十\d]+))?[\s　]*(.*)$/;
const CHAPTER_HEADING = /^\s*(?:#{1,6}\s*)?(第[一二三四五六七八九十百零〇\d]+[编章节])\s*(.*)$/;

/**
 * `第X条` paragraphs -> articles (an article runs until the next one or the next chapter heading;
 * its items `(一)…` stay inside). Chapter/section headings (`## 第三章 …`, `第一节 …`) give the path.
 */
export function parseArticles(text: string): Article[] {
  const articles: Article[] = [];
  let chapter = '';
  let section = '';
  let current: Article | null = null;
  const body = text.includes('<!-- INFO END -->') ? text.slice(text.indexOf('<!-- INFO END -->')) : text;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const h = CHAPTER_HEADING.exec(line);
    if (h && (line.startsWith('#') || line.length <= 30) && !/条/.test(h[1])) {
      const label = `${h[1]} ${plainInline(h[2])}`.trim();
      if (/节$/.test(h[1])) section = label;
      else {
        chapter = label;
        section = '';
      }
      current = null;
      continue;
    }
    if (/^#{1,6}\s/.test(line)) {
      current = null;
      continue;
    }
    const a = ARTICLE_START.exec(line);
    if (a) {
      const n = parseChineseNumber(a[2]);
      if (n !== null) {
        current = { label: a[1] + (a[3] ? `之${a[3]}` : ''), n, path: [chapter, section].filter(Boolean).join(' '), text: plainInline(a[4]) };
        articles.push(current);
        continue;
      }
    }
    if (current) current.text += `\n${plainInline(line)}`;
  }
  return articles;
}
