import { useCallback, useEffect, useRef, useState } from 'react';
import { api, fileToServerPath, getBridge, type ApiOutput } from '../api/client';
import { isCancelled, toApiError } from '../api/errors';
import { humanMessage } from '../i18n/messages';
import { ProgressBar, ScreenHeader } from '../components/common';
import { navigate } from '../router';

const SUPPORTED = ['.pdf', '.md', '.markdown', '.txt', '.docx'];
const ACCEPT = SUPPORTED.join(',');

type ImportResult = ApiOutput<'regulations.import'>[number];
type Status = 'queued' | 'uploading' | 'importing' | 'done' | 'unchanged' | 'failed' | 'cancelled';

interface Job {
  key: string;
  name: string;
  size: number | null;
  /** browser: the File to upload; Electron: a real path */
  file?: File;
  path?: string;
  status: Status;
  /** 0..1 */
  fraction: number;
  detail: string;
  error?: string;
  result?: ImportResult;
  /** files of this job that joined (or were kept apart from) a same-titled regulation as an edition */
  editions?: ImportResult[];
}

const STATUS_LABEL: Record<Status, string> = {
  queued: '等待中',
  uploading: '上传中',
  importing: '解析中',
  done: '已导入',
  unchanged: '未变化（已是最新）',
  failed: '失败',
  cancelled: '已取消',
};

function extOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i >= 0 ? name.slice(i).toLowerCase() : '';
}

