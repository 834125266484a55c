import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, fileToServerPath, getBridge, type ApiInput, type ApiOutput } from '../api/client';
import { toApiError } from '../api/errors';
import { EmptyState, ErrorBox, ScreenHeader, Spinner, useToast } from '../components/common';
import { copyText } from '../components/clipboard';
import { useRememberedFlag } from '../data/remembered';
import {
  CONDITION_STATUS,
  DEVICE_REASONS,
  DEVICE_STATES,
  ENTITY_KINDS,
  PARSERS,
  RETRIEVAL_MODES,
  SENSORS,
  actionLabel,
  timingText,
  conditionText,
  deviceReasonLabel,
  deviceTypeLabel,
  homeFormatLabel,
  valueAttributeLabel,
} from '../i18n/messages';

type RetrieveOut = ApiOutput<'devices.retrieve'>;
type RetrievalResult = RetrieveOut['results'][number];
type ConversationState = RetrieveOut['state'];
type Home = ApiOutput<'devices.load'>['home'];
type Entity = Home['devices'][number];
type LintOut = ApiOutput<'devices.lint'>;

interface HomeSource {
  /** undefined = the bundled demo home */
  file?: string;
  label: string;
  home: Home;
  format?: string;
  warnings: string[];
}

interface Turn {
  id: number;
  utterance: string;
  /** clicked clarification option (shown as the user's answer) */
  answerTo?: string;
  out?: RetrieveOut;
  error?: unknown;
}

const KIND_LABEL: Record<string, string> = { device: '设备', group: '分组', scene: '场景' };
const LINT_LABEL: Record<string, string> = {
  duplicate_in_room: '同房间重名',
  instruction_like: '名称像指令',
  same_pinyin: '读音相同',
  edit_distance_1: '只差一字',
  bare_type_name: '裸类型词',
  missing_room: '缺少房间',
  room_in_name: '名称含其他房间',
  too_long: '名称过长',
  embedding_near_duplicate: '语义相近',
  alias_collision: '别名冲突',
};
const EXAMPLES = ['打开客厅的灯', '关闭除卧室以外的灯', '打开台灯', '把它关了', '打开老伙计', '温度高于28度就打开卧室空调'];

let turnSeq = 0;

/** The loaded home and the conversation survive switching screens (this window's lifetime). */
const memory: {
  source: HomeSource | null;
  turns: Turn[];
  state: ConversationState | undefined;
  tab: 'chat' | 'devices' | 'lint';
} = { source: null, turns: [], state: undefined, tab: 'chat' };

