/**
 * The one Chinese message catalogue for everything a person sees. Engines keep stable codes in
 * JSON (CLI --json, MCP); screens turn every code into words here, never show the code itself.
 * Data only: no React, no engine imports (types only, so a new code fails the typecheck until it
 * has words), so any screen (and tests) can use it.
 */
import type { OtherIntent, ValueAttribute } from '../../../core/devices/types';
import type { HomeFormat } from '../../../core/devices/home';
import actionTable from '../../../core/devices/vocab/actions.json' with { type: 'json' };
import categoryTable from '../../../core/devices/vocab/categories.json' with { type: 'json' };
import deviceLabels from '../../../core/devices/vocab/labels.json' with { type: 'json' };

/** Why a device was picked (retrieve.ts reason codes) -> short label + a sentence for the legend. */
export const DEVICE_REASONS: Record<string, { label: string; hint: string }> = {
  name_hit: { label: '名称', hint: '设备名称或别名与指令中的名字一致' },
  pinyin_hit: { label: '读音', hint: '名称读音相同或相近（可能是同音字或输错的字）' },
  name_partial: { label: '名称部分', hint: '指令中的名字是设备名称的一部分（或反过来）' },
  name_alias: { label: '名称简称', hint: '指令用的是产品名称的常见简称（如“皓石吸顶灯”指“Yeelight皓石吸顶灯Pro”）' },
  type_hit: { label: '种类', hint: '设备种类与指令中说的种类一致（如“灯”）' },
  room_hit: { label: '房间', hint: '设备所在房间与指令中的房间一致' },
  room_from_name: { label: '名称含房间', hint: '设备没有房间信息，但名称里含有指令中的房间' },
  vector_hit: { label: '语义相近', hint: '按语义模型，设备名称或说明与指令意思相近' },
  command_match: { label: '支持该操作', hint: '设备提供与指令动作相符的命令' },
  group_covers: { label: '分组覆盖', hint: '这是一个设备分组，它包含了所有命中的成员设备' },
  reference: { label: '指代', hint: '指令中的“它/这个”指上一轮提到的设备' },
  clarification_answer: { label: '澄清回答', hint: '根据您对上一个问题的回答选出' },
};

export function deviceReasonLabel(code: string): string {
  return DEVICE_REASONS[code]?.label ?? '其他依据';
}

/** Device kinds: GridCode's own from the one category table (src/core/devices/vocab/categories.json, data the
 * renderer may read), plus the umbrella kinds a command may ask for and Home Assistant domains. */
export const DEVICE_TYPES: Record<string, string> = {
  ...categoryTable.kinds,
  media: '播放设备',
  door: '门',
  valve: '阀门',
  freshAir: '新风机',
  projector: '投影仪',
  sensor: '传感器',
  binary_sensor: '状态传感器',
  climate: '空调/温控',
  cover: '窗帘/卷帘',
  media_player: '播放器',
  vacuum: '扫地机',
  scene: '场景',
  script: '脚本',
  automation: '自动化',
  group: '分组',
  mixed: '多种设备',
  device: '设备',
  other: '其他',
};

export function deviceTypeLabel(type: string | null | undefined): string {
  if (!type) return '设备';
  if (DEVICE_TYPES[type]) return DEVICE_TYPES[type];
  // already Chinese (a home file may name its own types)
  if (/[\u4e00-\u9fff]/.test(type)) return type;
  return '其他设备';
}

export const ENTITY_KINDS: Record<string, string> = { device: '设备', group: '分组', scene: '场景' };

/** Command actions by their label in the one action table (src/core/devices/vocab/actions.json `codes`, data the
 * renderer may read, as the CLI and the YAML preview do): 计时 -> 开始计时, UNKNOWN -> 未识别的动作. */
const ACTION_LABELS = new Map(Object.values(actionTable.codes).map((c) => [c.code, c.label]));
export function actionLabel(action: string | null | undefined): string {
  if (!action) return ACTION_LABELS.get('UNKNOWN') ?? '未识别的动作';
  return ACTION_LABELS.get(action) ?? action;
}

// typed by the engine's intents: a new intent without words here fails the typecheck
// (the words are the engine's one table, src/core/devices/vocab/labels.json, as the CLI and the YAML preview say them)
const INTENTS: Record<OtherIntent, string> = deviceLabels.intents;
// a timer's words are its action's label in the one action table
const TIMER_OPS: Record<string, string> = {
  start: actionTable.codes.timer_start.label,
  cancel: actionTable.codes.timer_cancel.label,
  status: actionTable.codes.timer_status.label,
  pause: actionTable.codes.timer_pause.label,
  resume: actionTable.codes.timer_resume.label,
};

