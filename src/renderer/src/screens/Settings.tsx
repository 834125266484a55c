import { useEffect, useRef, useState } from 'react';
import { useAppInfo } from '../app-info';
import { api, getBridge, type ApiOutput } from '../api/client';
import { isCancelled, toApiError } from '../api/errors';
import { ErrorBox, ProgressBar, ScreenHeader, Spinner, useAsync, useToast } from '../components/common';
import { CONFIG_FIELDS, LLM_KEY_MISSING, stripPaths } from '../i18n/messages';

type Config = ApiOutput<'app.config'>['config'];

/** "BAAI bge-small-zh-v1.5（ONNX int8 量化，约 24 MB），中文检索向量" -> its words before the technical parenthesis. */
function modelName(m: { id: string; description?: string | null }): string {
  const d = m.description?.trim();
  if (!d) return m.id;
  return d.replace(/（[^）]*）/g, '').replace(/\s+/g, ' ').trim() || d;
}

function modelLabel(state: 'ready' | 'missing' | 'error'): string {
  if (state === 'ready') return '嵌入模型已就绪';
  if (state === 'missing') return '未安装嵌入模型';
  return '嵌入模型加载失败';
}

export function SettingsScreen() {
  const { info, error, refresh } = useAppInfo();
  const [toast, showToast] = useToast();
  return (
    <div className="screen">
      <ScreenHeader title="设置" subtitle="数据位置、嵌入模型、在线大模型与检索阈值" />
      <section className="card" aria-labelledby="app-info-title">
        <h2 id="app-info-title">应用信息</h2>
        {info ? (
          <dl className="kv">
            <dt>版本</dt>
            <dd>
              {info.name} {info.version}
            </dd>
            <dt>数据目录</dt>
            <dd>
              <code className="path">{info.data_dir}</code>
            </dd>
            <dt>数据库版本</dt>
            <dd>
              <span title={Object.entries(info.schema_versions).map(([k, v]) => `${k} ${v}`).join('，')}>{info.schema_version}</span>
            </dd>
            <dt>嵌入模型</dt>
            <dd>
              <span className={`pill ${info.embedding_model.state}`}>{modelLabel(info.embedding_model.state)}</span>{' '}
              {info.embedding_model.model_id ? <code>{info.embedding_model.model_id}</code> : null}
              {info.embedding_model.dims ? <span className="muted small"> {info.embedding_model.dims} 维</span> : null}
              <div className="muted small">{stripPaths(info.embedding_model.message)}</div>
            </dd>
            <dt>检索方式</dt>
            <dd>{info.search_mode === 'hybrid' ? '混合检索（关键词 + 语义）' : '仅关键词检索'}</dd>
            <dt>运行环境</dt>
            <dd className="muted small">
              Node {info.versions.node}
              {info.versions.electron ? ` · Electron ${info.versions.electron}` : ' · 浏览器版'} · SQLite {info.versions.sqlite}
              {info.versions.transformers ? ` · transformers.js ${info.versions.transformers}` : ''}
              {info.versions.onnxruntime ? ` · onnxruntime ${info.versions.onnxruntime}` : ''}
            </dd>
          </dl>
        ) : error ? (
          <ErrorBox error={error} onRetry={refresh} />
        ) : (
          <Spinner />
        )}
        {info?.config_warning ? (
          <div className="banner warn" role="alert">
            {info.config_warning}
          </div>
        ) : null}
      </section>
      <StorageSection />
      <ModelsSection onChanged={refresh} toast={showToast} />
      <LlmSection />
      <ConfigSection toast={showToast} onSaved={refresh} />
      {toast}
    </div>
  );
}

/** What each table holds, for people who do not read SQLite schemas. */
const TABLE_LABELS: Record<string, string> = {
  reg_units: '规程条文',
  reg_pages: '规程页面',
  search_items: '检索条目（分段原文）',
  search_fts: '全文索引（分词，旧版）',
  search_vectors: '语义向量',
  embedding_cache: '向量缓存',
  reg_refs: '条文引用',
  reg_toc: '目录',
  regulations: '规程信息',
};