export function DevicesScreen() {
  const [source, setSource] = useState<HomeSource | null>(memory.source);
  const [loadError, setLoadError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(!memory.source);
  const [tab, setTab] = useState<'chat' | 'devices' | 'lint'>(memory.tab);
  const [turns, setTurns] = useState<Turn[]>(() => memory.turns.filter((t) => t.out || t.error));
  const [state, setState] = useState<ConversationState | undefined>(memory.state);
  useEffect(() => {
    Object.assign(memory, { source, turns, state, tab });
  }, [source, turns, state, tab]);
  const [utterance, setUtterance] = useState('');
  const [busy, setBusy] = useState(false);
  const [lint, setLint] = useState<{ data?: LintOut; error?: unknown; loading: boolean }>({ loading: false });
  const [toast, showToast] = useToast();
  const fileInput = useRef<HTMLInputElement>(null);
  const logEnd = useRef<HTMLDivElement>(null);

  const loadDemo = useCallback(async () => {
    setLoading(true);
    setLoadError(undefined);
    try {
      const demo = await api('devices.demo_home', { include_home: true });
      if (!demo.home) throw new Error('演示家庭数据缺失');
      setSource({ label: demo.name ?? '演示家庭', home: demo.home, warnings: [] });
      resetConversation();
    } catch (e) {
      setLoadError(e);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (!memory.source) void loadDemo();
  }, [loadDemo]);

  const loadFile = async (path: string, label: string) => {
    setLoading(true);
    setLoadError(undefined);
    try {
      const out = await api('devices.load', { file: path });
      setSource({ file: out.file, label, home: out.home, format: out.format, warnings: out.warnings });
      resetConversation();
      showToast(`已载入 ${label}：${out.counts.devices} 个设备`);
    } catch (e) {
      setLoadError(e);
    } finally {
      setLoading(false);
    }
  };

  const importHome = async (file?: File) => {
    const bridge = getBridge();
    if (!file && bridge.pickFiles) {
      const [p] = await bridge.pickFiles({ filters: [{ name: '设备文件', extensions: ['json', 'yaml', 'yml'] }] });
      if (p) await loadFile(p, p.split(/[\\/]/).pop() ?? p);
      return;
    }
    if (!file) {
      fileInput.current?.click();
      return;
    }
    try {
      const path = await fileToServerPath(file);
      await loadFile(path, file.name);
    } catch (e) {
      setLoadError(e);
    }
  };

  function resetConversation() {
    setTurns([]);
    setState(undefined);
    setLint({ loading: false });
  }

  const send = async (text: string, answerTo?: string) => {
    const u = text.trim();
    if (!u || busy || !source) return;
    const id = ++turnSeq;
    setTurns((t) => [...t, { id, utterance: u, answerTo }]);
    setUtterance('');
    setBusy(true);
    try {
      const input: ApiInput<'devices.retrieve'> = { utterance: u, state, ...(source.file ? { devices: source.file } : {}) };
      const out = await api('devices.retrieve', input);
      setTurns((t) => t.map((x) => (x.id === id ? { ...x, out } : x)));
      setState(out.state);
    } catch (e) {
      setTurns((t) => t.map((x) => (x.id === id ? { ...x, error: e } : x)));
    } finally {
      setBusy(false);
    }
  };

  // After each command the latest reply shows from its summary (the result head) down: when it is taller than
  // the log, the log scrolls to its start, else to the end. Only the log scrolls (scrollIntoView would also
  // move the page and push the conversation state and the YAML summary beside it out of view).
  useEffect(() => {
    const log = logEnd.current?.parentElement;
    const turnEls = log?.querySelectorAll<HTMLElement>(':scope > .turn');
    const latest = turnEls?.[turnEls.length - 1];
    if (!log || !latest) return;
    const top = log.scrollTop + latest.getBoundingClientRect().top - log.getBoundingClientRect().top;
    log.scrollTop = latest.offsetHeight > log.clientHeight ? top : log.scrollHeight;
  }, [turns]);

  const runLint = useCallback(async () => {
    if (!source) return;
    setLint({ loading: true });
    try {
      const data = await api('devices.lint', source.file ? { devices: source.file } : {});
      setLint({ data, loading: false });
    } catch (e) {
      setLint({ error: e, loading: false });
    }
  }, [source]);

  useEffect(() => {
    if (tab === 'lint' && !lint.data && !lint.loading && !lint.error) void runLint();
  }, [tab, lint, runLint]);

  const last = [...turns].reverse().find((t) => t.out);

  return (
    <div className="screen">
      <ScreenHeader
        title="设备上下文"
        subtitle={
          source ? (
            <>
              {source.label}
              {source.format ? ` · ${homeFormatLabel(source.format)}` : ''} · {source.home.devices.length} 个设备 · {source.home.groups.length} 个分组 ·{' '}
              {source.home.scenes.length} 个场景 · {source.home.rooms.length} 个房间
            </>
          ) : (
            '智能家居设备检索：看看一句话会让助手拿到哪些设备、为什么'
          )
        }
      >
        <button type="button" className="btn" onClick={() => void loadDemo()} disabled={loading}>
          载入演示家庭
        </button>
        <button type="button" className="btn" onClick={() => void importHome()} disabled={loading}>
          导入设备文件…
        </button>
        <input
          ref={fileInput}
          className="sr-only"
          type="file"
          accept=".json,.yaml,.yml"
          aria-label="选择设备文件"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importHome(f);
          }}
        />
      </ScreenHeader>

      {loadError ? <ErrorBox title="无法载入设备文件" error={loadError} onRetry={() => void loadDemo()} /> : null}
      {source?.warnings.length ? (
        <div className="banner warn" role="status">
          {source.warnings.slice(0, 5).map((w, i) => (
            <div key={i}>{w}</div>
          ))}
          {source.warnings.length > 5 ? <div className="muted small">另有 {source.warnings.length - 5} 条提示</div> : null}
        </div>
      ) : null}

      {loading && !source ? (
        <Spinner label="正在载入设备…" />
      ) : !source ? null : (
        <>
          <div className="tabs" role="tablist" aria-label="设备上下文视图">
            {(
              [
                ['chat', '对话检索'],
                ['devices', `设备列表（${source.home.devices.length} 个设备）`],
                ['lint', '命名检查'],
              ] as const
            ).map(([id, label]) => (
              <button key={id} type="button" role="tab" aria-selected={tab === id} className="tab" onClick={() => setTab(id)}>
                {label}
              </button>
            ))}
          </div>

          {tab === 'chat' ? (
            <div className="devices-chat">
              <div className="chat-col">
                <div className="chat-log" aria-label="对话记录" role="log">
                  {turns.length === 0 ? (
                    <EmptyState title="输入一句话试试">
                      <div className="row" style={{ justifyContent: 'center' }}>
                        {EXAMPLES.map((e) => (
                          <button key={e} type="button" className="chip" onClick={() => void send(e)}>
                            {e}
                          </button>
                        ))}
                      </div>
                    </EmptyState>
                  ) : (
                    turns.map((t, i) => (
                      <TurnView key={t.id} turn={t} latest={i === turns.length - 1} busy={busy} home={source.home} onAnswer={(name, question) => void send(name, question)} />
                    ))
                  )}
                  <div ref={logEnd} />
                </div>
                <form
                  className="chat-input row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void send(utterance);
                  }}
                >
                  <input
                    className="input big grow"
                    aria-label="指令"
                    placeholder="输入中文指令，如：关闭除卧室以外的灯"
                    value={utterance}
                    onChange={(e) => setUtterance(e.target.value)}
                    maxLength={500}
                  />
                  <button type="submit" className="btn primary" disabled={busy || !utterance.trim()}>
                    {busy ? '检索中…' : '检索'}
                  </button>
                </form>
              </div>
              <div className="side-col">
                <StatePanel state={state} onReset={resetConversation} />
                <YamlPanel out={last?.out ?? null} onCopied={showToast} />
              </div>
            </div>
          ) : tab === 'devices' ? (
            <DeviceTable home={source.home} />
          ) : (
            <LintPanel lint={lint} onRerun={() => void runLint()} />
          )}
        </>
      )}
      {toast}
    </div>
  );
}

