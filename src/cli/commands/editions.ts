import type { Command } from 'commander';
import { GridError } from '../../core/common/errors';
import type { ApiOutput } from '../../core/api/table';
import { runOperation } from '../runtime';
import { renderTable, truncateDisplay } from '../format';

type DiffOut = ApiOutput<'editions.diff'>;

const CHANGE_ZH: Record<string, string> = { same: '相同', moved: '移动', modified: '修改', added: '新增', deleted: '删除' };
const CHANGES = ['same', 'moved', 'modified', 'added', 'deleted'] as const;
type Change = (typeof CHANGES)[number];

/** Old / new text marked for a terminal: [-removed-]{+added+}. */
function marked(words: { op: string; text: string }[]): string {
  return words.map((r) => (r.op === '=' ? r.text : r.op === '-' ? `[-${r.text}-]` : `{+${r.text}+}`)).join('');
}

function oneLine(text: string, max: number): string {
  return truncateDisplay(text.replace(/\s+/g, ' ').trim(), max);
}

export function formatDiff(out: DiffOut, opts: { all?: boolean } = {}): string {
  const s = out.summary;
  const unit = out.level === 'article' ? '条' : '处';
  const date = (e: { effective_date?: string | null }) => (e.effective_date ? `（${e.effective_date}）` : '');
  const lines = [
    `旧：${out.old.title}${date(out.old)}  ${out.old.reg_id}`,
    `新：${out.new.title}${date(out.new)}  ${out.new.reg_id}`,
    `相同 ${s.same}，移动 ${s.moved}，修改 ${s.modified}，新增 ${s.added}，删除 ${s.deleted}（单位：${unit}）`,
  ];
  const changedChapters = out.chapters.filter((c) => c.added + c.modified + c.deleted + c.moved > 0);
  if (changedChapters.length) lines.push('', '按章：', ...changedChapters.map((c) => `  ${c.text}`));
  const shown = out.pairs.filter((p) => opts.all || p.change !== 'same');
  if (shown.length) lines.push('');
  for (const p of shown) {
    const from = p.old?.article ?? '';
    const to = p.new?.article ?? '';
    const rel = p.relation === 'split' ? `（拆分${p.related?.length ? `，另见 ${p.related.join('、')}` : ''}）` : p.relation === 'merged' ? `（合并${p.related?.length ? `，并入 ${p.related.join('、')}` : ''}）` : '';
    const head =
      p.change === 'added' ? `+ ${to}` : p.change === 'deleted' ? `- ${from}` : from === to ? `~ ${to}` : `~ ${from} → ${to}`;
    lines.push(`${CHANGE_ZH[p.change]}  ${head}${rel}`);
    if (p.change === 'modified' && p.words) lines.push(`      ${oneLine(marked(p.words), 400)}`);
    else if (p.change === 'added') lines.push(`      ${oneLine(p.new!.text, 120)}`);
    else if (p.change === 'deleted') lines.push(`      ${oneLine(p.old!.text, 120)}`);
  }
  if (out.history?.length) {
    lines.push('', '该条历次版本：');
    for (const h of out.history) {
      lines.push(`  ${h.effective_date ?? '日期不详'}  ${h.reg_id}  ${h.article ?? '（无此条）'}${h.change ? `  ${CHANGE_ZH[h.change]}` : ''}${h.in_force ? '  现行' : ''}`);
    }
  }
  return lines.join('\n');
}

function parseChanges(value: string | undefined): Change[] | undefined {
  if (!value) return undefined;
  const zh = Object.fromEntries(Object.entries(CHANGE_ZH).map(([k, v]) => [v, k]));
  const kinds = value.split(/[,，、\s]+/).filter(Boolean).map((k) => zh[k] ?? k);
  const bad = kinds.filter((k) => !(CHANGES as readonly string[]).includes(k));
  if (bad.length) throw new GridError('INVALID_INPUT', `--only「${bad.join('、')}」无效：可选 modified/added/deleted/moved/same（或 修改/新增/删除/移动/相同）`);
  return kinds as Change[];
}