function durationText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}小时` : ''}${m ? `${m}分钟` : ''}${s ? `${s}秒` : ''}` || '0秒';
}

/** 延时 10分钟后执行 / 开始计时 10分钟 / 不是设备指令（问时间）, or null. */
export function timingText(ir: { delay_seconds?: number; timer?: { op: string; seconds: number | null }; intent?: string; schedule?: { day: number | null; time: string | null; repeat?: string } }): string | null {
  if (ir.intent) return `不是设备指令（${INTENTS[ir.intent as OtherIntent] ?? '其他问题'}）`;
  if (ir.timer) return `${TIMER_OPS[ir.timer.op] ?? '计时器'}${ir.timer.seconds ? ` ${durationText(ir.timer.seconds)}` : ''}`;
  if (ir.delay_seconds) return `延时 ${durationText(ir.delay_seconds)}后执行`;
  if (ir.schedule) {
    const { day, time, repeat } = ir.schedule;
    return [repeat === 'daily' ? '每天' : '定时', repeat === 'daily' || day === null ? null : ['今天', '明天', '后天'][day], time, '执行'].filter(Boolean).join(' ');
  }
  return null;
}

export const QUANTIFIERS: Record<string, string> = { one: '一个', all: '全部', any: '任意一个', except: '除指定范围外的全部' };

export const REFERENCES: Record<string, string> = { 'last-mentioned': '上一轮提到的设备' };

export function referenceLabel(ref: string | null | undefined): string {
  if (!ref) return '—';
  return REFERENCES[ref] ?? '指代';
}

export const SENSORS: Record<string, { label: string; unit: string }> = {
  temperature: { label: '温度', unit: '℃' },
  humidity: { label: '湿度', unit: '%' },
  illuminance: { label: '光照', unit: ' lx' },
};

export const COMPARISONS: Record<string, string> = { '>': '高于', '>=': '不低于', '<': '低于', '<=': '不高于', '=': '等于' };

/** `温度高于28度就…` -> "卧室温度高于28℃" (the engine's reading of it, in words). */
export function conditionText(cond: { sensor: string; op: string; value: number; room?: string | null }): string {
  const s = SENSORS[cond.sensor] ?? { label: '读数', unit: '' };
  return `${cond.room ?? ''}${s.label}${COMPARISONS[cond.op] ?? '满足条件'}${cond.value}${s.unit}`;
}

/** What a command's value is about (devices/values.ts ValueAttribute) -> the word people use. */
export const VALUE_ATTRIBUTES: Record<Exclude<ValueAttribute, 'generic'>, string> = {
  brightness: '亮度',
  temperature: '温度',
  volume: '音量',
  position: '开合位置',
  fanSpeed: '风速',
  humidity: '湿度',
  colorTemp: '色温',
  color: '颜色',
  mode: '模式',
  channel: '频道',
  source: '信号源',
  content: '播放内容',
};

export function valueAttributeLabel(attribute: string | null | undefined): string | null {
  return attribute ? ((VALUE_ATTRIBUTES as Record<string, string>)[attribute] ?? null) : null;
}

/** Readings a home file keeps per device (attributes / state) -> words; unknown keys are left out. */
export const DEVICE_STATES: Record<string, string> = {
  temperature: '温度',
  humidity: '湿度',
  illuminance: '光照',
  brightness: '亮度',
  volume: '音量',
  position: '开合位置',
  power: '电源',
  state: '状态',
  battery: '电量',
  mode: '模式',
};

/** Device file formats (devices/home.ts HomeFormat) -> where the file came from, in words. */
export const HOME_FORMATS: Record<HomeFormat, string> = {
  'home-assistant': 'Home Assistant 导出',
  smartthings: 'SmartThings 导出',
  'devices-array': '设备清单',
  'home-object': '家庭文件',
};

export function homeFormatLabel(format: string | null | undefined): string {
  return format ? ((HOME_FORMATS as Record<string, string>)[format] ?? '设备文件') : '设备文件';
}

export const CONDITION_STATUS: Record<string, string> = { met: '当前已满足', not_met: '当前未满足', unknown: '暂无读数，无法判断' };

export const RETRIEVAL_MODES: Record<string, string> = {
  exact_name: '名称精确匹配',
  reference: '指代上一轮的设备',
  room_type_all: '房间内同类全部',
  all: '全部匹配',
  best: '最佳匹配',
  count: '按数量选取',
  clarify: '需要您确认',
  none: '没有匹配的设备',
  pending: '根据您的回答',
};

