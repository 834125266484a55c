/**
 * Tables, notes and references (`npm run eval -- tables [--verbose]`).
 *
 * A fresh data dir with the demo library (angui_2024, wengui_2024) and the six power statutes of
 * ../shared/data/laws, imported through the real operations; then eval/data/tables-questions.tsv:
 *  - table lookup: a natural question -> `search_tables` top-1 / top-3, and `smart_search` restricted to
 *    table blocks (its first hit's table);
 *  - note lookup: a natural question -> `smart_search` over note blocks (top-3 holds the note), and
 *    "表A.2 / 注二" as users type it -> `lookup_annotation`;
 *  - reference resolution: the words as written ("按附录 C 表 C.2 执行", "依照《…》第十四条") ->
 *    `resolve_reference`; right when type, target, regulation and page all agree with the page found
 *    independently (the article's unit, the TOC heading, the table's first page, the note's page), or when
 *    an unresolvable reference is reported unresolved.
 * Per family, dev and held-out (every 4th question of each family, never looked at while tuning).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext, type AppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot, sharedDir } from '../src/core/common/paths';
import { powerLibrary } from './power.eval';
import { printFamilyTally, structureEval } from './table-structure';

interface Question {
  n: number;
  family: 'table' | 'note' | 'note-id' | 'ref';
  scope: string;
  input: string;
  expected: string;
  heldOut: boolean;
}

export function readTableQuestions(file = path.join(projectRoot(), 'eval', 'data', 'tables-questions.tsv')): Question[] {
  const out: Question[] = [];
  const perFamily = new Map<string, number>();
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [family, scope, input, expected] = line.split('\t').map((s) => s.trim());
    const k = (perFamily.get(family) ?? 0) + 1;
    perFamily.set(family, k);
    out.push({ n: out.length + 1, family: family as Question['family'], scope, input, expected, heldOut: k % 4 === 0 });
  }
  return out;
}

type Tally = Record<string, { dev: [number, number]; held: [number, number] }>;

function count(t: Tally, metric: string, q: Question, ok: boolean): void {
  const row = (t[metric] ??= { dev: [0, 0], held: [0, 0] });
  const slot = q.heldOut ? row.held : row.dev;
  slot[0] += ok ? 1 : 0;
  slot[1] += 1;
}

const pct = ([a, b]: [number, number]) => (b ? `${((100 * a) / b).toFixed(1)}% (${a}/${b})` : '—');

/** "第6章" / "附录 D" compare without spaces. */
const squash = (s: string) => s.replace(/\s+/g, '');

async function expectedPage(ctx: AppContext, regId: string, type: string, target: string): Promise<number | null> {
  if (type === 'article' || type === 'clause') {
    const u = ctx.db.prepare('SELECT page_num FROM reg_units WHERE reg_id = ? AND label = ? ORDER BY ord LIMIT 1').get(regId, target) as { page_num: number } | undefined;
    return u?.page_num ?? null;
  }
  if (type === 'table') {
    const t = (await invokeOperation(ctx, 'regulations.tables', { reg_id: regId })).tables.find((x) => x.table_id === target);
    return t?.page_start ?? null;
  }
  if (type === 'note') {
    const n = ctx.db.prepare('SELECT page_num FROM reg_notes WHERE reg_id = ? AND label = ? ORDER BY ord LIMIT 1').get(regId, target) as { page_num: number } | undefined;
    return n?.page_num ?? null;
  }
  const toc = (await invokeOperation(ctx, 'regulations.toc', { reg_id: regId })).toc;
  return toc.find((e) => squash(e.title).startsWith(squash(target)))?.page_num ?? null;
}

