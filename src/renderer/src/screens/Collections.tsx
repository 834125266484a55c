import { useCallback, useEffect, useRef, useState } from 'react';
import Markdown from 'react-markdown';
import { api, fileToServerPath, getBridge, type ApiOutput } from '../api/client';
import { isCancelled, toApiError } from '../api/errors';
import { navigate } from '../router';
import { CollectionDocument } from './CollectionDocument';
import labels from '../../../core/collections/vocab/labels.json' with { type: 'json' };
import { ConfirmDialog, EmptyState, ErrorBox, ProgressBar, ScreenHeader, Spinner, formatDate, useAsync, useToast } from '../components/common';

type Collection = ApiOutput<'collections.list'>['collections'][number];
type AskOut = ApiOutput<'collections.ask'>;

interface Message {
  id: number;
  question: string;
  out?: AskOut;
  error?: unknown;
  /** shown instead of the raw question when the user clicked a candidate chip */
  display?: string;
}

const INTENT_LABEL: Record<string, string> = labels.intents;
const PROFILE_LABEL: Record<string, string> = labels.profiles;
const DOC_EXT = /\.(md|markdown|txt)$/i;
const KIND_LABEL: Record<AskOut['kind'], string> = { answer: '已锁定文档', candidates: '需要选择', low_evidence: '证据不足', follow_up: '追问', not_found: '集合中没有' };

let msgSeq = 0;

/** Conversations survive switching screens (per collection, for this window's lifetime). */
const chatMemory = new Map<string, { messages: Message[]; sessionId?: string }>();

/** The bundled demo recipes live next to the demo home (resources/recipes). */
async function demoRecipesFolder(): Promise<string | null> {
  try {
    const demo = await api('devices.demo_home', {});
    const sep = demo.file.includes('\\') ? '\\' : '/';
    const parts = demo.file.split(sep);
    return parts.slice(0, -2).concat('recipes').join(sep);
  } catch {
    return null;
  }
}

/** Where a citation opens: the reader at the article's page when the regulation library holds the statute, else the collection's document viewer at the section. */
function openCitation(collection: string, c: AskOut['citations'][number]): void {
  if (c.regulation) navigate('reader', [c.regulation.reg_id], { page: c.regulation.page, hl: c.label, article: c.label });
  else navigate('collections', ['doc', collection, String(c.doc_id)], { section: c.index });
}

export function CollectionsScreen({ params = [], query }: { params?: string[]; query?: URLSearchParams }) {
  if (params[0] === 'doc' && params[1] && Number(params[2]) > 0) {
    const section = Number(query?.get('section'));
    return (
      <CollectionDocument
        collection={params[1]}
        docId={Number(params[2])}
        section={Number.isInteger(section) && query?.get('section') ? section : null}
        onBack={() => (history.length > 1 ? history.back() : navigate('collections'))}
      />
    );
  }
  return <CollectionsHome />;
}

/** The collection last open on this screen: coming back from a cited article returns to it and its conversation. */
let lastActiveCollection: string | null = null;