export const PARSERS: Record<string, string> = { rules: '规则解析', llm: '大模型解析', 'rules-fallback': '规则解析（大模型未响应）', commands: '直接给出的命令' };

/** Search decisions (search/fusion.ts) in the words a reader acts on. */
export const DECISIONS: Record<string, { label: string; tone: 'ok' | 'warn' | 'err' }> = {
  locked: { label: '找到明确答案', tone: 'ok' },
  ambiguous: { label: '有几处都可能相关', tone: 'warn' },
  low_evidence: { label: '相关内容不多', tone: 'err' },
};

export function decisionLabel(state: string): string {
  return DECISIONS[state]?.label ?? '检索结论';
}

/** Error codes (core/common/errors.ts + the shells' own) -> a title for the error box. */
export const ERROR_TITLES: Record<string, string> = {
  INVALID_INPUT: '输入有误',
  NOT_FOUND: '没有找到',
  UNSUPPORTED_FORMAT: '不支持的文件格式',
  BAD_FILE: '文件无法读取',
  TOO_LARGE: '文件太大',
  CONFLICT: '与现有内容冲突',
  MODEL_MISSING: '未安装语义模型',
  LLM_UNAVAILABLE: '在线大模型不可用',
  CANCELLED: '已取消',
  NETWORK: '无法连接到 GridCode 服务',
  TIMEOUT: '服务响应超时',
  INTERNAL: '程序内部错误',
};

/** Settings fields by config path: the names a person sees in the settings screen. */
export const CONFIG_FIELDS: Record<string, string> = {
  'search.topK': '返回条数',
  'search.tMin': '最低综合分',
  'search.ambiguityRatio': '歧义比例',
  'search.coverageThreshold': '覆盖度阈值',
  'search.rrfWeight': '排名融合权重',
  'search.rrfK': '排名融合常数',
  'search.minEvidence': '最低证据强度',
  'search.chunkChars': '索引分块长度',
  'search.candidates': '候选数量',
  'search.coverageCap': '覆盖计数上限',
  'search.listWeights': '各检索列表的融合权重',
  'search.maxDfRatio': '常见词过滤比例',
  'devices.epsilon': '设备澄清间隔',
  'devices.capabilityMin': '操作匹配下限',
  'devices.vectorMin': '语义匹配下限',
  'devices.maxOptions': '澄清选项上限',
  'devices.maxCandidates': '候选设备上限',
  'llm.enabled': '使用大模型解析设备指令',
  'llm.timeoutMs': '大模型超时',
  'llm.parseTimeoutMs': '解析超时',
  'llm.baseUrl': '接口地址',
  'llm.parseModel': '解析模型',
  'llm.chatModel': '问答模型',
  'import.maxFileBytes': '导入文件大小上限',
  'import.virtualPageChars': '每页字数',
  'reader.maxPages': '单次读取页数上限',
  folder: '文件夹',
  query: '查询内容',
  reg_id: '规程',
  paths: '文件',
};

export function fieldLabel(path: string): string {
  return CONFIG_FIELDS[path] ?? CONFIG_FIELDS[path.replace(/^patch\./, '')] ?? CONFIG_FIELDS[path.split('.').pop() ?? ''] ?? '';
}

/**
 * One zod message (Chinese locale) -> plain words: `数值过大：期望 number <=1` -> `不能大于 1`.
 * Anything unrecognised keeps only its Chinese part.
 */