function TurnView({ turn, latest, busy, home, onAnswer }: { turn: Turn; latest: boolean; busy: boolean; home: Home | undefined; onAnswer: (name: string, question: string) => void }) {
  return (
    <div className="turn">
      <div className="bubble user">
        {turn.answerTo ? <span className="muted small">回答：</span> : null}
        {turn.utterance}
      </div>
      {turn.error ? (
        <ErrorBox title="检索失败" error={turn.error} />
      ) : !turn.out ? (
        <Spinner label="检索中…" />
      ) : (
        <div className="bubble bot" aria-label={`「${turn.utterance}」的检索结果`} role="group">
          {turn.out.results.length === 0 ? <div className="muted">没有解析出可执行的命令</div> : null}
          {turn.out.results.map((r, i) => (
            <ResultView key={i} r={r} index={i} total={turn.out!.results.length} latest={latest} busy={busy} home={home} onAnswer={onAnswer} />
          ))}
        </div>
      )}
    </div>
  );
}

const PAGE_SIZE = 12;

/** What the engine says about the value, in words. */
const VALUE_CHECK: Record<string, { label: string; tone: 'ok' | 'warn' | 'err' }> = {
  in_range: { label: '在设备允许范围内', tone: 'ok' },
  out_of_range: { label: '超出设备允许范围', tone: 'err' },
  no_range: { label: '设备未声明范围', tone: 'warn' },
  no_command: { label: '设备没有这项设置', tone: 'err' },
};

type IRValue = NonNullable<RetrievalResult['ir']['value']>;

/** 温度 26℃ / 开合位置 50% / 亮度 最亮（100%）/ 亮度 调低 10% / 颜色 红色. */
export function valueText(v: IRValue): string {
  const n = v.number === null ? '' : `${v.number}${v.unit ?? ''}`;
  const what = valueAttributeLabel(v.attribute);
  let amount: string;
  if (v.relative) amount = `${v.relative === 'up' ? '调高' : '调低'} ${n}`.trim();
  else if (v.extreme) amount = n ? `${v.text}（${n}）` : v.text;
  // 一半 -> 一半（50%）: the words said, and the number they mean
  else if (n && v.text && !v.text.includes(String(v.number))) amount = `${v.text}（${n}）`;
  else amount = n || v.text;
  return what ? `${what} ${amount}` : amount;
}