function CollectionsHome() {
  const list = useAsync(() => api('collections.list', {}).then((r) => r.collections), []);
  const [active, setActive] = useState<string | null>(() => lastActiveCollection);
  useEffect(() => {
    lastActiveCollection = active;
  }, [active]);
  const [toast, showToast] = useToast();
  const [confirm, setConfirm] = useState<Collection | null>(null);

  // a collection just imported is chosen before the list reloads with it: keep it until the list has it
  const justImported = useRef<string | null>(null);
  useEffect(() => {
    if (!list.data) return;
    if (active && list.data.some((c) => c.name === active)) {
      justImported.current = null;
      return;
    }
    if (active && active === justImported.current) return;
    setActive(list.data[0]?.name ?? null);
  }, [list.data, active]);

  return (
    <div className="screen">
      <ScreenHeader title="文集问答" subtitle="导入一个文件夹（Markdown/TXT：菜谱、规章制度、手册……），然后像聊天一样提问；锁定文档后可以继续追问，回答附出处" />
      <div className="coll-layout">
        <div className="coll-side">
          <section className="card" aria-label="文集列表">
            <h3>文集</h3>
            {list.loading && !list.data ? (
              <Spinner />
            ) : list.error ? (
              <ErrorBox error={list.error} onRetry={list.reload} />
            ) : !list.data?.length ? (
              <div className="muted small">还没有文集，请在下方导入文件夹。</div>
            ) : (
              <ul className="coll-list">
                {list.data.map((c) => (
                  <li key={c.name} className={c.name === active ? 'active' : undefined}>
                    <button type="button" className="coll-item" aria-pressed={c.name === active} onClick={() => setActive(c.name)}>
                      <b>{c.name}</b>
                      <span className="muted small">
                        {PROFILE_LABEL[c.profile] ?? c.profile} · {c.documents} 篇文档 · {c.chunks} 个片段 · 更新于 {formatDate(c.updated_at)}
                      </span>
                    </button>
                    <button type="button" className="btn small ghost danger" aria-label={`删除文集 ${c.name}`} onClick={() => setConfirm(c)}>
                      删除
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <ImportCollection
            onDone={(name, summary) => {
              justImported.current = name;
              showToast(summary);
              list.reload();
              setActive(name);
            }}
          />
        </div>
        <div className="coll-main">
          {active ? (
            <Chat key={active} collection={active} examples={list.data?.find((c) => c.name === active)?.example_questions ?? []} />
          ) : (
            <EmptyState title="选择或导入一个文集开始提问" />
          )}
        </div>
      </div>
      {confirm ? (
        <ConfirmDialog
          title="删除文集"
          confirmLabel="删除"
          danger
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const c = confirm;
            setConfirm(null);
            api('collections.delete', { name: c.name }).then(
              () => {
                showToast(`已删除文集「${c.name}」`);
                list.reload();
              },
              (e: unknown) => showToast(`删除失败：${toApiError(e).message}`),
            );
          }}
        >
          将删除文集「{confirm.name}」的索引和问答会话，原文件夹不受影响。
        </ConfirmDialog>
      ) : null}
      {toast}
    </div>
  );
}

function ImportCollection({ onDone }: { onDone: (name: string, summary: string) => void }) {
  const [folder, setFolder] = useState('');
  const [name, setName] = useState('');
  const [progress, setProgress] = useState<{ stage: string; done: number; total: number; item?: string } | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const abortRef = useRef<AbortController | null>(null);
  const electron = !!getBridge().pickFiles;
  const running = !!abortRef.current && !!progress;

  const run = async (dir: string, nm: string) => {
    setError(undefined);
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress({ stage: '准备中', done: 0, total: 0 });
    try {
      const out = await api('collections.import', { folder: dir, name: nm }, { signal: controller.signal, onProgress: (ev) => setProgress(ev) });
      onDone(
        out.collection,
        `已导入文集「${out.collection}」：${out.documents} 篇文档（新增 ${out.added}，更新 ${out.updated}，未变 ${out.unchanged}${out.skipped.length ? `，跳过 ${out.skipped.length}` : ''}）`,
      );
      setFolder('');
      setName('');
    } catch (e) {
      if (!isCancelled(e)) setError(e);
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  };

  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // webkitdirectory is not in React's input props: set it on the element
    folderInput.current?.setAttribute('webkitdirectory', '');
    folderInput.current?.setAttribute('directory', '');
  }, []);

  /** Browser: the chosen folder's documents go through the upload bridge, then one import. */
  const uploadFolder = async (list: FileList | null) => {
    const files = [...(list ?? [])].filter((f) => DOC_EXT.test(f.name));
    if (!files.length) {
      setError(new Error('所选文件夹中没有 Markdown/TXT 文件'));
      return;
    }
    const rel = (f: File) => (f.webkitRelativePath || f.name).split('/');
    const top = rel(files[0])[0];
    const nm = name.trim() || top || '上传的文集';
    setError(undefined);
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress({ stage: '上传文件', done: 0, total: files.length });
    try {
      const uploaded: { path: string; rel_path: string }[] = [];
      for (const [i, f] of files.entries()) {
        const parts = rel(f);
        uploaded.push({ path: await fileToServerPath(f, { signal: controller.signal }), rel_path: (parts.length > 1 ? parts.slice(1) : parts).join('/') });
        setProgress({ stage: '上传文件', done: i + 1, total: files.length, item: f.name });
      }
      const out = await api('collections.import_files', { name: nm, files: uploaded }, { signal: controller.signal, onProgress: (ev) => setProgress(ev) });
      onDone(out.collection, `已导入文集「${out.collection}」（${PROFILE_LABEL[out.profile]}）：${out.documents} 篇文档${out.skipped.length ? `，跳过 ${out.skipped.length}` : ''}`);
      setFolder('');
      setName('');
    } catch (e) {
      if (!isCancelled(e)) setError(e);
    } finally {
      abortRef.current = null;
      setProgress(null);
      if (folderInput.current) folderInput.current.value = '';
    }
  };

  const pick = async () => {
    const [dir] = (await getBridge().pickFiles?.({ directory: true })) ?? [];
    if (dir) {
      setFolder(dir);
      if (!name) setName(dir.split(/[\\/]/).filter(Boolean).pop() ?? '');
    }
  };

  return (
    <section className="card" aria-label="导入文集">
      <h3>导入文件夹</h3>
      <form
        className="coll-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (folder.trim() && name.trim()) void run(folder.trim(), name.trim());
        }}
      >
        <label className="field">
          <span>文件夹路径</span>
          <div className="row">
            <input className="input grow" aria-label="文件夹路径" placeholder="粘贴文件夹的完整路径" value={folder} onChange={(e) => setFolder(e.target.value)} />
            {electron ? (
              <button type="button" className="btn" onClick={() => void pick()}>
                选择…
              </button>
            ) : (
              <>
                <button type="button" className="btn" disabled={running} onClick={() => folderInput.current?.click()}>
                  选择文件夹上传…
                </button>
                <input
                  ref={folderInput}
                  type="file"
                  multiple
                  hidden
                  aria-label="选择要上传的文件夹"
                  data-testid="collection-folder-input"
                  onChange={(e) => void uploadFolder(e.target.files)}
                />
              </>
            )}
          </div>
        </label>
        <label className="field">
          <span>文集名称</span>
          <input className="input" aria-label="文集名称" placeholder="如：菜谱" value={name} onChange={(e) => setName(e.target.value)} maxLength={64} />
        </label>
        <div className="row">
          <button type="submit" className="btn primary" disabled={running || !folder.trim() || !name.trim()}>
            导入
          </button>
          <button
            type="button"
            className="btn"
            disabled={running}
            onClick={async () => {
              const dir = await demoRecipesFolder();
              if (dir) void run(dir, '示例菜谱');
              else setError(new Error('找不到内置示例菜谱'));
            }}
          >
            导入内置示例菜谱
          </button>
          {running ? (
            <button type="button" className="btn danger" onClick={() => abortRef.current?.abort()}>
              取消
            </button>
          ) : null}
        </div>
      </form>
      {progress ? (
        <div className="coll-progress">
          <ProgressBar value={progress.done} max={progress.total || 1} label="文集导入进度" />
          <div className="small muted">
            {progress.stage} {progress.total ? `${progress.done}/${progress.total}` : ''} {progress.item ?? ''}
          </div>
        </div>
      ) : null}
      {error ? <ErrorBox title="导入失败" error={error} /> : null}
    </section>
  );
}