export function zodPhrase(message: string): string {
  const m = message.trim();
  let r: RegExpExecArray | null;
  if ((r = /数值过大：期望 (?:number|int|bigint) (<=?)\s*(-?[\d.e+]+)/.exec(m))) return r[1] === '<=' ? `不能大于 ${r[2]}` : `必须小于 ${r[2]}`;
  if ((r = /数值过小：期望 (?:number|int|bigint) (>=?)\s*(-?[\d.e+]+)/.exec(m))) return r[1] === '>=' ? `不能小于 ${r[2]}` : `必须大于 ${r[2]}`;
  if ((r = /数值过小：期望 string >=\s*(\d+)/.exec(m))) return r[1] === '1' ? '不能为空' : `至少 ${r[1]} 个字`;
  if ((r = /数值过大：期望 string <=\s*(\d+)/.exec(m))) return `最多 ${r[1]} 个字`;
  if ((r = /数值过大：期望 array <=\s*(\d+)/.exec(m))) return `最多 ${r[1]} 项`;
  if ((r = /数值过小：期望 array >=\s*(\d+)/.exec(m))) return `至少 ${r[1]} 项`;
  if (/期望 int/.test(m)) return '必须是整数';
  if (/期望 (?:number|数字)/.test(m)) return /undefined/.test(m) ? '不能为空' : '必须是数字';
  if (/期望 (?:string|字符串)/.test(m)) return /undefined/.test(m) ? '不能为空' : '必须是文字';
  if (/期望 (?:boolean|布尔值)/.test(m)) return '必须是开或关';
  if (/无效选项/.test(m)) return '不是可选的值';
  if (/未知的键/.test(m)) return '包含无法识别的设置项';
  return m.replace(/[A-Za-z_<>=|"]+/g, '').replace(/\s+/g, ' ').trim() || '取值无效';
}

/** `search.ambiguityRatio: 数值过大：期望 number <=1` -> `「歧义比例」不能大于 1`. */
export function fieldIssue(path: string, message: string): string {
  const name = fieldLabel(path);
  const phrase = zodPhrase(message);
  return name ? `「${name}」${phrase}` : phrase;
}

const PATH_RE = /(?:[A-Za-z]:)?(?:[\\/][^\\/\s：:，,。；;'"「」()（）]+){2,}/g;

/** Absolute paths -> their last part: people may see a file's name, never where the app keeps it. */
export function stripPaths(text: string): string {
  return text.replace(PATH_RE, (p) => {
    const base = p.split(/[\\/]/).pop() ?? '';
    return base ? `「${base}」` : '';
  });
}

/** Library (parser, runtime) messages in English after a Chinese lead: keep the lead only. */
function dropLibraryTail(text: string): string {
  // "…不是有效的 JSON：Expected ',' or ']' after array element…" -> "…不是有效的 JSON"
  return text.replace(/([\u4e00-\u9fff」）)A-Z]{1}[^：:]*?)[：:]\s*[A-Za-z][A-Za-z0-9 ,'"\]\[().:;_-]{6,}$/u, '$1');
}

/** Engine messages often read `<summary> — path: issue; path: issue`; each issue gets a field name. */
function humanizeIssues(text: string): string {
  const dash = text.indexOf(' — ');
  const lead = dash >= 0 ? text.slice(0, dash) : '';
  const rest = dash >= 0 ? text.slice(dash + 3) : text;
  const parts = rest.split(/;\s*|；/);
  const issueRe = /^([A-Za-z_][\w.]*|\(输入\))\s*:\s*(.+)$/;
  if (!parts.every((p) => issueRe.test(p.trim()))) return text;
  const words = parts.map((p) => {
    const [, field, msg] = issueRe.exec(p.trim())!;
    return fieldIssue(field === '(输入)' ? '' : field, msg);
  });
  const cleanLead = lead.replace(/\s*\([\w.]+\)\s*/g, '').trim();
  return `${cleanLead ? `${cleanLead}：` : ''}${words.join('；')}`;
}

/** What a person reads for an error: Chinese, no codes, no internal paths, no library English. */
export function humanMessage(code: string, message: string): string {
  if (code === 'NETWORK' || /Failed to fetch|NetworkError|ECONNREFUSED|Load failed/i.test(message)) {
    return '无法连接到 GridCode 本地服务。请确认服务仍在运行（浏览器版：终端里的 npm run web），然后点“重试”。';
  }
  if (code === 'TIMEOUT' || /timed? ?out|超时/i.test(message)) return '服务在规定时间内没有响应。可能正在处理较大的任务，请稍后点“重试”。';
  if (code === 'CANCELLED') return '操作已取消';
  let text = message.replace(/^(?:Error|GridError|TypeError|ZodError):\s*/, '');
  text = humanizeIssues(text);
  text = stripPaths(text);
  text = dropLibraryTail(text);
  if (!/[\u4e00-\u9fff]/.test(text)) return `${ERROR_TITLES[code] ?? '出错了'}。请重试；若问题持续，请重新启动 GridCode。`;
  // drop codes that slipped into a message
  text = text.replace(/\b(?:UNKNOWN|LOW_EVIDENCE|INVALID_INPUT|NOT_FOUND|BAD_FILE|INTERNAL)\b[：:]?\s*/g, '');
  return text.trim();
}

/** The LLM switch needs a key: what to tell a person who turns it on without one. */
export const LLM_KEY_MISSING = {
  browser: '还没有配置 DashScope 密钥：大模型解析不会生效，设备指令仍由规则解析。浏览器版请在启动服务前设置环境变量 DASHSCOPE_API_KEY，然后重新运行 npm run web。',
  desktop: '还没有配置 DashScope 密钥：大模型解析不会生效，设备指令仍由规则解析。请在上方“API 密钥”处填写并保存密钥。',
};