function megabytes(bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Space the library takes: per table and the index files (app.info with storage, ~1 s on a big library). */
function StorageSection() {
  const usage = useAsync(() => api('app.info', { storage: true }, { timeoutMs: 60_000 }), []);
  const info = usage.data;
  const tables = Object.entries(info?.storage ?? {}).sort((a, b) => b[1] - a[1]);
  const shown = tables.slice(0, 6);
  const rest = tables.slice(6).reduce((n, [, b]) => n + b, 0);
  const indexBytes = Object.values(info?.index_files ?? {}).reduce((a, b) => a + b, 0);
  return (
    <section className="card" aria-labelledby="storage-title">
      <h2 id="storage-title">占用空间</h2>
      {info ? (
        <>
          <p>
            数据目录共 <strong data-testid="data-dir-size">{megabytes(info.data_dir_bytes ?? 0)}</strong>
          </p>
          <table className="small">
            <tbody>
              {shown.map(([name, bytes]) => (
                <tr key={name}>
                  <td>{TABLE_LABELS[name] ?? name}</td>
                  <td className="muted">
                    <code>{name}</code>
                  </td>
                  <td className="num">{megabytes(bytes)}</td>
                </tr>
              ))}
              {rest > 0 ? (
                <tr>
                  <td>其他表</td>
                  <td />
                  <td className="num">{megabytes(rest)}</td>
                </tr>
              ) : null}
              <tr>
                <td>检索索引文件</td>
                <td className="muted">
                  <code>index/</code>
                </td>
                <td className="num">{megabytes(indexBytes)}</td>
              </tr>
            </tbody>
          </table>
        </>
      ) : usage.error ? (
        <ErrorBox error={usage.error} onRetry={usage.reload} />
      ) : (
        <Spinner />
      )}
    </section>
  );
}

function ModelsSection({ onChanged, toast }: { onChanged: () => void; toast: (m: string) => void }) {
  const models = useAsync(() => api('models.list', {}), []);
  const [folder, setFolder] = useState('');
  const [progress, setProgress] = useState<{ stage: string; done: number; total: number; item?: string } | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const abortRef = useRef<AbortController | null>(null);
  const electron = !!getBridge().pickFiles;

  const runImport = async (dir: string) => {
    setError(undefined);
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress({ stage: '准备中', done: 0, total: 0 });
    try {
      const out = await api('models.import', { folder: dir }, { signal: controller.signal, onProgress: (ev) => setProgress(ev) });
      toast(`已导入模型 ${out.model.id}（${out.files} 个文件）`);
      setFolder('');
      models.reload();
      onChanged();
    } catch (e) {
      if (!isCancelled(e)) setError(e);
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  };

  const select = async (id: string | null) => {
    try {
      const st = await api('models.select', { id });
      toast(stripPaths(st.message));
      models.reload();
      onChanged();
    } catch (e) {
      toast(`切换失败：${toApiError(e).message}`);
    }
  };

  return (
    <section className="card" aria-labelledby="models-title">
      <h2 id="models-title">嵌入模型</h2>
      <p className="muted small" style={{ marginTop: 0 }}>
        语义检索使用本机的嵌入模型，完全离线运行；应用已附带一个可用的模型。想换用其他模型时，把在别的电脑上下载好的模型文件夹拷贝到本机，在下方导入即可。
      </p>
      {models.loading && !models.data ? (
        <Spinner />
      ) : models.error ? (
        <ErrorBox error={models.error} onRetry={models.reload} />
      ) : models.data ? (
        models.data.models.length === 0 ? (
          <div className="muted">模型清单为空</div>
        ) : (
          <table className="data compact" aria-label="模型列表">
            <thead>
              <tr>
                <th>模型</th>
                <th>维度</th>
                <th>状态</th>
                <th>位置</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {models.data.models.map((m) => (
                <tr key={`${m.location}:${m.id}`} className={m.active ? 'selected' : undefined}>
                  <td>
                    {/* people read the description; the id (for the CLI and support) sits in the fold */}
                    <span>{modelName(m)}</span>
                    {m.default && m.state === 'installed' ? <span className="pill small-pill">推荐</span> : null}
                    {m.state === 'error' && m.problem ? <div className="small job-error">{stripPaths(m.problem)}</div> : null}
                    <details className="muted small">
                      <summary>详细信息</summary>
                      标识 <code>{m.id}</code>
                      {m.state === 'missing' ? <div>本机没有这个模型的文件，需要时可从别的电脑拷贝模型文件夹后导入。</div> : null}
                    </details>
                  </td>
                  <td>{m.dims}</td>
                  <td>
                    <span className={`pill ${m.active ? 'ok' : m.state === 'installed' ? '' : m.state === 'error' ? 'err' : 'warn'}`}>
                      {m.active ? '使用中' : m.state === 'installed' ? '已安装' : m.state === 'error' ? '损坏' : '未安装'}
                    </span>
                  </td>
                  <td className="small">{m.location === 'bundled' ? '随应用' : '数据目录'}</td>
                  <td>
                    {m.state === 'installed' && !m.active ? (
                      <button type="button" className="btn small" onClick={() => void select(m.id)}>
                        使用此模型
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <AdaptModel
        adapted={Boolean(models.data?.models.some((m) => m.active && m.adapted_from))}
        onDone={(m) => {
          toast(m);
          models.reload();
          onChanged();
        }}
      />
      <form
        className="row"
        style={{ marginTop: 12 }}
        onSubmit={(e) => {
          e.preventDefault();
          if (folder.trim()) void runImport(folder.trim());
        }}
      >
        <input className="input grow" aria-label="模型文件夹路径" placeholder="模型文件夹路径（含 config.json、tokenizer.json、onnx/）" value={folder} onChange={(e) => setFolder(e.target.value)} />
        {electron ? (
          <button
            type="button"
            className="btn"
            onClick={async () => {
              const [dir] = (await getBridge().pickFiles?.({ directory: true })) ?? [];
              if (dir) setFolder(dir);
            }}
          >
            选择…
          </button>
        ) : null}
        <button type="submit" className="btn primary" disabled={!!progress || !folder.trim()}>
          导入模型
        </button>
        {progress ? (
          <button type="button" className="btn danger" onClick={() => abortRef.current?.abort()}>
            取消
          </button>
        ) : null}
      </form>
      {progress ? (
        <div className="coll-progress">
          <ProgressBar value={progress.done} max={progress.total || 1} label="模型导入进度" />
          <div className="small muted">
            {progress.stage} {progress.total ? `${progress.done}/${progress.total}` : ''} {progress.item ?? ''}
          </div>
        </div>
      ) : null}
      {error ? <ErrorBox title="模型导入失败" error={error} /> : null}
    </section>
  );
}

/** "Adapt to my library" (models.adapt / models.revert): progress, cancel, Chinese results. */
function AdaptModel({ adapted, onDone }: { adapted: boolean; onDone: (message: string) => void }) {
  const [progress, setProgress] = useState<{ stage: string; done: number; total: number; item?: string } | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const abortRef = useRef<AbortController | null>(null);
  const run = async (op: 'models.adapt' | 'models.revert') => {
    setError(undefined);
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress({ stage: '准备中', done: 0, total: 0 });
    try {
      if (op === 'models.adapt') {
        const out = await api('models.adapt', {}, { signal: controller.signal, onProgress: (ev) => setProgress(ev) });
        onDone(`已按资料库调整模型：新增 ${out.new_words} 个词，重新生成 ${out.vectors} 条向量`);
      } else {
        const out = await api('models.revert', {}, { signal: controller.signal, onProgress: (ev) => setProgress(ev) });
        onDone(`已恢复为 ${out.model_id}`);
      }
    } catch (e) {
      if (!isCancelled(e)) setError(e);
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  };
  return (
    <div className="adapt-model" style={{ marginTop: 12 }}>
      <div className="row">
        <button type="button" className="btn" disabled={!!progress} onClick={() => void run('models.adapt')}>
          按资料库调整模型
        </button>
        {adapted ? (
          <button type="button" className="btn" disabled={!!progress} onClick={() => void run('models.revert')}>
            恢复原模型
          </button>
        ) : null}
        {progress ? (
          <button type="button" className="btn danger" onClick={() => abortRef.current?.abort()}>
            取消
          </button>
        ) : null}
      </div>
      <p className="muted small">用本机已导入的规程和文档补充模型词汇并重新生成向量（离线，约几分钟），随时可以恢复原模型。</p>
      {progress ? (
        <div className="coll-progress">
          <ProgressBar value={progress.done} max={progress.total || 1} label="模型调整进度" />
          <div className="small muted">
            {progress.stage} {progress.total ? `${progress.done}/${progress.total}` : ''}
          </div>
        </div>
      ) : null}
      {error ? <ErrorBox title="调整模型失败" error={error} /> : null}
    </div>
  );
}

/** Electron's main process may offer key storage (safeStorage); the key goes in, never comes back. */
type KeyBridge = { setApiKey?: (key: string | null) => Promise<void> };

function LlmSection() {
  const status = useAsync(() => api('llm.status', {}), []);
  const browser = getBridge().platform === 'browser';
  const keyBridge = getBridge() as KeyBridge;
  const [key, setKey] = useState('');
  const [keyMsg, setKeyMsg] = useState<string | null>(null);
  const saveKey = async (value: string | null) => {
    try {
      await keyBridge.setApiKey!(value);
      setKey('');
      setKeyMsg(value ? '密钥已加密保存' : '密钥已清除');
      status.reload();
    } catch (e) {
      setKeyMsg(`保存失败：${toApiError(e).message}`);
    }
  };
  return (
    <section className="card" aria-labelledby="llm-title">
      <h2 id="llm-title">在线大模型（DashScope）</h2>
      {status.loading && !status.data ? (
        <Spinner />
      ) : status.error ? (
        <ErrorBox error={status.error} onRetry={status.reload} />
      ) : status.data ? (
        <dl className="kv">
          <dt>API 密钥</dt>
          <dd>
            <span className={`pill ${status.data.available ? 'ok' : 'warn'}`} aria-label="密钥状态">
              {status.data.available ? `已配置（${status.data.key_source === 'env' ? '环境变量' : '应用内保存'}）` : '未配置'}
            </span>
            <div className="muted small">{stripPaths(status.data.message)}</div>
            <div className="muted small">
              {browser
                ? '浏览器版只能通过启动服务时的环境变量 DASHSCOPE_API_KEY 提供密钥；密钥不会发送到界面。'
                : '桌面版的密钥用系统加密存储保存，保存后不会再显示。'}
            </div>
            {keyBridge.setApiKey ? (
              <form
                className="row"
                style={{ marginTop: 6 }}
                onSubmit={(e) => {
                  e.preventDefault();
                  if (key.trim()) void saveKey(key.trim());
                }}
              >
                <input className="input grow" type="password" autoComplete="off" aria-label="DashScope API 密钥" placeholder="sk-…" value={key} onChange={(e) => setKey(e.target.value)} />
                <button type="submit" className="btn primary" disabled={!key.trim()}>
                  保存密钥
                </button>
                {status.data.key_source === 'app' ? (
                  <button type="button" className="btn danger" onClick={() => void saveKey(null)}>
                    清除密钥
                  </button>
                ) : null}
                {keyMsg ? <span className="small muted">{keyMsg}</span> : null}
              </form>
            ) : null}
          </dd>
          <dt>接口地址</dt>
          <dd>
            <code className="path">{status.data.base_url}</code>
          </dd>
          <dt>模型</dt>
          <dd className="small">
            解析 {status.data.parse_model} · 问答 {status.data.chat_model} · 向量 {status.data.embed_model}
          </dd>
        </dl>
      ) : null}
    </section>
  );
}

interface FieldSpec {
  section: keyof Config;
  key: string;
  label: string;
  hint: string;
  min: number;
  max?: number;
  step: number;
}

const field = (section: keyof Config, key: string, hint: string, min: number, max: number | undefined, step: number, integer = false): FieldSpec & { integer: boolean } => ({
  section,
  key,
  label: CONFIG_FIELDS[`${String(section)}.${key}`] ?? key,
  hint,
  min,
  max,
  step,
  integer,
});

const FIELDS = [
  field('search', 'topK', '每次检索返回的结果数', 1, 200, 1, true),
  field('search', 'tMin', '低于此分数判为证据不足（0–1）', 0, 1, 0.01),
  field('search', 'ambiguityRatio', '第二名与第一名得分之比高于此值时判为有歧义（0–1）', 0, 1, 0.01),
  field('search', 'coverageThreshold', '结果需覆盖的查询词比例（0–1）', 0, 1, 0.05),
  field('search', 'rrfWeight', '综合分中排名融合所占比重（0–1）', 0, 1, 0.05),
  field('devices', 'epsilon', '前两名得分差低于此值时请用户确认（0–1）', 0, 1, 0.01),
];

/** Why a typed value is refused, naming the field in Chinese; null when fine. */
export function fieldProblem(f: (typeof FIELDS)[number], raw: string): string | null {
  const t = raw.trim();
  if (t === '') return `「${f.label}」不能为空`;
  const n = Number(t);
  if (!Number.isFinite(n)) return `「${f.label}」必须是数字`;
  if (f.integer && !Number.isInteger(n)) return `「${f.label}」必须是整数`;
  if (n < f.min) return `「${f.label}」不能小于 ${f.min}`;
  if (f.max !== undefined && n > f.max) return `「${f.label}」不能大于 ${f.max}`;
  return null;
}

function ConfigSection({ toast, onSaved }: { toast: (m: string) => void; onSaved: () => void }) {
  const cfg = useAsync(() => api('app.config', {}), []);
  const llm = useAsync(() => api('llm.status', {}), []);
  const browser = getBridge().platform === 'browser';
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  useEffect(() => {
    if (!cfg.data) return;
    const d: Record<string, string> = {};
    for (const f of FIELDS) d[`${String(f.section)}.${f.key}`] = String((cfg.data.config[f.section] as Record<string, unknown>)[f.key]);
    setDraft(d);
  }, [cfg.data]);

  const save = async (patch: Record<string, Record<string, unknown>>, message: string) => {
    setSaving(true);
    setError(undefined);
    try {
      const out = await api('app.update_config', { patch });
      cfg.setData({ config: out.config, file: out.file, warning: null });
      toast(message);
      onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };

  if (cfg.loading && !cfg.data) return <Spinner />;
  if (cfg.error) return <ErrorBox title="无法读取配置" error={cfg.error} onRetry={cfg.reload} />;
  if (!cfg.data) return null;
  const config = cfg.data.config;

  const submitThresholds = () => {
    const patch: Record<string, Record<string, unknown>> = {};
    const found: Record<string, string> = {};
    for (const f of FIELDS) {
      const id = `${String(f.section)}.${f.key}`;
      const raw = draft[id] ?? '';
      const problem = fieldProblem(f, raw);
      if (problem) found[id] = problem;
      else (patch[f.section as string] ??= {})[f.key] = Number(raw);
    }
    setProblems(found);
    if (Object.keys(found).length) {
      setError(new Error(Object.values(found).join('；')));
      document.getElementById(`cfg-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    void save(patch, '检索阈值已保存');
  };
  const keyMissing = config.llm.enabled && llm.data && !llm.data.available;

  return (
    <section className="card" aria-labelledby="config-title">
      <h2 id="config-title">解析与检索</h2>
      <div className="muted small" style={{ marginBottom: 10 }}>
        保存到数据目录中的 config.json，立即生效。
      </div>
      <label className="switch-row">
        <input
          type="checkbox"
          role="switch"
          aria-label="使用大模型解析设备指令"
          checked={config.llm.enabled}
          disabled={saving}
          aria-describedby={keyMissing ? 'llm-key-missing' : undefined}
          onChange={(e) => {
            const on = e.target.checked;
            const noKey = on && llm.data && !llm.data.available;
            void save({ llm: { enabled: on } }, on ? (noKey ? '已开启大模型解析，但还缺少密钥' : '已开启大模型解析') : '已关闭大模型解析');
          }}
        />
        <span>
          使用大模型解析设备指令
          <span className="muted small">（需要 DashScope 密钥；超时或失败时自动回退到规则解析）</span>
        </span>
      </label>
      {keyMissing ? (
        <div className="banner warn small" id="llm-key-missing" role="alert" style={{ marginBottom: 12 }}>
          {browser ? LLM_KEY_MISSING.browser : LLM_KEY_MISSING.desktop}
        </div>
      ) : null}
      <form
        className="thresholds"
        // the engine validates and answers in Chinese naming the field; the browser bubble would not
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submitThresholds();
        }}
      >
        {FIELDS.map((f) => {
          const id = `${String(f.section)}.${f.key}`;
          const problem = problems[id];
          return (
            <label key={id} className="field">
              <span>
                {f.label} <span className="muted small">{f.hint}</span>
              </span>
              <input
                className="input"
                id={`cfg-${id}`}
                type="number"
                aria-label={f.label}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `cfg-${id}-msg` : undefined}
                min={f.min}
                max={f.max}
                step={f.step}
                value={draft[id] ?? ''}
                onChange={(e) => {
                  setDraft((d) => ({ ...d, [id]: e.target.value }));
                  setProblems(({ [id]: _gone, ...rest }) => rest);
                }}
              />
              {problem ? (
                <span className="field-error" id={`cfg-${id}-msg`}>
                  {problem}
                </span>
              ) : null}
            </label>
          );
        })}
        <div className="row">
          <button type="submit" className="btn primary" disabled={saving}>
            保存阈值
          </button>
          <button
            type="button"
            className="btn"
            disabled={saving}
            onClick={() => {
              setProblems({});
              setError(undefined);
              cfg.reload();
            }}
          >
            还原
          </button>
        </div>
      </form>
      {error ? <ErrorBox title="未保存" error={error} /> : null}
    </section>
  );
}
