/**
 * Same-titled regulations that are editions of one another but were imported before editions
 * existed (issue 25): the library proposes each group, and only the user's confirmation joins them
 * ("归为版本": the latest in force, older ones kept as 旧版) or keeps them apart for good ("保持分开").
 */
import { useState } from 'react';
import { api } from '../api/client';
import { toApiError } from '../api/errors';
import { editionStatus, type UngroupedGroup } from '../data/editions';

export function UngroupedEditions({ groups, onDone }: { groups: UngroupedGroup[]; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!groups.length) return null;
  const act = async (g: UngroupedGroup, keepApart: boolean) => {
    const key = g.editions[0].reg_id;
    setBusy(key);
    setError(null);
    try {
      await api('editions.group', { apply: true, reg_ids: g.editions.map((e) => e.reg_id), keep_apart: keepApart });
      onDone(keepApart ? `已将《${g.title}》的 ${g.editions.length} 部设为分开保存` : `已将《${g.title}》归为 ${g.editions.length} 个版本，检索默认只用现行版`);
    } catch (e) {
      setError(`操作失败：${toApiError(e).message}`);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="banner info small ungrouped-editions" role="region" aria-label="待归并的版本">
      <div>
        发现 {groups.length} 组{groups.some((g) => g.reason === 'title') ? '同名' : '同一标准号'}、施行日期不同的规程尚未归为版本（可能是在版本功能之前导入的）。归为版本后，最新施行的为现行版，旧版保留并标注“旧版”，检索默认只用现行版。
      </div>
      <ul>
        {groups.map((g) => (
          <li key={g.editions[0].reg_id} aria-label={g.title}>
            <strong>{g.title}</strong>：
            {[...g.editions]
              .reverse()
              .map((e) => `${editionStatus(e)}（${e.effective_date ? `${e.effective_date} 施行` : '施行日期不详'}）`)
              .join('、')}{' '}
            <button type="button" className="btn small primary" disabled={busy !== null} onClick={() => void act(g, false)}>
              {busy === g.editions[0].reg_id ? '处理中…' : '归为版本'}
            </button>{' '}
            <button type="button" className="btn small" disabled={busy !== null} onClick={() => void act(g, true)}>
              保持分开
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <div className="err" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
