import fs from 'node:fs';
import type { Command } from 'commander';
import { GridError } from '../../core/common/errors';
import { invokeOperation } from '../../core/api/invoke';
import type { ApiOutput } from '../../core/api/table';
import { runOperation, withContext } from '../runtime';
import { padDisplay, truncateDisplay } from '../format';

type SearchOut = ApiOutput<'search.smart_search'>;


/** Marks highlight ranges with 【】 for terminals (offsets are UTF-16 indexes into the snippet). */
function mark(snippet: string, ranges: [number, number][]): string {
  let out = '';
  let pos = 0;
  for (const [s, e] of ranges) {
    if (s < pos) continue;
    out += snippet.slice(pos, s) + '【' + snippet.slice(s, e) + '】';
    pos = e;
  }
  return out + snippet.slice(pos);
}

/** Human output: selection line, decision, then results grouped by regulation (CJK-aligned). */
export function formatSearch(out: SearchOut): string {
  const lines: string[] = [];
  lines.push(`检索: ${out.query}    模式: ${out.mode === 'hybrid' ? '混合（关键词 + 语义）' : out.mode === 'vector' ? '语义' : '仅关键词'}`);
  if (out.note) lines.push(`提示: ${out.note}`);
  lines.push(`范围: ${out.selection.summary}`);
  for (const r of out.selection.reasons.slice(0, 3)) lines.push(`      · ${r.title}（${r.reg_id}）${r.why}`);
  if (out.decision.banner) lines.push(`提示: ${out.decision.clarify ?? out.decision.banner.message}`);
  for (const ref of out.article_refs) if (!ref.unit_ids.length) lines.push(`提示: 没有找到「${ref.text}」对应的条文`);
  if (!out.results.length) {
    lines.push('没有找到结果。');
    return lines.join('\n');
  }
  const groups = new Map<string, SearchOut['results']>();
  for (const r of out.results) {
    const g = groups.get(r.reg_id) ?? [];
    g.push(r);
    groups.set(r.reg_id, g);
  }
  let n = 0;
  for (const [regId, rows] of groups) {
    lines.push('');
    lines.push(`■ ${rows[0].title}（${regId}）`);
    const labelWidth = Math.max(...rows.map((r) => Math.min(24, (r.article ?? r.section).length * 2)));
    for (const r of rows) {
      n++;
      const label = padDisplay(truncateDisplay(r.article ?? r.section, 24), labelWidth);
      lines.push(`  ${String(n).padStart(2)}. ${label}  第${r.page_num}页  得分 ${r.score.toFixed(3)}  ${truncateDisplay(r.section, 40)}`);
      lines.push(`      ${mark(r.snippet, r.highlights)}`);
      if (r.edition) {
        const now = r.edition.current;
        lines.push(`      ⚠ ${r.edition.label}：现行为「${now.title}」${now.effective_date ? `（${now.effective_date}）` : ''}${now.article ? ` ${now.article}（${now.reg_id} 第${now.page_num}页）` : '，该条在现行版中已删除'}`);
      }
      if (r.similar.count) lines.push(`      （另有 ${r.similar.count} 行相似记录，同在${truncateDisplay(r.section, 30)}）`);
    }
    const g = out.groups.find((x) => x.reg_id === regId);
    if (g && g.more > 0) lines.push(`      … 该规程还有 ${g.more} 条结果：gridcode search "${out.query}" -r ${regId}`);
  }
  lines.push('');
  if (out.has_more) lines.push(`共 ${out.total} 条，已显示 ${out.offset + 1}–${out.offset + out.results.length}；加载更多：--offset ${out.offset + out.results.length}`);
  lines.push(`耗时 ${out.elapsed_ms} ms`);
  return lines.join('\n');
}

interface SearchFlags {
  reg?: string[];
  all?: boolean;
  topK?: string;
  offset?: string;
  mode?: 'hybrid' | 'lexical' | 'vector';
  batch?: string;
  edition?: string;
}

function editionOf(flags: SearchFlags): 'current' | 'all' | undefined {
  if (flags.edition === undefined) return undefined;
  if (flags.edition !== 'current' && flags.edition !== 'all') throw new GridError('INVALID_INPUT', `--edition: 只能是 current（现行版，默认）或 all（含旧版），收到 "${flags.edition}"`);
  return flags.edition;
}