function Chat({ collection, examples }: { collection: string; examples: string[] }) {
  // an answer still in flight when the screen was left is dropped rather than spinning forever
  const [messages, setMessages] = useState<Message[]>(() => (chatMemory.get(collection)?.messages ?? []).filter((m) => m.out || m.error));
  const [sessionId, setSessionId] = useState<string | undefined>(() => chatMemory.get(collection)?.sessionId);
  useEffect(() => {
    chatMemory.set(collection, { messages, sessionId });
  }, [collection, messages, sessionId]);
  const [question, setQuestion] = useState('');
  const [busy, setBusy] = useState(false);
  const [why, setWhy] = useState<{ out: AskOut; previous?: AskOut } | null>(null);
  const endRef = useRef<HTMLDivElement>(null);

  const ask = useCallback(
    async (q: string, display?: string) => {
      const text = q.trim();
      if (!text || busy) return;
      const id = ++msgSeq;
      setMessages((m) => [...m, { id, question: text, display }]);
      setQuestion('');
      setBusy(true);
      try {
        const out = await api('collections.ask', { collection, question: text, ...(sessionId ? { session_id: sessionId } : {}) });
        setSessionId(out.session_id);
        setMessages((m) => m.map((x) => (x.id === id ? { ...x, out } : x)));
      } catch (e) {
        setMessages((m) => m.map((x) => (x.id === id ? { ...x, error: e } : x)));
      } finally {
        setBusy(false);
      }
    },
    [busy, collection, sessionId],
  );

  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  const last = [...messages].reverse().find((m) => m.out)?.out;
  const lock = last?.lock;

  return (
    <section className="chat card" aria-label="问答">
      <div className="row chat-head">
        <div className="grow">
          <b>{collection}</b>
          {lock?.state === 'locked' ? (
            <span className="pill ok" aria-label="锁定状态">
              已锁定：{lock.title}
            </span>
          ) : lock?.state === 'pending' ? (
            <span className="pill warn" aria-label="锁定状态">
              等待选择
            </span>
          ) : null}
        </div>
        <button
          type="button"
          className="btn small"
          disabled={!messages.length || busy}
          onClick={() => {
            setMessages([]);
            setSessionId(undefined);
            setWhy(null);
          }}
        >
          新会话
        </button>
      </div>
      <div className="chat-msgs" role="log" aria-label="问答记录">
        {messages.length === 0 ? (
          <EmptyState
            title={`向「${collection}」提问`}
            action={
              examples.length ? (
                <div className="row follow" role="group" aria-label="试试这些问题" style={{ justifyContent: 'center' }}>
                  {examples.map((q) => (
                    <button key={q} type="button" className="chip" disabled={busy} onClick={() => void ask(q)}>
                      {q}
                    </button>
                  ))}
                </div>
              ) : undefined
            }
          >
            直接问想知道的事；锁定文档后可以继续追问，回答会注明出处。
          </EmptyState>
        ) : (
          messages.map((m, i) => (
            <div key={m.id} className="turn">
              <div className="bubble user">{m.display ?? m.question}</div>
              {m.error ? (
                <ErrorBox title="提问失败" error={m.error} />
              ) : !m.out ? (
                <Spinner label="检索中…" />
              ) : (
                <Answer out={m.out} latest={i === messages.length - 1} busy={busy} onAsk={ask} onWhy={() => setWhy({ out: m.out!, previous: messages.slice(0, i).reverse().find((p) => p.out)?.out })} />
              )}
            </div>
          ))
        )}
        <div ref={endRef} />
      </div>
      <form
        className="row chat-input"
        onSubmit={(e) => {
          e.preventDefault();
          void ask(question);
        }}
      >
        <input className="input big grow" aria-label="问题" placeholder="输入问题，回车发送" value={question} onChange={(e) => setQuestion(e.target.value)} maxLength={2000} />
        <button type="submit" className="btn primary" disabled={busy || !question.trim()}>
          发送
        </button>
      </form>
      {why ? <WhyDrawer out={why.out} previous={why.previous} onClose={() => setWhy(null)} /> : null}
    </section>
  );
}