/** gridcode diff / versions / edition: editions of a regulation (issue 25). */
export function registerEditionCommands(program: Command): void {
  program
    .command('diff')
    .description('对比两个版本（或任意两部规程）的条款：移动、修改（词级差异）、新增、删除 / compare two editions article by article')
    .argument('<old_id>', '旧版 reg_id / the older edition')
    .argument('[new_id]', '新版 reg_id（省略时与 old_id 的上一版对比） / the newer edition')
    .option('--article <label>', '只看这一条及其历次变化，如 第十条 / only this article')
    .option('--only <kinds>', '只列出这些变化：modified,added,deleted,moved,same / only these kinds')
    .option('--all', '也列出未改变的条款 / list unchanged articles too')
    .action(async (oldId: string, newId: string | undefined, opts: { article?: string; only?: string; all?: boolean }, cmd: Command) => {
      const input = newId ? { old_reg_id: oldId, new_reg_id: newId } : { reg_id: oldId };
      await runOperation(cmd, 'editions.diff', { ...input, article: opts.article, changes: parseChanges(opts.only) }, (out) => formatDiff(out, { all: opts.all || !!opts.article }));
    });

  program
    .command('versions')
    .description('列出一部规程的各个版本（施行日期、现行/旧版）；不给 ID 时列出所有多版本规程 / list the editions of a regulation')
    .argument('[reg_id]')
    .action(async (regId: string | undefined, _opts, cmd: Command) => {
      await runOperation(cmd, 'editions.versions', { reg_id: regId }, (out) => {
        const hint = out.ungrouped.length
          ? `\n\n另有 ${out.ungrouped.length} 组同名规程尚未归为版本（${out.ungrouped.map((g) => `${g.title} ${g.editions.length} 部`).join('、')}）：运行 gridcode editions group 查看并归并`
          : '';
        if (!out.editions.length) return `没有多版本的规程（导入同名规程的另一版本时会自动合为版本）${hint}`;
        const families = out.families ?? [out.editions];
        return families
          .map((f) =>
            [
              `${f.at(-1)!.title}（${f.length} 个版本）`,
              renderTable([...f].reverse(), [
                { header: '状态', value: (e) => (e.status === 'current' ? '现行' : e.status === 'upcoming' ? '即将施行' : '旧版') },
                { header: '施行日期', value: (e) => e.effective_date ?? '不详' },
                { header: 'reg_id', value: (e) => e.reg_id },
                { header: '文件', value: (e) => e.source_file, max: 40 },
              ]),
            ].join('\n'),
          )
          .join('\n\n') + hint;
      });
    });

  const editions = program.command('editions').description('多版本规程的维护 / editions maintenance');
  editions
    .command('group')
    .description(
      '把同名（或同一标准号）、施行日期不同却尚未归为版本的规程（如版本功能之前导入的）归为版本；不加 --yes 只列出建议 / group already-imported editions',
    )
    .argument('[reg_id...]', '只处理含这些规程的建议 / only the groups holding these')
    .option('--yes', '确认归并 / do it')
    .option('--keep-apart', '与 --yes 同用：保持分开，不再建议 / with --yes: keep them apart')
    .action(async (regIds: string[], opts: { yes?: boolean; keepApart?: boolean }, cmd: Command) => {
      if (opts.keepApart && !opts.yes) throw new GridError('INVALID_INPUT', '--keep-apart 需与 --yes 一起使用');
      await runOperation(cmd, 'editions.group', { apply: !!opts.yes, reg_ids: regIds.length ? regIds : undefined, keep_apart: opts.keepApart }, (out) => {
        if (!out.groups.length) return regIds.length ? '这些规程没有待归并的其他版本' : '没有待归并的版本：同名规程都已归为版本（或已设为分开保存）';
        const body = out.groups
          .map((g) =>
            [
              `${g.title}（${g.editions.length} 个版本，${g.reason === 'title' ? '同名' : '同一标准号'}）`,
              ...[...g.editions].reverse().map((e) => `  ${e.label}  ${e.reg_id}  ${truncateDisplay(e.source_file, 40)}`),
            ].join('\n'),
          )
          .join('\n\n');
        const n = out.groups.length;
        if (!out.applied) return `${body}\n\n以上 ${n} 组可归为版本：运行 gridcode editions group --yes 归并（旧版保留，检索默认只用现行版），或 --yes --keep-apart 保持分开`;
        return `${body}\n\n${out.kept_apart ? `已将 ${n} 组设为分开保存，不再建议` : `已归并 ${n} 组：现行版如上，旧版保留`}`;
      });
    });

  program
    .command('edition')
    .description('把一部规程设为另一部的版本（--of ID），或设为单独的规程（--separate） / join or separate editions')
    .argument('<reg_id>')
    .option('--of <reg_id>', '作为这部规程的版本 / as an edition of this regulation')
    .option('--separate', '与同名规程分开，不再作为版本 / keep it apart')
    .action(async (regId: string, opts: { of?: string; separate?: boolean }, cmd: Command) => {
      if (!opts.of === !opts.separate) throw new GridError('INVALID_INPUT', '请指定 --of <reg_id> 或 --separate 之一');
      await runOperation(cmd, 'editions.set', { reg_id: regId, edition_of: opts.of ?? null }, (out) =>
        out.editions.length > 1 ? out.editions.map((e) => `${e.label}  ${e.reg_id}`).join('\n') : `${regId} 现为单独的规程`,
      );
    });
}
