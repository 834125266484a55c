/**
 * The reader's editions strip (issue 25), shown when the regulation has more than one edition: which
 * edition this is (现行 / 旧版 with its date), a link to the edition in force, "对比版本", and for an
 * article the reader picked (clicking its label): 查看旧版 / 查看新版 and its change history.
 */
import { useState } from 'react';
import { navigate } from '../router';
import { useAsync } from './common';
import { CHANGE_LABEL, articleHistory, editionStatus, editionsOf, type Edition } from '../data/editions';

function dateOf(e: Edition): string {
  return e.effective_date ? `${e.effective_date} 施行` : '施行日期不详';
}

export function EditionBar({ regId, article, onClearArticle }: { regId: string; article: string | null; onClearArticle: () => void }) {
  const family = useAsync(() => editionsOf(regId), [regId]);
  const history = useAsync(async () => (article && (family.data?.length ?? 0) > 1 ? articleHistory(regId, article) : null), [regId, article, family.data?.length]);
  const [open, setOpen] = useState(false);
  const eds = family.data ?? [];
  if (eds.length < 2) return null;
  const at = eds.findIndex((e) => e.reg_id === regId);
  const me = eds[at];
  const current = eds.find((e) => e.in_force);
  const compareWith = at > 0 ? [eds[at - 1].reg_id, regId] : [regId, eds[at + 1].reg_id];
  const steps = history.data?.history ?? [];
  const mine = steps.findIndex((s) => s.reg_id === regId);
  const older = steps.slice(0, Math.max(0, mine)).reverse().find((s) => s.article);
  const newer = steps.slice(mine + 1).find((s) => s.article);
  return (
    <div className={`banner ${me.in_force ? 'info' : 'warn'} edition-bar`} role="region" aria-label="版本">
      <div className="row">
        <span className={`pill ${me.in_force ? 'ok' : 'warn'}`}>{editionStatus(me)}</span>
        <span>
          {dateOf(me)} · 本规程共 {eds.length} 个版本
        </span>
        {!me.in_force && current ? (
          <button type="button" className="link-btn" onClick={() => navigate('reader', [current.reg_id])}>
            查看现行版（{dateOf(current)}）
          </button>
        ) : null}
        <div className="grow" />
        <button type="button" className="btn small" onClick={() => navigate('compare', compareWith)}>
          对比版本
        </button>
      </div>
      {!me.in_force ? <p className="small">这是旧版，条文可能已被修改或删除；引用时请以现行版为准。点条号可查看该条在其他版本中的样子。</p> : null}
      {article ? (
        <div className="row edition-article" role="group" aria-label={`${article}的其他版本`}>
          <strong>{article}</strong>
          {history.loading ? <span className="muted">正在查找其他版本…</span> : null}
          {history.error ? <span className="muted">这一条无法对应到其他版本</span> : null}
          {older ? (
            <button type="button" className="link-btn" onClick={() => navigate('reader', [older.reg_id], { page: older.page_num ?? 1 })}>
              查看旧版（{older.effective_date ?? '日期不详'} {older.article}）
            </button>
          ) : history.data ? (
            <span className="muted">旧版中没有此条</span>
          ) : null}
          {newer ? (
            <button type="button" className="link-btn" onClick={() => navigate('reader', [newer.reg_id], { page: newer.page_num ?? 1 })}>
              查看新版（{newer.effective_date ?? '日期不详'} {newer.article}）
            </button>
          ) : history.data && mine < steps.length - 1 ? (
            <span className="muted">新版已删除此条</span>
          ) : null}
          {history.data ? (
            <button type="button" className="link-btn" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
              修改历史
            </button>
          ) : null}
          <button type="button" className="link-btn" onClick={onClearArticle} aria-label="收起">
            ×
          </button>
        </div>
      ) : null}
      {open && history.data ? (
        <ol className="history-steps" aria-label={`${article}的修改历史`}>
          {steps.map((s) => (
            <li key={s.reg_id}>
              <span className="pill">{s.in_force ? '现行' : s.status === 'upcoming' ? '即将施行' : '旧版'}</span> {s.effective_date ?? '日期不详'}{' '}
              <strong>{s.article ?? '（无此条）'}</strong> {s.change ? <span className={`change-tag k-${s.change}`}>{CHANGE_LABEL[s.change]}</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
