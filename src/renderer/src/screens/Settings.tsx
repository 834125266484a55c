import { useAppInfo } from '../App';
import { ErrorBox, ScreenHeader, Spinner } from '../components/common';

function modelLabel(state: 'ready' | 'missing' | 'error'): string {
  if (state === 'ready') return '嵌入模型已就绪';
  if (state === 'missing') return '未安装嵌入模型';
  return '嵌入模型加载失败';
}

export function SettingsScreen() {
  const { info, error, refresh } = useAppInfo();
  return (
    <div className="screen">
      <ScreenHeader title="设置" subtitle="数据位置、嵌入模型、在线解析与检索阈值" />
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
              {info.schema_version}
              <span className="muted small">
                {' '}
                （{Object.entries(info.schema_versions)
                  .map(([k, v]) => `${k} ${v}`)
                  .join('，')}
                ）
              </span>
            </dd>
            <dt>嵌入模型</dt>
            <dd>
              <span className={`pill ${info.embedding_model.state}`}>{modelLabel(info.embedding_model.state)}</span>{' '}
              {info.embedding_model.model_id ? <code>{info.embedding_model.model_id}</code> : null}
              {info.embedding_model.dims ? <span className="muted small"> {info.embedding_model.dims} 维</span> : null}
              <div className="muted small">{info.embedding_model.message}</div>
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
    </div>
  );
}