export default async function tables(args: string[]): Promise<void> {
  const laws = path.join(sharedDir(), 'data', 'laws');
  if (!fs.existsSync(laws)) {
    console.log(`[skip] 缺少共享数据: ${laws}（可设置 GRIDCODE_SHARED_DIR）`);
    return;
  }
  const verbose = args.includes('--verbose');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-eval-tables-'));
  const ctx = createAppContext({ dataDir });
  try {
    const ids = await powerLibrary(ctx, laws);
    const reg = (name: string) => ids.get(name) ?? name;
    const questions = readTableQuestions();
    const families = [...new Set(questions.map((q) => q.family))];
    console.log(
      `规程 ${ids.size} 部（演示 2 + 电力法规 6），问题 ${questions.length} 条：${families.map((f) => `${f} ${questions.filter((q) => q.family === f).length}`).join('，')}（每族每第 4 条留出，共 ${questions.filter((q) => q.heldOut).length} 条）`,
    );
    const tally: Tally = {};
    const miss = (q: Question, got: string) => {
      if (verbose) console.log(`  ✗ [${q.family} ${q.n}${q.heldOut ? ' 留出' : ''}] ${q.input}  期望 ${q.expected}  得到 ${got}`);
    };
    for (const q of questions) {
      const scope = q.scope === 'all' ? undefined : reg(q.scope);
      if (q.family === 'table') {
        const [wantReg, wantTable] = q.expected.split(':');
        const hits = (await invokeOperation(ctx, 'regulations.search_tables', { query: q.input, ...(scope ? { reg_id: scope } : {}), top_k: 3 })).results;
        const right = (h: { reg_id: string; table: { table_id: string } }) => h.reg_id === reg(wantReg) && h.table.table_id === wantTable;
        count(tally, 'table · search_tables top-1', q, !!hits[0] && right(hits[0]));
        count(tally, 'table · search_tables top-3', q, hits.some(right));
        const smart = (await invokeOperation(ctx, 'search.smart_search', { query: q.input, reg_id: scope ?? 'all', top_k: 5, block_types: ['table'] })).results;
        const first = smart[0];
        const smartOk = !!first && first.reg_id === reg(wantReg) && first.table?.table_id === wantTable;
        count(tally, 'table · smart_search(table) top-1', q, smartOk);
        if (!hits[0] || !right(hits[0]) || !smartOk) miss(q, `search_tables ${hits.map((h) => `${h.reg_id}:${h.table.table_id}`).join(' | ')}; smart ${first ? `${first.reg_id}:${first.table?.table_id ?? first.kind}` : '—'}`);
      } else if (q.family === 'note' || q.family === 'note-id') {
        const [wantReg, target, label] = q.expected.split(':');
        const want = ctx.db
          .prepare('SELECT text FROM reg_notes WHERE reg_id = ? AND target = ? AND label = ? ORDER BY ord LIMIT 1')
          .get(reg(wantReg), target, label) as { text: string } | undefined;
        if (!want) throw new Error(`问题 ${q.n} 的答案注释不存在: ${q.expected}`);
        const key = squash(want.text).slice(0, 16);
        if (q.family === 'note-id') {
          const [where, note] = q.input.split('/').map((s) => s.trim());
          const byArticle = /条/.test(where);
          const out = await invokeOperation(ctx, 'regulations.notes', { reg_id: scope!, note, ...(byArticle ? { article: where } : { table_id: where }) });
          const ok = out.notes.length === 1 && squash(out.notes[0].text).startsWith(key);
          count(tally, 'note · lookup_annotation exact', q, ok);
          if (!ok) miss(q, out.notes.map((n) => `${n.target}:${n.label}`).join(' | ') || '（无）');
        } else {
          const smart = (await invokeOperation(ctx, 'search.smart_search', { query: q.input, reg_id: scope ?? 'all', top_k: 3, block_types: ['note'] })).results;
          const text = ctx.db.prepare('SELECT text FROM reg_units WHERE id = ?');
          const found = smart.map((r) => ({ reg: r.reg_id, text: squash((text.get(r.unit_id) as { text: string }).text) }));
          const at = found.findIndex((f) => f.reg === reg(wantReg) && f.text.includes(key));
          count(tally, 'note · smart_search(note) top-1', q, at === 0);
          count(tally, 'note · smart_search(note) top-3', q, at >= 0);
          if (at !== 0) miss(q, found.map((f) => `${f.reg}:${f.text.slice(0, 14)}`).join(' | ') || '（无）');
        }
      } else if (q.family === 'ref') {
        const res = await invokeOperation(ctx, 'regulations.resolve', { reg_id: reg(q.scope), reference: q.input });
        let ok: boolean;
        if (q.expected === 'unresolved') ok = !res.resolved;
        else {
          const parts = q.expected.split(':');
          const [wantReg, type, target] = parts.length === 3 ? [reg(parts[0]), parts[1], parts[2]] : [reg(q.scope), parts[0], parts[1]];
          const page = await expectedPage(ctx, wantReg, type, target);
          if (page === null) throw new Error(`问题 ${q.n} 的引用目标不存在: ${q.expected}`);
          ok = res.resolved && res.reference_type === type && res.reg_id === wantReg && squash(res.target ?? '').startsWith(squash(target)) && res.page_num === page;
        }
        count(tally, 'reference · resolve_reference', q, ok);
        if (!ok) miss(q, `${res.resolved ? '已解析' : '未解析'} ${res.reference_type} ${res.reg_id}:${res.target} 第${res.page_num}页`);
      }
    }
    console.log(`${'指标'.padEnd(34)}${'调参集'.padEnd(18)}${'留出集'.padEnd(18)}全部`);
    for (const [metric, { dev, held }] of Object.entries(tally)) {
      console.log(`${metric.padEnd(36)}${pct(dev).padEnd(20)}${pct(held).padEnd(20)}${pct([dev[0] + held[0], dev[1] + held[1]])}`);
    }
    if (!args.includes('--no-structure')) printFamilyTally(await structureEval(ctx, verbose, args.includes('--show-held')));
  } finally {
    await ctx.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
