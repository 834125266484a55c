import { useState } from 'react';
import { navigate } from '../router';
import { ConfirmDialog, EmptyState, ErrorBox, ScreenHeader, Spinner, formatDate, useAsync, useToast } from '../components/common';
import { deleteRegulation, enrichRegulation, listRegulations, recallPage, type RegulationInfo } from '../data/regulations';
import { toApiError } from '../api/errors';
import { api } from '../api/client';
import { editionIndex, editionStatus } from '../data/editions';
import { UngroupedEditions } from '../components/UngroupedEditions';

const FORMAT_LABEL: Record<string, string> = { pdf: 'PDF', markdown: 'Markdown', text: '文本', docx: 'Word' };

export function LibraryScreen() {
  const regs = useAsync(listRegulations, []);
  // regulations with several editions: which one each is (旧版 / 现行, its date)
  const editionInfo = useAsync(() => editionIndex().catch(() => ({ index: new Map(), ungrouped: [] })), [regs.data]);
  const editions = { data: editionInfo.data?.index };
  const [filter, setFilter] = useState('');
  const [confirm, setConfirm] = useState<RegulationInfo | null>(null);
  const [busy, setBusy] = useState<Record<string, string>>({});
  const [toast, showToast] = useToast();
  const [demoBusy, setDemoBusy] = useState(false);

  const open = (r: RegulationInfo) => navigate('reader', [r.reg_id], { page: recallPage(r.reg_id) ?? 1 });

  const runAction = async (r: RegulationInfo, label: string, action: () => Promise<void>, done: string) => {
    setBusy((b) => ({ ...b, [r.reg_id]: label }));
    try {
      await action();
      showToast(done);
      regs.reload();
    } catch (e) {
      showToast(`${label}失败：${toApiError(e).message}`);
    } finally {
      setBusy((b) => {
        const { [r.reg_id]: _gone, ...rest } = b;
        return rest;
      });
    }
  };

  const list = regs.data ?? [];
  const f = filter.trim().toLowerCase();
  const shown = f
    ? list.filter((r) => [r.title, r.reg_id, ...r.keywords, r.description ?? ''].some((s) => s.toLowerCase().includes(f)))
    : list;

  return (
    <div className="screen">
      <ScreenHeader
        title="规程库"
        subtitle={regs.data ? `共 ${list.length} 部规程 · 点击标题打开阅读器` : '已导入的规程'}
      >
        <input
          className="input"
          type="search"
          placeholder="筛选标题或关键词"
          aria-label="筛选规程"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <button type="button" className="btn primary" onClick={() => navigate('import')}>
          导入规程
        </button>
      </ScreenHeader>
      {regs.loading && !regs.data ? (
        <Spinner label="正在读取规程库…" />
      ) : regs.error ? (
        <ErrorBox title="无法读取规程库" error={regs.error} onRetry={regs.reload} />
      ) : list.length === 0 ? (
        <EmptyState
          title="规程库还是空的"
          action={
            <div className="row">
              <button type="button" className="btn primary" onClick={() => navigate('import')}>
                导入 PDF / Markdown / TXT / Word
              </button>
              <button
                type="button"
                className="btn"
                disabled={demoBusy}
                onClick={async () => {
                  setDemoBusy(true);
                  try {
                    const res = await api('regulations.demo_load', {});
                    const failed = res.filter((r) => r.status === 'failed');
                    showToast(failed.length ? `部分演示规程载入失败：${failed.map((f) => f.error).join('；')}` : '已载入演示规程');
                    regs.reload();
                  } catch (e) {
                    showToast(`载入失败：${toApiError(e).message}`);
                  } finally {
                    setDemoBusy(false);
                  }
                }}
              >
                {demoBusy ? '正在载入…' : '载入演示规程'}
              </button>
            </div>
          }
        >
          导入规程后即可按目录阅读、翻页，并跨规程搜索。
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState title={`没有与「${filter}」匹配的规程`} />
      ) : (
        <>
        <UngroupedEditions
          groups={editionInfo.data?.ungrouped ?? []}
          onDone={(message) => {
            showToast(message);
            regs.reload();
          }}
        />
        <div className="card flush">
          <table className="data" aria-label="规程列表">
            <thead>
              <tr>
                <th>标题</th>
                <th style={{ width: 70 }}>页数</th>
                <th>关键词</th>
                <th style={{ width: 140 }}>导入时间</th>
                <th style={{ width: 270 }}>操作</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.reg_id}>
                  <td>
                    <button type="button" className="link-btn" onClick={() => open(r)} title={`打开阅读器：${r.title}`}>
                      {r.title}
                    </button>
                    <div className="muted small">
                      {FORMAT_LABEL[r.format] ?? r.format}
                      {r.is_demo ? <span className="pill small-pill">示例</span> : null}
                      {editions.data?.get(r.reg_id) ? (
                        <span className={`pill small-pill ${editions.data.get(r.reg_id)!.in_force ? 'ok' : 'warn'}`} title={`本规程共 ${editions.data.get(r.reg_id)!.count} 个版本`}>
                          {editionStatus(editions.data.get(r.reg_id)!)} {editions.data.get(r.reg_id)!.effective_date ?? ''}
                        </span>
                      ) : null}
                      {r.description ? ` · ${r.description}` : ''}
                    </div>
                    {/* the id is for the command line and agents (MCP), not for reading */}
                    <details className="muted small">
                      <summary>详细信息</summary>
                      规程标识（命令行、MCP 使用） <code>{r.reg_id}</code>
                    </details>
                  </td>
                  <td>{r.total_pages}</td>
                  <td>
                    <div className="tags">
                      {r.keywords.length ? <KeywordTags keywords={r.keywords} generated={r.generated_keywords ?? []} /> : <span className="muted small">—</span>}
                    </div>
                  </td>
                  <td className="small">{formatDate(r.indexed_at)}</td>
                  <td>
                    <div className="row">
                      <button type="button" className="btn small" onClick={() => open(r)} aria-label={`阅读 ${r.title}`}>
                        阅读
                      </button>
                      <button
                        type="button"
                        className="btn small"
                        disabled={!!busy[r.reg_id]}
                        aria-label={`重新生成元数据 ${r.title}`}
                        title="重新生成简介与关键词（用于智能选择规程）"
                        onClick={() => runAction(r, '重新生成元数据', () => enrichRegulation(r.reg_id), `已更新「${r.title}」的元数据`)}
                      >
                        {busy[r.reg_id] === '重新生成元数据' ? '生成中…' : '重新生成元数据'}
                      </button>
                      <button
                        type="button"
                        className="btn small danger"
                        disabled={!!busy[r.reg_id]}
                        aria-label={`删除 ${r.title}`}
                        onClick={() => setConfirm(r)}
                      >
                        删除
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        </>
      )}
      {shown.some((r) => r.generated_keywords?.length) ? (
        <p className="muted small keyword-legend">
          <span className="tag">人工</span> 随文档提供或人工填写的关键词（重新生成元数据时保留）；
          <span className="tag gen">自动</span> 程序根据目录与正文生成的关键词（只补充，不替换人工关键词）。
        </p>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title="删除规程"
          confirmLabel="删除"
          danger
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const r = confirm;
            setConfirm(null);
            void runAction(r, '删除', () => deleteRegulation(r.reg_id), `已删除「${r.title}」`);
          }}
        >
          将从规程库和搜索索引中删除「{confirm.title}」。原文件不受影响，可随时重新导入。
        </ConfirmDialog>
      ) : null}
      {toast}
    </div>
  );
}

/** Curated keywords first, as given; generated ones marked so a person knows which words they chose. */
function KeywordTags({ keywords, generated }: { keywords: string[]; generated: string[] }) {
  const gen = new Set(generated);
  return (
    <>
      {keywords.slice(0, 8).map((k) =>
        gen.has(k) ? (
          <span className="tag gen" key={k} title="自动生成的关键词">
            <span className="gen-mark">自动</span>
            {k}
          </span>
        ) : (
          <span className="tag" key={k} title="随文档提供或人工填写的关键词">
            {k}
          </span>
        ),
      )}
      {keywords.length > 8 ? <span className="muted small">等 {keywords.length} 个</span> : null}
    </>
  );
}