function formatSize(n: number | null): string {
  if (n == null) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function baseName(p: string): string {
  return p.split(/[\\/]/).pop() || p;
}

let seq = 0;

export function ImportScreen() {
  const [jobs, setJobs] = useState<Job[]>([]);
  const [running, setRunning] = useState(false);
  const [dragOver, setDragOver] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const jobsRef = useRef<Job[]>([]);
  jobsRef.current = jobs;
  const electron = getBridge().platform === 'electron' && !!getBridge().pickFiles;

  const patch = useCallback((key: string, p: Partial<Job>) => {
    setJobs((list) => list.map((j) => (j.key === key ? { ...j, ...p } : j)));
  }, []);

  const runQueue = useCallback(async () => {
    if (abortRef.current) return; // already draining; new jobs are picked up by the loop
    const controller = new AbortController();
    abortRef.current = controller;
    setRunning(true);
    try {
      for (;;) {
        const job = jobsRef.current.find((j) => j.status === 'queued');
        if (!job) break;
        if (controller.signal.aborted) break;
        await runJob(job, controller.signal);
      }
    } finally {
      abortRef.current = null;
      setRunning(false);
    }
    async function runJob(job: Job, signal: AbortSignal) {
      try {
        let serverPath = job.path;
        if (!serverPath && job.file) {
          patch(job.key, { status: 'uploading', detail: '上传中…', fraction: 0 });
          serverPath = await fileToServerPath(job.file, {
            signal,
            onProgress: (loaded, total) => patch(job.key, { fraction: total ? (loaded / total) * 0.2 : 0, detail: `上传 ${formatSize(loaded)} / ${formatSize(total)}` }),
          });
        }
        patch(job.key, { status: 'importing', detail: '解析中…', fraction: 0.2 });
        const results = await api(
          'regulations.import',
          { paths: [serverPath!] },
          {
            signal,
            onProgress: (ev) => {
              const f = ev.total > 0 ? ev.done / ev.total : 0;
              const where = ev.total > 0 ? `${ev.stage} ${ev.done}/${ev.total}` : ev.stage;
              patch(job.key, {
                fraction: 0.2 + 0.8 * Math.min(1, f),
                detail: [where, ev.item && ev.total > 1 && job.path ? ev.item : '', ev.message ?? ''].filter(Boolean).join(' · '),
              });
            },
          },
        );
        const failed = results.filter((r) => r.status === 'failed');
        const ok = results.filter((r) => r.status !== 'failed');
        if (results.length === 0) {
          patch(job.key, { status: 'failed', fraction: 1, error: '没有找到可导入的文件（支持 PDF、Markdown、TXT、Word .docx）', detail: '' });
        } else if (failed.length && !ok.length) {
          patch(job.key, { status: 'failed', fraction: 1, error: failed.map((r) => humanMessage('BAD_FILE', r.error ?? '导入失败')).join('；'), detail: '', result: failed[0] });
        } else {
          const first = ok[0];
          patch(job.key, {
            status: ok.every((r) => r.status === 'unchanged') ? 'unchanged' : 'done',
            fraction: 1,
            detail:
              results.length > 1
                ? `${ok.length} 个文件已导入${failed.length ? `，${failed.length} 个失败` : ''}`
                : `${first.title ?? ''}${first.total_pages ? ` · ${first.total_pages} 页` : ''}${first.status === 'replaced' ? ' · 已替换旧版本' : ''}`,
            error: failed.length ? failed.map((r) => `${baseName(r.file)}：${humanMessage('BAD_FILE', r.error ?? '导入失败')}`).join('；') : undefined,
            result: first,
            editions: ok.filter((r) => r.edition && r.status !== 'unchanged'),
          });
        }
      } catch (e) {
        if (isCancelled(e) || signal.aborted) patch(job.key, { status: 'cancelled', detail: '', fraction: 0 });
        else patch(job.key, { status: 'failed', fraction: 1, detail: '', error: toApiError(e).message });
      }
    }
  }, [patch]);

  const addJobs = useCallback(
    (items: { name: string; size: number | null; file?: File; path?: string; isDir?: boolean }[]) => {
      if (!items.length) return;
      const fresh: Job[] = items.map((it) => {
        const key = `j${++seq}`;
        const supported = it.isDir || SUPPORTED.includes(extOf(it.name));
        return {
          key,
          name: it.name,
          size: it.size,
          file: it.file,
          path: it.path,
          status: supported ? 'queued' : 'failed',
          fraction: supported ? 0 : 1,
          detail: '',
          error: supported ? undefined : `「${it.name}」格式不支持（支持 PDF、Markdown、TXT、Word .docx）`,
        };
      });
      jobsRef.current = [...jobsRef.current, ...fresh];
      setJobs(jobsRef.current);
      void runQueue();
    },
    [runQueue],
  );

  const onFiles = (files: FileList | null) => {
    if (!files) return;
    addJobs(Array.from(files).map((f) => ({ name: f.webkitRelativePath || f.name, size: f.size, file: f })));
  };

  const pick = async (directory: boolean) => {
    const bridge = getBridge();
    if (bridge.pickFiles) {
      const paths = await bridge.pickFiles({
        directory,
        filters: directory ? undefined : [{ name: '规程文件', extensions: SUPPORTED.map((e) => e.slice(1)) }],
      });
      addJobs(paths.map((p) => ({ name: baseName(p), size: null, path: p, isDir: directory })));
    } else inputRef.current?.click();
  };

  const cancel = () => {
    abortRef.current?.abort();
    setJobs((list) => list.map((j) => (j.status === 'queued' ? { ...j, status: 'cancelled' } : j)));
  };

  useEffect(() => () => abortRef.current?.abort(), []);

  const finished = jobs.filter((j) => ['done', 'unchanged', 'failed', 'cancelled'].includes(j.status)).length;
  const overall = jobs.length ? jobs.reduce((s, j) => s + (['failed', 'cancelled'].includes(j.status) ? 1 : j.fraction), 0) : 0;
  const okCount = jobs.filter((j) => j.status === 'done' || j.status === 'unchanged').length;
  const failCount = jobs.filter((j) => j.status === 'failed').length;

  return (
    <div className="screen">
      <ScreenHeader title="导入规程" subtitle="支持 PDF、Markdown、TXT、Word（.docx）；导入后自动建立目录与检索索引">
        {running ? (
          <button type="button" className="btn danger" onClick={cancel}>
            取消导入
          </button>
        ) : null}
        {jobs.length && !running ? (
          <button type="button" className="btn" onClick={() => setJobs([])}>
            清空列表
          </button>
        ) : null}
      </ScreenHeader>
      <div
        className={`dropzone${dragOver ? ' over' : ''}`}
        role="region"
        aria-label="拖放文件到此处导入"
        onDragOver={(e) => {
          e.preventDefault();
          setDragOver(true);
        }}
        onDragLeave={() => setDragOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragOver(false);
          onFiles(e.dataTransfer.files);
        }}
      >
        <div className="dropzone-title">把规程文件拖到这里</div>
        <div className="muted">或</div>
        <div className="row">
          <button type="button" className="btn primary" onClick={() => void pick(false)}>
            选择文件…
          </button>
          {electron ? (
            <button type="button" className="btn" onClick={() => void pick(true)}>
              选择文件夹…
            </button>
          ) : null}
        </div>
        <input
          ref={inputRef}
          className="sr-only"
          type="file"
          multiple
          accept={ACCEPT}
          aria-label="选择规程文件"
          onChange={(e) => {
            onFiles(e.target.files);
            e.target.value = '';
          }}
        />
      </div>

      {jobs.length ? (
        <section className="card" aria-label="导入进度">
          <div className="row">
            <h2 className="grow" style={{ margin: 0 }}>
              {running ? `正在导入（${finished}/${jobs.length}）` : `导入完成：成功 ${okCount} 个${failCount ? `，失败 ${failCount} 个` : ''}`}
            </h2>
            {!running && okCount ? (
              <button type="button" className="btn" onClick={() => navigate('library')}>
                打开规程库
              </button>
            ) : null}
          </div>
          <div className="overall">
            <ProgressBar value={overall} max={jobs.length} label="总体进度" />
            <span className="small muted">{Math.round((overall / jobs.length) * 100)}%</span>
          </div>
          <ul className="jobs" aria-label="文件列表">
            {jobs.map((j) => (
              <li key={j.key} className={`job job-${j.status}`} aria-label={j.name}>
                <div className="job-head">
                  <span className="job-name" title={j.name}>
                    {j.name}
                  </span>
                  <span className="muted small">{formatSize(j.size)}</span>
                  <span className={`pill ${j.status === 'failed' ? 'err' : j.status === 'done' || j.status === 'unchanged' ? 'ok' : ''}`}>
                    {STATUS_LABEL[j.status]}
                  </span>
                  {j.result?.reg_id && (j.status === 'done' || j.status === 'unchanged') ? (
                    <button type="button" className="btn small" aria-label={`阅读 ${j.result.title ?? j.name}`} onClick={() => navigate('reader', [j.result!.reg_id!], { page: 1 })}>
                      阅读
                    </button>
                  ) : null}
                </div>
                <ProgressBar value={j.fraction} max={1} label={`${j.name} 进度`} />
                {j.detail ? <div className="small muted">{j.detail}</div> : null}
                {j.editions?.map((r) => <EditionNote key={r.reg_id} result={r} />)}
                {j.error ? (
                  <div className="small job-error" role="alert">
                    {j.error}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/**
 * An imported file that matched a regulation already in the library: it was saved as one of its
 * editions (nothing replaced). The user confirms by leaving it, or keeps the two apart.
 */
function EditionNote({ result }: { result: ImportResult }) {
  const [apart, setApart] = useState(result.edition?.reason === 'separate');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const e = result.edition!;
  const regId = result.reg_id!;
  const family = e.editions.map((x) => x.reg_id);
  const k = family.indexOf(regId);
  const pair = k > 0 ? [family[k - 1], regId] : family.length > 1 ? [regId, family[1]] : null;
  const setEdition = async (of: string | null) => {
    setBusy(true);
    setError(null);
    try {
      await api('editions.set', { reg_id: regId, edition_of: of });
      setApart(of === null);
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="banner info small edition-note" role="status">
      {apart ? '已单独保存，没有作为同名规程的版本。' : e.message}
      <div className="row">
        {!apart && pair ? (
          <button type="button" className="btn small" onClick={() => navigate('compare', pair)}>
            对比版本
          </button>
        ) : null}
        {!apart && e.edition_of ? (
          <button type="button" className="btn small" disabled={busy} onClick={() => setEdition(null)}>
            分开保存（不作为版本）
          </button>
        ) : null}
        {apart && e.edition_of ? (
          <button type="button" className="btn small" disabled={busy} onClick={() => setEdition(e.edition_of)}>
            仍作为版本
          </button>
        ) : null}
      </div>
      {error ? <div className="job-error">{error}</div> : null}
    </div>
  );
}