interface ListedDevice {
  id: string;
  name: string;
  room: string | null;
  kind: string;
  /** the selected group that brought this device in */
  via: string | null;
  reasons: string[];
}

/** Every device a result acts on: groups are opened into their members ("由「全屋灯光」覆盖"). */
function listSelected(r: RetrievalResult, home: Home | undefined): ListedDevice[] {
  const byId = new Map<string, Entity>();
  if (home) for (const e of [...home.devices, ...home.groups, ...home.scenes]) byId.set(e.id, e);
  const out: ListedDevice[] = [];
  const seen = new Set<string>();
  for (const s of r.selected) {
    const members = s.kind === 'group' ? (byId.get(s.id)?.members ?? []) : [];
    if (members.length) {
      for (const m of members) {
        const d = byId.get(m);
        if (!d || seen.has(m)) continue;
        seen.add(m);
        out.push({ id: m, name: d.name, room: d.room, kind: 'device', via: s.name, reasons: s.reasons.filter((x) => x !== 'group_covers') });
      }
    } else if (!seen.has(s.id)) {
      seen.add(s.id);
      out.push({ id: s.id, name: s.name, room: s.room, kind: s.kind, via: null, reasons: s.reasons });
    }
  }
  return out;
}

function ReasonTags({ codes }: { codes: string[] }) {
  const labels = [...new Set(codes.map(deviceReasonLabel))];
  return (
    <span className="small">
      {labels.map((l) => (
        <span key={l} className="tag" style={{ marginRight: 4 }}>
          {l}
        </span>
      ))}
    </span>
  );
}