function regIdOf(flags: SearchFlags): string | string[] | null {
  if (flags.all && flags.reg?.length) throw new GridError('INVALID_INPUT', '-r 与 --all 不能同时使用');
  if (flags.all) return 'all';
  if (flags.reg?.length) return flags.reg.length === 1 ? flags.reg[0] : flags.reg;
  return null;
}

function topKOf(flags: SearchFlags): number | undefined {
  if (flags.topK === undefined) return undefined;
  const n = Number(flags.topK);
  if (!Number.isInteger(n) || n < 1) throw new GridError('INVALID_INPUT', `--top-k: 需要正整数，收到 "${flags.topK}"`);
  return n;
}

function offsetOf(flags: SearchFlags): number | undefined {
  if (flags.offset === undefined) return undefined;
  const n = Number(flags.offset);
  if (!Number.isInteger(n) || n < 0) throw new GridError('INVALID_INPUT', `--offset: 需要非负整数，收到 "${flags.offset}"`);
  return n;
}

export function registerSearchCommands(program: Command): void {
  program
    .command('search')
    .description('跨规程检索（不指定 -r/--all 时自动选择规程）/ search regulations (auto selection by default)')
    .argument('[query]', '检索问题')
    .option('-r, --reg <id>', '规程ID，可多次指定 / regulation id (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('-a, --all', '检索全部规程 / search all regulations')
    .option('-k, --top-k <n>', '返回结果数 / number of results')
    .option('--offset <n>', '跳过前 n 条结果（分页）/ skip the first n results (paging)')
    .option('-m, --mode <mode>', 'hybrid | lexical | vector')
    .option('-t, --types <list>', '只看这些块类型（逗号分隔）：article,text,table,note / block types')
    .option('-c, --chapter <scope>', '只在该章节内检索，如 第六章、附录C / chapter scope')
    .option('--edition <scope>', 'current（默认，只检索现行版）| all（也检索旧版，旧版结果会标注） / editions to search')
    .option('--batch <file>', '每行一个问题；每行输出一个 JSON / one query per line in, one JSON object per line out')
    .action(async (query: string | undefined, flags: SearchFlags, cmd: Command) => {
      const reg_id = regIdOf(flags);
      const top_k = topKOf(flags);
      const offset = offsetOf(flags);
      const blockFlags = flags as { types?: string; chapter?: string };
      const block_types = blockFlags.types
        ? (blockFlags.types.split(/[,，\s]+/).filter(Boolean) as ('article' | 'text' | 'table' | 'note')[])
        : undefined;
      const chapter_scope = blockFlags.chapter;
      const edition = editionOf(flags);
      if (flags.mode && !['hybrid', 'lexical', 'vector'].includes(flags.mode)) {
        throw new GridError('INVALID_INPUT', `--mode: 只能是 hybrid、lexical 或 vector，收到 "${flags.mode}"`);
      }
      if (flags.batch) {
        if (!fs.existsSync(flags.batch)) throw new GridError('NOT_FOUND', `--batch: 文件不存在 ${flags.batch}`);
        const queries = fs
          .readFileSync(flags.batch, 'utf8')
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean);
        // one context for the whole file: indexes, caches and the model load once
        await withContext(cmd, async (ctx) => {
          for (const q of queries) {
            try {
              const out = await invokeOperation(ctx, 'search.smart_search', { query: q, reg_id, top_k, offset, mode: flags.mode, block_types, chapter_scope, edition });
              process.stdout.write(JSON.stringify(out) + '\n');
            } catch (e) {
              const err = e as GridError;
              process.stdout.write(JSON.stringify({ query: q, error: { code: err.code ?? 'INTERNAL', message: err.message } }) + '\n');
            }
          }
        });
        return;
      }
      if (!query || !query.trim()) throw new GridError('INVALID_INPUT', 'query: 请提供检索问题，或使用 --batch FILE');
      await runOperation(cmd, 'search.smart_search', { query, reg_id, top_k, offset, mode: flags.mode, block_types, chapter_scope, edition }, formatSearch);
    });
}