/** Parts of one code share a title (中华人民共和国民法典): such candidates are told apart by their file. */
function candidateLabel(c: AskOut['candidates'][number], all: AskOut['candidates']): string {
  if (all.filter((o) => o.title === c.title).length < 2) return c.title;
  const file = c.rel_path.split('/').pop()?.replace(/\.[^.]+$/, '') ?? c.rel_path;
  return `${c.title}（${file}）`;
}

/** Documents to choose from (a clarify, or the near ones of a not_found): a click sends the option id. */
function CandidateChips({ label, candidates, disabled, onAsk }: { label: string; candidates: AskOut['candidates']; disabled: boolean; onAsk: (q: string, display?: string) => void }) {
  return (
    <div className="row" role="group" aria-label={label}>
      {candidates.map((c) => (
        <button key={c.option_id} type="button" className="chip option" disabled={disabled} onClick={() => onAsk(c.option_id, c.title)} title={c.rel_path}>
          {c.option_id}. {candidateLabel(c, candidates)}
        </button>
      ))}
    </div>
  );
}

function Answer({ out, latest, busy, onAsk, onWhy }: { out: AskOut; latest: boolean; busy: boolean; onAsk: (q: string, display?: string) => void; onWhy: () => void }) {
  return (
    <div className={`bubble bot kind-${out.kind}`} role="article" aria-label="回答">
      <div className="row small">
        <span className={`pill ${out.kind === 'low_evidence' ? 'err' : out.kind === 'candidates' || out.kind === 'not_found' ? 'warn' : 'ok'}`}>{KIND_LABEL[out.kind]}</span>
        {out.route ? <span className="muted">追问：{INTENT_LABEL[out.route.intent] ?? out.route.intent}</span> : null}
        {out.switched ? <span className="muted">已切换文档</span> : null}
        {out.session_expired ? <span className="muted">上个会话已过期，已重新开始</span> : null}
        <span className="grow" />
        <button type="button" className="btn small ghost" onClick={onWhy} aria-label="为什么是这个回答">
          为什么？
        </button>
      </div>
      {out.kind === 'not_found' ? (
        <>
          {/* the plain sentence first (文集中没有「…」的菜谱。); near documents only as labelled alternatives */}
          <div className="not-found">{(out.answer ?? '').split('\n')[0]}</div>
          {out.candidates.length ? (
            <>
              <div className="muted small">{out.clarify_question}</div>
              <CandidateChips label="相近的文档（不是所问的）" candidates={out.candidates} disabled={!latest || busy} onAsk={onAsk} />
            </>
          ) : (
            <div className="muted small">{(out.answer ?? '').split('\n').slice(1).join(' ').trim()}</div>
          )}
        </>
      ) : out.kind === 'candidates' ? (
        <>
          <div>{out.clarify_question}</div>
          <CandidateChips label="候选文档" candidates={out.candidates} disabled={!latest || busy} onAsk={onAsk} />
        </>
      ) : out.answer ? (
        <div className="markdown">
          <Markdown>{out.answer}</Markdown>
        </div>
      ) : (
        <div className="muted">{out.clarify_question ?? '没有找到答案'}</div>
      )}
      {out.kind === 'low_evidence' && out.clarify_question && out.answer ? <div className="muted small">{out.clarify_question}</div> : null}
      {out.citations.length ? (
        <div className="small" role="group" aria-label="出处">
          <span className="muted">出处：</span>
          {out.citations.map((c, i) => (
            <button
              key={`${c.doc_id}-${c.label}-${i}`}
              type="button"
              className="chip citation"
              title={c.regulation ? `在阅读器中打开《${c.regulation.title}》第 ${c.regulation.page} 页` : `打开文档并定位到${c.label}（${c.rel_path}${c.path ? ` · ${c.path}` : ''}）`}
              onClick={() => openCitation(out.collection, c)}
            >
              《{c.title}》{c.label}
              {c.page ? ` · 第 ${c.page} 页` : ''}
            </button>
          ))}
        </div>
      ) : null}
      {latest && out.lock.state === 'locked' && out.suggestions.length ? (
        <div className="row follow" role="group" aria-label="继续追问">
          {out.suggestions.map((f) => (
            <button key={f} type="button" className="chip" disabled={busy} onClick={() => onAsk(f)}>
              {f}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

function WhyDrawer({ out, previous, onClose }: { out: AskOut; previous?: AskOut; onClose: () => void }) {
  // a pick from the candidate chips has no retrieval of its own: explain it with the turn that offered them
  const picked = out.selected && (previous?.kind === 'candidates' || previous?.kind === 'not_found') ? previous : undefined;
  const retrieval = out.retrieval ?? picked?.retrieval ?? null;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside className="drawer" role="dialog" aria-label="回答依据">
      <div className="row">
        <h3 className="grow" style={{ margin: 0 }}>
          回答依据
        </h3>
        <button type="button" className="btn small" onClick={onClose}>
          关闭
        </button>
      </div>
      <dl className="kv compact">
        <dt>问题</dt>
        <dd>{out.selected ? `${out.question}（选择候选）` : out.question}</dd>
        <dt>结论</dt>
        <dd>
          {KIND_LABEL[out.kind]}
          {out.decision ? `（${out.decision === 'locked' ? '锁定' : out.decision === 'ambiguous' ? '歧义' : out.decision === 'not_found' ? `集合中没有「${out.subject ?? out.retrieval?.core ?? out.question}」` : '证据不足'}）` : ''}
        </dd>
        <dt>锁定文档</dt>
        <dd>{out.lock.title ?? '—'}</dd>
        <dt>轮次</dt>
        <dd>{out.turn}</dd>
        {out.selected ? (
          <>
            <dt>来源</dt>
            <dd>您从上一轮的候选中选择了「{out.lock.title}」</dd>
          </>
        ) : null}
        <dt>追踪 ID</dt>
        <dd className="mono small">{out.trace_id}</dd>
      </dl>
      {out.route ? (
        <>
          <h3>追问路由</h3>
          <dl className="kv compact">
            <dt>意图</dt>
            <dd>{INTENT_LABEL[out.route.intent] ?? out.route.intent}</dd>
            <dt>层级</dt>
            <dd>{out.route.layer === 'layer1' ? '第一层（意图对应的段落）' : '第二层（扩展到全部证据）'}</dd>
            <dt>段落</dt>
            <dd>{out.route.blocks.join('、') || '—'}</dd>
            <dt>找到</dt>
            <dd>{out.route.found ? '是' : '否'}{out.route.escalated ? '（已升级）' : ''}</dd>
          </dl>
        </>
      ) : null}
      {retrieval ? (
        <>
          <h3>{picked ? `检索（上一轮：「${picked.question}」）` : '检索'}</h3>
          <div className="small">
            核心词「{retrieval.core}」 · 分词 {retrieval.tokens.join(' / ')} · 列表 {retrieval.lists.join(' + ')}
          </div>
          <div className="small muted">{retrieval.reason}</div>
          <table className="data compact" aria-label="候选文档得分">
            <thead>
              <tr>
                <th>文档</th>
                <th>综合</th>
                <th>RRF</th>
                <th>最佳片段</th>
                <th>覆盖</th>
                <th>标题</th>
              </tr>
            </thead>
            <tbody>
              {retrieval.parents.map((p) => (
                <tr key={p.doc_id} className={p.doc_id === out.lock.doc_id ? 'selected' : undefined}>
                  <td title={p.rel_path}>
                    {p.title}
                    {p.passes_coverage ? '' : <span className="muted small">（未达覆盖阈值）</span>}
                  </td>
                  <td className="mono">{p.overall_score.toFixed(3)}</td>
                  <td className="mono">{p.rrf_sum.toFixed(3)}</td>
                  <td className="mono">{p.max_chunk_score.toFixed(2)}</td>
                  <td className="mono">
                    {p.coverage}/{p.total_chunks}
                  </td>
                  <td className="mono">{p.title_score.toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {out.evidence.length ? (
        <>
          <h3>使用的证据</h3>
          <ul className="evidence">
            {out.evidence.map((e, i) => (
              <li key={i}>
                <div className="muted small">{e.heading}</div>
                <div>{e.text}</div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </aside>
  );
}