function ReasonLegend({ codes }: { codes: string[] }) {
  const shown = [...new Set(codes)].filter((c) => DEVICE_REASONS[c]);
  if (!shown.length) return null;
  return (
    <details className="small">
      <summary>理由说明</summary>
      <dl className="kv compact" aria-label="理由说明">
        {shown.map((c) => (
          <div key={c} style={{ display: 'contents' }}>
            <dt>{DEVICE_REASONS[c].label}</dt>
            <dd>{DEVICE_REASONS[c].hint}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The command in words first: 动作 / 位置 / 设备 / 数值 / 条件 / 范围. */
function CommandInWords({ r, count }: { r: RetrievalResult; count: number }) {
  const ir = r.ir;
  const meta = r.meta;
  const check = meta.value_check?.[0];
  const device = ir.name_hint ?? (ir.type_hint ? deviceTypeLabel(ir.type_hint) : ir.references.length ? '上一轮提到的设备' : '（未指明）');
  const place = [ir.scope_include.length ? ir.scope_include.join('、') : null, ir.scope_exclude.length ? `除「${ir.scope_exclude.join('、')}」以外` : null]
    .filter(Boolean)
    .join('，');
  // the scope says what was selected, never "一个" beside three selected devices: the words follow the count
  const scope = r.clarification
    ? '待您选择'
    : count === 0
      ? '没有选中设备'
      : ir.quantifier === 'any'
        ? '任意一个'
        : ir.count
          ? `${ir.count} 个`
          : count === 1
            ? '一个'
            : `${count} 个${ir.quantifier === 'all' || ir.quantifier === 'except' ? '（全部符合的设备）' : '（该范围内符合的全部设备）'}`;
  return (
    <dl className="kv compact" aria-label="命令解读">
      <dt>动作</dt>
      <dd>
        {actionLabel(ir.action)}
        {timingText(ir) ? <span className="pill warn" style={{ marginLeft: 6 }}>{timingText(ir)}</span> : null}
      </dd>
      <dt>位置</dt>
      <dd>{place || '未指定房间'}</dd>
      <dt>设备</dt>
      <dd>{device}</dd>
      <dt>数值</dt>
      <dd>
        {ir.value ? (
          <>
            <b>{(ir.values ?? [ir.value]).map(valueText).join('，')}</b>{' '}
            {check ? (
              <span className={`pill ${VALUE_CHECK[check.status]?.tone ?? 'warn'}`}>
                {VALUE_CHECK[check.status]?.label ?? '未检查'}
                {check.minimum !== null && check.maximum !== null ? `（${check.minimum}–${check.maximum}${check.unit ?? ''}）` : ''}
              </span>
            ) : null}
          </>
        ) : (
          '—'
        )}
      </dd>
      <dt>条件</dt>
      <dd>
        {ir.conditions.length
          ? ir.conditions.map((c, i) => {
              const st = meta.conditions.find((m) => m.sensor === c.sensor && m.value === c.value);
              return (
                <span key={i}>
                  <b>{c.text || conditionText(c)}</b>
                  {c.text && c.text.replace(/\s+/g, '').replace(/度/g, '℃') !== conditionText(c) ? <span className="muted">（{conditionText(c)}时执行）</span> : null}
                  {st ? (
                    <span className={`pill ${st.status === 'met' ? 'ok' : st.status === 'not_met' ? 'err' : 'warn'}`} style={{ marginLeft: 6 }}>
                      {CONDITION_STATUS[st.status] ?? ''}
                      {st.reading !== null ? `（当前 ${st.reading}${SENSORS[st.sensor]?.unit ?? ''}）` : ''}
                    </span>
                  ) : null}
                </span>
              );
            })
          : timingText(ir)
            ? '无（按上面的时间执行）'
            : '无（立即执行）'}
      </dd>
      <dt>范围</dt>
      <dd>{scope}</dd>
    </dl>
  );
}

function SelectedDevices({ list }: { list: ListedDevice[] }) {
  const [page, setPage] = useState(0);
  // grouped by room, and pages made of whole rooms (a room is never split across two pages)
  const rooms = new Map<string, ListedDevice[]>();
  for (const d of list) rooms.set(d.room ?? '未设置房间', [...(rooms.get(d.room ?? '未设置房间') ?? []), d]);
  const paged: [string, ListedDevice[]][][] = [[]];
  let used = 0;
  for (const entry of rooms) {
    if (used && used + entry[1].length > PAGE_SIZE) {
      paged.push([]);
      used = 0;
    }
    paged[paged.length - 1].push(entry);
    used += entry[1].length;
  }
  const pages = paged.length;
  const byRoom = paged[Math.min(page, pages - 1)];
  const vias = [...new Set(list.map((d) => d.via).filter((v): v is string => !!v))];
  return (
    <section aria-label="选中的设备" className="selected-list">
      <div className="small">
        <b>选中 {list.length} 个</b>
        {vias.length ? <span className="muted">，其中 {list.filter((d) => d.via).length} 个由{vias.map((v) => `「${v}」`).join('、')}覆盖（整组执行）</span> : null}
      </div>
      {byRoom.map(([room, items]) => (
        <div key={room} className="small" style={{ margin: '4px 0' }}>
          <span className="muted">{room}：</span>
          {items.map((d) => (
            <span key={d.id} className="tag sel" style={{ marginRight: 4, display: 'inline-block' }} title={d.via ? `由「${d.via}」覆盖` : undefined}>
              ✓ {d.name}
              {d.kind !== 'device' ? <span className="muted">（{ENTITY_KINDS[d.kind] ?? '设备'}）</span> : null}
              {d.via && vias.length > 1 ? <span className="muted">（由「{d.via}」覆盖）</span> : null}
            </span>
          ))}
        </div>
      ))}
      {pages > 1 ? (
        <div className="row small" role="navigation" aria-label="选中设备分页">
          <button type="button" className="btn small" disabled={page === 0} onClick={() => setPage(page - 1)}>
            上一页
          </button>
          <span>
            第 {page + 1} / {pages} 页
          </span>
          <button type="button" className="btn small" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>
            下一页
          </button>
        </div>
      ) : null}
    </section>
  );
}

function ResultView({
  r,
  index,
  total,
  latest,
  busy,
  home,
  onAnswer,
}: {
  r: RetrievalResult;
  index: number;
  total: number;
  latest: boolean;
  busy: boolean;
  home: Home | undefined;
  onAnswer: (name: string, question: string) => void;
}) {
  const [showJson, setShowJson] = useState(false);
  const meta = r.meta;
  const cmd = r.command;
  const listed = listSelected(r, home);
  // a member of a selected group is selected too (the group acts for it)
  const selectedIds = new Set([...r.selected.map((s) => s.id), ...listed.map((d) => d.id)]);
  const allReasons = [...r.candidates.flatMap((c) => c.reasons), ...r.selected.flatMap((s) => s.reasons)];
  return (
    <div className="result">
      <div className="result-head">
        {total > 1 ? <span className="pill">命令 {index + 1}</span> : null}
        <b>{actionLabel(cmd.a)}</b>
        {meta.mode ? <span className={`pill ${meta.mode === 'clarify' || meta.mode === 'none' ? 'warn' : 'ok'}`}>{RETRIEVAL_MODES[meta.mode] ?? '检索结果'}</span> : null}
        {meta.parser ? <span className="muted small">{PARSERS[meta.parser] ?? '解析'}</span> : null}
      </div>
      {cmd.reason ? <div className="small job-error">{cmd.reason}</div> : null}
      <CommandInWords r={r} count={listed.length || r.selected.length} />
      {meta.scope_fallback ? <div className="small muted">所说的房间里没有符合的设备，已在全屋范围内查找。</div> : null}
      {r.clarification ? (
        <div className="clarify" role="group" aria-label="澄清">
          <div className="clarify-q">{r.clarification.question}</div>
          <div className="row">
            {r.clarification.options.map((o) => (
              <button
                key={o.id}
                type="button"
                className="chip option"
                disabled={!latest || busy}
                // the answer names the room too (两个房间都有床头灯: the one picked, not a new question)
                onClick={() => onAnswer(o.room && !o.name.includes(o.room) ? `${o.room}的${o.name}` : o.name, r.clarification!.question)}
              >
                {o.label}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      {listed.length ? <SelectedDevices list={listed} /> : null}
      <details className="detail" open={latest}>
        <summary>候选设备与理由</summary>
        {r.candidates.length ? (
          <>
            <table className="data compact" aria-label="候选设备">
              <thead>
                <tr>
                  <th />
                  <th style={{ minWidth: '9em' }}>候选（得分最高的 {r.candidates.length} 个）</th>
                  <th style={{ whiteSpace: 'nowrap' }}>房间</th>
                  <th style={{ whiteSpace: 'nowrap' }}>得分</th>
                  <th style={{ minWidth: '8em' }}>理由</th>
                </tr>
              </thead>
              <tbody>
                {r.candidates.map((c) => (
                  <tr key={c.id} className={selectedIds.has(c.id) ? 'selected' : undefined}>
                    <td>{selectedIds.has(c.id) ? '✓' : ''}</td>
                    <td>
                      {c.name} <span className="muted small" style={{ whiteSpace: 'nowrap' }}>{ENTITY_KINDS[c.kind] ?? '设备'}</span>
                    </td>
                    <td style={{ whiteSpace: 'nowrap' }}>{c.room ?? '—'}</td>
                    <td className="mono">{c.score.toFixed(2)}</td>
                    <td>
                      <ReasonTags codes={c.reasons} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ReasonLegend codes={allReasons} />
          </>
        ) : (
          <div className="muted small">没有候选设备</div>
        )}
      </details>
      <div>
        <button type="button" className="btn small" aria-expanded={showJson} onClick={() => setShowJson(!showJson)}>
          {showJson ? '隐藏解析数据' : '查看解析数据'}
        </button>
        {showJson ? (
          <pre className="code" aria-label="命令与中间表示 JSON">
            {JSON.stringify({ command: cmd, ir: r.ir }, null, 2)}
          </pre>
        ) : null}
      </div>
    </div>
  );
}

/** Names listed for "上一轮提到"; a whole-home command mentions dozens. */
const LAST_MENTIONED_SHOWN = 6;

function StatePanel({ state, onReset }: { state: ConversationState | undefined; onReset: () => void }) {
  return (
    <section className="card" aria-label="对话状态">
      <div className="row">
        <h3 className="grow" style={{ margin: 0 }}>
          对话状态
        </h3>
        <button type="button" className="btn small" onClick={onReset} disabled={!state}>
          重置对话
        </button>
      </div>
      {!state ? (
        <div className="muted small">尚未开始对话。指代（“把它关了”）会用到上一轮提到的设备。</div>
      ) : (
        <dl className="kv compact">
          <dt>轮次</dt>
          <dd>{state.turn}</dd>
          <dt>上一轮提到</dt>
          <dd aria-label="上一轮提到的设备">
            {state.last_mentioned.length
              ? `${state.last_mentioned
                  .slice(0, LAST_MENTIONED_SHOWN)
                  .map((m) => `${m.name}${m.room ? `（${m.room}）` : ''}`)
                  .join('、')}${state.last_mentioned.length > LAST_MENTIONED_SHOWN ? ` 等 ${state.last_mentioned.length} 个设备` : ''}`
              : '—'}
          </dd>
          <dt>待澄清</dt>
          <dd>{state.pending ? `${actionLabel(state.pending.command.a)} ${state.pending.command.n ?? deviceTypeLabel(state.pending.command.t)}（${state.pending.options.length} 个选项）` : '—'}</dd>
        </dl>
      )}
    </section>
  );
}

const YAML_OPEN_KEY = 'gridcode.devices.showYaml';

/** How much the agent would be given, in words: "2 个设备、1 个分组（约 640 字）". */
function injectedSummary(yaml: string): string {
  const count = (section: string) => {
    const m = new RegExp(`^${section}:\\s*\\n((?:[ \\t]+.*\\n?)*)`, 'm').exec(yaml);
    return m ? (m[1].match(/^  - /gm) ?? []).length : 0;
  };
  const parts = [
    [count('devices'), '个设备'],
    [count('groups'), '个分组'],
    [count('scenes'), '个场景'],
  ]
    .filter(([n]) => Number(n) > 0)
    .map(([n, w]) => `${n} ${w}`);
  return `${parts.length ? parts.join('、') : '没有设备'}（约 ${yaml.length} 字）`;
}

/**
 * What would be injected into the agent's prompt. The YAML itself carries the home file's own
 * keys and ids (developer material), so it sits behind a toggle, remembered; copying works either way.
 */
function YamlPanel({ out, onCopied }: { out: RetrieveOut | null; onCopied: (m: string) => void }) {
  const yaml = out?.yaml ?? null;
  const [open, setOpen] = useRememberedFlag(YAML_OPEN_KEY, 'open', 'closed', false);
  const toggle = () => setOpen((o) => !o);
  return (
    <section className="card" aria-label="注入的 YAML">
      <div className="row">
        <h3 className="grow" style={{ margin: 0 }}>
          注入提示词的内容
        </h3>
        <button type="button" className="btn small" disabled={!yaml} aria-expanded={open} aria-controls="injected-yaml" onClick={toggle}>
          {open ? '隐藏 YAML' : '显示 YAML'}
        </button>
        <button
          type="button"
          className="btn small"
          disabled={!yaml}
          onClick={() =>
            copyText(yaml ?? '').then(
              () => onCopied('已复制 YAML'),
              (e: unknown) => onCopied(`复制失败：${toApiError(e).message}`),
            )
          }
        >
          复制 YAML
        </button>
      </div>
      {yaml ? (
        <>
          <div className="small" aria-label="注入内容摘要">
            将交给助手：{injectedSummary(yaml)}
          </div>
          {open ? (
            <pre className="code yaml" id="injected-yaml" aria-label="YAML 内容">
              {yaml}
            </pre>
          ) : null}
        </>
      ) : (
        <div className="muted small">检索后在此显示将注入给助手的设备信息（YAML，可复制）。</div>
      )}
    </section>
  );
}

/** A device's commands as the file describes them (调亮度、打开设备), never their ids. */
function commandWords(commands: unknown[]): string {
  const words = (commands as { id?: string; description?: string }[]).map((c) => c.description?.trim()).filter((d): d is string => !!d && /[\u4e00-\u9fff]/.test(d));
  return [...new Set(words)].join('、') || (commands.length ? `${commands.length} 项命令` : '—');
}

/** Readings in words: 温度 25℃; keys the catalogue does not know stay out of sight. */
function stateWords(attributes: Record<string, unknown> | undefined): string {
  if (!attributes) return '—';
  const unit: Record<string, string> = { temperature: '℃', humidity: '%', illuminance: ' lx', brightness: '%', battery: '%', position: '%' };
  const shown = Object.entries(attributes)
    .filter(([k]) => DEVICE_STATES[k])
    .map(([k, v]) => `${DEVICE_STATES[k]} ${typeof v === 'boolean' ? (v ? '开' : '关') : String(v)}${typeof v === 'number' ? (unit[k] ?? '') : ''}`);
  return shown.join('，') || '—';
}

function DeviceTable({ home }: { home: Home }) {
  const [room, setRoom] = useState('');
  const [type, setType] = useState('');
  const [text, setText] = useState('');
  // ids are the home file's own keys: for installers matching rows to their file, on request
  const [showIds, setShowIds] = useState(false);
  const all: Entity[] = useMemo(() => [...home.devices, ...home.groups, ...home.scenes], [home]);
  const rooms = useMemo(() => [...new Set([...home.rooms, ...all.map((e) => e.room).filter((r): r is string => !!r)])], [home, all]);
  const types = useMemo(() => [...new Set(all.map((e) => e.category))].sort(), [all]);
  const NO_ROOM = '\u0000none';
  const shown = all.filter(
    (e) =>
      (!room || (room === NO_ROOM ? !e.room : e.room === room)) &&
      (!type || e.category === type) &&
      (!text || [e.name, ...e.nicknames, e.id].some((s) => s.includes(text))),
  );
  return (
    <section aria-label="设备列表" className="device-table">
      <div className="row">
        <select className="input" aria-label="按房间筛选" value={room} onChange={(e) => setRoom(e.target.value)}>
          <option value="">全部房间</option>
          {rooms.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
          <option value={NO_ROOM}>（未设置房间）</option>
        </select>
        <select className="input" aria-label="按类型筛选" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">全部类型</option>
          {types.map((t) => (
            <option key={t} value={t}>
              {deviceTypeLabel(t)}
            </option>
          ))}
        </select>
        <input className="input" type="search" placeholder="按名称筛选" aria-label="按名称筛选" value={text} onChange={(e) => setText(e.target.value)} />
        <label className="small row-inline">
          <input type="checkbox" checked={showIds} onChange={(e) => setShowIds(e.target.checked)} /> 显示设备 ID
        </label>
        <span className="muted small">显示 {shown.length} / {all.length} 项（设备 {home.devices.length} 个、分组 {home.groups.length} 个、场景 {home.scenes.length} 个）</span>
      </div>
      {shown.length === 0 ? (
        <EmptyState title="没有符合筛选条件的设备" />
      ) : (
        <div className="card flush table-scroll">
          <table className="data" aria-label="设备">
            <thead>
              <tr>
                <th>名称</th>
                <th>房间</th>
                <th>类型</th>
                <th style={{ whiteSpace: 'nowrap' }}>种类</th>
                <th>命令</th>
                <th>状态</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={`${e.kind}:${e.id}`}>
                  <td>
                    {e.name}
                    {e.nicknames.length ? <div className="muted small">别名：{e.nicknames.join('、')}</div> : null}
                    {showIds ? <div className="muted small mono">{e.id}</div> : null}
                  </td>
                  <td>{e.room ?? <span className="pill warn">未设置</span>}</td>
                  <td>{deviceTypeLabel(e.category)}</td>
                  <td style={{ whiteSpace: 'nowrap' }}>{KIND_LABEL[e.kind] ?? '设备'}</td>
                  <td className="small">{commandWords(e.commands)}</td>
                  <td className="small">{stateWords(e.attributes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function LintPanel({ lint, onRerun }: { lint: { data?: LintOut; error?: unknown; loading: boolean }; onRerun: () => void }) {
  if (lint.loading) return <Spinner label="正在检查命名…" />;
  if (lint.error) return <ErrorBox title="命名检查失败" error={lint.error} onRetry={onRerun} />;
  if (!lint.data) return null;
  const { issues, counts } = lint.data;
  const errors = issues.filter((i) => i.severity === 'error').length;
  return (
    <section className="lint" aria-label="命名检查">
      <div className="row">
        <div className="grow">
          {issues.length === 0 ? '没有发现命名问题' : `发现 ${issues.length} 个命名问题（${errors} 个错误，${issues.length - errors} 个警告）`}
        </div>
        <button type="button" className="btn small" onClick={onRerun}>
          重新检查
        </button>
      </div>
      {issues.length ? (
        <div className="tags">
          {Object.entries(counts).map(([rule, n]) => (
            <span key={rule} className="tag">
              {LINT_LABEL[rule] ?? rule} × {n}
            </span>
          ))}
        </div>
      ) : null}
      {issues.length === 0 ? (
        <EmptyState title="命名清晰" />
      ) : (
        <ul className="lint-list">
          {issues.map((i, k) => (
            <li key={k} className={`lint-item ${i.severity}`} aria-label={`${LINT_LABEL[i.rule] ?? i.rule}：${i.names.join('、')}`}>
              <div className="row">
                <span className={`pill ${i.severity === 'error' ? 'err' : 'warn'}`}>{i.severity === 'error' ? '错误' : '警告'}</span>
                <b>{LINT_LABEL[i.rule] ?? i.rule}</b>
                <span className="muted small">{i.names.map((n) => `「${n}」`).join('')}</span>
              </div>
              <div>{i.message}</div>
              <div className="muted small">建议：{i.suggestion}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
